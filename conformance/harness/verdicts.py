"""One test's verdict, from what it observed to its record: who the verdict is about, which
known failure explains it, and the record itself. The pytest plugin and conformance.suite.direct
both end every test here (runner first: pytest only shows what the record says).

Blame: a single-implementation test is about that implementation (the reader of read, reject and
zom tests, the writer of write tests). A pair test (cross, roundtrip, property) is about the side
its evidence blames (conformance.suite.steps.reference_reads_as): a refusal or a crash is the
refusing or crashing side's; a reader that sees other data than the writer's input is at fault when
the reference reads the writer's store back exactly, the writer otherwise. A passed pair is about
both sides; a skipped one about the side that lacks a capability."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.model import PAIR_KINDS, Outcome

from .config import AdapterConfig, KnownFailure
from .outcomes import Observation, Settled, settle
from .plan import Plan
from .records import make_record
from .session import SuiteSession

# Store kinds over which known failures are evidenced less (they were found on local stores): a
# pass there never makes an entry stale.
REMOTE = frozenset({"http", "s3", "icechunk"})


@dataclass(frozen=True)
class Subject:
    """The test's participants: one implementation, or a writer/reader pair."""

    test: str
    case_id: str
    impl: str | None = None  # single tests
    writer: str | None = None
    reader: str | None = None
    store: str = "directory"

    @property
    def pair(self) -> bool:
        return self.test in PAIR_KINDS

    def default_side(self) -> str:
        return "writer" if self.test == "write" else "reader"

    def name(self, side: str) -> str:
        if not self.pair:
            return self.impl or ""
        return (self.writer if side == "writer" else self.reader) or ""

    def peer(self, side: str) -> str | None:
        if not self.pair:
            return None
        return self.reader if side == "writer" else self.writer


def running_version(config: AdapterConfig, versions: dict[str, dict[str, str]]) -> str | None:
    """The release of the implementation an adapter drove in this test (what its describe()
    reported for its main package), or None."""
    from .variants import main_package

    found = versions.get(config.name) or {}
    package = main_package(config)
    if package is not None and package[0] in found:
        return found[package[0]]
    return found.get(config.name) or found.get("version")


def entries_for(
    session: SuiteSession, subject: Subject, side: str, store: str | None
) -> list[KnownFailure]:
    """The known-failure entries of one side that apply to this test."""
    name = subject.name(side)
    config = session.config(name)
    role = side if subject.pair else None
    return config.known_failures_for(subject.test, subject.case_id, role, subject.peer(side), store)


def conclude(
    session: SuiteSession,
    plan: Plan,
    subject: Subject,
    observation: Observation,
    *,
    versions: dict[str, dict[str, str]] | None = None,
    step: str | None = None,
    probed: tuple[str, ...] = (),
    tier: str | None,
) -> tuple[Settled, str, str]:
    """(the settled outcome, the side the verdict is about, the evidence for that side)."""
    versions = versions or {}
    store = subject.store
    strict = store not in REMOTE
    if observation.behaviour == "unsupported" and plan.lacking_sides:
        name = plan.lacking_sides[0]
        side = "writer" if name == subject.writer and name != subject.reader else "reader"
        return settle(observation, tier), side, "lacks a capability the case needs"

    def version_of(entry: KnownFailure) -> str | None:
        return running_version(session.config(entry.owner), versions)

    if observation.behaviour == "passed":
        sides = ("writer", "reader") if subject.pair else (subject.default_side(),)
        entries = [e for s in sides for e in entries_for(session, subject, s, store)]
        settled = settle(observation, tier, entries, version_of, probed, strict)
        if settled.outcome is Outcome.PASSED and not settled.message:
            settled.message = fixed_note(session, subject, sides) or ""
        return settled, sides[-1], ""
    side = observation.side or (step if subject.pair and step else subject.default_side())
    if subject.pair and side not in ("writer", "reader"):
        side = "reader"
    entries = entries_for(session, subject, side, store)
    settled = settle(observation, tier, entries, version_of, probed, strict)
    return settled, side, observation.evidence


def fixed_note(session: SuiteSession, subject: Subject, sides: tuple[str, ...]) -> str | None:
    """The message of a passed test that a known-failure entry would cover on another release of
    the implementation (its `versions` range excludes the one that ran, so the entry was set aside
    by AdapterConfig.at_release): "fixed in 3.3: ..."."""
    for side in sides:
        config = session.config(subject.name(side))
        role = side if subject.pair else None
        entry = config.fixed_failure(
            subject.test, subject.case_id, role, subject.peer(side), subject.store
        )
        if entry is not None:
            return entry.describe_fixed(config.impl_version or "this release")
    return None


def record_of(
    session: SuiteSession,
    subject: Subject,
    settled: Settled,
    side: str,
    evidence: str,
    **fields: Any,
) -> dict[str, Any]:
    """The results record of a concluded test. `fields`: the rest of make_record's members."""
    if subject.pair:
        impl = subject.name(side) if settled.outcome is not Outcome.PASSED else subject.reader
    else:
        impl = subject.impl
    return make_record(
        run_id=session.options.run_id,
        test=subject.test,
        case=subject.case_id,
        impl=impl or "?",
        writer=subject.writer if subject.pair else (subject.impl if side == "writer" else None),
        reader=subject.reader if subject.pair else (subject.impl if side == "reader" else None),
        outcome=settled.outcome.value,
        message=settled.message,
        blame={"side": side, **({"evidence": evidence} if evidence else {})},
        behaviour=settled.behaviour.value if settled.behaviour else fields.pop("behaviour", None),
        types=(
            {"expected": settled.types[0], "observed": settled.types[1]} if settled.types else None
        ),
        known_failure=settled.known.as_record() if settled.known is not None else None,
        **fields,
    )
