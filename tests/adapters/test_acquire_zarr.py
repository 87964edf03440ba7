"""The acquire-zarr adapter (PyPI acquire-zarr, a streaming v3 writer): a request it can express
(sharded, blosc, named dimensions, fill value 0) is written and judged by the reference
implementation; requests it has no setting for are answered Unsupported, with nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from adapter_selftest import declared_unsupported, pinned_version, same_bits, store

from conformance.reference import open_node

ADAPTER = "acquire-zarr"
INDEX = [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]


def sharded(dtype: str, inner_codecs: list, **members) -> dict:
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [3, 4, 6],
        "data_type": dtype,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1, 4, 6]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [
            {
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": [1, 2, 3],
                    "codecs": inner_codecs,
                    "index_codecs": INDEX,
                    "index_location": "end",
                },
            }
        ],
        "dimension_names": ["t", "y", "x"],
        **members,
    }


LITTLE = {"name": "bytes", "configuration": {"endian": "little"}}
BLOSC = {
    "name": "blosc",
    "configuration": {
        "cname": "zstd",
        "clevel": 1,
        "shuffle": "shuffle",
        "typesize": 2,
        "blocksize": 0,
    },
}


def write(client, tmp_path, metadata, data, path=""):
    np.save(tmp_path / "in.npy", data)
    return client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        path=path,
        node_type="array",
        metadata=metadata,
        attributes={},
        data=str(tmp_path / "in.npy"),
    )


def test_describe(adapter_clients):
    body = adapter_clients(ADAPTER).call("describe").body
    assert body["ok"] and body["version"] == pinned_version(ADAPTER, "acquire-zarr")


@pytest.mark.parametrize("path", ["", "a/b"])
def test_expressible_write_judged_by_the_reference(adapter_clients, tmp_path, path):
    (tmp_path / "w").mkdir()
    data = (np.arange(72, dtype="<u2") * 911).reshape(3, 4, 6)
    r = write(adapter_clients(ADAPTER), tmp_path, sharded("uint16", [LITTLE, BLOSC]), data, path)
    assert r.ok, r.describe_error()
    array = open_node(tmp_path / "w", path, "v3")
    assert same_bits(array.read(), data)
    written = json.loads((tmp_path / "w" / path / "zarr.json").read_text())
    assert written["codecs"] == sharded("uint16", [LITTLE, BLOSC])["codecs"]
    assert written["dimension_names"] == ["t", "y", "x"] and written["fill_value"] == 0


@pytest.mark.parametrize(
    "metadata",
    [
        sharded("uint16", [LITTLE], fill_value=3),  # fill values other than 0
        sharded("uint16", [LITTLE], dimension_names=None),  # unnamed dimensions
        sharded("float16", [LITTLE]),  # a data type it does not stream
        {**sharded("uint16", [LITTLE]), "codecs": [LITTLE]},  # unsharded
    ],
)
def test_what_it_cannot_express_is_unsupported(adapter_clients, tmp_path, metadata):
    (tmp_path / "w").mkdir()
    r = write(adapter_clients(ADAPTER), tmp_path, metadata, np.zeros((3, 4, 6), "<u2"))
    assert r.body.get("unsupported") and declared_unsupported(ADAPTER, r.body), r.body
    assert list((tmp_path / "w").iterdir()) == []
