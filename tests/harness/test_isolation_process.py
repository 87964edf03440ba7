"""The harness holds an adapter's whole process tree: memory summed over every process (shared
memory and forked children included), every descendant killed (setsid() does not escape), stderr
bounded on disk, response lines bounded in length and nesting.

The adapter here is a small NDJSON script (written to tmp_path) driven through the real
SubprocessTransport: each op is one trick."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conformance.harness import isolation
from conformance.harness.transport import AdapterErrored, SubprocessTransport

MiB = 1 << 20

ADAPTER = textwrap.dedent(
    """
    import json, mmap, os, sys, time

    HOLD = []

    def answer(request, **members):
        sys.stdout.write(json.dumps({"id": request["id"], "ok": True, **members}) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        if op == "shared":  # MAP_SHARED memory, which RLIMIT_DATA does not count
            block = mmap.mmap(-1, request["bytes"], flags=mmap.MAP_SHARED)
            for i in range(0, len(block), 4096):
                block[i] = 1
            HOLD.append(block)
            time.sleep(request.get("then_sleep", 0))
        elif op == "fork":  # children each under the per-process cap, together over it
            pids = []
            for _ in range(request["children"]):
                pid = os.fork()
                if pid == 0:
                    HOLD.append(b"\\1" * request["bytes"])
                    time.sleep(600)
                    os._exit(0)
                pids.append(pid)
            with open(request["pidfile"], "w") as f:
                f.write(" ".join(map(str, pids)))
            time.sleep(request.get("then_sleep", 0))
        elif op == "setsid":  # a grandchild in a session of its own, orphaned at once
            pid = os.fork()
            if pid == 0:
                os.setsid()
                if os.fork() == 0:
                    with open(request["pidfile"] + ".tmp", "w") as f:
                        f.write(str(os.getpid()))
                    os.rename(request["pidfile"] + ".tmp", request["pidfile"])
                    time.sleep(600)
                os._exit(0)
            os.waitpid(pid, 0)
            while not os.path.exists(request["pidfile"]):
                time.sleep(0.01)
            time.sleep(request.get("then_sleep", 0))
        elif op == "stderr":  # a flood on stderr, then a last line
            block = b"x" * (1 << 20)
            for _ in range(request["bytes"] >> 20):
                os.write(2, block)
            os.write(2, b"\\nTHE LAST LINE\\n")
        elif op == "crash":
            os._exit(3)
        elif op == "nested":
            sys.stdout.write("[" * request["depth"] + "]" * request["depth"] + "\\n")
            sys.stdout.flush()
            continue
        elif op == "long":
            sys.stdout.write("x" * request["bytes"])
            sys.stdout.flush()
            time.sleep(600)
        answer(request)
        if op == "shutdown":
            break
    """
)


@pytest.fixture
def adapter_script(tmp_path) -> Path:
    path = tmp_path / "adapter.py"
    path.write_text(ADAPTER)
    return path


@pytest.fixture
def transport(adapter_script, tmp_path):
    made = []

    def make(memory_limit: int | None = 256 * MiB) -> SubprocessTransport:
        t = SubprocessTransport(
            [sys.executable, str(adapter_script)],
            memory_limit=memory_limit,
            log_path=tmp_path / "adapter.log",
        )
        made.append(t)
        return t

    yield make
    for t in made:
        t.kill()


def gone(pid: int) -> bool:
    """No such process any more, not even a zombie waiting to be reaped."""
    return not Path(f"/proc/{pid}").exists()


def wait_gone(pids, seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if not gone(p)]
        if not left:
            return []
        time.sleep(0.02)
    return left


def ask(t: SubprocessTransport, op: str, timeout: float = 60, **members) -> dict:
    ask.ids = getattr(ask, "ids", 0) + 1
    return t.request({"id": ask.ids, "op": op, **members}, timeout)


# ---- memory -----------------------------------------------------------------------------------
def test_shared_memory_is_counted_and_the_tree_killed(transport):
    t = transport(memory_limit=256 * MiB)
    started = time.monotonic()
    with pytest.raises(AdapterErrored, match=r"memory cap 256 MiB exceeded"):
        ask(t, "shared", bytes=600 * MiB, then_sleep=20)
    print(f"MAP_SHARED hog killed after {time.monotonic() - started:.2f} s")
    assert time.monotonic() - started < 10  # killed by the watchdog, not after the sleep
    assert ask(t, "describe")["ok"]  # a fresh process answers
    assert t.starts == 2


def test_forked_children_are_counted_together_and_all_killed(transport, tmp_path):
    t = transport(memory_limit=256 * MiB)
    pidfile = tmp_path / "children"
    started = time.monotonic()
    # Three children of 150 MiB: each is within its own RLIMIT_DATA, the tree is not.
    with pytest.raises(AdapterErrored, match=r"memory cap 256 MiB exceeded.*PSS"):
        ask(t, "fork", children=3, bytes=150 * MiB, pidfile=str(pidfile), then_sleep=20)
    print(f"forked hog killed after {time.monotonic() - started:.2f} s")
    assert time.monotonic() - started < 10
    children = [int(p) for p in pidfile.read_text().split()]
    assert wait_gone(children) == []


def test_within_the_cap_nothing_is_killed(transport):
    t = transport(memory_limit=256 * MiB)
    assert ask(t, "shared", bytes=64 * MiB, then_sleep=0.5)["ok"]
    assert t.starts == 1


# ---- killing the whole tree ---------------------------------------------------------------------
@pytest.mark.parametrize("end", ["close", "timeout"])
def test_a_setsid_grandchild_is_killed_with_its_adapter(transport, tmp_path, end):
    t = transport()
    pidfile = tmp_path / f"grandchild-{end}"
    try:
        if end == "close":
            assert ask(t, "setsid", pidfile=str(pidfile))["ok"]
            t.close()
        else:
            with pytest.raises(AdapterErrored, match="hang"):
                ask(t, "setsid", pidfile=str(pidfile), then_sleep=600, timeout=2)
        grandchild = int(pidfile.read_text())
        assert wait_gone([grandchild]) == [], "the setsid() grandchild survived"
    finally:
        if pidfile.exists():  # never leave a sleeper behind, even when the test fails
            try:
                os.kill(int(pidfile.read_text()), 9)
            except ProcessLookupError:
                pass


# ---- stderr ------------------------------------------------------------------------------------
STDERR_DRIVER = textwrap.dedent(
    """
    import json, resource, sys, time
    from pathlib import Path
    from conformance.harness.transport import AdapterErrored, SubprocessTransport

    script, log, size = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    t = SubprocessTransport([sys.executable, script], memory_limit=None, log_path=log)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # imports and all
    started = time.monotonic()
    t.request({"id": 1, "op": "stderr", "bytes": size}, 600)
    try:
        t.request({"id": 2, "op": "crash"}, 60)
    except AdapterErrored as exc:
        message = str(exc)
    seconds = time.monotonic() - started
    on_disk = sum(p.stat().st_size for p in log.parent.glob(log.name + "*"))
    t.kill()
    print(json.dumps({
        "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "base_rss": base,
        "on_disk": on_disk, "message": message, "seconds": seconds,
    }))
    """
)


def test_two_gigabytes_of_stderr_cost_neither_memory_nor_disk(adapter_script, tmp_path):
    driver = tmp_path / "driver.py"
    driver.write_text(STDERR_DRIVER)
    log = tmp_path / "logs" / "adapter.log"
    log.parent.mkdir()
    proc = subprocess.run(
        [sys.executable, str(driver), str(adapter_script), str(log), str(2 << 30)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout)
    print(
        f"2 GiB of stderr: {found['seconds']:.1f} s, parent peak RSS {found['peak_rss'] >> 20} MiB"
        f" ({found['base_rss'] >> 20} MiB before the request)"
    )
    # the growth, not the total: what the parent imports is not the point (a whole-file read of
    # the log grew it by 2 GiB)
    assert found["peak_rss"] - found["base_rss"] < 64 * MiB
    assert found["on_disk"] <= isolation.LOG_MAX_BYTES
    assert "crashed" in found["message"] and "exit code 3" in found["message"]
    assert found["message"].rstrip().endswith("THE LAST LINE")  # the tail is the end of it
    assert len(found["message"]) < 4000


def test_stderr_is_logged_on_disk_not_in_memory(tmp_path):
    from conformance.harness.client import AdapterPool

    pool = AdapterPool(scratch=tmp_path / "scratch")
    try:
        assert isolation.filesystem_type(pool.log_dir) not in ("tmpfs", "ramfs")
    finally:
        pool.close()
    assert not pool.log_dir.exists()


# ---- the response line ------------------------------------------------------------------------
def test_a_deeply_nested_line_is_errored_not_a_recursion_error(transport):
    t = transport()
    with pytest.raises(AdapterErrored, match="malformed response \\(nested more than 500"):
        ask(t, "nested", depth=100_000)
    assert ask(t, "describe")["ok"]  # a fresh process


def test_nesting_is_measured_without_recursion():
    from conformance.harness.transport import nesting_depth, parse_response_line

    assert parse_response_line(b"[" * 400 + b"]" * 400) is not None  # legal depth still parses
    assert nesting_depth(b'["' + b"[" * 10_000 + b'"]') == 1  # brackets inside a string
    assert nesting_depth(b"{" * 600 + b"}" * 600) == 501  # stops counting past the limit
    with pytest.raises(ValueError, match="nested more than 500"):
        parse_response_line(b'{"a":' * 1000 + b"1" + b"}" * 1000)


def test_an_endless_line_is_cut_off(transport):
    t = transport()
    with pytest.raises(AdapterErrored, match="a line of more than 64 MiB"):
        ask(t, "long", bytes=80 * MiB, timeout=60)
    assert ask(t, "describe")["ok"]
