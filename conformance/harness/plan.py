"""How one test runs: the single place that decides, per (test kind, adapter or writer/reader pair,
case), whether it runs normally, runs as a probe, or is skipped, and which known-failure entry
applies. The pytest plugin (parametrisation, the per-test context, the record) and
conformance.suite.direct both ask here, so that the two ways of running cannot disagree.

A probe is a test of something the adapter does not declare (a format, data type, codec, feature,
store or node kind): it runs anyway, because "not declared" is only a claim. A clean refusal then
makes it `unsupported`; a passing probe says the capability could be declared; wrong data or a
crash count as they would without the claim. Op capabilities are never probed (an adapter without
an op has no method to call), nor are cross and property tests (pairs: who would be blamed?)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .config import KnownFailure
from .properties import PROPERTY_FORMATS
from .session import SuiteSession, case_needs, missing, zom_lacks

PROBED_TESTS = frozenset({"read", "reject", "write", "zom"})


@dataclass(frozen=True)
class Plan:
    test: str  # the record's test kind (a cross test of one adapter with itself: "roundtrip")
    mode: str  # "run", "probe" or "skip"
    lacking: tuple[
        str, ...
    ] = ()  # probe: what the adapter does not declare; skip: the reason's parts
    known: KnownFailure | None = None

    @property
    def skip_reason(self) -> str:
        return "unsupported: " + "; ".join(self.lacking)

    def may_probe(self, lacking, enabled: bool) -> bool:
        """May this test go on as a probe when the adapter turns out to lack these capabilities at
        run time (its describe() narrows adapter.toml)?"""
        return probe_allowed(self.test, lacking, enabled)


def probe_allowed(test: str, lacking, enabled: bool) -> bool:
    """May a test that lacks these capabilities run as a probe?"""
    return enabled and test in PROBED_TESTS and not any(c.startswith("op:") for c in lacking)


def plan_single(
    session: SuiteSession, test: str, impl: str, case, store_kind: str | None = None
) -> Plan:
    """read, reject, write and zom tests of one adapter; store_kind: over a remote store kind
    (http, s3) instead of the case's own store."""
    config = session.config(impl)
    lacking = missing(case_needs(test, case, store_kind=store_kind), config)
    if test == "zom":
        lacking += zom_lacks(case, config.capabilities)
    known = config.known_failure(test, case.id, store=store_kind or case.store_kind)
    if known is not None and store_kind and known.strict:
        # Entries are evidenced on local stores; over HTTP or S3 the same bug may not show (a
        # server's 416 refuses a range a file read let through): a pass there is not stale.
        known = replace(known, strict=False)
    if not lacking:
        return Plan(test, "run", known=known)
    if probe_allowed(test, lacking, session.options.probe):
        return Plan(test, "probe", tuple(lacking), known)
    return Plan(test, "skip", (f"{impl} lacks {', '.join(lacking)}",))


def plan_cross(session: SuiteSession, writer: str, reader: str, case) -> Plan:
    """A cross test; with writer == reader it is recorded as `roundtrip` (and matched so by
    known-failure entries: `test = "cross"` does not cover it)."""
    test = "roundtrip" if writer == reader else "cross"
    wconf, rconf = session.config(writer), session.config(reader)
    lacking = [
        f"{writer} (writer) lacks {c}" for c in missing(case_needs("cross", case, "writer"), wconf)
    ]
    lacking += [
        f"{reader} (reader) lacks {c}" for c in missing(case_needs("cross", case, "reader"), rconf)
    ]
    if lacking:
        return Plan(test, "skip", tuple(lacking))
    known = wconf.known_failure(test, case.id, "writer", reader) or rconf.known_failure(
        test, case.id, "reader", writer
    )
    return Plan(test, "run", known=known)


def plan_property(session: SuiteSession, case_id: str, writer: str, reader: str) -> Plan:
    wconf, rconf = session.config(writer), session.config(reader)
    fmt = f"format:{PROPERTY_FORMATS[case_id]}"
    lacking = [f"{writer} lacks {c}" for c in missing({"op:write", "store:directory", fmt}, wconf)]
    lacking += [f"{reader} lacks {c}" for c in missing({"op:read", "store:directory", fmt}, rconf)]
    if lacking:
        return Plan("property", "skip", tuple(lacking))
    known = pick_known(
        wconf.known_failure("property", case_id, "writer", reader),
        rconf.known_failure("property", case_id, "reader", writer),
    )
    return Plan("property", "run", known=known)


def pick_known(
    writer_entry: KnownFailure | None, reader_entry: KnownFailure | None
) -> KnownFailure | None:
    """One entry for a pair test where both sides have one: the writer's, unless only the reader's
    covers a crash (`crashes = true` also covers a wrong answer, not the other way round; a
    property test draws examples that may hit either bug)."""
    if (
        writer_entry is not None
        and reader_entry is not None
        and reader_entry.crashes
        and not writer_entry.crashes
    ):
        return reader_entry
    return writer_entry or reader_entry


def plan_found(session: SuiteSession, case, writer: str, reader: str) -> Plan:
    """A replay of a saved property failure (a `<format>/found/` write case, see
    conformance.suite.failures) by a writer/reader pair: recorded as a property test of that case
    id, skipped when either side lacks what the example needs (no probes: pairs)."""
    wconf, rconf = session.config(writer), session.config(reader)
    needs = set(case.needs) | {f"format:{case.format}"}
    lacking = [
        f"{writer} lacks {c}" for c in missing(needs | {"op:write", "store:directory"}, wconf)
    ]
    lacking += [
        f"{reader} lacks {c}"
        for c in missing((needs - {"op:write"}) | {"op:read", "store:directory"}, rconf)
    ]
    if lacking:
        return Plan("property", "skip", tuple(lacking))
    known = pick_known(
        wconf.known_failure("property", case.id, "writer", reader),
        rconf.known_failure("property", case.id, "reader", writer),
    )
    return Plan("property", "run", known=known)


def fixed_note(
    session: SuiteSession,
    test: str,
    case_id: str,
    impl: str | None,
    writer: str | None = None,
    reader: str | None = None,
    store: str | None = None,
) -> str | None:
    """The message of a passed test that a known-failure entry would cover on another release of
    the implementation (its `versions` range excludes the one that ran): "fixed in 3.3: ...".
    None when no such entry matches."""
    if test in ("cross", "roundtrip", "property"):
        sides = [(writer, "writer", reader), (reader, "reader", writer)]
    else:
        sides = [(impl, None, None)]
    for name, role, peer in sides:
        if name is None:
            continue
        config = session.config(name)
        entry = config.fixed_failure(test, case_id, role, peer, store)
        if entry is not None:
            return entry.describe_fixed(config.impl_version or "this release")
    return None
