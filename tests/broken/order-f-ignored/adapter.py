"""Bug: ignores order "F" in v1/v2 metadata and lays chunks out in C order (V2-CHUNK-006, V1-META-005)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentReader, array_kind


class Adapter(BentReader):
    def bend(self, key, doc):
        if array_kind(doc) in ("v1", "v2") and doc.get("order") == "F":
            doc["order"] = "C"
        return doc
