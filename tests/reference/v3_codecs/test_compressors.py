"""crc32c, gzip, zstd and blosc: test vectors, container formats, and hostile streams
(V3-CRC-*, V3-GZIP-*, V3-ZSTD-*, V3-BLOSC-*)."""

from __future__ import annotations

import gzip as stdlib_gzip
import zlib

import numpy as np
import pytest
from numcodecs import blosc as nc_blosc
from numcodecs import zstd as nc_zstd

from conformance.reference.errors import ChunkError, LimitError, UnsupportedError, ZarrError

from .helpers import CRC, LE, blosc, gzip, pipeline, same_bits, shard, zstd


def _u8(codecs, n):
    return pipeline([{"name": "bytes"}, *codecs], (n,), "uint8")


def _raises(reason, func, *args, requirement=None):
    with pytest.raises(ZarrError) as info:
        func(*args)
    assert info.value.reason == reason, info.value
    if requirement:
        assert info.value.requirement == requirement, info.value
    return info.value


# ---- crc32c -----------------------------------------------------------------------------
def test_crc32c_test_vector():
    p = _u8([CRC], 9)
    data = p.encode(np.frombuffer(b"123456789", dtype="u1"))
    assert data == b"123456789" + bytes.fromhex("839206e3")  # 0xE3069283, appended little-endian
    assert p.decode(data).tobytes() == b"123456789"


def test_crc32c_of_empty_input():
    p = _u8([CRC], 0)
    assert p.encode(np.zeros(0, "u1")) == b"\x00\x00\x00\x00"
    assert p.decode(b"\x00\x00\x00\x00").size == 0


def test_crc32c_detects_a_flipped_bit():
    p = _u8([CRC], 9)
    data = bytearray(p.encode(np.frombuffer(b"123456789", dtype="u1")))
    for position in (0, 8, 9, 12):
        broken = bytearray(data)
        broken[position] ^= 0x10
        _raises("checksum-mismatch", p.decode, bytes(broken), requirement="V3-CRC-003")


def test_crc32c_needs_four_bytes():
    _raises("corrupt-chunk", _u8([CRC], 0).decode, b"\x00\x00\x00", requirement="V3-CRC-004")


def test_crc32c_is_over_the_compressed_bytes():
    p = _u8([gzip(1), CRC], 100)
    data = p.encode(np.zeros(100, "u1"))
    assert zlib.crc32(b"") == 0 and data[:2] == b"\x1f\x8b"
    import crc32c

    assert data[-4:] == crc32c.crc32c(data[:-4]).to_bytes(4, "little")


# ---- gzip -------------------------------------------------------------------------------
def test_gzip_writes_deterministic_rfc1952():
    values = np.arange(1000, dtype="<i4")
    p = pipeline([LE, gzip(6)], (1000,), "int32")
    data = p.encode(values)
    assert data[:3] == b"\x1f\x8b\x08"
    assert data[4:8] == b"\x00\x00\x00\x00"  # mtime 0: output depends on the input only
    assert p.encode(values) == data
    assert stdlib_gzip.decompress(data) == values.tobytes()
    assert same_bits(p.decode(data), values)


@pytest.mark.parametrize("level", [0, 1, 9])
def test_gzip_levels_round_trip(level):
    values = np.arange(300, dtype="<i4") % 7
    p = pipeline([LE, gzip(level)], (300,), "int32")
    assert same_bits(p.decode(p.encode(values)), values)


def test_gzip_reads_foreign_members():
    values = np.arange(50, dtype="u1")
    p = _u8([gzip()], 50)
    assert same_bits(p.decode(stdlib_gzip.compress(values.tobytes(), mtime=123456)), values)
    two_members = stdlib_gzip.compress(values[:20].tobytes()) + stdlib_gzip.compress(
        values[20:].tobytes()
    )
    assert same_bits(p.decode(two_members), values)


def test_gzip_rejects_zlib_and_raw_deflate():
    raw = bytes(range(50))
    p = _u8([gzip()], 50)
    error = _raises("corrupt-chunk", p.decode, zlib.compress(raw), requirement="V3-GZIP-002")
    assert "zlib" in error.message
    deflater = zlib.compressobj(wbits=-15)
    _raises(
        "corrupt-chunk",
        p.decode,
        deflater.compress(raw) + deflater.flush(),
        requirement="V3-GZIP-002",
    )


def test_gzip_rejects_truncated_corrupt_and_trailing_junk():
    raw = bytes(range(50))
    good = stdlib_gzip.compress(raw)
    p = _u8([gzip()], 50)
    _raises("corrupt-chunk", p.decode, good[:-5])
    _raises("corrupt-chunk", p.decode, good + b"junk")
    broken = bytearray(good)
    broken[-6] ^= 0xFF  # the CRC-32 in the gzip trailer
    _raises("corrupt-chunk", p.decode, bytes(broken))


def test_gzip_bomb_stops_at_the_expected_size():
    bomb = stdlib_gzip.compress(bytes(50_000_000), 1)  # ~50 KB that inflate to 50 MB
    _raises("corrupt-chunk", _u8([gzip()], 100).decode, bomb)
    _raises(
        "corrupt-chunk", _u8([gzip()], 100).decode, stdlib_gzip.compress(bytes(99))
    )  # too short


# ---- zstd -------------------------------------------------------------------------------
def _zstd_frame_of_unknown_size(payload: bytes) -> bytes:
    """A frame without Frame_Content_Size: descriptor 0, window byte, one raw last block."""
    block = (1 | len(payload) << 3).to_bytes(3, "little")
    return b"\x28\xb5\x2f\xfd\x00\x00" + block + payload


def test_zstd_frames_and_checksum_flag():
    values = np.arange(1000, dtype="<i4")
    plain = pipeline([LE, zstd(3)], (1000,), "int32").encode(values)
    checked = pipeline([LE, zstd(3, checksum=True)], (1000,), "int32").encode(values)
    explicit_false = pipeline([LE, zstd(3, checksum=False)], (1000,), "int32").encode(values)
    assert plain[:4] == checked[:4] == b"\x28\xb5\x2f\xfd"
    assert not plain[4] & 0x04 and checked[4] & 0x04  # Content_Checksum_flag
    assert explicit_false == plain
    for data in (plain, checked):
        assert same_bits(pipeline([LE, zstd(0)], (1000,), "int32").decode(data), values)


def test_zstd_checksum_catches_corruption():
    values = np.arange(1000, dtype="<i4") % 13
    p = pipeline([LE, zstd(3, checksum=True)], (1000,), "int32")
    broken = bytearray(p.encode(values))
    broken[-1] ^= 0x01  # the content checksum
    _raises("corrupt-chunk", p.decode, bytes(broken))


def test_zstd_frame_without_content_size():
    payload = bytes(range(40))
    assert _u8([zstd()], 40).decode(_zstd_frame_of_unknown_size(payload)).tobytes() == payload
    _raises("corrupt-chunk", _u8([zstd()], 41).decode, _zstd_frame_of_unknown_size(payload))
    _raises("corrupt-chunk", _u8([zstd()], 39).decode, _zstd_frame_of_unknown_size(payload))


def test_zstd_declared_size_must_match():
    data = nc_zstd.compress(bytes(100), 1)
    _raises("corrupt-chunk", _u8([zstd()], 99).decode, data)
    _raises("corrupt-chunk", _u8([zstd()], 100).decode, b"\x78\x9c" + data)
    _raises("corrupt-chunk", _u8([zstd()], 100).decode, data + b"junk")
    _raises("corrupt-chunk", _u8([zstd()], 100).decode, data[:-2])


def test_zstd_huge_declared_size_is_refused_before_allocation():
    # single-segment frame declaring 2**40 bytes with an 8-byte Frame_Content_Size
    header = b"\x28\xb5\x2f\xfd" + bytes([0xE0]) + (2**40).to_bytes(8, "little")
    hostile = header + (1 | 1 << 1 | (1 << 20) << 3).to_bytes(3, "little") + b"\x00"
    _raises("corrupt-chunk", _u8([zstd()], 16).decode, hostile)
    sharded = pipeline([shard([2]), zstd()], (4,), "int32")  # decoded size unknown after sharding
    with pytest.raises(LimitError):
        sharded.decode(hostile)


# ---- blosc ------------------------------------------------------------------------------
def _header(data: bytes) -> dict:
    return {
        "flags": data[2],
        "typesize": data[3],
        "nbytes": int.from_bytes(data[4:8], "little"),
        "cbytes": int.from_bytes(data[12:16], "little"),
    }


@pytest.mark.parametrize("shuffle, flag", [("shuffle", 0x01), ("bitshuffle", 0x04)])
def test_blosc_header_records_shuffle_and_typesize(shuffle, flag):
    values = np.arange(4096, dtype="<i4")
    p = pipeline([LE, blosc(shuffle=shuffle, typesize=4)], (4096,), "int32")
    data = p.encode(values)
    header = _header(data)
    assert (
        header["nbytes"] == 4 * 4096 and header["cbytes"] == len(data) and header["typesize"] == 4
    )
    assert header["flags"] & flag
    assert same_bits(p.decode(data), values)


def test_blosc_noshuffle_without_typesize():
    values = np.arange(256, dtype="u1")
    p = _u8([blosc(shuffle="noshuffle", typesize=None)], 256)
    data = p.encode(values)
    assert not _header(data)["flags"] & 0x05
    assert same_bits(p.decode(data), values)


@pytest.mark.parametrize("cname", sorted(set(nc_blosc.list_compressors())))
def test_blosc_compressors_round_trip(cname):
    values = np.arange(1000, dtype="<f8")
    p = pipeline([LE, blosc(cname=cname, typesize=8, clevel=9)], (1000,), "float64")
    assert same_bits(p.decode(p.encode(values)), values)


def test_blosc_decoding_ignores_the_configured_cname():
    """V3-BLOSC-005: the header is self-describing."""
    values = np.arange(1000, dtype="<i4")
    written = pipeline([LE, blosc(cname="zstd")], (1000,), "int32").encode(values)
    assert same_bits(pipeline([LE, blosc(cname="lz4")], (1000,), "int32").decode(written), values)


def test_blosc_empty_chunk():
    p = _u8([blosc()], 0)
    assert p.decode(p.encode(np.zeros(0, "u1"))).size == 0


def test_blosc_rejects_inconsistent_headers():
    values = np.arange(100, dtype="u1")
    p = _u8([blosc(typesize=1)], 100)
    data = p.encode(values)
    _raises("corrupt-chunk", p.decode, data[:10])
    _raises("corrupt-chunk", p.decode, data + b"\x00")  # cbytes != length
    _raises("corrupt-chunk", _u8([blosc(typesize=1)], 99).decode, data)  # nbytes != expected
    broken = bytearray(data)
    broken[4:8] = (2**31).to_bytes(4, "little")  # hostile nbytes
    _raises("corrupt-chunk", p.decode, bytes(broken))


@pytest.mark.skipif("snappy" in nc_blosc.list_compressors(), reason="this c-blosc has snappy")
def test_blosc_snappy_is_unsupported_not_wrong():
    with pytest.raises(UnsupportedError):
        _u8([blosc(cname="snappy")], 4).encode(np.zeros(4, "u1"))


def test_compressor_errors_are_chunk_errors():
    for codec in (gzip(), zstd(), blosc()):
        with pytest.raises(ChunkError):
            _u8([codec], 4).decode(b"not compressed at all")


def test_zstd_empty_frames():
    p = _u8([zstd()], 0)
    assert p.decode(p.encode(np.zeros(0, "u1"))).size == 0
    # a frame that declares 0 bytes but carries a 5-byte raw block is corrupt, not empty
    lying = b"\x28\xb5\x2f\xfd\x20\x00" + (1 | 5 << 3).to_bytes(3, "little") + b"hello"
    _raises("corrupt-chunk", p.decode, lying)
