"""Findings about a node that opened: what the reference tolerated (its `notes`) and the few
SHOULD-level or store-level rules the reference has no reason to enforce on read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .findings import NOTE, WARNING, Finding
from .requirement_map import known

if TYPE_CHECKING:
    from conformance.reference.array import Array, Group

_REQUIREMENT = re.compile(r"\b(?:V1|V2|V3|V3HIST|V3DRAFT|ZOM)(?:-[A-Z0-9]+)+\b")


def cited_requirement(text: str) -> str | None:
    """The first catalogue ID a note cites ('... (V2-META-008)' or 'V3-GRP-004: ...')."""
    for candidate in _REQUIREMENT.findall(text):
        if known(candidate):
            return candidate
    return None


def _reason_for_note(format: str, kind: str, requirement: str | None) -> str:
    if requirement in ("V2-META-008", "V2-GROUP-002", "V3-ARR-010", "V3-GRP-003", "V3-GRP-004"):
        return "unknown-field"
    if requirement == "V2-META-005":
        return "invalid-codec"
    if requirement == "V1-ATTR-001":
        return "invalid-attributes"
    return "invalid-metadata"


def lint_node(node: Array | Group, format: str) -> Iterator[Finding]:
    path, kind = node.path, node.kind
    # The reference's notes: tolerated deviations. One citing a requirement is a warning; one
    # that cites none (an ignored must_understand:false member, say) is information.
    for note in getattr(node, "notes", None) or []:
        requirement = cited_requirement(str(note))
        # A note saying what writers should do describes a deviation other readers handle
        # differently (a numeric fill for v2 strings, a legacy struct without endian): a warning.
        level = WARNING if requirement or "writers should" in str(note) else NOTE
        reason = _reason_for_note(format, kind, requirement)
        if requirement is None and "fill_value" in str(note):
            reason = "invalid-fill-value"
        elif requirement is None and "bytes codec" in str(note):
            reason = "invalid-codec"
        yield Finding(level, requirement, reason, path, str(note), format=format)
    document = node.metadata if isinstance(node.metadata, dict) else {}
    if format == "v3" and kind == "array":
        yield from _unregistered_names(document, path, format)
        names = document.get("dimension_names")
        if isinstance(names, list):
            given = [n for n in names if isinstance(n, str)]
            duplicates = sorted({n for n in given if given.count(n) > 1})
            if duplicates:
                yield Finding(
                    WARNING,
                    "V3-ARR-009",
                    "invalid-dimension-names",
                    path,
                    f"dimension names should be unique; repeated: {duplicates}",
                    format=format,
                )


def _extension_names(document: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(extension point, name) of every extension an array document uses, nested codecs too."""

    def name_of(value: Any) -> str | None:
        if isinstance(value, str):
            return value
        return (
            value.get("name")
            if isinstance(value, dict) and isinstance(value.get("name"), str)
            else None
        )

    def data_types(value: Any) -> Iterator[tuple[str, str]]:
        name = name_of(value)
        if name:
            yield "data type", name
        config = value.get("configuration") if isinstance(value, dict) else None
        fields = config.get("fields") if isinstance(config, dict) else None
        for field in fields if isinstance(fields, list) else ():
            inner = (
                field.get("data_type")
                if isinstance(field, dict)
                else field[1]
                if isinstance(field, list) and len(field) == 2
                else None
            )
            if inner is not None:
                yield from data_types(inner)

    def codecs(value: Any) -> Iterator[tuple[str, str]]:
        for codec in value if isinstance(value, list) else ():
            name = name_of(codec)
            if name:
                yield "codec", name
            config = codec.get("configuration") if isinstance(codec, dict) else None
            if isinstance(config, dict):
                for member in ("codecs", "index_codecs"):
                    yield from codecs(config.get(member))
                if name == "cast_value" and "data_type" in config:
                    yield from data_types(config["data_type"])

    yield from data_types(document.get("data_type"))
    if name := name_of(document.get("chunk_grid")):
        yield "chunk grid", name
    if name := name_of(document.get("chunk_key_encoding")):
        yield "chunk key encoding", name
    yield from codecs(document.get("codecs"))


def _unregistered_names(document: dict[str, Any], path: str, format: str) -> Iterator[Finding]:
    """A NOTE for each extension name the array uses that zarr-extensions does not register (at
    the snapshot the reference knows): the reference read it, but other readers may refuse it."""
    from conformance.reference.formats.v3 import registry

    seen = set()
    for point, name in _extension_names(document):
        if (point, name) in seen or registry.is_registered(point, name):
            continue
        seen.add((point, name))
        writer = registry.WRITER_DATA_TYPES.get(name) if point == "data type" else None
        if writer is None and point == "codec" and name.startswith(registry.NUMCODECS_PREFIX):
            writer = "zarr-python 3 writes its numcodecs wrappers so"
        why = f"; {writer}" if writer else ""
        yield Finding(
            NOTE,
            None,
            "unregistered-extension",
            path,
            f"{point} {name!r} is not registered in {registry.REGISTRY_COMMIT}{why}; the reference "
            "checked it, but readers that do not know the name must refuse the array",
            format=format,
        )
