"""Every requirement ID the validator can print exists in the catalogue, and the reason codes it
maps exist in the shared vocabulary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import conformance.validate as validate_package
from conformance.reference.errors import REASONS, MetadataError
from conformance.resources import CATALOGUE
from conformance.validate.requirement_map import (
    REASON_REQUIREMENTS,
    SHOULD_LEVEL,
    requirement_for,
)

REPO = Path(__file__).resolve().parents[2]
ID_PATTERN = re.compile(r"\b(?:V1|V2|V3|V3HIST|V3DRAFT|ZOM)(?:-[A-Z0-9]+)+\b")


def parse_catalogue(path: Path) -> dict[str, str]:
    """ID -> level, read independently of the validator's own parser."""
    out = {}
    for line in path.read_text("utf-8").splitlines():
        match = re.match(r"- `([^`]+)` \[([^\]]+)\]", line)
        if match:
            out[match.group(1)] = match.group(2)
    return out


CATALOGUES = [CATALOGUE] + [p for p in [REPO.parent / "shared" / "requirements.md"] if p.is_file()]


@pytest.fixture(params=CATALOGUES, ids=lambda p: p.parent.name)
def catalogue(request) -> dict[str, str]:
    ids = parse_catalogue(request.param)
    assert len(ids) > 200, "the catalogue looks truncated"
    return ids


def test_every_mapped_id_exists(catalogue):
    missing = sorted({rid for rid in REASON_REQUIREMENTS.values() if rid not in catalogue})
    assert missing == []


def test_every_id_written_anywhere_in_the_validator_exists(catalogue):
    source = "\n".join(
        p.read_text("utf-8") for p in Path(validate_package.__file__).parent.glob("*.py")
    )
    cited = set(ID_PATTERN.findall(source))
    assert len(cited) > 40
    assert sorted(cited - set(catalogue)) == []


def test_should_level_ids_are_should_requirements(catalogue):
    for rid in SHOULD_LEVEL:
        assert "SHOULD" in catalogue[rid], rid


def test_mapped_reasons_and_formats_are_real():
    for fmt, kind, reason in REASON_REQUIREMENTS:
        assert reason in REASONS
        assert fmt in ("v1", "v2", "v3", "v3-draft") and kind in ("array", "group", "*")
        family = {"v1": "V1-", "v2": "V2-", "v3": "V3-", "v3-draft": "V3DRAFT-"}[fmt]
        assert REASON_REQUIREMENTS[(fmt, kind, reason)].startswith(family)


def test_lookup_prefers_the_error_own_id_and_never_invents_one():
    assert requirement_for("v3", "array", "unknown-field") == ("V3-ARR-010", "")
    assert requirement_for("v3", "group", "unknown-field") == ("V3-GRP-003", "")
    assert requirement_for("v3", "array", "codec-order", "V3-PIPE-001") == ("V3-PIPE-001", "")
    assert requirement_for("v3", "array", "corrupt-chunk") == (None, "")
    rid, note = requirement_for("v3", "array", "unknown-field", "V3-NOPE-999")
    assert rid == "V3-ARR-010" and "V3-NOPE-999" in note


def test_a_format_citing_an_unknown_id_prints_no_id(store_dir, run_cli, monkeypatch):
    from conformance.reference.formats.v3 import format as v3_format

    def refuse(*args, **kwargs):
        raise MetadataError("invalid-fill-value", "refused", "V3-MADE-UP-1")

    monkeypatch.setattr(v3_format, "parse_array_metadata", refuse)
    root = store_dir({"zarr.json": {"zarr_format": 3, "node_type": "array"}})
    output = run_cli(root)
    assert output.has("ERROR", None, "invalid-fill-value", "/")
    assert "V3-MADE-UP-1" in output.out and "not in the requirement catalogue" in output.out
