"""What the site needs to know about a record: its outcome's rank and meaning, which side of a pair
the verdict is about, and which implementations it counts for.

Records are plain dicts as written by the harness (result-record.json). Schema 2 records name the
side at fault (`blame.side`) and make `impl` that side; schema 1 records (before the verdict model)
do not, so for them the side is read from the refusal's wording ("(writer) lacks ...") and, failing
that, is the reader, which is what schema 1 filed them under.
"""

from __future__ import annotations

import re
from typing import Any

Record = dict[str, Any]  # a result record as the harness writes it (result-record.json)

# Worst first. The meanings are the legend of every page and of results.json.
OUTCOMES: dict[str, str] = {
    "wrong-data": "values differ, bit for bit after a lossless widening, and no error was raised: "
    "a silent corruption",
    "errored": "a crash, a hang, running out of memory, or an answer outside the protocol",
    "failed": "a behaviour the spec forbids: a valid required case refused, an invalid one "
    "accepted, wrong metadata or attributes, wrong keys written",
    "known-failure": "a failure explained by a known-failures.toml entry of the side at fault "
    "(its upstream issue or ready-to-file report is linked)",
    "type-changed": "every value exact, but returned in another data type (both types are named)",
    "lenient": "accepted an invalid document where its tier allows it (strict, optional or "
    "extension reject cases)",
    "declined": "cleanly refused an optional or extension case the spec lets it refuse",
    "unsupported": "a declared lack of capability, seen to refuse cleanly",
    "passed": "did what the case requires",
}
WORST_FIRST = tuple(OUTCOMES)
BAD = ("wrong-data", "errored", "failed")  # shown in red: unexplained or silent
NOT_TRIED = ("unsupported", "declined")  # clean refusals of what it does not do
SINGLE_TESTS = ("read", "reject", "write", "zom")
PAIR_TESTS = ("cross", "roundtrip", "property")
LOCAL_STORES = ("directory", "zip")  # a case's own store; http and s3 are re-runs of it

_NAMED = re.compile(r"^(?:unsupported: )?([\w.@+-]+?)(?::| lacks| could not| answered| \()")


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
    blamed_side = str((record.get("blame") or {}).get("side"))
    if blamed_side in ("writer", "reader"):
        return blamed_side
    if record["test"] == "write":
        return "writer"
    if not is_pair(record):
        return "reader"
    message = record.get("message") or ""
    if "(writer) lacks" in message or " could not write" in message:
        return "writer"
    if "(reader) lacks" in message:
        return "reader"
    named = _NAMED.match(message)
    if named and named.group(1) == record.get("writer") != record.get("reader"):
        return "writer"
    return "reader"


def blamed(record: Record) -> str:
    """The implementation a verdict is about."""
    if is_pair(record) and record.get(side(record)):
        return str(record[side(record)])
    return str(record["impl"])


def counted_for(record: Record) -> tuple[str, ...]:
    """The implementations a record counts for: a passed pair for both sides, anything else for
    the side at fault only."""
    if is_pair(record) and record["outcome"] == "passed":
        return tuple(dict.fromkeys(n for n in (record.get("writer"), record.get("reader")) if n))
    return (blamed(record),)


def run_date(run_id: str | None) -> str:
    """`20261128T083200Z-...` -> `2026-11-28`; "" when the id has no date."""
    found = re.match(r"(\d{4})(\d{2})(\d{2})T", run_id or "")
    return "-".join(found.groups()) if found else ""
