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

from conformance.model import (
    DEFAULT_KINDS,
    OPT_IN_KINDS,
    PAIR_KINDS,
    SCHEMA_VERSION,
    parse_record,
)
from conformance.model import OUTCOMES as _OUTCOMES
from conformance.model import gates as _model_gates

# Test kinds that can be selected (--kinds); records also say `roundtrip`: a cross test whose
# writer and reader are the same adapter (reported apart: it proves nothing about interoperability).
TESTS = tuple(k.value for k in DEFAULT_KINDS)
# Selectable by --kinds but not run by default (slow): the hostile area and faults (tier "hostile").
OPT_IN_TESTS = tuple(k.value for k in OPT_IN_KINDS)
PAIR_TESTS = tuple(sorted(k.value for k in PAIR_KINDS))
# Worst first (summary columns, the worst of several failures): conformance.model.Outcome.
OUTCOMES = tuple(o.value for o in _OUTCOMES)
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
    parse_record(record, f"{test} {case} {impl}")  # the model's checks, before anything is written
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
    """Every record of a results file, each validated by the model (conformance.model.load_records
    gives them as models)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                doc = json.loads(line)
                parse_record(doc, f"{path}:{number}")
                out.append(doc)
    return out


def counted_for(r: Record) -> tuple[str, ...]:
    """The implementations a record counts for (conformance.model.Record.counted_for): its
    subject, and both sides of a passed pair."""
    if r["test"] in PAIR_TESTS and r["outcome"] == "passed":
        return tuple(dict.fromkeys(n for n in (r.get("writer"), r.get("reader")) if n))
    return (r["impl"],)


def tally(records: Iterable[Record]) -> dict[str, Counter[str]]:
    """Outcome counts per adapter (all tiers and test kinds). A pair record that did not pass
    counts only for the side at fault; a passed one for both sides."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        for name in counted_for(r):
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
    header = f"{'adapter (all tiers)':<{name_width}}  " + "  ".join(f"{o:>13}" for o in OUTCOMES)
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


def unexpected(records: Iterable[Record]) -> list[Record]:
    """Records that make a run fail (conformance.model.gates): anything errored; wrong data or a
    failure no known-failure entry explains, on every tier; a strict entry whose case now passes
    (its record is `failed` too). Never a record of tier hostile."""
    return [r for r in records if gates(r)]


def gates(r: Record) -> bool:
    """Whether this one record fails a run."""
    return _model_gates(r)
