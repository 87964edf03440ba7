"""A suite that cannot fail is worth nothing: each miniature broken implementation here (one bug
each, see */adapter.py) must be caught, i.e. the relevant part of the suite must give at least one
`failed` or `wrong-data` outcome on the cases that target its bug (and no `errored`: a bug is a
wrong answer, not a crash), while the reference passes the same cases.

The suite's own test functions are called directly (one shared session, adapter processes reused),
which exercises exactly the checks `zarr-conformance run` makes; tests/harness covers the plugin."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from conformance.corpus import default_root, load_cases
from conformance.harness.config import ADAPTERS_DIR, load_adapter_config
from conformance.harness.session import CASE_KIND, Options, SuiteSession
from conformance.suite.direct import run_case

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from targets import TARGETS, Target, build_fallback, select  # noqa: E402


@pytest.fixture(scope="module")
def session():
    names = [str(HERE / t.bug) for t in TARGETS] + [str(ADAPTERS_DIR / "reference")]
    session = SuiteSession(Options(impls=names))
    yield session
    session.close()


@pytest.fixture(scope="module")
def corpus():
    root = default_root()
    return load_cases(root) if root.is_dir() else []


def cases_for(target: Target, corpus, tmp_path_factory):
    chosen = select(target, corpus)
    if not chosen:  # the corpus has no such case (yet): use the ones built here
        chosen = load_cases(build_fallback(tmp_path_factory.mktemp("fallback"), target))
    return chosen


@pytest.mark.parametrize("target", TARGETS, ids=[t.bug for t in TARGETS])
def test_the_suite_catches_the_bug(target, session, corpus, tmp_path_factory):
    cases = cases_for(target, corpus, tmp_path_factory)
    outcomes = []
    for case in cases:
        for test in target.tests:
            if CASE_KIND[test] != case.kind:
                continue
            reference = run_case(session, test, "reference", case)
            assert reference.outcome == "passed", (
                f"the reference must pass {case.id} ({test}): {reference}"
            )
            verdict = run_case(session, test, target.bug, case)
            outcomes.append((case.id, test, verdict.outcome, verdict.message))
    assert outcomes, f"no case to run for {target.bug}"
    failed = [o for o in outcomes if o[2] in ("failed", "wrong-data")]
    assert failed, f"{target.bug} was not caught on {len(outcomes)} case(s): {outcomes}"
    assert not [o for o in outcomes if o[2] == "errored"], outcomes


def test_at_least_ten_broken_implementations():
    assert len(TARGETS) >= 10
    assert {t.bug for t in TARGETS} == {
        p.name for p in HERE.iterdir() if (p / "adapter.toml").is_file()
    }


def test_broken_adapters_claim_what_the_reference_claims():
    reference = load_adapter_config(ADAPTERS_DIR / "reference").capabilities
    for target in TARGETS:
        assert load_adapter_config(HERE / target.bug).capabilities == reference, target.bug


def test_each_bug_names_its_requirements():
    for target in TARGETS:
        doc = (HERE / target.bug / "adapter.py").read_text()
        assert re.search(r"\b(V1|V2|V3)-[A-Z]+-\d{3}\b", doc), target.bug
