"""Helpers for the v3-draft reference tests: hand-built stores from JSON documents."""

from __future__ import annotations

import json

import pytest

from conformance.reference import MemoryStore, get_format

ENTRY_POINT = {
    "zarr_format": "https://purl.org/zarr/spec/core/3.0",
    "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"},
    "extensions": [],
}


def array_doc(**overrides) -> dict:
    """A valid seed-002 array document (int32, shape [4, 6], chunks [2, 3]) with overrides;
    an override of None removes the member."""
    doc = {
        "shape": [4, 6],
        "data_type": "int32",
        "chunk_grid": {"type": "regular", "chunk_shape": [2, 3], "separator": "/"},
        "chunk_memory_layout": "C",
        "fill_value": 0,
        "extensions": [],
        "attributes": {},
    }
    for name, value in overrides.items():
        if value is None:
            doc.pop(name, None)
        else:
            doc[name] = value
    return doc


def make_store(docs: dict, entry_point: dict | None = ENTRY_POINT) -> MemoryStore:
    """A MemoryStore holding `docs` (dict/list values are JSON-encoded, bytes kept as they are)."""
    store = MemoryStore()
    if entry_point is not None:
        store.set("zarr.json", json.dumps(entry_point).encode())
    for key, value in docs.items():
        store.set(key, value if isinstance(value, bytes) else json.dumps(value).encode())
    return store


@pytest.fixture
def fmt():
    return get_format("v3-draft")


@pytest.fixture(name="array_doc")
def _array_doc():
    return array_doc


@pytest.fixture(name="make_store")
def _make_store():
    return make_store
