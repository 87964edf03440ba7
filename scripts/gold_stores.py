"""Write the gold stores: small Zarr stores written by real implementations at exact versions,
frozen as read cases under fixtures/<format>/gold-<writer>/<case>/.

    .venv/bin/python scripts/gold_stores.py                 # every writer, only what is missing/stale
    .venv/bin/python scripts/gold_stores.py --writer zarrs  # one writer
    .venv/bin/python scripts/gold_stores.py --force         # rewrite everything
    .venv/bin/python scripts/gold_stores.py --list          # what would be written

Each writer runs in its own virtualenv under .cache/gold-envs/ (made here with `pip install` of
exact pins, see scripts/gold_cases.py) and its own subprocess (scripts/gold_writers.py). The
expected data of every case is the WRITER'S INPUT (seeded by the case id) with the fill value
where nothing was written, never what the writer reads back. case.json carries `provenance`
{writer, version, script, versions, spec_digest}; `zarr-conformance corpus generate` never touches
such cases. Idempotent: a case whose folder already has the same writer version and spec digest is
kept; the virtualenvs are made once.
"""

from __future__ import annotations

import argparse
import hashlib
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gold_cases import WRITERS, GoldCase, Writer, cases_for  # noqa: E402

SCRIPT = "scripts/gold_stores.py"
MAX_STORE_BYTES = 64 * 1024
COMPLETE = ".gold-env-complete"
V3_DTYPES = {
    "bool": "|b1",
    "int8": "|i1",
    "int16": "<i2",
    "int32": "<i4",
    "int64": "<i8",
    "uint8": "|u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "uint64": "<u8",
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "complex64": "<c8",
    "complex128": "<c16",
}


def say(message: str) -> None:
    print(f"gold-stores: {message}", file=sys.stderr, flush=True)


# ---- environments ---------------------------------------------------------------------------
def env_dir(writer: Writer) -> Path:
    py = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    digest = hashlib.sha256("\n".join([py, *sorted(writer.pins)]).encode()).hexdigest()[:12]
    return REPO / ".cache" / "gold-envs" / f"{writer.name}-{digest}"


def ensure_env(writer: Writer) -> Path:
    """The python of the writer's virtualenv, made with exactly its pins on first use."""
    folder = env_dir(writer)
    python = folder / "bin" / "python"
    if (folder / COMPLETE).exists():
        return python
    shutil.rmtree(folder, ignore_errors=True)  # a half-made one from an interrupted run
    say(f"creating {folder.relative_to(REPO)}: pip install {' '.join(writer.pins)}")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    proc = subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", *writer.pins],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if proc.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise SystemExit(f"pip install for {writer.name} failed:\n{proc.stdout[-3000:]}")
    (folder / COMPLETE).write_text(json.dumps({"pins": list(writer.pins)}) + "\n")
    return python


# ---- inputs and expectations ----------------------------------------------------------------
def spec_digest(case: GoldCase) -> str:
    text = json.dumps(
        [
            case.format,
            case.description,
            case.requirements,
            case.needs,
            case.nodes,
            case.read,
            case.tier,
        ],
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def node_dtype(node: dict) -> np.dtype:
    from conformance.reference.formats.v2 import parse_dtype

    if node.get("strings"):
        return np.dtype(object)
    if "data_type" in node:
        return np.dtype(V3_DTYPES[node["data_type"]])
    return parse_dtype(node["dtype"])


def node_fill(node: dict, dtype: np.dtype) -> np.ndarray:
    """The fill value the JSON form denotes, as a 0-d array (the v2 and v3 encodings used here agree)."""
    from conformance.corpus.builders.v2_kit import fill_bits

    if dtype.hasobject:
        out = np.empty((), dtype=object)
        out[()] = node["fill_json"]
        return out
    return fill_bits({"fill_value": node["fill_json"]}, dtype)


def node_input(case: GoldCase, node: dict, dtype: np.dtype, fill: np.ndarray) -> np.ndarray:
    from conformance.corpus.data import sample, strings
    from conformance.corpus.generator import seed_for

    rng = np.random.default_rng(seed_for(f"{case.id}/{node['path']}"))
    if dtype.hasobject:
        return strings(rng, node["shape"])
    return sample(rng, node["shape"], dtype, avoid=fill)


def document(case: GoldCase, node: dict) -> dict:
    """The metadata document a JSON-driven writer (tensorstore) is given."""
    if case.format == "v2":
        doc = {
            "zarr_format": 2,
            "shape": node["shape"],
            "chunks": node["chunks"],
            "dtype": node["dtype"],
            "compressor": node["compressor"],
            "fill_value": node["fill_json"],
            "order": node["order"],
            "filters": node["filters"],
        }
        if node.get("separator"):
            doc["dimension_separator"] = node["separator"]
        return doc
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": node["shape"],
        "data_type": node["data_type"],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": node["chunks"]}},
        "chunk_key_encoding": node.get("chunk_key_encoding")
        or {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": node["fill_json"],
        "codecs": node["codecs"],
    }
    if node.get("attributes"):
        doc["attributes"] = node["attributes"]
    if node.get("dimension_names"):
        doc["dimension_names"] = node["dimension_names"]
    return doc


def prepare_job(cases: list[GoldCase], job: Path) -> dict[str, np.ndarray]:
    """Write job.json and the input files; return the expected array of every (case, node path)."""
    expected = {}
    entries = []
    for case in cases:
        nodes = []
        for i, node in enumerate(case.nodes):
            node = dict(node)
            if node["kind"] == "array":
                dtype = node_dtype(node)
                fill = node_fill(node, dtype)
                data = node_input(case, node, dtype, fill)
                stem = f"inputs/{case.format}-{case.name}-{i}"
                (job / "inputs").mkdir(exist_ok=True)
                if dtype.hasobject:
                    node["input"] = stem + ".json"
                    (job / node["input"]).write_text(json.dumps(data.ravel().tolist()), "utf-8")
                else:
                    node["input"] = stem + ".npy"
                    np.save(job / node["input"], data, allow_pickle=False)
                    node["fill_npy"] = stem + "-fill.npy"
                    np.save(job / node["fill_npy"], fill, allow_pickle=False)
                node["document"] = document(case, node)
                node["numpy_dtype"] = (
                    node["dtype"] if "dtype" in node else V3_DTYPES[node["data_type"]]
                )
                out = np.empty(data.shape, dtype=dtype)
                out[...] = fill
                where = tuple(slice(a, b) for a, b in node["region"])
                out[where] = data[where]
                expected[(case.id, node["path"])] = out
            nodes.append(node)
        entries.append(
            {"name": f"{case.format}-{case.name}", "format": case.format, "nodes": nodes}
        )
    (job / "job.json").write_text(json.dumps({"cases": entries}, indent=1), "utf-8")
    return expected


# ---- freezing -------------------------------------------------------------------------------
def case_folder(fixtures: Path, case: GoldCase) -> Path:
    return fixtures / case.id


def is_current(fixtures: Path, case: GoldCase) -> bool:
    path = case_folder(fixtures, case) / "case.json"
    try:
        prov = json.loads(path.read_text("utf-8"))["provenance"]
    except (OSError, ValueError, KeyError):
        return False
    writer = WRITERS[case.writer]
    return prov.get("version") == writer.version and prov.get("spec_digest") == spec_digest(case)


def members_of(case: GoldCase) -> dict[str, str]:
    prefix = f"{case.read}/" if case.read else ""
    out = {}
    for node in case.nodes:
        rest = (
            node["path"][len(prefix) :]
            if node["path"].startswith(prefix) and node["path"] != case.read
            else None
        )
        if rest and "/" not in rest:
            out[rest] = node["kind"]
    return out


def freeze(case: GoldCase, written: Path, expected: dict, versions: dict, fixtures: Path) -> None:
    """Turn one written store into a read case folder (replacing any older one)."""
    from conformance.corpus.capabilities import unknown
    from conformance.corpus.generator import CaseSpec, CaseWriter

    size = sum(p.stat().st_size for p in written.rglob("*") if p.is_file())
    if size > MAX_STORE_BYTES:
        raise SystemExit(f"{case.id}: the written store is {size} bytes (limit {MAX_STORE_BYTES})")
    needs = sorted(set(case.needs) | {f"format:{case.format}", "store:directory"})
    if unknown(needs):
        raise SystemExit(f"{case.id}: unknown capability names {unknown(needs)}")
    w = CaseWriter(
        CaseSpec(
            case.id,
            "read",
            case.format,
            case.tier,
            case.description,
            case.requirements,
            tuple(needs),
            lambda _: None,
        )
    )
    node = next(n for n in case.nodes if n["path"] == case.read)
    if node["kind"] == "group":
        w.expect_group(attributes=node.get("attributes") or {}, members=members_of(case))
    else:
        attrs = node.get("attributes") or {}
        w.expect_array(expected[(case.id, case.read)], attributes=attrs)
    writer = WRITERS[case.writer]
    doc = {
        "id": case.id,
        "description": case.description,
        "kind": "read",
        "format": case.format,
        "tier": case.tier,
        "requirements": list(case.requirements),
        "needs": needs,
        "store": "store",
        "node": case.read,
        "expect": w.expect,
        "provenance": {
            "writer": writer.name,
            "version": writer.version,
            "script": SCRIPT,
            "versions": versions,
            "spec_digest": spec_digest(case),
        },
    }
    target = case_folder(fixtures, case)
    staging = target.with_name(f".{target.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(written, staging / "store")
    for rel, value in w.files.items():
        (staging / rel).write_bytes(value)
    (staging / "case.json").write_text(
        json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n", "utf-8"
    )
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)
    from conformance.corpus.gold_verdicts import apply_gold_updates

    apply_gold_updates(
        target
    )  # tier policy, citation, adjudication, read expectations (scripts/gold_verdicts.py)


def check_versions(writer: Writer, versions: dict) -> None:
    """The versions that really ran must be exactly the pinned ones."""
    want = {writer.package: writer.version, **writer.also}
    for package, version in want.items():
        if versions.get(package) != version:
            raise SystemExit(
                f"{writer.name}: {package} {versions.get(package)} ran, {version} is pinned"
            )


def prune(fixtures: Path, writer: Writer, keep: set[str]) -> None:
    """Remove gold cases of this writer that the plan no longer has."""
    for fmt in ("v2", "v3"):
        folder = fixtures / fmt / f"gold-{writer.name}"
        for case_json in sorted(folder.glob("*/case.json")) if folder.exists() else []:
            doc = json.loads(case_json.read_text("utf-8"))
            if doc.get("provenance", {}).get("writer") == writer.name and doc["id"] not in keep:
                say(f"removing stale {doc['id']}")
                shutil.rmtree(case_json.parent)


def write_writer(name: str, fixtures: Path, force: bool) -> int:
    writer = WRITERS[name]
    cases = cases_for(name)
    prune(fixtures, writer, {c.id for c in cases})
    todo = [c for c in cases if force or not is_current(fixtures, c)]
    if not todo:
        say(f"{name}: {len(cases)} gold cases up to date")
        return 0
    python = ensure_env(writer)
    with tempfile.TemporaryDirectory(prefix=f"gold-{name}-") as tmp:
        job = Path(tmp)
        expected = prepare_job(todo, job)
        say(f"{name}: writing {len(todo)} stores")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        proc = subprocess.run(
            [str(python), str(REPO / "scripts" / "gold_writers.py"), name, str(job)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        if proc.returncode != 0:
            raise SystemExit(f"{name} failed:\n{proc.stdout[-4000:]}")
        versions = json.loads((job / "versions.json").read_text("utf-8"))
        versions["python"] = subprocess.run(
            [str(python), "-c", "import platform; print(platform.python_version())"],
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        ).stdout.strip()
        check_versions(writer, versions)
        for case in todo:
            freeze(case, job / f"{case.format}-{case.name}" / "store", expected, versions, fixtures)
    say(f"{name}: froze {len(todo)} gold cases")
    return len(todo)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--writer", action="append", choices=sorted(WRITERS), help="only this writer (repeatable)"
    )
    parser.add_argument(
        "--fixtures", type=Path, default=REPO / "fixtures", help="corpus root (default fixtures/)"
    )
    parser.add_argument(
        "--force", action="store_true", help="rewrite cases that are already current"
    )
    parser.add_argument("--list", action="store_true", help="list the planned cases and exit")
    args = parser.parse_args(argv)
    names = args.writer or list(WRITERS)
    if args.list:
        for name in names:
            for case in cases_for(name):
                state = "current" if is_current(args.fixtures, case) else "to write"
                print(f"{case.id:60} {state}")
        return 0
    total = sum(write_writer(name, args.fixtures, args.force) for name in names)
    say(f"done: {total} cases written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
