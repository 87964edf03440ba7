"""The two transports: an adapter object in this process, or a child process speaking NDJSON.

A transport turns one request dict into one response dict. Whatever goes wrong below the
protocol (the child crashed, hung, ran out of memory, printed garbage) raises AdapterErrored: the
test's outcome is `errored`, the child is killed and restarted on the next request.

Crashing implementations (a segfault on some inputs): the child is reused across requests until
it has crashed PER_REQUEST_AFTER times; from then on every request gets a fresh process, killed
once it has answered, so that every request is tried and a crash costs only its own request (and
cannot be blamed on a request that merely left the heap corrupt). Only a child that has never
answered anything (it cannot even start, e.g. an import error) is given up on, after
MAX_FAILED_STARTS tries.

Every process an adapter starts is held (isolation.py): a watchdog caps the memory of the whole
tree, killing means killing every descendant (setsid() included), stderr is kept on disk with a
bound. A response line is bounded too, in length and in nesting, before it is parsed.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from .isolation import (
    TOKEN_VARIABLE,
    ProcessTree,
    StderrLog,
    Watchdog,
    become_subreaper,
    new_token,
    size_text,
)

DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY_LIMIT = 4 << 30
STDERR_TAIL = 2000
MAX_LINE_BYTES = 64 << 20  # one response line; a longer one is garbage, not something to parse
MAX_NESTING = 500  # arrays and objects inside each other; json.loads overflows its stack near 1000
# A child that dies this many times before it has ever answered anything is not restarted again:
# every later request is `errored` at once (an adapter that cannot even import would otherwise
# cost a process start per case).
MAX_FAILED_STARTS = 3
# After this many crashes (or hangs, or garbage) of an adapter that has answered before, every
# request runs in a process of its own.
PER_REQUEST_AFTER = 3

Message = dict[str, Any]  # a request or a response (adapters/README.md)


class AdapterErrored(Exception):
    """The adapter did not answer within the protocol: crash, hang, out of memory, garbage.
    `impl`: the adapter's name, set by the client that called it."""

    impl: str | None = None


_JSON_TOKENS = re.compile(rb'"(?:[^"\\]++|\\.)*+"|[\[\]{}]')  # a whole string, or a bracket


def nesting_depth(line: bytes, stop_at: int = MAX_NESTING) -> int:
    """How deeply arrays and objects nest in a JSON text (brackets inside strings do not count),
    without recursion; stops counting once past `stop_at`."""
    if line.count(b"[") + line.count(b"{") <= stop_at:
        return 0  # too few brackets to nest that deep: no need to scan
    depth = deepest = 0
    for token in _JSON_TOKENS.finditer(line):
        char = token.group()[:1]
        if char in b"[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > stop_at:
                break
        elif char in b"]}":
            depth -= 1
    return deepest


def parse_response_line(line: bytes) -> Any:
    """json.loads of one response line, refusing (ValueError, with why) what cannot be parsed
    safely: a line nested deeper than MAX_NESTING."""
    if nesting_depth(line) > MAX_NESTING:
        raise ValueError(f"nested more than {MAX_NESTING} levels deep")
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply to parse") from None


class InProcessTransport:
    """Calls the adapter object directly (no isolation). Messages still go through JSON so that an
    adapter behaves the same way under both transports."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._adapter: Any = None

    def request(self, message: Message, timeout: float | None = None) -> Message:
        from .adapter_api import handle
        from .serve import load_adapter

        if self._adapter is None:
            try:
                self._adapter = load_adapter(self.folder)
            except Exception as exc:
                raise AdapterErrored(
                    f"cannot load the adapter in-process: {type(exc).__name__}: {exc}"
                ) from None
        response = handle(self._adapter, json.loads(json.dumps(message)), self.folder)
        try:
            return json.loads(json.dumps(response))
        except (TypeError, ValueError, RecursionError) as exc:
            raise AdapterErrored(f"malformed response (not JSON-serialisable): {exc}") from None

    def close(self) -> None:
        if self._adapter is not None:
            from .adapter_api import handle

            handle(self._adapter, {"id": 0, "op": "shutdown"}, self.folder)
            self._adapter = None

    @property
    def pid(self) -> int | None:
        return None


def _child_setup(limit: int | None) -> Callable[[], None]:
    """preexec_fn: cap the child's data segment, and have the kernel kill it if the harness dies.

    RLIMIT_DATA rather than RLIMIT_AS: Rust and tensorstore reserve huge PROT_NONE address ranges
    that RLIMIT_AS would count; RLIMIT_DATA counts private writable memory, which is what a
    runaway allocation takes. Everything is looked up here, in the parent: importing between fork
    and exec can deadlock when other threads (execnet's, under xdist) hold the import lock."""
    import ctypes
    import resource

    try:
        prctl = ctypes.CDLL(None).prctl  # Linux
    except (OSError, AttributeError):
        prctl = None
    setrlimit, rlimit_data = resource.setrlimit, resource.RLIMIT_DATA

    def apply() -> None:
        if limit:
            setrlimit(rlimit_data, (limit, limit))
        if prctl is not None:
            prctl(1, 9)  # PR_SET_PDEATHSIG = SIGKILL: a hung child must not outlive a killed run

    return apply


class SubprocessTransport:
    """A child process reused across requests; restarted after any failure."""

    def __init__(
        self,
        argv: list[str],
        *,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
        log_path: Path | None = None,
        before_start: Callable[[], None] | None = None,
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self.memory_limit = memory_limit
        self.log_path = Path(log_path) if log_path else None
        self.log = StderrLog(self.log_path) if self.log_path else None
        self.before_start = before_start  # called before each (re)start, e.g. to stage files
        self.starts = 0
        self.crashes = 0  # requests that ended below the protocol (crash, hang, garbage)
        self.per_request = False  # one process per request (after PER_REQUEST_AFTER crashes)
        self._ever_answered = False
        self._failed_starts = 0
        self._given_up: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._tree: ProcessTree | None = None
        self._watchdog: Watchdog | None = None
        become_subreaper()  # orphans of adapter helpers come back to us, to be killed and reaped

    # ---- process lifecycle ----------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _start(self) -> None:
        if self.before_start is not None:
            self.before_start()
        token = new_token()
        env = {**(os.environ if self.env is None else self.env), TOKEN_VARIABLE: token}
        stderr = self.log.pipe() if self.log else subprocess.DEVNULL
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=self.cwd,
                env=env,
                start_new_session=True,
                preexec_fn=_child_setup(self.memory_limit),
            )
        except OSError as exc:
            raise AdapterErrored(f"cannot start {self.argv!r}: {exc}") from None
        finally:
            if stderr is not subprocess.DEVNULL:
                os.close(stderr)  # the child has its copy; EOF once every holder has gone
        self._tree = ProcessTree(self._proc.pid, token)
        self._watchdog = Watchdog(self._tree, self.memory_limit)
        self._watchdog.start()
        self._buffer.clear()
        self.starts += 1

    def kill(self) -> None:
        """Kill the adapter and every process it started, wherever they went; reap them all."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if self._watchdog is not None:
            self._watchdog.stop()
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the group at once; then every straggler
        except (ProcessLookupError, PermissionError):
            pass
        if self._tree is not None:
            self._tree.kill()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self, timeout: float = 5.0) -> None:
        """Ask politely (shutdown), then kill."""
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._send({"id": 0, "op": "shutdown"})
                self._read_line(timeout)
                if self._proc.stdin is not None:
                    self._proc.stdin.close()  # EOF: a child still reading stdin (node) ends now
                self._proc.wait(timeout=timeout)
            except (AdapterErrored, OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    # ---- one request ----------------------------------------------------------------------
    def request(self, message: Message, timeout: float | None = DEFAULT_TIMEOUT) -> Message:
        if self._given_up:
            raise AdapterErrored(self._given_up)
        if self._proc is None or self._proc.poll() is not None:
            if self._proc is not None:
                self.kill()
            self._start()
        try:
            self._send(message)
            line = self._read_line(timeout)
        except AdapterErrored as exc:
            self.kill()
            if not self._ever_answered:
                self._failed_starts += 1
                if self._failed_starts >= MAX_FAILED_STARTS:
                    self._given_up = f"the adapter process failed {MAX_FAILED_STARTS} times before answering; not restarted again: {exc}"
                raise
            raise self._crashed(exc) from None
        self._ever_answered = True
        try:
            response = parse_response_line(line)
        except ValueError as exc:
            self.kill()
            why = "not JSON" if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise self._crashed(
                AdapterErrored(f"malformed response ({why}): {line[:200]!r}{self._stderr_tail()}")
            ) from None
        if not isinstance(response, dict) or response.get("id") != message.get("id"):
            self.kill()
            got = response.get("id") if isinstance(response, dict) else response
            raise self._crashed(
                AdapterErrored(
                    f"malformed response: expected id {message.get('id')}, got {str(got)[:100]}"
                )
            )
        if self.per_request:
            self.kill()  # answered: the next request gets a fresh process
        return response

    def _crashed(self, exc: AdapterErrored) -> AdapterErrored:
        """Count a request that ended below the protocol; the PER_REQUEST_AFTER-th one switches to
        one process per request (said in that request's message)."""
        self.crashes += 1
        if not self.per_request and self.crashes >= PER_REQUEST_AFTER:
            self.per_request = True
            return AdapterErrored(
                f"{exc}\n(after {self.crashes} crashes the adapter runs one process per request)"
            )
        return exc

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        """The running child's stdin and stdout (pipes, once _start() has run)."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise AdapterErrored("the adapter process is not running")
        return proc.stdin, proc.stdout

    def _send(self, message: Message) -> None:
        stdin, _ = self._pipes()
        try:
            stdin.write(json.dumps(message).encode("utf-8") + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise AdapterErrored(self._death_message("died before taking the request")) from None

    def _read_line(self, timeout: float | None) -> bytes:
        fd = self._pipes()[1].fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                newline = self._buffer.find(b"\n")
                if newline >= 0:
                    line = bytes(self._buffer[:newline])
                    del self._buffer[: newline + 1]
                    return line
                if len(self._buffer) > MAX_LINE_BYTES:
                    raise AdapterErrored(
                        f"malformed response: a line of more than {size_text(MAX_LINE_BYTES)} "
                        f"(process killed){self._stderr_tail()}"
                    )
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise AdapterErrored(
                        f"hang: no response within {timeout:g} s (process killed){self._stderr_tail()}"
                    )
                if not sel.select(remaining):
                    continue
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise AdapterErrored(self._death_message("crashed"))
                self._buffer += chunk

    def _death_message(self, what: str) -> str:
        exceeded = self._watchdog.exceeded if self._watchdog is not None else None
        if exceeded is not None:
            used, count = exceeded
            return (
                f"out of memory: memory cap {size_text(self.memory_limit or 0)} exceeded: the adapter's "
                f"{count} process(es) used {size_text(used)} (PSS); all killed{self._stderr_tail()}"
            )
        code = None
        try:
            code = self._proc.wait(timeout=2) if self._proc is not None else None
        except subprocess.TimeoutExpired:
            pass
        if code is None:
            status = "closed its output"
        elif code < 0:
            try:
                status = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                status = f"killed by signal {-code}"
        else:
            status = f"exit code {code}"
        return f"{what}: the adapter process ended ({status}){self._stderr_tail()}"

    def _stderr_tail(self) -> str:
        if self.log is None:
            return ""
        text = self.log.tail().decode("utf-8", "replace")[-STDERR_TAIL:].strip()
        return f"\n--- adapter stderr (tail) ---\n{text}" if text else ""
