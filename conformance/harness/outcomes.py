"""From the end of a suite test to a results outcome: which outcome, which message.

Two steps, shared by the pytest plugin and conformance.suite.direct: `raw_outcome` says what the
test itself showed (an exception's kind), `settle` applies the known-failure entry that matches
the test (conformance.harness.plan decides which one)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from conformance.corpus.judge import DataProblem

from .records import OUTCOMES
from .transport import AdapterErrored

if TYPE_CHECKING:
    from _pytest._code import ExceptionInfo
    from _pytest.reports import TestReport

    from .config import KnownFailure

STRICT_XPASS = "known failure now passes: remove the entry"


class ConformanceFailure(AssertionError):
    """The implementation did something the case forbids (outcome `failed`)."""


class WrongData(ConformanceFailure):
    """The implementation returned or wrote data that differs from the expected data, without an
    error (outcome `wrong-data`): the one failure a user cannot notice."""


class Crashed(Exception):
    """The implementation or its adapter crashed where an answer or a clean refusal was due (a
    crash-type exception, an exception raised in adapter code, an undeclared `unsupported`
    answer): outcome `errored`. Not an AssertionError, so a known-failure entry covers it only
    with `crashes = true`."""


def fail(problems: list[str] | str) -> None:
    """Raise for the problems a judge found (no-op when there are none): WrongData when one of them
    is a DataProblem (the data itself differs), else ConformanceFailure. One line per problem."""
    if isinstance(problems, str):
        problems = [problems]
    if not problems:
        return
    text = "\n".join(problems)
    if any(isinstance(p, DataProblem) for p in problems):
        raise WrongData(text)
    raise ConformanceFailure(text)


def raw_outcome(exc: BaseException) -> str:
    """The outcome an exception that ended a test stands for, before known failures apply."""
    if isinstance(exc, AdapterErrored):
        return "errored"
    if isinstance(exc, BaseExceptionGroup):  # hypothesis: several distinct failures
        found = {raw_outcome(e) for e in exc.exceptions}
        return next(o for o in OUTCOMES if o in found)  # the worst
    if isinstance(exc, WrongData):
        return "wrong-data"
    return "failed" if isinstance(exc, AssertionError) else "errored"


def settle(
    raw: str, message: str, known: KnownFailure | None = None, probed: tuple[str, ...] = ()
) -> tuple[str, str, KnownFailure | None]:
    """(outcome, message, the known-failure entry that applied or None) of a test.

    `known` is the matching entry (conformance.harness.config.KnownFailure). A wrong-data result
    stays `wrong-data` with the entry attached (a known silent corruption is still one); a strict
    entry whose test passes is `failed`. `probed`: the capabilities the adapter does not declare
    although the test ran (a probe), named when such a test passes."""
    if known is not None:
        if raw == "passed":
            if known.strict:
                return "failed", STRICT_XPASS, known
            return "passed", f"known failure (not strict) passed: {known.describe()}", known
        if raw in ("failed", "wrong-data") or (raw == "errored" and known.crashes):
            return ("wrong-data" if raw == "wrong-data" else "known-failure"), message, known
    if raw == "passed" and probed:
        message = f"probe passed: the adapter could declare {', '.join(probed)}"
    return raw, message, None


def classify(report: TestReport, excinfo: ExceptionInfo[BaseException] | None) -> tuple[str, str]:
    """(raw outcome, message) of the pytest report that ends a test (setup not passed, or call).
    A known failure's xfail is undone here: `settle` applies the entry, for both ways of running."""
    wasxfail = getattr(report, "wasxfail", None)
    if report.skipped:
        if wasxfail is not None and excinfo is not None:  # an expected failure: what was it?
            return raw_outcome(excinfo.value), exception_text(excinfo)
        return "unsupported", _skip_reason(report)
    if report.passed:
        return "passed", ""
    if excinfo is None:
        text = str(report.longrepr or "")
        return ("passed", "") if "XPASS(strict)" in text else ("errored", text)
    if report.when == "call":
        return raw_outcome(excinfo.value), exception_text(excinfo)
    return "errored", exception_text(excinfo)


def exception_text(excinfo: ExceptionInfo[BaseException] | None) -> str:
    if excinfo is None:
        return ""
    return describe_exception(excinfo.value)


def describe_exception(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "\n".join(f"{type(e).__name__}: {e}" for e in exc.exceptions)
    text = str(exc)
    if isinstance(exc, AssertionError):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _skip_reason(report: TestReport) -> str:
    longrepr = report.longrepr
    text = (
        longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
    )
    return re.sub(r"^Skipped: ", "", text)
