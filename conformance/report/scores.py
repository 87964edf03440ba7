"""Every figure the report shows, defined once: the text below is printed beside the figure on the
site, in README.md and in results.json, and the functions beside it are the only ones that compute
it (pages, badges, README.md and results.json all call them)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import verdicts as v
from .verdicts import Record

DEFINITIONS: dict[str, str] = {
    "read": "Required read conformance: cases passed / cases, over the required-tier read cases of "
    "every format the implementation reads, each case once, on its own store (directory or zip; the "
    "same case re-run over HTTP or S3 is shown per store kind, not here). Any outcome but passed "
    "counts against it, unsupported included: a required case is required. A format counts when at "
    "least one of the implementation's read records in it is neither unsupported nor declined.",
    "write": "Required write conformance: as read conformance, over the required-tier write cases "
    "(the implementation writes, the reference judges what it stored).",
    "reject": "Required reject conformance: as read conformance, over the required-tier reject "
    "cases (a store the spec says must be refused, refused cleanly).",
    "wrong_data": "Silent wrong data: the number of distinct cases in which the implementation "
    "returned or stored other values without raising an error (outcome wrong-data). Counts every "
    "tier but hostile, every test kind (read, write, zom, cross, round trip, property) and store "
    "kind, a case once however often it was seen, and a pair record only under the side at fault. "
    "Cases a known-failures entry explains are included and also counted apart. Exact values in "
    "another data type (type-changed) are not wrong data.",
    "crashes": "Crashes: the number of distinct cases in which the implementation crashed, hung, "
    "ran out of memory or answered outside the protocol (outcome errored), counted as silent wrong "
    "data is. Hostile stores and injected faults are not counted here (their own page shows them).",
    "interop": "Interop score (per format): over the write cases of the format and the ordered "
    "pairs of distinct member implementations, the share of attempts in which the reader read back "
    "exactly what the writer wrote (cross tests). An attempt is a pair where neither side declined "
    "or lacks what the case needs; those are counted apart (cannot write, cannot read). Members: "
    "implementations that both write and read the format, one per metadata parser; not the "
    "reference (it judges, it is not judged here), not version rows. Self round trips are not "
    "counted: they are the diagonal of the grid.",
    "roundtrip": "Self round trip: the implementation reads back what it wrote itself (round-trip "
    "tests): passed / attempts, an attempt being a round trip it did not decline.",
    "feature": "Feature support (per format, read and write apart): of the read (or write) cases of "
    "the format whose needs name the feature, in any tier, each once on its own store (a store "
    "kind's row: the records on that store kind), how many the implementation passed.",
    "requirement": "Satisfies a requirement: every read, reject and write case citing the "
    "requirement passed, each case once, on its own store. An implementation is counted for a "
    "requirement when at least one of its records on those cases is neither unsupported nor "
    "declined; the reference and version rows are not counted.",
    "badge": "Badge: the required read, write and reject conformance defined here and, when above "
    "0, the silent wrong data. Red when silent wrong data or crashes are above 0; otherwise green "
    "when every share shown is at least 95 %, yellow at least 80 %, orange below.",
}

# What each count includes, said beside it wherever it is shown.
SCOPE: dict[str, str] = {
    "read": "tier required · test read · own store",
    "write": "tier required · test write · own store",
    "reject": "tier required · test reject · own store",
    "wrong_data": "all tiers but hostile · all test kinds · all store kinds · distinct cases",
    "crashes": "all tiers but hostile · all test kinds · all store kinds · distinct cases",
    "interop": "cross tests · write cases · all tiers · directory store",
}

CONFORMANCE_TESTS = ("read", "write", "reject")
UNCOUNTED_TESTS = ("hostile", "fault")


def percent(part: int, whole: int) -> str:
    """A share as a whole percent, never rounded up to 100 % or down to 0 % when it is not."""
    if not whole:
        return "–"
    value = 100 * part / whole
    if 99 < value < 100:
        return ">99%"
    if 0 < value < 1:
        return "<1%"
    return f"{value:.0f}%"


@dataclass
class Share:
    passed: int = 0
    total: int = 0
    formats: dict[str, list[int]] = field(default_factory=dict)  # format -> [passed, total]

    def add(self, fmt: str, passed: bool) -> None:
        pair = self.formats.setdefault(fmt, [0, 0])
        pair[0] += passed
        pair[1] += 1
        self.passed += passed
        self.total += 1

    @property
    def share(self) -> float | None:
        return self.passed / self.total if self.total else None

    def as_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "total": self.total,
            "formats": {f: {"passed": p, "total": t} for f, (p, t) in sorted(self.formats.items())},
        }


@dataclass
class Count:
    cases: list[str] = field(default_factory=list)  # distinct, sorted
    known: int = 0  # of which a known-failures entry explains

    @property
    def n(self) -> int:
        return len(self.cases)

    def as_json(self) -> dict[str, Any]:
        return {"cases": self.n, "known": self.known}


def by_implementation(records: Iterable[Record]) -> dict[str, list[Record]]:
    """name -> the records that count for it (verdicts.counted_for), in recorded order."""
    out: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        for name in v.counted_for(r):
            out[name].append(r)
    return dict(out)


def formats_taken_part(records: Iterable[Record], test: str) -> set[str]:
    return {
        r.get("format") or "?"
        for r in records
        if r["test"] == test and v.own_store(r) and r["outcome"] not in v.NOT_TRIED
    }


def conformance(records: list[Record], test: str, tier: str = "required") -> Share:
    """One implementation's records (by_implementation) -> its `test` conformance on `tier`."""
    formats = formats_taken_part(records, test)
    share = Share()
    for r in records:
        if r["test"] == test and r.get("tier") == tier and v.own_store(r):
            fmt = r.get("format") or "?"
            if fmt in formats:
                share.add(fmt, r["outcome"] == "passed")
    return share


def _distinct(records: list[Record], outcome: str) -> Count:
    cases: dict[str, bool] = {}
    for r in records:
        if (
            r["outcome"] == outcome
            and r["test"] not in UNCOUNTED_TESTS
            and r.get("tier") != "hostile"
        ):
            cases[r["case"]] = cases.get(r["case"], False) or bool(r.get("known_failure"))
    return Count(sorted(cases), sum(cases.values()))


def wrong_data(records: list[Record]) -> Count:
    return _distinct(records, "wrong-data")


def crashes(records: list[Record]) -> Count:
    return _distinct(records, "errored")


def roundtrip(records: list[Record]) -> Share:
    share = Share()
    for r in records:
        if r["test"] == "roundtrip" and r["outcome"] not in v.NOT_TRIED:
            share.add(r.get("format") or "?", r["outcome"] == "passed")
    return share


@dataclass
class Scores:
    read: Share
    write: Share
    reject: Share
    wrong_data: Count
    crashes: Count
    roundtrip: Share

    def as_json(self) -> dict[str, Any]:
        return {
            "read": self.read.as_json(),
            "write": self.write.as_json(),
            "reject": self.reject.as_json(),
            "wrong_data": self.wrong_data.as_json(),
            "crashes": self.crashes.as_json(),
            "roundtrip": self.roundtrip.as_json(),
        }


def scores(records: list[Record]) -> Scores:
    """Every per-implementation figure, from the records that count for it (by_implementation)."""
    return Scores(
        read=conformance(records, "read"),
        write=conformance(records, "write"),
        reject=conformance(records, "reject"),
        wrong_data=wrong_data(records),
        crashes=crashes(records),
        roundtrip=roundtrip(records),
    )


# ---- interop --------------------------------------------------------------------------------------

# A cross record's place in the grid: what happened, and on which side.
CELL_KINDS = (
    "passed",
    "wrong-data",
    "errored",
    "failed",
    "known-failure",
    "type-changed",
    "cannot-write",
    "cannot-read",
)


def cell_kind(record: Record) -> str:
    if record["outcome"] in v.NOT_TRIED:
        return "cannot-write" if v.side(record) == "writer" else "cannot-read"
    if record["outcome"] in ("lenient", "declined"):
        return "cannot-read"
    return str(record["outcome"])


def pair_records(records: Iterable[Record], fmt: str | None = None) -> list[Record]:
    """Cross and round-trip records between two columns, version rows left out."""
    return [
        r
        for r in records
        if r["test"] in ("cross", "roundtrip")
        and r.get("writer")
        and r.get("reader")
        and not v.is_version_row(r["writer"])
        and not v.is_version_row(r["reader"])
        and (fmt is None or r.get("format") == fmt)
    ]


def grid(records: Iterable[Record], fmt: str) -> dict[tuple[str, str], dict[str, int]]:
    """(writer, reader) -> cell kind -> count, over the format's cross and round-trip records."""
    out: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in pair_records(records, fmt):
        out[(r["writer"], r["reader"])][cell_kind(r)] += 1
    return {k: dict(cell) for k, cell in sorted(out.items())}


def grid_axes(
    grid: dict[tuple[str, str], dict[str, int]], names: list[str]
) -> tuple[list[str], list[str]]:
    """(writers, readers) worth a row or column: those with at least one attempt in that role,
    in the order of `names`."""

    def attempted(cell: dict[str, int]) -> bool:
        return any(not k.startswith("cannot") for k in cell)

    writers = [n for n in names if any(w == n and attempted(c) for (w, _), c in grid.items())]
    readers = [n for n in names if any(r == n and attempted(c) for (_, r), c in grid.items())]
    return writers, readers


def interop_members(records: Iterable[Record], fmt: str, parsers: dict[str, str]) -> list[str]:
    """Implementations that wrote and read the format in at least one passed cross or round trip,
    one per metadata parser (the first by name), the reference left out."""
    writers, readers = set(), set()
    for r in pair_records(records, fmt):
        if r["outcome"] == "passed":
            writers.add(r["writer"])
            readers.add(r["reader"])
    chosen: dict[str, str] = {}
    for name in sorted((writers & readers) - {"reference"}):
        chosen.setdefault(parsers.get(name, name), name)
    return sorted(chosen.values())


@dataclass
class Interop:
    members: list[str]
    passed: int = 0
    attempts: int = 0
    cannot_write: int = 0
    cannot_read: int = 0

    @property
    def share(self) -> float | None:
        return self.passed / self.attempts if self.attempts and len(self.members) > 1 else None

    def as_json(self) -> dict[str, Any]:
        return {
            "members": self.members,
            "passed": self.passed,
            "attempts": self.attempts,
            "cannot_write": self.cannot_write,
            "cannot_read": self.cannot_read,
        }


def interop(records: list[Record], fmt: str, parsers: dict[str, str]) -> Interop:
    members = interop_members(records, fmt, parsers)
    score = Interop(members)
    for r in pair_records(records, fmt):
        if r["test"] != "cross" or r["writer"] not in members or r["reader"] not in members:
            continue
        kind = cell_kind(r)
        if kind == "cannot-write":
            score.cannot_write += 1
        elif kind == "cannot-read":
            score.cannot_read += 1
        else:
            score.attempts += 1
            score.passed += kind == "passed"
    return score


# ---- badge ----------------------------------------------------------------------------------------


def badge(name: str, s: Scores) -> dict[str, Any]:
    """shields.io endpoint JSON (DEFINITIONS["badge"])."""
    shown = [(t, getattr(s, t)) for t in CONFORMANCE_TESTS if getattr(s, t).total]
    parts = [f"{t} {percent(share.passed, share.total)}" for t, share in shown]
    if s.wrong_data.n:
        parts.append(f"{s.wrong_data.n} wrong data")
    lowest = min((share.share for _, share in shown if share.share is not None), default=None)
    if s.wrong_data.n or s.crashes.n:
        color = "red"
    elif lowest is None:
        color = "lightgrey"
    elif lowest >= 0.95:
        color = "brightgreen"
    elif lowest >= 0.8:
        color = "yellow"
    else:
        color = "orange"
    return {
        "schemaVersion": 1,
        "label": f"zarr conformance: {name}",
        "message": " · ".join(parts) or "no data",
        "color": color,
    }
