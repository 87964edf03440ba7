"""Node names and hierarchy paths of the v3 draft (V3DRAFT-KEY-006/007).

Names use only ASCII letters, digits, '-', '_' and '.', are non-empty and are not made only of
periods. Paths are given to the format as '' (root) or names joined by '/'.
"""

from __future__ import annotations

import re

from ...errors import PathError

_NAME = re.compile(r"[A-Za-z0-9._-]+")
# Every key the draft writes or reads is in this set and never ends in '/' (V3DRAFT-KEY-007).
_KEY = re.compile(r"[A-Za-z0-9/._-]*[A-Za-z0-9._-]")


def is_valid_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and name.strip(".") != ""


def check_name(name: str) -> str:
    if not isinstance(name, str) or not is_valid_name(name):
        raise PathError(
            "invalid-node-name",
            f"node name {name!r} must be non-empty, use only [A-Za-z0-9._-] and not be only periods",
            "V3DRAFT-KEY-006",
        )
    return name


def normalize_path(path: str) -> str:
    """'' for the root; otherwise validated names joined by '/'. One leading '/' is allowed
    (spec paths are written '/foo/bar'); empty segments and a trailing '/' are not."""
    if not isinstance(path, str):
        raise PathError("invalid-path", f"a path must be a string, got {type(path).__name__}")
    if path in ("", "/"):
        return ""
    body = path[1:] if path.startswith("/") else path
    segments = body.split("/")
    if any(s == "" for s in segments):
        raise PathError(
            "invalid-path",
            f"path {path!r} has an empty segment or a trailing '/'",
            "V3DRAFT-KEY-006",
        )
    for segment in segments:
        check_name(segment)
    return "/".join(segments)


def check_key(key: str) -> str:
    """A store key the draft may use: ASCII subset only, no trailing '/' (V3DRAFT-KEY-007)."""
    if not _KEY.fullmatch(key):
        raise PathError(
            "invalid-path",
            f"store key {key!r} uses characters outside [A-Za-z0-9/._-]",
            "V3DRAFT-KEY-007",
        )
    return key
