"""The draft sharding storage transformer (V3DRAFT-META-015, V3DRAFT-ZP2-004).

A transformer is a Store layered between one array and the real store: the array engine still
gets and sets *chunk* keys (`data/<P>/c3/2`), and the transformer maps each to its shard key
(indices floor-divided by chunks_per_shard, same separator: `data/<P>/c1/1`) and to a slot of
the shard. Every other key passes through unchanged.

Binary format ('indexed'): chunk bytes, then an index of 16 bytes per chunk slot in C order,
each a little-endian uint64 pair (offset, nbytes); 2^64-1 in both marks an empty slot. There is
no checksum. The writer packs present chunks in C order with no gaps and removes a shard whose
slots are all empty.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from itertools import product
from typing import Any

import numpy as np

from ...errors import ChunkError, LimitError, MetadataError
from ...stores import Store
from .extensions import refuse_extension_point
from .flavours import Flavour

EMPTY = 2**64 - 1
MAX_CHUNKS_PER_SHARD = 1 << 24  # a 256 MiB index; larger shards are refused as 'too-large'


def parse_sharding(entry: Any, flavour: Flavour, ndim: int) -> tuple[int, ...]:
    """chunks_per_shard of a sharding storage transformer entry; other transformers are refused."""
    requirement = "V3DRAFT-ZP2-004" if flavour.name == "zarr-python-2" else "V3DRAFT-META-015"
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("extension"), str)
        or "type" not in entry
    ):
        raise MetadataError(
            "invalid-storage-transformer",
            "a storage transformer needs 'extension' and 'type'",
            "V3DRAFT-META-014",
        )
    if entry["extension"] not in flavour.sharding_uris:
        refuse_extension_point(entry, "storage transformer", "V3DRAFT-META-014")
    if set(entry) - {"extension", "type", "configuration"}:
        raise MetadataError(
            "invalid-storage-transformer", "sharding has undefined members", requirement
        )
    if entry["type"] != "indexed":
        raise MetadataError(
            "invalid-storage-transformer",
            f"sharding type {entry['type']!r} is not 'indexed'",
            requirement,
        )
    config = entry.get("configuration")
    if not isinstance(config, dict) or set(config) != {"chunks_per_shard"}:
        raise MetadataError(
            "invalid-storage-transformer",
            "sharding configuration is {'chunks_per_shard': [...]}",
            requirement,
        )
    cps = config["chunks_per_shard"]
    if (
        not isinstance(cps, list)
        or len(cps) != ndim
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in cps)
    ):
        raise MetadataError(
            "invalid-storage-transformer",
            f"chunks_per_shard must list {ndim} positive integers, got {cps!r}",
            requirement,
        )
    if math.prod(cps) > MAX_CHUNKS_PER_SHARD:
        raise LimitError(
            f"{math.prod(cps)} chunks per shard exceeds {MAX_CHUNKS_PER_SHARD}", requirement
        )
    return tuple(cps)


class ShardingTransformer(Store):
    """A Store view of one array's chunks, stored as shards in `inner`."""

    def __init__(
        self, inner: Store, flavour: Flavour, data_prefix: str, separator: str, cps: tuple[int, ...]
    ):
        self.inner = inner
        self.flavour = flavour
        self.data_prefix = data_prefix
        self.separator = separator
        self.cps = cps
        self.slots = math.prod(cps)
        self.index_nbytes = 16 * self.slots
        self.read_only = inner.read_only
        # The engine writes chunks from a thread pool; a shard is read-modified-written whole.
        self._lock = threading.Lock()

    # ---- key mapping ---------------------------------------------------------------------
    def _chunk_index(self, key: str) -> tuple[int, ...] | None:
        if not key.startswith(self.data_prefix):
            return None
        return self.flavour.parse_chunk_id(
            key[len(self.data_prefix) :], self.separator, len(self.cps)
        )

    def _shard_of(self, index: tuple[int, ...]) -> tuple[str, int]:
        """(shard key, slot number in C order) of a chunk index."""
        shard = tuple(i // n for i, n in zip(index, self.cps))
        slot = (
            int(np.ravel_multi_index(tuple(i % n for i, n in zip(index, self.cps)), self.cps))
            if self.cps
            else 0
        )
        return self.data_prefix + self.flavour.chunk_id(shard, self.separator), slot

    # ---- reading -------------------------------------------------------------------------
    def _parse_index(self, key: str, raw: bytes, shard_nbytes: int | None) -> np.ndarray:
        if len(raw) != self.index_nbytes:
            raise ChunkError(
                "corrupt-shard-index",
                f"shard {key!r} is shorter than its {self.index_nbytes}-byte index",
                "V3DRAFT-META-015",
            )
        index = np.frombuffer(raw, dtype="<u8").reshape(self.slots, 2)
        offsets, sizes = index[:, 0], index[:, 1]
        used = ~((offsets == EMPTY) & (sizes == EMPTY))
        limit = EMPTY if shard_nbytes is None else shard_nbytes - self.index_nbytes
        # offset + nbytes <= limit, written so that the uint64 sum cannot wrap around
        bad = used & ((sizes > np.uint64(limit)) | (offsets > np.uint64(limit) - sizes))
        if bad.any():
            raise ChunkError(
                "corrupt-shard-index",
                f"shard {key!r} index points outside the shard",
                "V3DRAFT-META-015",
            )
        return index

    def _slot(self, index: np.ndarray, slot: int) -> tuple[int, int] | None:
        offset, nbytes = (int(v) for v in index[slot])
        return None if (offset, nbytes) == (EMPTY, EMPTY) else (offset, nbytes)

    def get(self, key: str, limit: int | None = None) -> bytes | None:
        chunk = self._chunk_index(key)
        if chunk is None:
            return self.inner.get(key)
        shard_key, slot = self._shard_of(chunk)
        raw = self.inner.get_partial(shard_key, -self.index_nbytes)
        if raw is None:
            return None
        where = self._slot(self._parse_index(shard_key, raw, None), slot)
        if where is None:
            return None
        offset, nbytes = where
        data = self.inner.get_partial(shard_key, offset, nbytes)
        if data is None or len(data) != nbytes:
            raise ChunkError(
                "corrupt-shard-index",
                f"shard {shard_key!r} index points outside the shard",
                "V3DRAFT-META-015",
            )
        return data

    def _read_shard(self, shard_key: str) -> dict[int, bytes]:
        """All present chunks of a shard by slot."""
        value = self.inner.get(shard_key)
        if value is None:
            return {}
        index = self._parse_index(
            shard_key, value[-self.index_nbytes :] if self.index_nbytes else b"", len(value)
        )
        chunks = {}
        for slot in range(self.slots):
            where = self._slot(index, slot)
            if where is not None:
                chunks[slot] = value[where[0] : where[0] + where[1]]
        return chunks

    # ---- writing -------------------------------------------------------------------------
    def _write_shard(self, shard_key: str, chunks: dict[int, bytes]) -> None:
        if not chunks:
            self.inner.erase(shard_key)
            return
        index = np.full((self.slots, 2), EMPTY, dtype="<u8")
        body, offset = [], 0
        for slot in sorted(chunks):
            index[slot] = (offset, len(chunks[slot]))
            body.append(chunks[slot])
            offset += len(chunks[slot])
        self.inner.set(shard_key, b"".join(body) + index.tobytes())

    def set(self, key: str, value: bytes) -> None:
        chunk = self._chunk_index(key)
        if chunk is None:
            self.inner.set(key, value)
            return
        shard_key, slot = self._shard_of(chunk)
        with self._lock:
            chunks = self._read_shard(shard_key)
            chunks[slot] = bytes(value)
            self._write_shard(shard_key, chunks)

    def erase(self, key: str) -> None:
        chunk = self._chunk_index(key)
        if chunk is None:
            self.inner.erase(key)
            return
        shard_key, slot = self._shard_of(chunk)
        with self._lock:
            chunks = self._read_shard(shard_key)
            if chunks.pop(slot, None) is not None:
                self._write_shard(shard_key, chunks)

    # ---- listing -------------------------------------------------------------------------
    def list(self) -> Iterator[str]:
        """Inner keys, with each shard replaced by the chunk keys it holds."""
        for key in list(self.inner.list()):
            shard = self._chunk_index(key)
            if shard is None:
                yield key
                continue
            present = self._read_shard(key)
            for offsets in product(*(range(n) for n in self.cps)):
                slot = int(np.ravel_multi_index(offsets, self.cps)) if self.cps else 0
                if slot in present:
                    chunk = tuple(s * n + o for s, n, o in zip(shard, self.cps, offsets))
                    yield self.data_prefix + self.flavour.chunk_id(chunk, self.separator)

    def __repr__(self) -> str:
        return f"ShardingTransformer({self.inner!r}, {self.data_prefix!r}, chunks_per_shard={list(self.cps)})"
