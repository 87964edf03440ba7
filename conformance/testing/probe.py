"""Running `zarr-conformance validate` (or any code) in a fresh Python process and measuring what
it cost: exit code, output, seconds, and the growth of its peak resident memory over a warm-up.

    run = measure_validate([store_dir], warmup=[small_valid_store])
    assert run.code == 1 and run.peak_growth_mib < 64 and run.seconds < 10

The child's address space is capped (`address_space`, 3 GiB by default), so a read that is not
bounded fails there with MemoryError (the test goes red) instead of exhausting the machine, and
a wall-clock `timeout` ends a child that hangs (run.timed_out).

Peak memory is the high-water mark of the child's resident set (Linux: VmHWM, reset after the
warm-up through /proc/self/clear_refs, so the peak is the measured run's own; elsewhere
ru_maxrss, which on Linux would also carry the parent's peak across exec). The warm-up run (a
small valid store of the same kind) loads every module the measured run needs first, so the
growth counts the measured run's own allocations, not imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass

from ..resources import REPO_ROOT

DEFAULT_ADDRESS_SPACE = 3 << 30

_CHILD = textwrap.dedent("""
    import contextlib, io, json, os, resource, sys, time
    limit = int(os.environ.pop("_PROBE_ADDRESS_SPACE", "0"))
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    spec = json.loads(sys.argv[1])

    def validate(args):
        from conformance.cli import main
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["validate", *args])
            except SystemExit as exc:
                code = exc.code
            except MemoryError:
                code = "MemoryError"
        return code, out.getvalue(), err.getvalue()

    def run_code(source):
        scope = {}
        try:
            exec(source, scope)
            return scope.get("result"), "", ""
        except MemoryError:
            return "MemoryError", "", ""
        except BaseException as exc:
            return "error", "", f"{type(exc).__name__}: {exc}"

    def status(field):
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])  # kB
        except OSError:
            pass
        return None

    step = validate if spec["kind"] == "validate" else run_code
    if spec.get("warmup") is not None:
        step(spec["warmup"])
    import gc
    gc.collect()
    if status("VmHWM") is not None:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # reset the peak to the current resident set
        except OSError:
            pass
        base = status("VmRSS") if status("VmHWM") == status("VmRSS") else status("VmHWM")
        peak_of = lambda: status("VmHWM")
    else:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        peak_of = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    code, out, err = step(spec["target"])
    seconds = time.monotonic() - started
    peak = peak_of()
    report = {"code": code, "out": out, "err": err, "seconds": seconds, "base_kib": base, "peak_kib": peak}
    sys.stdout.write("\\n@@PROBE@@" + json.dumps(report, ensure_ascii=True) + "\\n")
""")


@dataclass
class Measured:
    code: object  # the exit code, 'MemoryError', or None when the child was killed
    out: str
    err: str
    seconds: float  # of the measured run, inside the child
    wall_seconds: float  # of the whole child process
    base_kib: int = 0
    peak_kib: int = 0
    timed_out: bool = False

    @property
    def peak_growth_mib(self) -> float:
        """How far the peak resident memory rose during the measured run, in MiB."""
        return (self.peak_kib - self.base_kib) / 1024

    def __repr__(self) -> str:
        return (
            f"exit {self.code} in {self.seconds:.2f} s (wall {self.wall_seconds:.2f} s), peak memory "
            f"+{self.peak_growth_mib:.1f} MiB ({self.base_kib // 1024} -> {self.peak_kib // 1024} MiB)"
            f"{' TIMED OUT' if self.timed_out else ''}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"
        )


def _run(
    spec: dict, env: dict | None, timeout: float, address_space: int | None, cwd=None
) -> Measured:
    child_env = dict(os.environ)
    child_env.update(env or {})
    child_env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), child_env.get("PYTHONPATH", "")]
    ).rstrip(os.pathsep)
    if address_space:
        child_env["_PROBE_ADDRESS_SPACE"] = str(address_space)
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(spec)],
            capture_output=True,
            timeout=timeout,
            env=child_env,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode("utf-8", "replace")
        return Measured(
            None,
            out,
            (exc.stderr or b"").decode("utf-8", "replace"),
            timeout,
            time.monotonic() - started,
            timed_out=True,
        )
    wall = time.monotonic() - started
    stdout = proc.stdout.decode("utf-8", "replace")
    marker = stdout.rfind("@@PROBE@@")
    if marker < 0:  # the child died (killed, or crashed before reporting)
        return Measured(proc.returncode, stdout, proc.stderr.decode("utf-8", "replace"), wall, wall)
    report = json.loads(stdout[marker + len("@@PROBE@@") :])
    return Measured(
        report["code"],
        report["out"],
        report["err"] + proc.stderr.decode("utf-8", "replace"),
        report["seconds"],
        wall,
        report["base_kib"],
        report["peak_kib"],
    )


def measure_validate(
    args: list,
    *,
    warmup: list | None = None,
    env: dict | None = None,
    timeout: float = 60.0,
    address_space: int | None = DEFAULT_ADDRESS_SPACE,
    cwd=None,
) -> Measured:
    """`zarr-conformance validate ARGS` in a fresh process, after `validate WARMUP` when given."""
    spec = {
        "kind": "validate",
        "target": [str(a) for a in args],
        "warmup": None if warmup is None else [str(a) for a in warmup],
    }
    return _run(spec, env, timeout, address_space, cwd)


def measure_code(
    source: str,
    *,
    warmup: str | None = None,
    env: dict | None = None,
    timeout: float = 60.0,
    address_space: int | None = DEFAULT_ADDRESS_SPACE,
    cwd=None,
) -> Measured:
    """Run Python `source` in a fresh process (after `warmup`); its `result` variable (JSON) is
    Measured.code, an exception is code 'error' with the exception in `err`."""
    return _run(
        {"kind": "code", "target": source, "warmup": warmup}, env, timeout, address_space, cwd
    )
