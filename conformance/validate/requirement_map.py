"""Which requirement a reference error breaks.

A format module sets `ZarrError.requirement` where it knows it; otherwise the reason code, the
format and the kind of node choose the most specific requirement ID below. Reasons with no single
fitting requirement map to None and print as '-': a vague ID would be worse than none. Every ID
printed is checked against the catalogue shipped with the package (conformance/requirements.md).
"""

from __future__ import annotations

from functools import lru_cache

from ..corpus.requirements import load_requirements

# (format, node kind or '*', reason) -> requirement ID
REASON_REQUIREMENTS: dict[tuple[str, str, str], str] = {
    # v3 (final)
    ("v3", "*", "invalid-json"): "V3-ARR-013",
    ("v3", "array", "missing-field"): "V3-ARR-003",
    ("v3", "group", "missing-field"): "V3-GRP-001",
    ("v3", "array", "unknown-field"): "V3-ARR-010",
    ("v3", "group", "unknown-field"): "V3-GRP-003",
    ("v3", "array", "must-understand"): "V3-ARR-010",
    ("v3", "group", "must-understand"): "V3-GRP-003",
    ("v3", "array", "invalid-zarr-format"): "V3-ARR-001",
    ("v3", "group", "invalid-zarr-format"): "V3-GRP-001",
    ("v3", "array", "invalid-node-type"): "V3-ARR-002",
    ("v3", "group", "invalid-node-type"): "V3-GRP-001",
    ("v3", "*", "invalid-shape"): "V3-ARR-004",
    ("v3", "*", "invalid-chunk-shape"): "V3-ARR-012",
    ("v3", "*", "invalid-chunk-grid"): "V3-GRID-001",
    ("v3", "*", "invalid-chunk-key-encoding"): "V3-CKE-003",
    ("v3", "*", "invalid-data-type"): "V3-DT-008",
    ("v3", "*", "invalid-order"): "V3-TRANS-001",
    ("v3", "*", "invalid-codec"): "V3-ARR-014",
    ("v3", "*", "unknown-codec"): "V3-EXT-004",
    ("v3", "*", "codec-order"): "V3-PIPE-001",
    ("v3", "*", "invalid-dimension-names"): "V3-ARR-008",
    ("v3", "*", "invalid-storage-transformer"): "V3-ARR-007",
    ("v3", "*", "invalid-attributes"): "V3-ATTR-001",
    ("v3", "*", "invalid-extension"): "V3-EXT-001",
    ("v3", "*", "implicit-group"): "V3-GRP-005",
    ("v3", "*", "checksum-mismatch"): "V3-CRC-003",
    ("v3", "*", "corrupt-shard-index"): "V3-SHARD-016",
    # v2
    ("v2", "*", "invalid-json"): "V2-META-009",
    ("v2", "array", "missing-field"): "V2-META-001",
    ("v2", "group", "missing-field"): "V2-GROUP-002",
    ("v2", "array", "unknown-field"): "V2-META-008",
    ("v2", "group", "unknown-field"): "V2-GROUP-002",
    ("v2", "array", "invalid-zarr-format"): "V2-META-002",
    ("v2", "group", "invalid-zarr-format"): "V2-GROUP-002",
    ("v2", "*", "invalid-shape"): "V2-META-003",
    ("v2", "*", "invalid-chunk-shape"): "V2-META-003",
    ("v2", "*", "invalid-chunk-key-encoding"): "V2-META-007",
    ("v2", "*", "invalid-data-type"): "V2-DTYPE-001",
    ("v2", "*", "invalid-order"): "V2-META-006",
    ("v2", "*", "unknown-codec"): "V2-CHUNK-008",
    ("v2", "*", "invalid-attributes"): "V2-ATTR-001",
    ("v2", "*", "invalid-path"): "V2-KEY-005",
    ("v2", "*", "implicit-group"): "V2-GROUP-004",
    # v1
    ("v1", "*", "invalid-json"): "V1-META-001",
    ("v1", "*", "invalid-metadata"): "V1-META-001",
    ("v1", "*", "missing-field"): "V1-META-002",
    ("v1", "*", "invalid-zarr-format"): "V1-META-003",
    ("v1", "*", "invalid-order"): "V1-META-005",
    ("v1", "*", "invalid-data-type"): "V1-DTYPE-001",
    ("v1", "*", "invalid-codec"): "V1-META-006",
    ("v1", "*", "unknown-codec"): "V1-META-006",
    ("v1", "*", "invalid-attributes"): "V1-ATTR-001",
    # v3 draft (seed 002)
    ("v3-draft", "*", "invalid-zarr-format"): "V3DRAFT-META-001",
    ("v3-draft", "array", "missing-field"): "V3DRAFT-META-004",
    ("v3-draft", "group", "missing-field"): "V3DRAFT-META-016",
    ("v3-draft", "array", "unknown-field"): "V3DRAFT-META-005",
    ("v3-draft", "group", "unknown-field"): "V3DRAFT-META-016",
    ("v3-draft", "*", "must-understand"): "V3DRAFT-META-003",
    ("v3-draft", "*", "invalid-data-type"): "V3DRAFT-META-006",
    ("v3-draft", "*", "invalid-chunk-grid"): "V3DRAFT-META-009",
    ("v3-draft", "*", "invalid-order"): "V3DRAFT-META-010",
    ("v3-draft", "*", "invalid-fill-value"): "V3DRAFT-META-011",
    ("v3-draft", "*", "invalid-codec"): "V3DRAFT-META-013",
    ("v3-draft", "*", "unknown-codec"): "V3DRAFT-META-013",
    ("v3-draft", "*", "invalid-storage-transformer"): "V3DRAFT-META-014",
    ("v3-draft", "*", "invalid-attributes"): "V3DRAFT-META-017",
    ("v3-draft", "*", "invalid-node-name"): "V3DRAFT-KEY-006",
}

# Reference errors that break only a SHOULD: reported as warnings, not errors.
SHOULD_LEVEL: frozenset[str] = frozenset({"V2-META-008"})


@lru_cache(maxsize=1)
def catalogue_levels() -> dict[str, str]:
    """Requirement ID -> level ('MUST', 'SHOULD NOT / SHOULD', ...); empty if the catalogue is
    not installed."""
    try:
        catalogue = load_requirements()
    except OSError:
        return {}
    return {rid: requirement.level for rid, requirement in catalogue.items()}


def known(requirement: str | None) -> bool:
    levels = catalogue_levels()
    return requirement is not None and (not levels or requirement in levels)


def requirement_for(
    format: str | None, kind: str | None, reason: str, given: str | None = None
) -> tuple[str | None, str]:
    """(requirement ID or None, note). `given` is the ID the error itself carries; an ID that is
    not in the catalogue is never printed: the note then says which one was cited."""
    if given:
        if known(given):
            return given, ""
        note = f" (the reference cited {given!r}, which is not in the requirement catalogue)"
    else:
        note = ""
    rid = REASON_REQUIREMENTS.get((format or "", kind or "*", reason)) or REASON_REQUIREMENTS.get(
        (format or "", "*", reason)
    )
    return (rid if known(rid) else None), note
