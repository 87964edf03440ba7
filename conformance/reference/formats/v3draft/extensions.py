"""The draft's extension mechanism (V3DRAFT-META-003 and the §Extensions table).

Two kinds of extension slots exist: `extensions` lists, whose entries carry `must_understand`,
and extension points (metadata_encoding, data_type, chunk_grid, chunk_memory_layout,
storage_transformers) where an `{"extension": URI, "type": ...}` object is always required to be
understood. The reference knows no generic extensions, so every `must_understand: true` entry
stops processing.
"""

from __future__ import annotations

from typing import Any

from ...errors import MetadataError

# URIs of generic extensions the reference understands (none are defined by this draft).
KNOWN_EXTENSIONS: frozenset[str] = frozenset()

_EXTENSION_MEMBERS = {"extension", "must_understand", "configuration"}


def check_extension_list(value: Any, where: str) -> list[Any]:
    """Validate an `extensions` list; ignore understood-optional entries, refuse required unknowns."""
    if not isinstance(value, list):
        raise MetadataError(
            "invalid-extension", f"{where} 'extensions' must be a list", "V3DRAFT-META-003"
        )
    for entry in value:
        if not isinstance(entry, dict):
            raise MetadataError(
                "invalid-extension",
                f"{where} extension entries must be objects",
                "V3DRAFT-META-003",
            )
        extra = set(entry) - _EXTENSION_MEMBERS
        if extra:
            raise MetadataError(
                "invalid-extension",
                f"{where} extension has undefined members {sorted(extra)}",
                "V3DRAFT-META-003",
            )
        uri = entry.get("extension")
        must = entry.get("must_understand")
        if not isinstance(uri, str) or not uri:
            raise MetadataError(
                "invalid-extension",
                f"{where} extension needs an 'extension' URI",
                "V3DRAFT-META-003",
            )
        if not isinstance(must, bool):
            raise MetadataError(
                "invalid-extension",
                f"{where} extension {uri!r} needs a boolean 'must_understand'",
                "V3DRAFT-META-003",
            )
        if "configuration" in entry and not isinstance(entry["configuration"], dict):
            raise MetadataError(
                "invalid-extension",
                f"{where} extension {uri!r} configuration must be an object",
                "V3DRAFT-META-003",
            )
        if must and uri not in KNOWN_EXTENSIONS:
            raise MetadataError(
                "must-understand",
                f"{where} uses extension {uri!r} with must_understand: true",
                "V3DRAFT-META-003",
            )
    return value


def refuse_extension_point(value: dict[str, Any], slot: str, requirement: str) -> None:
    """An extension object in a slot whose extensions are always required (§Extensions table)."""
    uri = value.get("extension")
    if not isinstance(uri, str) or "type" not in value:
        raise MetadataError(
            "invalid-extension",
            f"{slot} extension needs 'extension' (a URI) and 'type'",
            requirement,
        )
    raise MetadataError(
        "must-understand", f"{slot} extension {uri!r} is not supported", requirement
    )
