"""Calling the suite's test functions without pytest's collection: one (outcome, message) per
(test kind, adapter, case), classified exactly as the plugin classifies them. Used by the
self-tests (tests/broken, tests/harness), where one pytest run inside another would be slow."""

from __future__ import annotations

import pytest

from conformance.harness.outcomes import is_failure
from conformance.harness.session import SuiteSession, TestContext, case_needs, missing, zom_lacks


def suite_function(test: str):
    from conformance.suite import test_read, test_reject, test_write, test_zom

    return {"read": test_read.test_read, "reject": test_reject.test_reject, "write": test_write.test_write,
            "zom": test_zom.test_zom}[test]


def run_case(session: SuiteSession, test: str, name: str, case) -> tuple[str, str]:
    config = session.config(name)
    lacking = missing(case_needs(test, case), config)
    if test == "zom":
        lacking += zom_lacks(case, config.capabilities)
    if lacking:
        return "unsupported", ", ".join(lacking)
    context = TestContext(session)
    try:
        suite_function(test)(harness=context, impl=name, case=case)
        return "passed", ""
    except pytest.skip.Exception as exc:
        return "unsupported", str(exc)
    except Exception as exc:  # classified like the plugin does
        return ("failed" if is_failure(exc) else "errored"), f"{type(exc).__name__}: {exc}"
    finally:
        context.cleanup()
