"""Shared helpers for the hand-built Zarr v2 cases of the v2_* builder modules.

Stores are built key by key: `.zarray` documents are plain dicts written the way zarr-python 2
writes them (4-space indent, sorted keys, ASCII), chunks are NumPy bytes in the stated order put
through numcodecs filters and compressors with FIXED settings (gzip with mtime 0), so the corpus
does not depend on the reference writer. Expected data is computed here from the same arrays.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable
from typing import Any

import numcodecs
import numpy as np

from ..chunking import grid, junk_block, region
from .table_kit import add_reject

# The compressors of the bulk matrix, with fixed settings (numcodecs configs as zarr-python writes them).
COMPRESSORS: dict[str, dict | None] = {
    "none": None,
    "zlib": {"id": "zlib", "level": 1},
    "gzip": {"id": "gzip", "level": 5},
    "blosc": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
    "zstd": {
        "id": "zstd",
        "level": 3,
    },  # numcodecs >= 0.13 also writes "checksum": false (see v2/codecs)
    "lz4": {"id": "lz4", "acceleration": 1},
    "bz2": {"id": "bz2", "level": 1},
    "lzma": {"id": "lzma", "format": 1, "check": -1, "preset": 1, "filters": None},
}


def zarray(
    shape,
    chunks,
    dtype: Any,
    fill_value: Any = 0,
    *,
    order: str = "C",
    compressor: dict | None = None,
    filters: list | None = None,
    **extra,
) -> dict:
    """A valid `.zarray` document; `extra` members (dimension_separator, unknown keys) are added."""
    doc = {
        "zarr_format": 2,
        "shape": list(shape),
        "chunks": list(chunks),
        "dtype": dtype,
        "compressor": compressor,
        "fill_value": fill_value,
        "order": order,
        "filters": filters,
    }
    doc.update(extra)
    return doc


def numpy_dtype(doc: Any) -> np.dtype:
    """The NumPy dtype of a v2 dtype document (typestr or [name, dtype(, shape)] lists), built here
    rather than by the reference; NumPy packs list-of-tuples fields with no padding, as v2 does."""
    if isinstance(doc, str):
        return np.dtype(doc)
    return np.dtype(
        [
            (f[0], numpy_dtype(f[1]), tuple(f[2])) if len(f) == 3 else (f[0], numpy_dtype(f[1]))
            for f in doc
        ]
    )


def dumps(doc: Any) -> bytes:
    """JSON as zarr-python 2 writes it: sorted keys, 4-space indent, ASCII escapes."""
    return json.dumps(doc, indent=4, sort_keys=True, ensure_ascii=True, allow_nan=False).encode(
        "ascii"
    )


def prefix_of(path: str) -> str:
    return f"{path}/" if path else ""


def chunk_key(index, separator: str = ".") -> str:
    return separator.join(map(str, index)) if index else "0"


def flat_in_order(block: np.ndarray, order: str) -> np.ndarray:
    """The chunk as one flat array in storage order: C row-major, F column-major (V2-CHUNK-006)."""
    return np.ascontiguousarray(block.ravel(order=order))


def codec_input(flat: np.ndarray) -> np.ndarray:
    """What a numcodecs codec is given: datetimes as int64 and structured items as opaque bytes of
    the same size (Blosc then records the item size as its typesize, as zarr-python does)."""
    if flat.dtype.kind in "mM":
        return flat.view(flat.dtype.str[0] + "i8")
    if flat.dtype.names is not None:
        return flat.view(f"V{flat.dtype.itemsize}")
    return flat


def as_bytes(buf: Any) -> bytes:
    if isinstance(buf, (bytes, bytearray)):
        return bytes(buf)
    arr = np.ascontiguousarray(buf)
    return arr.view(np.uint8).tobytes() if arr.dtype != object else bytes(arr)


def compress(buf: Any, compressor: dict | None) -> bytes:
    """Apply a v2 compressor with fixed settings; gzip is written with mtime 0 for reproducibility."""
    if compressor is None:
        return as_bytes(buf)
    if compressor["id"] == "zlib":
        return zlib.compress(as_bytes(buf), compressor.get("level", 1))
    if compressor["id"] == "gzip":
        return gzip.compress(as_bytes(buf), compresslevel=compressor.get("level", 1), mtime=0)
    raw = buf if isinstance(buf, bytes) else np.ascontiguousarray(buf)
    if compressor["id"] == "blosc":
        return blosc_single_threaded(numcodecs.get_codec(dict(compressor)), raw)
    return bytes(numcodecs.get_codec(dict(compressor)).encode(raw))


def blosc_single_threaded(codec, raw) -> bytes:
    """Blosc output with one thread: with several threads and several blocks, c-blosc places the
    compressed blocks in the order the threads finish, so the bytes vary from run to run."""
    from numcodecs import blosc

    saved = blosc.use_threads
    blosc.use_threads = False
    try:
        return bytes(codec.encode(raw))
    finally:
        blosc.use_threads = saved


def encode_chunk(
    block: np.ndarray, order: str = "C", filters: list | None = None, compressor: dict | None = None
) -> bytes:
    """The stored bytes of one chunk: raw bytes in `order`, filters in list order, then the
    compressor (V2-CHUNK-001)."""
    buf: Any = codec_input(flat_in_order(block, order))
    for config in filters or ():
        buf = numcodecs.get_codec(dict(config)).encode(buf)
    return compress(buf, compressor)


def fill_bits(doc: dict, dtype: np.dtype) -> np.ndarray | None:
    """The exact fill a `.zarray` `fill_value` denotes, computed here (not by the reference)."""
    import base64

    value = doc["fill_value"]
    if value is None:
        return None
    if dtype.names is not None or dtype.kind in "SV":
        raw = base64.b64decode(value)
        raw = raw + bytes(dtype.itemsize - len(raw))
        return np.frombuffer(raw, dtype=dtype).reshape(()).copy()
    words = {"NaN": np.nan, "Infinity": np.inf, "-Infinity": -np.inf}
    if dtype.kind == "f":
        value = words.get(value, value)
    if dtype.kind == "c":
        out = np.zeros((), dtype)
        out.real, out.imag = (words.get(v, v) for v in value)
        return out
    if dtype.kind in "mM":
        return np.array(value, dtype=dtype.str[0] + "i8").view(dtype)
    return np.array(value, dtype=dtype)


def full(fill: np.ndarray, shape) -> np.ndarray:
    """An array of `shape` holding exactly the bits of the 0-d `fill`."""
    out = np.empty(shape, dtype=fill.dtype)
    raw = f"V{fill.dtype.itemsize}"
    out.view(raw)[...] = fill.reshape(()).view(raw)
    return out


def put_array(
    w,
    path: str,
    doc: dict,
    data: np.ndarray,
    *,
    skip=(),
    junk: bool = True,
    attrs: dict | None = None,
    encode: Callable[[np.ndarray], bytes] | None = None,
    separator: str | None = None,
    write_meta: bool = True,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Write `.zarray` (and `.zattrs` when `attrs` is given) at `path` and every chunk of `data`
    except those in `skip`. Edge-chunk overhang is junk. Returns the expected array (skipped chunks
    read as the fill) and, for a null fill, the mask of undefined elements (else None)."""
    prefix = prefix_of(path)
    dtype = data.dtype
    shape, chunks = tuple(doc["shape"]), tuple(doc["chunks"])
    separator = separator or doc.get("dimension_separator", ".")
    if write_meta:
        w.put(prefix + ".zarray", dumps(doc))
    if attrs is not None:
        w.put(prefix + ".zattrs", dumps(attrs))
    fill = fill_bits(doc, dtype)
    encode = encode or (
        lambda block: encode_chunk(block, doc["order"], doc["filters"], doc["compressor"])
    )
    expected = data.copy()
    undefined = np.zeros(shape, dtype=bool) if fill is None else None
    for index in np.ndindex(*grid(shape, chunks)):
        where = region(index, chunks, shape)
        if index in skip:
            if fill is None:
                undefined[where] = True
            else:
                expected[where] = full(fill, tuple(s.stop - s.start for s in where))
            continue
        if junk:
            block = junk_block(chunks, dtype, fill)
        else:
            block = full(fill, chunks) if fill is not None else np.zeros(chunks, dtype)
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        w.put(prefix + chunk_key(index, separator), encode(block))
    if undefined is not None and not undefined.any():
        undefined = None
    return expected, undefined


def put_group(w, path: str, attrs: dict | None = None) -> None:
    w.put(prefix_of(path) + ".zgroup", dumps({"zarr_format": 2}))
    if attrs is not None:
        w.put(prefix_of(path) + ".zattrs", dumps(attrs))


def put_ancestors(w, path: str) -> None:
    """`.zgroup` at every ancestor of `path` (V2-GROUP-004), root first."""
    parts = path.split("/") if path else []
    for i in range(len(parts)):
        put_group(w, "/".join(parts[:i]))


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
    chunk: bool = True,
    key: str = ".zarray",
) -> None:
    """A one-fault case: the document (a dict, or raw bytes for JSON-level faults) at the node's
    `key`, the valid ancestors, one stored chunk `0` of four <i4 values (so that a reader that
    wrongly accepts the metadata has data to return) and any extra keys."""

    def fill(w):
        prefix = prefix_of(node)
        put_ancestors(w, node)
        w.put(
            prefix + key,
            doc_or_bytes if isinstance(doc_or_bytes, (bytes, bytearray)) else dumps(doc_or_bytes),
        )
        if chunk:
            w.put(prefix + "0", np.arange(1, 5, dtype="<i4").tobytes())
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


# ---- capability names -----------------------------------------------------------------------
_INT_NAMES = {
    ("i", 1): "int8",
    ("i", 2): "int16",
    ("i", 4): "int32",
    ("i", 8): "int64",
    ("u", 1): "uint8",
    ("u", 2): "uint16",
    ("u", 4): "uint32",
    ("u", 8): "uint64",
    ("f", 2): "float16",
    ("f", 4): "float32",
    ("f", 8): "float64",
    ("c", 8): "complex64",
    ("c", 16): "complex128",
}
_KIND_NAMES = {
    "b": "bool",
    "S": "fixed-bytes",
    "U": "fixed-unicode",
    "V": "raw",
    "M": "datetime64",
    "m": "timedelta64",
    "O": "object",
}


def dtype_needs(dtype: np.dtype) -> list[str]:
    """Capabilities a v2 data type needs: its kind, and `big-endian` for '>' types."""
    dtype = np.dtype(dtype)
    if dtype.names is not None:
        out = {"dtype:structured"}
        for name in dtype.names:
            base = dtype.fields[name][0]
            base = base.subdtype[0] if base.subdtype else base
            if base.names is None and base.kind != "V":
                out.update(n for n in dtype_needs(base) if n == "dtype:big-endian")
        return sorted(out)
    name = _INT_NAMES.get((dtype.kind, dtype.itemsize)) or _KIND_NAMES[dtype.kind]
    out = [f"dtype:{name}"]
    if dtype.byteorder == ">":
        out.append("dtype:big-endian")
    return out


def codec_needs(compressor: dict | None, filters: list | None = None) -> list[str]:
    ids = [f["id"] for f in filters or ()] + ([compressor["id"]] if compressor else [])
    return [f"codec:{i}" for i in ids]
