"""Reading the layout zarr-python 2.11-2.18 writes under ZARR_V3_EXPERIMENTAL_API (V3DRAFT-ZP2-*).

`data/zp2_store` was written by zarr-python 2.18.7 (see data/README.md and make_zp2_store.py);
the expected values below repeat the formulas that script wrote.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from conformance import reference as ref
from conformance.reference import DirectoryStore, MemoryStore
from conformance.reference.errors import ZarrError
from conformance.reference.formats.v3draft import ZP2, flavour

STORE = Path(__file__).parent / "data" / "zp2_store"
ZP2_ENTRY = {
    "zarr_format": "https://purl.org/zarr/spec/protocol/core/3.0",
    "metadata_encoding": "https://purl.org/zarr/spec/protocol/core/3.0",
    "metadata_key_suffix": ".json",
    "extensions": [],
}


@pytest.fixture
def zp2():
    return DirectoryStore(str(STORE), read_only=True)


def test_fixture_is_the_zp2_layout(zp2, fmt):
    """V3DRAFT-ZP2-001/002: the entry point and key prefixes zarr-python 2 wrote."""
    assert json.loads((STORE / "zarr.json").read_text()) == ZP2_ENTRY
    assert flavour(zp2) == ZP2 == fmt.flavour(zp2)
    keys = set(zp2.list())
    assert "meta/root.group.json" in keys and "meta/root/g/ints.array.json" in keys
    assert all(k == "zarr.json" or k.startswith(("meta/root", "data/root/")) for k in keys)
    assert ref.detect_format(zp2, "g/ints") == "v3-draft"


def test_hierarchy(zp2, fmt):
    assert fmt.children(zp2, "") == {
        "cplx": "array",
        "floats_be": "array",
        "forder": "array",
        "g": "group",
        "implicit": "group",
        "sharded": "array",
    }
    root = fmt.open_group(zp2, "")
    assert root.attrs == {"title": "zarr-python 2.x draft v3 fixture"} and root.flavour == ZP2
    assert fmt.open_group(zp2, "g").attrs == {"spam": "ham", "eggs": 42}
    assert fmt.children(zp2, "g") == {"ints": "array"}
    implicit = fmt.open_group(zp2, "implicit/deep")
    assert (
        implicit.implicit
        and implicit.attrs == {}
        and fmt.children(zp2, "implicit/deep") == {"flags": "array"}
    )


def test_gzip_int32_with_missing_chunks(zp2, fmt):
    a = fmt.open_array(zp2, "g/ints")
    expected = np.full((5, 7), 42, dtype="<i4")
    expected[0:4, :] = np.arange(28, dtype="<i4").reshape(4, 7) - 10
    assert a.dtype == np.dtype("<i4") and a.attrs == {"units": "m"} and a.flavour == ZP2
    np.testing.assert_array_equal(a[:], expected)
    assert a.chunk_key((1, 2)) == "data/root/g/ints/c1/2"
    assert zp2.get("data/root/g/ints/c2/0") is None  # row 2 of the grid was never written


def test_big_endian_float_nan_fill(zp2, fmt):
    a = fmt.open_array(zp2, "floats_be")
    values = a[:]
    assert a.dtype == np.dtype(">f8")
    assert (
        np.isnan(values[:4]).all()
        and values[4] == 0.0
        and np.signbit(values[4])
        and values[5] == 1.5
    )
    assert (
        zp2.get("data/root/floats_be/c1") == np.array([-0.0, 1.5, np.nan, np.nan], ">f8").tobytes()
    )


def test_f_order_blosc_dot_separator(zp2, fmt):
    a = fmt.open_array(zp2, "forder")
    assert a.chunk_key((1, 0)) == "data/root/forder/c1.0"
    np.testing.assert_array_equal(a[:], np.arange(12, dtype="<i2").reshape(3, 4) * 3)
    assert a.fill_value == -1


def test_bool_in_implicit_group_and_complex(zp2, fmt):
    np.testing.assert_array_equal(
        fmt.open_array(zp2, "implicit/deep/flags")[:], [True, False, True, True, False]
    )
    c = fmt.open_array(zp2, "cplx")
    assert c.dtype == np.dtype("<c16")
    assert c[:].tobytes() == np.array([1 + 2j, -3.5 - 0.25j], "<c16").tobytes()


def test_sharded(zp2, fmt):
    """V3DRAFT-ZP2-004: zarr-python 2's sharding transformer URI and index."""
    a = fmt.open_array(zp2, "sharded")
    expected = np.full((6, 5), 7, dtype="<u2")
    expected[0:2, 0:4] = np.arange(8, dtype="<u2").reshape(2, 4) + 100
    expected[4:6, 2:5] = np.arange(6, dtype="<u2").reshape(2, 3) + 200
    np.testing.assert_array_equal(a[:], expected)
    assert sorted(k for k in zp2.list() if k.startswith("data/root/sharded/")) == [
        "data/root/sharded/c0/0",
        "data/root/sharded/c1/0",
        "data/root/sharded/c1/1",
    ]
    # shard (1, 1) holds chunks (2..3, 2..3); only chunk (2, 2) (slot 0, columns 4..5) was written
    shard = zp2.get("data/root/sharded/c1/1")
    index = np.frombuffer(shard[-64:], "<u8").reshape(4, 2)
    assert (index[1:] == 2**64 - 1).all() and not (index[0] == 2**64 - 1).any()
    offset, nbytes = (int(v) for v in index[0])
    assert shard[offset : offset + nbytes] == np.array([[202, 7], [205, 7]], "<u2").tobytes()


def test_writing_zp2_is_refused(zp2, fmt, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(STORE, copy)
    store = DirectoryStore(str(copy))
    with pytest.raises(ZarrError, match="unsupported"):
        fmt.create_group(store, "new")
    with pytest.raises(ZarrError, match="unsupported"):
        fmt.open_group(store, "g").set_attributes({"x": 1})


def _zp2_store(docs: dict, entry=ZP2_ENTRY) -> MemoryStore:
    store = MemoryStore({"zarr.json": json.dumps(entry).encode()})
    for key, value in docs.items():
        store.set(key, value if isinstance(value, bytes) else json.dumps(value).encode())
    return store


def _zp2_array(**overrides) -> dict:
    doc = {
        "attributes": {},
        "chunk_grid": {"chunk_shape": [2], "separator": "/", "type": "regular"},
        "chunk_memory_layout": "C",
        "data_type": "<i8",
        "extensions": [],
        "fill_value": None,
        "shape": [3],
    }
    doc.update(overrides)
    return doc


def test_zp2_synthetic_details(fmt):
    store = _zp2_store(
        {
            "meta/root.array.json": _zp2_array(
                shape=[],
                chunk_grid={"chunk_shape": [], "separator": "/", "type": "regular"},
                data_type=">u8",
            ),
            "data/root/c0": np.array(
                2**64 - 1, ">u8"
            ).tobytes(),  # zarr-python 2 keys a 0-d chunk 'c0'
        }
    )
    a = fmt.open_array(store, "")
    assert a.chunk_key(()) == "data/root/c0" and a[()] == 2**64 - 1 and a.fill_value is None
    store = _zp2_store(
        {
            "meta/root/x.array.json": _zp2_array(
                compressor={
                    "codec": "https://purl.org/zarr/spec/codec/zlib/1.0",
                    "configuration": {"level": 1},
                },
                fill_value="-Infinity",
                data_type="<f4",
            )
        }
    )
    assert np.isneginf(fmt.open_array(store, "x")[:]).all()


@pytest.mark.parametrize(
    "entry",
    [
        {**ZP2_ENTRY, "extra": 1},
        {k: v for k, v in ZP2_ENTRY.items() if k != "metadata_key_suffix"},
        {**ZP2_ENTRY, "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"}},
        {**ZP2_ENTRY, "metadata_key_suffix": "/x"},
    ],
)
def test_zp2_entry_point_rejections(fmt, entry):
    with pytest.raises(ZarrError):
        fmt.node_kind(_zp2_store({}, entry), "")


@pytest.mark.parametrize(
    "overrides, reason",
    [
        ({"data_type": "int32"}, "invalid-data-type"),
        ({"data_type": "<U4"}, "invalid-data-type"),
        (
            {
                "data_type": {
                    "extension": "TODO: unicode array protocol URL",
                    "type": "<U4",
                    "fallback": None,
                }
            },
            "must-understand",
        ),
        ({"codecs": []}, "unknown-field"),
        (
            {
                "compressor": {
                    "codec": "https://purl.org/zarr/spec/codecs/gzip/1.0",
                    "configuration": {"level": 1},
                }
            },
            "unknown-codec",
        ),
        (
            {
                "compressor": {
                    "codec": "https://purl.org/zarr/spec/codec/zstd/1.0",
                    "configuration": {"nope": 1},
                }
            },
            "invalid-codec",
        ),
        ({"fill_value": "+Infinity", "data_type": "<f8"}, "invalid-fill-value"),
        ({"dimension_separator": "."}, "invalid-chunk-key-encoding"),
        (
            {
                "storage_transformers": [
                    {
                        "extension": "https://purl.org/zarr/spec/extensions/storage_transformers/sharding/1.0",
                        "type": "indexed",
                        "configuration": {"chunks_per_shard": [1]},
                    }
                ]
            },
            "must-understand",
        ),
    ],
)
def test_zp2_array_rejections(fmt, overrides, reason):
    store = _zp2_store({"meta/root/x.array.json": _zp2_array(**overrides)})
    with pytest.raises(ZarrError) as err:
        fmt.open_array(store, "x")
    assert err.value.reason == reason
