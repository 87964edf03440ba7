"""A second opinion from zarr-python 3 (its zarr_format=2 mode): stores the reference writes read
identically there, and the reverse, bit for bit; where both wrote a chunk, the bytes agree."""

from __future__ import annotations

import json

import numcodecs
import numpy as np
import pytest

from conformance.reference import DirectoryStore
from conformance.reference.formats.v2 import FORMAT as v2

zarr = pytest.importorskip("zarr")
pytestmark = pytest.mark.second_opinion

# zarr-python 3.1.6 has no structured type with subarray fields (V2-DTYPE-007), so none here.
STRUCT = [("a", "<i4"), ("b", ">f4"), ("c", "|S2"), ("d", "<c8")]

# (id, dtype, shape, chunks, order, compressor, filters, separator, fill)
CASES = [
    ("i4-zlib", "<i4", (7, 5), (3, 2), "C", numcodecs.Zlib(level=1), None, ".", 42),
    (
        "f8be-blosc-F",
        ">f8",
        (6, 7),
        (4, 3),
        "F",
        numcodecs.Blosc("lz4", 5, 1),
        None,
        "/",
        float("nan"),
    ),
    ("u1-raw", "|u1", (9,), (4,), "C", None, None, ".", 7),
    ("c16-gzip-F", "<c16", (3, 4), (2, 3), "F", numcodecs.GZip(level=1), None, ".", complex(1, -1)),
    ("S5-zstd", "|S5", (5,), (2,), "C", numcodecs.Zstd(level=1), None, ".", b"ab"),
    ("U3be-lz4-F", ">U3", (4, 3), (3, 2), "F", numcodecs.LZ4(), None, "/", "xy"),
    ("struct-zlib", STRUCT, (5,), (2,), "C", numcodecs.Zlib(level=1), None, ".", bytes(range(18))),
    ("struct-null-fill", STRUCT, (5, 2), (2, 2), "F", None, None, ".", None),
    ("b1-bz2-F", "|b1", (5, 3), (2, 2), "F", numcodecs.BZ2(level=1), None, ".", True),
    ("M8ns-raw", "<M8[ns]", (6,), (4,), "C", None, None, ".", None),
    (
        "i8-delta-blosc",
        "<i8",
        (10,),
        (4,),
        "C",
        numcodecs.Blosc("zstd", 3, 2),
        [numcodecs.Delta("<i8")],
        ".",
        -1,
    ),
    (
        "f4be-3d-F",
        ">f4",
        (3, 4, 5),
        (2, 3, 2),
        "F",
        numcodecs.Zlib(level=3),
        None,
        "/",
        float("-inf"),
    ),
    ("scalar", "<f8", (), (), "C", None, None, ".", 0.5),
]


def sample(dtype: np.dtype, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype.kind == "U":
        letters = rng.choice(list("abcxyzäß€"), size=(*shape, dtype.itemsize // 4))
        return np.array(
            ["".join(row) for row in letters.reshape(-1, letters.shape[-1])], dtype=dtype
        ).reshape(shape)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    if dtype.kind in "Mm":
        return rng.integers(-(2**62), 2**62, size=shape).astype(dtype.str[0] + "i8").view(dtype)
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).tobytes()
    data = np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
    if dtype.kind in "fc":  # NaNs with payloads are values too, but keep the comparison readable
        data[np.isnan(data)] = 0
    return data


def region_of(shape, fill):
    """A region that leaves some chunks unwritten, so that both read missing chunks as fill; with
    no fill (undefined contents) everything is written."""
    if fill is None:
        return tuple(slice(None) for _ in shape)
    return tuple(slice(0, max(1, n - 2)) for n in shape)


def canonical(doc: dict) -> dict:
    """A .zarray document with codec configs completed by numcodecs and the default separator."""
    doc = dict(doc)
    doc.setdefault("dimension_separator", ".")
    if doc["compressor"] is not None:
        doc["compressor"] = numcodecs.get_codec(doc["compressor"]).get_config()
    if doc["filters"]:
        doc["filters"] = [numcodecs.get_codec(f).get_config() for f in doc["filters"]]
    fill = doc.pop("fill_value")
    doc["fill_value"] = "NaN" if isinstance(fill, float) and np.isnan(fill) else fill
    return doc


def reference_array(path, case):
    _, dtype, shape, chunks, order, compressor, filters, separator, fill = case
    if isinstance(dtype, list):
        dtype = np.dtype(dtype)
    meta = v2.array_metadata(
        shape,
        chunks,
        dtype,
        fill_value=fill,
        order=order,
        compressor=compressor,
        filters=filters,
        dimension_separator=separator,
    )
    return v2.create_array(
        DirectoryStore(path), "g/arr", meta, attributes={"made_by": "reference", "ü": [1]}
    )


def zarr_array(path, case):
    _, dtype, shape, chunks, order, compressor, filters, separator, fill = case
    return zarr.create_array(
        store=str(path),
        name="g/arr",
        shape=shape,
        chunks=chunks,
        dtype=np.dtype(dtype),
        zarr_format=2,
        order=order,
        compressors=compressor,
        filters=filters,
        fill_value=fill,
        chunk_key_encoding={"name": "v2", "separator": separator},
        attributes={"made_by": "zarr-python", "ü": [1]},
    )


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return (
        a.dtype == b.dtype
        and a.dtype.str == b.dtype.str
        and a.shape == b.shape
        and (np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes())
    )


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_zarr_python_reads_what_the_reference_writes(tmp_path, case):
    array = reference_array(tmp_path, case)
    data = sample(array.dtype, array.shape, 1)
    region = region_of(array.shape, case[-1])
    array[region] = data[region]
    expected = array[...]
    theirs = zarr.open_array(str(tmp_path), path="g/arr", zarr_format=2, mode="r")
    assert same_bits(np.asarray(theirs[...]), expected)
    assert dict(theirs.attrs) == {"made_by": "reference", "ü": [1]}
    assert zarr.open_group(str(tmp_path), path="g", zarr_format=2, mode="r").attrs.asdict() == {}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_reference_reads_what_zarr_python_writes(tmp_path, case):
    theirs = zarr_array(tmp_path, case)
    data = sample(np.dtype(case[1]), theirs.shape, 2)
    region = region_of(theirs.shape, case[-1])
    theirs[region] = data[region]
    ours = v2.open_array(DirectoryStore(tmp_path), "g/arr")
    assert ours.notes == []
    assert same_bits(ours[...], np.asarray(theirs[...]))
    assert ours.attrs == {"made_by": "zarr-python", "ü": [1]}
    assert v2.open_group(DirectoryStore(tmp_path), "g").children() == {"arr": "array"}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_both_write_the_same_chunk_bytes(tmp_path, case):
    ours = reference_array(tmp_path / "ours", case)
    theirs = zarr_array(tmp_path / "theirs", case)
    data = sample(ours.dtype, ours.shape, 3)
    ours[...] = data
    theirs[...] = data
    ours_store, theirs_store = (
        DirectoryStore(tmp_path / "ours"),
        DirectoryStore(tmp_path / "theirs"),
    )
    # With no fill, an edge chunk's overhang is undefined (V2-CHUNK-005): compare whole chunks only.
    whole = [
        i
        for i in ours.chunk_indices()
        if case[-1] is not None
        or all((n + 1) * c <= s for n, c, s in zip(i, ours.chunks, ours.shape))
    ]
    shared = [ours.chunk_key(i) for i in whole if theirs_store.contains(ours.chunk_key(i))]
    assert shared, "no chunk to compare"
    for key in shared:
        assert ours_store.get(key) == theirs_store.get(key), key
    # and the metadata documents say the same thing (key order, spacing and codec defaults aside)
    our_doc = json.loads(ours_store.get("g/arr/.zarray"))
    their_doc = json.loads(theirs_store.get("g/arr/.zarray"))
    assert canonical(our_doc) == canonical(their_doc)


def test_vlen_utf8_both_ways(tmp_path):
    values = np.array(["", "a", "häh", "€€€", "x" * 40], dtype=object)
    meta = v2.array_metadata(
        (5,),
        (2,),
        object,
        fill_value="",
        filters=[{"id": "vlen-utf8"}],
        compressor={"id": "zlib", "level": 1},
    )
    v2.create_array(DirectoryStore(tmp_path / "ours"), "s", meta)[:] = values
    assert (
        zarr.open_array(str(tmp_path / "ours"), path="s", zarr_format=2, mode="r")[...].tolist()
        == values.tolist()
    )
    theirs = zarr.create_array(
        store=str(tmp_path / "theirs"),
        name="s",
        shape=(5,),
        chunks=(2,),
        dtype=str,
        zarr_format=2,
        compressors=numcodecs.Zlib(level=1),
    )
    theirs[...] = values.astype(str)
    assert v2.open_array(DirectoryStore(tmp_path / "theirs"), "s")[...].tolist() == values.tolist()
