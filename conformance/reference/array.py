"""The format-neutral array engine: region reads and writes over a chunk grid.

A format module turns its metadata into an `ArrayLayout` (shape, chunk shape, NumPy dtype, exact
fill value, chunk key function and a chunk codec); everything else here is shared by v1, v2, v3 and
the v3 draft.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .errors import ChunkError, LimitError, ZarrError
from .grid import (
    Selection,
    all_chunk_indices,
    chunk_overlaps,
    chunk_shape_at,
    grid_shape,
    normalize_selection,
)
from .stores import Store

if TYPE_CHECKING:
    from .formats.base import Format

# Safety limits so that hostile metadata cannot exhaust memory: reads larger than this, or
# chunks whose decoded size is larger, raise LimitError ('too-large') instead.
MAX_READ_BYTES = 4 << 30
MAX_CHUNK_BYTES = 1 << 30

# Chunks are independent, and file I/O and the compressors release the GIL, so large reads and
# writes spread chunks over a few threads. The API stays synchronous and results are identical;
# ZARR_CONFORMANCE_THREADS=1 makes it serial.
PARALLEL_MIN_CHUNKS = 4
PARALLEL_MIN_CHUNK_BYTES = 64 * 1024
_pool: ThreadPoolExecutor | None = None


def _threads() -> int:
    return int(os.environ.get("ZARR_CONFORMANCE_THREADS", min(8, os.cpu_count() or 1)))


def for_each(func: Callable[[Any], None], items: list[Any], chunk_bytes: int) -> None:
    """Call func on every item, in a thread pool when that pays off; re-raises the first error."""
    global _pool
    if (
        _threads() <= 1
        or len(items) < PARALLEL_MIN_CHUNKS
        or chunk_bytes < PARALLEL_MIN_CHUNK_BYTES
    ):
        for item in items:
            func(item)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_threads(), thread_name_prefix="zarr-reference")
    for future in [_pool.submit(func, item) for item in items]:
        future.result()


class ChunkCodec(Protocol):
    """Turns one whole chunk (an array of exactly the chunk shape) into stored bytes and back."""

    def encode(self, chunk: np.ndarray) -> bytes: ...

    def decode(self, data: bytes) -> np.ndarray: ...


@dataclass
class ArrayLayout:
    shape: tuple[int, ...]
    chunk_shape: tuple[int, ...]
    dtype: np.dtype
    fill_value: Any  # a 0-d ndarray of `dtype` with the exact fill bits, or None (undefined)
    chunk_key: Callable[[tuple[int, ...]], str]  # full store key of a chunk
    codec: ChunkCodec
    write_empty_chunks: bool = True
    # A grid whose chunks differ in shape (grid.RectilinearGrid as `chunk_shape`) needs one codec
    # per chunk shape: codec_factory(shape) gives it (None: `codec` serves every chunk).
    codec_factory: Callable[[tuple[int, ...]], ChunkCodec] | None = None

    def shape_at(self, index: tuple[int, ...]) -> tuple[int, ...]:
        return chunk_shape_at(self.chunk_shape, index)

    def codec_at(self, index: tuple[int, ...]) -> ChunkCodec:
        if self.codec_factory is None:
            return self.codec
        return self.codec_factory(self.shape_at(index))

    def fill_chunk(self, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """A chunk-shaped array holding the fill value (zeros where the fill is undefined)."""
        shape = self.chunk_shape if shape is None else shape
        out = (
            np.empty(shape, dtype=self.dtype)
            if self.dtype.hasobject
            else np.zeros(shape, dtype=self.dtype)
        )
        if self.fill_value is not None:
            out[...] = self.fill_value
        elif self.dtype.hasobject:
            out[...] = 0
        return out


def _nbytes(shape: tuple[int, ...], dtype: np.dtype) -> int:
    return math.prod(shape) * max(dtype.itemsize, 1)


class Node:
    kind: str = "node"

    def __init__(
        self,
        store: Store,
        path: str,
        format: Format,
        metadata: dict[str, Any],
        attributes: dict[str, Any],
    ):
        self.store = store
        self.path = path
        self.format = format
        self.metadata = metadata  # the metadata document as stored (JSON value)
        self.attrs = attributes
        # Tolerated deviations found while opening (SHOULD-level: extra keys, `filters: []`, ...);
        # the validator reports them as warnings.
        self.notes: list[str] = []

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def set_attributes(self, attributes: dict[str, Any]) -> None:
        assert isinstance(self, (Array, Group))  # the only kinds of node
        self.format.write_attributes(self, attributes)
        self.attrs = dict(attributes)

    def __repr__(self) -> str:
        return f"<{self.format.name} {self.kind} {self.path or '/'!r}>"


class Array(Node):
    kind = "array"

    def __init__(
        self,
        store: Store,
        path: str,
        format: Format,
        metadata: dict[str, Any],
        attributes: dict[str, Any],
        layout: ArrayLayout,
    ) -> None:
        super().__init__(store, path, format, metadata, attributes)
        self.layout = layout

    shape = property(lambda self: self.layout.shape)
    chunks = property(lambda self: self.layout.chunk_shape)
    dtype = property(lambda self: self.layout.dtype)
    fill_value = property(lambda self: self.layout.fill_value)
    ndim = property(lambda self: len(self.layout.shape))

    def chunk_key(self, index: tuple[int, ...]) -> str:
        return self.layout.chunk_key(tuple(index))

    def _decode(self, key: str, data: bytes, index: tuple[int, ...] | None = None) -> np.ndarray:
        layout = self.layout
        expected = layout.shape_at(index) if index is not None else tuple(layout.chunk_shape)
        try:
            chunk = (layout.codec if index is None else layout.codec_at(index)).decode(data)
        except ZarrError:
            raise
        except Exception as exc:  # a codec library's own error: the chunk is corrupt
            raise ChunkError("corrupt-chunk", f"chunk {key!r} cannot be decoded: {exc}") from None
        if chunk.shape != expected or chunk.dtype != layout.dtype:
            raise ChunkError(
                "corrupt-chunk",
                f"chunk {key!r} decodes to {chunk.shape} {chunk.dtype}, expected {expected} {layout.dtype}",
            )
        return chunk

    def _whole(self, inner: Selection, index: tuple[int, ...] | None = None) -> bool:
        shape = self.layout.chunk_shape if index is None else self.layout.shape_at(index)
        return all(s.start == 0 and s.stop == c for s, c in zip(inner, shape))

    def _decode_partial(self, index: tuple[int, ...], inner: Selection) -> np.ndarray | None:
        """Part of a chunk through the codec's partial decoder (V3-PIPE-005: same result as a
        full decode, fewer bytes fetched)."""
        key = self.chunk_key(index)
        try:
            codec: Any = self.layout.codec_at(index)  # one whose `supports_partial` is true
            return codec.decode_partial(self.store, key, inner)
        except ZarrError:
            raise
        except Exception as exc:  # a codec library's own error: the chunk is corrupt
            raise ChunkError("corrupt-chunk", f"chunk {key!r} cannot be decoded: {exc}") from None

    def read_chunk(self, index: tuple[int, ...]) -> np.ndarray | None:
        """The decoded chunk at a grid index, or None when its key is absent."""
        if _nbytes(self.layout.chunk_shape, self.layout.dtype) > MAX_CHUNK_BYTES:
            raise LimitError(f"chunk shape {self.layout.chunk_shape} exceeds the chunk size limit")
        key = self.chunk_key(index)
        data = self.store.get(key)
        return None if data is None else self._decode(key, data, tuple(index))

    def read(self, selection: Any = None) -> np.ndarray:
        layout = self.layout
        region, dropped = normalize_selection(selection, layout.shape)
        out_shape = tuple(r.stop - r.start for r in region)
        if _nbytes(out_shape, layout.dtype) > MAX_READ_BYTES:
            raise LimitError(f"reading {out_shape} of {layout.dtype} exceeds the read limit")
        # The chunks partition the region, so every element is written exactly once below: by a
        # chunk, or by the fill where a chunk is missing (no up-front fill of the whole output).
        out = np.empty(out_shape, dtype=layout.dtype)
        fill = (
            layout.fill_value if layout.fill_value is not None else np.zeros((), dtype=layout.dtype)
        )

        def read_one(overlap: tuple[tuple[int, ...], Selection, Selection]) -> None:
            index, inner, outer = overlap
            partial = getattr(layout.codec_at(index), "supports_partial", False)
            if partial and not self._whole(inner, index):
                part = self._decode_partial(
                    index, inner
                )  # sharding: index + needed inner chunks only
            else:
                chunk = self.read_chunk(index)
                part = None if chunk is None else chunk[inner]
            out[outer] = fill if part is None else part

        for_each(
            read_one,
            list(chunk_overlaps(region, layout.chunk_shape)),
            _nbytes(layout.chunk_shape, layout.dtype),
        )
        if dropped:
            out = out.reshape([n for d, n in enumerate(out_shape) if d not in dropped])
        return out

    __getitem__ = read

    def write(self, selection: Any, values: Any) -> None:
        """Write `values` (broadcast to the region) with read-modify-write of partial chunks.
        Edge chunks are stored full size, their overhang holding the fill value (V3-GRID-005)."""
        layout = self.layout
        region, dropped = normalize_selection(selection, layout.shape)
        out_shape = tuple(r.stop - r.start for r in region)
        values = (
            np.asarray(values, dtype=layout.dtype)
            if not layout.dtype.hasobject
            else np.asarray(values, dtype=object)
        )
        if dropped:
            values = np.broadcast_to(
                values, [n for d, n in enumerate(out_shape) if d not in dropped]
            ).reshape(out_shape)
        values = np.broadcast_to(values, out_shape)

        def write_one(overlap: tuple[tuple[int, ...], Selection, Selection]) -> None:
            index, inner, outer = overlap
            key = self.chunk_key(index)
            if self._whole(inner, index):
                # asarray(order='C') copies only when needed and keeps a 0-d chunk 0-d
                chunk = np.asarray(values[outer + (Ellipsis,)], dtype=layout.dtype, order="C")
            else:
                existing = self.store.get(key)
                if existing is None:
                    chunk = layout.fill_chunk(layout.shape_at(index))
                else:
                    chunk = self._decode(key, existing, index).copy()
                chunk[inner] = values[outer]
            if not layout.write_empty_chunks and self._is_fill(chunk):
                self.store.erase(key)
                return
            self.store.set(key, layout.codec_at(index).encode(chunk))

        for_each(
            write_one,
            list(chunk_overlaps(region, layout.chunk_shape)),
            _nbytes(layout.chunk_shape, layout.dtype),
        )

    __setitem__ = write

    def _is_fill(self, chunk: np.ndarray) -> bool:
        fill = self.layout.fill_value
        if fill is None:
            return False
        if chunk.dtype.hasobject:
            return all(v == fill[()] for v in chunk.flat)
        return chunk.tobytes() == np.full(chunk.shape, fill, dtype=chunk.dtype).tobytes()

    def chunk_indices(self) -> Iterator[tuple[int, ...]]:
        return all_chunk_indices(self.layout.shape, self.layout.chunk_shape)

    @property
    def grid_shape(self) -> tuple[int, ...]:
        return grid_shape(self.layout.shape, self.layout.chunk_shape)


class Group(Node):
    kind = "group"

    def members(self) -> dict[str, Array | Group]:
        """The direct children, opened, by name."""
        return {
            name: self.format.open_node(self.store, join_path(self.path, name))
            for name in self.format.children(self.store, self.path)
        }

    def children(self) -> dict[str, str]:
        """Direct children by name: 'array' or 'group'."""
        return self.format.children(self.store, self.path)

    def __getitem__(self, name: str) -> Array | Group:
        return self.format.open_node(self.store, join_path(self.path, name))


def join_path(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name
