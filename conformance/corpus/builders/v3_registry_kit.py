"""Shared helpers of the zarr-extensions registry cases (v3_registry_types, v3_registry_codecs).

Every registry case is in the `extension` tier and cites the README of its registry entry
(`zarr-extensions/<point>/<name>/README.md` under the specs folder) with a sentence `corpus check`
finds in that file. Case ids are `v3/registry/<entry>-<what>`.

Stores whose bytes the README fixes simply (the bytes codec on a fixed-size type, sub-byte types
with junk in their ignored upper bits, a fill value's bit pattern) are built by hand here. Stores
through codecs with more machinery (packbits, zfp, n5_default, rectilinear grids, ...) are written
by the reference; their expected data is still the builder's own input, never a read-back.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..chunking import grid, region
from ..generator import add_case
from .v3_kit import array_doc

SPEC = "zarr-extensions/{point}/{name}/README.md"
POINTS = {
    "dtype": "data-types",
    "codec": "codecs",
    "grid": "chunk-grids",
    "cke": "chunk-key-encodings",
}
# The catalogue requirement a registry case exercises, by extension point: the registered types
# (V3-DT-009), and what a reader lacking the codec or grid must do instead (V3-EXT-004/005).
REQUIREMENT = {"dtype": "V3-DT-009", "codec": "V3-EXT-004", "grid": "V3-EXT-005"}


def readme(point: str, name: str) -> str:
    return SPEC.format(point=POINTS[point], name=name)


def registry_case(
    slug: str,
    *,
    point: str,
    name: str,
    quote: str,
    section: str,
    kind: str,
    description: str,
    build: Callable,
    question: str,
    needs=(),
    also_cite=(),
) -> None:
    """One extension-tier case citing `quote` of the registry README of (`point`, `name`); a read
    or write case asks `registered-extension`, a reject case the question of its fault."""
    requirement = REQUIREMENT[point]
    add_case(
        f"v3/registry/{slug}",
        kind=kind,
        requirements=[requirement],
        description=description,
        build=build,
        needs=needs,
        tier="extension",
        question=question,
        citation=[
            {
                "requirement": requirement,
                "spec": readme(point, name),
                "section": section,
                "quote": quote,
            },
            *also_cite,
        ],
    )


def reject(
    slug: str,
    doc: dict,
    reason: str,
    question: str,
    what: str,
    *,
    chunks=None,
    stage: str = "open",
    **cite,
) -> None:
    """A document the entry's README or JSON schema forbids: opening it (or, with stage 'read',
    reading its chunks) must fail."""

    def build(w):
        w.put_json("zarr.json", doc)
        for key, value in (chunks or {}).items():
            w.put(key, value)
        w.expect_reject(reason, stage)

    registry_case(
        slug,
        kind="reject",
        question=question,
        description=f"v3 array {what} is rejected on open",
        build=build,
        **cite,
    )


def with_fill(data: np.ndarray, chunks, skip, fill: np.ndarray) -> np.ndarray:
    """`data` with the chunks at the grid indices `skip` replaced by the 0-d `fill`."""
    out = data.copy()
    for index in skip:
        out[region(index, chunks, data.shape)] = fill
    return out


def hand_store(
    w, doc: dict, data: np.ndarray, encode: Callable[[np.ndarray], bytes], skip=()
) -> None:
    """zarr.json and every chunk but `skip`, each the full chunk shape (edge overhang repeats the
    chunk's first element), encoded by `encode`."""
    w.put_json("zarr.json", doc)
    chunks = tuple(doc["chunk_grid"]["configuration"]["chunk_shape"])
    for index in np.ndindex(*grid(data.shape, chunks)):
        if index in skip:
            continue
        where = region(index, chunks, data.shape)
        block = np.empty(chunks, dtype=data.dtype)
        block[...] = data[where].reshape(-1)[0]
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        w.put("c/" + "/".join(map(str, index)), encode(block))


def reference_store(w, doc: dict, data: np.ndarray, skip=()) -> None:
    """The store written by the reference from `doc` and `data`, less the chunks at `skip`."""
    from ...reference import get_format

    array = get_format("v3").create_array(w.store, "", doc)
    array[...] = data
    for index in skip:
        w.store.data.pop(array.chunk_key(index))


def doc(shape, chunks, data_type, fill, codecs, **extra) -> dict:
    return array_doc(shape, chunks, data_type, fill, codecs=codecs, **extra)


def le_bytes(block: np.ndarray, big: bool = False) -> bytes:
    """Elements (or each field of a packed struct) as unsigned integers in the given byte order."""
    if block.dtype.fields:
        parts = [
            np.ascontiguousarray(block[name]).view(f"u{block.dtype[name].itemsize}")
            for name in block.dtype.names
        ]
        if big:
            parts = [p.byteswap() for p in parts]
        return np.concatenate([p.view("u1").reshape(p.shape + (-1,)) for p in parts], -1).tobytes()
    raw = np.ascontiguousarray(block).view(f"u{block.dtype.itemsize}")
    return (raw.byteswap() if big else raw).tobytes()


def opaque(arr: np.ndarray) -> np.ndarray:
    """`arr` with its ml_dtypes elements (or struct fields) as opaque V<n> bytes: an .npy file
    cannot name those types, and the judge compares opaque expectations bit for bit."""

    def plain(dtype: np.dtype) -> np.dtype:
        if dtype.fields:
            return np.dtype([(n, plain(dtype.fields[n][0])) for n in dtype.names])
        return np.dtype(f"V{dtype.itemsize}") if dtype.type.__module__ == "ml_dtypes" else dtype

    return arr.view(plain(arr.dtype))
