"""Known failures from a run's records: draft entries for the failures no entry explains, grouped
by what they look like, and the `observed` patterns of existing entries (what their bug looks like
when it shows). A draft is for a person to complete with evidence (the upstream issue about that
very bug, or a ready-to-file report with a reproducer): nothing here decides a verdict.

    zarr-conformance known-failures draft RESULTS --impl NAME
    zarr-conformance known-failures observed RESULTS --impl NAME
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from conformance.model import PAIR_KINDS

# What varies between records of one bug: quoted values, hex, paths, numbers, lists and
# parenthesised reprs. Each becomes one placeholder, matched by any text.
_VARYING = re.compile(
    r"""'[^'\n]{0,200}'|"[^"\n]{0,200}"|\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{8,}\b|(?:/[\w.@+-]+){2,}/?"""
    r"|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?|\([^()\n]{0,80}\)|\[[^\[\]\n]{0,80}\]"
)
_VALUE = "\x00"
SIGNATURE_LENGTH = 90


def first_line(message: str) -> str:
    for line in (message or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def signature(message: str) -> str:
    """The shape of a message's first line: varying parts replaced by placeholders."""
    text = _VARYING.sub(_VALUE, first_line(message))
    text = "".join(c if c.isprintable() else _VALUE for c in text)  # no control characters in TOML
    return re.sub("\x00+", _VALUE, text)[:SIGNATURE_LENGTH]


def pattern_of(sig: str) -> str:
    """A regular expression (searched from the start) for every message of this signature."""
    return "^" + ".*?".join(re.escape(part) for part in sig.split(_VALUE))


@dataclass
class Group:
    outcome: str
    test: str
    side: str | None
    signature: str
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def cases(self) -> list[str]:
        return sorted({r["case"] for r in self.records})


def unexplained(records: Iterable[dict[str, Any]], impl: str) -> list[Group]:
    """Failures of `impl` (as the side at fault) that no entry explains, grouped by outcome,
    test kind, side and message signature; biggest groups first."""
    groups: dict[tuple[str, str, str | None, str], Group] = {}
    for r in records:
        if r["impl"] != impl or r.get("known_failure"):
            continue
        if r["outcome"] not in ("failed", "wrong-data", "errored"):
            continue
        side = (r.get("blame") or {}).get("side") if r["test"] in PAIR_KINDS else None
        key = (r["outcome"], r["test"], side, signature(r["message"]))
        groups.setdefault(key, Group(*key)).records.append(r)
    return sorted(groups.values(), key=lambda g: (-len(g.records), g.signature))


def draft_toml(groups: list[Group], impl: str) -> str:
    """TOML entries to complete: one per group (merge groups that are one bug)."""
    out = [
        f"# Draft known failures of {impl}: one group of records each. Complete every entry with",
        "# what is wrong (observed vs expected) and its evidence: the upstream issue about this",
        "# very bug, or issue = 'unreported' with a ready-to-file report. Merge entries that are",
        "# one bug; drop any that is not the implementation's (adapter or suite bugs are fixed,",
        "# not listed).",
        "",
    ]
    for n, group in enumerate(groups, 1):
        slug = re.sub(r"[^a-z0-9]+", "-", first_line(group.records[0]["message"]).lower())
        slug = slug.strip("-")[:40].strip("-") or f"bug-{n}"
        out += [
            "[[known_failures]]",
            f'id = "{slug}"',
            "cases = [" + ", ".join(f'"{c}"' for c in group.cases) + "]",
            f"test = {_toml(group.test)}",
            *([f"role = {_toml(group.side)}"] if group.side else []),
            *(["crashes = true"] if group.outcome == "errored" else []),
            f"observed = [{_toml(pattern_of(group.signature))}]",
            f"# {len(group.records)} {group.outcome} record(s), e.g.: "
            + first_line(group.records[0]["message"])[:200],
            'reason = "TODO: what is wrong, observed against expected"',
            'issue = "unreported"',
            f'report = "reports/upstream/{impl}/{slug}.md"',
            "",
        ]
    return "\n".join(out)


def _toml(value: str) -> str:
    """A TOML literal string where possible (regexes keep their backslashes readable)."""
    if "'" not in value and "\n" not in value:
        return f"'{value}'"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def observed_patterns(
    records: Iterable[dict[str, Any]], impl: str
) -> dict[str, tuple[list[str], int]]:
    """Per known-failure entry of `impl` that explains records of this run: the patterns that
    match every message it explains (one per signature), and how many records it explains."""
    found: dict[str, set[str]] = defaultdict(set)
    counts: dict[str, int] = defaultdict(int)
    for r in records:
        known = r.get("known_failure")
        if not known or (known.get("owner") or r["impl"]) != impl:
            continue
        found[known["id"]].add(signature(r["message"]))
        counts[known["id"]] += 1
    return {k: (sorted(pattern_of(s) for s in v), counts[k]) for k, v in sorted(found.items())}
