"""Cross cases: for each ordered pair (writer, reader) of the selected adapters and each write case
both support, the writer writes (and applies the case's steps) and the reader reads; the reader
must see exactly the writer's input, or after steps the case's `result` (data bit-identical apart
from elements the spec leaves undefined, attributes equal type-strictly). A pair of one adapter with itself is
recorded as test `roundtrip` (conformance.harness.plan).

Blame follows evidence: a refusal or crash is the side's that refused or crashed; when the reader
sees something other than the input, the reference reads the writer's store: read back exactly,
the reader is at fault; otherwise the writer (steps.reference_reads_as). When the test does not
pass, the writer's store is kept (failures.keep_store; the record's `example`), for the reader's
reproducer."""

import pytest

from conformance.corpus.jsonstrict import differences
from conformance.corpus.judge import compare_defined
from conformance.harness.outcomes import fail, refused
from conformance.harness.session import case_needs
from conformance.suite.failures import keep_store
from conformance.suite.steps import (
    about_attributes,
    pair_blame,
    read_node,
    reference_reads_as,
    refused_read,
    refused_write,
    write_node,
)


@pytest.mark.conformance("cross")
def test_cross(harness, writer, reader, case):
    harness.adapter(
        reader, case_needs("cross", case, "reader")
    )  # both sides checked before writing
    store = harness.workdir() / "store"
    response = write_node(harness, writer, case, store, case_needs("cross", case, "writer"))
    if not response.ok:
        refused(f"{writer} {refused_write(response)}", side="writer")
    request = case.write_request()
    expected, undefined = case.expected_result()

    def at_fault(attributes: bool) -> tuple[str, str]:
        seen = reference_reads_as(
            case.format,
            store,
            request.path,
            expected,
            request.attributes if attributes else None,
            undefined,
        )
        return pair_blame(writer, seen)

    try:
        read_back(harness, writer, reader, case, store, expected, undefined, at_fault)
    except Exception:  # not passed (a skip is no Exception): keep the store for the reproducer
        harness.fields["example"] = str(
            keep_store(case.id, writer, reader, store, harness.store_kind or "directory")
        )
        raise


def read_back(harness, writer, reader, case, store, expected, undefined, at_fault) -> None:
    request = case.write_request()
    response, result = read_node(
        harness, reader, store, case.format, request.path, case_needs("cross", case, "reader")
    )
    if result is None:
        refused_read(reader, writer, response, store, case.format, request.path, at_fault)
    problems = []
    if result.node_type != request.node_type:
        problems.append(
            f"{reader} opened a {result.node_type}, {writer} wrote a {request.node_type}"
        )
    elif result.attributes is None:
        harness.fields["unchecked"] = ["attributes"]
    else:
        problems += differences(request.attributes, result.attributes, "attributes")
    if request.node_type == "array" and expected is not None and not problems[:1]:
        problems += compare_defined(
            expected, result.data, undefined, f"data written by {writer}, read by {reader}"
        )
    if problems:
        side, evidence = at_fault(about_attributes(problems))
        fail(problems, side=side, evidence=evidence)
