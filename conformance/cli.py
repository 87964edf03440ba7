"""The `zarr-conformance` command line.

Each subcommand lives in its own module, which exposes `register(subparsers)`; that function adds
its parser and sets `func` (taking the parsed args, returning an exit code). Keep those modules
cheap to import: heavy imports go inside `func`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMAND_MODULES = [
    "conformance.validate.cli",
    "conformance.check.cli",
    "conformance.corpus.cli",
    "conformance.harness.cli",
    "conformance.harness.drafts_cli",
    "conformance.bench.cli",
    "conformance.report.cli",
    "conformance.audit.cli",
]


def build_parser() -> argparse.ArgumentParser:
    from conformance import __version__

    parser = argparse.ArgumentParser(
        prog="zarr-conformance",
        description="Conformance suite, golden corpus and reference implementation for the Zarr storage format.",
    )
    parser.add_argument("--version", action="version", version=f"zarr-conformance {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
