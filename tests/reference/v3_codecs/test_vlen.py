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
