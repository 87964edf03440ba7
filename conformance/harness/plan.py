"""How one test runs: the single place that decides, per (test kind, adapter or writer/reader pair,
case), whether it runs normally, runs as a probe, or is skipped. The pytest plugin
(parametrisation, the per-test context) and conformance.suite.direct both ask here, so that the
two ways of running cannot disagree. Which known failure explains a record is decided after the
test, from what it observed (conformance.harness.verdicts).

A probe is a test of something the adapter does not declare (a format, data type, codec, feature,
store or node kind): it runs anyway, because "not declared" is only a claim. A clean refusal then
makes it `unsupported`; a passing probe says the capability could be declared; wrong data or a
crash count as they would without the claim. Op capabilities are never probed (an adapter without
an op has no method to call), nor are cross and property tests (pairs: who would be blamed?)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .properties import PROPERTY_FORMATS
from .session import SuiteSession, case_needs, missing, zom_lacks

if TYPE_CHECKING:
    from conformance.corpus.case import Case

PROBED_TESTS = frozenset({"read", "reject", "write", "zom"})


@dataclass(frozen=True)
class Plan:
    test: str  # the record's test kind (a cross test of one adapter with itself: "roundtrip")
    mode: str  # "run", "probe" or "skip"
    # probe: what the adapter does not declare; skip: the reason's parts
    lacking: tuple[str, ...] = ()
    # skip of a pair: the sides that lack something (the record counts for them)
    lacking_sides: tuple[str, ...] = ()

    @property
    def skip_reason(self) -> str:
        return "unsupported: " + "; ".join(self.lacking)

    def may_probe(self, lacking: Iterable[str], enabled: bool) -> bool:
        """May this test go on as a probe when the adapter turns out to lack these capabilities at
        run time (its describe() narrows adapter.toml)?"""
        return probe_allowed(self.test, lacking, enabled)


# Never probed: an adapter without them has no way to ask (an op it has no method for; a node
# path it cannot hand over verbatim: it would resolve the path itself, and the adapter would be
# judged instead of the implementation); the icechunk store kind (an adapter that does not know it
# would take the repository's folder for a directory store and be judged on Icechunk's own files).
NOT_PROBED = ("op:", "feature:verbatim-paths", "store:icechunk", "feature:icechunk-write")


def probe_allowed(test: str, lacking: Iterable[str], enabled: bool) -> bool:
    """May a test that lacks these capabilities run as a probe?"""
    return enabled and test in PROBED_TESTS and not any(c.startswith(NOT_PROBED) for c in lacking)


def plan_single(
    session: SuiteSession, test: str, impl: str, case: Case, store_kind: str | None = None
) -> Plan:
    """read, reject, write and zom tests of one adapter; store_kind: over a remote store kind
    (http, s3) instead of the case's own store."""
    config = session.config(impl)
    lacking = missing(case_needs(test, case, store_kind=store_kind), config)
    if test == "zom":
        lacking += zom_lacks(case, config.capabilities)
    if not lacking:
        return Plan(test, "run")
    if probe_allowed(test, lacking, session.options.probe):
        return Plan(test, "probe", tuple(lacking))
    return Plan(test, "skip", (f"{impl} lacks {', '.join(lacking)}",))


def _pair_plan(
    test: str,
    writer: str,
    reader: str,
    wneeds: set[str],
    rneeds: set[str],
    session: SuiteSession,
) -> Plan:
    wlack = missing(wneeds, session.config(writer))
    rlack = missing(rneeds, session.config(reader))
    lacking = [f"{writer} (writer) lacks {c}" for c in wlack]
    lacking += [f"{reader} (reader) lacks {c}" for c in rlack]
    if not lacking:
        return Plan(test, "run")
    sides = tuple(n for n, lack in ((writer, wlack), (reader, rlack)) if lack)
    return Plan(test, "skip", tuple(lacking), tuple(dict.fromkeys(sides)))


def plan_cross(session: SuiteSession, writer: str, reader: str, case: Case) -> Plan:
    """A cross test; with writer == reader it is recorded as `roundtrip` (and matched so by
    known-failure entries: `test = "cross"` does not cover it)."""
    test = "roundtrip" if writer == reader else "cross"
    return _pair_plan(
        test,
        writer,
        reader,
        case_needs("cross", case, "writer"),
        case_needs("cross", case, "reader"),
        session,
    )


def plan_property(session: SuiteSession, case_id: str, writer: str, reader: str) -> Plan:
    fmt = f"format:{PROPERTY_FORMATS[case_id]}"
    return _pair_plan(
        "property",
        writer,
        reader,
        {"op:write", "store:directory", fmt},
        {"op:read", "store:directory", fmt},
        session,
    )


def plan_found(session: SuiteSession, case: Case, writer: str, reader: str) -> Plan:
    """A replay of a saved property failure (a `<format>/found/` write case, see
    conformance.suite.failures) by a writer/reader pair: recorded as a property test of that case
    id, skipped when either side lacks what the example needs (no probes: pairs)."""
    needs = set(case.needs) | {f"format:{case.format}"}
    return _pair_plan(
        "property",
        writer,
        reader,
        needs | {"op:write", "store:directory"},
        (needs - {"op:write"}) | {"op:read", "store:directory"},
        session,
    )
