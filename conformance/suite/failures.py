"""Saving the shrunk failing example of a property test as corpus-format case folders.

Deterministic runs (the default) save under .cache/failures/ (save_example), to be looked at and
re-run on their own: `zarr-conformance run --fixtures .cache/failures/...`. Two cases per
example: `write` (the request: metadata, attributes, input data; judged by the reference) and,
when the writer managed to write it, `read` (the store the writer produced, with the input as
expected data): the first blames a writer, the second a reader.

Explore runs (`--hypothesis-explore`) save each NEW failure into the corpus instead (save_found),
as `<format>/found/<digest>-write` and `<format>/found/<digest>-read`, with a `provenance` saying
which property, pair and versions found it (so `corpus generate` keeps them, like gold stores).
Where: found_root() (conformance.harness.properties): `$ZARR_CONFORMANCE_FOUND`, else the corpus
being run when it is writable (the checkout's fixtures/: commit the new folders), else the cache
corpus `<cache>/corpus` (an installed package), which runs over the default corpus include. The
property tests replay every found write case through every pair (test_property_found), and a read
case is an ordinary read case for any other consumer of the corpus. The read case's store is the
writer's when the reference reads it back as the input (the reader was wrong), else the
reference's own (the writer was wrong: its store is not a valid answer)."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from pathlib import Path

from conformance.corpus.capabilities import VOCABULARY
from conformance.harness.envs import cache_root
from conformance.harness.properties import found_root

REQUIREMENTS = {
    "v3": ("V3-PIPE-002", "V3-GRID-004", "V3-FILL-009"),
    "v2": ("V2-CHUNK-001", "V2-CHUNK-002", "V2-CHUNK-004"),
}


FOUND_AREA = "found"
SCRIPT = "conformance/suite/failures.py"


def failures_root() -> Path:
    return cache_root() / "failures"


def keep_store(case_id: str, writer: str, reader: str, store: Path, store_kind: str) -> Path:
    """Keep the store a cross test's writer wrote, once the test has not passed, under
    <cache>/failures/cross/<writer>--<reader>/<case id>/store (the record's `example` names the
    folder): the reader's reproducer reads it (conformance/audit/reproduce.py). Replaced by the
    next failure of the same pair and case."""
    suffix = "" if store_kind == "directory" else f"@{store_kind}"
    folder = failures_root() / "cross" / f"{writer}--{reader}{suffix}" / case_id
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shutil.copytree(store, folder / "store", symlinks=True)
    return folder


def example_needs(example) -> set[str]:
    meta, data = example.metadata, example.data
    needs = {f"format:{example.format}", f"dtype:{data.dtype.name}"}
    if data.dtype.byteorder == ">":
        needs.add("dtype:big-endian")
    if data.ndim == 0:
        needs.add("feature:0d")
    if 0 in data.shape:
        needs.add("feature:zero-length")
    if example.attributes:
        needs.add("feature:attributes")
    if example.format == "v3":
        stack = list(meta.get("codecs", []))
        while stack:
            codec = stack.pop()
            needs.add(f"codec:{codec['name']}")
            config = codec.get("configuration") or {}
            if codec["name"] == "sharding_indexed":
                stack += config.get("codecs", []) + config.get("index_codecs", [])
                if config.get("index_location") == "start":
                    needs.add("feature:sharding-index-start")
    else:
        for codec in [meta.get("compressor"), *(meta.get("filters") or [])]:
            if codec:
                needs.add(f"codec:{codec['id']}")
        if meta.get("order") == "F":
            needs.add("feature:order-F")
        if meta.get("dimension_separator") == "/":
            needs.add("feature:dimension-separator-slash")
    return needs & VOCABULARY


def digest(example) -> str:
    text = json.dumps(
        [
            example.format,
            example.metadata,
            example.attributes,
            example.data.dtype.str,
            list(example.data.shape),
        ],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode() + example.data.tobytes()).hexdigest()[:12]


def _write_folder(target: Path, spec, provenance: dict | None = None) -> None:
    from conformance.corpus.generator import build_case

    files = build_case(spec)
    if provenance is not None:  # a kept case (like a gold store): `corpus generate` leaves it alone
        doc = json.loads(files["case.json"])
        doc["provenance"] = provenance
        files["case.json"] = (
            json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        ).encode("utf-8")
    shutil.rmtree(target, ignore_errors=True)
    for rel, value in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(value)


def save_example(property_name: str, writer: str, reader: str, example, rewrite=None) -> Path:
    """Write the case folders; `rewrite(store_dir) -> bool` asks the writer to write the example
    again into an empty directory (False: it could not)."""
    from conformance.corpus.generator import CaseSpec

    folder = failures_root() / property_name / f"{writer}--{reader}" / digest(example)
    base_id = folder.relative_to(failures_root()).as_posix()
    needs = tuple(sorted(example_needs(example)))
    requirements = REQUIREMENTS[example.format]

    def build_write(w):
        w.expect_write(metadata=example.metadata, attributes=example.attributes, data=example.data)

    _write_folder(
        folder / "write",
        CaseSpec(
            f"{base_id}/write",
            "write",
            example.format,
            "required",
            f"{property_name}: example that failed for writer {writer}, reader {reader} (write it; the reference judges)",
            requirements,
            tuple(sorted({*needs, "op:write"})),
            build_write,
            question="spec-write",
        ),
    )

    if rewrite is not None:
        with tempfile.TemporaryDirectory() as tmp:
            store = Path(tmp) / "store"
            store.mkdir()
            if rewrite(store):
                files = {
                    p.relative_to(store).as_posix(): p.read_bytes()
                    for p in sorted(store.rglob("*"))
                    if p.is_file()
                }

                def build_read(w):
                    for key, value in files.items():
                        w.put(key, value)
                    w.expect_array(example.data, attributes=example.attributes)

                _write_folder(
                    folder / "read",
                    CaseSpec(
                        f"{base_id}/read",
                        "read",
                        example.format,
                        "required",
                        f"{property_name}: the store {writer} wrote for the example that failed with reader {reader}",
                        requirements,
                        needs,
                        build_read,
                        question="writer-store",
                    ),
                )
    return folder


def _stored_files(rewrite) -> dict[str, bytes] | None:
    """The files the writer writes for the example (None: it could not write it)."""
    if rewrite is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store"
        store.mkdir()
        if not rewrite(store):
            return None
        return {
            p.relative_to(store).as_posix(): p.read_bytes()
            for p in sorted(store.rglob("*"))
            if p.is_file()
        }


def reference_reads_back(example, files: dict[str, bytes]) -> bool:
    """Does the reference read the input back, exactly, from these store files?"""
    from conformance.corpus.judge import compare_arrays
    from conformance.reference import MemoryStore, get_format

    store = MemoryStore()
    store.data.update(files)
    try:
        fmt = get_format(example.format)
        data = fmt.open_node(store, fmt.normalize_path("")).read()
    except Exception:  # any refusal: the writer's store is not a valid answer
        return False
    return not compare_arrays(example.data, data, "data")


def reference_store(example) -> dict[str, bytes]:
    """The store files the reference writes for the example."""
    from conformance.reference import MemoryStore, get_format

    store = MemoryStore()
    fmt = get_format(example.format)
    array = fmt.create_array(store, fmt.normalize_path(""), example.metadata, example.attributes)
    array.write(None, example.data)
    return dict(store.data)


def _main_version(versions: dict) -> str:
    """The implementation version an adapter's describe() reported (its own name's entry)."""
    return (
        str(versions.get("version") or next(iter(versions.values()), "unknown"))
        if versions
        else "unknown"
    )


def save_found(
    property_name: str,
    writer: str,
    reader: str,
    example,
    rewrite=None,
    versions: dict | None = None,
    corpus_root=None,
) -> tuple[Path, bool]:
    """Save a failing example as corpus cases `<format>/found/<digest>-write` and `-read` under
    found_root(corpus_root). Returns (the write case's folder, whether it is new: an example
    already saved, in that root or in the corpus, is not saved again)."""
    from conformance.corpus.generator import CaseSpec

    key = digest(example)
    fmt = example.format
    base = f"{fmt}/{FOUND_AREA}/{key}"
    root = found_root(corpus_root)
    for where in dict.fromkeys([root, Path(corpus_root) if corpus_root is not None else root]):
        if (where / f"{base}-write" / "case.json").is_file():
            return where / f"{base}-write", False
    versions = versions or {}
    needs = tuple(sorted(example_needs(example)))
    requirements = REQUIREMENTS[fmt]
    try:
        from hypothesis import __version__ as hypothesis_version
    except ImportError:  # pragma: no cover - hypothesis is a dependency
        hypothesis_version = None
    common = {
        "property": property_name,
        "pair": f"{writer}->{reader}",
        "found": time.strftime("%Y-%m-%d", time.gmtime()),
        "script": SCRIPT,
        **({"hypothesis": hypothesis_version} if hypothesis_version else {}),
    }
    wversions = {k: str(v) for k, v in versions.get(writer, {}).items()}
    wversion = wversions.get(writer) or _main_version(wversions)

    def build_write(w):
        w.expect_write(metadata=example.metadata, attributes=example.attributes, data=example.data)

    _write_folder(
        root / f"{base}-write",
        CaseSpec(
            f"{base}-write",
            "write",
            fmt,
            "required",
            f"{property_name} example {key} that failed for writer {writer}, reader {reader} "
            "(found by explore mode): write it; the reference judges",
            requirements,
            tuple(sorted({*needs, "op:write"})),
            build_write,
            question="spec-write",
        ),
        provenance={
            "writer": writer,
            "version": wversion,
            "versions": wversions,
            "reader": reader,
            **common,
        },
    )

    files = _stored_files(rewrite)
    store_writer, store_versions = writer, wversions
    if files is None or not reference_reads_back(example, files):
        files = reference_store(
            example
        )  # the writer's store is wrong (or absent): readers get the reference's
        store_writer = "reference"
        store_versions = {k: str(v) for k, v in versions.get("reference", {}).items()}
        if not store_versions:
            from conformance import __version__

            store_versions = {"zarr-conformance": __version__}

    def build_read(w):
        for name, value in files.items():
            w.put(name, value)
        w.expect_array(example.data, attributes=example.attributes)

    _write_folder(
        root / f"{base}-read",
        CaseSpec(
            f"{base}-read",
            "read",
            fmt,
            "required",
            f"{property_name} example {key} (failed for writer {writer}, reader {reader}): read the store "
            f"{store_writer} wrote for it",
            requirements,
            needs,
            build_read,
            question="spec-read" if store_writer == "reference" else "writer-store",
        ),
        provenance={
            "writer": store_writer,
            "version": store_versions.get(store_writer) or _main_version(store_versions),
            "versions": store_versions,
            **common,
        },
    )
    return root / f"{base}-write", True
