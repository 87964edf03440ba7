"""The `sharding_indexed` array->bytes codec (V3-SHARD-001..017, V3-TRANS-004).

A shard is the encoded inner chunks, in any order and with any gaps, plus an index of
(offset, nbytes) uint64 pairs, one per inner chunk in C order, encoded with `index_codecs` and
placed at the start or the end. Offsets count from the start of the shard value in both cases.
Both fields 2^64-1 mark an empty inner chunk, which reads as the fill value.

Writing: inner chunks are written in C order, back to back, and only those whose bytes differ
from the fill value; a shard with no such inner chunk is encoded as its all-empty index alone
(V3-SHARD-017 allows that or deleting the key; the array engine deletes it when it is told not to
write empty chunks, since a shard is all fill exactly when each of its inner chunks is).

Reading checks the index before trusting it: a half-empty pair, or a range that leaves the shard or
overlaps the index itself, is 'corrupt-shard-index' (V3-SHARD-016).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....errors import ChunkError, MetadataError
from ....grid import chunk_overlaps
from .base import MAX_DECODED_BYTES, ArrayBytesCodec, ArraySpec, ByteSource
from .config import Config, positive_int_list

EMPTY = np.uint64(2**64 - 1)
INDEX_DTYPE = np.dtype("<u8")


class ShardingCodec(ArrayBytesCodec):
    name = "sharding_indexed"
    supports_partial = True

    def __init__(self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any) -> None:
        super().__init__(configuration, spec)
        if configuration is None:
            raise Config(self.name, None).error("a configuration is required", "V3-SHARD-001")
        config = Config(self.name, configuration, "V3-SHARD-001")
        inner_shape = positive_int_list(
            config, "chunk_shape", "V3-SHARD-002", "invalid-chunk-shape"
        )
        codecs_json = config.raw("codecs", True)
        index_json = config.raw("index_codecs", True)
        self.index_location = config.choice(
            "index_location", ("start", "end"), required=False, default="end"
        )
        config.finish()
        shard_shape = spec.shape
        # The shard shape is what this codec receives, i.e. after any array->array codec (V3-TRANS-004).
        if len(inner_shape) != len(shard_shape) or any(
            s % c for s, c in zip(shard_shape, inner_shape)
        ):
            raise MetadataError(
                "invalid-chunk-shape",
                f"sharding chunk_shape {list(inner_shape)} does not evenly divide the shard shape {list(shard_shape)}",
                "V3-SHARD-002",
            )
        self.inner_shape = inner_shape
        self.chunks_per_shard = tuple(s // c for s, c in zip(shard_shape, inner_shape))
        self.inner = context.build(
            codecs_json, spec.with_shape(inner_shape), "sharding_indexed.codecs"
        )
        index_spec = ArraySpec(
            self.chunks_per_shard + (2,), INDEX_DTYPE, np.array(EMPTY, INDEX_DTYPE), "uint64"
        )
        self.index = context.build(index_json, index_spec, "sharding_indexed.index_codecs")
        if self.index.encoded_size is None:
            raise MetadataError(
                "invalid-codec",
                "sharding index_codecs must have a fixed encoded size (no compressors)",
                "V3-SHARD-004",
            )
        self.index_size = self.index.encoded_size

    # ---- encoding ---------------------------------------------------------------------------
    def encode(self, array: np.ndarray) -> bytes:
        at_start = self.index_location == "start"
        mask = self._nonempty(array)
        blocks = self._blocks(array)
        # C order of the inner-chunk grid, each inner chunk written once, back to back.
        parts = [
            self.inner.encode(blocks[position + (Ellipsis,)]) for position in self._positions(mask)
        ]
        lengths = np.array([len(part) for part in parts], dtype=np.uint64)
        offsets = np.cumsum(lengths) - lengths + np.uint64(self.index_size if at_start else 0)
        index = np.full(self.chunks_per_shard + (2,), EMPTY, dtype=INDEX_DTYPE)
        index.reshape(-1, 2)[mask.reshape(-1)] = np.stack([offsets, lengths], axis=-1)
        index_bytes = self.index.encode(index)
        return b"".join([index_bytes, *parts] if at_start else [*parts, index_bytes])

    def _nonempty(self, array: np.ndarray) -> np.ndarray:
        """Per inner chunk (C-order grid): does it differ from the fill value, bit for bit?"""
        spec = self.decoded_spec
        if spec.fill_value is None:
            return np.ones(self.chunks_per_shard, dtype=bool)
        if spec.dtype.hasobject:
            equal = np.asarray(array == spec.fill_value[()], dtype=bool).reshape(spec.shape + (1,))
        else:
            itemsize = spec.dtype.itemsize
            unit = next(u for u in (8, 4, 2, 1) if itemsize % u == 0)
            word = np.dtype(f"u{unit}")
            values = (
                np.ascontiguousarray(array)
                .reshape(-1)
                .view(word)
                .reshape(spec.shape + (itemsize // unit,))
            )
            fill = np.frombuffer(
                np.asarray(spec.fill_value, dtype=spec.dtype).tobytes(), dtype=word
            )
            equal = values == fill
        # Split every axis into (inner chunk index, position inside the inner chunk).
        blocks = [n for pair in zip(self.chunks_per_shard, self.inner_shape) for n in pair]
        inside = tuple(range(1, 2 * len(self.inner_shape), 2)) + (2 * len(self.inner_shape),)
        return np.logical_not(equal.reshape(blocks + [equal.shape[-1]]).all(axis=inside))

    @staticmethod
    def _positions(mask: np.ndarray) -> list[tuple[int, ...]]:
        """Grid positions where `mask` is true, in C order."""
        return [tuple(p) for p in np.argwhere(mask).tolist()]

    def _blocks(self, array: np.ndarray) -> np.ndarray:
        """A view of a shard-shaped array as (inner chunk grid..., inner chunk shape...), so that
        blocks[position] is one inner chunk; writes go through when `array` is C-contiguous."""
        rank = len(self.inner_shape)
        interleaved = [n for pair in zip(self.chunks_per_shard, self.inner_shape) for n in pair]
        axes = list(range(0, 2 * rank, 2)) + list(range(1, 2 * rank, 2))
        return array.reshape(interleaved).transpose(axes)

    # ---- the index --------------------------------------------------------------------------
    def read_index(
        self, raw: memoryview, total: int | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(offsets, nbytes, empty mask) from the encoded index. `total` is the shard's byte length
        when known; ranges are then checked against the part of the shard not holding the index."""
        if len(raw) != self.index_size:
            raise ChunkError(
                "corrupt-shard-index",
                f"shard of {len(raw)} bytes cannot hold its {self.index_size}-byte index",
                "V3-SHARD-009",
            )
        table = self.index.decode(raw)
        offsets = np.asarray(table[..., 0], dtype=np.uint64)
        nbytes = np.asarray(table[..., 1], dtype=np.uint64)
        offset_empty, nbytes_empty = offsets == EMPTY, nbytes == EMPTY
        if np.any(offset_empty != nbytes_empty):
            raise ChunkError(
                "corrupt-shard-index",
                "shard index marks only one of offset/nbytes as empty",
                "V3-SHARD-007",
            )
        empty = offset_empty
        at_start = self.index_location == "start"
        low = self.index_size if at_start else 0
        if total is None:
            # partial read of a value of unknown length: ranges are checked when read; here only
            # what no store can serve (file offsets are signed 64-bit)
            bad = ~empty & (
                (offsets < low) | (offsets >= np.uint64(2**63)) | (nbytes > MAX_DECODED_BYTES)
            )
        else:
            high = np.uint64(total if at_start else total - self.index_size)
            with np.errstate(over="ignore"):
                bad = ~empty & ((offsets < low) | (offsets > high) | (nbytes > high - offsets))
        if np.any(bad):
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ChunkError(
                "corrupt-shard-index",
                f"inner chunk {where} at offset {int(offsets[where])} with {int(nbytes[where])} bytes lies outside "
                f"the shard's chunk data (shard of {total if total is not None else 'unknown'} bytes, index {self.index_location})",
                "V3-SHARD-016",
            )
        return offsets, nbytes, empty

    def index_bytes(self, data: memoryview) -> memoryview:
        if self.index_location == "start":
            return data[: self.index_size]
        return data[max(0, len(data) - self.index_size) :]

    def is_empty_shard(self, data: bytes | memoryview) -> bool:
        """Whether a stored shard holds no inner chunk at all (only an all-empty index)."""
        data = memoryview(data)
        _, _, empty = self.read_index(self.index_bytes(data), len(data))
        return bool(np.all(empty))

    # ---- decoding ---------------------------------------------------------------------------
    def decode(self, data: memoryview) -> np.ndarray:
        offsets, nbytes, empty = self.read_index(self.index_bytes(data), len(data))
        spec = self.decoded_spec
        # every element is written below unless some inner chunk is empty: then fill first
        full = not empty.any() and not spec.dtype.hasobject
        out = np.empty(spec.shape, spec.dtype) if full else spec.fill_array()
        blocks = self._blocks(out)  # a view: out is C-contiguous
        starts, ends = offsets.tolist(), (offsets + nbytes).tolist()
        for position in self._positions(~empty):
            # Ellipsis: element-wise assignment even for 0-d object arrays
            blocks[position + (Ellipsis,)] = self.inner.decode(
                data[_at(starts, position) : _at(ends, position)]
            )
        return out

    def decode_partial(self, source: ByteSource, selection: tuple[slice, ...]) -> np.ndarray | None:
        """Decode the box `selection` of the shard reading only the index and the inner chunks that
        overlap it (V3-PIPE-005), possibly a read-only view of stored bytes (one inner chunk
        holding the whole box). None when the shard's key is absent."""
        if self.index_location == "start":
            raw = source.read(0, self.index_size)
        else:
            raw = source.read_suffix(self.index_size)
        if raw is None:
            return None
        offsets, nbytes, empty = self.read_index(memoryview(raw), source.length)
        spec, shape = self.decoded_spec, tuple(s.stop - s.start for s in selection)
        overlaps = list(chunk_overlaps(selection, self.inner_shape))
        # the overlaps partition the box: fill it first only where an inner chunk is empty
        full = not spec.dtype.hasobject and not any(empty[p] for p, _, _ in overlaps)
        if full and len(overlaps) == 1:  # one inner chunk holds the whole box: no copy of it
            position, inner, _ = overlaps[0]
            return self._inner_box(source, offsets, nbytes, position, inner)
        out = np.empty(shape, spec.dtype) if full else spec.fill_array(shape)
        for position, inner, outer in overlaps:
            if not empty[position]:
                part = self._inner_box(source, offsets, nbytes, position, inner)
                out[outer + (Ellipsis,)] = part  # Ellipsis: element-wise even for 0-d object arrays
        return out

    def _inner_box(
        self,
        source: ByteSource,
        offsets: np.ndarray,
        nbytes: np.ndarray,
        position: tuple[int, ...],
        inner: tuple[slice, ...],
    ) -> np.ndarray:
        """The box `inner` of the (stored) inner chunk at `position`: possibly a read-only view."""
        start, length = int(offsets[position]), int(nbytes[position])
        whole = all(s.start == 0 and s.stop == c for s, c in zip(inner, self.inner_shape))
        if self.inner.supports_partial and not whole:
            part = self.inner.decode_partial_source(source.sub(start, length), inner)
        else:
            blob = source.read(start, length)
            if blob is None or len(blob) != length:
                raise ChunkError(
                    "corrupt-shard-index",
                    f"inner chunk {position} runs past the end of the shard",
                    "V3-SHARD-016",
                )
            part = self.inner.decode(memoryview(blob))[inner + (Ellipsis,)]
        if part is None:
            raise ChunkError(
                "corrupt-shard-index",
                f"inner chunk {position} vanished while reading",
                "V3-SHARD-016",
            )
        return part


def _at(nested: Any, position: tuple[int, ...]) -> int:
    """Index a nested list from ndarray.tolist() (much faster than numpy scalar access)."""
    for i in position:
        nested = nested[i]
    return int(nested)
