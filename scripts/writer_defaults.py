"""Gold stores of what real writers emit BY DEFAULT: for each implementation, one array per data
type it writes, created with nothing but shape, chunks and data type (its own default codecs,
compressor, filters, fill value and key encoding), frozen as read cases under
fixtures/<format>/writers-<writer>/<data type>/.

    .venv/bin/python scripts/writer_defaults.py                       # every writer
    .venv/bin/python scripts/writer_defaults.py --writer tensorstore  # one writer
    .venv/bin/python scripts/writer_defaults.py --list                # the plan

Each writer runs in its adapter's own virtualenv (the harness provisions it under .cache/) through
scripts/writer_defaults_child.py; zarrita-js runs scripts/writer_defaults_zarrita.mjs with node
next to its adapter's npm packages. The expected data is the writer's INPUT (seeded by the case id;
the whole array is written), never a read-back. case.json carries `provenance` {writer, version,
script, versions}; `corpus generate` keeps such cases and `corpus check` checks their verdict
members. The tier follows what the writer put in the store: `required` when it uses only what the
core spec defines, `extension` when it uses a zarr-extensions entry (or, in v2, object arrays).
A library's refusal of a type, and a written store the reference cannot open, are reported and
not frozen (the second is a finding about one of the two).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from conformance.corpus.capabilities import V3_DTYPES  # noqa: E402 (after the path)

SCRIPT = "scripts/writer_defaults.py"
SHAPE, CHUNKS = (5, 4), (2, 3)
# The core v3 data types with a numpy equivalent (the vocabulary's list, without r*).
NUMERIC = [t for t in V3_DTYPES if t != "r*"]
NUMPY_TYPES = [*NUMERIC, ">i4", "<U5", "S5", "V3", "M8[ns]", "m8[s]", "str", "bytes-object"]
ML_TYPES = ["bfloat16", "float8_e4m3fn", "float8_e5m2", "int4"]
# writer -> (formats, data types, package whose version is the writer's)
PLAN = {
    "zarr-python": (("v3", "v2"), NUMPY_TYPES, "zarr"),
    "zarrs-python": (("v3",), NUMPY_TYPES, "zarrs"),
    "zarr-python2": (("v2",), NUMPY_TYPES, "zarr"),
    "tensorstore": (("v3", "v2"), [*NUMERIC, *ML_TYPES, "string"], "tensorstore"),
    # zarrista's ArrayBuilder: the zarrs crate's own defaults (its version names the writer); v3 only
    "zarrs": (("v3",), [*NUMERIC, *ML_TYPES, "str", "bytes-object"], "zarrs"),
    # a node writer (scripts/writer_defaults_zarrita.mjs); its create() writes v3 only
    "zarrita-js": (("v3",), NUMERIC, "zarrita"),
}
NODE_WRITERS = {"zarrita-js": "writer_defaults_zarrita.mjs"}
CORE_V3_TYPES = set(NUMERIC)
CORE_V3_CODECS = {"bytes", "transpose", "gzip", "blosc", "crc32c", "sharding_indexed"}
# unregistered names zarr-python 3 writes -> the capability of the NumPy type they hold
V3_WRITER_TYPES = {
    "null_terminated_bytes": "dtype:fixed-bytes",
    "raw_bytes": "dtype:raw",
    "variable_length_bytes": "dtype:bytes",
    "fixed_length_utf32": "dtype:fixed_length_utf32",
}


def say(message: str) -> None:
    print(f"writer-defaults: {message}", file=sys.stderr, flush=True)


def slug(dtype: str) -> str:
    return {">i4": "int32-big-endian", "<U5": "unicode-U5", "S5": "bytes-S5", "V3": "void-V3"}.get(
        dtype, dtype.replace("[", "-").replace("]", "")
    )


def case_id(writer: str, fmt: str, dtype: str) -> str:
    return f"{fmt}/writers-{writer}/{slug(dtype)}"


# ---- inputs ---------------------------------------------------------------------------------------
def make_input(cid: str, dtype: str):
    """The array a writer is given: seeded by the case id, no value equal to a zero fill."""
    from conformance.corpus.data import sample, strings
    from conformance.corpus.generator import seed_for

    rng = np.random.default_rng(seed_for(cid))
    if dtype in ("str", "string"):
        return strings(rng, SHAPE)
    if dtype == "bytes-object":
        out = np.empty(SHAPE, dtype=object)
        out[...] = [[s.encode("utf-8") for s in row] for row in strings(rng, SHAPE)]
        return out
    if dtype in ML_TYPES:
        import ml_dtypes

        values = [1.0, -2.0, 3.0, 0.5, -1.5] if dtype != "int4" else [-8, -1, 3, 7, 5]
        return np.array(rng.choice(values, SHAPE), dtype=getattr(ml_dtypes, dtype))
    if dtype == "<U5":
        return strings(rng, SHAPE).astype("<U5")
    if dtype == "S5":
        return np.array([[s.encode("utf-8")[:5] for s in row] for row in strings(rng, SHAPE)], "S5")
    if dtype == "V3":
        return rng.integers(0, 256, SHAPE + (3,), dtype=np.uint8).view("V3").reshape(SHAPE)
    if dtype[0] in "Mm":
        return rng.integers(-(10**12), 10**12, SHAPE).astype(dtype)
    np_dtype = np.dtype(dtype)
    return sample(rng, SHAPE, np_dtype, avoid=np.zeros((), np_dtype))


def prepare(writer: str, job: Path) -> dict[str, tuple[str, str, np.ndarray]]:
    formats, dtypes, _ = PLAN[writer]
    entries, inputs = [], {}
    (job / "inputs").mkdir()
    for fmt in formats:
        for dtype in dtypes:
            cid = case_id(writer, fmt, dtype)
            name = cid.replace("/", "--")
            data = make_input(cid, dtype)
            entry = {"name": name, "format": fmt, "dtype": dtype, "shape": list(SHAPE)}
            entry["chunks"] = list(CHUNKS)
            if data.dtype.hasobject:
                entry["input"] = f"inputs/{name}.json"
                flat = [v.decode("latin-1") if isinstance(v, bytes) else v for v in data.ravel()]
                (job / entry["input"]).write_text(json.dumps(flat), "utf-8")
            else:
                entry["input"] = f"inputs/{name}.npy"
                if dtype in ML_TYPES:
                    entry["ml_dtype"] = dtype
                    np.save(job / entry["input"], data.view(f"V{data.dtype.itemsize}"))
                else:
                    np.save(job / entry["input"], data, allow_pickle=False)
            entry["ts_dtype"] = {"str": "string", "bytes-object": "string"}.get(dtype, dtype)
            entries.append(entry)
            inputs[name] = (cid, fmt, data)
    (job / "job.json").write_text(json.dumps({"cases": entries}, indent=1), "utf-8")
    return inputs


# ---- what the store uses ----------------------------------------------------------------------------
def v2_needs(meta: dict) -> set[str]:
    from conformance.corpus.capabilities import VOCABULARY

    needs = set()
    descr = meta["dtype"]
    kinds = [descr] if isinstance(descr, str) else [f[1] for f in descr]
    if not isinstance(descr, str):
        needs.add("dtype:structured")
    for typestr in kinds:
        dt = np.dtype(typestr)
        if dt.byteorder == ">":
            needs.add("dtype:big-endian")
        needs.add(
            {"S": "dtype:fixed-bytes", "U": "dtype:fixed-unicode", "V": "dtype:raw"}.get(
                dt.kind, "dtype:object" if dt.kind == "O" else ""
            )
            or {"M": "dtype:datetime64", "m": "dtype:timedelta64"}.get(dt.kind, "")
            or f"dtype:{dt.newbyteorder('=').name}"
        )
    for codec in [meta.get("compressor"), *(meta.get("filters") or [])]:
        if codec:
            needs.add(f"codec:{codec['id']}")
    if meta.get("order") == "F":
        needs.add("feature:order-F")
    if meta.get("dimension_separator") == "/":
        needs.add("feature:dimension-separator-slash")
    if meta.get("fill_value") is None:
        needs.add("feature:fill-null")
    return {n for n in needs if n in VOCABULARY} | ({"dtype:object"} & needs)


def v3_needs(doc: dict) -> tuple[set[str], bool]:
    """Capabilities the v3 store needs, and whether it uses a zarr-extensions entry."""
    dtype = doc["data_type"]
    name = dtype if isinstance(dtype, str) else dtype["name"]
    needs = {V3_WRITER_TYPES.get(name, f"dtype:{name}")}
    extension = name not in CORE_V3_TYPES
    for codec in doc["codecs"]:
        cname = codec if isinstance(codec, str) else codec["name"]
        needs.add(f"codec:{cname}")
        extension |= cname not in CORE_V3_CODECS
        for inner in (
            (codec.get("configuration") or {}).get("codecs", []) if isinstance(codec, dict) else []
        ):
            needs.add(f"codec:{inner['name']}")
            extension |= inner["name"] not in CORE_V3_CODECS
    cke = doc["chunk_key_encoding"]
    if (cke if isinstance(cke, str) else cke["name"]) == "v2":
        needs.add("feature:chunk-key-encoding-v2")
    if doc.get("dimension_names"):
        needs.add("feature:dimension-names")
    return needs, extension


def requirements_of(fmt: str, dtype: np.dtype, extension: bool) -> list[str]:
    """The catalogue requirements a read of the store rests on (their citations come with them)."""
    if fmt == "v3":
        if extension:
            return ["V3-DT-009"]
        kind = {"b": "V3-DT-002", "i": "V3-DT-003", "u": "V3-DT-003", "c": "V3-DT-005"}
        return [kind.get(dtype.kind, "V3-DT-004")]
    kind = {
        "b": "V2-DTYPE-003",
        "S": "V2-DTYPE-005",
        "U": "V2-DTYPE-006",
        "M": "V2-DTYPE-004",
        "m": "V2-DTYPE-004",
        "c": "V2-DTYPE-009",
        "V": "V2-DTYPE-010",
    }
    out = [kind.get(dtype.kind, "V2-DTYPE-001")]
    if dtype.byteorder == ">":
        out.append("V2-DTYPE-002")
    # object arrays: no data type sentence; their chunks decode through the filters (vlen-*)
    return out if dtype.kind != "O" else ["V2-CHUNK-002"]


def summary(fmt: str, store: Path) -> str:
    if fmt == "v2":
        meta = json.loads((store / ".zarray").read_text("utf-8"))
        filters = [f["id"] for f in meta.get("filters") or []]
        comp = (meta.get("compressor") or {}).get("id")
        return (
            f"dtype {json.dumps(meta['dtype'])}, compressor {comp}, filters {filters or None}, "
            f"fill_value {json.dumps(meta['fill_value'])}"
        )
    doc = json.loads((store / "zarr.json").read_text("utf-8"))
    codecs = [c if isinstance(c, str) else c["name"] for c in doc["codecs"]]
    return (
        f"data_type {json.dumps(doc['data_type'])}, codecs {codecs}, "
        f"fill_value {json.dumps(doc['fill_value'])}"
    )


# ---- freezing ---------------------------------------------------------------------------------------
def freeze(writer, version, versions, cid, fmt, dtype, data, store: Path, fixtures: Path) -> str:
    """The written store as a read case; returns a line for the log (or raises ValueError)."""
    from conformance.corpus.capabilities import unknown
    from conformance.corpus.generator import CaseSpec, CaseWriter
    from conformance.corpus.gold_verdicts import apply_gold_updates
    from conformance.reference import get_format, open_store

    try:  # a store the reference cannot open is a finding, not a case (its verdict needs it)
        with open_store(store) as opened:
            node = get_format(fmt).open_node(opened, "")
            node.read()
            attributes = node.attrs  # what the writer stored unasked (zarrs: `_zarrs`) counts too
    except Exception as exc:
        raise ValueError(f"the reference cannot read it: {exc}") from None
    if fmt == "v2":
        needs = v2_needs(json.loads((store / ".zarray").read_text("utf-8")))
        extension = "dtype:object" in needs
    else:
        needs, extension = v3_needs(json.loads((store / "zarr.json").read_text("utf-8")))
    needs = sorted(needs | {f"format:{fmt}", "store:directory"})
    if unknown(needs):
        raise ValueError(f"unknown capability names {unknown(needs)}")
    tier = "extension" if extension else "required"
    requirements = requirements_of(fmt, data.dtype, extension)
    what = summary(fmt, store)
    description = (
        f"{writer} {version} writes a NumPy {dtype} array to {fmt} with its defaults: {what}"
    )
    w = CaseWriter(CaseSpec(cid, "read", fmt, tier, description, (), tuple(needs), lambda _: None))
    if data.dtype.type.__module__ == "ml_dtypes":
        data = data.view(f"V{data.dtype.itemsize}")
    w.expect_array(data, attributes=attributes)
    doc = {
        "id": cid,
        "description": description,
        "kind": "read",
        "format": fmt,
        "tier": tier,
        "requirements": requirements,
        "needs": needs,
        "store": "store",
        "node": "",
        "expect": w.expect,
        "provenance": {
            "writer": writer,
            "version": version,
            "script": SCRIPT,
            "versions": versions,
        },
    }
    target = fixtures / cid
    staging = target.with_name(f".{target.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(store, staging / "store")
    for rel, value in w.files.items():
        (staging / rel).write_bytes(value)
    (staging / "case.json").write_text(
        json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n", "utf-8"
    )
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)
    apply_gold_updates(target)
    return f"{cid} [{tier}]: {what}"


def child_command(writer: str, job: Path) -> tuple[list[str], Path | None]:
    """The command that writes a job with `writer`'s defaults, and its working directory."""
    from conformance.harness.config import find_adapter
    from conformance.harness.envs import adapter_python, ensure_npm, stage_command_folder

    config = find_adapter(writer)
    if writer in NODE_WRITERS:
        # ESM resolves bare imports from the script's own folder: run it next to node_modules
        ensure_npm(config)
        folder = stage_command_folder(config)
        shutil.copy2(REPO / "scripts" / NODE_WRITERS[writer], folder / NODE_WRITERS[writer])
        return ["node", NODE_WRITERS[writer], str(job)], folder
    child = REPO / "scripts" / "writer_defaults_child.py"
    return [str(adapter_python(config)), str(child), writer, str(job)], None


def run_writer(writer: str, fixtures: Path) -> dict:
    counts = {"frozen": 0, "refused": 0, "unreadable": 0}
    with tempfile.TemporaryDirectory(prefix=f"writer-defaults-{writer}-") as tmp:
        job = Path(tmp)
        inputs = prepare(writer, job)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        command, cwd = child_command(writer, job)
        proc = subprocess.run(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=cwd
        )
        if proc.returncode != 0:
            raise SystemExit(f"{writer} failed:\n{proc.stdout[-4000:]}")
        versions = json.loads((job / "versions.json").read_text("utf-8"))
        refused = json.loads((job / "refused.json").read_text("utf-8"))
        version = versions[PLAN[writer][2]]
        folder = fixtures
        for fmt in PLAN[writer][0]:  # a writer's cases are replaced as a whole
            shutil.rmtree(folder / fmt / f"writers-{writer}", ignore_errors=True)
        for name, (cid, fmt, data) in sorted(inputs.items()):
            dtype = next(d for d in PLAN[writer][1] if case_id(writer, fmt, d) == cid)
            if name in refused:
                counts["refused"] += 1
                say(f"{cid}: {writer} refuses it: {refused[name][:200]}")
                continue
            try:
                line = freeze(
                    writer, version, versions, cid, fmt, dtype, data, job / name / "store", fixtures
                )
            except ValueError as exc:
                counts["unreadable"] += 1
                say(f"{cid}: not frozen: {str(exc)[:300]}")
                continue
            counts["frozen"] += 1
            say(line)
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writer", action="append", choices=sorted(PLAN))
    parser.add_argument("--fixtures", type=Path, default=REPO / "fixtures")
    parser.add_argument("--list", action="store_true", help="list the planned cases and exit")
    args = parser.parse_args(argv)
    names = args.writer or list(PLAN)
    if args.list:
        for writer in names:
            formats, dtypes, _ = PLAN[writer]
            for fmt in formats:
                for dtype in dtypes:
                    print(case_id(writer, fmt, dtype))
        return 0
    for writer in names:
        counts = run_writer(writer, args.fixtures)
        say(f"{writer}: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
