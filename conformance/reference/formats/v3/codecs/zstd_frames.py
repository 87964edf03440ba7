"""Walk the headers of a Zstandard stream (RFC 8878 §3.1) without decompressing it.

The walk yields the decoded size when every frame declares it, and otherwise an upper bound
(raw and RLE blocks state their size, a compressed block regenerates at most 128 KiB). Checking
these numbers before calling the decompressor keeps a hostile frame from allocating or producing
unbounded memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....errors import ChunkError

FRAME_MAGIC = 0xFD2FB528
SKIPPABLE_MAGIC_MASK = 0xFFFFFFF0
SKIPPABLE_MAGIC = 0x184D2A50
BLOCK_MAXIMUM = 128 * 1024
_DICT_ID_SIZES = (0, 1, 2, 4)
_FCS_SIZES = (0, 2, 4, 8)


@dataclass
class StreamSize:
    exact: int | None  # the declared decoded size, when every frame declares one
    bound: int  # an upper bound on the decoded size
    block_bound: int  # the upper bound from the blocks alone, ignoring declared sizes


def _corrupt(message: str) -> ChunkError:
    return ChunkError("corrupt-chunk", f"zstd stream: {message}", "V3-ZSTD-002")


def _uint(data: bytes | memoryview, pos: int, size: int) -> int:
    if pos + size > len(data):
        raise _corrupt("truncated header")
    return int.from_bytes(data[pos : pos + size], "little")


def walk(data: bytes | memoryview) -> StreamSize:
    if len(data) < 4 or _uint(data, 0, 4) != FRAME_MAGIC:
        raise _corrupt("does not start with the frame magic 28 b5 2f fd")
    pos, bound, block_bound = 0, 0, 0
    exact: int | None = 0
    while pos < len(data):
        magic = _uint(data, pos, 4)
        if magic & SKIPPABLE_MAGIC_MASK == SKIPPABLE_MAGIC:
            pos += 8 + _uint(data, pos + 4, 4)
            if pos > len(data):
                raise _corrupt("truncated skippable frame")
            continue
        if magic != FRAME_MAGIC:
            raise _corrupt(f"junk after frame at byte {pos}")
        pos, declared, frame_bound = _frame(data, pos + 4)
        bound += frame_bound if declared is None else min(declared, frame_bound)
        block_bound += frame_bound
        exact = None if exact is None or declared is None else exact + declared
    return StreamSize(exact, bound, block_bound)


def _frame(data: bytes | memoryview, pos: int) -> tuple[int, int | None, int]:
    descriptor = _uint(data, pos, 1)
    if descriptor & 0x08:
        raise _corrupt("reserved frame header bit is set")
    fcs_flag, single_segment = descriptor >> 6, descriptor >> 5 & 1
    has_checksum, dict_flag = descriptor >> 2 & 1, descriptor & 3
    pos += 1 + (0 if single_segment else 1) + _DICT_ID_SIZES[dict_flag]
    fcs_size = 1 if fcs_flag == 0 and single_segment else _FCS_SIZES[fcs_flag]
    declared = None
    if fcs_size:
        declared = _uint(data, pos, fcs_size) + (256 if fcs_size == 2 else 0)
        pos += fcs_size
    bound = 0
    while True:
        header = _uint(data, pos, 3)
        last, block_type, size = header & 1, header >> 1 & 3, header >> 3
        pos += 3
        if block_type == 0:  # raw
            pos += size
            bound += size
        elif block_type == 1:  # RLE: one byte repeated `size` times
            pos += 1
            bound += size
        elif block_type == 2:  # compressed
            pos += size
            bound += BLOCK_MAXIMUM
        else:
            raise _corrupt("reserved block type")
        if pos > len(data):
            raise _corrupt("truncated block")
        if last:
            break
    pos += 4 * has_checksum
    if pos > len(data):
        raise _corrupt("truncated content checksum")
    return pos, declared, bound
