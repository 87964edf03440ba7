"""Saving the shrunk failing example of a property test as corpus-format case folders, so that it
can be re-run on its own: `zarr-conformance run --fixtures .cache/failures`.

Two cases per example: `write` (the request: metadata, attributes, input data; judged by the
reference) and, when the writer managed to write it, `read` (the store the writer produced, with
the input as expected data): the first blames a writer, the second a reader."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

from conformance.corpus.capabilities import VOCABULARY
from conformance.corpus.generator import CaseSpec, build_case
from conformance.harness.envs import cache_root

REQUIREMENTS = {"v3": ("V3-PIPE-002", "V3-GRID-004", "V3-FILL-009"), "v2": ("V2-CHUNK-001", "V2-CHUNK-002", "V2-CHUNK-004")}


def failures_root() -> Path:
    return cache_root() / "failures"


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
    text = json.dumps([example.format, example.metadata, example.attributes, example.data.dtype.str,
                       list(example.data.shape)], sort_keys=True, default=str)
    return hashlib.sha256(text.encode() + example.data.tobytes()).hexdigest()[:12]


def _write_folder(target: Path, spec: CaseSpec) -> None:
    shutil.rmtree(target, ignore_errors=True)
    for rel, value in build_case(spec).items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(value)


def save_example(property_name: str, writer: str, reader: str, example, rewrite=None) -> Path:
    """Write the case folders; `rewrite(store_dir) -> bool` asks the writer to write the example
    again into an empty directory (False: it could not)."""
    folder = failures_root() / property_name / f"{writer}--{reader}" / digest(example)
    base_id = folder.relative_to(failures_root()).as_posix()
    needs = tuple(sorted(example_needs(example)))
    requirements = REQUIREMENTS[example.format]

    def build_write(w):
        w.expect_write(metadata=example.metadata, attributes=example.attributes, data=example.data)

    _write_folder(folder / "write", CaseSpec(
        f"{base_id}/write", "write", example.format, "required",
        f"{property_name}: example that failed for writer {writer}, reader {reader} (write it; the reference judges)",
        requirements, tuple(sorted({*needs, "op:write"})), build_write))

    if rewrite is not None:
        with tempfile.TemporaryDirectory() as tmp:
            store = Path(tmp) / "store"
            store.mkdir()
            if rewrite(store):
                files = {p.relative_to(store).as_posix(): p.read_bytes() for p in sorted(store.rglob("*")) if p.is_file()}

                def build_read(w):
                    for key, value in files.items():
                        w.put(key, value)
                    w.expect_array(example.data, attributes=example.attributes)

                _write_folder(folder / "read", CaseSpec(
                    f"{base_id}/read", "read", example.format, "required",
                    f"{property_name}: the store {writer} wrote for the example that failed with reader {reader}",
                    requirements, needs, build_read))
    return folder
