"""Stores: memory, local directory, zip, and read-only URL stores through fsspec."""

from __future__ import annotations

import os

from .base import Store, check_key
from .directory import DirectoryStore
from .memory import MemoryStore
from .zipstore import ZipStore

__all__ = ["Store", "MemoryStore", "DirectoryStore", "ZipStore", "open_store", "check_key"]


def open_store(location: "str | os.PathLike | Store", mode: str = "r") -> Store:
    """A store for a path or URL: a Store is returned as is; '*.zip' is a ZipStore; 'file://',
    'http(s)://' and 's3://' URLs are read-only fsspec stores; anything else is a directory."""
    if isinstance(location, Store):
        return location
    text = os.fspath(location)
    if "://" in text:
        if text.startswith("file://") and mode != "r":
            return DirectoryStore(text[len("file://") :])
        from .url import URLStore

        return URLStore(text)
    if text.endswith(".zip"):
        return ZipStore(text, "w" if mode == "w" else "r")
    return DirectoryStore(text, read_only=(mode == "r"))
