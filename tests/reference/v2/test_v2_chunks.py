"""Chunk bytes, keys and codecs (V2-CHUNK-001..008, V2-META-007), with hand-built chunk bytes."""

from __future__ import annotations

import struct
import zlib

import numcodecs
import numpy as np
import pytest
from v2_helpers import make_store, zarray

from conformance.reference import MemoryStore
from conformance.reference.errors import ChunkError, MetadataError, ZarrError

F_ORDER_HEX = "000000000300000001000000040000000200000005000000"


def test_zlib_chunk_is_plain_compressor_output(v2):  # V2-CHUNK-001 (R)
    raw = np.arange(4, dtype="<i4").tobytes()
    doc = zarray(shape=[4], chunks=[4], compressor={"id": "zlib", "level": 1})
    assert v2.open_array(make_store({".zarray": doc, "0": zlib.compress(raw)}), "")[:].tolist() == [
        0,
        1,
        2,
        3,
    ]


def test_written_chunk_has_no_header(v2, memory_store):  # V2-CHUNK-001 (W)
    a = v2.create_array(
        memory_store,
        "a",
        v2.array_metadata((6,), (4,), "<i4", compressor={"id": "zlib", "level": 1}),
    )
    a[:] = np.arange(6)
    assert zlib.decompress(memory_store.data["a/0"]) == np.arange(4, dtype="<i4").tobytes()
    # V2-CHUNK-005 (W): the edge chunk is full size, overhang holding the fill
    assert zlib.decompress(memory_store.data["a/1"]) == np.array([4, 5, 0, 0], "<i4").tobytes()


def _delta(values: np.ndarray) -> np.ndarray:
    return np.concatenate([values[:1], np.diff(values)]).astype(values.dtype)


def _shuffle(raw: bytes, size: int) -> bytes:
    return np.frombuffer(raw, np.uint8).reshape(-1, size).T.tobytes()


def test_filters_decode_in_reverse_order(v2):  # V2-CHUNK-002
    values = np.array([5, 7, 100, -3, 2**20, 0], dtype="<i4")
    chunk = zlib.compress(_shuffle(_delta(values).tobytes(), 4))  # delta, then shuffle, then zlib
    doc = zarray(
        shape=[6],
        chunks=[6],
        compressor={"id": "zlib", "level": 1},
        filters=[{"id": "delta", "dtype": "<i4"}, {"id": "shuffle", "elementsize": 4}],
    )
    store = make_store({".zarray": doc, "0": chunk})
    assert v2.open_array(store, "")[:].tolist() == values.tolist()
    # the fixture discriminates: the wrong order gives other values
    wrong = numcodecs.Shuffle(4).decode(numcodecs.Delta("<i4").decode(zlib.decompress(chunk)))
    assert np.frombuffer(wrong, "<i4").tolist() != values.tolist()
    # W: the writer applies them in list order and produces exactly these bytes
    out = MemoryStore()
    v2.create_array(out, "", doc)[:] = values
    assert zlib.decompress(out.data["0"]) == zlib.decompress(chunk)


def test_delta_with_astype_filter(v2):  # V2-CHUNK-002: the spec example's filter
    values = np.array([1.5, 2.25, -8.0, 1e6], "<f8")
    encoded = _delta(values.astype("<f4"))
    doc = zarray(
        dtype="<f8",
        shape=[4],
        chunks=[4],
        filters=[{"id": "delta", "dtype": "<f8", "astype": "<f4"}],
    )
    assert (
        v2.open_array(make_store({".zarray": doc, "0": encoded.tobytes()}), "")[:].tolist()
        == values.tolist()
    )


def test_chunk_key_2_4(v2, memory_store):  # V2-CHUNK-003
    a = v2.create_array(
        memory_store,
        "",
        v2.array_metadata(
            (10000, 10000), (1000, 1000), "|u1", compressor={"id": "zlib", "level": 1}
        ),
    )
    a[2000:3000, 4000:5000] = 1
    assert sorted(k for k in memory_store.data if not k.startswith(".")) == ["2.4"]


def test_missing_chunks_read_as_fill(v2):  # V2-CHUNK-004
    doc = zarray(shape=[4, 4], chunks=[2, 2], fill_value=-9)
    a = v2.open_array(make_store({".zarray": doc, "0.0": np.arange(4, dtype="<i4").tobytes()}), "")
    assert a[:].tolist() == [[0, 1, -9, -9], [2, 3, -9, -9], [-9] * 4, [-9] * 4]


def test_edge_chunk_overhang_is_never_read(v2):  # V2-CHUNK-005 (R)
    sentinel = 0x7EADBEEF
    chunk = np.array([[1, 2], [sentinel, sentinel]], "<i4")  # rows beyond shape[0]=3 hold junk
    doc = zarray(shape=[3, 2], chunks=[2, 2])
    store = make_store(
        {".zarray": doc, "0.0": np.array([[5, 6], [7, 8]], "<i4").tobytes(), "1.0": chunk.tobytes()}
    )
    out = v2.open_array(store, "")[:]
    assert out.tolist() == [[5, 6], [7, 8], [1, 2]] and sentinel not in out


@pytest.mark.parametrize("itemsize_dtype", ["<i4", "|u1", ">f8", [["a", "<i2"], ["b", "|S3"]]])
def test_edge_chunks_are_written_full_size(v2, memory_store, itemsize_dtype):  # V2-CHUNK-005 (W)
    a = v2.create_array(memory_store, "", v2.array_metadata((5, 3), (4, 2), itemsize_dtype))
    a[:] = a.fill_value if a.dtype.names else 1
    assert {len(v) for k, v in memory_store.data.items() if not k.startswith(".")} == {
        8 * a.dtype.itemsize
    }


def test_f_order_reads(v2):  # V2-CHUNK-006 (R)
    doc = zarray(shape=[2, 3], chunks=[2, 3], order="F")
    out = v2.open_array(make_store({".zarray": doc, "0.0": bytes.fromhex(F_ORDER_HEX)}), "")[:]
    assert out.tolist() == np.arange(6).reshape(2, 3).tolist()


def test_f_order_writes_the_same_bytes(v2, memory_store):  # V2-CHUNK-006 (W)
    v2.create_array(memory_store, "", v2.array_metadata((2, 3), (2, 3), "<i4", order="F"))[:] = (
        np.arange(6).reshape(2, 3)
    )
    assert memory_store.data["0.0"] == bytes.fromhex(F_ORDER_HEX)


def test_f_order_3d_with_compressor(
    v2, memory_store
):  # V2-CHUNK-006: column-major over every dimension
    data = np.arange(24, dtype=">i2").reshape(2, 3, 4)
    v2.create_array(
        memory_store,
        "",
        v2.array_metadata(
            (2, 3, 4), (2, 3, 4), ">i2", order="F", compressor={"id": "gzip", "level": 1}
        ),
    )[:] = data
    raw = numcodecs.GZip().decode(memory_store.data["0.0.0"])
    assert bytes(raw) == data.tobytes(order="F")
    assert (v2.open_array(memory_store, "")[:] == data).all()


def test_blosc_output_is_stored_unchanged(v2, memory_store):  # V2-CHUNK-007
    comp = {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}
    a = v2.create_array(memory_store, "", v2.array_metadata((100,), (50,), "<f8", compressor=comp))
    a[:] = np.linspace(0, 1, 100)
    value = memory_store.data["0"]
    _version, _, _, typesize, nbytes, _, cbytes = struct.unpack("<BBBBIII", value[:16])
    assert (nbytes, cbytes, typesize) == (50 * 8, len(value), 8)


@pytest.mark.parametrize("role", ["compressor", "filters"])
def test_unknown_codec_is_an_error_not_raw_bytes(v2, role):  # V2-CHUNK-008
    codec = {"id": "nonexistent-codec"}
    doc = zarray(**{role: codec if role == "compressor" else [codec]})
    store = make_store({".zarray": doc, "0": np.arange(2, dtype="<i4").tobytes()})
    with pytest.raises(MetadataError) as info:
        v2.open_array(store, "")[:]
    assert info.value.reason == "unknown-codec" and info.value.requirement == "V2-CHUNK-008"


@pytest.mark.parametrize(
    "compressor, chunk",
    [
        (None, bytes(7)),  # too short
        (None, bytes(9)),  # too long
        ({"id": "zlib", "level": 1}, b"not zlib at all"),
        ({"id": "zlib", "level": 1}, zlib.compress(bytes(12))),  # decodes to the wrong size
        ({"id": "gzip", "level": 1}, zlib.compress(bytes(8))),  # zlib stream where gzip is declared
        (
            {"id": "blosc"},
            b"\x02\x01\x21\x04" + struct.pack("<III", 8, 8, 99) + bytes(8),
        ),  # cbytes lies
        ({"id": "blosc"}, b"\x02\x01"),
        ({"id": "blosc"}, b"\x02\x01\x21\x04" + struct.pack("<III", 2**31, 8, 24) + bytes(8)),
        ({"id": "zstd", "level": 1}, b"\x28\xb5\x2f\xfd garbage"),
        ({"id": "lz4"}, b"\xff\xff\xff\x7f" + bytes(10)),
        ({"id": "bz2", "level": 1}, b"BZh9 nonsense"),
    ],
)
def test_corrupt_chunks_raise(v2, compressor, chunk):
    store = make_store({".zarray": zarray(compressor=compressor), "0": chunk})
    with pytest.raises(ChunkError) as info:
        v2.open_array(store, "")[:]
    assert info.value.reason == "corrupt-chunk"


def test_checksum_filter_mismatch(v2, memory_store):
    a = v2.create_array(
        memory_store, "", v2.array_metadata((4,), (4,), "<i4", filters=[{"id": "crc32"}])
    )
    a[:] = [1, 2, 3, 4]
    assert v2.open_array(memory_store, "")[:].tolist() == [1, 2, 3, 4]
    damaged = bytearray(memory_store.data["0"])
    damaged[-1] ^= 0x01
    memory_store.data["0"] = bytes(damaged)
    with pytest.raises(ZarrError) as info:
        v2.open_array(memory_store, "")[:]
    assert info.value.reason == "checksum-mismatch"


def test_slash_separator_reads_nested_keys(v2):  # V2-META-007 (R)
    doc = zarray(shape=[2, 2], chunks=[1, 2], dimension_separator="/")
    store = make_store(
        {
            ".zarray": doc,
            "0/0": bytes.fromhex("0100000002000000"),
            "1.0": bytes.fromhex("0900000009000000"),
        }
    )  # a '.' key must be ignored
    assert v2.open_array(store, "")[:].tolist() == [[1, 2], [0, 0]]


def test_absent_separator_means_dot(v2):  # V2-META-007 (R)
    doc = zarray(shape=[2, 2], chunks=[1, 2])
    store = make_store(
        {
            ".zarray": doc,
            "1.0": bytes.fromhex("0300000004000000"),
            "0/0": bytes.fromhex("0900000009000000"),
        }
    )
    assert v2.open_array(store, "")[:].tolist() == [[0, 0], [3, 4]]


@pytest.mark.parametrize(
    "separator, keys",
    [
        ("/", {"g/a/0/0", "g/a/0/1", "g/a/1/0", "g/a/1/1"}),
        (".", {"g/a/0.0", "g/a/0.1", "g/a/1.0", "g/a/1.1"}),
    ],
)
def test_separator_keys_written(v2, memory_store, separator, keys):  # V2-META-007 (W)
    a = v2.create_array(
        memory_store, "g/a", v2.array_metadata((4, 4), (2, 2), "<i4", dimension_separator=separator)
    )
    a[:] = 1
    assert {k for k in memory_store.data if not k.rsplit("/", 1)[-1].startswith(".")} == keys


def test_zero_dimensional_array_uses_key_0(v2, memory_store):  # §9 convention
    a = v2.create_array(memory_store, "s", v2.array_metadata((), (), "<f8", fill_value=1.5))
    assert a[()].tolist() == 1.5
    a[()] = 2.5
    assert memory_store.data["s/0"] == np.float64(2.5).tobytes()
    stored = make_store({".zarray": zarray(shape=[], chunks=[], dtype=">i2"), "0": b"\x01\x02"})
    assert v2.open_array(stored, "")[()] == 0x0102


def test_zero_length_dimension(v2, memory_store):
    a = v2.create_array(memory_store, "", v2.array_metadata((0, 3), (2, 2), "<i4"))
    assert a[:].shape == (0, 3)
    a[:] = 5
    assert sorted(memory_store.data) == [".zarray"]


def test_vlen_utf8_object_arrays(v2, memory_store):  # zarr-python extension tier
    meta = v2.array_metadata(
        (5,),
        (2,),
        object,
        filters=[{"id": "vlen-utf8"}],
        fill_value="∅",
        compressor={"id": "zlib", "level": 1},
    )
    assert meta["dtype"] == "|O" and meta["fill_value"] == "∅"
    a = v2.create_array(memory_store, "", meta)
    a[0:3] = np.array(["a", "", "häh"], dtype=object)
    assert v2.open_array(memory_store, "")[:].tolist() == ["a", "", "häh", "∅", "∅"]
    raw = zlib.decompress(memory_store.data["0"])
    assert raw == struct.pack("<I", 2) + struct.pack("<I", 1) + b"a" + struct.pack("<I", 0)


def test_vlen_bytes_object_arrays(v2, memory_store):
    a = v2.create_array(
        memory_store, "", v2.array_metadata((3,), (3,), object, filters=[{"id": "vlen-bytes"}])
    )
    a[:] = np.array([b"\x00\xff", b"", b"xyz"], dtype=object)
    assert v2.open_array(memory_store, "")[:].tolist() == [b"\x00\xff", b"", b"xyz"]


def test_object_chunk_with_wrong_count_is_corrupt(v2):
    doc = zarray(dtype="|O", fill_value=None, filters=[{"id": "vlen-utf8"}], shape=[2], chunks=[2])
    chunk = bytes(numcodecs.VLenUTF8().encode(np.array(["a", "b", "c"], dtype=object)))
    with pytest.raises(ChunkError):
        v2.open_array(make_store({".zarray": doc, "0": chunk}), "")[:]
