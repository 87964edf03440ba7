"""Findings about a node that opened: what the reference tolerated (its `notes`) and the few
SHOULD-level or store-level rules the reference has no reason to enforce on read."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .findings import NOTE, WARNING, Finding
from .requirement_map import known

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


def lint_node(node, format: str) -> Iterator[Finding]:
    path, kind = node.path, node.kind
    # The reference's notes: tolerated deviations. One citing a requirement is a warning; one
    # that cites none (an ignored must_understand:false member, say) is information.
    for note in getattr(node, "notes", None) or []:
        requirement = cited_requirement(str(note))
        level = WARNING if requirement else NOTE
        yield Finding(level, requirement, _reason_for_note(format, kind, requirement), path, str(note), format=format)
    document = node.metadata if isinstance(node.metadata, dict) else {}
    if format == "v3" and kind == "array":
        names = document.get("dimension_names")
        if isinstance(names, list):
            given = [n for n in names if isinstance(n, str)]
            duplicates = sorted({n for n in given if given.count(n) > 1})
            if duplicates:
                yield Finding(WARNING, "V3-ARR-009", "invalid-dimension-names", path,
                              f"dimension names should be unique; repeated: {duplicates}", format=format)
