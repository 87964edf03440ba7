"""What changed between two results files: new passes, regressions, new wrong data.

For an implementer's pull request: record the matrix on the base branch and on the change, then
`zarr-conformance report --compare base.jsonl change.jsonl`; the exit status is 1 when anything got
worse. A record is identified by (test, case, implementation, writer, reader, store kind); outcomes
are ranked worst first as in the harness.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

# Best to worst: a move to the right is a regression.
RANK = {
    "passed": 0,
    "unsupported": 1,
    "known-failure": 2,
    "failed": 3,
    "errored": 4,
    "wrong-data": 5,
}
BAD = ("failed", "errored", "wrong-data")


def load(path: str | Path, renames: dict[str, str] | None = None) -> dict[tuple, dict]:
    """Records by identity; `renames` maps old adapter names to new ones (a renamed column)."""
    renames = renames or {}
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            for member in ("impl", "writer", "reader"):
                if record.get(member) in renames:
                    record[member] = renames[record[member]]
            out[identity(record)] = record
    return out


def identity(record: dict) -> tuple:
    test = record["test"]
    if test == "cross" and record.get("writer") and record.get("writer") == record.get("reader"):
        test = "roundtrip"  # older results recorded self pairs as cross tests
    return (
        test,
        record["case"],
        record["impl"],
        record.get("writer"),
        record.get("reader"),
        (record.get("store") or {}).get("kind", "directory"),
    )


def unknown_bad(record: dict) -> bool:
    """An outcome that gates: failed or errored, or wrong data no known-failure entry explains."""
    outcome = record["outcome"]
    return outcome in ("failed", "errored") or (
        outcome == "wrong-data" and not record.get("known_failure")
    )


@dataclass
class Change:
    key: tuple
    old: str | None
    new: str | None
    message: str

    @property
    def regression(self) -> bool:
        if self.new is None:
            return False
        if self.old is None:
            return self.new in BAD
        return RANK[self.new] > RANK[self.old]

    def line(self) -> str:
        test, case, impl, writer, reader, store = self.key
        who = (
            f"{writer}->{reader}"
            if writer and reader and test in ("cross", "roundtrip", "property")
            else impl
        )
        where = "" if store == "directory" else f" [{store}]"
        text = f"{test:9} {who:28} {case}{where}: {self.old or 'new'} -> {self.new or 'gone'}"
        return text + (
            f"  ({self.message.splitlines()[0][:160]})" if self.message and self.new in BAD else ""
        )


def changes(old: dict[tuple, dict], new: dict[tuple, dict]) -> list[Change]:
    out = []
    for key in sorted(set(old) | set(new), key=lambda k: tuple(str(x) for x in k)):
        a, b = old.get(key), new.get(key)
        oa, ob = (a or {}).get("outcome"), (b or {}).get("outcome")
        if oa != ob:
            out.append(Change(key, oa, ob, (b or {}).get("message", "")))
    return out


def outcome_counts(records: dict[tuple, dict]) -> dict[str, Counter]:
    """Per implementation (each side of a pair counts), outcome counts."""
    table: dict[str, Counter] = defaultdict(Counter)
    for record in records.values():
        names = {record["impl"]} | ({record.get("writer"), record.get("reader")} - {None})
        for name in names:
            table[name][record["outcome"]] += 1
    return dict(table)


def render(
    old_path: str, new_path: str, renames: dict[str, str] | None = None, limit: int = 200
) -> tuple[str, bool]:
    """The comparison as text, and whether anything regressed."""
    old, new = load(old_path, renames), load(new_path, renames)
    found = changes(old, new)
    regressions = [c for c in found if c.regression]
    new_wrong = [c for c in found if c.new == "wrong-data"]
    improvements = [
        c for c in found if c.old is not None and c.new is not None and RANK[c.new] < RANK[c.old]
    ]
    lines = [f"compared {len(old)} records ({old_path}) with {len(new)} records ({new_path})", ""]
    lines.append("outcomes per implementation (old -> new):")
    before, after = outcome_counts(old), outcome_counts(new)
    order = sorted(RANK, key=RANK.get, reverse=True)
    lines.append(f"  {'implementation':20} " + " ".join(f"{o:>19}" for o in order))
    for name in sorted(set(before) | set(after)):
        cells = [
            f"{before.get(name, Counter())[o]:>8} -> {after.get(name, Counter())[o]:<7}"
            for o in order
        ]
        lines.append(f"  {name:20} " + " ".join(f"{c:>19}" for c in cells))
    for title, group in (
        ("new wrong data", new_wrong),
        ("regressions", regressions),
        ("improvements", improvements),
    ):
        lines += ["", f"{title}: {len(group)}"]
        lines += ["  " + c.line() for c in group[:limit]]
        if len(group) > limit:
            lines.append(f"  ... and {len(group) - limit} more")
    other = [c for c in found if c not in regressions and c not in improvements]
    lines += ["", f"other changes (records added or gone): {len(other)}"]
    return "\n".join(lines), bool(regressions)
