"""Hostile inputs that are cheap to make and expensive to read, for testing that stores bound
their reads: compressed streams of gigabytes of zeros, zip bombs, sparse files, special files.

    write_zip_bomb(path, {"c/0": 3 << 30})   # a 3 GiB member in a ~3 MB archive, valid CRC
    sparse_file(path, 4 << 30)               # a 4 GiB file that takes no disk space
    gzip_zeros(8 << 30)                      # chunks of a valid gzip stream of 8 GiB of zeros

Everything is made in time proportional to its compressed size: one compressed MiB of zeros is
repeated (a full flush makes each copy independent of those before), and the checksums of long
runs of zeros are computed by squaring the CRC's linear map, not by running over the zeros.
"""

from __future__ import annotations

import os
import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

UNIT = 1 << 20  # decoded bytes per repeated compressed unit


def _unit() -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(bytes(UNIT)) + compressor.flush(zlib.Z_FULL_FLUSH)


# ---- checksums of zeros --------------------------------------------------------------------------
def _affine(length: int) -> tuple[list[int], int]:
    """crc32(zeros(length), c) = M c ^ k over GF(2): (columns of M, k), by evaluation."""
    zeros = bytes(length)
    k = zlib.crc32(zeros, 0)
    return [zlib.crc32(zeros, 1 << i) ^ k for i in range(32)], k


def _apply(columns: list[int], k: int, c: int) -> int:
    out = k
    for i in range(32):
        if c >> i & 1:
            out ^= columns[i]
    return out


def _compose(outer: tuple[list[int], int], inner: tuple[list[int], int]) -> tuple[list[int], int]:
    """outer ∘ inner, both affine maps."""
    o_cols, o_k = outer
    i_cols, i_k = inner
    return [_apply(o_cols, 0, col) for col in i_cols], _apply(o_cols, o_k, i_k)


def zeros_crc32(n: int, crc: int = 0) -> int:
    """zlib.crc32(bytes(n), crc), without touching n bytes."""
    whole, rest = divmod(n, UNIT)
    step = _affine(UNIT)
    while whole:
        if whole & 1:
            crc = _apply(*step, crc)
        whole >>= 1
        if whole:
            step = _compose(step, step)
    return zlib.crc32(bytes(rest), crc)


def zeros_adler32(n: int) -> int:
    """zlib.adler32(bytes(n)): a stays 1, b grows by 1 per byte."""
    return ((n % 65521) << 16) | 1


# ---- compressed streams --------------------------------------------------------------------------
def deflate_zeros(n: int | None) -> Iterator[bytes]:
    """A raw deflate stream of n zero bytes (None: endless, never final)."""
    batch = _unit() * 64
    done = 0
    while n is None or done + 64 * UNIT <= n:
        done += 64 * UNIT
        yield batch
    tail = zlib.compressobj(9, zlib.DEFLATED, -15)
    yield tail.compress(bytes(n - done)) + tail.flush()


def gzip_zeros(n: int | None) -> Iterator[bytes]:
    """A valid gzip member of n zero bytes (None: endless)."""
    yield b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    yield from deflate_zeros(n)
    yield struct.pack("<II", zeros_crc32(n), n & 0xFFFFFFFF)


def zlib_zeros(n: int | None) -> Iterator[bytes]:
    """A valid zlib stream (HTTP's 'deflate') of n zero bytes (None: endless)."""
    yield b"\x78\xda"
    yield from deflate_zeros(n)
    yield struct.pack(">I", zeros_adler32(n))


def compressed_zeros(n: int | None, encoding: str = "gzip") -> Iterator[bytes]:
    return gzip_zeros(n) if encoding in ("gzip", "x-gzip") else zlib_zeros(n)


# ---- files ---------------------------------------------------------------------------------------
def sparse_file(path: str | os.PathLike, size: int) -> Path:
    """A file of `size` bytes (zeros) that takes no disk space: truncated, never written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def write_zip_bomb(
    path: str | os.PathLike,
    bombs: dict[str, int],
    files: dict[str, bytes] | None = None,
    declared: dict[str, int] | None = None,
) -> Path:
    """A zip archive with ordinary `files` and, for each name in `bombs`, a deflated member of that
    many zero bytes (below 4 GiB: no zip64) with a valid CRC. `declared` overrides the size
    the archive states for a member (a bomb that lies about its size)."""
    path = Path(path)
    declared = declared or {}
    for size in bombs.values():
        if not 0 <= size < 0xFFFFFFFF:
            raise ValueError("bombs are below 4 GiB (no zip64)")
    out = bytearray()
    central = bytearray()
    entries = [(name, None, value) for name, value in (files or {}).items()]
    entries += [(name, size, None) for name, size in bombs.items()]
    for name, size, value in entries:
        encoded = name.encode("utf-8")
        if size is None:
            data = zlib.compressobj(6, zlib.DEFLATED, -15)
            compressed = data.compress(value) + data.flush()
            crc, usize = zlib.crc32(value), len(value)
        else:
            compressed = b"".join(deflate_zeros(size))
            crc, usize = zeros_crc32(size), size
        usize = declared.get(name, usize)
        offset = len(out)
        flags = 0x800  # names are UTF-8
        out += struct.pack(
            "<IHHHHHIIIHH",
            0x04034B50,
            20,
            flags,
            8,
            0,
            0x21,
            crc,
            len(compressed),
            usize,
            len(encoded),
            0,
        )
        out += encoded + compressed
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            0x031E,
            20,
            flags,
            8,
            0,
            0x21,
            crc,
            len(compressed),
            usize,
            len(encoded),
            0,
            0,
            0,
            0,
            0o100644 << 16,
            offset,
        )
        central += encoded
    start = len(out)
    out += central
    out += struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), start, 0
    )
    path.write_bytes(bytes(out))
    with zipfile.ZipFile(path) as check:  # it must at least open
        check.infolist()
    return path


def fifo(path: str | os.PathLike) -> Path:
    """A FIFO (named pipe) at `path`: opening it for reading blocks until a writer comes."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def unix_socket(path: str | os.PathLike):
    """A bound Unix socket at `path` (a socket file); the caller closes the returned socket."""
    import socket

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(os.fspath(path))
    return sock
