"""Hand-built stores and documents for the ZOM tests (raw keys, so no writer is trusted).

Imported by the test modules of this folder (pytest puts the folder on sys.path)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np

from conformance.reference import MemoryStore

DATA = Path(__file__).parent / "data"


def raw(doc) -> bytes:
    return json.dumps(doc).encode()


def zarray(shape=(4,), chunks=(2,), dtype="<i4", **extra) -> dict:
    doc = {
        "zarr_format": 2,
        "shape": list(shape),
        "chunks": list(chunks),
        "dtype": dtype,
        "compressor": None,
        "fill_value": 0,
        "order": "C",
        "filters": None,
    }
    doc.update(extra)
    return doc


def v3_array(shape=(4,), chunks=(2,), data_type="int32", **extra) -> dict:
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    }
    doc.update(extra)
    return doc


def v3_group(**extra) -> dict:
    return {"zarr_format": 3, "node_type": "group", **extra}


def group_005_store() -> MemoryStore:
    """The V2-GROUP-005 fixture: members of `foo` are exactly {bar: group, baz: array}."""
    return MemoryStore(
        {
            "foo/.zgroup": raw({"zarr_format": 2}),
            "foo/bar/.zgroup": raw({"zarr_format": 2}),
            "foo/baz/.zarray": raw(zarray()),
            "foo/qux/quux/.zarray": raw(zarray()),
            "foo/junk": b"not metadata",
        }
    )


def v2_hierarchy_store(chunk_seed: int = 0) -> MemoryStore:
    """A v2 hierarchy with attributes, nested groups, F order, blosc, a separator and chunks."""
    rng = np.random.default_rng(chunk_seed)
    store = MemoryStore(
        {
            ".zgroup": raw({"zarr_format": 2}),
            ".zattrs": raw({"title": "root", "n": [1, 2.5, None]}),
            "g/.zgroup": raw({"zarr_format": 2}),
            "g/.zattrs": raw({"ü": {"nested": True}}),
            "g/temp/.zarray": raw(zarray((6, 4), (4, 3), "<f8", order="F", fill_value="NaN")),
            "g/temp/.zattrs": raw({"_ARRAY_DIMENSIONS": ["y", "x"], "units": "K"}),
            "ints/.zarray": raw(zarray((5,), (2,), ">i2", dimension_separator="/")),
            "flags/.zarray": raw(zarray((3, 3), (3, 3), "|b1", fill_value=True)),
        }
    )
    for key in ("g/temp/0.0", "g/temp/1.1"):
        store.set(key, rng.random(12).tobytes(order="F"))
    store.set("ints/1", rng.integers(-100, 100, 2, dtype="i2").astype(">i2").tobytes())
    return store


def v3_hierarchy_store(chunk_seed: int = 0) -> MemoryStore:
    rng = np.random.default_rng(chunk_seed)
    store = MemoryStore(
        {
            "zarr.json": raw(v3_group(attributes={"title": "root"})),
            "g/zarr.json": raw(v3_group()),
            "g/temp/zarr.json": raw(
                v3_array(
                    (6, 4),
                    (4, 3),
                    "float64",
                    fill_value="NaN",
                    dimension_names=["y", None],
                    attributes={"units": "K"},
                )
            ),
            "g/empty/zarr.json": raw(v3_group(attributes={})),
            "c64/zarr.json": raw(v3_array((2,), (2,), "complex64", fill_value=["NaN", 0])),
            "big/zarr.json": raw(
                v3_array(
                    (8,),
                    (4,),
                    "uint64",
                    fill_value=18446744073709551615,
                    codecs=[
                        {"name": "bytes", "configuration": {"endian": "big"}},
                        {"name": "crc32c"},
                    ],
                    chunk_key_encoding={"name": "v2", "configuration": {"separator": "."}},
                )
            ),
            "__ext/data": b"reserved prefix, not a member",
        }
    )
    store.set("g/temp/c/0/0", rng.random(12).tobytes())
    return store


def zep6_example(name: str) -> dict:
    """One of the ZEP 6 JSON examples, transcribed unchanged (ZOM-019: negative fixtures only)."""
    return json.loads((DATA / f"zep6-example-{name}.json").read_text())


def deep(doc):
    return copy.deepcopy(doc)
