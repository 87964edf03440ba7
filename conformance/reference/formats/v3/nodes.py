"""The v3 node objects: arrays bound to their parsed metadata and codec pipeline (with partial
reads through sharding), and groups with their parsed metadata."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...array import MAX_READ_BYTES, Array, ArrayLayout, Group
from ...errors import ChunkError, LimitError, MetadataError, ZarrError
from ...grid import chunk_overlaps, normalize_selection
from .metadata import ArrayMetadata, GroupMetadata
from .names import node_prefix


def build_codec(meta: ArrayMetadata):
    """The chunk codec of an array: the codec package validates `codecs` in full (V3-PIPE-*)."""
    from .codecs import build_pipeline

    try:
        return build_pipeline(meta.codecs, meta.chunk_shape, meta.data_type.dtype, meta.fill_value, meta.data_type.name)
    except ZarrError:
        raise
    except Exception as exc:  # a codec that fails to validate must not escape as a bare error
        raise MetadataError("invalid-codec", f"codecs {meta.codecs!r} are not valid: {exc!r}", "V3-PIPE-001") from None


def array_layout(meta: ArrayMetadata, path: str) -> ArrayLayout:
    prefix = node_prefix(path)
    encoding = meta.chunk_key_encoding

    def chunk_key(index: tuple[int, ...]) -> str:  # V3-KEY-003
        return prefix + encoding.encode(index)

    return ArrayLayout(
        shape=meta.shape,
        chunk_shape=meta.chunk_shape,
        dtype=meta.data_type.dtype,
        fill_value=meta.fill_value,
        chunk_key=chunk_key,
        codec=build_codec(meta),
    )


class V3Array(Array):
    """An Array that also carries its parsed metadata (`meta`); `notes` (the engine's list of
    tolerated oddities) holds the metadata's notes."""

    meta: ArrayMetadata

    @property
    def dimension_names(self):
        return self.meta.dimension_names

    @property
    def data_type(self) -> str | dict:
        return self.meta.data_type.to_json()

    def read(self, selection: Any = None) -> np.ndarray:
        """Region read; with a sharding pipeline, chunks read in part fetch only the shard index
        and the inner chunks they need (V3-PIPE-005: the result is the same as a full decode)."""
        codec = self.layout.codec
        if not getattr(codec, "supports_partial", False):
            return super().read(selection)
        layout = self.layout
        region, dropped = normalize_selection(selection, layout.shape)
        out_shape = tuple(r.stop - r.start for r in region)
        if math.prod(out_shape) * max(layout.dtype.itemsize, 1) > MAX_READ_BYTES:
            raise LimitError(f"reading {out_shape} of {layout.dtype} exceeds the read limit")
        out = layout.fill_chunk(out_shape)
        for index, inner, outer in chunk_overlaps(region, layout.chunk_shape):
            key = self.chunk_key(index)
            try:
                part = codec.decode_partial(self.store, key, inner)
            except ZarrError:
                raise
            except Exception as exc:  # a codec library's own error: the chunk is corrupt
                raise ChunkError("corrupt-chunk", f"chunk {key!r} cannot be decoded: {exc}") from None
            if part is not None:
                out[outer] = part
        if dropped:
            out = out.reshape([n for d, n in enumerate(out_shape) if d not in dropped])
        return out

    __getitem__ = read

    def write(self, selection: Any, values: Any) -> None:
        if self.layout.shape == ():  # the engine's whole-chunk path flattens a 0-d chunk to 1-d
            normalize_selection(selection, ())
            layout = self.layout
            chunk = np.array(np.broadcast_to(np.asarray(values, dtype=layout.dtype), ()), dtype=layout.dtype)
            key = self.chunk_key(())
            if not layout.write_empty_chunks and self._is_fill(chunk):
                self.store.erase(key)
            else:
                self.store.set(key, layout.codec.encode(chunk))
            return
        super().write(selection, values)

    __setitem__ = write


class V3Group(Group):
    """A Group that also carries its parsed metadata (`meta`) and `consolidated` (zarr-python's
    consolidated_metadata member, if an object); `notes` holds tolerated oddities such as
    zarr-python 3.0's `"consolidated_metadata": null`."""

    meta: GroupMetadata

    @property
    def consolidated(self) -> dict | None:
        return self.meta.consolidated
