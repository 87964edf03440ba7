"""Hostile cases (fixtures/hostile, `--kinds hostile`): each is sent as a read to each adapter, on a
copy of the case (its FIFOs made, its HTTP routes served), under the harness's caps: the adapter
memory cap and, here, a shorter time per request (HOSTILE_TIMEOUT). What happens is recorded and
never fails a run (tier "hostile", conformance.model.gates); only the run must survive.

- passed: a clean refusal; or, where the store itself is valid and only what lies beside it is
  hostile (links out of it, zip members named '../x'), the answer the reference gives;
- errored: a crash, a hang (killed), running out of memory, blocking on a FIFO;
- wrong-data: data returned for a store the reference refuses, or data from outside the store;
- failed: the read changed files in or beside the store.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager

import numpy as np
import pytest

from conformance.corpus.hostile import SECRET, fifo_release, materialize
from conformance.harness.adapter_api import load_data
from conformance.harness.outcomes import Crashed, WrongData, fail
from conformance.testing.documents import tree_state
from conformance.testing.faults import serve_hostile

HOSTILE_TIMEOUT = 40.0  # seconds per read: past the reference's own 30 s network timeout
FIFO_GRACE = 5.0  # a reader still blocked on a FIFO after this is released (and errored)


@contextmanager
def request_timeout(client, seconds: float):
    """The client's per-request timeout lowered to `seconds` for the block."""
    saved = client.timeout
    client.timeout = min(saved, seconds) if saved else seconds
    try:
        yield
    finally:
        client.timeout = saved


def hostile_read(harness, impl: str, case, timeout: float = HOSTILE_TIMEOUT):
    """(response, released FIFOs, whether files changed) of reading the case's node."""
    client = harness.adapter(impl, case.needs)
    folder = materialize(case, harness.workdir())
    before = tree_state(folder)
    output = harness.workdir() / "read.npy"
    with ExitStack() as stack:
        if case.store_kind == "http":
            store = {"kind": "url", "location": stack.enter_context(serve_hostile(case, folder))}
        else:
            store = {"kind": case.store_kind, "location": str(folder / case.store)}
        released = stack.enter_context(fifo_release(folder, case, FIFO_GRACE))
        stack.enter_context(request_timeout(client, timeout))
        response = client.call(
            "read", store=store, format=case.format, node=case.node, output=str(output)
        )
    return response, list(released), tree_state(folder) != before


def judge_answer(case, body: dict) -> None:
    """An answer (not a refusal) against what the case expects to come back, if anything."""
    expect = case.expect["read"]
    what = body["node_type"]
    if "or_fill" in expect:  # a special file passed over as a missing chunk is as safe
        expect = {"outcome": "data", "fill": expect["or_fill"]}
    if expect["outcome"] == "refuse":
        raise WrongData(
            f"returned a {what} {body.get('shape') or ''} for a store the reference refuses "
            f"({expect['reason']})"
        )
    if expect["outcome"] == "group":
        members = body.get("members") or {}
        if what != "group" or members != expect["members"]:
            raise WrongData(
                f"returned a {what} with members {sorted(members)}, expected a group with "
                f"{sorted(expect['members'])}: members reached through links or names that "
                "leave the store"
            )
        return
    data = load_data(body["data"]) if what == "array" else None
    if data is None or data.shape != (16,) or np.any(data != expect["fill"]):
        leaked = data is not None and bytes(np.asarray(data, dtype="<i4").tobytes()) == SECRET
        raise WrongData(
            ("returned the bytes of a file outside the store: " if leaked else "returned ")
            + f"{np.asarray(data).tolist()}, expected the fill value {expect['fill']} everywhere"
        )


@pytest.mark.conformance("hostile")
def test_hostile(harness, impl, case):
    response, released, changed = hostile_read(harness, impl, case)
    if released:
        raise Crashed(
            f"{impl} blocked on the FIFO {', '.join(released)} (released after {FIFO_GRACE:g} s)"
        )
    if changed:
        fail("the read changed files in or beside the store")
    if harness.check_response(impl, response) is None:
        judge_answer(case, response.body)
