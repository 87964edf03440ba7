"""Hand-built v3 fixture stores for the reference tests, written without the reference writer."""

from __future__ import annotations

import json

import pytest

from conformance.reference import MemoryStore
from conformance.reference.errors import ZarrError
from conformance.reference.formats.v3 import FORMAT

LE = {"name": "bytes", "configuration": {"endian": "little"}}
BE = {"name": "bytes", "configuration": {"endian": "big"}}
DROP = object()  # an override value that removes the member


def array_doc(**overrides) -> dict:
    """A valid array document (int32, shape [4, 6], chunks [2, 3], bytes little) with overrides;
    an override of DROP removes the member."""
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [4, 6],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [LE],
    }
    doc.update(overrides)
    return {k: v for k, v in doc.items() if v is not DROP}


def group_doc(**overrides) -> dict:
    doc = {"zarr_format": 3, "node_type": "group", **overrides}
    return {k: v for k, v in doc.items() if v is not DROP}


def make_store(entries: dict) -> MemoryStore:
    """A MemoryStore from {key: dict (a JSON document) or bytes}."""
    return MemoryStore(
        {k: v if isinstance(v, bytes) else json.dumps(v).encode() for k, v in entries.items()}
    )


def open_doc(doc: dict, path: str = "", chunks: dict | None = None):
    """Open the array or group `doc` stored at `path` (plus raw chunk values)."""
    key = f"{path}/zarr.json" if path else "zarr.json"
    store = make_store({key: doc, **(chunks or {})})
    return FORMAT.open_node(store, path)


def expect_reason(reason: str, fn, *args, **kwargs) -> ZarrError:
    with pytest.raises(ZarrError) as info:
        fn(*args, **kwargs)
    assert info.value.reason == reason, (
        f"expected {reason!r}, got {info.value.reason!r}: {info.value}"
    )
    return info.value
