"""Bug: applies the inverse of the transpose codec's permutation (V3-TRANS-002)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentReader, array_kind, bend_codecs


def inverse(order):
    out = [0] * len(order)
    for i, axis in enumerate(order):
        out[axis] = i
    return out


def invert_transpose(name, config):
    order = config.get("order")
    if name == "transpose" and isinstance(order, list) and sorted(order) == list(range(len(order))):
        config["order"] = inverse(order)


class Adapter(BentReader):
    def bend(self, key, doc):
        if array_kind(doc) == "v3" and isinstance(doc.get("codecs"), list):
            doc["codecs"] = bend_codecs(doc["codecs"], invert_transpose)
        return doc
