"""Format.resize_array: the metadata document gets the new shape (validated as on creation), chunks
wholly outside it are erased, edge chunks the new shape cuts through are kept; growing again reads
the fill value where chunks were erased."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conformance.reference import get_format
from conformance.reference.errors import MetadataError, UnsupportedError
from conformance.reference.stores import MemoryStore

CASES = {
    "v3": ("zarr.json", ["c/0", "c/1", "c/2"], "int32"),
    "v2": (".zarray", ["0", "1", "2"], "<i4"),
}


@pytest.mark.parametrize("fmt_name", sorted(CASES))
def test_shrink_erases_chunks_outside_and_grow_reads_the_fill(fmt_name):
    key, chunk_keys, dtype = CASES[fmt_name]
    fmt, store = get_format(fmt_name), MemoryStore()
    array = fmt.create_array(store, "", fmt.array_metadata((10,), (4,), dtype, fill_value=7))
    array.write(None, np.arange(10, dtype="i4"))
    assert sorted(store.data) == sorted([key, *chunk_keys])

    shrunk = fmt.resize_array(store, "", (5,))
    assert json.loads(store.data[key])["shape"] == [5]
    assert sorted(store.data) == sorted([key, *chunk_keys[:2]])  # chunk 1 is cut, chunk 2 gone
    assert shrunk.read().tolist() == [0, 1, 2, 3, 4]

    grown = fmt.resize_array(store, "", (14,))
    # chunk 1 kept its old values 5..7 (3.0 "Resizing": kept data "will be shown by default");
    # chunks 2 and 3 hold nothing: the fill value
    assert grown.read().tolist() == [0, 1, 2, 3, 4, 5, 6, 7] + [7] * 6


def test_resize_keeps_the_rest_of_the_document():
    fmt, store = get_format("v3"), MemoryStore()
    doc = fmt.array_metadata((4, 4), (2, 2), "float32", fill_value="0x7fc00001")
    fmt.create_array(store, "a", doc, {"units": "m"})
    fmt.resize_array(store, "a", (6, 2))
    written = json.loads(store.data["a/zarr.json"])
    assert written == {**doc, "shape": [6, 2], "attributes": {"units": "m"}}


def test_another_rank_is_refused():
    fmt, store = get_format("v3"), MemoryStore()
    fmt.create_array(store, "", fmt.array_metadata((4,), (2,), "uint8", fill_value=0))
    with pytest.raises(MetadataError):
        fmt.resize_array(store, "", (4, 4))


def test_formats_without_resize_say_so():
    fmt, store = get_format("v1"), MemoryStore()
    fmt.create_array(store, "", fmt.array_metadata((4,), (2,), "<u1", fill_value=0))
    with pytest.raises(UnsupportedError):
        fmt.resize_array(store, "", (8,))
