"""Decompressing into one growing buffer, a block at a time.

One call of zlib's, bz2's or lzma's decompress with a large max_length collects its output in
blocks and copies them into the result at the end, so 512 MiB of output peaks at 1 GiB. Asking
for a block at a time and appending to a bytearray (which grows in place) holds the output once.
Both helpers return at most `limit + 1` bytes: the caller tells a bomb (more than `limit`) from a
truncated stream (`eof` false) and from trailing data (`unused_data`).
"""

from __future__ import annotations

from typing import Any

BLOCK = 16 << 20


def inflate_zlib(
    inflater: Any, data: bytes | memoryview, limit: int, out: bytearray | None = None
) -> bytearray:
    """The output of a zlib.decompressobj for `data`, appended to `out` (gzip members follow each
    other) until it holds more than `limit` bytes; unconsumed_tail stays set past that."""
    out = bytearray() if out is None else out
    rest: bytes | memoryview = data
    while len(out) <= limit:
        piece = inflater.decompress(rest, min(BLOCK, limit + 1 - len(out)))
        rest = inflater.unconsumed_tail
        out += piece
        if inflater.eof or not piece:  # no output with room left: all input was taken
            break
    return out


def inflate_stream(inflater: Any, data: bytes | memoryview, limit: int) -> bytearray:
    """The output of a bz2.BZ2Decompressor or lzma.LZMADecompressor for `data`."""
    out = bytearray(inflater.decompress(data, min(BLOCK, limit + 1)))
    while len(out) <= limit and not inflater.eof and not inflater.needs_input:
        out += inflater.decompress(b"", min(BLOCK, limit + 1 - len(out)))
    return out
