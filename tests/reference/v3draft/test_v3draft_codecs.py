"""Codecs by URI and the sharding storage transformer (V3DRAFT-META-012..015, META-019)."""

from __future__ import annotations

import gzip
import json
import struct
import zlib

import numcodecs
import numpy as np
import pytest

from conformance.reference import MemoryStore
from conformance.reference.errors import ChunkError, ZarrError
from conformance.reference.formats.v3draft import sharding

GZIP = "https://purl.org/zarr/spec/codecs/gzip/1.0"
BLOSC = "https://purl.org/zarr/spec/codecs/blosc/1.0"
ENDIAN = "https://purl.org/zarr/spec/codecs/endian/1.0"
SHARDING = "https://purl.org/zarr/spec/extensions/storage_transformers/sharding/1.0"
EMPTY = 2**64 - 1


def _write(fmt, codecs, dtype="int32", data=None, **kw):
    store = MemoryStore()
    data = np.arange(12, dtype=dtype).reshape(3, 4) - 5 if data is None else data
    a = fmt.create_array(
        store, "a", fmt.array_metadata(data.shape, data.shape, dtype, codecs=codecs, **kw)
    )
    a[:] = data
    np.testing.assert_array_equal(fmt.open_array(store, "a")[:], data)
    return store, data


def test_gzip_exact_uri_and_bytes(fmt):
    """V3DRAFT-META-013: the written chunk is RFC 1952 gzip of the little-endian C bytes."""
    store, data = _write(fmt, [{"type": GZIP, "configuration": {"level": 5}}])
    chunk = store.data["data/a/c0/0"]
    assert chunk[:3] == b"\x1f\x8b\x08"
    assert gzip.decompress(chunk) == data.astype("<i4").tobytes()
    assert json.loads(store.data["meta/a.array.json"])["codecs"] == [
        {"type": GZIP, "configuration": {"level": 5}}
    ]


def test_gzip_reads_foreign_streams(fmt, make_store, array_doc):
    raw = np.arange(6, dtype="<i4").tobytes()
    doc = array_doc(shape=[2, 3], codecs=[{"type": GZIP, "configuration": {"level": 1}}])
    for stored in (
        gzip.compress(raw, 9),
        zlib.compress(raw),
        gzip.compress(raw[:12]) + gzip.compress(raw[12:]),
    ):
        a = fmt.open_array(make_store({"meta/a.array.json": doc, "data/a/c0/0": stored}), "a")
        np.testing.assert_array_equal(a[:], np.arange(6).reshape(2, 3))


@pytest.mark.parametrize(
    "stored",
    [
        gzip.compress(np.arange(7, dtype="<i4").tobytes(), mtime=0),  # too many bytes
        gzip.compress(np.arange(5, dtype="<i4").tobytes(), mtime=0),  # too few
        gzip.compress(np.arange(6, dtype="<i4").tobytes(), mtime=0)[:-4],  # truncated
        b"\x1f\x8b\x08garbage",
        gzip.compress(bytes(10**7), mtime=0),  # a bomb stops at the chunk size
    ],
    ids=["too-many", "too-few", "truncated", "garbage", "bomb"],
)
def test_gzip_corrupt_chunks(fmt, make_store, array_doc, stored):
    doc = array_doc(shape=[2, 3], codecs=[{"type": GZIP, "configuration": {"level": 1}}])
    a = fmt.open_array(make_store({"meta/a.array.json": doc, "data/a/c0/0": stored}), "a")
    with pytest.raises(ChunkError, match="corrupt-chunk"):
        a[:]


def test_endian_big(fmt):
    store, data = _write(
        fmt, [{"type": ENDIAN, "configuration": {"endian": "big"}}], dtype="float64"
    )
    assert store.data["data/a/c0/0"] == data.astype(">f8").tobytes()
    store, data = _write(
        fmt, [{"type": ENDIAN, "configuration": {"endian": "little"}}], dtype="uint16"
    )
    assert store.data["data/a/c0/0"] == data.astype("<u2").tobytes()


def test_endian_big_with_f_layout_then_gzip(fmt):
    codecs = [
        {"type": ENDIAN, "configuration": {"endian": "big"}},
        {"type": GZIP, "configuration": {"level": 1}},
    ]
    store, data = _write(
        fmt,
        codecs,
        dtype="complex64",
        data=np.array([[1 + 2j, 3], [-1j, 0.5]], "<c8"),
        order="F",
        fill_value=0,
    )
    assert gzip.decompress(store.data["data/a/c0/0"]) == data.astype(">c8").tobytes(order="F")


@pytest.mark.parametrize("shuffle", [0, 1, 2, -1])
def test_blosc_integer_shuffle(fmt, shuffle):
    config = {"cname": "lz4", "clevel": 5, "shuffle": shuffle, "blocksize": 0}
    store, data = _write(
        fmt,
        [{"type": BLOSC, "configuration": config}],
        dtype="uint16",
        data=np.arange(400, dtype="<u2").reshape(20, 20),
    )
    chunk = store.data["data/a/c0/0"]
    _version, _, flags, typesize, nbytes, _, cbytes = struct.unpack("<BBBBIII", chunk[:16])
    assert (typesize, nbytes, cbytes) == (2, 800, len(chunk))
    assert numcodecs.blosc.decompress(chunk) == data.tobytes()
    if shuffle in (1, -1):
        assert flags & 0x1  # byte shuffle (auto picks it for 2-byte items)
    if shuffle == 2:
        assert flags & 0x4


def test_blosc_reads_any_blosc_stream(fmt, make_store, array_doc):
    raw = np.arange(6, dtype="<i4").tobytes()
    stored = numcodecs.Blosc(cname="zstd", clevel=9, shuffle=2).encode(raw)  # config says lz4
    config = {"cname": "lz4", "clevel": 1, "shuffle": 1}
    doc = array_doc(shape=[2, 3], codecs=[{"type": BLOSC, "configuration": config}])
    a = fmt.open_array(make_store({"meta/a.array.json": doc, "data/a/c0/0": bytes(stored)}), "a")
    np.testing.assert_array_equal(a[:], np.arange(6).reshape(2, 3))
    lying = bytearray(stored)
    lying[4:8] = struct.pack("<I", 10**8)  # header claims a huge chunk
    b = fmt.open_array(make_store({"meta/a.array.json": doc, "data/a/c0/0": bytes(lying)}), "a")
    with pytest.raises(ChunkError, match="corrupt-chunk"):
        b[:]


def test_blosc_header_checked_before_decompressing(fmt, make_store, array_doc, monkeypatch):
    """A header claiming more bytes than the chunk holds is refused without allocating them."""
    big = numcodecs.Blosc(cname="lz4", clevel=1, shuffle=0).encode(bytes(1 << 20))
    config = {"cname": "lz4", "clevel": 1, "shuffle": 0}
    doc = array_doc(shape=[2, 3], codecs=[{"type": BLOSC, "configuration": config}])
    a = fmt.open_array(make_store({"meta/a.array.json": doc, "data/a/c0/0": bytes(big)}), "a")

    calls = []
    monkeypatch.setattr(
        numcodecs.blosc, "decompress", lambda *args, **kwargs: calls.append(args) or b""
    )
    with pytest.raises(ChunkError, match="corrupt-chunk"):
        a[:]
    assert calls == []


@pytest.mark.parametrize(
    "codecs, reason",
    [
        (
            [{"type": "https://purl.org/zarr/spec/codec/gzip", "configuration": {"level": 1}}],
            "unknown-codec",
        ),
        ([{"type": "gzip", "configuration": {"level": 1}}], "unknown-codec"),
        ([{"name": "gzip", "configuration": {"level": 1}}], "invalid-codec"),
        ([{"type": GZIP}], "invalid-codec"),
        ([{"type": GZIP, "configuration": {"level": 10}}], "invalid-codec"),
        ([{"type": GZIP, "configuration": {"level": True}}], "invalid-codec"),
        ([{"type": GZIP, "configuration": {"level": 1, "x": 0}}], "invalid-codec"),
        ([{"type": GZIP, "configuration": {"level": 1}, "extra": 1}], "invalid-codec"),
        (
            [{"type": BLOSC, "configuration": {"cname": "lz4", "clevel": 1, "shuffle": "shuffle"}}],
            "invalid-codec",
        ),
        (
            [
                {
                    "type": BLOSC,
                    "configuration": {"cname": "lz4", "clevel": 1, "shuffle": 1, "typesize": 4},
                }
            ],
            "invalid-codec",
        ),
        (
            [{"type": BLOSC, "configuration": {"cname": "lzma", "clevel": 1, "shuffle": 1}}],
            "invalid-codec",
        ),
        ([{"type": BLOSC, "configuration": {"cname": "lz4", "shuffle": 1}}], "invalid-codec"),
        ([{"type": ENDIAN, "configuration": {}}], "invalid-codec"),
        ([{"type": ENDIAN, "configuration": {"endian": "native"}}], "invalid-codec"),
        (
            [
                {"type": GZIP, "configuration": {"level": 1}},
                {"type": ENDIAN, "configuration": {"endian": "big"}},
            ],
            "codec-order",
        ),
        ({"type": GZIP}, "invalid-codec"),
    ],
)
def test_codec_rejections(fmt, make_store, array_doc, codecs, reason):
    store = make_store({"meta/a.array.json": array_doc(codecs=codecs)})
    with pytest.raises(ZarrError) as err:
        fmt.open_array(store, "a")
    assert err.value.reason == reason


def test_empty_codecs_and_transformers(fmt, make_store, array_doc):
    """V3DRAFT-META-012/014: [] means none."""
    chunk = np.arange(6, dtype="<i4").tobytes()
    a = fmt.open_array(
        make_store(
            {
                "meta/a.array.json": array_doc(codecs=[], storage_transformers=[]),
                "data/a/c0/0": chunk,
            }
        ),
        "a",
    )
    np.testing.assert_array_equal(a[0:2, 0:3], np.arange(6).reshape(2, 3))


def test_edge_chunks_are_full_size_with_fill(fmt):
    """V3DRAFT-META-019: the overhang of an edge chunk holds the fill value."""
    store = MemoryStore()
    a = fmt.create_array(store, "e", fmt.array_metadata((5,), (4,), "int16", fill_value=9))
    a[:] = [1, 2, 3, 4, 5]
    assert store.data["data/e/c1"] == np.array([5, 9, 9, 9], "<i2").tobytes()


# ---- sharding (V3DRAFT-META-015) ---------------------------------------------------------------
def _index(shard: bytes, slots: int) -> list[tuple[int, int]]:
    raw = np.frombuffer(shard[-16 * slots :], "<u8").reshape(slots, 2)
    return [(int(o), int(n)) for o, n in raw]


def test_sharding_chunk_3_2_lives_in_shard_c1_1(fmt):
    store = MemoryStore()
    meta = fmt.array_metadata(
        (8, 6), (2, 2), "uint8", fill_value=0, storage_transformers=[sharding([2, 2])]
    )
    assert meta["storage_transformers"] == [
        {"extension": SHARDING, "type": "indexed", "configuration": {"chunks_per_shard": [2, 2]}}
    ]
    a = fmt.create_array(store, "s", meta)
    a[6:8, 4:6] = [[1, 2], [3, 4]]  # chunk grid position (3, 2)
    assert sorted(k for k in store.data if k.startswith("data/")) == ["data/s/c1/1"]
    shard = store.data["data/s/c1/1"]
    assert len(shard) == 4 + 16 * 4
    # (3, 2) is slot (1, 0) of its shard: C order slot 2; no checksum, nothing else
    assert _index(shard, 4) == [(EMPTY, EMPTY), (EMPTY, EMPTY), (0, 4), (EMPTY, EMPTY)]
    assert shard[:4] == bytes([1, 2, 3, 4])
    assert a.store.get("data/s/c3/2") == bytes([1, 2, 3, 4]) and a.store.get("data/s/c2/2") is None
    np.testing.assert_array_equal(fmt.open_array(store, "s")[6:8, 4:6], [[1, 2], [3, 4]])


def test_sharding_full_write_layout_and_listing(fmt):
    store = MemoryStore()
    meta = fmt.array_metadata(
        (4, 3),
        (2, 2),
        "int16",
        fill_value=-1,
        separator=".",
        storage_transformers=[sharding([2, 1])],
        codecs=[{"type": GZIP, "configuration": {"level": 1}}],
    )
    a = fmt.create_array(store, "s", meta)
    data = np.arange(12, dtype="<i2").reshape(4, 3)
    a[:] = data
    assert sorted(k for k in store.data if k.startswith("data/")) == ["data/s/c0.0", "data/s/c0.1"]
    shard = store.data["data/s/c0.1"]  # chunks (0, 1) and (1, 1): columns 2..3, edge chunks
    (o0, n0), (o1, n1) = _index(shard, 2)
    assert o0 == 0 and o1 == n0 and o1 + n1 == len(shard) - 32
    assert gzip.decompress(shard[o1 : o1 + n1]) == np.array([[8, -1], [11, -1]], "<i2").tobytes()
    assert sorted(k for k in a.store.list() if k.startswith("data/")) == [
        "data/s/c0.0",
        "data/s/c0.1",
        "data/s/c1.0",
        "data/s/c1.1",
    ]
    np.testing.assert_array_equal(fmt.open_array(store, "s")[:], data)
    a.store.erase("data/s/c1.1")
    assert _index(store.data["data/s/c0.1"], 2)[1] == (EMPTY, EMPTY)
    a.store.erase("data/s/c0.1")
    assert "data/s/c0.1" not in store.data  # a shard with no chunks left is removed


def test_sharding_reads_both_uri_spellings(fmt, make_store, array_doc):
    chunk = np.arange(6, dtype="<i4").tobytes()
    index = np.array([[0, 24], [EMPTY, EMPTY]], "<u8").tobytes()
    for uri in (
        SHARDING,
        "https://purl.org/zarr/spec/extensions/storage-transformers/sharding/1.0",
    ):
        st = [{"extension": uri, "type": "indexed", "configuration": {"chunks_per_shard": [1, 2]}}]
        store = make_store(
            {"meta/a.array.json": array_doc(storage_transformers=st), "data/a/c0/0": chunk + index}
        )
        a = fmt.open_array(store, "a")
        np.testing.assert_array_equal(
            a[0:2, :], np.hstack([np.arange(6).reshape(2, 3), np.zeros((2, 3))])
        )


def test_nested_sharding_transformers(fmt):
    store = MemoryStore()
    meta = fmt.array_metadata(
        (8,), (1,), "uint8", storage_transformers=[sharding([2]), sharding([2])]
    )
    a = fmt.create_array(store, "n", meta)
    a[:] = np.arange(8) + 1
    # chunk i -> inner shard i // 2 -> outer shard i // 4
    assert sorted(k for k in store.data if k.startswith("data/")) == ["data/n/c0", "data/n/c1"]
    np.testing.assert_array_equal(fmt.open_array(store, "n")[:], np.arange(8) + 1)


@pytest.mark.parametrize(
    "entry, reason",
    [
        (
            {"extension": SHARDING, "type": "indexed", "configuration": {"chunks_per_shard": [2]}},
            "invalid-storage-transformer",
        ),
        (
            {
                "extension": SHARDING,
                "type": "indexed",
                "configuration": {"chunks_per_shard": [2, 0]},
            },
            "invalid-storage-transformer",
        ),
        (
            {
                "extension": SHARDING,
                "type": "hashed",
                "configuration": {"chunks_per_shard": [2, 2]},
            },
            "invalid-storage-transformer",
        ),
        ({"extension": SHARDING, "type": "indexed"}, "invalid-storage-transformer"),
        (
            {
                "extension": SHARDING,
                "type": "indexed",
                "configuration": {"chunks_per_shard": [2, 2], "x": 1},
            },
            "invalid-storage-transformer",
        ),
        (
            {
                "extension": "https://purl.org/zarr/spec/storage_transformers/sharding/1.0",
                "type": "indexed",
                "configuration": {"chunks_per_shard": [2, 2]},
            },
            "must-understand",
        ),  # zarr-python 2's URI
        (
            {
                "extension": SHARDING,
                "type": "indexed",
                "configuration": {"chunks_per_shard": [2**13, 2**12]},
            },
            "too-large",
        ),
        ({"type": "indexed"}, "invalid-storage-transformer"),
    ],
)
def test_sharding_rejections(fmt, make_store, array_doc, entry, reason):
    store = make_store({"meta/a.array.json": array_doc(storage_transformers=[entry])})
    with pytest.raises(ZarrError) as err:
        fmt.open_array(store, "a")
    assert err.value.reason == reason


@pytest.mark.parametrize(
    "index",
    [
        [[0, 100], [EMPTY, EMPTY]],  # past the end of the shard
        [[EMPTY - 1, 2], [EMPTY, EMPTY]],  # offset + nbytes wraps around
        [[0, EMPTY], [EMPTY, EMPTY]],  # only one half marked empty
    ],
)
def test_corrupt_shard_index(fmt, make_store, array_doc, index):
    st = [sharding([1, 2])]
    shard = np.arange(6, dtype="<i4").tobytes() + np.array(index, "<u8").tobytes()
    store = make_store(
        {"meta/a.array.json": array_doc(storage_transformers=st), "data/a/c0/0": shard}
    )
    a = fmt.open_array(store, "a")
    with pytest.raises(ChunkError, match="corrupt-shard-index"):
        a[0:2, 0:3]
    with pytest.raises(ChunkError, match="corrupt-shard-index"):
        a[0:1, 0:1] = 5  # read-modify-write reads the whole shard


def test_chunk_overlapping_the_index(fmt, make_store, array_doc):
    """A slot reaching into the index: a partial read sees a bad chunk, a whole-shard read a bad index."""
    shard = (
        np.arange(6, dtype="<i4").tobytes() + np.array([[0, 25], [EMPTY, EMPTY]], "<u8").tobytes()
    )
    store = make_store(
        {
            "meta/a.array.json": array_doc(storage_transformers=[sharding([1, 2])]),
            "data/a/c0/0": shard,
        }
    )
    a = fmt.open_array(store, "a")
    with pytest.raises(ChunkError, match="corrupt-chunk"):
        a[0:2, 0:3]
    with pytest.raises(ChunkError, match="corrupt-shard-index"):
        a[0:1, 3:4] = 5


def test_short_shard(fmt, make_store, array_doc):
    store = make_store(
        {
            "meta/a.array.json": array_doc(storage_transformers=[sharding([1, 2])]),
            "data/a/c0/0": b"\x00" * 31,
        }
    )
    with pytest.raises(ChunkError, match="corrupt-shard-index"):
        fmt.open_array(store, "a")[:]
