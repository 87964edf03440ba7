"""Write cases with steps (fixtures/README.md, "write"): after creating the array, the writer writes
regions and single elements into it and resizes it, as users do. The generator runs the same steps
through the reference and derives what the spec then fixes:

- the array the reference must read at the end (`result`), and the elements whose value the spec
  leaves open (`undefined`): an element that was outside the array while its chunk was stored
  (the overhang of an edge chunk, whose content is only RECOMMENDED to be the fill value; chunk
  data a shrink left behind, which 3.0 "Resizing" says "will be shown by default" after growing
  again) and that was not written since;
- the keys: the metadata document(s) (v3 ancestor groups optional, as in other v3 write cases), and
  every chunk the steps touched whose defined elements are not all the fill value (compared as
  bits). A touched chunk that equals the fill, or that a shrink
  put outside the array, may be stored or not (`optional_keys`): the fill value is what "portions"
  nobody wrote read as, whether or not a chunk is stored. A chunk no step touched must not be
  written: it is not the writer's to store (parallel writers of disjoint regions rely on that).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..reference import get_format
from ..reference.grid import chunk_overlaps, normalize_selection
from ..reference.stores import MemoryStore

Region = tuple[Any, ...]  # per dimension: an int (one index) or (start, stop)


@dataclass(frozen=True)
class Write:
    """Store `values` (shaped as the region selects) into `region` of the array as it is now."""

    region: Region
    values: np.ndarray


@dataclass(frozen=True)
class Resize:
    shape: tuple[int, ...]


Step = Write | Resize


@dataclass
class Expected:
    result: np.ndarray
    undefined: np.ndarray  # boolean, the result's shape
    keys: list[str]
    optional_keys: list[str]


def selection(region: Region) -> tuple:
    return tuple(r if isinstance(r, int) else slice(int(r[0]), int(r[1])) for r in region)


def region_json(region: Region) -> list:
    return [r if isinstance(r, int) else [int(r[0]), int(r[1])] for r in region]


def run_steps(
    format_name: str,
    path: str,
    metadata: dict,
    attributes: dict,
    data: np.ndarray | None,
    steps: list[Step],
) -> Expected:
    """Create the array in a memory store, write `data` over it (if given), apply `steps`, and
    work out the expectation (module docstring)."""
    fmt = get_format(format_name)
    store = MemoryStore()
    path = fmt.normalize_path(path)
    array = fmt.create_array(store, path, metadata, attributes)
    metadata_keys = set(store.data)
    chunks = tuple(array.chunks)
    shape = tuple(array.shape)
    shapes = [shape] + [s.shape for s in steps if isinstance(s, Resize)]
    canvas = tuple(max(dim) for dim in zip(*shapes))
    unclean = np.zeros(canvas, dtype=bool)
    touched: set[tuple[int, ...]] = set()

    def box(index: tuple[int, ...]) -> tuple[slice, ...]:
        return tuple(slice(i * c, min((i + 1) * c, n)) for i, c, n in zip(index, chunks, canvas))

    def outside(shape: tuple[int, ...]) -> np.ndarray:
        mask = np.ones(canvas, dtype=bool)
        mask[tuple(slice(0, n) for n in shape)] = False
        return mask

    def wrote(region: tuple[slice, ...]) -> None:
        unclean[region] = False
        beyond = outside(shape)
        for index, _, _ in chunk_overlaps(region, chunks):
            touched.add(index)
            unclean[box(index)] |= beyond[box(index)]  # the overhang of a chunk just stored

    if data is not None:
        array.write(None, data)
        wrote(tuple(slice(0, n) for n in shape))
    for step in steps:
        if isinstance(step, Write):
            chosen = selection(step.region)
            array.write(chosen, step.values)
            wrote(normalize_selection(chosen, shape)[0])
        else:
            array = fmt.resize_array(store, path, step.shape)
            shape = tuple(step.shape)
            beyond = outside(shape)
            for index in touched:  # what a shrink may leave behind
                unclean[box(index)] |= beyond[box(index)]
    array = fmt.open_array(store, path)
    result = array.read()
    undefined = unclean[tuple(slice(0, n) for n in shape)].copy()
    required = set()
    for index in touched:
        key = array.chunk_key(index)
        inside = tuple(slice(i * c, min((i + 1) * c, n)) for i, c, n in zip(index, chunks, shape))
        if key not in store.data or any(s.stop <= s.start for s in inside):
            continue
        differs = differs_from_fill(result[inside], array.fill_value)
        if np.any(differs & ~undefined[inside]):
            required.add(key)
    optional = {array.chunk_key(i) for i in touched} - required
    if format_name == "v2":  # an empty .zattrs of the array or of an ancestor group is harmless
        parts = path.split("/") if path else []
        folders = ["/".join(parts[:i]) for i in range(len(parts) + 1)]
        optional |= {f"{f}/.zattrs" if f else ".zattrs" for f in folders}
        optional -= {f"{path}/.zattrs" if path else ".zattrs"} if attributes else set()
    if format_name == "v3":  # ancestor groups: described only by 3.0's non-normative Operations
        own = f"{path}/zarr.json" if path else "zarr.json"
        ancestors = {k for k in metadata_keys if k != own}
        metadata_keys -= ancestors
        optional |= ancestors
    return Expected(
        result=result,
        undefined=undefined,
        keys=sorted(metadata_keys | required),
        optional_keys=sorted(optional - metadata_keys),
    )


def differs_from_fill(values: np.ndarray, fill: Any) -> np.ndarray:
    """Per element: are its bits other than the fill value's (a null fill: always)?"""
    if fill is None:
        return np.ones(values.shape, dtype=bool)
    dtype = values.dtype
    le = dtype.newbyteorder("<") if dtype.byteorder in "<>=" else dtype
    size = max(dtype.itemsize, 1)
    got = np.ascontiguousarray(values.astype(le)).view(np.uint8).reshape(-1, size)
    want = np.ascontiguousarray(np.asarray(fill, dtype=dtype).astype(le)).view(np.uint8)
    return (got != want.reshape(1, size)).any(axis=1).reshape(values.shape)
