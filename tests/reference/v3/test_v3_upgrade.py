"""V3-V2UP-001: a v2 array becomes a v3 array by writing only a zarr.json over the same chunks.

The v2 stores are written by zarr-python (zarr_format=2) and read by zarr-python as the oracle."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conformance.reference import DirectoryStore
from conformance.reference.errors import ZarrError
from conformance.reference.formats.v3 import FORMAT, upgrade_v2_metadata

zarr = pytest.importorskip("zarr")
numcodecs = pytest.importorskip("numcodecs")
from zarr.storage import LocalStore  # noqa: E402

CASES = [
    # (id, shape, chunks, dtype, create_array keyword arguments)
    ("i4-raw", (5, 7), (2, 3), "<i4", {"compressors": None, "fill_value": -1}),
    (
        "big-endian-f8-order-F",
        (6, 4),
        (4, 3),
        ">f8",
        {"compressors": None, "order": "F", "fill_value": float("nan")},
    ),
    (
        "u2-blosc-shuffle",
        (9,),
        (4,),
        "<u2",
        {"compressors": numcodecs.Blosc(cname="lz4", shuffle=1)},
    ),
    (
        "u1-blosc-autoshuffle",
        (9,),
        (4,),
        "|u1",
        {"compressors": numcodecs.Blosc(cname="zstd", shuffle=-1), "fill_value": 3},
    ),
    ("c8-gzip", (5,), (2,), "<c8", {"compressors": numcodecs.GZip(level=3)}),
    (
        "b1-zstd-nested-keys",
        (5, 5),
        (2, 2),
        "|b1",
        {
            "compressors": numcodecs.Zstd(level=1),
            "chunk_key_encoding": {"name": "v2", "separator": "/"},
        },
    ),
    ("i8-zero-d", (), (), "<i8", {"compressors": None, "fill_value": 5}),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_upgraded_metadata_reads_the_v2_chunks(tmp_path, case):
    _, shape, chunks, dtype, kwargs = case
    path = str(tmp_path / "v2.zarr")
    order = kwargs.pop("order", "C")
    v2 = zarr.create_array(
        LocalStore(path),
        name="a",
        shape=shape,
        chunks=chunks,
        dtype=dtype,
        zarr_format=2,
        order=order,
        **kwargs,
    )
    rng = np.random.default_rng(1)
    values = rng.integers(0, 100, shape).astype(dtype) if shape else np.array(7, dtype=dtype)
    if shape:
        v2[: max(shape[0] - chunks[0], 0)] = values[: max(shape[0] - chunks[0], 0)]
    else:
        v2[()] = values
    zarray = json.loads((tmp_path / "v2.zarr" / "a" / ".zarray").read_text())
    assert zarray["order"] == order
    document = upgrade_v2_metadata(zarray, {"upgraded": True})
    (tmp_path / "v2.zarr" / "a" / "zarr.json").write_text(json.dumps(document))
    expected = zarr.open_array(LocalStore(path), path="a", mode="r", zarr_format=2)[...]
    ours = FORMAT.open_array(DirectoryStore(path), "a")
    assert ours[...].tobytes() == expected.astype(expected.dtype.newbyteorder("=")).tobytes()
    assert ours.attrs == {"upgraded": True}
    assert document["chunk_key_encoding"]["name"] == "v2"


def test_upgrade_mappings():
    zarray = {
        "zarr_format": 2,
        "shape": [4, 4],
        "chunks": [2, 2],
        "dtype": ">i4",
        "order": "F",
        "fill_value": None,
        "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
        "filters": None,
    }
    document = upgrade_v2_metadata(zarray)
    assert document["codecs"] == [
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        {"name": "bytes", "configuration": {"endian": "big"}},
        {
            "name": "blosc",
            "configuration": {
                "cname": "lz4",
                "clevel": 5,
                "shuffle": "shuffle",
                "typesize": 4,
                "blocksize": 0,
            },
        },
    ]
    assert document["fill_value"] == 0 and document["data_type"] == "int32"
    assert document["chunk_key_encoding"] == {"name": "v2", "configuration": {"separator": "."}}


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"dtype": "<U4"}, "unsupported"),
        ({"dtype": [["a", "<i4"]]}, "unsupported"),
        ({"filters": [{"id": "delta", "dtype": "<i4"}]}, "unsupported"),
        ({"compressor": {"id": "lz4"}}, "unsupported"),
        ({"zarr_format": 3}, "invalid-zarr-format"),
        ({"order": "A"}, "invalid-order"),
    ],
)
def test_upgrade_refuses_what_v3_cannot_express(changes, reason):
    zarray = {
        "zarr_format": 2,
        "shape": [4],
        "chunks": [2],
        "dtype": "<i4",
        "order": "C",
        "fill_value": 0,
        "compressor": None,
        "filters": None,
        **changes,
    }
    with pytest.raises(ZarrError) as info:
        upgrade_v2_metadata(zarray)
    assert info.value.reason == reason
