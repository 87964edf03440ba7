"""A small sample hierarchy for `validate --sample`: a v3 group holding two arrays, one of them
sharded (when the reference supports sharding), with partly written data so that missing
chunks, edge chunks and a compressor are all exercised."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from conformance.reference import DirectoryStore, get_format
from conformance.reference.errors import ZarrError

LITTLE = {"name": "bytes", "configuration": {"endian": "little"}}


def _array_document(
    shape: Sequence[int],
    chunk_shape: Sequence[int],
    data_type: str,
    fill_value: Any,
    codecs: list[Any],
    dimension_names: list[str | None] | None = None,
) -> dict[str, Any]:
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunk_shape)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill_value,
        "codecs": codecs,
    }
    if dimension_names is not None:
        doc["dimension_names"] = dimension_names
    return doc


def write_sample(directory: str | Path) -> dict[str, Any]:
    """Write the sample into `directory` (a new or empty directory); returns a description."""
    fmt = get_format("v3")
    store = DirectoryStore(directory)
    fmt.create_group(
        store, "", attributes={"title": "zarr-conformance sample", "source": "validate --sample"}
    )

    # A float array: gzip-compressed, NaN fill, edge chunks, and the bottom rows never written.
    temperature = fmt.create_array(
        store,
        "temperature",
        _array_document(
            (45, 70),
            (10, 20),
            "float32",
            "NaN",
            [LITTLE, {"name": "gzip", "configuration": {"level": 5}}],
            ["y", "x"],
        ),
        attributes={"units": "K"},
    )
    temperature[0:30, :] = (np.arange(30 * 70, dtype=np.float32).reshape(30, 70) / 8 + 250).astype(
        np.float32
    )

    # An integer array stored in shards of 4 x 3 inner chunks, one shard left out.
    sharding = {
        "name": "sharding_indexed",
        "configuration": {
            "chunk_shape": [8, 8],
            "codecs": [LITTLE, {"name": "gzip", "configuration": {"level": 1}}],
            "index_codecs": [LITTLE, {"name": "crc32c"}],
            "index_location": "end",
        },
    }
    sharded = True
    try:
        counts = fmt.create_array(
            store, "counts", _array_document((64, 48), (32, 24), "uint16", 0, [sharding])
        )
    except ZarrError:  # a reference without sharding: plain chunks instead
        sharded = False
        counts = fmt.create_array(
            store, "counts", _array_document((64, 48), (8, 8), "uint16", 0, [LITTLE])
        )
    values = (np.arange(64 * 48, dtype=np.uint32) % 65521).astype(np.uint16).reshape(64, 48)
    counts[0:32, :] = values[0:32]
    counts[32:64, 0:24] = values[32:64, 0:24]
    return {"format": "v3", "arrays": ["temperature", "counts"], "sharded": sharded}
