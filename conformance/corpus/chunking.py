"""Chunk-grid helpers shared by the case builders, which hand-build stores chunk by chunk."""

from __future__ import annotations

import math

import numpy as np

JUNK = 0x7F  # the default overhang sentinel: edge chunks carry it outside the array
JUNK_CODE_POINT = (
    0x2603  # for '<U' overhang: a valid code point (a snowman) that is no sample value
)


def grid(shape, chunks) -> tuple[int, ...]:
    return tuple(-(-s // c) for s, c in zip(shape, chunks))


def region(index, chunks, shape) -> tuple[slice, ...]:
    """The part of the array that chunk `index` covers (clipped at the array's edge)."""
    return tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(index, chunks, shape))


def fill_array(fill: np.ndarray, shape) -> np.ndarray:
    """An array of `shape` holding exactly the bits of the 0-d `fill`."""
    out = np.empty(shape, dtype=fill.dtype)
    raw = f"V{fill.dtype.itemsize}"
    out.view(raw)[...] = np.asarray(fill).reshape(()).view(raw)
    return out


def junk_block(chunks, dtype: np.dtype, fill: np.ndarray | None, junk: int = JUNK) -> np.ndarray:
    """A chunk-shaped block of junk for the overhang: `junk` bytes; for bool the opposite of the
    fill (bytes other than 00/01 are no bool), for '<U' a valid code point."""
    if dtype.kind == "b":
        return np.full(chunks, not bool(fill) if fill is not None else True, dtype=dtype)
    if dtype.kind == "U":
        return np.full(chunks, chr(JUNK_CODE_POINT) * (dtype.itemsize // 4), dtype=dtype)
    raw = np.full(math.prod(chunks) * dtype.itemsize, junk, dtype=np.uint8)
    return raw.view(dtype).reshape(chunks).copy()
