"""v2 logical paths and the keys derived from them (V2-KEY-001..006)."""

from __future__ import annotations

import re

from ...errors import PathError

ARRAY_KEY = ".zarray"
GROUP_KEY = ".zgroup"
ATTRS_KEY = ".zattrs"
CONSOLIDATED_KEY = ".zmetadata"

_SLASH_RUNS = re.compile(r"/{2,}")


def normalize_path(path: str) -> str:
    """The v2 normal form of a logical path: '\\' becomes '/' (V2-KEY-001), leading and trailing '/'
    are stripped (V2-KEY-002/003), runs of '/' collapse (V2-KEY-004); a '.' or '..' segment left
    after that is an error (V2-KEY-005). The root is ''."""
    if path is None:
        return ""
    if not isinstance(path, str):
        raise PathError("invalid-path", f"a v2 path must be a string, got {type(path).__name__}")
    text = _SLASH_RUNS.sub("/", path.replace("\\", "/")).strip("/")
    if "\x00" in text:
        raise PathError("invalid-path", f"path {path!r} contains a NUL character")
    if text and any(segment in (".", "..") for segment in text.split("/")):
        raise PathError("invalid-path", f"path {path!r} has a '.' or '..' segment", "V2-KEY-005")
    return text


def key_prefix(path: str) -> str:
    """The key prefix of the node at a normalised path: 'P/' or '' for the root (V2-KEY-006)."""
    return f"{path}/" if path else ""


def node_key(path: str, name: str) -> str:
    return key_prefix(path) + name


def ancestors(path: str) -> list[str]:
    """Ancestor paths of a normalised path, root first: 'a/b/c' -> ['', 'a', 'a/b']."""
    if not path:
        return []
    parts = path.split("/")
    return [""] + ["/".join(parts[:i]) for i in range(1, len(parts))]
