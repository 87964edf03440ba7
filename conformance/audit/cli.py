"""`zarr-conformance reproduce` and `zarr-conformance audit`."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.model import Record

REPRODUCE_HELP = """\
Print a standalone script that shows, through the implementation's public API alone, what the
record of CASE about IMPL recorded: it reads (read, reject cases) or writes (write cases) the case
and says what happened: passed, wrong-data, type-changed, mismatch, refused (with the exception),
accepted or written (the keys and documents of the store). A pair record (cross, roundtrip,
property) gets the script of the side its verdict blames, on the stored case: the writer's write,
or the reader's read of the store the writer wrote (kept by the run). The header says the verdict,
the implementation's version and how to install it and run the script.

Without a record of that case (--test chooses the kind), the script of the case itself is printed."""

AUDIT_HELP = """\
Draw a stratified random sample of non-pass records (strata: adapter x outcome x test kind),
run each record's reproducer in its implementation's environment (the adapter's venv, Debian
python or node with its npm packages; isolated like adapters: timeout and memory cap on the whole
process tree), and compare what it shows with what was recorded. Prints a table, the rate that
reproduced as recorded and every mismatch; exit status 0 when every sampled record reproduced,
1 otherwise. Records that show nothing of the implementation (capability skips, the adapter's
own Unsupported answers) and zom, hostile and fault tests are not eligible (counted)."""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "reproduce",
        help="print a standalone script reproducing one record's verdict",
        description=REPRODUCE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("results", type=Path, help="results file (JSONL) of a run")
    p.add_argument("case", help="case id (property tests: property/roundtrip-v3, ...)")
    p.add_argument("--impl", required=True, help="the implementation the verdict is about")
    p.add_argument(
        "--test",
        choices=("read", "reject", "write", "cross", "roundtrip", "property"),
        help="the record's test kind, where the case has several records about IMPL",
    )
    p.add_argument(
        "--store-kind",
        choices=("directory", "zip", "http", "s3", "icechunk"),
        help="the record's store kind, where the case ran over several",
    )
    p.add_argument("--writer", help="the writer of a pair record (cross, roundtrip, property)")
    p.add_argument("--reader", help="the reader of a pair record")
    p.add_argument("--fixtures", type=Path, help="corpus root (default: the run's)")
    p.add_argument("--out", type=Path, help="write the script to this file instead of stdout")
    p.set_defaults(func=reproduce_main)

    a = subparsers.add_parser(
        "audit",
        help="re-run a stratified sample of non-pass verdicts through their reproducers",
        description=AUDIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument("results", type=Path, help="results file (JSONL) of a run")
    a.add_argument("--sample", type=int, default=40, help="records to draw (default 40)")
    a.add_argument("--seed", type=int, default=0, help="random seed of the draw (default 0)")
    a.add_argument(
        "--impl", action="append", default=[], help="only records about this adapter (repeatable)"
    )
    a.add_argument("--kinds", default="", help="only these test kinds (comma-separated)")
    a.add_argument(
        "--store-kinds", default="", help="only records over these store kinds (comma-separated)"
    )
    a.add_argument("--fixtures", type=Path, help="corpus root (default: the run's)")
    a.add_argument("--timeout", type=float, default=120.0, help="seconds per script (default 120)")
    a.add_argument(
        "--memory", default="4GiB", help="memory cap per script's process tree (default 4GiB)"
    )
    a.add_argument(
        "--with-passed",
        action="store_true",
        help="draw passed records too (a check of the templates: they must pass as recorded)",
    )
    a.add_argument("--json", action="store_true", help="print the audit as JSON")
    a.set_defaults(func=audit_main)


def _meta(results: Path) -> dict[str, Any]:
    path = results.with_suffix(".meta.json")
    if not path.is_file():
        return {}
    try:
        loaded = json.loads(path.read_text("utf-8"))
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def corpus_root(given: Path | None, meta: dict[str, Any]) -> Path:
    """--fixtures, else the corpus the run names (relative to the checkout or the package), else
    the default corpus."""
    from conformance.corpus.case import default_root
    from conformance.resources import PACKAGE_DIR, checkout_root

    if given is not None:
        return given
    label = meta.get("corpus")
    if isinstance(label, str):
        bases = [PACKAGE_DIR.parent if label.startswith("conformance/") else checkout_root()]
        for base in [*bases, Path.cwd()]:
            if base is not None and (base / label).is_dir():
                return base / label
        if Path(label).is_dir():
            return Path(label)
    return default_root()


def parse_size(text: str) -> int | None:
    """4GiB, 512MiB, 0 (no cap: None is returned only for text that is not a size)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", text.lower())
    if not match:
        return None
    return int(float(match.group(1)) * 1024 ** " kmgt".index(match.group(2) or " "))


def _load(results: Path) -> list[Record]:
    from conformance.model import RecordError, load_records

    if not results.is_file():
        raise SystemExit(f"zarr-conformance: no results file {results}")
    try:
        return load_records(results)
    except RecordError as exc:
        raise SystemExit(f"zarr-conformance: {exc}") from None


def reproduce_main(args: argparse.Namespace) -> int:
    from conformance.harness.config import AdapterConfigError
    from conformance.harness.variants import resolve_adapter

    from .reproduce import (
        NotReproducible,
        Target,
        case_value,
        corpus_case,
        find_record,
        language_of,
        script_text,
        target_of,
        template_path,
    )

    meta = _meta(args.results)
    records = _load(args.results)
    root = corpus_root(args.fixtures, meta)
    impl_env = meta.get("impl_env") or "pinned"
    record: Record | None
    try:
        try:
            found = find_record(
                records, args.case, args.impl, args.test, args.store_kind, args.writer, args.reader
            )
            record = found
        except LookupError as exc:
            if args.test is None or args.test not in ("read", "reject", "write"):
                print(f"zarr-conformance reproduce: {exc}", file=sys.stderr)
                return 2
            case = corpus_case(root, args.case)  # no record: the case's own script
            script = "write" if case.kind == "write" else "read"
            target, record = Target(args.impl, script, case_value(case), source=case), None
        else:
            target = target_of(found, root)
        config = resolve_adapter(target.impl, impl_env)
        text, _language = script_text(target, config, record, impl_env)
    except (NotReproducible, AdapterConfigError) as exc:
        print(f"zarr-conformance reproduce: {exc}", file=sys.stderr)
        return 2
    if target.store_from is not None:
        writer, write_case = target.store_from
        try:
            ext = language_of(template_path(resolve_adapter(writer, impl_env), "write"))
        except (NotReproducible, AdapterConfigError):
            ext = "py"
        print(
            f"zarr-conformance reproduce: the run kept no store for this pair: make it first with\n"
            f"  zarr-conformance reproduce {args.results} {write_case.id} --impl {writer} "
            f"--test write --out write.{ext}\n"
            f"and run write.{ext} (its header says how) with the argument {target.case['store']}",
            file=sys.stderr,
        )
    if args.out is not None:
        args.out.write_text(text, "utf-8")
        print(f"zarr-conformance reproduce: wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def audit_main(args: argparse.Namespace) -> int:
    from .audit import as_json, run_audit, table

    meta = _meta(args.results)
    records = _load(args.results)
    root = corpus_root(args.fixtures, meta)
    if args.sample < 1:
        print("zarr-conformance audit: --sample must be at least 1", file=sys.stderr)
        return 2
    memory = parse_size(args.memory)
    if memory is None:
        print(
            f"zarr-conformance audit: --memory {args.memory!r}: e.g. 4GiB, 512MiB, 0",
            file=sys.stderr,
        )
        return 2

    def progress(number: int, total: int, entry: Any) -> None:
        r, run = entry.record, entry.run
        seen = run.behaviour if run is not None else "skipped"
        mark = "ok" if entry.reproduced else "MISMATCH"
        print(
            f"[{number}/{total}] {r.impl} {r.test.value} {r.case}: recorded {r.outcome.value}, "
            f"reproduced {seen} ({mark})",
            file=sys.stderr,
            flush=True,
        )

    audit = run_audit(
        records,
        root,
        size=args.sample,
        seed=args.seed,
        impls=args.impl,
        tests=[k for k in args.kinds.split(",") if k],
        store_kinds=[k for k in args.store_kinds.split(",") if k],
        timeout=args.timeout,
        memory=memory or None,
        impl_env=meta.get("impl_env") or "pinned",
        passed=args.with_passed,
        progress=progress,
    )
    if args.json:
        print(json.dumps(as_json(audit), indent=2, sort_keys=True))
    else:
        print(table(audit))
    if not audit.entries:
        print("zarr-conformance audit: no eligible non-pass record to draw from", file=sys.stderr)
        return 1
    return 0 if audit.ok else 1
