"""Zarr v1 (seed 004): `meta` / `attrs`, one array per store, compression / compression_opts
(V1-STORE-001, V1-META-001..006, V1-DTYPE-001/002, V1-CHUNK-001..005, V1-ATTR-001)."""

from __future__ import annotations

import json
import zipfile
import zlib

import numcodecs
import numpy as np
import pytest

from conformance.reference import DirectoryStore, MemoryStore, ZipStore
from conformance.reference.errors import MetadataError, NodeNotFoundError, PathError, ZarrError
from conformance.reference.formats.v1 import FORMAT as v1

REQUIRED = [
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compression",
    "compression_opts",
    "fill_value",
    "order",
]
ATTRS = {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}


def meta(**overrides) -> dict:
    doc = {
        "chunks": [2],
        "compression": None,
        "compression_opts": None,
        "dtype": "<i4",
        "fill_value": 0,
        "order": "C",
        "shape": [4],
        "zarr_format": 1,
    }
    doc.update(overrides)
    return {k: v for k, v in doc.items() if v is not ...}


def store_with(doc, chunks: dict | None = None, attrs=None) -> MemoryStore:
    data = {
        "meta": json.dumps(doc).encode(),
        "attrs": json.dumps(attrs if attrs is not None else {}).encode(),
    }
    data.update(chunks or {})
    return MemoryStore(data)


def read(doc, chunks=None):
    return v1.open_array(store_with(doc, chunks), "")[...]


def test_spec_example():  # seed 004 §Example
    store = MemoryStore()
    z = v1.create_array(
        store,
        "",
        v1.array_metadata(
            (20, 20), (10, 10), "i4", fill_value=42, compression="zlib", compression_opts=1
        ),
    )
    assert sorted(store.data) == ["attrs", "meta"]
    assert json.loads(store.data["attrs"]) == {}  # V1-ATTR-001 (W)
    doc = json.loads(store.data["meta"])
    assert doc == {
        "chunks": [10, 10],
        "compression": "zlib",
        "compression_opts": 1,
        "dtype": "<i4",
        "fill_value": 42,
        "order": "C",
        "shape": [20, 20],
        "zarr_format": 1,
    }  # V1-META-002/003 (W)
    z[0:10, 0:10] = 1
    assert sorted(store.data) == ["0.0", "attrs", "meta"]
    z[0:10, 10:20] = 2
    z[10:20, :] = 3
    assert sorted(store.data) == ["0.0", "0.1", "1.0", "1.1", "attrs", "meta"]  # V1-CHUNK-002
    raw = zlib.decompress(store.data["0.0"])  # V1-CHUNK-001 (W)
    assert raw == np.ones(100, "<i4").tobytes()
    z.set_attributes(ATTRS)
    assert json.loads(store.data["attrs"]) == ATTRS
    assert v1.open_array(store, "").attrs == ATTRS


def test_same_fixture_from_directory_and_zip(tmp_path):  # V1-STORE-001
    entries = store_with(meta(shape=[3], chunks=[2]), {"0": zlib.compress(b"")}).data
    entries["meta"] = json.dumps(
        meta(shape=[3], chunks=[2], compression="zlib", compression_opts=1)
    ).encode()
    entries["0"] = zlib.compress(np.array([5, 6], "<i4").tobytes())
    directory = DirectoryStore(tmp_path / "d")
    for k, v in entries.items():
        directory.set(k, v)
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as zf:
        for k, v in entries.items():
            zf.writestr(k, v)
    results = [
        v1.open_array(s, "")[...].tolist()
        for s in (MemoryStore(entries), directory, ZipStore(tmp_path / "a.zip"))
    ]
    assert results == [[5, 6, 0]] * 3


def test_fixture_opens():  # V1-META-001 (R)
    store = store_with(
        meta(shape=[2, 2], chunks=[2, 2]), {"0.0": np.arange(4, dtype="<i4").tobytes()}
    )
    assert v1.node_kind(store, "") == "array"
    assert v1.open_node(store, "")[...].tolist() == [[0, 1], [2, 3]]


@pytest.mark.parametrize("key", REQUIRED)
def test_each_key_is_required(key):  # V1-META-002
    with pytest.raises(MetadataError) as info:
        read(meta(**{key: ...}))
    assert info.value.reason == "missing-field" and info.value.requirement == "V1-META-002"


@pytest.mark.parametrize(
    "overrides, reason",
    [
        ({"zarr_format": 2}, "invalid-zarr-format"),  # V1-META-003
        ({"zarr_format": "1"}, "invalid-zarr-format"),
        ({"order": "A"}, "invalid-order"),  # V1-META-005
        ({"shape": [4, 4]}, "invalid-chunk-shape"),
        ({"shape": [-1]}, "invalid-shape"),
        ({"dtype": "i4"}, "invalid-data-type"),  # V1-DTYPE-001
        ({"dtype": [["a", [["b", "<i4"]]]]}, "invalid-data-type"),  # V1-DTYPE-002: no nesting
        ({"dtype": [["a", "<i4", [2]]]}, "invalid-data-type"),  # ... and no subarray shapes
        ({"dtype": "|O"}, "invalid-data-type"),
        ({"compression": "snappy"}, "unknown-codec"),  # V1-META-006
        ({"compression": 5}, "invalid-codec"),
        ({"compression": "zlib", "compression_opts": "9"}, "invalid-codec"),
        ({"compression": "zlib", "compression_opts": 10}, "invalid-codec"),
        ({"compression": "blosc", "compression_opts": 5}, "invalid-codec"),
        (
            {
                "compression": "blosc",
                "compression_opts": {"clevel": 5, "cname": "nope", "shuffle": 1},
            },
            "invalid-codec",
        ),
        ({"compression": "blosc", "compression_opts": {"level": 5}}, "invalid-codec"),
        ({"fill_value": "NaN"}, "invalid-fill-value"),
        ({"fill_value": 2**31}, "invalid-fill-value"),
    ],
)
def test_invalid_meta_is_rejected(overrides, reason):
    with pytest.raises(ZarrError) as info:
        read(meta(**overrides))
    assert info.value.reason == reason


def test_extra_keys_do_not_change_the_data():  # V1-META-004
    chunks = {"0": np.array([1, 2], "<i4").tobytes()}
    assert (
        read(meta(foo={"order": "F", "dtype": ">i4"}), chunks).tolist()
        == read(meta(), chunks).tolist()
        == [1, 2, 0, 0]
    )


def test_f_order():  # V1-META-005
    raw = np.array([0, 3, 1, 4, 2, 5], "<i4").tobytes()
    out = read(meta(shape=[2, 3], chunks=[2, 3], order="F"), {"0.0": raw})
    assert out.tolist() == np.arange(6).reshape(2, 3).tolist()
    store = MemoryStore()
    v1.create_array(store, "", v1.array_metadata((2, 3), (2, 3), "<i4", order="F"))[...] = (
        np.arange(6).reshape(2, 3)
    )
    assert store.data["0.0"] == raw


def test_zlib_and_blosc_fixtures():  # V1-META-006, V1-CHUNK-001
    values = np.linspace(-1, 1, 8)
    z = read(
        meta(dtype="<f8", shape=[8], chunks=[8], compression="zlib", compression_opts=1),
        {"0": zlib.compress(values.tobytes(), 1)},
    )
    opts = {"clevel": 5, "cname": "lz4", "shuffle": 1}
    b = read(
        meta(dtype="<f8", shape=[8], chunks=[8], compression="blosc", compression_opts=opts),
        {"0": numcodecs.Blosc(**opts).encode(values)},
    )
    assert z.tobytes() == b.tobytes() == values.tobytes()


@pytest.mark.parametrize(
    "compression, opts",
    [
        (None, None),
        ("none", None),
        ("zlib", 9),
        ("zlib", None),
        ("bz2", 1),
        ("lzma", None),
        ("lzma", {"preset": 1}),
        ("blosc", {"clevel": 1, "cname": "zstd", "shuffle": 2}),
    ],
)
def test_compressions_round_trip(compression, opts):
    store = MemoryStore()
    data = (np.arange(30).reshape(5, 6) ** 3).astype(">i8")
    v1.create_array(
        store,
        "",
        v1.array_metadata((5, 6), (2, 4), ">i8", compression=compression, compression_opts=opts),
    )[...] = data
    assert v1.open_array(store, "")[...].tobytes() == data.tobytes()
    if compression in (None, "none"):
        assert store.data["0.0"] == data[0:2, 0:4].tobytes()


def test_big_endian_dtype():  # V1-DTYPE-001
    assert read(
        meta(dtype=">i4", shape=[1], chunks=[1]), {"0": bytes.fromhex("00000001")}
    ).tolist() == [1]


def test_structured_rgb():  # V1-DTYPE-002
    doc = meta(
        dtype=[["r", "|u1"], ["g", "|u1"], ["b", "|u1"]], shape=[2], chunks=[2], fill_value=None
    )
    out = read(doc, {"0": bytes([1, 2, 3, 4, 5, 6])})
    assert out.dtype.itemsize == 3 and out["g"].tolist() == [2, 5]


def test_missing_chunks_read_as_fill():  # V1-CHUNK-003
    assert read(meta(fill_value=42)).tolist() == [42] * 4


def test_null_fill_reads_without_error():  # V1-CHUNK-004
    assert read(meta(fill_value=None)).shape == (4,)


def test_edge_chunk_overhang():  # V1-CHUNK-005
    out = read(
        meta(shape=[5], chunks=[4]),
        {"0": np.arange(4, dtype="<i4").tobytes(), "1": np.array([7, 99, 99, 99], "<i4").tobytes()},
    )
    assert out.tolist() == [0, 1, 2, 3, 7]
    store = MemoryStore()
    v1.create_array(
        store, "", v1.array_metadata((5,), (4,), "<i4", compression="zlib", compression_opts=1)
    )[...] = 1
    assert len(zlib.decompress(store.data["1"])) == 4 * 4


def test_fixture_attributes_unchanged():  # V1-ATTR-001 (R)
    store = store_with(meta(), attrs=ATTRS)
    assert v1.open_array(store, "").attrs == ATTRS


def test_missing_attrs_is_noted():  # V1-ATTR-001
    store = store_with(meta())
    del store.data["attrs"]
    array = v1.open_array(store, "")
    assert array.attrs == {} and any("V1-ATTR-001" in n for n in array.notes)


def test_fills():
    assert (
        read(meta(dtype="|S3", fill_value="ab")).tolist() == [b"ab"] * 4
    )  # plain string, no Base64 in v1
    assert np.isnan(read(meta(dtype="<f4", fill_value="NaN"))).all()
    assert v1.array_metadata((2,), (2,), "<f8", fill_value=float("inf"))["fill_value"] == "Infinity"
    assert v1.array_metadata((2,), (2,), "|S2", fill_value=b"x")["fill_value"] == "x"
    with pytest.raises(MetadataError):
        read(meta(dtype=[["a", "<i4"]], fill_value="AAAAAA=="))


def test_no_hierarchy():  # V1-STORE-001
    store = store_with(meta())
    assert v1.children(store, "") == {}
    assert v1.node_kind(store, "x") is None
    with pytest.raises(PathError):
        v1.normalize_path("a/b")
    assert v1.normalize_path("/") == ""
    with pytest.raises(ZarrError):
        v1.create_group(MemoryStore(), "")
    with pytest.raises(NodeNotFoundError):
        v1.open_group(store, "")
    with pytest.raises(PathError):
        v1.create_array(MemoryStore(), "sub", v1.array_metadata((2,), (2,), "<i4"))


def test_existing_array_needs_overwrite():
    store = MemoryStore()
    v1.create_array(store, "", v1.array_metadata((4,), (2,), "<i4"))[...] = 5
    with pytest.raises(ZarrError) as info:
        v1.create_array(store, "", v1.array_metadata((4,), (2,), "<i4"))
    assert info.value.reason == "node-exists"
    v1.create_array(store, "", v1.array_metadata((3,), (3,), "<f8"), overwrite=True)
    assert sorted(store.data) == ["attrs", "meta"]


@pytest.mark.parametrize(
    "dtype",
    [
        "|b1",
        "<u2",
        ">f4",
        "<c16",
        "|S4",
        ">U2",
        "<M8[ms]",
        [["x", ">i2"], ["y", "<f8"], ["s", "|S1"]],
    ],
)
@pytest.mark.parametrize("order", ["C", "F"])
def test_round_trip_dtypes(dtype, order):
    store = MemoryStore()
    array = v1.create_array(
        store,
        "",
        v1.array_metadata(
            (5, 3), (2, 2), dtype, order=order, compression="zlib", compression_opts=1
        ),
    )
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 256, 15 * array.dtype.itemsize, dtype=np.uint8).tobytes()
    data = np.frombuffer(raw, array.dtype).reshape(5, 3).copy()
    if array.dtype.kind == "b":
        data = rng.integers(0, 2, (5, 3)).astype(bool)
    if array.dtype.kind == "U":
        data = np.array([["ab", "é", ""]] * 5, dtype=array.dtype)
    array[...] = data
    assert v1.open_array(store, "")[...].tobytes() == data.tobytes()


@pytest.mark.parametrize(
    "dtype, fill", [("|S3", ""), ("<U2", ""), ([["a", "<i4"]], None), ("<i4", 0), ("<f4", 0.0)]
)
def test_default_fill(dtype, fill):
    assert v1.array_metadata((2,), (2,), dtype)["fill_value"] == fill
