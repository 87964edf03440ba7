"""`zarr-conformance run` (the suite over the corpus, through pytest and the plugin) and
`zarr-conformance adapters` (what is there, what it supports, whether it is ready)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..resources import PACKAGE_DIR

PLUGIN = "conformance.harness.pytest_plugin"


def register(subparsers) -> None:
    run = subparsers.add_parser(
        "run",
        help="run the conformance suite against adapters",
        description="Run the conformance suite (conformance/suite) against one or more adapters.",
    )
    run.add_argument(
        "--impl",
        action="append",
        default=[],
        metavar="NAME",
        help="adapter name (adapters/<name>) or folder; repeatable; 'all' = every adapter "
        "(default: reference)",
    )
    run.add_argument(
        "--results", metavar="FILE", help="JSONL results file (default: results/<run id>.jsonl)"
    )
    run.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="N", help="parallel workers (pytest-xdist)"
    )
    run.add_argument("--fixtures", metavar="DIR", help="corpus root (default: <repo>/fixtures)")
    run.add_argument(
        "--kinds",
        metavar="LIST",
        help="comma-separated: read,reject,write,cross,property,zom (default); "
        "hostile,fault (opt-in, never failing a run)",
    )
    run.add_argument(
        "--store-kinds",
        metavar="LIST",
        default=None,
        help="store kinds directory cases also run over, for adapters declaring them: "
        "http,s3,icechunk (default; icechunk: v3 read and write cases in an Icechunk repository, "
        "needs a Python 3.12 on this machine), '' for none",
    )
    run.add_argument(
        "--cases",
        action="append",
        default=[],
        metavar="GLOB",
        help="only matching case ids; repeatable",
    )
    run.add_argument(
        "--timeout", type=float, metavar="S", help="seconds per adapter request (default 60)"
    )
    run.add_argument(
        "--memory",
        metavar="SIZE",
        help="memory cap per adapter, over its whole process tree (default 4GiB, 0 = none)",
    )
    run.add_argument(
        "--in-process", action="store_true", help="import adapters without requirements in-process"
    )
    run.add_argument(
        "--no-probe",
        action="store_true",
        help="skip cases needing a capability an adapter does not declare (default: probe them)",
    )
    run.add_argument(
        "--ci",
        action="store_true",
        help="kept for old command lines: property tests are deterministic by default now "
        "(a fixed seed, 100 examples per property and pair)",
    )
    run.add_argument(
        "--impl-env",
        choices=("pinned", "current"),
        default="pinned",
        help="pinned (default): adapters run in venvs of adapter.toml's exact pins; current: python "
        "adapters run in this interpreter, testing the implementation installed here (your build). "
        "--impl NAME@VERSION runs another version of an implementation in its own venv",
    )
    run.add_argument(
        "--explore",
        action="store_true",
        help="property tests draw fresh random examples and save each new shrunk failure as corpus "
        "cases <format>/found/* that every later run replays (docs/ci.md)",
    )
    run.add_argument(
        "--examples", type=int, metavar="N", help="examples per property and pair (default 100)"
    )
    run.add_argument(
        "--no-shrink",
        action="store_true",
        help="a failing property example is recorded as drawn, not shrunk first (a gate's speed: "
        "shrinking a failure can take minutes; the record keeps the example's store either way)",
    )
    run.add_argument(
        "--corpus-version",
        metavar="VERSION",
        help="stop unless the corpus's VERSION is this one (1.2.0), or within it (1.2, 1)",
    )
    run.add_argument(
        "--adapter-overrides",
        action="append",
        default=[],
        metavar="FILE",
        help="a TOML file of changes to the installed adapters' known failures and error rules "
        "(drop fixed entries, add or replace entries, error rules tried first): for the build "
        "under test, kept in its own repository (docs/ci.md); repeatable",
    )
    run.add_argument(
        "pytest_args", nargs=argparse.REMAINDER, help="after --: extra pytest arguments"
    )
    run.set_defaults(func=run_command)

    adapters = subparsers.add_parser(
        "adapters",
        help="list adapters, their capabilities and environments; `adapters new NAME` makes one",
        description="List the adapters (or NAMEs): transport, environment, capabilities, "
        "availability. `adapters new NAME --lang python|js [--dir DIR]` writes the folder of a new "
        "adapter that runs at once (every operation answers 'not implemented yet', declared "
        "unsupported) into DIR (default: the checkout's adapters/, else the current directory).",
    )
    adapters.add_argument("--capabilities", action="store_true", help="print every capability")
    adapters.add_argument(
        "--install",
        action="store_true",
        help="install the Debian packages adapters declare (adapter.toml `debian`) that are "
        "missing: needs root and apt-get (runs apt-get update once)",
    )
    adapters.add_argument(
        "names", nargs="*", metavar="NAME", help="only these adapters (default: every one)"
    )
    adapters.add_argument(
        "--outdated",
        action="store_true",
        help="list the adapters whose implementation pin is older than the newest release the "
        "package index offers (pip index versions under the adapter's own Python; npm view); "
        "exit 1 when there is one",
    )
    adapters.add_argument(
        "--lang",
        choices=("python", "js"),
        help="with `new`: the adapter's language (python: transport python over "
        "conformance.harness.serve; js: node over the shared protocol.mjs)",
    )
    adapters.add_argument(
        "--dir",
        metavar="DIR",
        help="with `new`: the folder to create NAME/ in (default: the checkout's adapters/, "
        "else the current directory)",
    )
    adapters.set_defaults(func=adapters_command)


def plugin_args() -> list[str]:
    """Load the plugin explicitly unless the installed pytest11 entry point already does."""
    from importlib.metadata import entry_points

    if any(ep.value == PLUGIN for ep in entry_points(group="pytest11")):
        return []
    return ["-p", PLUGIN]


# Lines about adapters a run leaves out (unavailable ones), repeated above its summary.
SKIPPED: list[str] = []


def expand_impls(names: list[str], impl_env: str = "pinned") -> list[str]:
    """'all' stands for every adapter folder on the search path whose adapter.toml does not say
    `default = false`, in name order; unavailable adapters (envs.availability) and those whose
    environment cannot be made (envs.provision_all: made here, before the run) are left out, with
    one line each on stderr (kept in SKIPPED for the summary)."""
    from .envs import provision_all, select_adapters

    selection = provision_all(select_adapters(names), impl_env)
    SKIPPED[:] = [
        f"zarr-conformance run: {note}"
        for note in selection.notes()
        if note.startswith("skipping ")
    ]
    for note in selection.notes():
        print(f"zarr-conformance run: {note}", file=sys.stderr)
    return selection.names


def pytest_arguments(args, run_id: str, results: Path) -> list[str]:
    suite = PACKAGE_DIR / "suite"
    argv = [
        str(suite),
        "-c",
        os.devnull,
        "--rootdir",
        str(suite),  # ignore the caller's pytest config
        "-p",
        "no:cacheprovider",
        "-p",
        "no:terminal",
        "-p",
        "no:zarr",  # zarr's plugin only slows start-up
        *plugin_args(),
        "--run-id",
        run_id,
        "--results",
        str(results),
    ]
    for name in expand_impls(args.impl or ["reference"], args.impl_env):
        argv += ["--impl", name]
    if args.fixtures:
        argv += ["--corpus", args.fixtures]
    if args.kinds:
        argv += ["--kinds", args.kinds]
    if args.store_kinds is not None:
        argv += ["--store-kinds", args.store_kinds]
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
    if args.impl_env != "pinned":
        argv += ["--impl-env", args.impl_env]
    if args.explore:
        argv.append("--hypothesis-explore")
    if args.examples:
        argv += ["--property-examples", str(args.examples)]
    if args.no_shrink:
        argv.append("--property-no-shrink")
    if args.corpus_version:
        argv += ["--corpus-version", args.corpus_version]
    for path in args.adapter_overrides:
        argv += ["--adapter-overrides", str(Path(path).resolve())]
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
    argv = pytest_arguments(args, run_id, results)
    if "--impl" not in argv:  # every adapter asked for is unavailable (expand_impls said why)
        print("zarr-conformance run: no available adapter to run", file=sys.stderr)
        return 1
    code = pytest.main(argv, plugins=[reporter])
    sink = (
        reporter.config.pluginmanager.get_plugin("zarr-conformance-records")
        if reporter.config
        else None
    )
    records = sink.records if sink is not None else []
    if code in (
        pytest.ExitCode.INTERRUPTED,
        pytest.ExitCode.INTERNAL_ERROR,
        pytest.ExitCode.USAGE_ERROR,
    ):
        print(
            f"zarr-conformance run: pytest stopped ({code.name.lower().replace('_', ' ')})",
            file=sys.stderr,
        )
        return int(code)
    if not records:
        print(
            "zarr-conformance run: no tests ran (check --impl, --kinds, --cases and the corpus)",
            file=sys.stderr,
        )
        return 1
    from .pytest_plugin import SESSION, stale_known_failures

    stale = stale_known_failures(reporter.config.stash[SESSION]) if reporter.config else []
    for line in SKIPPED:  # unavailable adapters: no records, one line each
        print(line)
    for line in [f"warning: {note}" for note in getattr(sink, "notes", ())] + list(
        sink.tested_lines()
    ):
        print(
            line
        )  # --impl-env current, NAME@VERSION: what ran (pytest's terminal summary is off here)
    print(reporter.summary(records, stale, results))
    return 1 if unexpected(records) else 0


def adapters_command(args) -> int:
    """A table of the adapters: transport, environment (venv state or interpreter), whether
    `--impl all` takes it, capabilities and known failures counted, availability; under an
    unavailable adapter what is missing and the command that installs it. `--install` first
    installs missing Debian packages where it can."""
    from . import envs
    from .config import AdapterConfigError, load_adapter_config, search_path

    if args.names[:1] == ["new"]:
        return new_adapter_command(args)
    if args.lang or args.dir:
        print(
            "zarr-conformance adapters: --lang and --dir go with `adapters new NAME`",
            file=sys.stderr,
        )
        return 2
    rows, problems, seen = [], [], set()
    for root in search_path():
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if (p / "adapter.toml").is_file()):
            if folder.name in seen:  # the first folder of a name wins, as for --impl
                continue
            seen.add(folder.name)
            try:
                config = load_adapter_config(folder)
            except AdapterConfigError as exc:
                problems.append(str(exc))
                continue
            rows.append(config)
    if args.names:
        unknown = sorted(set(args.names) - {c.name for c in rows})
        if unknown:
            print(f"zarr-conformance adapters: no adapter {', '.join(unknown)}", file=sys.stderr)
            return 2
        rows = [c for c in rows if c.name in args.names]
    code = 0
    if args.install:
        code = install_system_packages(rows)
    if args.outdated:
        return outdated_command(rows)
    width = max([len("adapter"), *(len(c.name) for c in rows)])
    print(
        f"{'adapter':<{width}}  {'transport':<9}  {'environment':<20}  {'all':<3}  {'caps':>4}  {'known':>5}  "
        f"{'availability':<12}  description"
    )
    for c in rows:
        found = envs.availability(c)
        print(
            f"{c.name:<{width}}  {c.transport:<9}  {envs.status(c):<20}  {'yes' if c.default else 'no':<3}  "
            f"{len(c.capabilities):>4}  {len(c.known_failures):>5}  "
            f"{'available' if found.available else 'unavailable':<12}  {c.description}"
        )
        if not found.available:
            print(" " * (width + 2) + f"unavailable: {found.why}")
            if found.install:
                print(
                    " " * (width + 2)
                    + f"install: {found.install}   (or: zarr-conformance adapters --install)"
                )
        if args.capabilities:
            print(" " * (width + 2) + ", ".join(sorted(c.capabilities)))
    for p in problems:
        print(f"invalid adapter: {p}", file=sys.stderr)
    return 1 if problems else code


def new_adapter_command(args) -> int:
    """`adapters new NAME --lang python|js [--dir DIR]`: write a skeleton adapter folder and say
    how to run it."""
    from .skeleton import SkeletonError, default_parent, write_skeleton

    if len(args.names) != 2 or not args.lang:
        print(
            "usage: zarr-conformance adapters new NAME --lang python|js [--dir DIR]",
            file=sys.stderr,
        )
        return 2
    name = args.names[1]
    parent = Path(args.dir) if args.dir else default_parent()
    try:
        folder = write_skeleton(name, args.lang, parent)
    except (SkeletonError, OSError) as exc:
        print(f"zarr-conformance adapters new: {exc}", file=sys.stderr)
        return 2
    impl = name if folder.parent.resolve() == default_parent().resolve() else str(folder)
    print(
        f"wrote {folder}: adapter.toml, known-failures.toml, "
        + ("adapter.py" if args.lang == "python" else "harness.mjs")
    )
    print("a first run (every record `unsupported` until the operations are written):")
    print(f"  zarr-conformance run --impl {impl} --kinds read --cases 'v3/*'")
    print("then fill in the TODOs, declare capabilities as cases pass, and draft known failures:")
    print(f"  zarr-conformance known-failures draft RESULTS --impl {name}")
    return 0


def outdated_command(configs) -> int:
    """`adapters --outdated`: one line per adapter whose implementation pin is older than the
    newest release its package index offers (pip: under the adapter's own Python, and under the
    newest Python of this machine, for a release that needs it; npm: the latest tag), within the
    adapter's `releases` range; exit 1 when there is one. Adapters that pin no package are not
    listed."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import InvalidVersion, Version

    from . import envs, interpreters
    from .variants import main_package

    def newest_of(versions: list[str], within: str) -> str | None:
        allowed = SpecifierSet(within)
        inside = [v for v in versions if allowed.contains(v, prereleases=False)]
        return max(inside, key=Version) if inside else None

    def older(pinned: str, newest: str) -> bool:
        try:
            return Version(pinned) < Version(newest)
        except InvalidVersion:
            return pinned != newest

    found, unknown = [], []
    newest_python = interpreters.machine_interpreters()[-1]
    for config in configs:
        package = main_package(config)
        if package is None or package[1] is None:
            continue
        name, pinned, kind = package
        within = config.releases or ""
        if kind == "npm":
            latest = interpreters.newest_npm(name)
            candidates = (
                [(latest, "npm")] if latest and SpecifierSet(within).contains(latest) else []
            )
        else:
            try:
                python = envs.base_python(config)
            except envs.Unavailable as exc:
                unknown.append(f"{config.name}: {exc}")
                continue
            own = newest_of(interpreters.releases(name, python), within)
            candidates = [(own, f"pip, Python {envs.python_minor(config)}")]
            if newest_python.minor != envs.python_minor(config):
                later = newest_of(interpreters.releases(name, newest_python.path), within)
                if later and own and older(own, later):
                    candidates.append(
                        (later, f"pip, needs a newer Python: found for {newest_python.minor}")
                    )
        newest = [(v, where) for v, where in candidates if v]
        if not newest:
            unknown.append(f"{config.name}: the package index has no release of {name}")
            continue
        for version, where in newest:
            if older(pinned, version):
                found.append(
                    f"{config.name}: pins {name} {pinned}, the newest release is {version} ({where})"
                )
    for line in found:
        print(line)
    for line in unknown:
        print(f"zarr-conformance adapters: cannot tell: {line}", file=sys.stderr)
    if not found:
        print("every adapter pins the newest release of its implementation")
    return 1 if found else 0


def install_system_packages(configs) -> int:
    """Install the missing Debian packages the adapters declare (one apt-get update, one install).
    Returns 0 when nothing is missing afterwards, else 1 (messages on stderr)."""
    from . import envs

    wanted = list(dict.fromkeys(p for c in configs for p in c.debian))
    missing = envs.missing_debian(wanted)
    if not wanted or missing == []:
        return 0
    if missing is None:
        print(
            f"zarr-conformance adapters: cannot install {', '.join(wanted)}: this system has no dpkg",
            file=sys.stderr,
        )
        return 1
    if not envs.can_install_debian():
        print(
            f"zarr-conformance adapters: not installing {', '.join(missing)} (needs root and apt-get); "
            f"run: {envs.install_command(missing)}",
            file=sys.stderr,
        )
        return 1
    try:
        envs.install_debian(missing)
    except envs.ProvisioningError as exc:
        print(f"zarr-conformance adapters: {exc}", file=sys.stderr)
        return 1
    return 0
