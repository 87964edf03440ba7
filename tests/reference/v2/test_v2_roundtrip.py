"""Property tests: any v2 array written by the reference reads back bit-identical, for random data
types (both byte orders, structured, nested), shapes, chunks, orders, compressors and filters."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.reference import MemoryStore
from conformance.reference.formats.v2 import FORMAT as v2
from conformance.reference.formats.v2 import (
    dtype_to_json,
    encode_fill_value,
    parse_dtype,
    parse_fill_value,
)

ORDERS = st.sampled_from("<>")
UNITS = st.sampled_from(["s", "ms", "us", "ns", "D", "10s"])

simple_typestr = st.one_of(
    st.sampled_from(["|b1", "|i1", "|u1"]),
    st.builds(
        lambda o, k: o + k,
        ORDERS,
        st.sampled_from(["i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]),
    ),
    st.builds(lambda n: f"|S{n}", st.integers(1, 6)),
    st.builds(lambda n: f"|V{n}", st.integers(1, 5)),
    st.builds(lambda o, n: f"{o}U{n}", ORDERS, st.integers(1, 3)),
    st.builds(lambda o, k, u: f"{o}{k}8[{u}]", ORDERS, st.sampled_from("Mm"), UNITS),
)


def _fields(children):
    field = st.one_of(
        st.tuples(st.just(None), children),
        st.tuples(
            st.just(None), simple_typestr, st.lists(st.integers(1, 3), min_size=1, max_size=2)
        ),
    )
    return st.lists(field, min_size=1, max_size=3).map(
        lambda fs: [[f"f{i}", *f[1:]] for i, f in enumerate(fs)]
    )


dtype_docs = st.recursive(simple_typestr, _fields, max_leaves=6)

compressors = st.one_of(
    st.none(),
    st.builds(lambda level: {"id": "zlib", "level": level}, st.integers(0, 9)),
    st.builds(lambda level: {"id": "gzip", "level": level}, st.integers(1, 9)),
    st.builds(
        lambda c, s: {"id": "blosc", "cname": c, "clevel": 3, "shuffle": s, "blocksize": 0},
        st.sampled_from(["lz4", "zstd", "zlib", "blosclz", "lz4hc"]),
        st.sampled_from([0, 1, 2]),
    ),
    st.just({"id": "zstd", "level": 1}),
    st.just({"id": "lz4", "acceleration": 1}),
    st.just({"id": "bz2", "level": 1}),
    st.just({"id": "lzma", "preset": 1}),
)


def _filters(dtype: np.dtype):
    options = [
        st.none(),
        st.just([{"id": "crc32"}]),
        st.just([{"id": "adler32"}]),
        st.just([{"id": "shuffle", "elementsize": dtype.itemsize}]),
    ]
    if dtype.kind in "iu":
        options.append(st.just([{"id": "delta", "dtype": dtype.str}, {"id": "crc32"}]))
    return st.one_of(options)


def _sanitise(data: np.ndarray) -> np.ndarray:
    """Random bytes are valid items except for bools (0/1) and code points (< 0xD800)."""
    if data.dtype.names:
        for name in data.dtype.names:
            _sanitise(data[name])
    elif data.dtype.kind == "b":
        data[...] = data != 0
    elif data.dtype.kind == "U":
        codes = (
            np.frombuffer(np.ascontiguousarray(data).tobytes(), data.dtype.str[0] + "u4") % 0xD800
        )
        data[...] = np.frombuffer(
            codes.astype(data.dtype.str[0] + "u4").tobytes(), data.dtype
        ).reshape(data.shape)
    return data


def _random(draw, shape, dtype) -> np.ndarray:
    n = int(np.prod(shape)) * dtype.itemsize
    raw = draw(st.binary(min_size=n, max_size=n))
    return _sanitise(np.frombuffer(raw, dtype=dtype).reshape(shape).copy())


@st.composite
def arrays(draw):
    dtype_doc = draw(dtype_docs)
    dtype = parse_dtype(dtype_doc)
    rank = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=rank, max_size=rank)))
    chunks = tuple(draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank)))
    fill = draw(st.one_of(st.none(), st.just("item")))
    fill_value = _random(draw, (), dtype) if fill else None
    meta = v2.array_metadata(
        shape,
        chunks,
        dtype_doc,
        fill_value=fill_value,
        order=draw(st.sampled_from("CF")),
        compressor=draw(compressors),
        filters=draw(_filters(dtype)),
        dimension_separator=draw(st.sampled_from([None, ".", "/"])),
    )
    region = tuple(
        slice(lo, draw(st.integers(lo, n))) for n in shape for lo in [draw(st.integers(0, n))]
    )
    values = _random(draw, tuple(s.stop - s.start for s in region), dtype)
    return meta, fill_value, region, values


@settings(
    max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(arrays())
def test_write_then_read_is_bit_identical(case):
    meta, fill_value, region, values = case
    store = MemoryStore()
    array = v2.create_array(store, "g/a", meta)
    array[region] = values
    reopened = v2.open_array(store, "g/a")
    assert reopened.dtype == array.dtype and reopened.dtype.str == array.dtype.str
    out = reopened[...]
    assert out[region + (...,)].tobytes() == values.tobytes()  # (...) keeps 0-d results arrays
    # Outside the region: the fill item where one is defined.
    if fill_value is not None:
        mask = np.ones(out.shape, bool)
        mask[region] = False
        expected = reopened.fill_value.tobytes()
        assert out[mask].tobytes() == expected * int(mask.sum())


@settings(max_examples=100, deadline=None, database=None)
@given(dtype_docs, st.data())
def test_dtype_and_fill_json_round_trip(dtype_doc, data):
    dtype = parse_dtype(dtype_doc)
    assert dtype_to_json(dtype) == dtype_doc
    item = _random(data.draw, (), dtype)
    parsed = parse_fill_value(encode_fill_value(item, dtype), dtype)
    if dtype.kind in "fc":  # v2 can write only the canonical NaN
        item = np.where(np.isnan(item), np.array(np.nan, dtype), item).astype(dtype)
    assert parsed.tobytes() == item.tobytes()
