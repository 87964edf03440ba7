"""Bug: stores edge chunks truncated to the array's bounds instead of whole chunks (V3-GRID-004,
V2-CHUNK-005). Only uncompressed C-order layouts are spoiled (there the bytes can be cut exactly)."""

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentWriter, array_kind, metadata_documents


def raw_layout(doc):
    """(numpy dtype, chunk shape, key of chunk index) for uncompressed C-order arrays, else None."""
    kind = array_kind(doc)
    if kind == "v3":
        codecs = doc.get("codecs", [])
        if (
            len(codecs) != 1
            or codecs[0].get("name") != "bytes"
            or not isinstance(doc.get("data_type"), str)
        ):
            return None
        endian = (codecs[0].get("configuration") or {}).get("endian", "little")
        try:
            dtype = np.dtype(doc["data_type"]).newbyteorder("<" if endian == "little" else ">")
        except TypeError:
            return None
        encoding = doc.get("chunk_key_encoding", {})
        sep = (encoding.get("configuration") or {}).get(
            "separator", "/" if encoding.get("name") == "default" else "."
        )
        prefix = "c" + sep if encoding.get("name") == "default" else ""
        chunks = doc["chunk_grid"]["configuration"]["chunk_shape"]
        return (
            dtype,
            chunks,
            lambda idx: prefix + sep.join(map(str, idx)) if idx else "c" if prefix else "0",
        )
    if kind in ("v1", "v2"):
        if (
            doc.get("compressor") is not None
            or doc.get("filters")
            or doc.get("compression") not in (None, "none")
        ):
            return None
        if doc.get("order", "C") != "C" or not isinstance(doc.get("dtype"), str):
            return None
        sep = doc.get("dimension_separator", ".")
        return (
            np.dtype(doc["dtype"]),
            doc["chunks"],
            lambda idx: sep.join(map(str, idx)) if idx else "0",
        )
    return None


class Adapter(BentWriter):
    def spoil(self, root, request):
        for path, _key, doc in list(metadata_documents(root)):
            layout = raw_layout(doc)
            if layout is None:
                continue
            dtype, chunks, chunk_key = layout
            shape = doc["shape"]
            grid = [math.ceil(s / c) for s, c in zip(shape, chunks)]
            for idx in np.ndindex(*grid):
                inside = [min(c, s - i * c) for i, c, s in zip(idx, chunks, shape)]
                if inside == list(chunks):
                    continue
                chunk_path = path.parent / chunk_key(idx)
                if not chunk_path.is_file():
                    continue
                full = np.frombuffer(chunk_path.read_bytes(), dtype=dtype).reshape(chunks)
                chunk_path.write_bytes(full[tuple(slice(0, n) for n in inside)].tobytes())
