"""The time budget of a validation run and its progress line on stderr."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

# The whole run's time limit when `validate` is given none: a store that stalls (a server that
# never answers, a key that never ends) must not hold a validation service for longer.
DEFAULT_TIME_BUDGET = 300.0


class BudgetExceeded(Exception):
    """The time budget ran out, or the run was cancelled."""


class Budget:
    def __init__(self, seconds: float | None = None):
        self.started = time.monotonic()
        self.deadline = None if not seconds else self.started + seconds
        self.seconds = seconds
        self.cancelled = threading.Event()

    def check(self) -> None:
        if self.cancelled.is_set() or (
            self.deadline is not None and time.monotonic() > self.deadline
        ):
            raise BudgetExceeded()

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(self.deadline - time.monotonic(), 0.0)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


class Progress:
    """Counts nodes and chunks; every `interval` seconds writes one line to stderr, so a small
    store prints nothing and a big one shows it is alive."""

    def __init__(self, out: TextIO | None = None, interval: float = 2.0, enabled: bool = True):
        self.out = out if out is not None else sys.stderr
        self.interval = interval
        self.enabled = enabled
        self.nodes = 0
        self.chunks = 0
        self.started = time.monotonic()
        self._last = self.started

    def node(self) -> None:
        self.nodes += 1
        self._maybe_print()

    def chunk(self) -> None:
        self.chunks += 1
        self._maybe_print()

    def _maybe_print(self) -> None:
        now = time.monotonic()
        if self.enabled and now - self._last >= self.interval:
            self._last = now
            self.out.write(
                f"validate: {self.nodes} nodes, {self.chunks} chunks checked ({now - self.started:.0f} s)\n"
            )
            self.out.flush()
