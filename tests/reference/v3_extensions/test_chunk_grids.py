"""The rectilinear chunk grid of zarr-extensions: edge lengths, run-length encoding, overflow
chunks, reads and writes across chunks of different shapes."""

from __future__ import annotations

import numpy as np
import pytest

from conformance import reference as ref
from conformance.reference.errors import MetadataError
from conformance.reference.formats.v3 import FORMAT, parse_array_metadata
from conformance.reference.grid import chunk_overlaps

from .helpers import LE, doc, roundtrip, same_bits


def grid(*chunk_shapes):
    return {
        "name": "rectilinear",
        "configuration": {"kind": "inline", "chunk_shapes": list(chunk_shapes)},
    }


def test_the_readme_example_expands_as_documented():
    meta = parse_array_metadata(
        doc(
            [6, 6, 6, 6, 6],
            None,
            "uint8",
            0,
            [{"name": "bytes"}],
            grid=grid(4, [1, 2, 3], [[4, 2]], [[1, 3], 3], [4, 4, 4]),
        )
    )
    assert meta.chunk_shape.edges == ((4, 4), (1, 2, 3), (4, 4), (1, 1, 1, 3), (4, 4, 4))


def test_indexing_example_of_the_readme():
    g = parse_array_metadata(
        doc([26, 38], None, "uint8", 0, [{"name": "bytes"}], grid=grid([16, 10], [24, 14]))
    ).chunk_shape
    hits = list(chunk_overlaps((slice(20, 21), slice(15, 16)), g))
    assert hits == [((1, 0), (slice(4, 5), slice(15, 16)), (slice(0, 1), slice(0, 1)))]


def test_round_trip_with_chunks_of_different_shapes():
    values = np.arange(7 * 9, dtype=np.int16).reshape(7, 9)
    document = doc([7, 9], None, "int16", -1, [LE], grid=grid([2, 3, [1, 2]], 4))
    back, store = roundtrip(document, values)
    assert same_bits(back, values)
    assert len(store.get("a/c/1/0")) == 3 * 4 * 2 and len(store.get("a/c/3/2")) == 1 * 4 * 2
    assert (
        store.get("a/c/0/2")[2:4] == np.int16(-1).tobytes()
    )  # the overflowing chunk holds the fill
    array = ref.open_node(store, "a")
    assert array.grid_shape == (4, 3)  # edges [2, 3, 1, 1] and [4, 4, 4]: every chunk holds data
    assert len(list(array.chunk_indices())) == 12
    array[1:4, 2:6] = 0  # a write across four chunks of three shapes
    expected = values.copy()
    expected[1:4, 2:6] = 0
    assert same_bits(ref.open_node(store, "a")[:], expected)
    assert same_bits(ref.open_node(store, "a")[5:7, 7:9], expected[5:7, 7:9])


def test_sharding_inside_a_rectilinear_grid():
    codecs = [
        {
            "name": "sharding_indexed",
            "configuration": {
                "chunk_shape": [2],
                "codecs": [LE],
                "index_codecs": [LE, {"name": "crc32c"}],
            },
        }
    ]
    values = np.arange(10, dtype=np.int32)
    back, _ = roundtrip(doc([10], None, "int32", 0, codecs, grid=grid([4, 6])), values)
    assert same_bits(back, values)


@pytest.mark.parametrize(
    "bad",
    [
        grid([2, 2]),  # adds up to 4 < 6
        grid([2, 0, 4]),  # zero edge
        grid([[2, 0]]),  # zero repetitions
        grid([[2, 3, 1]]),  # not a pair
        {"name": "rectilinear", "configuration": {"kind": "external", "chunk_shapes": [6]}},
        {"name": "rectilinear", "configuration": {"chunk_shapes": [6]}},
        grid(6, 6),  # rank 2 for a rank-1 array
    ],
)
def test_invalid_rectilinear_grids_are_rejected(bad):
    with pytest.raises(MetadataError):
        FORMAT.create_array(
            ref.MemoryStore(), "a", doc([6], None, "uint8", 0, [{"name": "bytes"}], grid=bad)
        )
