"""Read cases: open the node of a golden store and read it whole; the data must be bit-identical
(NaN payloads and -0.0 count), and what the implementation's API reports (shape, data type, chunk
shape, fill value, attributes, members) must be as the case says. What the API cannot report is
listed in the record (`unchecked`) rather than passed silently."""

import pytest

from conformance.corpus.judge import approximates, judge_read, unchecked
from conformance.harness.outcomes import fail, refused
from conformance.harness.session import case_needs
from conformance.suite.steps import read_node


@pytest.mark.conformance("read")
def test_read(harness, impl, case):
    response, result = read_node(
        harness, impl, case.store_path, case.format, case.node, case_needs("read", case)
    )
    if result is None:
        refused(f"could not read a valid store: {response.describe_error()}")
    harness.fields["unchecked"] = unchecked(case, result)
    if approximates(case, result):  # big JSON numbers as doubles: allowed, and recorded
        harness.fields["behaviour"] = "approximates"
    fail(judge_read(case, result))  # wrong data is WrongData (judge_read tags it)
