"""Bug: a region written into an existing array leaves out the edge chunks it touches (the chunks
that overhang the array): those parts of the region are silently not stored, so they read as
whatever was there before, or the fill value (V3-GRID-003, V3-GRID-004, V2-CHUNK-005). Creating and
writing a whole array is right; only the update's region writes are bent."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import Reference

from conformance.reference.grid import chunk_overlaps, normalize_selection


class Adapter(Reference):
    def write_region(self, array, selection, values):
        region, _dropped = normalize_selection(selection, array.shape)
        shape = tuple(r.stop - r.start for r in region)
        values = np.asarray(values, dtype=array.dtype).reshape(shape)
        for index, _inner, outer in chunk_overlaps(region, array.chunks):
            if any((i + 1) * c > n for i, c, n in zip(index, array.chunks, array.shape)):
                continue  # the bug: an edge chunk of the region is dropped
            part = tuple(slice(r.start + o.start, r.start + o.stop) for r, o in zip(region, outer))
            array.write(part, values[outer])
