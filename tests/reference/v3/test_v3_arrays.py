"""Array data: chunk keys, the grid, edge chunks, 0-d and empty arrays, and the binary form of each
data type, judged against hand-built chunk bytes (V3-KEY-003, V3-GRID-*, V3-CKE-*, V3-DT-*)."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from conformance.reference import DirectoryStore, MemoryStore, ZipStore
from conformance.reference.formats.v3 import FORMAT

from .helpers import BE, LE, array_doc, expect_reason, open_doc


def grid(*chunk_shape) -> dict:
    return {"name": "regular", "configuration": {"chunk_shape": list(chunk_shape)}}


# ---- keys ----------------------------------------------------------------------------------------


def test_chunk_keys_follow_the_array_prefix():
    """V3-KEY-003: root array chunk (0,0) at c/0/0; array /foo/baz chunk (1,0) at foo/baz/c/1/0."""
    store = MemoryStore()
    root = FORMAT.create_array(
        store, "", FORMAT.array_metadata((2, 2), (2, 2), "uint8", fill_value=0)
    )
    root[...] = 7
    assert sorted(store.data) == ["c/0/0", "zarr.json"]
    store = MemoryStore()
    array = FORMAT.create_array(
        store, "/foo/baz", FORMAT.array_metadata((4, 2), (2, 2), "uint8", fill_value=0)
    )
    array[2:4, :] = 7
    assert "foo/baz/c/1/0" in store.data and "foo/baz/c/0/0" not in store.data


@pytest.mark.parametrize(
    "encoding, key",
    [
        ({"name": "default"}, "c/1/23/45"),
        ({"name": "default", "configuration": {"separator": "/"}}, "c/1/23/45"),
        ({"name": "default", "configuration": {"separator": "."}}, "c.1.23.45"),
        ("default", "c/1/23/45"),
        ({"name": "v2"}, "1.23.45"),
        ({"name": "v2", "configuration": {"separator": "/"}}, "1/23/45"),
        ("v2", "1.23.45"),
    ],
)
def test_chunk_key_encodings(encoding, key):
    """V3-CKE-001, V3-CKE-002, V3-CKE-005, V3-EXT-002."""
    doc = array_doc(
        shape=[2, 24, 46],
        chunk_grid=grid(1, 1, 1),
        chunk_key_encoding=encoding,
        data_type="uint8",
        codecs=[{"name": "bytes"}],
    )
    array = open_doc(doc, "", {key: b"\x2a"})
    assert array.chunk_key((1, 23, 45)) == key
    assert array[1, 23, 45] == 42 and array[0, 0, 0] == 0


def test_default_encoding_ignores_decoy_keys():
    """V3-CKE-002: with {"name": "default"} only c/0/0 is a chunk; c.0.0 is a stray key."""
    doc = array_doc(
        shape=[2, 2],
        chunk_grid=grid(2, 2),
        chunk_key_encoding={"name": "default"},
        data_type="uint8",
        codecs=[{"name": "bytes"}],
    )
    array = open_doc(doc, "", {"c/0/0": bytes([1, 2, 3, 4]), "c.0.0": bytes([9, 9, 9, 9])})
    assert array[:].tolist() == [[1, 2], [3, 4]]


def test_chunk_indices_are_canonical_decimal():
    """V3-CKE-007: `c/01` is not an alias of `c/1`."""
    doc = array_doc(
        shape=[4], chunk_grid=grid(2), data_type="uint8", codecs=[{"name": "bytes"}], fill_value=5
    )
    array = open_doc(doc, "", {"c/01": bytes([1, 2]), "c/00": bytes([3, 4])})
    assert array[:].tolist() == [5, 5, 5, 5]


# ---- the grid ------------------------------------------------------------------------------------


def test_grid_shape_and_keys_of_the_spec_example():
    """V3-GRID-002: shape (10,200,3000) with chunks (5,20,400) writes 2*10*8 = 160 chunks."""
    store = MemoryStore()
    array = FORMAT.create_array(
        store, "", FORMAT.array_metadata((10, 200, 3000), (5, 20, 400), "uint8", fill_value=0)
    )
    array[...] = 1
    chunks = sorted(k for k in store.data if k != "zarr.json")
    assert len(chunks) == 160 and array.grid_shape == (2, 10, 8)
    assert max(chunks, key=lambda k: tuple(map(int, k.split("/")[1:]))) == "c/1/9/7"


def test_element_lookup_in_the_grid():
    """V3-GRID-003: element (7,150,900) lives in chunk (1,7,2) at (2,10,100)."""
    chunk = np.zeros((5, 20, 400), dtype="u1")
    chunk[2, 10, 100] = 99
    doc = array_doc(
        shape=[10, 200, 3000],
        chunk_grid=grid(5, 20, 400),
        data_type="uint8",
        codecs=[{"name": "bytes"}],
    )
    array = open_doc(doc, "", {"c/1/7/2": chunk.tobytes()})
    assert array[7, 150, 900] == 99
    assert int(array[5:10, 140:160, 800:1200].sum()) == 99


def test_edge_chunks_are_full_size_with_fill_in_the_overhang():
    """V3-GRID-004 / V3-GRID-005: shape (30,30), chunks (16,16), int32: every chunk is 1024
    bytes and the out-of-bounds part holds the fill value."""
    store = MemoryStore()
    array = FORMAT.create_array(
        store, "", FORMAT.array_metadata((30, 30), (16, 16), "int32", fill_value=-7)
    )
    array[...] = np.arange(900, dtype="i4").reshape(30, 30)
    for key in ("c/0/0", "c/0/1", "c/1/0", "c/1/1"):
        assert len(store.data[key]) == 1024
    edge = np.frombuffer(store.data["c/1/1"], dtype="<i4").reshape(16, 16)
    assert (edge[14:, :] == -7).all() and (edge[:, 14:] == -7).all()
    assert edge[0, 0] == 16 * 30 + 16


def test_overhang_junk_is_never_read():
    """V3-GRID-006: a sentinel in the out-of-bounds region of an edge chunk is ignored."""
    chunk = np.full(4, 0x7F, dtype="u1")
    chunk[0] = 1
    doc = array_doc(shape=[5], chunk_grid=grid(4), data_type="uint8", codecs=[{"name": "bytes"}])
    array = open_doc(doc, "", {"c/0": bytes([2, 2, 2, 2]), "c/1": chunk.tobytes()})
    assert array[:].tolist() == [2, 2, 2, 2, 1]
    assert int(array[:].sum()) == 9


def test_truncated_edge_chunk_is_an_error():
    """V3-GRID-004 N / V3-BYTES-004: an N5-style truncated edge chunk has the wrong size."""
    doc = array_doc(shape=[5], chunk_grid=grid(4), data_type="int32")
    array = open_doc(doc, "", {"c/1": np.array([1], "<i4").tobytes()})
    expect_reason("corrupt-chunk", array.read)


@pytest.mark.parametrize(
    "encoding, key",
    [
        ({"name": "default"}, "c"),
        ({"name": "v2"}, "0"),
        ({"name": "default", "configuration": {"separator": "."}}, "c"),
    ],
)
def test_zero_dimensional_arrays(encoding, key):
    """V3-GRID-007 / V3-CKE-004 / V3-CKE-005: one chunk, key `c` or `0`."""
    store = MemoryStore()
    meta = FORMAT.array_metadata((), (), "int16", fill_value=3, chunk_key_encoding=encoding)
    array = FORMAT.create_array(store, "s", meta)
    assert array[()] == 3 and array.shape == ()
    array[()] = 5
    assert sorted(store.data) == ["s/" + key, "s/zarr.json", "zarr.json"]
    assert store.data["s/" + key] == b"\x05\x00"
    assert FORMAT.open_array(store, "s")[()] == 5


def test_zero_length_dimension():
    """V3-GRID-008: shape [0, 5] has no chunks; reads are empty; writes store nothing."""
    store = MemoryStore()
    array = FORMAT.create_array(
        store, "", FORMAT.array_metadata((0, 5), (1, 5), "float32", fill_value=1.5)
    )
    array[...] = 2.0
    assert sorted(store.data) == ["zarr.json"]
    assert array[:].shape == (0, 5) and array.grid_shape == (0, 1)
    assert list(array.chunk_indices()) == []


def test_missing_chunks_read_as_fill():
    """V3-FILL-009: an array without any chunk key reads entirely as the fill value."""
    array = open_doc(array_doc(shape=[3, 4], chunk_grid=grid(2, 2), fill_value=-5))
    assert (array[:] == -5).all() and array[:].shape == (3, 4)


# ---- the binary form of each data type (decoded by the bytes codec) -------------------------------


@pytest.mark.parametrize(
    "requirement, data_type, codec, raw, expected",
    [
        ("V3-DT-002", "bool", {"name": "bytes"}, "0001", [False, True]),
        ("V3-DT-003", "int16", LE, "feff", [-2]),
        ("V3-DT-003", "int16", BE, "fffe", [-2]),
        ("V3-DT-003", "uint64", LE, "ff" * 8, [2**64 - 1]),
        ("V3-DT-003", "int64", BE, "80" + "00" * 7, [-(2**63)]),
        ("V3-DT-004", "float16", LE, "003c", [1.0]),
        ("V3-DT-005", "complex64", LE, "0000803f00000040", [1 + 2j]),
        ("V3-DT-005", "complex64", BE, "3f80000040000000", [1 + 2j]),
    ],
)
def test_binary_form_of_data_types(requirement, data_type, codec, raw, expected):
    data = bytes.fromhex(raw)
    n = len(expected)
    doc = array_doc(
        shape=[n],
        chunk_grid=grid(n),
        data_type=data_type,
        codecs=[codec],
        fill_value=_zero(data_type),
    )
    array = open_doc(doc, "", {"c/0": data})
    assert array[:].tolist() == expected
    assert array.dtype.isnative
    # the writer produces the same bytes
    store = MemoryStore()
    written = FORMAT.create_array(store, "", doc)
    written[...] = np.array(expected, dtype=array.dtype)
    assert store.data["c/0"] == data


def _zero(data_type):
    return {"bool": False, "complex64": [0, 0]}.get(data_type, 0)


def test_negative_zero_reads_as_negative_zero():
    """V3-DT-004: float64 -0.0 is 00..00 80 little and keeps its sign."""
    doc = array_doc(shape=[1], chunk_grid=grid(1), data_type="float64", fill_value=0.0)
    value = open_doc(doc, "", {"c/0": bytes.fromhex("0000000000000080")})[:]
    assert value.view("u8")[0] == 0x8000000000000000


def test_raw_bytes_pass_through():
    """V3-DT-007 / V3-FILL-008: r16 bytes come back unchanged; missing elements hold the fill."""
    doc = array_doc(
        shape=[4],
        chunk_grid=grid(2),
        data_type="r16",
        codecs=[{"name": "bytes"}],
        fill_value=[1, 2],
    )
    array = open_doc(doc, "", {"c/0": bytes.fromhex("a1b2c3d4")})
    assert array.dtype == np.dtype("V2")
    assert array[:].tobytes() == bytes.fromhex("a1b2c3d4" + "0102" * 2)


def test_nan_fill_bits_in_missing_chunks():
    """V3-FILL-005 / V3-FILL-006: missing chunks carry the exact fill bits."""
    canonical = open_doc(
        array_doc(shape=[2], chunk_grid=grid(2), data_type="float32", fill_value="NaN")
    )
    assert canonical[:].view("u4").tolist() == [0x7FC00000] * 2
    payload = open_doc(
        array_doc(shape=[2], chunk_grid=grid(2), data_type="float32", fill_value="0x7fc00001")
    )
    assert payload[:].view("u4").tolist() == [0x7FC00001] * 2
    half = open_doc(array_doc(shape=[1], chunk_grid=grid(1), data_type="float16", fill_value="NaN"))
    assert half[:].view("u2").tolist() == [0x7E00]


def test_codec_pipeline_transpose_gzip_crc32c():
    """V3-PIPE-002 with hand-made bytes: transpose [1,0], bytes little, gzip, crc32c."""
    import crc32c

    data = np.arange(6, dtype="<i4").reshape(2, 3)
    payload = gzip.compress(data.T.tobytes())
    stored = payload + crc32c.crc32c(payload).to_bytes(4, "little")
    codecs = [
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        LE,
        {"name": "gzip", "configuration": {"level": 5}},
        {"name": "crc32c"},
    ]
    array = open_doc(
        array_doc(shape=[2, 3], chunk_grid=grid(2, 3), codecs=codecs), "", {"c/0/0": stored}
    )
    assert array[:].tolist() == data.tolist()


def test_order_f_writes_the_v2_f_order_bytes():
    """V3-TRANS-003: transpose [n-1..0] + bytes gives Fortran-order chunk bytes."""
    store = MemoryStore()
    array = FORMAT.create_array(store, "", FORMAT.array_metadata((2, 3), (2, 3), "<i4", order="F"))
    array[...] = np.arange(6).reshape(2, 3)
    assert store.data["c/0/0"] == np.array([0, 3, 1, 4, 2, 5], "<i4").tobytes()


def test_big_endian_numpy_dtype_selects_big_endian_bytes():
    store = MemoryStore()
    meta = FORMAT.array_metadata((2,), (2,), ">u2")
    assert meta["codecs"] == [BE] and meta["data_type"] == "uint16"
    FORMAT.create_array(store, "", meta)[...] = [1, 2]
    assert store.data["c/0"] == bytes.fromhex("00010002")


# ---- extension data types -----------------------------------------------------------------------


def test_datetime_array_round_trip():
    dt = {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}}
    store = MemoryStore()
    array = FORMAT.create_array(store, "", FORMAT.array_metadata((3,), (2,), dt, fill_value="NaT"))
    assert json.loads(store.data["zarr.json"])["fill_value"] == -(2**63)
    array[0:2] = np.array(["1970-01-02", "2000-01-01"], dtype="M8[s]")
    back = FORMAT.open_array(store, "")[:]
    assert back.dtype == np.dtype("M8[s]")
    assert back[0] == np.datetime64(86400, "s") and np.isnat(back[2])
    assert store.data["c/0"][:8] == (86400).to_bytes(8, "little")


def test_string_array_round_trip():
    store = MemoryStore()
    array = FORMAT.create_array(
        store, "", FORMAT.array_metadata((3,), (2,), "string", fill_value="-")
    )
    array[0:2] = np.array(["héllo", ""], dtype=object)
    back = FORMAT.open_array(store, "")[:]
    assert back.dtype == object and back.tolist() == ["héllo", "", "-"]


def test_bytes_array_round_trip():
    store = MemoryStore()
    array = FORMAT.create_array(
        store, "", FORMAT.array_metadata((3,), (3,), "bytes", fill_value=b"\x00")
    )
    array[1:] = np.array([b"ab", b""], dtype=object)
    assert FORMAT.open_array(store, "")[:].tolist() == [b"\x00", b"ab", b""]


def test_bytes_whole_chunk_write():
    store = MemoryStore()
    array = FORMAT.create_array(store, "", FORMAT.array_metadata((2,), (2,), "bytes"))
    array[...] = np.array([b"a", b"bc"], dtype=object)
    assert FORMAT.open_array(store, "")[:].tolist() == [b"a", b"bc"]


# ---- stores --------------------------------------------------------------------------------------


def test_directory_and_zip_stores_read_identically(tmp_path):
    data = np.arange(35, dtype="f8").reshape(5, 7)
    directory = DirectoryStore(str(tmp_path / "d.zarr"))
    FORMAT.create_array(
        directory, "g/a", FORMAT.array_metadata((5, 7), (2, 3), "float64", fill_value="NaN")
    )[...] = data
    zip_path = str(tmp_path / "z.zip")
    with ZipStore(zip_path, "w") as archive:
        for key in directory.list():
            archive.set(key, directory.get(key))
    assert (tmp_path / "d.zarr" / "g" / "a" / "c" / "2" / "2").is_file()
    with ZipStore(zip_path, "r") as archive:
        assert FORMAT.open_array(archive, "g/a")[:].tobytes() == data.tobytes()
    assert FORMAT.open_array(directory, "/g/a")[:].tobytes() == data.tobytes()


def test_partial_reads_of_sharded_arrays_equal_full_reads():
    """V3-PIPE-005: one element of a sharded array, read through the partial path, equals the
    full decode; only the shard index and one inner chunk are fetched."""
    sharding = {
        "name": "sharding_indexed",
        "configuration": {
            "chunk_shape": [2, 2],
            "codecs": [LE],
            "index_codecs": [LE, {"name": "crc32c"}],
        },
    }
    store = MemoryStore()
    meta = FORMAT.array_metadata((8, 8), (4, 4), "int32", codecs=[sharding], fill_value=-1)
    array = FORMAT.create_array(store, "", meta)
    values = np.arange(64, dtype="i4").reshape(8, 8)
    array[...] = values

    fetched = []

    class Logging(MemoryStore):
        def get(self, key):
            fetched.append((key, None))
            return super().get(key)

        def get_partial(self, key, start, length=None):
            fetched.append((key, (start, length)))
            value = self.data.get(key)  # not through get(), so that only this call is logged
            if value is None:
                return None
            start = max(len(value) + start, 0) if start < 0 else start
            return value[start:] if length is None else value[start : start + length]

    logged = Logging(store.data)
    reread = FORMAT.open_array(logged, "")
    fetched.clear()
    assert reread[5, 6] == values[5, 6]
    assert fetched == [
        ("c/1/1", (-68, 68)),
        ("c/1/1", (16, 16)),
    ]  # the index, then inner chunk (0, 1)
    assert reread[1:7, 3:5].tolist() == values[1:7, 3:5].tolist()
    assert reread[:].tolist() == values.tolist()
