"""Drafting known failures from a run: records of one bug group together, their pattern matches
each of their messages and not another bug's, and existing entries get the patterns of what they
explained."""

from __future__ import annotations

import re
import tomllib

from conformance.harness.drafts import draft_toml, observed_patterns, pattern_of, signature
from conformance.harness.records import make_record


def rec(case, message, outcome="failed", impl="x", **kw):
    return make_record(
        run_id="r", test="read", case=case, impl=impl, outcome=outcome, message=message, **kw
    )


RECORDS = [
    rec("v3/a", "could not read a valid store: TypeError: Invalid type: 'x'. Expected a string."),
    rec("v3/b", "could not read a valid store: TypeError: Invalid type: 42. Expected a string."),
    rec("v3/c", "data: 3 of 10 elements differ bit-wise; first at flat index 2", "wrong-data"),
    rec("v3/d", "could not read a valid store: KeyError: 'zstd'", impl="y"),
]


def test_records_of_one_bug_share_a_signature_and_their_pattern_matches_them():
    assert signature(RECORDS[0]["message"]) == signature(RECORDS[1]["message"])
    pattern = pattern_of(signature(RECORDS[0]["message"]))
    assert all(re.search(pattern, r["message"]) for r in RECORDS[:2])
    assert not re.search(pattern, RECORDS[2]["message"])
    assert not re.search(pattern, RECORDS[3]["message"])


def test_a_draft_is_valid_toml_with_one_entry_per_group():
    from conformance.harness.drafts import unexplained

    groups = unexplained(RECORDS, "x")
    assert [len(g.records) for g in groups] == [2, 1]
    doc = tomllib.loads(draft_toml(groups, "x"))
    first = doc["known_failures"][0]
    assert first["cases"] == ["v3/a", "v3/b"] and first["issue"] == "unreported"
    assert all(re.search(first["observed"][0], r["message"]) for r in RECORDS[:2])


def test_observed_patterns_of_existing_entries():
    known = {"id": "bug", "owner": "x", "reason": "r", "issue": "unreported"}
    records = [dict(r, known_failure=known) for r in RECORDS[:2]]
    assert observed_patterns(records, "x") == {
        "bug": ([pattern_of(signature(RECORDS[0]["message"]))], 2)
    }
