"""`zarr-conformance check`: will this store be read, and read the same, by every implementation?"""

from __future__ import annotations

import argparse
import sys
from typing import Any

DESCRIPTION = """\
Validate a Zarr store with the reference implementation, then have every available
implementation (or those named) open each node and read each array, through the suite's
adapters in held processes, and compare what each returns with the reference's decoding, bit
for bit. Where one refuses or misreads, say what about the store the corpus knows to cause it
and what the producer could write instead."""

EPILOG = """\
what is read: every array whole when it fits the budget; an array over it (or every array, with
--sample N) through N chunks (8 by default): the first, the last and others evenly between,
each cut down to fit, all within the budget. Implementations whose adapter has no region read
(no `bench` op), or that read the store over a URL, read such an array only whole, if it fits.

outcome per node and implementation:
  read exactly      every element equal, bit for bit, and in the same data type
  type changed      every value exact, but in another data type (both named)
  metadata differs  every value exact; the attributes or a group's members differ
  WRONG DATA        values differ without an error (how many, where), or data returned for
                    chunks the reference finds corrupt
  refused           a clean error (its message)
  crashed           died, ran out of memory, or raised a crash type
  timed out         no answer within 60 s, or the rest of --timeout (its processes killed)
  not compared      read, but the reference cannot decode it
  not read          over the budget without a region read, after the time budget ran out, or
                    (marked *, not counted) a format or node kind it does not declare

implementations: by default every available adapter that declares op:read, the store kind and
one of the store's formats (`zarr-conformance adapters` lists them); the reference is the judge.

safety: a stranger's store. Nothing is written in or beside it. Code-executing codecs (pickle
and the like), special files, links out of the store and zip members with '..' are refused
before any implementation opens it (exit 6). Each implementation runs in its own process tree
with a memory cap (--memory) and a time cap per request (60 s, within --timeout), one at a
time. A node the reference cannot read within its limits (too-large, io-error, invalid-path)
is not handed over.

exit codes (where several apply, the first of {precedence}):
{codes}

output: a table (node x implementation), details with advice, a summary per implementation;
--json prints one JSON object instead; --html FILE also writes a page. Progress goes to stderr.
"""


def register(subparsers: Any) -> None:
    from .report import EXIT_CODES, PRECEDENCE

    parser = subparsers.add_parser(
        "check",
        help="will this store be read, and read the same, by every implementation?",
        description=DESCRIPTION,
        epilog=EPILOG.format(codes=_codes(EXIT_CODES), precedence=", ".join(map(str, PRECEDENCE))),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("location", metavar="PATH_OR_URL", help="a directory, a .zip file or a URL")
    parser.add_argument(
        "--impl",
        action="append",
        default=[],
        metavar="NAME",
        help="an implementation to check with (repeatable; 'all' adds every available one)",
    )
    parser.add_argument(
        "--sample",
        type=_positive,
        metavar="N",
        help="read N chunks of every array instead of whole arrays",
    )
    parser.add_argument(
        "--budget",
        type=_size,
        default=None,
        metavar="BYTES",
        help="the most decoded bytes read of one array by one implementation (default 128MiB)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--html", metavar="FILE", help="also write the result as an HTML page")
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=600.0,
        metavar="S",
        help="the time budget of the whole check (default 600; 0 = none); one implementation "
        "reading one node gets at most 60 s of it",
    )
    parser.add_argument(
        "--memory",
        type=_size,
        metavar="BYTES",
        help="memory cap of each implementation's process tree (default 512MiB + 2 x budget)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    parser.set_defaults(func=run)


def _codes(codes: tuple[tuple[int, str], ...]) -> str:
    import textwrap

    return "\n".join(
        textwrap.fill(text, 92, initial_indent=f"  {code}  ", subsequent_indent="     ")
        for code, text in codes
    )


def _seconds(text: str) -> float | None:
    from conformance.validate.cli import _seconds as seconds

    return seconds(text)


def _size(text: str) -> int:
    from conformance.validate.cli import _size as size

    return size(text)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a positive number: {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from conformance.validate.runner import UsageError

    from .runner import DEFAULT_BUDGET, Options, check

    options = Options(
        impls=args.impl,
        sample=args.sample,
        budget=args.budget or DEFAULT_BUDGET,
        timeout=args.timeout,
        memory=args.memory,
        progress=not args.quiet,
    )
    try:
        report = check(args.location, options)
    except UsageError as exc:
        print(f"zarr-conformance check: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(report.to_json() + "\n" if args.json else report.to_text())
    if args.html:
        from .html import write_page

        write_page(report, args.html)
    return report.exit_code
