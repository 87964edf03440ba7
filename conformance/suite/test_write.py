"""Write cases: the adapter creates the node in an empty directory store (and, for a case with
steps, then writes regions into it and resizes it: one `update` request); the REFERENCE then
reads the store back and judge_write decides (keys, documents, data bit-identical to the input).
A writer is never judged by its own reader; data the reference reads back different from the
input is `wrong-data` (judge_write keeps compare_arrays' DataProblems). Cases with `must_fail` are
requests the writer must refuse (an invalid path, ...)."""

import pytest

from conformance.corpus.judge import judge_refused_write, judge_write
from conformance.harness.outcomes import accepted, fail, refused
from conformance.harness.session import case_needs
from conformance.suite.steps import refused_write, write_node


@pytest.mark.conformance("write")
def test_write(harness, impl, case):
    store = harness.workdir() / "store"
    response = write_node(harness, impl, case, store, case_needs("write", case))
    if "must_fail" in case.expect:  # a request that must be refused (an invalid path, ...)
        reason = response.reason if harness.session.config(impl).reason_codes else None
        if not response.ok and reason is None and harness.session.config(impl).reason_codes:
            fail(
                f"refused without a reason code ({response.describe_error()}); expected {case.expect['must_fail']!r}"
            )
        if response.ok:
            accepted(judge_refused_write(case, False)[0])
        fail(judge_refused_write(case, True, response.error_message, reason))
        return
    if not response.ok:
        refused(refused_write(response))
    fail(judge_write(case, store))
