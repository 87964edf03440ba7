"""Holding an adapter's whole process tree, not just the process the harness started.

An adapter may fork helpers, and a helper may call setsid() to leave the process group, so a
signal to the group or to the first process is not enough. Three mechanisms cover the tree:

- the harness is a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a helper whose parent dies is
  re-parented to the harness instead of to init, so it stays findable and the harness reaps it;
- every adapter process carries a token in its environment (TOKEN_VARIABLE), which tells whose
  re-parented orphan a process is;
- a watchdog thread per adapter walks the tree every WATCH_INTERVAL seconds, remembers every
  member it has seen, sums their proportional set size (PSS, from /proc/<pid>/smaps_rollup: shared
  memory counted once, split between the processes mapping it) and kills the whole tree when the
  sum passes the memory cap. RLIMIT_DATA (set per process, see transport.py) does not see
  MAP_SHARED memory, and forked children each get a cap of their own; the watchdog sees both.

A cgroup would do this in the kernel, but only a cgroup v2 hierarchy with the memory controller
delegated to the harness would be ours to use; the hosts this runs on (containers, CI) rarely give
one, so the watchdog is what every run relies on (README, "Isolation").

An adapter's stderr goes through a pipe to a StderrLog: a thread writes it to a file on disk that
never grows past its bound, and only the tail of it is ever read back.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import struct
import tempfile
import termios
import threading
import time
import uuid
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
TOKEN_VARIABLE = "ZARR_CONFORMANCE_ADAPTER_TOKEN"
WATCH_INTERVAL = 0.1  # seconds between two measurements of a tree
KILL_ROUNDS = 50  # a tree that keeps forking while it is killed gets this many sweeps
LOG_MAX_BYTES = 8 << 20  # stderr kept on disk per adapter: two files of half this size
TAIL_BYTES = 4096  # stderr read back into a message
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_subreaper: bool | None = None


def become_subreaper() -> bool:
    """Make this process the reaper of its descendants' orphans (Linux); True if it is."""
    global _subreaper
    if _subreaper is None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def new_token() -> str:
    return f"{os.getpid()}-{uuid.uuid4().hex}"


# ---- the process table --------------------------------------------------------------------------
def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state letter, start time in ticks) of a process, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(b")") + 2 :].split()  # the name may hold spaces and parentheses
    return int(fields[1]), fields[0].decode(), int(fields[19])


def children_of(pid: int) -> list[int]:
    """The children of a process, from every one of its threads' /proc children lists."""
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return out


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _has_token(pid: int, token: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return token in f.read().split(b"\0")
    except OSError:
        return False


def process_memory(pid: int, proportional: bool = True) -> int:
    """Bytes of memory a process accounts for: its PSS (proportional), else its resident set,
    which is never less and is far cheaper to read (smaps_rollup walks every mapping)."""
    if proportional:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError):
            pass
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


class ProcessTree:
    """The processes of one adapter: the one the harness started and every process below it, now
    or at any time it was looked at (a helper re-parented to the harness after setsid() is still
    this adapter's: it is remembered, or it carries the adapter's token)."""

    def __init__(self, root: int, token: str):
        self.root = root
        self.token = f"{TOKEN_VARIABLE}={token}".encode()
        self._seen: dict[int, int] = {}  # pid -> start time (a pid may be reused)
        self._not_ours: set[tuple[int, int]] = set()  # (pid, start) of strays without the token
        self._lock = threading.Lock()

    def members(self, search_all: bool = False) -> dict[int, tuple[int, str, int]]:
        """The live and zombie members: {pid: (ppid, state, start)}. Orphans re-parented to the
        harness count by their token; with search_all, processes anywhere carrying the token
        too (orphans that went to init, when this process is no subreaper)."""
        me = os.getpid()
        with self._lock:
            starts = set(self._seen) | {self.root}
            strays = all_pids() if search_all else children_of(me)
            starts |= {p for p in strays if p not in starts and p != me and self._is_ours(p)}
            found: dict[int, tuple[int, str, int]] = {}
            stack = list(starts)
            while stack:
                pid = stack.pop()
                if pid in found:
                    continue
                stat = _stat(pid)
                if stat is None or (pid in self._seen and self._seen[pid] != stat[2]):
                    continue  # gone, or its pid now belongs to another process
                found[pid] = stat
                stack.extend(children_of(pid))
            self._seen = {p: s[2] for p, s in found.items()}
        return found

    def _is_ours(self, pid: int) -> bool:
        stat = _stat(pid)
        if stat is None or (pid, stat[2]) in self._not_ours:
            return False
        if _has_token(pid, self.token):
            return True
        self._not_ours.add((pid, stat[2]))
        return False

    def memory(self, proportional: bool = True) -> tuple[int, int]:
        """(bytes, processes) used by the live members: PSS, or resident set (an upper bound)."""
        live = [p for p, (_, state, _) in self.members().items() if state not in "ZX"]
        return sum(process_memory(p, proportional) for p in live), len(live)

    def kill(self) -> None:
        """SIGKILL every member, sweeping again until none is left alive, then reap the orphans
        the harness adopted (the root is reaped by its Popen)."""
        for _ in range(KILL_ROUNDS):
            alive = [p for p, (_, st, _) in self.members(search_all=True).items() if st not in "ZX"]
            if not alive:
                break
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.005)
        self.reap(wait=1.0)

    def reap(self, wait: float = 0.0) -> None:
        """Collect adopted members that have ended (zombies whose parent is the harness)."""
        me, deadline = os.getpid(), time.monotonic() + wait
        for pid, (ppid, _, _) in self.members().items():
            if pid == self.root or ppid != me:
                continue
            while True:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if done or time.monotonic() > deadline:
                    break
                time.sleep(0.005)


class Watchdog(threading.Thread):
    """Measures a tree every WATCH_INTERVAL seconds; kills it once it uses more than `limit`
    bytes (then `exceeded` says how much it used). Also reaps its adopted orphans."""

    def __init__(self, tree: ProcessTree, limit: int | None, interval: float = WATCH_INTERVAL):
        super().__init__(name=f"zarr-conformance-watchdog-{tree.root}", daemon=True)
        self.tree, self.limit, self.interval = tree, limit, interval
        self.exceeded: tuple[int, int] | None = None  # (bytes, processes) when it was killed
        self._halt = threading.Event()  # (Thread has a _stop of its own)

    def run(self) -> None:
        while not self._halt.wait(self.interval):
            try:
                used, count = self.tree.memory(proportional=False)
                if self.limit and used > self.limit:
                    used, count = self.tree.memory()  # shared pages once, not once per process
                    if used > self.limit:
                        self.exceeded = (used, count)
                        self.tree.kill()
                        return
                self.tree.reap()
            except Exception:  # a process vanished mid-read: measure again next time
                continue

    def stop(self) -> None:
        self._halt.set()


def size_text(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit}".replace(".0 ", " ")
    return f"{n} bytes"


# ---- stderr -------------------------------------------------------------------------------------
class StderrLog:
    """An adapter's stderr on disk, bounded: a thread drains the pipe into `path`; when that file
    reaches half of `max_bytes` it becomes `path.1` (replacing the older one), so at most
    `max_bytes` stay on disk however much the adapter prints. Nothing is held in memory."""

    def __init__(self, path: Path, max_bytes: int = LOG_MAX_BYTES):
        self.path = Path(path)
        self.old = self.path.with_name(self.path.name + ".1")
        self.max_bytes = max_bytes
        self.since_start = 0  # bytes the current process has written
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._fd: int | None = None
        self._read = self._written = 0

    def pipe(self) -> int:
        """Start draining a new pipe; returns its write end for the child (close it after)."""
        read_fd, write_fd = os.pipe()
        self.since_start = 0
        self._fd = read_fd
        self._thread = threading.Thread(
            target=self._drain, args=(read_fd,), name="zarr-conformance-stderr", daemon=True
        )
        self._thread.start()
        return write_fd

    def _drain(self, fd: int) -> None:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
        out = os.open(self.path, flags, 0o644)
        try:
            while chunk := os.read(fd, 1 << 16):
                self._read += len(chunk)
                with self._lock:
                    size = os.fstat(out).st_size
                    if size and size + len(chunk) > self.max_bytes // 2:
                        os.close(out)
                        os.replace(self.path, self.old)
                        out = os.open(self.path, flags, 0o644)
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(out, view) :]
                    self.since_start += len(chunk)
                self._written += len(chunk)
        except OSError:
            pass
        finally:
            os.close(out)
            os.close(fd)

    def settle(self, timeout: float = 1.0) -> None:
        """Wait (briefly) until what is in the pipe has reached the file."""
        deadline = time.monotonic() + timeout
        while self._thread is not None and self._thread.is_alive():
            if self._pending() == 0 and self._read == self._written:
                break
            if time.monotonic() > deadline:
                break
            time.sleep(0.005)

    def _pending(self) -> int:
        try:
            raw = fcntl.ioctl(self._fd, termios.FIONREAD, b"\0\0\0\0")
            return struct.unpack("i", raw)[0]
        except (OSError, TypeError):
            return 0

    def tail(self, limit: int = TAIL_BYTES) -> bytes:
        """The last `limit` bytes the current process wrote (never more is read)."""
        self.settle()
        with self._lock:
            want = min(limit, self.since_start)
            parts = []
            for path in (self.path, self.old):
                if want <= 0:
                    break
                try:
                    with open(path, "rb") as f:
                        size = f.seek(0, os.SEEK_END)
                        take = min(want, size)
                        f.seek(size - take)
                        parts.insert(0, f.read(take))
                        want -= take
                except OSError:
                    break
            return b"".join(parts)


# ---- where logs go ------------------------------------------------------------------------------
_MEMORY_FILESYSTEMS = {"tmpfs", "ramfs", "devtmpfs"}


def filesystem_type(path: str | os.PathLike) -> str | None:
    """The type of the filesystem holding `path` (/proc/self/mountinfo), None if unknown."""
    target = os.path.realpath(path)
    best, kind = "", None
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                fields = line.split()
                mount = fields[4].replace("\\040", " ")
                fstype = fields[fields.index("-") + 1]
                inside = target == mount or target.startswith(mount.rstrip("/") + "/")
                if inside and len(mount) >= len(best):
                    best, kind = mount, fstype
    except (OSError, ValueError, IndexError):
        return None
    return kind


def disk_temp_dir(fallback: Path | None = None) -> str | None:
    """A temporary folder on disk rather than in memory: $TMPDIR (or the system's) unless it is a
    tmpfs, else `fallback` (created)."""
    default = tempfile.gettempdir()
    if filesystem_type(default) not in _MEMORY_FILESYSTEMS or fallback is None:
        return default
    fallback.mkdir(parents=True, exist_ok=True)
    return str(fallback)
