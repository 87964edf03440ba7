"""Strict JSON in, deterministic JSON out.

Zarr metadata is RFC 8259 JSON: bare NaN/Infinity tokens, invalid UTF-8 and duplicate keys are
rejected. Integers stay Python ints, so uint64 max and int64 min are exact.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import MetadataError


def _reject_constant(token: str) -> Any:
    raise ValueError(f"non-standard JSON token {token!r}")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def loads(
    data: bytes | bytearray | memoryview | str,
    what: str = "metadata",
    requirement: str | None = None,
) -> Any:
    """Parse a metadata document strictly; raise MetadataError('invalid-json') otherwise."""
    try:
        text = bytes(data).decode("utf-8") if not isinstance(data, str) else data
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise MetadataError(
            "invalid-json", f"{what} is not valid JSON: {exc}", requirement
        ) from None


def load_object(
    data: bytes | str, what: str = "metadata", requirement: str | None = None
) -> dict[str, Any]:
    doc = loads(data, what, requirement)
    if not isinstance(doc, dict):
        raise MetadataError(
            "invalid-metadata",
            f"{what} must be a JSON object, got {type(doc).__name__}",
            requirement,
        )
    return doc


def dumps(doc: Any) -> bytes:
    """Serialise a metadata document: two-space indent, keys in insertion order, ASCII-safe? no:
    UTF-8 kept as is (v3 keys and names are Unicode); never NaN tokens."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False).encode("utf-8")


def dumps_ascii(doc: Any) -> bytes:
    """v2/v1 stores are ASCII (V2-STORE-001): escape non-ASCII characters."""
    return json.dumps(doc, indent=2, ensure_ascii=True, allow_nan=False).encode("ascii")
