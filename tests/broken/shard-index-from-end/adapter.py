"""Bug: takes the offsets of a shard index at the start of the shard as counted from the end of the
index, not from the start of the shard (V3-SHARD-010)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import Reference

from conformance.reference.formats.v3.codecs import sharding

ORIGINAL = sharding.ShardingCodec.read_index


def read_index_from_end(self, raw, total):
    offsets, nbytes, empty = ORIGINAL(self, raw, total)
    if self.index_location == "start":
        offsets = np.where(empty, offsets, offsets + np.uint64(self.index_size))
    return offsets, nbytes, empty


class Adapter(Reference):
    def __init__(self):
        sharding.ShardingCodec.read_index = read_index_from_end  # this process only
