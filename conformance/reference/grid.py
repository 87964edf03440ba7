"""Regular chunk grid maths and selections (V3-GRID-002/003, V2-CHUNK-005).

A selection is a tuple with one entry per dimension: a slice with step 1 (or None) or an int.
Ints select one index and drop the dimension from the result, as in NumPy.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable, Iterator
from itertools import product
from typing import Any

Selection = tuple[slice, ...]


class RectilinearGrid(tuple[Any, ...]):
    """A rectilinear chunk grid (zarr-extensions chunk-grids/rectilinear): explicit chunk edge
    lengths per axis. As a tuple it is the largest chunk shape (what size limits need); the
    functions below use the edges. Chunks past the end of the array are allowed and stored at
    their full size, like the edge chunks of a regular grid."""

    edges: tuple[tuple[int, ...], ...]
    starts: tuple[tuple[int, ...], ...]

    def __new__(cls, edges: Iterable[Iterable[int]]) -> RectilinearGrid:
        axes = tuple(tuple(int(n) for n in axis) for axis in edges)
        self = super().__new__(cls, tuple(max(axis) if axis else 1 for axis in axes))
        self.edges = axes
        self.starts = tuple(tuple(itertools.accumulate(axis, initial=0)) for axis in axes)
        return self

    def chunk_shape_at(self, index: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(axis[i] for axis, i in zip(self.edges, index))

    def counts(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        """Chunks per axis that hold part of the array (no chunk for a zero-length axis)."""
        return tuple(
            bisect.bisect_left(starts, s) if s else 0 for starts, s in zip(self.starts, shape)
        )

    def __reduce__(self) -> tuple[type[RectilinearGrid], tuple[Any, ...]]:
        return (RectilinearGrid, (self.edges,))


def chunk_shape_at(chunk_shape: tuple[int, ...], index: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of the chunk at `index` (the same for every chunk of a regular grid)."""
    return (
        chunk_shape.chunk_shape_at(index)
        if isinstance(chunk_shape, RectilinearGrid)
        else tuple(chunk_shape)
    )


def grid_shape(shape: tuple[int, ...], chunk_shape: tuple[int, ...]) -> tuple[int, ...]:
    if isinstance(chunk_shape, RectilinearGrid):
        return chunk_shape.counts(shape)
    return tuple(math.ceil(s / c) if s else 0 for s, c in zip(shape, chunk_shape))


def normalize_selection(
    selection: Any, shape: tuple[int, ...]
) -> tuple[Selection, tuple[int, ...]]:
    """Return (slices, dropped dims). Raises IndexError for steps, out-of-range ints or too many entries."""
    if selection is None or selection is Ellipsis:
        selection = ()
    if not isinstance(selection, tuple):
        selection = (selection,)
    if any(s is Ellipsis for s in selection):
        i = selection.index(Ellipsis)
        fill = (slice(None),) * (len(shape) - len(selection) + 1)
        selection = selection[:i] + fill + selection[i + 1 :]
    if len(selection) > len(shape):
        raise IndexError(f"too many indices: {len(selection)} for rank {len(shape)}")
    selection = selection + (slice(None),) * (len(shape) - len(selection))
    slices, dropped = [], []
    for dim, (sel, size) in enumerate(zip(selection, shape)):
        if isinstance(sel, slice):
            start, stop, step = sel.indices(size)
            if step != 1:
                raise IndexError("only step-1 slices are supported")
            slices.append(slice(start, max(start, stop)))
        else:
            index = int(sel)
            if index < 0:
                index += size
            if not 0 <= index < size:
                raise IndexError(f"index {sel} out of range for dimension {dim} of size {size}")
            slices.append(slice(index, index + 1))
            dropped.append(dim)
    return tuple(slices), tuple(dropped)


def chunk_overlaps(
    region: Selection, chunk_shape: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], Selection, Selection]]:
    """For each chunk touching `region`: (chunk index, selection inside the chunk, selection inside
    the region-shaped output)."""
    if any(r.stop <= r.start for r in region):
        return
    if isinstance(chunk_shape, RectilinearGrid):
        yield from _rectilinear_overlaps(region, chunk_shape)
        return
    ranges = [range(r.start // c, (r.stop - 1) // c + 1) for r, c in zip(region, chunk_shape)]
    for index in product(*ranges):
        inner, outer = [], []
        for i, r, c in zip(index, region, chunk_shape):
            lo = max(r.start, i * c)
            hi = min(r.stop, (i + 1) * c)
            inner.append(slice(lo - i * c, hi - i * c))
            outer.append(slice(lo - r.start, hi - r.start))
        yield index, tuple(inner), tuple(outer)


def all_chunk_indices(
    shape: tuple[int, ...], chunk_shape: tuple[int, ...]
) -> Iterator[tuple[int, ...]]:
    return product(*(range(n) for n in grid_shape(shape, chunk_shape)))


def _rectilinear_overlaps(
    region: Selection, grid: RectilinearGrid
) -> Iterator[tuple[tuple[int, ...], Selection, Selection]]:
    ranges = [
        range(bisect.bisect_right(starts, r.start) - 1, bisect.bisect_left(starts, r.stop))
        for r, starts in zip(region, grid.starts)
    ]
    for index in product(*ranges):
        inner, outer = [], []
        for i, r, starts in zip(index, region, grid.starts):
            lo = max(r.start, starts[i])
            hi = min(r.stop, starts[i + 1])
            inner.append(slice(lo - starts[i], hi - starts[i]))
            outer.append(slice(lo - r.start, hi - r.start))
        yield index, tuple(inner), tuple(outer)
