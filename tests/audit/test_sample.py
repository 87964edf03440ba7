"""Which behaviour reproduces which recorded outcome, and the stratified draw."""

from __future__ import annotations

from collections import Counter

from conformance.audit.audit import draw, eligible, expected_behaviours, stratum
from conformance.audit.reproduce import not_reproducible
from conformance.model import Record


def record(outcome: str, message: str = "", test: str = "read", impl: str = "x", **extra) -> Record:
    return Record.model_validate(
        {
            "run_id": "r",
            "test": test,
            "case": "v3/a/b",
            "impl": impl,
            "outcome": outcome,
            "message": message,
            **extra,
        }
    )


def test_outcomes_map_to_behaviours():
    assert expected_behaviours(record("wrong-data")) == {"wrong-data"}
    assert expected_behaviours(record("type-changed")) == {"type-changed"}
    assert expected_behaviours(record("lenient", "accepted a store", "reject")) == {"accepted"}
    assert expected_behaviours(record("declined", "could not read a valid store")) == {"refused"}
    assert expected_behaviours(record("errored", "x: TypeError is a crash")) == {"crashed"}
    assert expected_behaviours(record("unsupported", "refused cleanly: E: m")) == {
        "refused",
        "unsupported",
    }
    assert expected_behaviours(record("known-failure", "accepted a store that", "reject")) == {
        "accepted"
    }
    assert expected_behaviours(record("failed", "could not read a valid store: E")) == {"refused"}
    assert expected_behaviours(record("failed", "api/fill_value/bytes: '00' where '01'")) == {
        "mismatch"
    }
    stale = record("failed", "known failure now passes: remove the entry")
    assert expected_behaviours(stale) == {"passed"}
    pair = record("failed", "b could not read what a wrote: E: m", "cross", writer="a", reader="b")
    assert expected_behaviours(pair) == {"refused"}


def test_records_that_show_nothing_of_the_implementation_are_not_eligible():
    assert not_reproducible(record("unsupported", "unsupported: x does not declare op:write"))
    own = record(
        "unsupported",
        "unsupported: x: why (Unsupported: m)",
        refusal={"type": "Unsupported", "message": "m"},
    )
    assert "declined before calling" in not_reproducible(own)
    probe = record("unsupported", "refused cleanly: E: m", refusal={"type": "E", "message": "m"})
    assert not_reproducible(probe) is None
    assert not_reproducible(record("failed", test="zom"))
    records = [record("passed"), own, probe, record("lenient", test="reject")]
    chosen, excluded = eligible(records)
    assert chosen == [probe, records[3]] and sum(excluded.values()) == 1


def test_the_draw_is_stratified_and_repeatable():
    records = [record("lenient", test="reject", impl="a") for _ in range(50)]
    records += [record("wrong-data", impl="a") for _ in range(5)]
    records += [record("lenient", test="reject", impl="b") for _ in range(20)]
    records += [record("errored", impl="c")]
    sample = draw(records, 10, seed=7)
    assert len(sample) == 10
    counts = Counter(stratum(r) for r in sample)
    assert set(counts) == {stratum(r) for r in records}  # every stratum is drawn
    assert counts[("a", "lenient", "reject")] > counts[("b", "lenient", "reject")]  # by size
    assert [id(r) for r in draw(records, 10, seed=7)] == [id(r) for r in sample]
    assert [id(r) for r in draw(records, 10, seed=8)] != [id(r) for r in sample]
    few = draw(records, 2, seed=1)  # fewer than the strata: two strata, one record each
    assert len(few) == 2 and len({stratum(r) for r in few}) == 2
    assert len(draw(records, 500, seed=1)) == len(records)
