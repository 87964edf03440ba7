"""Faults (`--kinds fault`): a valid corpus case read while one of its chunks fails (HTTP 500), comes
back short (a truncated answer, or a connection closed early), stalls beyond the request's time,
or (for adapters that cannot read HTTP) is a truncated file of a directory store
(conformance/testing/faults.py). An implementation must raise rather than return wrong data.
Recorded, never failing a run (tier "hostile"):

- passed: it raised (a clean refusal), or returned exactly the case's data;
- errored: a crash, or a hang the harness had to kill (FAULT_TIMEOUT);
- wrong-data: it returned data that differs from the case's.
"""

from __future__ import annotations

import pytest

from conformance.corpus.judge import compare_arrays
from conformance.harness.adapter_api import load_data
from conformance.harness.outcomes import fail
from conformance.suite.test_hostile import request_timeout
from conformance.testing.faults import faulted_store

FAULT_TIMEOUT = 40.0  # seconds per read (as test_hostile); a stalled chunk outlasts it


@pytest.mark.conformance("fault")
def test_fault(harness, impl, case):
    client = harness.adapter(impl, case.needs)
    output = harness.workdir() / "read.npy"
    with (
        faulted_store(case.base, case.fault, harness.workdir()) as store,
        request_timeout(client, FAULT_TIMEOUT),
    ):
        response = client.call(
            "read", store=store, format=case.format, node=case.node, output=str(output)
        )
    if harness.check_response(impl, response) is not None:
        return  # it raised: the fault did not pass for data
    body = response.body
    data = load_data(body["data"]) if body["node_type"] == "array" else None
    fail(compare_arrays(case.base.expected_data(), data, f"data read through {case.fault}"))
