"""User attributes for v2 (`.zattrs`) and v1 (`attrs`): a JSON object, written as ASCII JSON
(V2-ATTR-001..003, V2-STORE-001, V1-ATTR-001)."""

from __future__ import annotations

from typing import Any

from ... import jsonio
from ...errors import MetadataError


def encode_attributes(attributes: Any, requirement: str = "V2-ATTR-001") -> bytes:
    """ASCII JSON for an attributes mapping. Anything that would not read back as the same JSON
    value (NaN, non-string keys, tuples, NumPy scalars, ...) is refused rather than altered."""
    if not isinstance(attributes, dict):
        raise MetadataError(
            "invalid-attributes",
            f"attributes must be a dict, got {type(attributes).__name__}",
            requirement,
        )
    try:
        data = jsonio.dumps_ascii(attributes)
        same = jsonio.loads(data) == attributes and _same_types(jsonio.loads(data), attributes)
    except (TypeError, ValueError, RecursionError, MetadataError) as exc:
        raise MetadataError(
            "invalid-attributes", f"attributes are not plain JSON: {exc}", requirement
        ) from None
    if not same:
        raise MetadataError(
            "invalid-attributes", "attributes would not read back unchanged as JSON", requirement
        )
    return data


def _same_types(a: Any, b: Any) -> bool:
    """Equality that also tells 1 from 1.0 and True, and lists from tuples (json.dumps merges them)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_same_types(x, y) for x, y in zip(a, b))
    return True


def decode_attributes(
    data: bytes | None, what: str, requirement: str = "V2-ATTR-001"
) -> dict[str, Any]:
    """The attributes stored in `data`; a missing document means {} (V2-ATTR-002)."""
    if data is None:
        return {}
    doc = jsonio.loads(data, what, requirement)
    if not isinstance(doc, dict):
        raise MetadataError(
            "invalid-attributes",
            f"{what} must be a JSON object, got {type(doc).__name__}",
            requirement,
        )
    return doc
