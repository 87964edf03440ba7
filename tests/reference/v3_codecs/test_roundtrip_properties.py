"""Property tests: for random data types, chunk shapes and codec lists, encode then decode is
bit-identical (NaN payloads, -0.0, NaT included), encoding is deterministic, and a partial read of
any box equals the same box of the full decode."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.reference import MemoryStore
from conformance.reference.formats.v3.codecs import build_pipeline

from .helpers import CRC, DATA_TYPES, blosc, gzip, same_bits, shard, transpose, zstd

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, max(n, 1) + 1) if n % d == 0] if n else [1, 2]


def _bytes_codec(draw, endian=None):
    return {
        "name": "bytes",
        "configuration": {"endian": endian or draw(st.sampled_from(["little", "big"]))},
    }


def _maybe_transpose(draw, shape):
    if len(shape) > 1 and draw(st.booleans()):
        order = draw(st.permutations(range(len(shape))))
        return [transpose(order)], tuple(shape[i] for i in order)
    return [], shape


def _compressors(draw, itemsize: int):
    options = [
        gzip(1),
        zstd(1),
        zstd(-3, checksum=True),
        CRC,
        blosc(cname="lz4", shuffle="shuffle", typesize=itemsize),
        blosc(cname="zstd", shuffle="bitshuffle", typesize=itemsize, clevel=1),
        blosc(cname="blosclz", shuffle="noshuffle", typesize=None, blocksize=64),
    ]
    return draw(st.lists(st.sampled_from(options), max_size=2))


def _array_to_bytes(draw, shape, itemsize, depth, bytes_codec):
    """Either the bytes codec or sharding (possibly nested once) for arrays of `shape`."""
    if depth >= 2 or not draw(st.booleans()):
        return [bytes_codec(draw)]
    inner = tuple(draw(st.sampled_from(_divisors(n))) for n in shape)
    inner_list, inner_shape = _maybe_transpose(draw, inner)
    inner_list += _array_to_bytes(draw, inner_shape, itemsize, depth + 1, bytes_codec)
    inner_list += _compressors(draw, itemsize)
    index_codecs = [_bytes_codec(draw)] + ([CRC] if draw(st.booleans()) else [])
    location = draw(st.sampled_from([None, "start", "end"]))
    return [shard(inner, inner_list, index_codecs, location)]


@st.composite
def fixed_size_cases(draw):
    data_type = draw(st.sampled_from(sorted(DATA_TYPES)))
    dtype = np.dtype(DATA_TYPES[data_type])
    shape = tuple(draw(st.lists(st.integers(0, 5), max_size=3)))
    codecs, encoded_shape = _maybe_transpose(draw, shape)
    codecs += _array_to_bytes(draw, encoded_shape, dtype.itemsize, 0, _bytes_codec)
    codecs += _compressors(draw, dtype.itemsize)
    n = math.prod(shape)
    fill = np.frombuffer(
        draw(st.binary(min_size=dtype.itemsize, max_size=dtype.itemsize)), dtype
    ).reshape(())
    raw = draw(st.binary(min_size=n * dtype.itemsize, max_size=n * dtype.itemsize))
    values = np.frombuffer(raw, dtype).reshape(shape).copy()
    if dtype == np.bool_:
        fill = np.array(bool(fill.view("u1") & 1))
        values = np.asarray(values.view("u1") & 1).astype(bool)
    # runs of fill values, so sharding sees empty inner chunks
    mask = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool).reshape(
        shape
    )
    values[mask] = fill
    return data_type, dtype, shape, codecs, fill, values


def _check(data_type, dtype, shape, codecs, fill, values, draw_selection):
    p = build_pipeline(codecs, shape, dtype, fill, data_type)
    data = p.encode(values)
    assert isinstance(data, bytes)
    assert p.encode(values) == data  # deterministic
    back = p.decode(data)
    assert back.shape == shape and back.dtype == dtype
    assert same_bits(back, values), (codecs, values, back)
    if p.encoded_size is not None:
        assert len(data) == p.encoded_size
    selection = draw_selection(shape)
    part = p.decode_partial(MemoryStore({"k": data}), "k", selection)
    assert same_bits(part, values[selection + (Ellipsis,)])


def _selection_drawer(data):
    def draw(shape):
        out = []
        for n in shape:
            start = data.draw(st.integers(0, n))
            out.append(slice(start, data.draw(st.integers(start, n))))
        return tuple(out)

    return draw


@SETTINGS
@given(fixed_size_cases(), st.data())
def test_fixed_size_round_trip(case, data):
    _check(*case, _selection_drawer(data))


@st.composite
def variable_size_cases(draw):
    data_type = draw(st.sampled_from(["string", "bytes"]))
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=2)))
    n = math.prod(shape)
    item = st.text(max_size=6) if data_type == "string" else st.binary(max_size=6)
    fill = "" if data_type == "string" else b""
    values = np.empty(n, dtype=object)
    values[:] = [draw(st.one_of(st.just(fill), item)) for _ in range(n)]
    codecs, encoded_shape = _maybe_transpose(draw, shape)
    vlen = "vlen-utf8" if data_type == "string" else "vlen-bytes"
    codecs += _array_to_bytes(draw, encoded_shape, 1, 0, lambda draw: {"name": vlen})
    codecs += _compressors(draw, 1)
    return (
        data_type,
        np.dtype(object),
        shape,
        codecs,
        np.array(fill, dtype=object),
        values.reshape(shape),
    )


@settings(max_examples=60, deadline=None)
@given(variable_size_cases(), st.data())
def test_variable_size_round_trip(case, data):
    _check(*case, _selection_drawer(data))
