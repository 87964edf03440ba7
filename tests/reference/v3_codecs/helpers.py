"""Small builders shared by the v3 codec tests."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.reference.errors import ZarrError
from conformance.reference.formats.v3.codecs import build_pipeline

LE = {"name": "bytes", "configuration": {"endian": "little"}}
BE = {"name": "bytes", "configuration": {"endian": "big"}}
CRC = {"name": "crc32c"}

DATA_TYPES = {
    "bool": "bool",
    "int8": "i1",
    "int16": "<i2",
    "int32": "<i4",
    "int64": "<i8",
    "uint8": "u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "uint64": "<u8",
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "complex64": "<c8",
    "complex128": "<c16",
    "r8": "V1",
    "r16": "V2",
    "r48": "V6",
    "numpy.datetime64": "<M8[s]",
}


def gzip(level: int = 1) -> dict:
    return {"name": "gzip", "configuration": {"level": level}}


def zstd(level: int = 0, **extra) -> dict:
    return {"name": "zstd", "configuration": {"level": level, **extra}}


def blosc(cname="lz4", clevel=5, shuffle="shuffle", typesize=4, blocksize=0) -> dict:
    config = {"cname": cname, "clevel": clevel, "shuffle": shuffle, "blocksize": blocksize}
    if typesize is not None:
        config["typesize"] = typesize
    return {"name": "blosc", "configuration": config}


def transpose(order) -> dict:
    return {"name": "transpose", "configuration": {"order": list(order)}}


def shard(chunk_shape, codecs=None, index_codecs=None, index_location=None) -> dict:
    config = {
        "chunk_shape": list(chunk_shape),
        "codecs": [LE] if codecs is None else codecs,
        "index_codecs": [LE, CRC] if index_codecs is None else index_codecs,
    }
    if index_location is not None:
        config["index_location"] = index_location
    return {"name": "sharding_indexed", "configuration": config}


def pipeline(codecs, shape, data_type="int32", fill=0, dtype=None):
    dtype = np.dtype(dtype or DATA_TYPES.get(data_type, object))
    if dtype.hasobject:
        fill_value = np.array(fill, dtype=object)
    elif dtype.kind == "V":
        raw = bytes(dtype.itemsize) if isinstance(fill, int) else bytes(fill)
        fill_value = np.frombuffer(raw, dtype=dtype).reshape(())
    else:
        fill_value = np.array(fill, dtype=dtype)
    return build_pipeline(codecs, tuple(shape), dtype, fill_value, data_type)


def rejects(
    reason: str, codecs, shape=(4,), data_type="int32", requirement: str | None = None, **kw
):
    """Assert that building the pipeline fails with `reason` (and `requirement` when given)."""
    with pytest.raises(ZarrError) as info:
        pipeline(codecs, shape, data_type, **kw)
    assert info.value.reason == reason, info.value
    if requirement is not None:
        assert info.value.requirement == requirement, info.value
    return info.value


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Exact equality, NaN payloads and -0.0 included (never allclose)."""
    if a.shape != b.shape:
        return False
    if a.dtype.hasobject or b.dtype.hasobject:
        return a.dtype == b.dtype and all(
            type(x) is type(y) and x == y for x, y in zip(a.flat, b.flat)
        )
    native = a.dtype.newbyteorder("=")
    return (
        np.ascontiguousarray(a, dtype=native).tobytes()
        == np.ascontiguousarray(b, dtype=native).tobytes()
    )
