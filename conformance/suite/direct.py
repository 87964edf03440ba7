"""Calling the suite's test functions without pytest's collection: one verdict per (test kind,
adapter, case), planned (conformance.harness.plan) and settled (conformance.harness.outcomes)
exactly as the plugin does. Used by the self-tests (tests/broken, tests/harness), where one
pytest run inside another would be slow."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from conformance.harness.outcomes import describe_exception, raw_outcome, settle
from conformance.harness.plan import plan_single
from conformance.harness.session import SuiteSession, TestContext


@dataclass
class Verdict:
    outcome: str
    message: str
    fields: dict = field(
        default_factory=dict
    )  # what the record would carry besides: probe, refusal, unchecked, ...


def suite_function(test: str):
    from conformance.suite import test_read, test_reject, test_write, test_zom

    return {
        "read": test_read.test_read,
        "reject": test_reject.test_reject,
        "write": test_write.test_write,
        "zom": test_zom.test_zom,
    }[test]


def run_case(
    session: SuiteSession, test: str, name: str, case, store_kind: str | None = None
) -> Verdict:
    """store_kind: over a remote store kind (http, s3; the session starts its servers)."""
    plan = plan_single(session, test, name, case, store_kind)
    if plan.mode == "skip":
        return Verdict("unsupported", plan.skip_reason)
    context = TestContext(session, plan, case, store_kind)
    try:
        suite_function(test)(harness=context, impl=name, case=case)
        raw, message = "passed", ""
    except pytest.skip.Exception as exc:
        raw, message = "unsupported", str(exc)
    except Exception as exc:
        raw, message = raw_outcome(exc), describe_exception(exc)
    finally:
        context.cleanup()
    outcome, message, known = settle(raw, message, plan.known, context.probed)
    fields = dict(context.fields, **({"probe": True} if context.probe else {}))
    if known is not None:
        fields["known_failure"] = known.as_record()
    return Verdict(outcome, message, fields)
