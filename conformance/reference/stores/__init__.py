"""Stores: memory, local directory, zip, and read-only URL stores through fsspec."""

from __future__ import annotations

import os
from typing import Any

from .base import (
    DEFAULT_MAX_METADATA_BYTES,
    DEFAULT_MAX_VALUE_BYTES,
    Store,
    StoreIOError,
    check_key,
    is_metadata_key,
    printable,
)
from .directory import DirectoryStore
from .memory import MemoryStore
from .zipstore import ZipStore

__all__ = [
    "DEFAULT_MAX_METADATA_BYTES",
    "DEFAULT_MAX_VALUE_BYTES",
    "DirectoryStore",
    "MemoryStore",
    "Store",
    "StoreIOError",
    "ZipStore",
    "check_key",
    "is_metadata_key",
    "open_store",
    "printable",
]


def open_store(location: str | os.PathLike[str] | Store, mode: str = "r", **limits: Any) -> Store:
    """A store for a path or URL: a Store is returned as is; '*.zip' is a ZipStore; 'file://',
    'http(s)://' and 's3://' URLs are read-only fsspec stores; anything else is a directory.
    `limits` (max_value_bytes=, max_metadata_bytes=) set the new store's read limits."""
    if isinstance(location, Store):
        return location
    text = os.fspath(location)
    if "://" in text:
        if text.startswith("file://") and mode != "r":
            return DirectoryStore(text[len("file://") :], **limits)
        from .url import URLStore

        return URLStore(text, **limits)
    if text.endswith(".zip"):
        return ZipStore(text, "w" if mode == "w" else "r", **limits)
    return DirectoryStore(text, read_only=(mode == "r"), **limits)
