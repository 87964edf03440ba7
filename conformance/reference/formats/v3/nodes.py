"""The v3 node objects: arrays bound to their parsed metadata and codec pipeline (with partial
reads through sharding), and groups with their parsed metadata."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...array import Array, ArrayLayout, ChunkCodec, Group
from ...errors import MetadataError, ZarrError
from ...grid import RectilinearGrid
from .metadata import ArrayMetadata, GroupMetadata
from .names import node_prefix


def build_codec(meta: ArrayMetadata, chunk_shape: tuple[int, ...] | None = None) -> ChunkCodec:
    """The chunk codec of an array: the codec package validates `codecs` in full (V3-PIPE-*)."""
    from .codecs import build_pipeline

    chunk_shape = tuple(meta.chunk_shape) if chunk_shape is None else chunk_shape
    try:
        return build_pipeline(
            meta.codecs, chunk_shape, meta.data_type.dtype, meta.fill_value, meta.data_type
        )
    except ZarrError:
        raise
    except Exception as exc:  # a codec that fails to validate must not escape as a bare error
        raise MetadataError(
            "invalid-codec", f"codecs {meta.codecs!r} are not valid: {exc!r}", "V3-PIPE-001"
        ) from None


def array_layout(meta: ArrayMetadata, path: str) -> ArrayLayout:
    prefix = node_prefix(path)
    encoding = meta.chunk_key_encoding

    def chunk_key(index: tuple[int, ...]) -> str:  # V3-KEY-003
        return prefix + encoding.encode(index)

    factory: Callable[[tuple[int, ...]], ChunkCodec] | None = None
    if isinstance(meta.chunk_shape, RectilinearGrid):
        # one pipeline per distinct chunk shape, each validated when first needed; the largest
        # chunk shape is validated now so that a bad codec list still fails at open
        cache: dict[tuple[int, ...], ChunkCodec] = {}

        def build(shape: tuple[int, ...]) -> ChunkCodec:
            if shape not in cache:
                cache[shape] = build_codec(meta, shape)
            return cache[shape]

        factory = build

    codec = build_codec(meta) if factory is None else factory(tuple(meta.chunk_shape))
    return ArrayLayout(
        shape=meta.shape,
        chunk_shape=meta.chunk_shape,
        dtype=meta.data_type.dtype,
        fill_value=meta.fill_value,
        chunk_key=chunk_key,
        codec=codec,
        codec_factory=factory,
    )


class V3Array(Array):
    """An Array that also carries its parsed metadata (`meta`); `notes` (the engine's list of
    tolerated oddities) holds the metadata's notes."""

    meta: ArrayMetadata

    @property
    def dimension_names(self) -> tuple[str | None, ...] | None:
        return self.meta.dimension_names

    @property
    def data_type(self) -> str | dict[str, Any]:
        return self.meta.data_type.to_json()


class V3Group(Group):
    """A Group that also carries its parsed metadata (`meta`) and `consolidated` (zarr-python's
    consolidated_metadata member, if an object); `notes` holds tolerated oddities such as
    zarr-python 3.0's `"consolidated_metadata": null`."""

    meta: GroupMetadata

    @property
    def consolidated(self) -> dict[str, Any] | None:
        return self.meta.consolidated
