"""vlen-utf8 / vlen-bytes (zarr-extensions): framing, C order, strict decoding."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.reference.errors import ChunkError

from .helpers import gzip, pipeline, same_bits, transpose

UTF8 = {"name": "vlen-utf8", "configuration": {}}
BYTES = {"name": "vlen-bytes"}


def _strings(values, shape=None):
    a = np.empty(len(values), dtype=object)
    a[:] = values
    return a.reshape(shape or (len(values),))


def test_utf8_framing():
    p = pipeline([UTF8], (3,), "string", fill="")
    data = p.encode(_strings(["a", "bcd", ""]))
    assert data == bytes.fromhex("0300000001000000 6103000000 62636400000000".replace(" ", ""))
    assert same_bits(p.decode(data), _strings(["a", "bcd", ""]))


def test_bytes_framing():
    p = pipeline([BYTES], (2,), "bytes", fill=b"")
    data = p.encode(_strings([b"\x00\xff", b""]))
    assert data == bytes.fromhex("02000000 02000000 00ff 00000000".replace(" ", ""))
    assert same_bits(p.decode(data), _strings([b"\x00\xff", b""]))


def test_items_are_in_c_order_of_the_codec_input():
    values = _strings(["a", "b", "c", "d", "e", "f"], (2, 3))
    plain = pipeline(["vlen-utf8"], (2, 3), "string", fill="").encode(values)
    assert plain[4:] == b"".join(b"\x01\x00\x00\x00" + c.encode() for c in "abcdef")
    transposed = pipeline([transpose([1, 0]), UTF8], (2, 3), "string", fill="")
    data = transposed.encode(values)
    assert data[4:] == b"".join(b"\x01\x00\x00\x00" + c.encode() for c in "adbecf")
    assert same_bits(transposed.decode(data), values)


def test_unicode_and_compression_round_trip():
    values = _strings(["", "é", "日本語", "🦆" * 100, "a\x00b"], (5,))
    p = pipeline([UTF8, gzip(5)], (5,), "string", fill="")
    assert same_bits(p.decode(p.encode(values)), values)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x01\x00\x00",
        bytes.fromhex("02000000 01000000 61"),  # count says 2, chunk has 1
        bytes.fromhex("01000000 05000000 61"),  # item runs past the end
        bytes.fromhex("01000000 01000000 61 00"),  # trailing byte
        bytes.fromhex("01000000 02000000 c328"),  # invalid UTF-8
        bytes.fromhex("ffffffff"),  # hostile count
    ],
)
def test_corrupt_values(data):
    with pytest.raises(ChunkError) as info:
        pipeline([UTF8], (1,), "string", fill="").decode(data.replace(b" ", b""))
    assert info.value.reason == "corrupt-chunk"


def test_items_of_the_wrong_type_are_refused():
    with pytest.raises(TypeError):
        pipeline([UTF8], (2,), "string", fill="").encode(_strings(["a", None]))
    with pytest.raises(TypeError):
        pipeline([UTF8], (1,), "string", fill="").encode(_strings([b"a"]))
    with pytest.raises(TypeError):
        pipeline([BYTES], (1,), "bytes", fill=b"").encode(_strings(["a"]))


# ---- what decoding a frame may cost (conformance/reference/value_cost.py) ----------------------
def test_what_the_objects_may_cost_is_refused_before_they_are_made(monkeypatch):
    from conformance.reference import value_cost
    from conformance.reference.errors import LimitError

    p = pipeline([UTF8], (1000,), "string", fill="")
    data = p.encode(_strings(["ab"] * 1000))  # 6 kB that become 1000 str objects of 51 bytes
    monkeypatch.setattr(value_cost, "MAX_VALUE_COST", 64_000)
    with pytest.raises(LimitError, match="variable-length chunk"):
        p.decode(data)
    monkeypatch.setattr(value_cost, "MAX_VALUE_COST", 80_000)  # 6 kB + 1000 * (49 + 8) + 2 kB
    assert same_bits(p.decode(data), _strings(["ab"] * 1000))


def test_the_inner_chunks_of_a_shard_share_one_account(monkeypatch):
    """Each inner chunk fits the limit alone; together they do not."""
    from conformance.reference import value_cost
    from conformance.reference.errors import LimitError

    from .helpers import shard

    values = _strings([b"x" * 1000] * 8)
    inner = pipeline([BYTES, gzip(1)], (2,), "bytes", fill=b"")
    sharded = pipeline([shard([2], [BYTES, gzip(1)])], (8,), "bytes", fill=b"")
    data = sharded.encode(values)
    monkeypatch.setattr(value_cost, "MAX_VALUE_COST", 5000)  # 2 items: 2 kB frame + 2 kB objects
    assert same_bits(inner.decode(inner.encode(values[:2])), values[:2])
    with pytest.raises(LimitError, match="variable-length chunk"):
        sharded.decode(data)
    monkeypatch.setattr(value_cost, "MAX_VALUE_COST", 1 << 30)
    assert same_bits(sharded.decode(data), values)


def test_a_frame_too_large_to_hold_beside_its_objects_is_not_inflated():
    """The gzip stage stops at MAX_FRAME_BYTES when the next codec is a vlen codec."""
    from conformance.reference.value_cost import MAX_FRAME_BYTES

    p = pipeline([BYTES, gzip(1)], (1,), "bytes", fill=b"")
    assert p.bytes_codecs[0].output_limit == MAX_FRAME_BYTES
    int32 = pipeline([{"name": "bytes", "configuration": {"endian": "little"}}, gzip(1)], (4,))
    assert int32.bytes_codecs[0].output_limit == 16
