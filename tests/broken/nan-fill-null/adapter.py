"""Bug: writes a NaN fill value as JSON null instead of "NaN" (V3-FILL-004, V2-FILL-001)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentWriter, array_kind, rewrite_metadata


def nan_to_null(key, doc):
    if array_kind(doc) and doc.get("fill_value") == "NaN":
        doc["fill_value"] = None
    return doc


class Adapter(BentWriter):
    def spoil(self, root, request):
        rewrite_metadata(root, nan_to_null)
