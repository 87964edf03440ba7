"""Cross cases: for each ordered pair (writer, reader) of the selected adapters and each write case
both support, the writer writes and the reader reads; the reader must see exactly the writer's
input (data bit-identical, attributes equal type-strictly). A pair of one adapter with itself is
recorded as test `roundtrip` (conformance.harness.plan)."""

import pytest

from conformance.corpus.jsonstrict import differences
from conformance.corpus.judge import compare_arrays
from conformance.harness.outcomes import fail
from conformance.harness.session import case_needs
from conformance.suite.steps import read_node, write_node


@pytest.mark.conformance("cross")
def test_cross(harness, writer, reader, case):
    harness.adapter(
        reader, case_needs("cross", case, "reader")
    )  # both sides checked before writing
    store = harness.workdir() / "store"
    response = write_node(harness, writer, case, store, case_needs("cross", case, "writer"))
    if not response.ok:
        fail(f"{writer} could not write: {response.describe_error()}")
    request = case.write_request()
    response, result = read_node(
        harness, reader, store, case.format, request.path, case_needs("cross", case, "reader")
    )
    if result is None:
        fail(f"{reader} could not read what {writer} wrote: {response.describe_error()}")
    if result.node_type != request.node_type:
        fail(f"{reader} opened a {result.node_type}, {writer} wrote a {request.node_type}")
    problems = []
    if result.attributes is None:
        harness.fields["unchecked"] = ["attributes"]
    else:
        problems += differences(request.attributes, result.attributes, "attributes")
    if request.node_type == "array" and request.data is not None:
        problems += compare_arrays(
            request.data, result.data, f"data written by {writer}, read by {reader}"
        )
    fail(problems)
