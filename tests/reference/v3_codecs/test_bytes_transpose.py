"""The bytes codec's binary form (V3-DT-002..005, V3-BYTES-003/004, V3-PIPE-002/003) and the
transpose codec's permutation semantics (V3-TRANS-002/003)."""

from __future__ import annotations

import gzip as stdlib_gzip
import itertools

import crc32c
import numpy as np
import pytest

from conformance.reference.errors import ChunkError
from conformance.reference.formats.v3.codecs import build_pipeline

from .helpers import BE, CRC, LE, gzip, pipeline, same_bits, transpose


def _roundtrip(codecs, values, data_type, expected_hex):
    p = pipeline(codecs, np.shape(values), data_type)
    data = p.encode(np.asarray(values, dtype=p.spec.dtype))
    assert data.hex() == expected_hex.replace(" ", "")
    back = p.decode(bytes.fromhex(expected_hex))
    assert same_bits(back, np.asarray(values, dtype=p.spec.dtype))
    assert back.dtype == p.spec.dtype and back.shape == np.shape(values)
    return back


# ---- V3-DT-002..005: element encodings ---------------------------------------------------------
def test_int16_twos_complement_both_endians():
    _roundtrip([LE], [-2], "int16", "feff")
    _roundtrip([BE], [-2], "int16", "fffe")


def test_uint64_max():
    _roundtrip([LE], [2**64 - 1], "uint64", "ff" * 8)
    _roundtrip([BE], [2**64 - 2], "uint64", "ff" * 7 + "fe")


def test_float16_one_and_negative_zero():
    _roundtrip([LE], [1.0], "float16", "003c")
    back = _roundtrip([LE], [-0.0], "float64", "00" * 7 + "80")
    assert np.signbit(back[0])
    _roundtrip([BE], [-0.0], "float64", "80" + "00" * 7)


def test_complex_parts_swapped_separately():
    _roundtrip([LE], [1 + 2j], "complex64", "0000803f 00000040")
    _roundtrip([BE], [1 + 2j], "complex64", "3f800000 40000000")
    _roundtrip([BE], [1 + 2j], "complex128", "3ff0000000000000 4000000000000000")


def test_bool_bytes():
    _roundtrip([{"name": "bytes"}], [False, True], "bool", "0001")
    with pytest.raises(ChunkError) as info:
        pipeline(["bytes"], (2,), "bool").decode(b"\x00\x02")
    assert info.value.requirement == "V3-DT-002"
    # a bool array viewed from other bytes is still written as 0x00 / 0x01
    odd = np.frombuffer(b"\x00\x07", dtype=bool)
    assert pipeline(["bytes"], (2,), "bool").encode(odd) == b"\x00\x01"


def test_datetime64_and_opaque_types():
    _roundtrip(
        [BE], np.array([1, -1], "<M8[s]"), "numpy.datetime64", "0000000000000001 ffffffffffffffff"
    )
    nat = np.array(["NaT"], "<M8[s]")
    _roundtrip([LE], nat, "numpy.datetime64", "0000000000000080")
    r16 = np.frombuffer(b"\x01\x02\x03\x04", dtype="V2")
    for codec in (BE, LE, {"name": "bytes"}):  # r<N> bytes pass through unchanged (V3-DT-007)
        _roundtrip([codec], r16, "r16", "0102 0304")


def test_byte_order_of_the_numpy_dtype_is_irrelevant():
    for dtype in ("<i2", ">i2"):
        p = build_pipeline([BE], (2,), dtype, np.array(0, dtype), "int16")
        assert p.encode(np.array([1, 256], dtype)) == bytes.fromhex("0001 0100")
        back = p.decode(bytes.fromhex("0001 0100"))
        assert back.dtype == np.dtype(dtype) and back.tolist() == [1, 256]


# ---- V3-BYTES-003/004, V3-PIPE-003 -----------------------------------------------------------
def test_c_order_without_transpose():
    data = np.arange(6, dtype="<i4").tobytes()
    p = pipeline([LE], (2, 3), "int32")
    assert p.decode(data).tolist() == [[0, 1, 2], [3, 4, 5]]
    fortran = np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3))
    assert p.encode(fortran) == data  # the memory layout of the input never leaks into the bytes


@pytest.mark.parametrize("size", [0, 5, 7, 9, 16])
def test_encoded_size_is_exact(size):
    with pytest.raises(ChunkError) as info:
        pipeline([LE], (2,), "int32").decode(bytes(size))
    assert info.value.reason == "corrupt-chunk" and info.value.requirement == "V3-BYTES-004"


def test_decode_is_writable_native_and_exact_shape():
    p = pipeline([BE], (2, 2), "float32")
    out = p.decode(bytes(16))
    assert out.flags.writeable and out.shape == (2, 2) and out.dtype == np.dtype("<f4")
    out[0, 0] = 1  # no error: a fresh array


def test_zero_dimensional_chunk():
    p = pipeline([LE], (), "int32")
    assert p.encode(np.array(7, "<i4")) == bytes.fromhex("07000000")
    assert p.decode(bytes.fromhex("07000000")).shape == ()


# ---- V3-TRANS-002: B[B_pos] = A[A_pos] with B_pos[i] = A_pos[order[i]] --------------------------
def _transpose_by_definition(a: np.ndarray, order) -> np.ndarray:
    """The spec's definition, written out element by element (independent of numpy.transpose)."""
    b = np.empty([a.shape[i] for i in order], dtype=a.dtype)
    for a_pos in itertools.product(*map(range, a.shape)):
        b[tuple(a_pos[i] for i in order)] = a[a_pos]
    return b


@pytest.mark.parametrize("order, encoded_shape", [([1, 2, 0], (3, 4, 2)), ([2, 0, 1], (4, 2, 3))])
def test_non_involutive_permutations(order, encoded_shape):
    a = np.arange(24, dtype="u1").reshape(2, 3, 4)
    expected = _transpose_by_definition(a, order)
    assert expected.shape == encoded_shape
    p = pipeline([transpose(order), {"name": "bytes"}], a.shape, "uint8")
    data = p.encode(a)
    assert data == expected.tobytes()
    assert same_bits(p.decode(data), a)
    # the inverse permutation gives different bytes, so the check above can fail
    inverse = [int(i) for i in np.argsort(order)]
    assert _transpose_by_definition(a, inverse).tobytes() != data


def test_transpose_reverse_order_matches_v2_fortran_order():
    """V3-TRANS-003: order [1, 0] + bytes(little) equals v2 order 'F' bytes."""
    a = np.arange(6, dtype="<i4").reshape(2, 3)
    p = pipeline([transpose([1, 0]), LE], (2, 3), "int32")
    expected = bytes.fromhex("00000000 03000000 01000000 04000000 02000000 05000000")
    assert p.encode(a) == expected == a.tobytes(order="F")
    assert same_bits(p.decode(expected), a)


def test_two_transposes_compose():
    a = np.arange(24, dtype="<i2").reshape(2, 3, 4)
    p = pipeline([transpose([1, 2, 0]), transpose([2, 0, 1]), LE], a.shape, "int16")
    assert p.encode(a) == a.tobytes()  # [2,0,1] undoes [1,2,0]
    p = pipeline([transpose([1, 2, 0]), transpose([1, 2, 0]), LE], a.shape, "int16")
    assert p.encode(a) == np.transpose(a, [2, 0, 1]).tobytes()
    assert same_bits(p.decode(p.encode(a)), a)


# ---- V3-PIPE-002: encode in list order, decode in reverse -------------------------------------
def test_codec_order_of_application():
    a = np.arange(6, dtype="<i4").reshape(2, 3)
    p = pipeline([transpose([1, 0]), LE, gzip(5), CRC], (2, 3), "int32")
    data = p.encode(a)
    body, checksum = data[:-4], data[-4:]
    assert checksum == crc32c.crc32c(body).to_bytes(4, "little")
    assert body[:3] == b"\x1f\x8b\x08"
    assert stdlib_gzip.decompress(body) == a.tobytes(order="F")
    assert same_bits(p.decode(data), a)


# ---- decoding without copies (what reads take: conformance/bench speed) --------------------------
def test_a_pipeline_decodes_to_a_read_only_view_of_the_stored_bytes():
    from conformance.reference import MemoryStore, get_format

    p = pipeline([LE], (4, 4), "int32")
    stored = p.encode(np.arange(16, dtype="<i4").reshape(4, 4))
    chunk = p.decode(stored)
    # no copy: the chunk is the stored bytes, and cannot be written through by mistake
    assert np.shares_memory(chunk, np.frombuffer(stored, np.uint8))
    assert not chunk.flags.writeable
    # an array->array codec after it gets a copy it may do anything with; so do other callers
    # of the bytes codec itself
    assert p.array_bytes.decode(memoryview(stored)).flags.writeable
    assert pipeline([transpose((1, 0)), LE], (4, 4), "int32").decode(stored).flags.writeable
    # big-endian stored bytes are converted (a new array) to the native order
    big = pipeline([BE], (4, 4), "int32")
    assert same_bits(
        big.decode(big.encode(np.arange(16, dtype=big.spec.dtype).reshape(4, 4))),
        np.arange(16, dtype=big.spec.dtype).reshape(4, 4),
    )
    # reads and read-modify-writes of arrays take such chunks as they should
    store = MemoryStore()
    document = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [8, 8],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": [LE],  # no compressor: chunk (0, 0) is a view of the bytes the store holds
    }
    array = get_format("v3").create_array(store, "", document, {})
    array.write(None, np.arange(64, dtype="<i4").reshape(8, 8))
    array.write((slice(1, 3), slice(1, 3)), -1)  # a partial chunk: decoded, modified, written
    expected = np.arange(64, dtype="<i4").reshape(8, 8)
    expected[1:3, 1:3] = -1
    assert same_bits(array.read(), expected)
    assert not array.read_chunk((0, 0)).flags.writeable
