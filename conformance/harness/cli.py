"""`zarr-conformance run` (the suite over the corpus, through pytest and the plugin) and
`zarr-conformance adapters` (what is there, what it supports, whether it is ready)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

PLUGIN = "conformance.harness.pytest_plugin"


def register(subparsers) -> None:
    run = subparsers.add_parser("run", help="run the conformance suite against adapters",
                                description="Run the conformance suite (conformance/suite) against one or more adapters.")
    run.add_argument("--impl", action="append", default=[], metavar="NAME",
                     help="adapter name (adapters/<name>) or folder; repeatable; 'all' = every adapter "
                          "(default: reference)")
    run.add_argument("--results", metavar="FILE", help="JSONL results file (default: results/<run id>.jsonl)")
    run.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="parallel workers (pytest-xdist)")
    run.add_argument("--fixtures", metavar="DIR", help="corpus root (default: <repo>/fixtures)")
    run.add_argument("--kinds", metavar="LIST", help="comma-separated: read,reject,write,cross,property,zom")
    run.add_argument("--cases", action="append", default=[], metavar="GLOB", help="only matching case ids; repeatable")
    run.add_argument("--timeout", type=float, metavar="S", help="seconds per adapter request (default 60)")
    run.add_argument("--memory", metavar="SIZE", help="memory cap per adapter process (default 4GiB, 0 = none)")
    run.add_argument("--in-process", action="store_true", help="import adapters without requirements in-process")
    run.add_argument("--no-probe", action="store_true",
                     help="skip cases needing a capability an adapter does not declare (default: probe them)")
    run.add_argument("--ci", action="store_true", help="hypothesis profile 'ci' (100 examples per property, derandomized)")
    run.add_argument("pytest_args", nargs=argparse.REMAINDER, help="after --: extra pytest arguments")
    run.set_defaults(func=run_command)

    adapters = subparsers.add_parser("adapters", help="list adapters, their capabilities and environments")
    adapters.add_argument("--capabilities", action="store_true", help="print every capability")
    adapters.set_defaults(func=adapters_command)


def plugin_args() -> list[str]:
    """Load the plugin explicitly unless the installed pytest11 entry point already does."""
    from importlib.metadata import entry_points

    if any(ep.value == PLUGIN for ep in entry_points(group="pytest11")):
        return []
    return ["-p", PLUGIN]


def expand_impls(names: list[str]) -> list[str]:
    """'all' stands for every adapter folder on the search path, in name order."""
    if "all" not in names:
        return names
    from .config import search_path

    found = sorted({p.parent.name for root in search_path() if root.is_dir() for p in root.glob("*/adapter.toml")})
    return [n for n in names if n != "all"] + [n for n in found if n not in names]


def pytest_arguments(args, run_id: str, results: Path) -> list[str]:
    suite = Path(__file__).resolve().parents[1] / "suite"
    argv = [
        str(suite), "-c", os.devnull, "--rootdir", str(suite),  # ignore the caller's pytest config
        "-p", "no:cacheprovider", "-p", "no:terminal", "-p", "no:zarr",  # zarr's plugin only slows start-up
        *plugin_args(), "--run-id", run_id, "--results", str(results),
    ]
    for name in expand_impls(args.impl or ["reference"]):
        argv += ["--impl", name]
    if args.fixtures:
        argv += ["--corpus", args.fixtures]
    if args.kinds:
        argv += ["--kinds", args.kinds]
    for glob in args.cases:
        argv += ["--cases", glob]
    if args.timeout:
        argv += ["--adapter-timeout", str(args.timeout)]
    if args.memory:
        argv += ["--adapter-memory", args.memory]
    if args.in_process:
        argv.append("--in-process")
    if args.no_probe:
        argv.append("--no-probe")
    if args.ci:
        argv += ["--hypothesis-profile", "ci"]
    if args.jobs > 1:
        # worksteal: idle workers take queued tests from busy ones (property tests take longer).
        argv += ["-n", str(args.jobs), "--dist", "worksteal"]
    else:
        argv += ["-p", "no:xdist"]
    extra = list(args.pytest_args or [])
    if extra and extra[0] == "--":
        extra = extra[1:]
    return argv + extra


def run_command(args) -> int:
    import pytest

    from .progress import RunReporter
    from .records import new_run_id, unexpected

    run_id = new_run_id()
    results = Path(args.results) if args.results else Path("results") / f"{run_id}.jsonl"
    reporter = RunReporter()
    code = pytest.main(pytest_arguments(args, run_id, results), plugins=[reporter])
    sink = reporter.config.pluginmanager.get_plugin("zarr-conformance-records") if reporter.config else None
    records = sink.records if sink is not None else []
    if code in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
        print(f"zarr-conformance run: pytest stopped ({code.name.lower().replace('_', ' ')})", file=sys.stderr)
        return int(code)
    if not records:
        print("zarr-conformance run: no tests ran (check --impl, --kinds, --cases and the corpus)", file=sys.stderr)
        return 1
    from .pytest_plugin import stale_known_failures
    from .pytest_plugin import SESSION

    stale = stale_known_failures(reporter.config.stash[SESSION]) if reporter.config else []
    print(reporter.summary(records, stale, results))
    return 1 if unexpected(records) else 0


def adapters_command(args) -> int:
    from . import envs
    from .config import AdapterConfigError, search_path

    rows, problems = [], []
    for root in search_path():
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if (p / "adapter.toml").is_file()):
            try:
                from .config import load_adapter_config

                config = load_adapter_config(folder)
            except AdapterConfigError as exc:
                problems.append(str(exc))
                continue
            rows.append(config)
    width = max([len("adapter"), *(len(c.name) for c in rows)])
    print(f"{'adapter':<{width}}  {'transport':<9}  {'environment':<20}  {'caps':>4}  {'known':>5}  description")
    for c in rows:
        print(f"{c.name:<{width}}  {c.transport:<9}  {envs.status(c):<20}  {len(c.capabilities):>4}  "
              f"{len(c.known_failures):>5}  {c.description}")
        if args.capabilities:
            print(" " * (width + 2) + ", ".join(sorted(c.capabilities)))
    for p in problems:
        print(f"invalid adapter: {p}", file=sys.stderr)
    return 1 if problems else 0
