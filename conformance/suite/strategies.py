"""Hypothesis strategies for the property tests: arrays (data type, shape, chunking, codec
pipeline, fill value, values) inside a capability set, as the metadata document of a format plus
the data to write. Documents are built with the reference's builders, so they are valid."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

NUMERIC = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
V3_COMPRESSORS = {
    "gzip": lambda level: {"name": "gzip", "configuration": {"level": level % 10}},
    "zstd": lambda level: {
        "name": "zstd",
        "configuration": {"level": level % 10, "checksum": False},
    },
    "blosc": lambda level: {
        "name": "blosc",
        "configuration": {
            "cname": "lz4",
            "clevel": level % 10,
            "shuffle": "noshuffle",
            "typesize": 1,
            "blocksize": 0,
        },
    },
}
V2_COMPRESSORS = {
    "zlib": lambda level: {"id": "zlib", "level": level % 10},
    "gzip": lambda level: {"id": "gzip", "level": level % 10},
    "zstd": lambda level: {"id": "zstd", "level": level % 10},
    "blosc": lambda level: {
        "id": "blosc",
        "cname": "lz4",
        "clevel": level % 10,
        "shuffle": 1,
        "blocksize": 0,
    },
    "lz4": lambda level: {"id": "lz4", "acceleration": 1},
    "bz2": lambda level: {"id": "bz2", "level": level % 9 + 1},
    "lzma": lambda level: {
        "id": "lzma",
        "format": 1,
        "check": -1,
        "preset": level % 4,
        "filters": None,
    },
}


@dataclass
class Example:
    format: str
    metadata: dict
    data: np.ndarray
    attributes: dict

    def __repr__(self) -> str:  # what hypothesis prints for the falsifying example
        return (
            f"Example({self.format}, shape={list(self.data.shape)}, dtype={self.data.dtype.str}, "
            f"metadata={self.metadata}, attributes={self.attributes}, data={self.data.tolist()!r})"
        )


def dtypes(caps: frozenset[str], big_endian_ok: bool):
    names = [n for n in NUMERIC if f"dtype:{n}" in caps]
    if not names:
        return st.nothing()
    base = st.sampled_from(names).map(np.dtype)
    if big_endian_ok and "dtype:big-endian" in caps:
        return st.tuples(base, st.booleans()).map(
            lambda p: p[0].newbyteorder(">") if p[1] and p[0].itemsize > 1 else p[0]
        )
    return base


@st.composite
def shapes_and_chunks(draw, caps: frozenset[str]):
    # sampled_from rather than integers: hypothesis favours integer bounds (0-d arrays, empty
    # dimensions), which find few bugs; those stay possible, just rarer.
    ranks = [1, 2, 3, 2, 3, 1] + ([0] if "feature:0d" in caps else [])
    sizes = list(range(1, 10)) + ([0] if "feature:zero-length" in caps else [])
    rank = draw(st.sampled_from(ranks))
    shape = tuple(draw(st.lists(st.sampled_from(sizes), min_size=rank, max_size=rank)))
    chunks = tuple(draw(st.integers(1, max(n, 1) + 1)) for n in shape)
    return shape, chunks


def values(dtype: np.dtype, shape):
    return hnp.arrays(
        dtype,
        shape,
        elements=hnp.from_dtype(dtype, allow_nan=True, allow_infinity=True, allow_subnormal=True),
    )


def fill_values(dtype: np.dtype, format: str):
    """v3: the JSON form (a NaN payload as "0x..."); v2: the NumPy value with canonical NaNs (v2
    has no way to write a NaN payload)."""
    drawn = st.one_of(st.just(np.zeros((), dtype)), values(dtype, ()))
    if format == "v3":
        return drawn.map(lambda v: json_fill(v, canonical_nan=False))
    return drawn.map(canonical_nans)


def canonical_nans(value: np.ndarray) -> np.ndarray:
    if value.dtype.kind == "f" and np.isnan(value):
        return np.array(np.nan, dtype=value.dtype)
    if value.dtype.kind == "c" and np.isnan(value):
        re = np.nan if np.isnan(value.real) else value.real
        im = np.nan if np.isnan(value.imag) else value.imag
        return np.array(complex(re, im), dtype=value.dtype)
    return value


def json_float(x: np.floating, canonical_nan: bool):
    if np.isnan(x):
        bits = np.asarray(x).astype(x.dtype.newbyteorder(">")).tobytes()
        canonical = np.array(np.nan, dtype=x.dtype.newbyteorder(">")).tobytes()
        return "NaN" if canonical_nan or bits == canonical else "0x" + bits.hex()
    if np.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return float(x)


def json_fill(value: np.ndarray, canonical_nan: bool):
    x = value[()]
    kind = value.dtype.kind
    if kind == "b":
        return bool(x)
    if kind in "iu":
        return int(x)
    if kind == "f":
        return json_float(x, canonical_nan)
    return [json_float(x.real, canonical_nan), json_float(x.imag, canonical_nan)]


attributes = st.dictionaries(
    st.text(min_size=1, max_size=5), st.one_of(st.integers(-5, 5), st.text(max_size=5)), max_size=2
)


@st.composite
def v3_examples(draw, caps: frozenset[str]):
    from conformance.reference import get_format

    dtype = draw(dtypes(caps, big_endian_ok=True))
    shape, chunks = draw(shapes_and_chunks(caps))
    endian = "big" if dtype.byteorder == ">" else "little"
    serializer = (
        {"name": "bytes", "configuration": {"endian": endian}}
        if dtype.itemsize > 1
        else {"name": "bytes"}
    )
    codecs = [serializer]
    if len(shape) >= 2 and "codec:transpose" in caps and draw(st.booleans()):
        order = draw(st.permutations(range(len(shape))).filter(lambda p: p != sorted(p)))
        codecs.insert(0, {"name": "transpose", "configuration": {"order": order}})
    available = [n for n in V3_COMPRESSORS if f"codec:{n}" in caps]
    if available and draw(st.booleans()):
        codecs.append(V3_COMPRESSORS[draw(st.sampled_from(available))](draw(st.integers(0, 9))))
    if "codec:crc32c" in caps and draw(st.booleans()):
        codecs.append({"name": "crc32c"})
    if "codec:sharding_indexed" in caps and shape and draw(st.booleans()):
        inner = tuple(
            draw(st.sampled_from([d for d in range(1, c + 1) if c % d == 0])) for c in chunks
        )
        location = (
            "start" if "feature:sharding-index-start" in caps and draw(st.booleans()) else "end"
        )
        le = {"name": "bytes", "configuration": {"endian": "little"}}
        codecs = [
            {
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": list(inner),
                    "codecs": codecs,
                    "index_codecs": [le, {"name": "crc32c"}],
                    "index_location": location,
                },
            }
        ]
    separator = draw(st.sampled_from(["/", "."]))
    fill = draw(fill_values(dtype, "v3"))
    metadata = get_format("v3").array_metadata(
        shape, chunks, dtype, fill_value=fill, codecs=codecs, chunk_key_encoding=separator
    )
    data = draw(values(dtype, shape))
    return Example("v3", metadata, data, draw(attributes) if "feature:attributes" in caps else {})


@st.composite
def v2_examples(draw, caps: frozenset[str]):
    import numcodecs

    from conformance.reference import get_format

    dtype = draw(dtypes(caps, big_endian_ok=True))
    shape, chunks = draw(shapes_and_chunks(caps))
    available = [n for n in V2_COMPRESSORS if f"codec:{n}" in caps]
    compressor = None
    if available and draw(st.booleans()):
        compressor = V2_COMPRESSORS[draw(st.sampled_from(available))](draw(st.integers(0, 9)))
    filters = None
    if "codec:delta" in caps and dtype.kind in "iu" and draw(st.booleans()):
        filters = [numcodecs.Delta(dtype=dtype.str).get_config()]
    order = "F" if "feature:order-F" in caps and draw(st.booleans()) else "C"
    separator = "/" if "feature:dimension-separator-slash" in caps and draw(st.booleans()) else None
    metadata = get_format("v2").array_metadata(
        shape,
        chunks,
        dtype.str,
        fill_value=draw(fill_values(dtype, "v2")),
        order=order,
        compressor=compressor,
        filters=filters,
        dimension_separator=separator,
    )
    data = draw(values(dtype, shape))
    return Example("v2", metadata, data, draw(attributes) if "feature:attributes" in caps else {})


STRATEGIES = {"v3": v3_examples, "v2": v2_examples}
