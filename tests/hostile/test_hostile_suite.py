"""The suite's hostile and fault tests (conformance/suite/test_hostile.py, test_faults.py) tell a
careful reader from a trusting one: the reference passes; a fake that follows links and '..',
parses NaN tokens and opens FIFOs (fakes/naive) gets wrong-data and errored, and the run survives.
Hostile and fault records never fail a run (conformance.model.gates)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.corpus import hostile
from conformance.harness.records import make_record, unexpected
from conformance.harness.session import Options, SuiteSession
from conformance.suite import test_faults as fault_suite
from conformance.suite import test_hostile as hostile_suite
from conformance.suite.direct import run_case
from conformance.testing.faults import fault_cases

NAIVE = str(Path(__file__).parent / "fakes" / "naive")
CASES = {c.name: c for c in hostile.load_cases()}


def verdict(session: SuiteSession, function, test: str, impl: str, case) -> tuple[str, str]:
    """(outcome, message) of one suite test, planned and concluded as the plugin does."""
    found = run_case(session, test, impl, case, function=function)
    return found.outcome, found.message


@pytest.fixture(scope="module")
def session():
    session = SuiteSession(Options(impls=["reference", NAIVE], timeout=60))
    yield session
    session.close()


EXPECTED = {  # case -> (reference, naive)
    "symlink-chunk-out": ("passed", "wrong-data"),
    "symlink-node-out": ("passed", "wrong-data"),
    "path-node-dotdot": ("passed", "wrong-data"),
    "json-nan-token": ("passed", "wrong-data"),
    "json-deep-100k": ("passed", "errored"),  # RecursionError: a crash, not a refusal
    "special-fifo-chunk": ("passed", "errored"),  # blocked on the FIFO until released
    "zip-dotdot-members": ("passed", "unsupported"),  # the fake has no zip store
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_verdicts(session, name):
    case = CASES[name]
    for impl, want in zip(("reference", "naive"), EXPECTED[name]):
        outcome, message = verdict(session, hostile_suite.test_hostile, "hostile", impl, case)
        assert outcome == want, (impl, name, message)
        if impl == "naive" and name == "symlink-chunk-out":
            assert "outside the store" in message


def test_fault_verdicts(session):
    """The reference raises on each fault of a directory or HTTP store; the fake, which reads a
    truncated chunk file as it is, cannot even shape it (a refusal), so truncation is caught."""
    cases = fault_cases(session.all_cases())
    assert {c.fault for c in cases} >= {"http-500", "http-truncated", "directory-truncated-chunk"}
    for case in cases:
        if case.fault == "http-stall":
            continue  # 30 s: the reference's own network timeout (run in the matrix)
        outcome, message = verdict(session, fault_suite.test_fault, "fault", "reference", case)
        assert outcome == "passed", (case.id, message)


def test_hostile_records_do_not_fail_a_run():
    def record(outcome: str, tier: str) -> dict:
        return make_record(
            run_id="r", test="hostile", case="hostile/x", impl="a", outcome=outcome, tier=tier
        )

    assert unexpected([record("errored", "hostile"), record("wrong-data", "hostile")]) == []
    assert len(unexpected([record("errored", "required")])) == 1
