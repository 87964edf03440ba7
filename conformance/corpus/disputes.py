"""Disputes: cases where independent implementations agree with each other against the reference.

A case is disputed in one kind of test when the reference passes it and two or more independent
implementations record an outcome other than passed or unsupported. Implementations that share a
metadata parser (adapter.toml `parser`; zarrs-python reads metadata with zarr-python's) count once.
In a cross, roundtrip or property record the implementation in question is the one that worked
with the reference: the writer when the reference read, the reader when the reference wrote;
records between two other implementations say nothing about the reference and are left out.

A disputed case whose case.json carries an `adjudication` is resolved.
"""

from __future__ import annotations

import json
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..resources import REPO_ROOT

REFERENCE = "reference"
AGREEING = ("passed", "unsupported")
PAIR_TESTS = ("cross", "roundtrip", "property")
RENAMED = {"zarrs": "zarrs-python"}  # columns of older result files
DEFAULT_RESULTS = ("reports/latest/results.jsonl", "results/matrix.jsonl")


@dataclass
class Dispute:
    case: str
    test: str
    parties: dict[str, list[tuple[str, str]]] = field(
        default_factory=dict
    )  # parser -> [(impl, outcome: message)]
    tier: str | None = None
    adjudication: dict | None = None
    in_corpus: bool = True

    @property
    def resolved(self) -> bool:
        return self.adjudication is not None


def default_results(cwd: Path | None = None) -> list[Path]:
    for base in (cwd or Path.cwd(), REPO_ROOT):
        for rel in DEFAULT_RESULTS:
            if (base / rel).exists():
                return [base / rel]
    return []


def parsers(adapters_dir: Path | None = None) -> dict[str, str]:
    """Column name -> the name of the metadata parser it uses (its own name unless adapter.toml says)."""
    out = {}
    folder = adapters_dir or REPO_ROOT / "adapters"
    for toml in sorted(folder.glob("*/adapter.toml")):
        try:
            doc = tomllib.loads(toml.read_text("utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue
        name = doc.get("name", toml.parent.name)
        out[name] = doc.get("parser", name)
        out.setdefault(toml.parent.name, out[name])
    return out


def load_records(paths) -> list[dict]:
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            records += [json.loads(line) for line in fh if line.strip()]
    return records


def find_disputes(records: list[dict], cases: dict, parser_of: dict[str, str]) -> list[Dispute]:
    """`cases`: case id -> Case (the corpus); records of ids outside it are kept as in_corpus=False."""
    reference_ok: dict[tuple[str, str], bool] = defaultdict(bool)
    failing: dict[tuple[str, str], dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        key = (r.get("case"), r.get("test"))
        impl = RENAMED.get(r.get("impl"), r.get("impl"))
        test = r.get("test")
        if test in PAIR_TESTS:
            writer = RENAMED.get(r.get("writer"), r.get("writer"))
            reader = RENAMED.get(r.get("reader"), r.get("reader"))
            if writer == REFERENCE and reader == REFERENCE:
                party = REFERENCE
            elif reader == REFERENCE:
                party = writer
            elif writer == REFERENCE:
                party = reader
            else:
                continue
        else:
            party = impl
        if party == REFERENCE:
            reference_ok[key] = reference_ok[key] or r.get("outcome") == "passed"
            continue
        if party is None or r.get("outcome") in AGREEING:
            continue
        parser = parser_of.get(party, party)
        failing[key][parser].append(
            (party, f"{r.get('outcome')}: {(r.get('message') or '').splitlines()[0][:160]}")
        )
    out = []
    for (case_id, test), by_parser in sorted(
        failing.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))
    ):
        if len(by_parser) < 2 or not reference_ok[(case_id, test)]:
            continue
        case = cases.get(case_id)
        out.append(
            Dispute(
                case_id,
                test,
                {p: v for p, v in sorted(by_parser.items())},
                tier=case.tier if case else None,
                adjudication=case.raw.get("adjudication") if case else None,
                in_corpus=case is not None,
            )
        )
    return out


def render(disputes: list[Dispute], show_all: bool = False) -> str:
    lines = []
    for d in disputes:
        if not d.in_corpus:
            continue
        if d.resolved and not show_all:
            continue
        state = f"resolved ({d.adjudication.get('verdict')})" if d.resolved else "UNRESOLVED"
        who = ", ".join(sorted({impl for items in d.parties.values() for impl, _ in items}))
        lines.append(f"{state:34} {d.test:9} {d.tier or '-':9} {d.case}  [{who}]")
        if not d.resolved or show_all:
            for parser, items in d.parties.items():
                impl, message = items[0]
                label = impl if impl == parser else f"{impl} (parser {parser})"
                lines.append(f"    {label}: {message}")
            if d.resolved:
                lines.append(f"    adjudication: {d.adjudication.get('reason', '')}")
    in_corpus = [d for d in disputes if d.in_corpus]
    unresolved = sum(1 for d in in_corpus if not d.resolved)
    outside = len(disputes) - len(in_corpus)
    lines.append(
        f"{len(in_corpus)} disputed cases: {unresolved} unresolved, {len(in_corpus) - unresolved} adjudicated"
        + (f" ({outside} disputed ids are not corpus cases and are not counted)" if outside else "")
    )
    return "\n".join(lines)
