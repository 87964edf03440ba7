"""Read cases: open the node of a golden store and read it whole; the data must be bit-identical
(NaN payloads and -0.0 count), and shape, dtype, attributes, members and the metadata document
must be as the case says."""

import pytest

from conformance.corpus.judge import judge_read
from conformance.harness.outcomes import fail
from conformance.harness.session import case_needs
from conformance.suite.steps import metadata_problems, read_node


@pytest.mark.conformance("read")
def test_read(harness, impl, case):
    response, result = read_node(harness, impl, case.store_path, case.format, case.node, case_needs("read", case))
    if result is None:
        fail(f"could not read a valid store: {response.describe_error()}")
    problems = judge_read(case, result)  # data bit-exact, shape, dtype kind and size, attributes, members
    problems += metadata_problems(case.expect.get("metadata"), result.metadata)
    fail(problems)
