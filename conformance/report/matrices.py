"""The report's tables, computed from recorded results only.

- headline: implementation x format, conformance per tier (an unsupported required case counts as
  not conformant), with wrong data and crashes counted apart because they matter most;
- areas: implementation x spec area (the case id's first two parts, e.g. `v3/codecs`);
- interop: writer x reader per format from cross tests, self round trips kept apart, and an
  interop score over implementations with distinct metadata parsers;
- requirements: for each requirement ID, who passes every case that cites it;
- store kinds: implementation x store kind (directory, zip, http, s3) over single tests.

The headline, areas and requirements count each case once, on its own store (directory or zip):
the same case read again over HTTP or S3 is shown in the store-kind table, not counted twice.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .verdicts import WORST_FIRST as WORST_FIRST  # the outcome vocabulary, worst first

SINGLE_TESTS = ("read", "reject", "write", "zom")
PAIR_TESTS = ("cross", "roundtrip")
FORMATS = ("v1", "v2", "v3-draft", "v3")
TIERS = ("required", "strict", "optional", "extension")
STORE_KINDS = ("directory", "zip", "http", "s3", "icechunk")
REMOTE_KINDS = ("http", "s3")


def store_kind(record: dict) -> str:
    return (record.get("store") or {}).get("kind") or "directory"


def local(record: dict) -> bool:
    """A record on the case's own store (not a re-run over HTTP or S3)."""
    return store_kind(record) not in REMOTE_KINDS


def load_records(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    for record in records:  # results recorded before self pairs had their own test kind
        if (
            record["test"] == "cross"
            and record.get("writer")
            and record.get("writer") == record.get("reader")
        ):
            record["test"] = "roundtrip"
    return records


@dataclass
class Cell:
    """Outcome counts of a group of records, and the records that are not passes (for drill-down)."""

    counts: Counter = field(default_factory=Counter)
    records: list = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.counts[record["outcome"]] += 1
        if record["outcome"] != "passed":
            self.records.append(record)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passed(self) -> int:
        return self.counts["passed"]

    def share(self) -> float | None:
        return self.passed / self.total if self.total else None

    def worst(self) -> str | None:
        return next((o for o in WORST_FIRST if self.counts[o]), None)


def area_of(case_id: str) -> str:
    parts = case_id.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def implementations(records: list[dict]) -> list[str]:
    names = {r["impl"] for r in records} | {r.get(k) for r in records for k in ("writer", "reader")}
    return sorted(n for n in names if n)


def versions(records: list[dict]) -> dict[str, dict]:
    """Per implementation, the versions its adapter reported (the first record that has them)."""
    out: dict[str, dict] = {}
    for record in records:
        for name, value in (record.get("versions") or {}).items():
            out.setdefault(name, value)
    return out


def headline(records: list[dict]) -> dict[str, dict[str, dict[str, Cell]]]:
    """impl -> format -> tier -> Cell, over single-implementation tests."""
    table: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(Cell)))
    for r in records:
        if r["test"] in SINGLE_TESTS and r.get("format") and r.get("tier") and local(r):
            table[r["impl"]][r["format"]][r["tier"]].add(r)
    return table


def areas(records: list[dict]) -> dict[str, dict[str, Cell]]:
    """impl -> spec area -> Cell, over single-implementation tests."""
    table: dict = defaultdict(lambda: defaultdict(Cell))
    for r in records:
        if r["test"] in SINGLE_TESTS and local(r):
            table[r["impl"]][area_of(r["case"])].add(r)
    return table


def store_kinds(records: list[dict]) -> dict[str, dict[str, Cell]]:
    """impl -> store kind -> Cell, over single-implementation tests."""
    table: dict = defaultdict(lambda: defaultdict(Cell))
    for r in records:
        if r["test"] in SINGLE_TESTS:
            table[r["impl"]][store_kind(r)].add(r)
    return table


def kinds_present(records: list[dict]) -> list[str]:
    seen = {store_kind(r) for r in records if r["test"] in SINGLE_TESTS}
    return [k for k in STORE_KINDS if k in seen] + sorted(seen - set(STORE_KINDS))


def interop(records: list[dict]) -> dict[str, dict[tuple[str, str], Cell]]:
    """format -> (writer, reader) -> Cell, from cross tests and self round trips."""
    table: dict = defaultdict(lambda: defaultdict(Cell))
    for r in records:
        if r["test"] in PAIR_TESTS and r.get("writer") and r.get("reader"):
            table[r.get("format") or "?"][(r["writer"], r["reader"])].add(r)
    return table


def interop_participants(records: list[dict], fmt: str) -> tuple[list[str], list[str]]:
    """(writers, readers) of `fmt`: implementations with at least one passed cross or round-trip
    record in that role (a reader-only implementation has no row, a format it lacks no column)."""
    writers, readers = set(), set()
    for r in records:
        if r["test"] in PAIR_TESTS and r.get("format") == fmt and r["outcome"] == "passed":
            writers.add(r["writer"])
            readers.add(r["reader"])
    return sorted(writers), sorted(readers)


def interop_score(
    records: list[dict], parsers: dict[str, str], fmt: str
) -> tuple[float | None, int, list[str]]:
    """Share of valid stores (write cases) of `fmt` that every cross pair of independent
    implementations handles, and how many stores that is out of. Taking part: implementations that
    both write and read the format, one per metadata parser (the first by name), not the reference
    (it is the oracle, not a member of the ecosystem). A pair that did not pass, for whatever reason
    (unsupported included), fails the store."""
    writers, readers = interop_participants(records, fmt)
    representatives: dict[str, str] = {}
    for name in sorted(set(writers) & set(readers) - {"reference"}):
        representatives.setdefault(parsers.get(name, name), name)
    members = sorted(representatives.values())
    if len(members) < 2:
        return None, 0, members
    outcome: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)
    for r in records:
        if (
            r["test"] == "cross"
            and r.get("format") == fmt
            and r["writer"] in members
            and r["reader"] in members
        ):
            outcome[r["case"]][(r["writer"], r["reader"])] = r["outcome"]
    pairs = [(w, rd) for w in members for rd in members if w != rd]
    handled = sum(all(by_pair.get(p) == "passed" for p in pairs) for by_pair in outcome.values())
    return (handled / len(outcome) if outcome else None), len(outcome), members


def requirements(records: list[dict]) -> dict[str, dict[str, Cell]]:
    """requirement ID -> impl -> Cell, over single-implementation tests."""
    table: dict = defaultdict(lambda: defaultdict(Cell))
    for r in records:
        if r["test"] in SINGLE_TESTS and local(r):
            for requirement in r.get("requirements") or ():
                table[requirement][r["impl"]].add(r)
    return table


def requirement_status(cell: Cell) -> str:
    """passes / fails / unsupported / partial, for one implementation on one requirement."""
    if not cell.total:
        return "none"
    if cell.passed == cell.total:
        return "passes"
    if (
        cell.counts["wrong-data"]
        or cell.counts["errored"]
        or cell.counts["failed"]
        or cell.counts["known-failure"]
    ):
        return "fails"
    if cell.counts["unsupported"] == cell.total:
        return "unsupported"
    return "partial"
