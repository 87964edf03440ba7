"""Bug: writes chunk keys with '.' where the metadata's key encoding says '/' (V3-CKE-001, V3-CKE-002, V2-META-007)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import BentWriter, array_kind, metadata_documents


class Adapter(BentWriter):
    def spoil(self, root, request):
        for path, _key, doc in list(metadata_documents(root)):
            kind = array_kind(doc)
            encoding = doc.get("chunk_key_encoding", {})
            separator = (encoding.get("configuration") or {}).get("separator", "/")
            if kind == "v3" and encoding.get("name") == "default" and separator == "/":
                prefix = "c/"
            elif kind == "v2" and doc.get("dimension_separator") == "/":
                prefix = ""
            else:
                continue
            folder = path.parent
            for dirpath, _, names in os.walk(folder):
                for name in names:
                    full = os.path.join(dirpath, name)
                    rel = os.path.relpath(full, folder).replace(os.sep, "/")
                    if is_chunk_key(rel, prefix, len(doc["shape"])):
                        os.replace(full, os.path.join(folder, rel.replace("/", ".")))


def is_chunk_key(rel: str, prefix: str, rank: int) -> bool:
    """A chunk key with at least one '/' to spoil ('c/0/1' for v3, '0/1' for v2)."""
    if not rel.startswith(prefix):
        return False
    parts = rel[len(prefix) :].split("/")
    return "/" in rel and len(parts) == rank and all(p.isdigit() for p in parts)
