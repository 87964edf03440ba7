"""v2 -> v3 by rewriting metadata only (V3-V2UP-001, ZEP 1): the document mapping, and stores that
read bit-for-bit identically before and after, with the reference and with zarr-python 3."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from zom_fixtures import raw, zarray

from conformance.reference import DirectoryStore, MemoryStore, get_format, zom
from conformance.reference.errors import MetadataError, UnsupportedError, ZarrError

BLOSC = {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}


def upgraded(**changes):
    return zom.upgrade_v2_array(zarray(**changes), {})


# ---- the document mapping --------------------------------------------------------------------


def test_little_endian_int32():
    doc = zom.upgrade_v2_array(zarray((10, 10), (5, 5), "<i4"), {"a": 1})
    assert doc == {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [10, 10],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [5, 5]}},
        "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}},
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "attributes": {"a": 1},
    }


def test_big_endian_and_separator():
    doc = upgraded(dtype=">i4", dimension_separator="/")
    assert doc["codecs"] == [{"name": "bytes", "configuration": {"endian": "big"}}]
    assert doc["chunk_key_encoding"] == {"name": "v2", "configuration": {"separator": "/"}}


def test_order_f_becomes_a_reversing_transpose():
    doc = upgraded(shape=(2, 3, 4), chunks=(2, 3, 4), order="F")
    assert doc["codecs"][0] == {"name": "transpose", "configuration": {"order": [2, 1, 0]}}
    assert doc["codecs"][1]["name"] == "bytes"


@pytest.mark.parametrize(
    "shuffle, dtype, expected",
    [
        (0, "<i4", "noshuffle"),
        (1, "<i4", "shuffle"),
        (2, "<f8", "bitshuffle"),
        (-1, "|u1", "bitshuffle"),
        (-1, "<i2", "shuffle"),
    ],
)
def test_blosc_shuffle_becomes_a_string_with_typesize(shuffle, dtype, expected):
    doc = upgraded(dtype=dtype, compressor={**BLOSC, "shuffle": shuffle})
    blosc = doc["codecs"][-1]
    assert blosc["name"] == "blosc"
    assert blosc["configuration"]["shuffle"] == expected
    assert blosc["configuration"]["typesize"] == np.dtype(dtype).itemsize
    assert blosc["configuration"]["cname"] == "lz4" and blosc["configuration"]["clevel"] == 5


def test_gzip_and_zstd():
    assert upgraded(compressor={"id": "gzip", "level": 6})["codecs"][-1] == {
        "name": "gzip",
        "configuration": {"level": 6},
    }
    assert upgraded(compressor={"id": "zstd", "level": 3})["codecs"][-1]["name"] == "zstd"
    assert (
        upgraded(compressor={"id": "zstd", "level": 3})["codecs"][-1]["configuration"]["level"] == 3
    )


def test_no_compressor_is_just_bytes_and_one_byte_types_need_no_endian():
    assert upgraded(dtype="|u1")["codecs"] == [{"name": "bytes"}]
    assert upgraded(dtype="|b1", fill_value=True)["data_type"] == "bool"


@pytest.mark.parametrize(
    "dtype, fill, expected",
    [
        ("<f8", "NaN", "NaN"),
        ("<f4", "-Infinity", "-Infinity"),
        ("<f8", None, 0.0),
        ("<i8", None, 0),
        ("|b1", None, False),
        ("<c16", [1.0, "NaN"], [1.0, "NaN"]),
        ("<u8", 18446744073709551615, 18446744073709551615),
        ("<f2", 0.5, 0.5),
    ],
)
def test_fill_values(dtype, fill, expected):
    doc = upgraded(dtype=dtype, fill_value=fill)
    assert doc["fill_value"] == expected and type(doc["fill_value"]) is type(expected)


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"dtype": [["a", "<i4"], ["b", "<f4"]], "fill_value": None}, "structured"),
        ({"dtype": "|S5", "fill_value": None}, "S5"),
        ({"dtype": "<U3", "fill_value": None}, "U3"),
        ({"filters": [{"id": "delta", "dtype": "<i4"}]}, "filters"),
        ({"compressor": {"id": "zlib", "level": 1}}, "zlib"),
        ({"compressor": {"id": "lz4"}}, "lz4"),
    ],
)
def test_what_v3_lacks_is_unsupported_with_a_reason(changes, words):
    with pytest.raises(UnsupportedError) as info:
        upgraded(**changes)
    assert words in str(info.value)
    assert info.value.requirement == "V3-V2UP-001"


def test_empty_filters_are_no_filters():
    assert upgraded(filters=[])["codecs"] == upgraded(filters=None)["codecs"]


@pytest.mark.parametrize(
    "bad", [{"zarr_format": 2}, zarray(order="A"), zarray(dtype="f8"), [], zarray(shape=(-1,))]
)
def test_invalid_v2_metadata_is_refused(bad):
    with pytest.raises(MetadataError):
        zom.upgrade_v2_array(bad, {})


def test_attributes_must_be_an_object():
    with pytest.raises(MetadataError):
        zom.upgrade_v2_array(zarray(), ["x"])


# ---- whole stores: the reference ------------------------------------------------------------------


def reference_values(store, path, version):
    array = get_format(version).open_array(store, path)
    values = array[...]
    return values.dtype.newbyteorder("=").name, values.astype(
        values.dtype.newbyteorder("<")
    ).tobytes()


def make_reference_v2_store() -> MemoryStore:
    v2 = get_format("v2")
    store = MemoryStore()
    v2.create_group(store, "", {"title": "root"})
    rng = np.random.default_rng(5)
    specs = {
        "a/i4": dict(shape=(7, 5), chunks=(3, 2), dtype="<i4", fill_value=-1, compressor=BLOSC),
        "a/be": dict(
            shape=(6, 4),
            chunks=(4, 4),
            dtype=">i4",
            order="F",
            fill_value=7,
            dimension_separator="/",
        ),
        "f8": dict(
            shape=(3, 4, 5),
            chunks=(2, 3, 2),
            dtype="<f8",
            order="F",
            fill_value="NaN",
            compressor={"id": "gzip", "level": 1},
        ),
        "u1": dict(shape=(33,), chunks=(8,), dtype="|u1", compressor={**BLOSC, "shuffle": -1}),
        "b1": dict(
            shape=(5,),
            chunks=(2,),
            dtype="|b1",
            fill_value=True,
            compressor={"id": "zstd", "level": 1},
        ),
        "scalar": dict(shape=(), chunks=(), dtype="<f4", fill_value=1.5),
    }
    for path, spec in specs.items():
        doc = zarray(**{k: v for k, v in spec.items()})
        v2.create_array(store, path, doc, {"name": path})
        array = v2.open_array(store, path)
        dtype = np.dtype(spec["dtype"])
        values = (
            (rng.random(spec["shape"]) * 100).astype(dtype)
            if dtype.kind != "b"
            else rng.random(spec["shape"]) > 0.5
        )
        if spec["shape"]:
            region = tuple(
                slice(0, max(1, n - 2)) for n in spec["shape"]
            )  # leave some chunks missing
            array[region] = values[region]
        else:
            array[...] = values
    return store


def test_upgrade_store_reads_identically_with_the_reference():
    store = make_reference_v2_store()
    before = {
        path: reference_values(store, path, "v2")
        for path, node in zom.iter_nodes(zom.from_store(store))
        if node.kind == "array"
    }
    chunk_keys = {
        k: v for k, v in store.data.items() if not k.endswith((".zarray", ".zgroup", ".zattrs"))
    }
    model = zom.upgrade_store(store)
    assert model.version == 3 and model.attributes == {"title": "root"}
    after = {path: reference_values(store, path, "v3") for path in before}
    assert after == before
    assert {
        k: v
        for k, v in store.data.items()
        if not k.endswith(("zarr.json", ".zarray", ".zgroup", ".zattrs"))
    } == chunk_keys
    assert json.loads(store.get("a/i4/zarr.json"))["attributes"] == {"name": "a/i4"}


def test_upgrade_store_writes_nothing_when_any_array_cannot_upgrade():
    store = make_reference_v2_store()
    get_format("v2").create_array(store, "s", zarray(dtype="|S4", fill_value=None))
    keys = dict(store.data)
    with pytest.raises(UnsupportedError):
        zom.upgrade_store(store)
    assert store.data == keys


def test_upgrade_store_refuses_names_v3_reserves():
    store = MemoryStore(
        {".zgroup": raw({"zarr_format": 2}), "__x/.zgroup": raw({"zarr_format": 2})}
    )
    with pytest.raises(UnsupportedError):
        zom.upgrade_store(store)
    assert "zarr.json" not in store.data


def test_upgrade_store_refuses_to_overwrite_v3_documents():
    store = make_reference_v2_store()
    zom.upgrade_store(store)
    with pytest.raises(ZarrError) as info:
        zom.upgrade_store(store)
    assert info.value.reason == "node-exists"


def test_upgrade_store_can_remove_the_v2_documents():
    store = make_reference_v2_store()
    zom.upgrade_store(store, remove_v2=True)
    assert not [k for k in store.data if k.endswith((".zarray", ".zgroup", ".zattrs"))]
    assert get_format("v3").open_array(store, "a/be")[...].shape == (6, 4)


# ---- whole stores: zarr-python 3 as the second reader ------------------------------------------


def zarr_python_v2_hierarchy(root) -> dict[str, np.ndarray]:
    zarr = pytest.importorskip("zarr")
    from numcodecs import Blosc, GZip, Zstd

    rng = np.random.default_rng(11)
    group = zarr.open_group(
        str(root), mode="w", zarr_format=2, attributes={"made_by": "zarr-python"}
    )
    sub = group.create_group("sub", attributes={"level": 1})
    specs = {
        "i4": (
            group,
            dict(
                shape=(9, 7),
                chunks=(4, 3),
                dtype="<i4",
                fill_value=-3,
                compressors=Blosc(cname="zstd", shuffle=Blosc.SHUFFLE),
            ),
        ),
        "be": (
            group,
            dict(
                shape=(5, 6), chunks=(2, 4), dtype=">i2", order="F", fill_value=9, compressors=None
            ),
        ),
        "nan": (
            sub,
            dict(
                shape=(4, 3, 5),
                chunks=(3, 2, 2),
                dtype="<f8",
                order="F",
                fill_value=np.nan,
                compressors=GZip(level=3),
            ),
        ),
        "u1": (
            sub,
            dict(
                shape=(40,),
                chunks=(16,),
                dtype="|u1",
                fill_value=0,
                compressors=Blosc(shuffle=Blosc.AUTOSHUFFLE),
            ),
        ),
        "c16": (
            sub,
            dict(
                shape=(6,), chunks=(4,), dtype="<c16", fill_value=1 + 2j, compressors=Zstd(level=2)
            ),
        ),
        "flags": (
            group,
            dict(shape=(7,), chunks=(3,), dtype="|b1", fill_value=False, compressors=None),
        ),
    }
    written = {}
    for name, (parent, spec) in specs.items():
        array = parent.create_array(name, **spec)
        dtype = np.dtype(spec["dtype"])
        if dtype.kind == "b":
            values = rng.random(spec["shape"]) > 0.5
        elif dtype.kind == "c":
            values = (rng.random(spec["shape"]) + 1j * rng.random(spec["shape"])).astype(dtype)
        else:
            values = (rng.random(spec["shape"]) * 100).astype(dtype)
        region = tuple(slice(0, max(1, n - 3)) for n in spec["shape"])  # some chunks stay missing
        array[region] = values[region]
        path = name if parent is group else f"sub/{name}"
        written[path] = array[...]
    return written


def as_bytes(values: np.ndarray) -> tuple[str, bytes]:
    values = np.asarray(values)
    return values.dtype.newbyteorder("=").name, values.astype(
        values.dtype.newbyteorder("<")
    ).tobytes()


def test_upgrade_of_a_zarr_python_store_reads_identically_in_zarr_python_3_and_the_reference(
    tmp_path,
):
    zarr = pytest.importorskip("zarr")
    root = tmp_path / "h.zarr"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v2_values = zarr_python_v2_hierarchy(root)
    store = DirectoryStore(str(root), read_only=False)
    reference_before = {path: reference_values(store, path, "v2") for path in v2_values}
    assert reference_before == {path: as_bytes(v) for path, v in v2_values.items()}

    zom.upgrade_store(store)

    warnings.filterwarnings(
        "ignore", message="Object at .z", category=UserWarning
    )  # v2 keys stay beside
    for path, values in v2_values.items():
        v3_array = zarr.open_array(str(root), path=path, mode="r", zarr_format=3)
        assert v3_array.metadata.zarr_format == 3
        assert as_bytes(v3_array[...]) == as_bytes(values), path
        assert reference_values(store, path, "v3") == as_bytes(values), path
    group = zarr.open_group(str(root), mode="r", zarr_format=3)
    assert group.attrs.asdict() == {"made_by": "zarr-python"}
    assert sorted(name for name, _ in group.members(max_depth=None)) == sorted(
        ["sub", "i4", "be", "flags", "sub/nan", "sub/u1", "sub/c16"]
    )
