"""Calling the suite's test functions without pytest's collection: one verdict per (test kind,
adapter, case), planned (conformance.harness.plan) and concluded (conformance.harness.verdicts)
exactly as the plugin does. Used by the self-tests (tests/broken, tests/harness), where one
pytest run inside another would be slow."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from conformance.harness.outcomes import Observation, observe
from conformance.harness.plan import plan_single
from conformance.harness.session import SuiteSession, TestContext
from conformance.harness.verdicts import Subject, conclude, record_of


@dataclass
class Verdict:
    outcome: str
    message: str
    # what the record carries besides: probe, refusal, unchecked, known_failure, blame, ...
    fields: dict = field(default_factory=dict)


def suite_function(test: str):
    from conformance.suite import test_read, test_reject, test_write, test_zom

    return {
        "read": test_read.test_read,
        "reject": test_reject.test_reject,
        "write": test_write.test_write,
        "zom": test_zom.test_zom,
    }[test]


def run_case(
    session: SuiteSession,
    test: str,
    name: str,
    case,
    store_kind: str | None = None,
    function=None,
) -> Verdict:
    """store_kind: over a remote store kind (http, s3; the session starts its servers);
    function: the suite function to call (default: the one of `test`)."""
    plan = plan_single(session, test, name, case, store_kind)
    subject = Subject(test, case.id, impl=name, store=store_kind or case.store_kind)
    context = TestContext(session, plan, case, store_kind)
    if plan.mode == "skip":
        observation = Observation("unsupported", plan.skip_reason)
    else:
        try:
            (function or suite_function(test))(harness=context, impl=name, case=case)
            observation = Observation("passed")
        except pytest.skip.Exception as exc:
            observation = Observation("unsupported", str(exc))
        except Exception as exc:
            observation = observe(exc)
        finally:
            context.cleanup()
    settled, side, evidence = conclude(
        session,
        plan,
        subject,
        observation,
        versions=context.versions,
        probed=context.probed,
        tier=case.tier,
    )
    record = record_of(
        session,
        subject,
        settled,
        side,
        evidence,
        tier=case.tier,
        format=case.format,
        probe=True if context.probe else None,
        **context.fields,
    )
    extra = {k: v for k, v in record.items() if k not in ("outcome", "message")}
    return Verdict(record["outcome"], record["message"], extra)
