"""The results stream: one JSON object per line, one per (test, case, adapter or writer/reader
pair). Everything published later (matrices, badges, report pages, throughput plots) is derived
from these records; schemas/result-record.json describes them."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

SCHEMA_VERSION = 1
# Test kinds that can be selected (--kinds); records also say `roundtrip`: a cross test whose
# writer and reader are the same adapter (reported apart: it proves nothing about interoperability).
TESTS = ("read", "reject", "write", "cross", "property", "zom")
# Selectable by --kinds but not run by default (slow): the hostile area and faults (tier "hostile").
OPT_IN_TESTS = ("hostile", "fault")
PAIR_TESTS = ("cross", "roundtrip", "property")
# Worst first (summary columns, the worst of several failures).
OUTCOMES = ("wrong-data", "errored", "failed", "known-failure", "unsupported", "passed")
MESSAGE_LIMIT = 4000

# One results record (schemas/result-record.json).
Record = dict[str, Any]


def new_run_id() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + uuid.uuid4().hex[:8]


def make_record(
    *,
    run_id: str,
    test: str,
    case: str,
    impl: str,
    outcome: str,
    message: str = "",
    writer: str | None = None,
    reader: str | None = None,
    requirements: Iterable[str] = (),
    elapsed: float = 0.0,
    adapter_elapsed: float | None = None,
    versions: dict[str, Any] | None = None,
    tier: str | None = None,
    format: str | None = None,
    store: dict[str, Any] | None = None,
    **optional: Any,
) -> Record:
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}")
    record = {
        "schema": SCHEMA_VERSION,
        "run_id": run_id,
        "test": test,
        "case": case,
        "impl": impl,
        "writer": writer,
        "reader": reader,
        "outcome": outcome,
        "message": truncate(message),
        "requirements": list(requirements),
        "elapsed": round(max(elapsed, 0.0), 6),
        "adapter_elapsed": None if adapter_elapsed is None else round(max(adapter_elapsed, 0.0), 6),
        "versions": versions or {},
        "tier": tier,
        "format": format,
        "store": store or {"kind": "directory"},
    }
    record.update({k: v for k, v in optional.items() if v is not None})
    return record


def truncate(message: str, limit: int = MESSAGE_LIMIT) -> str:
    message = message or ""
    return message if len(message) <= limit else message[: limit - 20] + " ... [truncated]"


class ResultsWriter:
    """Appends records to a JSONL file as they arrive (the file can be followed during a run)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # open for the writer's lifetime (records arrive one by one); close() closes it
        self._file: IO[str] | None = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
        self.count = 0

    def write(self, record: Record) -> None:
        if self._file is None:
            raise ValueError(f"{self.path}: the results writer is closed")
        self._file.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")
        self._file.flush()
        self.count += 1

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_records(path: str | os.PathLike[str]) -> list[Record]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def tally(records: Iterable[Record]) -> dict[str, Counter[str]]:
    """Outcome counts per adapter. A cross/property record counts for its writer and its reader."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        names = {r["impl"]}
        if r["test"] in PAIR_TESTS:
            names |= {n for n in (r.get("writer"), r.get("reader")) if n}
        for name in names:
            table[name][r["outcome"]] += 1
    return dict(table)


def store_rows(records: Iterable[Record]) -> dict[str, Counter[str]]:
    """Outcome counts per (adapter, remote store kind): `zarr-python @http` rows beside the
    adapter's own, so that a case read again over HTTP or S3 is told apart from the same case on
    its own store (the case id is the same; the record's store kind differs)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        kind = (r.get("store") or {}).get("kind")
        if kind in ("http", "s3"):
            table[f"{r['impl']} @{kind}"][r["outcome"]] += 1
    return dict(table)


def summary_table(records: list[Record], wall_time: float | None = None) -> str:
    """Per adapter (every record), then per adapter and remote store kind (those records again)."""
    table = {**tally(records), **store_rows(records)}
    name_width = max([len("all records"), *(len(n) for n in table)])
    header = f"{'adapter':<{name_width}}  " + "  ".join(f"{o:>13}" for o in OUTCOMES)
    lines = [header, "-" * len(header)]
    for name in sorted(table):
        lines.append(
            f"{name:<{name_width}}  " + "  ".join(f"{table[name][o]:>13}" for o in OUTCOMES)
        )
    total = Counter(r["outcome"] for r in records)
    lines.append("-" * len(header))
    lines.append(
        f"{'all records':<{name_width}}  " + "  ".join(f"{total[o]:>13}" for o in OUTCOMES)
    )
    if wall_time is not None:
        lines.append(f"{len(records)} records in {wall_time:.1f} s wall time")
    return "\n".join(lines)


# A `failed` case of these tiers does not fail a run: strict cases test that invalid documents are
# refused, which a reader may tolerate (leniency), optional ones a SHOULD/MAY, extension ones the
# registry. Their failures are recorded and reported per tier all the same.
NON_GATING_TIERS = frozenset({"strict", "optional", "extension"})
# Hostile and fault records are recorded and reported, whatever their outcome, but never fail a run.
UNGATED_TIERS = frozenset({"hostile"})
STALE_ENTRY = "known failure now passes"


def unexpected(records: Iterable[Record]) -> list[Record]:
    """Records that make a run fail: anything errored, wrong data no known-failure entry covers
    (a covered one stays `wrong-data`, with `known_failure`), a failed required case, and a
    known-failure entry whose case now passes (stale data, whatever the tier). Never a record
    of an UNGATED_TIERS tier."""
    return [r for r in records if gates(r)]


def gates(r: Record) -> bool:
    """Whether this one record fails a run (the rule of `unexpected`)."""
    return r.get("tier") not in UNGATED_TIERS and _gates(r)


def _gates(r: Record) -> bool:
    return (
        r["outcome"] == "errored"
        or (r["outcome"] == "wrong-data" and not r.get("known_failure"))
        or (
            r["outcome"] == "failed"
            and (
                r.get("tier") not in NON_GATING_TIERS
                or (r.get("message") or "").startswith(STALE_ENTRY)
            )
        )
    )
