"""Shared helpers for the hand-built v3 *draft* cases (seed 002 = zarr-specs d061a83).

Stores are built key by key: the `zarr.json` entry point, `meta/<P>.array.json` documents and
`data/<P>/c<i>/<j>` chunks. Chunks are encoded here by hand (memory layout, the `endian` codec,
gzip with mtime 0, blosc with fixed settings, the sharding transformer's index), never by the
reference writer, and expected data comes from the same NumPy arrays.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

import numcodecs
import numpy as np

from .. import chunking
from ..chunking import fill_array, grid, region
from .table_kit import add_reject

CORE_URI = "https://purl.org/zarr/spec/core/3.0"
GZIP_URI = "https://purl.org/zarr/spec/codecs/gzip/1.0"
BLOSC_URI = "https://purl.org/zarr/spec/codecs/blosc/1.0"
ENDIAN_URI = "https://purl.org/zarr/spec/codecs/endian/1.0"
# The sharding spec's configuration example (what writers copy) and its declared URI differ.
SHARDING_URI = "https://purl.org/zarr/spec/extensions/storage_transformers/sharding/1.0"
SHARDING_URI_DECLARED = "https://purl.org/zarr/spec/extensions/storage-transformers/sharding/1.0"
EMPTY = 2**64 - 1
JUNK = 0x5A  # overhang sentinel of edge chunks

# seed-002 core data type -> little-endian NumPy dtype of the values
CORE = {
    "bool": "|b1",
    "int8": "|i1",
    "int16": "<i2",
    "int32": "<i4",
    "uint8": "|u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "complex64": "<c8",
    "complex128": "<c16",
}


def entry_point(**changes) -> dict:
    doc = {
        "zarr_format": CORE_URI,
        "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"},
        "extensions": [],
    }
    doc.update(changes)
    return doc


def numpy_dtype(data_type: str) -> np.dtype:
    if data_type in CORE:
        return np.dtype(CORE[data_type])
    return np.dtype(f"V{int(data_type[1:]) // 8}")  # r<N>


def dtype_need(data_type: str) -> str:
    return "dtype:r*" if data_type.startswith("r") else f"dtype:{data_type}"


def array_doc(
    shape,
    chunks,
    data_type: Any = "int32",
    fill_value: Any = 0,
    *,
    separator: str = "/",
    layout: Any = "C",
    codecs: list | None = None,
    transformers: list | None = None,
    attributes: dict | None = None,
    **extra,
) -> dict:
    """A valid seed-002 array document; `codecs`/`transformers` None leave the member out;
    `extra` members are added (or replace) at the end."""
    doc: dict[str, Any] = {
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"type": "regular", "chunk_shape": list(chunks), "separator": separator},
        "chunk_memory_layout": layout,
        "fill_value": fill_value,
        "extensions": [],
        "attributes": attributes if attributes is not None else {},
    }
    if codecs is not None:
        doc["codecs"] = codecs
    if transformers is not None:
        doc["storage_transformers"] = transformers
    doc.update(extra)
    return doc


def gzip_codec(level: int = 1) -> dict:
    return {"type": GZIP_URI, "configuration": {"level": level}}


def blosc_codec(cname="lz4", clevel=5, shuffle=1, blocksize=0) -> dict:
    return {
        "type": BLOSC_URI,
        "configuration": {
            "cname": cname,
            "clevel": clevel,
            "shuffle": shuffle,
            "blocksize": blocksize,
        },
    }


def endian_codec(endian: str = "big") -> dict:
    return {"type": ENDIAN_URI, "configuration": {"endian": endian}}


def sharding(chunks_per_shard, uri: str = SHARDING_URI) -> dict:
    return {
        "extension": uri,
        "type": "indexed",
        "configuration": {"chunks_per_shard": list(chunks_per_shard)},
    }


# ---- keys ------------------------------------------------------------------------------------


def meta_key(path: str, kind: str = "array") -> str:
    """`meta/<P>.array.json`, root `meta/array.json` (V3DRAFT-KEY-002/003)."""
    return f"meta/{path}.{kind}.json" if path else f"meta/{kind}.json"


def data_prefix(path: str) -> str:
    return f"data/{path}/" if path else "data/"


def chunk_id(index, separator: str = "/") -> str:
    """'c' directly followed by the joined indices; 'c' alone for 0-d (V3DRAFT-KEY-005)."""
    return "c" + separator.join(str(i) for i in index)


# ---- chunk encoding by hand ------------------------------------------------------------------


def encode_chunk(block: np.ndarray, doc: dict) -> bytes:
    """EC[0] from the memory layout (F reverses the dimensions), then each codec in order, then
    the default conversion (C order, little-endian, bool as 00/01)."""
    data: Any = block.T if doc["chunk_memory_layout"] == "F" else block
    le = (
        block.dtype.newbyteorder("<")
        if block.dtype.kind not in "bV" and block.dtype.itemsize > 1
        else block.dtype
    )
    for codec in doc.get("codecs", []):
        uri, config = codec["type"], codec.get("configuration", {})
        if uri == ENDIAN_URI:
            order = "<" if config["endian"] == "little" else ">"
            target = (
                block.dtype.newbyteorder(order)
                if block.dtype.itemsize > 1 and block.dtype.kind != "V"
                else block.dtype
            )
            data = np.ascontiguousarray(data, dtype=target).tobytes()
            continue
        raw = data if isinstance(data, bytes) else np.ascontiguousarray(data, dtype=le).tobytes()
        if uri == GZIP_URI:
            data = gzip.compress(raw, compresslevel=config["level"], mtime=0)
        elif uri == BLOSC_URI:
            data = bytes(
                numcodecs.Blosc(
                    cname=config["cname"],
                    clevel=config["clevel"],
                    shuffle=config["shuffle"],
                    blocksize=config.get("blocksize", 0),
                ).encode(raw)
            )
        else:
            raise ValueError(uri)
    return data if isinstance(data, bytes) else np.ascontiguousarray(data, dtype=le).tobytes()


def chunk_bytes(
    doc: dict, data: np.ndarray, fill: np.ndarray, skip=(), encode: Callable | None = None
) -> tuple[dict, np.ndarray]:
    """({chunk index: encoded bytes}, expected array): every chunk except `skip`, edge overhang junk."""
    shape, chunks = tuple(doc["shape"]), tuple(doc["chunk_grid"]["chunk_shape"])
    encode = encode or (lambda block: encode_chunk(block, doc))
    expected = data.copy()
    out = {}
    for index in np.ndindex(*grid(shape, chunks)):
        where = region(index, chunks, shape)
        if index in skip:
            expected[where] = fill_array(fill, tuple(s.stop - s.start for s in where))
            continue
        block = junk_block(chunks, data.dtype, fill)
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        out[index] = encode(block)
    return out, expected


def put_array(
    w,
    path: str,
    doc: dict,
    data: np.ndarray,
    fill: np.ndarray,
    skip=(),
    entry: dict | None = None,
    encode: Callable | None = None,
) -> np.ndarray:
    """Entry point, the array document and its chunks (not sharded); returns the expected data."""
    put_entry(w, entry)
    w.put_json(meta_key(path), doc)
    chunks, expected = chunk_bytes(doc, data, fill, skip, encode)
    sep = doc["chunk_grid"]["separator"]
    for index, value in chunks.items():
        w.put(data_prefix(path) + chunk_id(index, sep), value)
    return expected


def shard_bytes(chunks: dict, cps, shard_index) -> bytes | None:
    """The `indexed` shard holding the given chunks: bodies in *reverse* C order with a junk gap
    between them (the spec leaves the order free and allows unused space), then the C-order
    index of little-endian (offset, nbytes) pairs; empty slots are 2^64-1 twice."""
    slots = list(np.ndindex(*cps))
    index = np.full((len(slots), 2), EMPTY, dtype="<u8")
    body = bytearray()
    for slot in reversed(range(len(slots))):
        chunk = tuple(s * n + o for s, n, o in zip(shard_index, cps, slots[slot]))
        if chunk in chunks:
            body += b"\xee" * 3  # unused space
            index[slot] = (len(body), len(chunks[chunk]))
            body += chunks[chunk]
    if not (index != EMPTY).any():
        return None
    return bytes(body) + index.tobytes()


def put_sharded(w, path: str, doc: dict, chunks: dict, cps) -> list[str]:
    """Store `chunks` ({index: bytes}) as shards; returns the shard keys written."""
    sep = doc["chunk_grid"]["separator"]
    shard_grid = grid(grid(doc["shape"], doc["chunk_grid"]["chunk_shape"]), cps)
    keys = []
    for shard in np.ndindex(*shard_grid):
        value = shard_bytes(chunks, cps, shard)
        if value is not None:
            keys.append(data_prefix(path) + chunk_id(shard, sep))
            w.put(keys[-1], value)
    return keys


def put_entry(w, entry: dict | None = None) -> None:
    w.put_json("zarr.json", entry if entry is not None else entry_point())


# ---- table-driven reject cases ----------------------------------------------------------------


def reject_case(
    case_id: str,
    reason: str,
    requirements,
    description: str,
    *,
    docs: dict,
    entry: Any = "default",
    node: str = "x",
    needs=(),
    tier: str | None = None,
    stage: str = "open",
) -> None:
    """A one-fault draft store: the entry point (a dict, raw bytes, or None for none) plus `docs`
    ({key: dict or bytes}); opening (or reading, with stage 'read') `node` must fail."""

    def fill(w):
        if entry == "default":
            put_entry(w)
        elif isinstance(entry, (bytes, bytearray)):
            w.put("zarr.json", entry)
        elif entry is not None:
            w.put_json("zarr.json", entry)
        for key, value in docs.items():
            if isinstance(value, (bytes, bytearray)):
                w.put(key, value)
            else:
                w.put_json(key, value)

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


def junk_block(chunks, dtype: np.dtype, fill: np.ndarray) -> np.ndarray:
    return chunking.junk_block(chunks, dtype, fill, JUNK)  # this kit's own sentinel byte
