"""Bug: ignores the byte order: v2 '>' dtypes and v3 `bytes` endian "big" read as little-endian
(V2-DTYPE-002, V3-DT-003)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentReader, array_kind, bend_codecs


def little(dtype):
    if isinstance(dtype, str):
        return "<" + dtype[1:] if dtype.startswith(">") else dtype
    if isinstance(dtype, list):  # structured: [[name, type(, shape)], ...]
        return [[f[0], little(f[1]), *f[2:]] for f in dtype]
    return dtype


def little_endian(name, config):
    if name == "bytes" and config.get("endian") == "big":
        config["endian"] = "little"


class Adapter(BentReader):
    def bend(self, key, doc):
        kind = array_kind(doc)
        if kind in ("v1", "v2"):
            doc["dtype"] = little(doc.get("dtype"))
        elif kind == "v3" and isinstance(doc.get("codecs"), list):
            doc["codecs"] = bend_codecs(doc["codecs"], little_endian)
        return doc
