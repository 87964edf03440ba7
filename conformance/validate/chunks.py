"""Checking the stored chunks of one array.

Every key under the array's chunk prefix is matched to a grid position (by reading the indices
out of the key and checking that the array's own chunk_key function gives back exactly that key)
and decoded with the reference. Keys that match no position are stray (warnings). Matching
through the key instead of enumerating the grid keeps sparse arrays with 2**40 positions cheap.
A store that cannot list (plain HTTP) is probed position by position, up to a limit.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from conformance.reference.grid import all_chunk_indices, grid_shape

if TYPE_CHECKING:
    from .budget import Budget

# Base names of metadata documents of every format: never stray, never chunks.
METADATA_NAMES = frozenset(
    {"zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata", "meta", "attrs"}
)
MAX_ENUMERATED_POSITIONS = 100_000  # grids up to this size may be enumerated to map keys
MAX_PROBED_POSITIONS = 10_000  # without listing, at most this many keys are requested
_DIGITS = re.compile(r"\d+")
_MAX_INDEX_DIGITS = 20  # more digits than any real index (and under int()'s string limit)


@dataclass
class ChunkScan:
    chunks: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)  # key -> grid positions
    stray: list[tuple[str, str, str | None]] = field(
        default_factory=list
    )  # (key, why, requirement)
    unchecked: str | None = None  # why positions could not be enumerated, if so
    positions_only: bool = False  # keys say nothing: read every grid position instead
    unlisted: bool = (
        False  # `chunks` are every position of a store that cannot list: absent ones read as None
    )


def chunk_prefix(chunk_key: Callable[[tuple[int, ...]], str], ndim: int) -> str:
    """The key prefix all chunk keys of an array share ('a/c/' for v3 default keys, 'a/' for v2)."""
    if ndim == 0:
        key = chunk_key(())
        return key.rsplit("/", 1)[0] + "/" if "/" in key else ""
    low, high = chunk_key((0,) * ndim), chunk_key((2**40,) * ndim)
    prefix = os.path.commonprefix([low, high])  # noqa: RUF071 - keys are strings, not paths
    return prefix


def is_injective_sample(chunk_key: Callable[[tuple[int, ...]], str], ndim: int) -> bool:
    """False for layouts where several grid positions share one key (a draft sharding transformer)."""
    return ndim == 0 or chunk_key((0,) * ndim) != chunk_key((1,) * ndim)


def classify(
    keys: Iterable[str],
    chunk_key: Callable[[tuple[int, ...]], str],
    shape: tuple[int, ...],
    chunk_shape: tuple[int, ...],
    prefix: str,
    format: str,
) -> ChunkScan:
    """Match listed keys to grid positions by reading the indices out of each key."""
    scan = ChunkScan()
    ndim = len(shape)
    grid = grid_shape(shape, chunk_shape)
    for key in keys:
        if key.rsplit("/", 1)[-1] in METADATA_NAMES:
            continue
        if ndim == 0:
            if key == chunk_key(()):
                scan.chunks[key] = [()]
            else:
                scan.stray.append((key, "is not the chunk key of this 0-d array", None))
            continue
        numbers = _DIGITS.findall(key[len(prefix) :])
        if len(numbers) != ndim or any(len(n) > _MAX_INDEX_DIGITS for n in numbers):
            scan.stray.append((key, "does not name a chunk of this array", None))
            continue
        index = tuple(int(n) for n in numbers)
        canonical = chunk_key(index)
        if canonical != key:
            requirement = "V3-CKE-007" if format == "v3" else None
            scan.stray.append(
                (key, f"is not a chunk key; the key of chunk {index} is {canonical!r}", requirement)
            )
        elif any(i >= g for i, g in zip(index, grid)):
            requirement = "V3-GRID-010" if format == "v3" else None
            scan.stray.append(
                (
                    key,
                    f"names chunk {index}, outside the chunk grid {grid} (stale data?)",
                    requirement,
                )
            )
        else:
            scan.chunks[key] = [index]
    return scan


def enumerate_positions(
    keys: set[str] | None,
    chunk_key: Callable[[tuple[int, ...]], str],
    shape: tuple[int, ...],
    chunk_shape: tuple[int, ...],
    budget: Budget,
) -> ChunkScan:
    """Map keys to positions by walking the whole grid: for layouts that share keys between
    positions, and for probing stores that cannot list (`keys` None: every position's key)."""
    scan = ChunkScan()
    for index in all_chunk_indices(shape, chunk_shape):
        budget.check()
        key = chunk_key(index)
        if keys is None or key in keys:
            scan.chunks.setdefault(key, []).append(index)
    return scan


def grid_size(shape: tuple[int, ...], chunk_shape: tuple[int, ...]) -> int:
    return math.prod(grid_shape(shape, chunk_shape))
