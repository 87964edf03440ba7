"""Shared helpers for the hand-built Zarr v3 (3.0) cases of the v3_* builder modules.

Stores are built key by key: `zarr.json` documents are plain dicts written as deterministic JSON, chunks
are NumPy bytes in the stated byte order (the `bytes` codec), so the corpus does not depend on the
reference writer. Expected data is computed here from the same arrays, never read back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..chunking import JUNK, fill_array, grid, junk_block, region  # noqa: F401  (re-exported to builders)
from ..generator import add_case
from .table_kit import add_reject

# v3 core identifier -> native NumPy dtype of the values
CORE = {
    "bool": "?",
    "int8": "i1",
    "int16": "i2",
    "int32": "i4",
    "int64": "i8",
    "uint8": "u1",
    "uint16": "u2",
    "uint32": "u4",
    "uint64": "u8",
    "float16": "f2",
    "float32": "f4",
    "float64": "f8",
    "complex64": "c8",
    "complex128": "c16",
}


def numpy_dtype(data_type: str) -> np.dtype:
    if data_type in CORE:
        return np.dtype(CORE[data_type])
    if data_type.startswith("r"):
        return np.dtype(f"V{int(data_type[1:]) // 8}")
    raise ValueError(data_type)


def dtype_needs(data_type: str) -> list[str]:
    return ["dtype:r*" if data_type.startswith("r") else f"dtype:{data_type}"]


def bytes_codec(endian: str | None = "little") -> dict:
    if endian is None:
        return {"name": "bytes"}
    return {"name": "bytes", "configuration": {"endian": endian}}


def default_endian(data_type: str) -> str | None:
    """`endian` only where byte order exists (one-byte and r<N> types take none)."""
    try:
        dtype = numpy_dtype(data_type)
    except ValueError:  # not a core name (documents of reject cases)
        return "little"
    return None if dtype.itemsize == 1 or dtype.kind == "V" or data_type == "bool" else "little"


def array_doc(
    shape,
    chunks,
    data_type: Any,
    fill_value: Any,
    *,
    codecs: list | None = None,
    separator: str | None = "/",
    encoding: str = "default",
    endian: str | None = "auto",
    **extra,
) -> dict:
    """A valid 3.0 array document; `extra` members are added (or replace) at the end.
    `separator=None` writes the encoding with no configuration."""
    if codecs is None:
        if endian == "auto":
            endian = default_endian(data_type) if isinstance(data_type, str) else "little"
        codecs = [bytes_codec(endian)]
    cke: dict = {"name": encoding}
    if separator is not None:
        cke["configuration"] = {"separator": separator}
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": cke,
        "fill_value": fill_value,
        "codecs": codecs,
    }
    doc.update(extra)
    return doc


def group_doc(attributes: dict | None = None, **extra) -> dict:
    doc: dict = {"zarr_format": 3, "node_type": "group"}
    if attributes is not None:
        doc["attributes"] = attributes
    doc.update(extra)
    return doc


def default_key(index, separator: str = "/") -> str:
    return separator.join(["c", *map(str, index)])


def v2_key(index, separator: str = ".") -> str:
    return separator.join(map(str, index)) if index else "0"


def bits(dtype, value: int) -> np.ndarray:
    """A 0-d array of float/complex/int `dtype` whose little-endian bytes are the integer `value`."""
    dtype = np.dtype(dtype)
    raw = value.to_bytes(dtype.itemsize, "little")
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(())


def stored_dtype(dtype: np.dtype, endian: str | None) -> np.dtype:
    if dtype == np.bool_:
        return np.dtype("u1")
    if endian is None or dtype.itemsize == 1 or dtype.kind == "V":
        return dtype
    return dtype.newbyteorder("<" if endian == "little" else ">")


def encode_block(block: np.ndarray, endian: str | None) -> bytes:
    """The bytes codec by hand: C order, elements in the given byte order, bool as 0x00/0x01."""
    if block.dtype == np.bool_:
        return block.astype("u1").tobytes()
    return np.ascontiguousarray(block.astype(stored_dtype(block.dtype, endian))).tobytes()


def put_array(
    w,
    prefix: str,
    doc: dict,
    data: np.ndarray,
    *,
    fill_bits: np.ndarray,
    skip=(),
    endian: str | None = None,
    key: Callable | None = None,
    encode: Callable | None = None,
    junk: bool = True,
) -> np.ndarray:
    """Write `doc` at `prefix`zarr.json and every chunk of `data` except those in `skip`, encoded
    with the bytes codec (`endian`) or `encode(block)`; edge-chunk overhang is junk. Returns the
    expected array (skipped chunks read as the fill)."""
    shape = tuple(doc["shape"])
    chunks = tuple(doc["chunk_grid"]["configuration"]["chunk_shape"])
    w.put_json(prefix + "zarr.json", doc)
    key = key or default_key
    encode = encode or (lambda block: encode_block(block, endian))
    expected = data.copy()
    for index in np.ndindex(*grid(shape, chunks)):
        where = region(index, chunks, shape)
        if index in skip:
            expected[where] = fill_array(fill_bits, tuple(s.stop - s.start for s in where))
            continue
        block = junk_block(chunks, data.dtype, fill_bits) if junk else fill_array(fill_bits, chunks)
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        w.put(prefix + key(index), encode(block))
    return expected


def reject_case(
    case_id: str,
    doc_or_bytes: Any,
    reason: str,
    requirements,
    description: str,
    *,
    needs=(),
    tier: str | None = None,
    stage: str = "open",
    node: str = "",
    extra: dict[str, bytes] | None = None,
) -> None:
    """A one-fault case: the document (a dict, or raw bytes for JSON-level faults) at the node's
    zarr.json plus any extra keys."""

    def fill(w):
        prefix = f"{node}/" if node else ""
        if isinstance(doc_or_bytes, (bytes, bytearray)):
            w.put(prefix + "zarr.json", doc_or_bytes)
        else:
            w.put_json(prefix + "zarr.json", doc_or_bytes)
        if node:  # the hierarchy above the node is explicit and valid
            put_hierarchy(w, node)
        for k, v in (extra or {}).items():
            w.put(k, v)

    add_reject(
        case_id,
        fill,
        reason,
        requirements,
        description,
        node=node,
        needs=needs,
        tier=tier,
        stage=stage,
    )


def put_hierarchy(w, path: str) -> None:
    """Explicit group documents for every ancestor of `path` (the root included)."""
    parts = path.split("/")
    for i in range(len(parts)):
        w.put_json("/".join(parts[:i] + ["zarr.json"]), group_doc())


def all_keys(shape, chunks, key=default_key, prefix: str = "") -> list[str]:
    """zarr.json plus the key of every chunk of the grid, under `prefix`."""
    return [prefix + "zarr.json"] + [prefix + key(i) for i in np.ndindex(*grid(shape, chunks))]


def write_case(
    case_id, description, requirements, metadata, data, needs, tier=None, path="", **expect
) -> None:
    """A write case of an array; `data` is an array or a function of the CaseWriter (for w.rng).
    Ancestor group documents listed in `keys` are optional keys unless the case says otherwise:
    3.0 describes creating them only in its non-normative Operations section."""
    if path and expect.get("keys") is not None and "optional_keys" not in expect:
        parts = path.split("/")
        ancestors = ["/".join(parts[:i] + ["zarr.json"]) for i in range(len(parts))]
        expect["optional_keys"] = [k for k in ancestors if k in expect["keys"]]

    def build(w):
        arr = data(w) if callable(data) else data
        w.expect_write(metadata=metadata, data=arr, path=path, **expect)

    add_case(
        case_id,
        kind="write",
        build=build,
        needs=[*needs, "op:write"],
        tier=tier,
        requirements=requirements,
        description=description,
    )
