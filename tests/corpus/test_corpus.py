"""The corpus keeps its promises: schema-valid, traceable, small, complete, and the reference
passes every case."""

from __future__ import annotations

import json

import jsonschema
import pytest

from conformance.corpus import default_root, load_cases
from conformance.corpus.capabilities import unknown
from conformance.corpus.reference_verdict import reference_verdict
from conformance.corpus.requirements import load_requirements

ROOT = default_root()
CASES = load_cases(ROOT)
SCHEMA = json.loads((ROOT / "case.schema.json").read_text())
MIN_VALID, MIN_REJECT = 300, 150


def test_corpus_is_not_empty_or_shrunk():
    valid = [c for c in CASES if c.kind in ("read", "write")]
    reject = [c for c in CASES if c.kind == "reject"]
    assert len(valid) >= MIN_VALID, f"only {len(valid)} valid cases (expected at least {MIN_VALID})"
    assert len(reject) >= MIN_REJECT, (
        f"only {len(reject)} must-reject cases (expected at least {MIN_REJECT})"
    )


def test_case_documents_follow_the_schema_and_ids_are_paths():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    descriptions = {}
    for case in CASES:
        errors = [e.message for e in validator.iter_errors(case.raw)]
        assert not errors, f"{case.id}: {errors[:3]}"
        assert case.dir.relative_to(ROOT).as_posix() == case.id
        assert case.description not in descriptions, (
            f"{case.id} repeats the description of {descriptions.get(case.description)}"
        )
        descriptions[case.description] = case.id


def test_requirement_ids_and_capabilities_exist():
    known = load_requirements()
    for case in CASES:
        assert all(r in known for r in case.requirements), (
            f"{case.id}: unknown IDs {[r for r in case.requirements if r not in known]}"
        )
        assert not unknown(case.needs), f"{case.id}: unknown capabilities {unknown(case.needs)}"


def test_sizes():
    total = 0
    for case in CASES:
        size = sum(p.stat().st_size for p in case.dir.rglob("*") if p.is_file())
        assert size <= 256 * 1024, f"{case.id} is {size} bytes"
        total += size
    assert total < 25 * 2**20, f"the corpus is {total} bytes"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_reference_passes(case):
    problems = reference_verdict(case)
    assert not problems, "\n".join(problems)


def test_regenerating_reproduces_the_corpus_byte_for_byte(capsys):
    from conformance.cli import main

    assert main(["corpus", "check"]) == 0, capsys.readouterr().out
