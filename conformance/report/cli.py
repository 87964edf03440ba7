"""`zarr-conformance report --compare OLD NEW`: what changed between two recorded runs."""

from __future__ import annotations


def register(subparsers) -> None:
    report = subparsers.add_parser(
        "report", help="compare recorded results (new passes, regressions, new wrong data)",
        description="Compare two JSONL results files of `zarr-conformance run`. Exit status 1 when any "
                    "record got worse (passed -> anything else, a new failure, crash or unexplained wrong data).")
    report.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), required=True, help="the two results files")
    report.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                        help="an adapter renamed between the runs (e.g. zarrs=zarrs-python); repeatable")
    report.add_argument("--limit", type=int, default=200, metavar="N", help="lines per section (default 200)")
    report.set_defaults(func=compare_command)


def compare_command(args) -> int:
    from .compare import render

    renames = dict(item.split("=", 1) for item in args.rename if "=" in item)
    text, regressed = render(args.compare[0], args.compare[1], renames, args.limit)
    print(text)
    return 1 if regressed else 0
