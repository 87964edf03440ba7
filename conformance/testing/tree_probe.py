"""Running a command and measuring what its whole process tree cost: the peak memory of every
process it started (adapters included, setsid() or not) and the wall time.

    run = measure_tree(["zarr-conformance", "check", store], timeout=120)
    run.peak_mib, run.seconds, run.code, run.out

Every `interval` seconds the tree below the command is walked (/proc children lists) and the
high-water mark of each live process's resident set (VmHWM) is read; the peak is the largest sum
over processes alive at the same sample. A high-water mark covers a process's spikes between
samples, so the figure errs high, never low (shared pages count once per process). A process
that lives and dies between two samples is missed: adapters live for seconds.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass, field

from conformance.harness.isolation import children_of

KiB = 1024


@dataclass
class TreeRun:
    code: int | None  # None: killed at the timeout
    out: str
    err: str
    seconds: float
    peak_bytes: int = 0
    processes: int = 0  # the most processes alive at once
    peaks: dict[int, int] = field(default_factory=dict)  # pid -> its own high-water mark

    @property
    def peak_mib(self) -> float:
        return self.peak_bytes / (1 << 20)


def _high_water(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * KiB
    except (OSError, ValueError):
        pass
    return 0


def tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(children_of(current))
    return out


def measure_tree(
    argv: list[str],
    *,
    timeout: float = 120.0,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    interval: float = 0.05,
) -> TreeRun:
    started = time.monotonic()
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )
    result = TreeRun(None, "", "", 0.0)
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            live = {pid: _high_water(pid) for pid in tree(proc.pid)}
            for pid, hwm in live.items():
                result.peaks[pid] = max(result.peaks.get(pid, 0), hwm)
            result.peak_bytes = max(result.peak_bytes, sum(live.values()))
            result.processes = max(result.processes, len(live))
            done.wait(interval)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        out, err = proc.communicate(timeout=timeout)
        result.code = proc.returncode
    except subprocess.TimeoutExpired:
        for pid in reversed(tree(proc.pid)):
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        out, err = proc.communicate()
    done.set()
    watcher.join()
    result.out = out.decode("utf-8", "replace")
    result.err = err.decode("utf-8", "replace")
    result.seconds = time.monotonic() - started
    return result
