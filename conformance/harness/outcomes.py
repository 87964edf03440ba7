"""From what a test observed to the outcome of its record, in three steps shared by the pytest
plugin and conformance.suite.direct:

1. `observe`: what the implementation did, from the exception that ended the test (or none):
   passed, refused, accepted, wrong data, a value-exact change of type, another mismatch, a crash;
   and which implementation did it (for pairs, the side the evidence blames).
2. `outcome_of`: what that behaviour means on the case's tier. A tier says whether refusing (or
   accepting a store the reference refuses) is allowed; it never makes a wrong answer acceptable.
3. `explain`: the known-failure entry of the side at fault that applies (test, case, role, peer,
   store kind, release) and whose `observed` pattern matches the message; a failure no entry
   explains stays a failure. A strict entry whose case passes makes the record `failed` (stale).

The suite's tests raise the exceptions below through `fail`, `refused` and `accepted`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from conformance.corpus.judge import DataProblem, TypeProblem
from conformance.model import MAY_ACCEPT, MAY_REFUSE, OUTCOMES, STALE_ENTRY, Behaviour, Outcome

from .transport import AdapterErrored

if TYPE_CHECKING:
    from .config import KnownFailure


class ConformanceFailure(AssertionError):
    """The implementation did something the case forbids (a mismatch: outcome `failed`).

    `side` ("writer" or "reader"): who did it, where a test involves two (the side at fault);
    `evidence`: why that side; `tier`: the tier of what was refused where it is not the case's
    (a writer's store in a form the corpus lets readers refuse: steps.refused_read)."""

    behaviour = "mismatch"

    def __init__(
        self,
        message: str = "",
        *,
        side: str | None = None,
        evidence: str = "",
        tier: str | None = None,
    ):
        super().__init__(message)
        self.side = side
        self.evidence = evidence
        self.tier = tier


class WrongData(ConformanceFailure):
    """Returned or wrote data that differs from the expected data, without an error
    (`wrong-data`): the one failure a user cannot notice."""

    behaviour = "wrong-data"


class TypeChanged(ConformanceFailure):
    """Every value exact, in another data type (`type-changed`)."""

    behaviour = "type-changed"

    def __init__(self, message: str = "", *, types: tuple[str, str] | None = None, **kw: Any):
        super().__init__(message, **kw)
        self.types = types


class Refused(ConformanceFailure):
    """Cleanly refused a valid store or request (`failed`, or `declined` where the tier allows)."""

    behaviour = "refused"


class Accepted(ConformanceFailure):
    """Accepted a store or request the case says must be refused (`failed`, or `lenient`)."""

    behaviour = "accepted"


class Crashed(Exception):
    """The implementation or its adapter crashed where an answer or a clean refusal was due (a
    crash-type exception, an exception raised in adapter code, an undeclared `unsupported`
    answer): outcome `errored`."""

    behaviour = "crashed"

    def __init__(self, message: str = "", *, side: str | None = None):
        super().__init__(message)
        self.side = side


def fail(problems: list[str] | str, *, side: str | None = None, evidence: str = "") -> None:
    """Raise for the problems a judge found (no-op when there are none): WrongData when one of
    them is a DataProblem, TypeChanged when every one is a TypeProblem, else ConformanceFailure.
    One line per problem."""
    if isinstance(problems, str):
        problems = [problems]
    if not problems:
        return
    text = "\n".join(problems)
    if any(isinstance(p, DataProblem) for p in problems):
        raise WrongData(text, side=side, evidence=evidence)
    if all(isinstance(p, TypeProblem) for p in problems):
        types = next((p.types for p in problems if p.types), None)  # type: ignore[attr-defined]
        raise TypeChanged(text, types=types, side=side, evidence=evidence)
    raise ConformanceFailure(text, side=side, evidence=evidence)


def refused(
    message: str, *, side: str | None = None, evidence: str = "", tier: str | None = None
) -> NoReturn:
    raise Refused(message, side=side, evidence=evidence, tier=tier)


def accepted(message: str, *, side: str | None = None, evidence: str = "") -> NoReturn:
    raise Accepted(message, side=side, evidence=evidence)


# ---- 1. what happened ----------------------------------------------------------------------------


@dataclass
class Observation:
    behaviour: (
        str  # passed, unsupported, refused, accepted, wrong-data, type-changed, mismatch, crashed
    )
    message: str = ""
    side: str | None = None  # who did it, where a test involves two (None: the step that ran)
    evidence: str = ""
    types: tuple[str, str] | None = None
    tier: str | None = None  # the tier that judges it, where not the case's (ConformanceFailure)


# Behaviours worst first, as their outcomes are ordered (the worst of several failures).
_RANK = {
    "wrong-data": 0,
    "crashed": 1,
    "mismatch": 2,
    "refused": 2,
    "accepted": 2,
    "type-changed": 4,
    "unsupported": 7,
    "passed": 8,
}


def observe(exc: BaseException | None, message: str | None = None) -> Observation:
    """What an exception that ended a test stands for (None: the test passed)."""
    if exc is None:
        return Observation("passed")
    text = describe_exception(exc) if message is None else message
    if isinstance(exc, BaseExceptionGroup):  # hypothesis: several distinct failures
        found = [observe(e) for e in exc.exceptions]
        worst = min(found, key=lambda o: _RANK.get(o.behaviour, 1))
        return Observation(
            worst.behaviour, text, worst.side, worst.evidence, worst.types, worst.tier
        )
    if isinstance(exc, AdapterErrored):
        return Observation("crashed", text)
    if isinstance(exc, Crashed):
        return Observation("crashed", text, exc.side)
    if isinstance(exc, ConformanceFailure):
        types = getattr(exc, "types", None)
        return Observation(exc.behaviour, text, exc.side, exc.evidence, types, exc.tier)
    if isinstance(exc, AssertionError):
        return Observation("mismatch", text)
    return Observation("crashed", text)


# ---- 2. what it means on this tier ---------------------------------------------------------------


def outcome_of(behaviour: str, tier: str | None) -> tuple[Outcome, Behaviour | None]:
    """The outcome of a behaviour on a case of this tier, and the profile it records (accepts /
    refuses) where the tier allows either answer."""
    if behaviour == "passed":
        return Outcome.PASSED, None
    if behaviour == "unsupported":
        return Outcome.UNSUPPORTED, None
    if behaviour == "crashed":
        return Outcome.ERRORED, None
    if behaviour == "wrong-data":
        return Outcome.WRONG_DATA, None
    if behaviour == "type-changed":
        return Outcome.TYPE_CHANGED, None
    if behaviour == "refused" and tier in MAY_REFUSE:
        return Outcome.DECLINED, Behaviour.REFUSES
    if behaviour == "accepted" and tier in MAY_ACCEPT:
        return Outcome.LENIENT, Behaviour.ACCEPTS
    return Outcome.FAILED, None


# ---- 3. which known failure explains it -----------------------------------------------------------


@dataclass
class Settled:
    outcome: Outcome
    message: str
    known: KnownFailure | None = None
    behaviour: Behaviour | None = None
    types: tuple[str, str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# Outcomes a known-failure entry can explain (a crash only with `crashes = true`).
EXPLAINABLE = frozenset({Outcome.FAILED, Outcome.WRONG_DATA, Outcome.ERRORED})


VersionOf = Callable[["KnownFailure"], "str | None"]


def explain(
    outcome: Outcome, message: str, entries: Iterable[KnownFailure], version_of: VersionOf
) -> KnownFailure | None:
    """The first entry (of the side at fault, applying to this test) that holds for the release
    that ran and whose pattern matches what was observed."""
    if outcome not in EXPLAINABLE:
        return None
    for entry in entries:
        if outcome is Outcome.ERRORED and not entry.crashes:
            continue
        if entry.holds_for(version_of(entry)) and entry.observes(message):
            return entry
    return None


def settle(
    observation: Observation,
    tier: str | None,
    entries: Iterable[KnownFailure] = (),
    version_of: VersionOf = lambda entry: None,
    probed: tuple[str, ...] = (),
    strict_entries: bool = True,
) -> Settled:
    """The record's outcome. `entries`: the known-failure entries of the side at fault that apply
    to this test (for a pass: of every side); `version_of(entry)`: the release of its owner that
    ran; `strict_entries` False: a pass never makes an entry stale (remote store kinds, where
    entries are evidenced on local stores)."""
    entries = list(entries)
    outcome, behaviour = outcome_of(observation.behaviour, tier)
    message = observation.message
    if outcome is Outcome.PASSED:
        live = [e for e in entries if e.holds_for(version_of(e))]
        stale = next((e for e in live if e.strict and strict_entries), None)
        if stale is not None:
            return Settled(Outcome.FAILED, f"{STALE_ENTRY}: remove the entry", stale)
        fixed = next((e for e in entries if not e.holds_for(version_of(e))), None)
        if fixed is not None:
            return Settled(
                Outcome.PASSED,
                f"fixed in {version_of(fixed)}: known failure {fixed.id} holds for "
                f"{fixed.versions}",
            )
        if live:
            return Settled(Outcome.PASSED, f"known failure (not strict) passed: {live[0].id}")
        if probed:
            return Settled(
                Outcome.PASSED, f"probe passed: the adapter could declare {', '.join(probed)}"
            )
        return Settled(Outcome.PASSED, "")
    known = explain(outcome, message, entries, version_of)
    if known is not None and outcome in (Outcome.FAILED, Outcome.ERRORED):
        outcome = Outcome.KNOWN_FAILURE
    return Settled(outcome, message, known, behaviour, observation.types)


def worst(outcomes: Iterable[str]) -> str:
    found = set(outcomes)
    return next(o for o in OUTCOMES if o in found)


def describe_exception(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "\n".join(f"{type(e).__name__}: {e}" for e in exc.exceptions)
    text = str(exc)
    if isinstance(exc, AssertionError):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def skip_reason(text: str) -> str:
    return re.sub(r"^Skipped: ", "", text)
