"""Extension objects ({"name", "configuration"?}) and the must_understand rule (V3-EXT-*).

3.0 writes extension objects; 3.1 also allows a plain-string short-hand name (V3-EXT-002) and an
explicit `must_understand` member (V3-EXT-003). The reference reads both (lenient read) and
writes only the 3.0 object form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import MetadataError


@dataclass(frozen=True)
class Extension:
    name: str
    configuration: dict[str, Any] | None  # None when the member is absent
    must_understand: bool = True

    def config(self) -> dict[str, Any]:
        return {} if self.configuration is None else self.configuration


def parse_extension(
    value: Any,
    what: str,
    reason: str,
    requirement: str | None = None,
    must_be_understood: bool = True,
) -> Extension:
    """Parse an extension object or short-hand name. With `must_be_understood` (data type, chunk
    grid, chunk key encoding), `"must_understand": false` is itself an error (V3-EXT-003)."""
    if isinstance(value, str):
        if not value:
            raise MetadataError(reason, f"{what}: the name must not be empty", requirement)
        return Extension(value, None)
    if not isinstance(value, dict):
        raise MetadataError(
            reason,
            f"{what} must be an object or a name, got {_kind(value)}",
            requirement or "V3-EXT-001",
        )
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise MetadataError(
            reason, f"{what} needs a non-empty string 'name' member", requirement or "V3-EXT-001"
        )
    configuration = value.get("configuration")
    if "configuration" in value and not isinstance(configuration, dict):
        raise MetadataError(
            reason, f"{what} {name!r}: 'configuration' must be an object", "V3-EXT-001"
        )
    must_understand = value.get("must_understand", True)
    if not isinstance(must_understand, bool):
        raise MetadataError(
            reason, f"{what} {name!r}: 'must_understand' must be a boolean", "V3-EXT-003"
        )
    if must_be_understood and must_understand is False:
        raise MetadataError(
            reason, f"{what} {name!r}: must_understand=false is not allowed here", "V3-EXT-003"
        )
    extra = sorted(set(value) - {"name", "configuration", "must_understand"})
    if extra:
        raise MetadataError(
            reason, f"{what} {name!r} has unknown members {extra}", requirement or "V3-EXT-001"
        )
    return Extension(name, configuration, must_understand)


def is_ignorable(value: Any) -> bool:
    """An unknown metadata member may be ignored only when it is an object that says
    `"must_understand": false` (V3-ARR-010, V3-GRP-003)."""
    return isinstance(value, dict) and value.get("must_understand") is False


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__
