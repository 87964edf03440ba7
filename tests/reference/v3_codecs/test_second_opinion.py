"""Cross-checks with zarr-python 3: chunks encoded by the reference pipeline, stored under raw keys
next to a hand-written zarr.json, read identically through zarr-python; and chunks zarr-python
writes decode identically through the reference. zarr-python is a second opinion here, never the
oracle: every case also has a hand-built byte layout in the other test modules."""

from __future__ import annotations

import itertools
import json
import math
import warnings

import numpy as np
import pytest

from conformance.reference.formats.v3.codecs import build_pipeline

from .helpers import BE, CRC, LE, blosc, gzip, same_bits, shard, transpose, zstd

zarr = pytest.importorskip("zarr")
pytestmark = pytest.mark.second_opinion


def _chunks(values: np.ndarray, chunk_shape, fill):
    """(grid index, full-size chunk) pairs; edge chunks padded with the fill value."""
    grid = [math.ceil(s / c) for s, c in zip(values.shape, chunk_shape)]
    for index in itertools.product(*map(range, grid)):
        chunk = np.empty(chunk_shape, dtype=values.dtype)
        chunk[...] = fill
        region = tuple(
            slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(index, chunk_shape, values.shape)
        )
        chunk[tuple(slice(0, r.stop - r.start) for r in region)] = values[region]
        yield index, chunk


def _write_by_hand(root, values, chunk_shape, data_type, fill_json, fill, codecs):
    """A store written by the reference pipeline alone: zarr.json by hand, one key per chunk."""
    pipeline = build_pipeline(
        codecs, chunk_shape, values.dtype, np.array(fill, dtype=values.dtype), data_type
    )
    metadata = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(values.shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunk_shape)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill_json,
        "codecs": codecs,
        "attributes": {},
    }
    (root / "zarr.json").write_text(json.dumps(metadata))
    for index, chunk in _chunks(values, chunk_shape, fill):
        path = root.joinpath("c", *map(str, index))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pipeline.encode(chunk))
    return pipeline


def _read_with_zarr_python(root):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return zarr.open_array(store=str(root), mode="r")[...]


SHARDED_INT = np.arange(10 * 7, dtype="<i4").reshape(10, 7) * 3 - 50
SHARDED_INT[0:4, 4:7] = -1  # one inner chunk equal to the fill: stored as an empty index entry

CASES = {
    "shard-end-crc-gzip": ((8, 8), [shard([4, 4], [LE, gzip(1)], [LE, CRC])]),
    "shard-start-big-endian": ((8, 8), [shard([2, 4], [BE], [LE, CRC], "start")]),
    "shard-index-without-crc": ((8, 8), [shard([4, 2], [LE, zstd(3, checksum=True)], [LE])]),
    "transpose-then-shard": ((8, 8), [transpose([1, 0]), shard([8, 2], [LE, blosc(typesize=4)])]),
    "nested-shards": ((8, 8), [shard([4, 4], [shard([2, 2], [LE], [LE, CRC])], [LE, CRC])]),
    "shard-then-crc": ((8, 8), [shard([4, 4], [LE]), CRC]),
    "plain-transpose-gzip-crc": ((3, 4), [transpose([1, 0]), BE, gzip(9), CRC]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_zarr_python_reads_reference_chunks(tmp_path, name):
    chunk_shape, codecs = CASES[name]
    _write_by_hand(tmp_path, SHARDED_INT, chunk_shape, "int32", -1, -1, codecs)
    assert same_bits(_read_with_zarr_python(tmp_path), SHARDED_INT)


@pytest.mark.xfail(
    strict=True,
    reason="zarr-python 3.1.6 checks the inner chunk_shape against the untransposed chunk shape "
    "(V3-TRANS-004), so it refuses this valid array",
)
def test_zarr_python_transpose_before_sharding_in_transposed_space(tmp_path):
    codecs = [transpose([1, 0]), shard([8, 2], [LE])]  # chunk (4, 8) -> (8, 4) -> inner (8, 2)
    _write_by_hand(tmp_path, SHARDED_INT, (4, 8), "int32", -1, -1, codecs)
    assert same_bits(_read_with_zarr_python(tmp_path), SHARDED_INT)


def test_zarr_python_reads_all_empty_shard_written_as_index_only(tmp_path):
    values = np.full((8, 8), 7, "<i4")
    values[0, 0] = 1
    pipeline = _write_by_hand(tmp_path, values, (4, 8), "int32", 7, 7, [shard([2, 2])])
    shard_1 = (tmp_path / "c" / "1" / "0").read_bytes()
    assert len(shard_1) == 8 * 16 + 4 and pipeline.sharding.is_empty_shard(shard_1)
    assert same_bits(_read_with_zarr_python(tmp_path), values)


def test_zarr_python_reads_reference_float_nan_payloads(tmp_path):
    raw = np.array([0x7FC00001, 0xFFC00000, 0x80000000, 0x7F800000, 0, 1], dtype="<u4")
    values = raw.view("<f4").reshape(2, 3)
    _write_by_hand(
        tmp_path, values, (2, 2), "float32", "NaN", np.float32("nan"), [shard([1, 2], [BE])]
    )
    assert same_bits(_read_with_zarr_python(tmp_path), values)


def test_zarr_python_reads_reference_strings(tmp_path):
    values = np.array([["", "é", "日本"], ["x" * 40, "", "🦆"]], dtype=object)
    codecs = [
        transpose([1, 0]),
        shard([1, 2], [{"name": "vlen-utf8", "configuration": {}}, zstd(1)]),
    ]
    _write_by_hand(tmp_path, values, (2, 2), "string", "", "", codecs)
    out = _read_with_zarr_python(tmp_path)
    assert [[str(v) for v in row] for row in out] == values.tolist()


# ---- the other direction: the reference decodes what zarr-python writes ------------------
@pytest.mark.parametrize(
    "options",
    [
        {"chunks": (4, 4), "shards": (8, 8)},
        {"chunks": (2, 4), "shards": (4, 8), "compressors": [zarr.codecs.GzipCodec(level=1)]},
        {
            "chunks": (3, 3),
            "compressors": [zarr.codecs.BloscCodec(cname="zstd", shuffle="bitshuffle", typesize=8)],
        },
        {
            "chunks": (3, 3),
            "order": "F",
            "compressors": [zarr.codecs.ZstdCodec(level=5, checksum=True)],
        },
    ],
    ids=["sharded-zstd", "sharded-gzip", "blosc", "zstd-checksum"],
)
def test_reference_decodes_zarr_python_chunks(tmp_path, options):
    values = np.arange(10 * 7, dtype="<f8").reshape(10, 7) / 3
    values[0, 0] = -0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        array = zarr.create_array(
            store=str(tmp_path), shape=values.shape, dtype="float64", fill_value=0.0, **options
        )
        array[...] = values
    metadata = json.loads((tmp_path / "zarr.json").read_text())
    chunk_shape = tuple(metadata["chunk_grid"]["configuration"]["chunk_shape"])
    pipeline = build_pipeline(metadata["codecs"], chunk_shape, "<f8", np.array(0.0), "float64")
    for index, expected in _chunks(values, chunk_shape, 0.0):
        path = tmp_path.joinpath("c", *map(str, index))
        decoded = pipeline.decode(path.read_bytes()) if path.exists() else np.zeros(chunk_shape)
        assert same_bits(decoded, expected), index
