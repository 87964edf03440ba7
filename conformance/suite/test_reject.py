"""Reject cases: a store that breaks the spec must fail to open (stage "open") or to read (stage
"read"). Only a clean refusal counts: a crash (a crash-type exception, an exception raised in
adapter code) or a hang is `errored` (see TestContext.check_response). The refusal's category is
recorded against the one the case's reason code implies (`refusal`). Adapters whose errors carry
this project's reason codes (the reference) must give the case's reason code."""

import pytest

from conformance.corpus.judge import judge_reject
from conformance.harness.outcomes import accepted, fail
from conformance.harness.session import case_needs
from conformance.suite.steps import describe_array, read_node


@pytest.mark.conformance("reject")
def test_reject(harness, impl, case):
    response, result = read_node(
        harness, impl, case.store_path, case.format, case.node, case_needs("reject", case)
    )
    if result is not None:
        accepted(
            judge_reject(case, raised=False)[0]
            + f"; it read {result.node_type} {describe_array(result.data)}"
        )
    if harness.session.config(impl).reason_codes:
        if response.reason is None:
            fail(
                f"rejected without a reason code ({response.describe_error()}); expected {case.expect['reason']!r}"
            )
        fail(judge_reject(case, True, response.error_message, response.reason))
