"""Helpers for the v2 reference tests: hand-built fixture stores, independent of the writer."""

from __future__ import annotations

import json

from conformance.reference import MemoryStore


def zarray(**overrides) -> dict:
    """A valid `.zarray` document (<i4, shape [4], chunks [2], raw chunks) with overrides applied;
    an override of `...` (Ellipsis) removes the key."""
    doc = {
        "chunks": [2],
        "compressor": None,
        "dtype": "<i4",
        "fill_value": 0,
        "filters": None,
        "order": "C",
        "shape": [4],
        "zarr_format": 2,
    }
    doc.update(overrides)
    return {k: v for k, v in doc.items() if v is not ...}


def make_store(entries: dict) -> MemoryStore:
    """A MemoryStore from {key: dict (JSON document) or bytes}."""
    return MemoryStore(
        {k: v if isinstance(v, bytes) else json.dumps(v).encode() for k, v in entries.items()}
    )
