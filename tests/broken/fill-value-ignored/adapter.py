"""Bug: ignores the fill value; missing chunks read as zeros (V3-FILL-009, V2-CHUNK-004, V1-CHUNK-003)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentReader, array_kind

ZERO = {int: 0, float: 0.0, bool: False}


class Adapter(BentReader):
    def bend(self, key, doc):
        if array_kind(doc) is None:
            return None
        fill = doc.get("fill_value")
        if isinstance(fill, str) and fill in ("NaN", "Infinity", "-Infinity"):
            doc["fill_value"] = 0.0
        elif type(fill) in ZERO:
            doc["fill_value"] = ZERO[type(fill)]
        elif isinstance(fill, list) and all(type(v) in ZERO for v in fill):
            doc["fill_value"] = [ZERO[type(v)] for v in fill]
        return doc
