"""From a pytest report of a suite test to a results record: which outcome, which message."""

from __future__ import annotations

import re

from .transport import AdapterErrored

STRICT_XPASS = "known failure now passes: remove the entry"


class ConformanceFailure(AssertionError):
    """The implementation did something the case forbids (outcome `failed`)."""


def fail(problems: list[str] | str) -> None:
    """Raise ConformanceFailure with one line per problem (no-op when there are none)."""
    if isinstance(problems, str):
        problems = [problems]
    if problems:
        raise ConformanceFailure("\n".join(problems))


def is_failure(exc: BaseException) -> bool:
    """True for a verdict (the implementation is wrong), False for anything that went wrong around
    it (adapter crash/hang/garbage, a harness bug): those are `errored`."""
    if isinstance(exc, AdapterErrored):
        return False
    if isinstance(exc, BaseExceptionGroup):
        return all(is_failure(e) for e in exc.exceptions)
    return isinstance(exc, AssertionError)


def classify(report, excinfo) -> tuple[str, str]:
    """(outcome, message) for the report that ends a test (setup not passed, or call)."""
    wasxfail = getattr(report, "wasxfail", None)
    if report.skipped:
        if wasxfail is not None:
            return "known-failure", _exception_text(excinfo) or wasxfail
        return "unsupported", _skip_reason(report)
    if report.passed:
        if wasxfail is not None:  # a non-strict known failure that passed
            return "passed", f"known failure (not strict) passed: {wasxfail}"
        return "passed", ""
    # failed
    if excinfo is None:
        text = str(report.longrepr or "")
        if "XPASS(strict)" in text:
            return "failed", STRICT_XPASS
        return "errored", text
    if report.when == "call" and is_failure(excinfo.value):
        return "failed", _exception_text(excinfo)
    return "errored", _exception_text(excinfo)


def _exception_text(excinfo) -> str:
    if excinfo is None:
        return ""
    exc = excinfo.value
    if isinstance(exc, BaseExceptionGroup):
        return "\n".join(f"{type(e).__name__}: {e}" for e in exc.exceptions)
    text = str(exc)
    if isinstance(exc, AssertionError):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
    return re.sub(r"^Skipped: ", "", text)
