"""What decoding one variable-length value may cost in memory.

A chunk of a fixed-size data type decodes to exactly its size, which the array engine checks
before decoding anything. A variable-length chunk (vlen-utf8, vlen-bytes) does not: its frame
(u32 item count, then per item a u32 length and the bytes) becomes one Python object per item,
each with its own header, while the frame is still held. A 1 GiB frame of one bytes item cost
2 GiB, of one str 3 GiB. So:

- a frame may be at most a quarter of the value limit (MAX_FRAME_BYTES): the decompressors that
  produce one stop there (some of them, numcodecs' zstd for one, hold their output twice on the
  way, and the frame's objects come on top of it);
- before a frame is decoded, the most its objects can cost is charged to the value being
  decoded (`charge_frame`), and the frame plus everything decoded for that value (every inner
  chunk of a shard) must stay within the value limit, else LimitError ('too-large').

The bound is cheap where it can be (a count and a length); only a large frame of few items is
walked item by item to find which of them are plain ASCII (a str costs one byte per character
then, up to four otherwise).
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from .errors import LimitError

MAX_VALUE_COST = 1 << 30  # the value limit (stores, MAX_CHUNK_BYTES, MAX_DECODED_BYTES)
MAX_FRAME_BYTES = MAX_VALUE_COST // 4
POINTER = 8  # an object array's slot
BYTES_HEADER = sys.getsizeof(b"")
ASCII_HEADER = sys.getsizeof("")
WIDE_HEADER = sys.getsizeof("\U0001f600") - 4  # the header of a str of 4-byte characters
WALK_ITEMS = 100_000  # frames of at most this many items may be walked for an exact bound

_spent: ContextVar[list[int] | None] = ContextVar("value_cost", default=None)


@contextmanager
def value_account() -> Iterator[None]:
    """Account the decoding of one stored value; nested accounts add to the outermost one."""
    if _spent.get() is not None:
        yield
        return
    token = _spent.set([0])
    try:
        yield
    finally:
        _spent.reset(token)


def charge_frame(frame: bytes | memoryview, count: int, text: bool) -> None:
    """Charge what decoding `frame` (whose item count has been checked) can cost at most; a
    LimitError when the frame and the value's decoded objects would pass MAX_VALUE_COST."""
    account = _spent.get()
    spent = account[0] if account is not None else 0
    room = MAX_VALUE_COST - spent - len(frame)
    payload = len(frame) - 4 - 4 * count
    if not text:
        cost = count * (POINTER + BYTES_HEADER) + payload
    else:
        cost = count * (POINTER + WIDE_HEADER) + 4 * payload  # any str, at most
        if cost > room and _ascii(frame):
            cost = count * (POINTER + ASCII_HEADER) + payload
        elif cost > room and count <= WALK_ITEMS:
            cost = _walked_text_cost(frame, count)
    if cost > room:
        raise LimitError(
            f"a variable-length chunk of {len(frame)} bytes ({count} items) would cost up to "
            f"{cost + len(frame) + spent} bytes decoded, over the limit of {MAX_VALUE_COST} per value"
        )
    if account is not None:
        account[0] += cost


def _ascii(data: bytes | memoryview) -> bool:
    return bool(np.frombuffer(data, dtype=np.uint8).max(initial=0) < 0x80)


def _walked_text_cost(frame: bytes | memoryview, count: int) -> int:
    """The exact upper bound of a str frame, item by item: an item of plain ASCII costs its
    length, any other at most four bytes per UTF-8 byte (CPython's widest str)."""
    raw = np.frombuffer(frame, dtype=np.uint8)
    cost, pos = 0, 4
    for _ in range(count):
        if pos + 4 > len(raw):
            break  # a short frame: the decoder refuses it
        (n,) = struct.unpack_from("<I", frame, pos)
        pos += 4
        item = raw[pos : pos + n]
        wide = bool(item.max(initial=0) >= 0x80)
        cost += POINTER + (WIDE_HEADER + 4 * len(item) if wide else ASCII_HEADER + len(item))
        pos += n
    return cost
