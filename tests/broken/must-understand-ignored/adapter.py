"""Bug: ignores metadata members it does not know, even those it must understand
(V3-ARR-010: an unknown member without "must_understand": false must make opening fail)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentReader

KNOWN = {
    "zarr_format",
    "node_type",
    "shape",
    "data_type",
    "chunk_grid",
    "chunk_key_encoding",
    "fill_value",
    "codecs",
    "attributes",
    "dimension_names",
    "storage_transformers",
    "consolidated_metadata",
}


class Adapter(BentReader):
    def bend(self, key, doc):
        if doc.get("zarr_format") == 3:
            for member in [m for m in doc if m not in KNOWN]:
                del doc[member]
        return doc
