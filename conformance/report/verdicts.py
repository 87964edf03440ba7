"""What the site needs to know about a record: its outcome's rank and meaning, which side of a pair
the verdict is about, and which implementations it counts for. The words come from
conformance.model (one home); records are the plain dicts of a results file, validated by its
loader (conformance.harness.records.read_records): schema 2, where `blame.side` names the side at
fault and `impl` is that side.
"""

from __future__ import annotations

import re
from typing import Any

from conformance.model import MEANING, PAIR_KINDS, Outcome

Record = dict[str, Any]  # a result record as the harness writes it (result-record.json)

# Worst first. The meanings are the legend of every page and of results.json.
OUTCOMES: dict[str, str] = {o.value: MEANING[o] for o in Outcome}
WORST_FIRST = tuple(OUTCOMES)
BAD = ("wrong-data", "errored", "failed")  # shown in red: unexplained or silent
NOT_TRIED = ("unsupported", "declined")  # clean refusals of what it does not do
SINGLE_TESTS = ("read", "reject", "write", "zom")
PAIR_TESTS = tuple(sorted(k.value for k in PAIR_KINDS))
LOCAL_STORES = ("directory", "zip")  # a case's own store; http and s3 are re-runs of it


def rank(outcome: str) -> int:
    return WORST_FIRST.index(outcome) if outcome in OUTCOMES else len(WORST_FIRST)


def store_kind(record: Record) -> str:
    return (record.get("store") or {}).get("kind") or "directory"


def own_store(record: Record) -> bool:
    return store_kind(record) in LOCAL_STORES


def is_pair(record: Record) -> bool:
    return record["test"] in PAIR_TESTS


def base_name(name: str) -> str:
    """`zarr-python@3.0.10` -> `zarr-python`: a version row is the same implementation."""
    return name.split("@", 1)[0]


def is_version_row(name: str) -> bool:
    return "@" in name


def side(record: Record) -> str:
    """ "writer" or "reader": the side the verdict is about."""
    found = str((record.get("blame") or {}).get("side"))
    if found in ("writer", "reader"):
        return found
    return "writer" if record["test"] == "write" else "reader"


def blamed(record: Record) -> str:
    """The implementation a verdict is about (the record's `impl`)."""
    return str(record["impl"])


def counted_for(record: Record) -> tuple[str, ...]:
    """The implementations a record counts for: a passed pair for both sides, anything else for
    the side at fault only (conformance.model.Record.counted_for)."""
    if is_pair(record) and record["outcome"] == "passed":
        return tuple(dict.fromkeys(n for n in (record.get("writer"), record.get("reader")) if n))
    return (blamed(record),)


def run_date(run_id: str | None) -> str:
    """`20261128T083200Z-...` -> `2026-11-28`; "" when the id has no date."""
    found = re.match(r"(\d{4})(\d{2})(\d{2})T", run_id or "")
    return "-".join(found.groups()) if found else ""
