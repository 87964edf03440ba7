"""Write cases: the adapter creates the node in an empty directory store; the REFERENCE then
reads the store back and judge_write decides (keys, documents, data bit-identical to the input).
A writer is never judged by its own reader."""

import pytest

from conformance.corpus.judge import judge_write
from conformance.harness.outcomes import fail
from conformance.harness.session import case_needs
from conformance.suite.steps import write_node


@pytest.mark.conformance("write")
def test_write(harness, impl, case):
    store = harness.workdir() / "store"
    response = write_node(harness, impl, case, store, case_needs("write", case))
    if not response.ok:
        fail(f"could not write: {response.describe_error()}")
    fail(judge_write(case, store))
