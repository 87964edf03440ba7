"""`validate` and `check` over the hostile area, each in a fresh process tree, measured: the peak
memory of the whole tree (tree_probe.py: adapters included), the wall time, the exit code, and
whether anything was written in or beside the store, in $TMPDIR or in the working directory.

    for run in hostile_runs(["validate", "check"], check_args=["--impl", "zarr-python"]):
        run.command, run.case, run.peak_mib, run.seconds, run.problems

Each case runs on its own materialised copy (FIFOs and links made, HTTP routes served on
loopback), as tests/hostile/test_hostile_area.py runs validate. `python -m
conformance.testing.hostile_runs` prints the table (its --help says how to choose).
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from conformance.corpus import hostile
from conformance.testing.faults import serve_hostile
from conformance.testing.tree_probe import TreeRun, measure_tree

CAP_MIB = 1024  # issue 20: every hostile store held within 1 GiB
CAP_SECONDS = 60.0


@dataclass
class HostileRun:
    command: str
    case: str
    run: TreeRun
    problems: list[str] = field(default_factory=list)

    @property
    def peak_mib(self) -> float:
        return self.run.peak_mib

    @property
    def seconds(self) -> float:
        return self.run.seconds


def tree_digest(root: str | os.PathLike[str]) -> str:
    """A digest of everything below `root`: names, types, modes, mtimes, link targets and the
    bytes of regular files (opened only when lstat says regular: never a FIFO or a device)."""
    h = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(folder, name)
            info = os.lstat(path)
            h.update(
                f"{os.path.relpath(path, root)}\0{info.st_mode}\0{info.st_mtime_ns}\0".encode()
            )
            if stat.S_ISLNK(info.st_mode):
                h.update(os.readlink(path).encode())
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as f:
                    for block in iter(lambda f=f: f.read(1 << 20), b""):
                        h.update(block)
    return h.hexdigest()


def cli_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "conformance.cli", *args]


def run_case(
    case: hostile.HostileCase, base: Path, command: str, extra: list[str], timeout: float
) -> HostileRun:
    folder = hostile.materialize(case, base / "work")
    tmp, cwd = base / "tmpdir", base / "cwd"
    tmp.mkdir()
    cwd.mkdir()
    before = tree_digest(folder)
    with ExitStack() as stack:
        if case.store_kind == "http":
            location = stack.enter_context(serve_hostile(case, folder))
        else:
            location = str(folder / case.store)
        released = stack.enter_context(hostile.fifo_release(folder, case, timeout))
        args = [command, location, *extra]
        if command == "validate":
            args += case.expect["validate"].get("args", [])
            if case.node:
                args += ["--path", case.node]
        run = measure_tree(cli_argv(*args), timeout=timeout, env={"TMPDIR": str(tmp)}, cwd=cwd)
    result = HostileRun(command, case.name, run)
    if run.code is None:
        result.problems.append(f"still running after {timeout:g} s (killed)")
    if run.peak_mib > CAP_MIB:
        result.problems.append(f"peak memory {run.peak_mib:.0f} MiB, over {CAP_MIB} MiB")
    if run.seconds > CAP_SECONDS:
        result.problems.append(f"took {run.seconds:.1f} s, over {CAP_SECONDS:g} s")
    if "Traceback" in run.out + run.err:
        result.problems.append("printed a traceback")
    if released:
        result.problems.append(f"blocked on the FIFO {released}")
    if tree_digest(folder) != before:
        result.problems.append("files changed in or beside the store")
    if os.listdir(tmp) or os.listdir(cwd):
        result.problems.append("files left in $TMPDIR or the working directory")
    return result


def hostile_runs(
    commands: list[str],
    check_args: list[str] | None = None,
    cases: str = "*",
    timeout: float = 120.0,
) -> Iterator[HostileRun]:
    for case in hostile.load_cases():
        if not fnmatch.fnmatch(case.name, cases):
            continue
        for command in commands:
            extra = ["--json", *(check_args or [])] if command == "check" else ["--json"]
            with tempfile.TemporaryDirectory(prefix="zarr-conformance-hostile-") as tmp:
                yield run_case(case, Path(tmp), command, extra, timeout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.testing.hostile_runs",
        description="validate and check over the hostile area: peak memory of the whole process "
        f"tree and seconds per store; exit 1 when any store is not held within {CAP_MIB} MiB "
        f"and {CAP_SECONDS:g} s, printed a traceback, or changed files",
    )
    parser.add_argument("--cases", default="*", help="a glob of case names (default: all)")
    parser.add_argument("--commands", default="validate,check", help="validate,check (default)")
    parser.add_argument("check_args", nargs="*", help="after --: arguments for check (--impl ...)")
    args = parser.parse_args(argv)
    failed = 0
    print(f"{'store':34} {'command':8} {'peak MiB':>8} {'seconds':>7} {'exit':>4}  problems")
    for run in hostile_runs(args.commands.split(","), args.check_args, args.cases):
        failed += bool(run.problems)
        print(
            f"{run.case:34} {run.command:8} {run.peak_mib:8.0f} {run.seconds:7.1f} "
            f"{run.run.code!s:>4}  {'; '.join(run.problems)}",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
