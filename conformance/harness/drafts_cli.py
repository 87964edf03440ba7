"""`zarr-conformance known-failures`: drafts of entries from a run, and the `observed` patterns of
existing ones (conformance.harness.drafts)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "known-failures",
        help="draft known-failure entries from a run; fill in their observed patterns",
        description="Known failures from a results file (JSONL): `draft` prints TOML entries for "
        "the failures of an implementation that no entry explains, one per group of records that "
        "look alike (outcome, test kind, side, message shape), for a person to complete with "
        "evidence; `observed` prints, per existing entry, the patterns that match every message it "
        "explained in the run, and with --write adds them to entries that have none.",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    draft = sub.add_parser("draft", help="draft entries for unexplained failures")
    draft.add_argument("results", help="results file (JSONL) of a run")
    draft.add_argument("--impl", required=True, help="the adapter whose failures to draft")
    draft.add_argument("--out", help="write the TOML here (default: standard output)")
    draft.set_defaults(func=draft_command)
    observed = sub.add_parser("observed", help="observed patterns of existing entries")
    observed.add_argument("results", help="results file (JSONL) of a run")
    observed.add_argument("--impl", required=True, help="the adapter whose entries to look at")
    observed.add_argument(
        "--write",
        action="store_true",
        help="add the patterns to entries of adapters/<impl>/known-failures.toml that have none",
    )
    observed.set_defaults(func=observed_command)


def _records(path: str) -> list[dict]:
    from conformance.model import RecordError

    from .records import read_records

    try:
        return read_records(path)
    except (OSError, RecordError) as exc:
        raise SystemExit(f"known-failures: {exc}") from None


def draft_command(args: argparse.Namespace) -> int:
    from .drafts import draft_toml, unexplained

    groups = unexplained(_records(args.results), args.impl)
    text = draft_toml(groups, args.impl)
    if args.out:
        Path(args.out).write_text(text, "utf-8")
        print(f"{len(groups)} draft entries written to {args.out}", file=sys.stderr)
    else:
        print(text)
    return 0


def observed_command(args: argparse.Namespace) -> int:
    from .config import find_adapter
    from .drafts import _toml, observed_patterns

    config = find_adapter(args.impl)
    found = observed_patterns(_records(args.results), config.name)
    entries = {e.id: e for e in config.known_failures}
    missing = []
    for entry_id, entry in entries.items():
        patterns, count = found.get(entry_id, ([], 0))
        state = "has observed" if entry.observed else "no observed"
        print(f"{entry_id}: explains {count} record(s) in this run; {state}")
        for pattern in patterns:
            print(f"    {pattern}")
        if not entry.observed and patterns:
            missing.append((entry_id, patterns))
    if args.write and missing:
        path = config.folder / "known-failures.toml"
        text = path.read_text("utf-8")
        for entry_id, patterns in missing:
            line = "observed = [" + ", ".join(_toml(p) for p in patterns) + "]"
            text, n = re.subn(
                rf'(^id = "{re.escape(entry_id)}"\n)', rf"\g<1>{_escape(line)}\n", text, flags=re.M
            )
            if n != 1:
                print(f"warning: entry {entry_id} not found once in {path}", file=sys.stderr)
        path.write_text(text, "utf-8")
        print(f"observed patterns added to {len(missing)} entries of {path}", file=sys.stderr)
    return 0


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\")
