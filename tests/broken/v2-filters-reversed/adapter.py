"""Bug: applies v2 filters in the wrong order when decoding (V2-CHUNK-002: decode in reverse
order of the list, i.e. the last filter first)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentReader, array_kind


class Adapter(BentReader):
    def bend(self, key, doc):
        if (
            array_kind(doc) == "v2"
            and isinstance(doc.get("filters"), list)
            and len(doc["filters"]) > 1
        ):
            doc["filters"] = doc["filters"][::-1]
        return doc
