"""sharding_indexed: byte layouts built by hand from the spec, hostile indexes, empty shards,
nesting, transpose before sharding and partial reads (V3-SHARD-*, V3-TRANS-004, V3-PIPE-005)."""

from __future__ import annotations

import gzip as stdlib_gzip

import crc32c
import numpy as np
import pytest

from conformance.reference import MemoryStore
from conformance.reference.errors import ChunkError, ZarrError

from .helpers import BE, CRC, LE, gzip, pipeline, same_bits, shard, transpose

FF16 = b"\xff" * 16


def _index(entries, crc=True) -> bytes:
    """Encode (offset, nbytes) pairs (None = empty) as the little-endian index (+ crc32c)."""
    raw = b"".join(
        FF16 if e is None else e[0].to_bytes(8, "little") + e[1].to_bytes(8, "little")
        for e in entries
    )
    return raw + crc32c.crc32c(raw).to_bytes(4, "little") if crc else raw


def _shard_4x4(**kw):
    return pipeline([shard([2, 2], **kw)], (4, 4), "int32", fill=-1)


def _chunk(a, i, j):
    return np.ascontiguousarray(a[2 * i : 2 * i + 2, 2 * j : 2 * j + 2]).astype("<i4").tobytes()


A = np.arange(16, dtype="<i4").reshape(4, 4) + 100


def _raises(reason, func, *args, requirement=None):
    with pytest.raises(ZarrError) as info:
        func(*args)
    assert info.value.reason == reason, info.value
    if requirement:
        assert info.value.requirement == requirement, info.value


# ---- the binary layout -----------------------------------------------------------------
def test_spec_example_index_layout():
    """2x2 inner grid with [bytes(little), crc32c]: a 68-byte index at the end (V3-SHARD-006/009)."""
    p = _shard_4x4()
    data = p.encode(A)
    chunks = [_chunk(A, i, j) for i in range(2) for j in range(2)]
    expected = b"".join(chunks) + _index([(0, 16), (16, 16), (32, 16), (48, 16)])
    assert data == expected
    index = data[-68:]
    assert index[-4:] == crc32c.crc32c(index[:64]).to_bytes(4, "little")
    assert same_bits(p.decode(data), A)


def test_index_is_c_order_over_the_inner_grid():
    """V3-SHARD-006: entry 1 is inner chunk (0, 1); row/column confusion reads a wrong value."""
    a = np.full((4, 4), -1, "<i4")
    a[0:2, 2:4] = [[7, 8], [9, 10]]
    data = _chunk(a, 0, 1) + _index([None, (0, 16), None, None])
    out = _shard_4x4().decode(data)
    assert out[0, 2] == 7 and out[1, 3] == 10 and same_bits(out, a)


def test_empty_inner_chunk_reads_as_fill_and_is_not_written():
    """V3-SHARD-007: both fields 2^64-1; unwritten inner chunks leave FF x 16 in the index."""
    a = np.full((4, 4), -1, "<i4")
    a[2:4, 0:2] = 5
    data = _shard_4x4().encode(a)
    assert data == _chunk(a, 1, 0) + _index([None, None, (0, 16), None])
    assert same_bits(_shard_4x4().decode(data), a)


def test_half_empty_index_entry_is_corrupt():
    data = _chunk(A, 0, 0) + _index([(0, 16), (0, 16), (0, 16), None])
    bad = bytearray(data[: -4 - 16]) + b"\xff" * 8 + (16).to_bytes(8, "little")
    bad += crc32c.crc32c(bytes(bad[16:])).to_bytes(4, "little")
    _raises("corrupt-shard-index", _shard_4x4().decode, bytes(bad), requirement="V3-SHARD-007")


def test_index_covers_inner_chunks_past_the_array_edge():
    """V3-SHARD-008: array (10,), shard (8,), inner (2,): the edge shard c/1 still has 4 entries."""
    p = pipeline([shard([2])], (8,), "int32", fill=0)
    edge = np.zeros(8, "<i4")
    edge[:2] = [8, 9]  # array elements 8 and 9; the rest lies past the array edge
    data = p.encode(edge)
    assert len(data) == 8 + 4 * 16 + 4
    assert data == edge[:2].tobytes() + _index([(0, 8), None, None, None])


def test_index_at_start_offsets_count_from_the_shard_start():
    """V3-SHARD-010: with index_location start, the first inner chunk is at offset 68."""
    p = _shard_4x4(index_location="start")
    data = p.encode(A)
    chunks = [_chunk(A, i, j) for i in range(2) for j in range(2)]
    assert data == _index([(68, 16), (84, 16), (100, 16), (116, 16)]) + b"".join(chunks)
    assert same_bits(p.decode(data), A)
    # an implementation measuring offsets from the end of the index would read the wrong bytes
    shifted = _index([(0, 16), (16, 16), (32, 16), (48, 16)]) + b"".join(chunks)
    _raises("corrupt-shard-index", p.decode, shifted)


def test_inner_chunks_in_reverse_order_with_gaps():
    """V3-SHARD-011: readers rely only on the index."""
    junk = b"JUNKJUN"
    body, entries = b"", [None] * 4
    for k in reversed(range(4)):
        body += junk
        entries[k] = (len(body), 16)
        body += _chunk(A, *divmod(k, 2))
    body += junk
    for location in ("end", "start"):
        p = _shard_4x4(index_location=location)
        if location == "end":
            data = body + _index(entries)
        else:
            data = _index([(o + 68, n) for o, n in entries]) + body
        assert same_bits(p.decode(data), A)


def test_inner_codecs_encode_each_inner_chunk():
    """V3-SHARD-012: inner [bytes(big), gzip] -> each blob is a gzip member of big-endian data."""
    p = pipeline([shard([2, 2], codecs=[BE, gzip(1)])], (4, 4), "int32", fill=-1)
    data = p.encode(A)
    index = np.frombuffer(data[-68:-4], "<u8").reshape(2, 2, 2)
    for i in range(2):
        for j in range(2):
            offset, nbytes = (int(v) for v in index[i, j])
            blob = data[offset : offset + nbytes]
            assert blob[:2] == b"\x1f\x8b"
            assert (
                stdlib_gzip.decompress(blob)
                == A[2 * i : 2 * i + 2, 2 * j : 2 * j + 2].astype(">i4").tobytes()
            )
    assert same_bits(p.decode(data), A)


def test_index_codecs_without_crc_and_big_endian():
    p = pipeline([shard([2], index_codecs=[BE])], (4,), "int16", fill=0)
    data = p.encode(np.array([1, 2, 3, 4], "<i2"))
    assert data == bytes.fromhex("01000200 03000400") + (0).to_bytes(8, "big") + (4).to_bytes(
        8, "big"
    ) + (4).to_bytes(8, "big") + (4).to_bytes(8, "big")


def test_nested_sharding():
    """V3-SHARD-013: the inner codec of a shard is itself sharding."""
    inner = shard([2, 2], codecs=[LE], index_codecs=[LE])
    p = pipeline([shard([4, 4], codecs=[inner])], (8, 8), "int32", fill=0)
    a = np.arange(64, dtype="<i4").reshape(8, 8) + 1
    data = p.encode(a)
    assert same_bits(p.decode(data), a)
    outer = np.frombuffer(data[-68:-4], "<u8").reshape(4, 2)
    offset, nbytes = (int(v) for v in outer[1])  # outer inner-chunk (0, 1) = a[0:4, 4:8]
    blob = data[offset : offset + nbytes]
    assert len(blob) == 4 * 16 + 64  # four 2x2 int32 chunks + a 64-byte index without crc
    assert blob[:16] == a[0:2, 4:6].tobytes()


def test_transpose_before_sharding():
    """V3-TRANS-004: chunk (4, 8) -> transposed (8, 4) -> inner chunks (8, 2)."""
    p = pipeline([transpose([1, 0]), shard([8, 2])], (4, 8), "int32", fill=0)
    a = np.arange(32, dtype="<i4").reshape(4, 8) + 1
    data = p.encode(a)
    t = a.T
    assert data == t[:, 0:2].tobytes() + t[:, 2:4].tobytes() + _index([(0, 64), (64, 64)])
    assert same_bits(p.decode(data), a)


# ---- empty shards (V3-SHARD-017) --------------------------------------------------------
@pytest.mark.parametrize("index_codecs, size", [([LE], 64), ([LE, CRC], 68)])
def test_all_empty_index_reads_as_fill_and_is_what_an_all_fill_shard_encodes_to(index_codecs, size):
    p = pipeline([shard([2, 2], index_codecs=index_codecs)], (4, 4), "int32", fill=42)
    empty = _index([None] * 4, crc=len(index_codecs) == 2)
    assert len(empty) == size
    assert same_bits(p.decode(empty), np.full((4, 4), 42, "<i4"))
    assert p.encode(np.full((4, 4), 42, "<i4")) == empty
    assert p.sharding.is_empty_shard(empty)
    assert not p.sharding.is_empty_shard(p.encode(np.zeros((4, 4), "<i4")))


def test_fill_comparison_is_bitwise():
    nan = np.frombuffer(bytes.fromhex("0000c07f"), "<f4")[0]  # canonical quiet NaN
    p = pipeline([shard([2])], (4,), "float32", fill=nan)
    assert p.encode(np.full(4, nan, "<f4")) == _index([None, None])
    payload = np.frombuffer(bytes.fromhex("0100c07f"), "<f4")[0]  # NaN with another payload
    values = np.array([nan, nan, payload, nan], "<f4")
    assert same_bits(p.decode(p.encode(values)), values)
    assert len(p.encode(values)) == 8 + 36
    zero = pipeline([shard([2])], (4,), "float32", fill=0.0)
    assert len(zero.encode(np.array([-0.0, 0, 0, 0], "<f4"))) == 8 + 36  # -0.0 is not the fill 0.0


# ---- hostile indexes (V3-SHARD-016) -----------------------------------------------------
def test_corrupted_index_checksum():
    data = bytearray(_shard_4x4().encode(A))
    data[-10] ^= 0x01
    _raises("checksum-mismatch", _shard_4x4().decode, bytes(data))


@pytest.mark.parametrize(
    "entries",
    [
        [(0, 16), (16, 16), (32, 16), (48, 17)],  # nbytes runs past the chunk data into the index
        [(0, 16), (16, 16), (32, 16), (2**63, 16)],  # offset far past the end
        [(0, 16), (16, 16), (32, 16), (48, 2**64 - 2)],  # would overflow offset + nbytes
        [(0, 16), (16, 16), (32, 16), (64, 4)],  # inside the index itself
    ],
)
def test_ranges_outside_the_chunk_data(entries):
    body = b"".join(_chunk(A, i, j) for i in range(2) for j in range(2))
    _raises(
        "corrupt-shard-index",
        _shard_4x4().decode,
        body + _index(entries),
        requirement="V3-SHARD-016",
    )


def test_shard_shorter_than_its_index():
    _raises("corrupt-shard-index", _shard_4x4().decode, b"\xff" * 67)
    _raises("corrupt-shard-index", _shard_4x4().decode, b"")


def test_inner_chunk_of_wrong_size_is_corrupt():
    data = _chunk(A, 0, 0)[:12] + _index([(0, 12), None, None, None])
    _raises("corrupt-chunk", _shard_4x4().decode, data, requirement="V3-BYTES-004")


def test_object_dtype_inner_chunks():
    p = pipeline([shard([2], codecs=[{"name": "vlen-utf8"}])], (4,), "string", fill="")
    values = np.array(["", "", "é", "x"], dtype=object)
    data = p.encode(values)
    assert data[-36:-20] == FF16  # inner chunk 0 is all fill: not written
    assert data[:4] == b"\x02\x00\x00\x00"  # inner chunk 1: two items
    assert same_bits(p.decode(data), values)


# ---- partial reads (V3-PIPE-005) --------------------------------------------------------
class LoggingStore(MemoryStore):
    def __init__(self, data):
        super().__init__(data)
        self.requests = []

    def get(self, key):
        self.requests.append(("get", key))
        return super().get(key)

    def get_partial(self, key, start, length=None):
        self.requests.append(("range", start, length))
        value = self.data.get(key)
        if value is None:
            return None
        start = max(len(value) + start, 0) if start < 0 else start
        return value[start:] if length is None else value[start : start + length]


@pytest.mark.parametrize("location", ["end", "start"])
def test_partial_read_fetches_index_and_needed_chunks_only(location):
    p = pipeline([shard([2, 2], index_location=location)], (8, 8), "int32", fill=0)
    a = np.arange(64, dtype="<i4").reshape(8, 8) + 1
    store = LoggingStore({"c/0/0": p.encode(a)})
    out = p.decode_partial(store, "c/0/0", (slice(3, 5), slice(6, 7)))
    assert same_bits(out, a[3:5, 6:7])
    assert [r[0] for r in store.requests] == ["range"] * 3  # index + inner chunks (1, 3) and (2, 3)
    first = store.requests[0]
    assert first == (
        ("range", 0, 16 * 16 + 4) if location == "start" else ("range", -(16 * 16 + 4), 16 * 16 + 4)
    )


def test_partial_read_equals_full_read_everywhere():
    inner = shard([2, 2], codecs=[LE, gzip(1)], index_codecs=[LE], index_location="start")
    p = pipeline([transpose([1, 0]), shard([4, 4], codecs=[inner])], (8, 4), "int32", fill=3)
    a = np.arange(32, dtype="<i4").reshape(8, 4)
    a[0:4, 0:4] = 3  # one outer inner chunk all fill
    store = MemoryStore({"k": p.encode(a)})
    full = p.decode(store.get("k"))
    assert same_bits(full, a)
    for r0 in range(0, 8, 3):
        for r1 in range(r0 + 1, 9, 2):
            for c0 in range(4):
                sel = (slice(r0, r1), slice(c0, 4))
                assert same_bits(p.decode_partial(store, "k", sel), a[sel])


def test_partial_read_of_missing_key_is_none():
    p = pipeline([shard([2])], (4,), "int32")
    assert p.decode_partial(MemoryStore(), "nope", (slice(0, 1),)) is None
    unsharded = pipeline([LE], (4,), "int32")
    assert unsharded.decode_partial(MemoryStore(), "nope", (slice(0, 1),)) is None


def test_partial_read_falls_back_when_the_shard_is_checksummed_as_a_whole():
    p = pipeline([shard([2]), CRC], (4,), "int32")
    assert not p.supports_partial
    values = np.array([1, 2, 3, 4], "<i4")
    store = LoggingStore({"k": p.encode(values)})
    assert same_bits(p.decode_partial(store, "k", (slice(1, 3),)), values[1:3])
    assert store.requests == [("get", "k")]


def test_partial_read_detects_truncated_shards():
    p = pipeline([shard([2], index_location="start")], (4,), "int32")
    data = p.encode(np.array([1, 2, 3, 4], "<i4"))
    store = MemoryStore({"k": data[:-3]})
    with pytest.raises(ChunkError) as info:
        p.decode_partial(store, "k", (slice(3, 4),))
    assert info.value.reason == "corrupt-shard-index"


@pytest.mark.parametrize("order", [[1, 2, 0], [2, 0, 1]])
def test_partial_read_through_a_non_involutive_transpose(order):
    a = np.arange(2 * 3 * 4, dtype="<i2").reshape(2, 3, 4) + 1
    encoded_shape = tuple(a.shape[i] for i in order)
    p = pipeline([transpose(order), shard([1] * 3, index_codecs=[LE])], a.shape, "int16", fill=0)
    assert p.sharding.chunks_per_shard == encoded_shape
    store = MemoryStore({"k": p.encode(a)})
    for sel in [
        (slice(0, 1), slice(1, 3), slice(0, 4)),
        (slice(1, 2), slice(0, 3), slice(2, 3)),
        (slice(0, 2), slice(2, 3), slice(1, 4)),
    ]:
        assert same_bits(p.decode_partial(store, "k", sel), a[sel])


@pytest.mark.parametrize("entry", [(2**63, 16), (2**64 - 2, 16), (0, 2**40)])
def test_partial_read_refuses_impossible_ranges(tmp_path, entry):
    """A hostile index must not make a store seek or allocate absurdly (DirectoryStore too)."""
    from conformance.reference import DirectoryStore

    p = pipeline([shard([2])], (4,), "int32")
    data = np.array([1, 2], "<i4").tobytes() + _index([(0, 8), entry])
    store = DirectoryStore(tmp_path)
    store.set("k", data)
    with pytest.raises(ZarrError) as info:
        p.decode_partial(store, "k", (slice(2, 4),))
    assert info.value.reason in ("corrupt-shard-index", "too-large")
    with pytest.raises(ZarrError):
        p.decode(data)
