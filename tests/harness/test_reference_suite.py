"""The reference adapter passes the whole suite over the whole corpus (read, reject, write, zom,
and cross with itself), through the same test functions `zarr-conformance run` uses. In-process
transport: the point here is the verdicts, tests/harness/test_run.py covers the process path."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.corpus import default_root, load_cases
from conformance.harness.session import CASE_KIND, Options, SuiteSession
from conformance.suite.direct import run_case


@pytest.fixture(scope="module")
def corpus(mini_corpus):
    root = default_root() if default_root().is_dir() else mini_corpus
    return root, load_cases(root)


def test_reference_passes_every_case(corpus):
    root, cases = corpus
    session = SuiteSession(Options(impls=["reference"], fixtures=root, in_process=True))
    outcomes, bad = Counter(), []
    try:
        for case in cases:
            for test in [t for t, kind in CASE_KIND.items() if kind == case.kind and t != "cross"]:
                verdict = run_case(session, test, "reference", case)
                outcomes[verdict.outcome] += 1
                if verdict.outcome != "passed":
                    bad.append(f"{test} {case.id}: {verdict.outcome}: {verdict.message[:300]}")
    finally:
        session.close()
    assert not bad, f"{len(bad)} of {sum(outcomes.values())} not passed:\n" + "\n".join(bad[:30])
    assert outcomes["passed"] == len(cases)
