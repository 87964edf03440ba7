"""The reference's side of a check: which part of each array is read, and what the reference
decodes there.

An array within the byte budget is read whole; a larger one (or every one, with `--sample N`)
through a sample of its chunks: the first, the last and others evenly between, each cut down to
the budget if it is larger, all of them together within it. The reference decodes each region
once and keeps only a digest of its exact bytes (little-endian, as judge.compare_arrays compares
them): an implementation whose answer has the same digest read it exactly, and only an answer
that differs has the region decoded again, for the full comparison (compare.py). So the memory a
check holds does not grow with the number of implementations or of arrays.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.corpus.judge import little_endian
from conformance.reference.array import Array
from conformance.reference.grid import RectilinearGrid, chunk_overlaps, grid_shape

from .compare import opaque_pair

Region = tuple[tuple[int, int], ...]  # (start, stop) per dimension
DEFAULT_SAMPLE = 8  # chunks read of an array over the budget, when --sample does not say
OBJECT_ITEM_BYTES = 64  # what one element of a variable-length array is taken to cost


def item_bytes(array: Array) -> int:
    return OBJECT_ITEM_BYTES if array.dtype.hasobject else max(array.dtype.itemsize, 1)


def region_bytes(array: Array, region: Region) -> int:
    return math.prod(b - a for a, b in region) * item_bytes(array)


def whole(array: Array) -> Region:
    return tuple((0, n) for n in array.shape)


def plan_regions(array: Array, budget: int, sample: int | None) -> tuple[list[Region], bool]:
    """(regions to read, whether that is the whole array)."""
    full = whole(array)
    if sample is None and region_bytes(array, full) <= budget:
        return [full], True
    count = sample or DEFAULT_SAMPLE
    grid = grid_shape(array.shape, array.chunks)
    positions = math.prod(grid)
    if not positions:
        return [full], True  # nothing stored: a zero-length array
    picks = sorted({round(i * (positions - 1) / max(count - 1, 1)) for i in range(count)})
    regions, spent = [], 0
    for flat in picks[: min(count, positions)]:
        region = _fit(array, _chunk_region(array, np.unravel_index(flat, grid)), budget - spent)
        if region is None:
            break
        regions.append(region)
        spent += region_bytes(array, region)
    if regions == [full]:
        return regions, True
    return regions, False


def _chunk_region(array: Array, index: tuple[Any, ...]) -> Region:
    chunks = array.chunks
    out = []
    for d, i in enumerate(int(i) for i in index):
        if isinstance(chunks, RectilinearGrid):
            start, stop = chunks.starts[d][i], chunks.starts[d][i + 1]
        else:
            start, stop = i * chunks[d], (i + 1) * chunks[d]
        out.append((start, min(stop, array.shape[d])))
    return tuple(out)


def _fit(array: Array, region: Region, room: int) -> Region | None:
    """The region, its largest dimensions halved until it fits `room` bytes (None: not even one
    element fits)."""
    cut = list(region)
    while region_bytes(array, tuple(cut)) > room:
        d = max(range(len(cut)), key=lambda k: cut[k][1] - cut[k][0])
        a, b = cut[d]
        if b - a <= 1:
            return None
        cut[d] = (a, a + (b - a) // 2)
    return tuple(cut)


def slices(region: Region) -> tuple[slice, ...]:
    return tuple(slice(a, b) for a, b in region)


def defined_mask(array: Array, region: Region) -> np.ndarray | None:
    """Where the format defines the values of the region: None (everywhere), or False inside
    chunks that are missing while the fill value is null (v2: their contents are undefined)."""
    if array.fill_value is not None or not region:
        return None
    mask = None
    for index, _inner, outer in chunk_overlaps(slices(region), array.chunks):
        if not array.store.contains(array.chunk_key(index)):
            if mask is None:
                mask = np.ones(tuple(b - a for a, b in region), dtype=bool)
            mask[outer] = False
    return mask


def digest(data: np.ndarray, dtype: np.dtype, defined: np.ndarray | None) -> str:
    """The exact bytes of `data` as `dtype` (little-endian), over the defined elements; None-free
    object arrays by each element's type and bytes."""
    values = np.asarray(data)
    if defined is not None:
        values = values[defined]
    h = hashlib.blake2b(digest_size=16)
    h.update(repr(values.shape).encode())
    if dtype.hasobject or values.dtype.hasobject:
        for item in values.reshape(-1):
            raw = item.encode("utf-8", "surrogatepass") if isinstance(item, str) else item
            if not isinstance(raw, bytes):
                raw = repr(item).encode()
            h.update(type(item).__name__.encode() + len(raw).to_bytes(8, "little") + raw)
        return h.hexdigest()
    if opaque_pair(values.dtype, dtype):  # raw bits either way (compare.py)
        exact = np.ascontiguousarray(values.astype(little_endian(values.dtype), copy=False))
        h.update(exact.view(np.uint8).reshape(-1).data)
        return h.hexdigest()
    if little_endian(values.dtype) != little_endian(dtype):
        return ""  # another type: no digest can agree
    exact = np.ascontiguousarray(values.astype(little_endian(dtype), copy=False))
    h.update(exact.view(np.uint8).reshape(-1).data)
    return h.hexdigest()


@dataclass
class RegionRead:
    region: Region
    defined: np.ndarray | None = None
    digest: str = ""
    error: str = ""  # the reference cannot decode it: "[reason] message"
    reason: str = ""


@dataclass
class ArraySide:
    """What the reference says about one array: the regions and their digests."""

    array: Array
    regions: list[RegionRead] = field(default_factory=list)
    whole: bool = True

    def decode(self, read: RegionRead) -> np.ndarray:
        return self.array.read(slices(read.region))
