"""What the validator reports: one Finding per problem, streamed to a sink as it is found."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from conformance.reference.stores.base import printable

ERROR, CANNOT_CHECK, WARNING, NOTE = "ERROR", "CANNOT-CHECK", "WARNING", "NOTE"
# ERROR: a MUST is broken; CANNOT-CHECK: a valid feature (a registered extension) this validator
# does not implement, so conformance is not established for it; WARNING: a SHOULD; NOTE: information
LEVELS = (ERROR, CANNOT_CHECK, WARNING, NOTE)


@dataclass(frozen=True)
class Finding:
    level: str
    requirement: str | None  # an ID of requirements.md, or None when no single one applies
    reason: str  # a reason code of conformance.reference.errors.REASONS
    path: str  # node path: '' for the root
    message: str
    key: str | None = None  # the store key concerned, when there is one
    format: str | None = None
    count: int = 1  # how many chunks or keys share this finding (one line for all of them)

    @property
    def display_path(self) -> str:
        return "/" + self.path

    def line(self) -> str:
        message = " ".join(self.message.split())  # one finding, one line
        if self.key and self.key not in message:
            message = f"key {self.key!r}: {message}"
        return (
            f"{self.level} {self.requirement or '-'} {self.reason} {self.display_path}: {message}"
        )

    def to_json(self) -> dict[str, Any]:
        return {"type": "finding", **asdict(self), "path": self.display_path}

    @classmethod
    def coerce(cls, obj: Any, format: str | None = None) -> Finding:
        """Accept a Finding, an object with the same attributes, or a dict (findings from other
        modules such as the ZOM validator)."""
        if isinstance(obj, cls):
            return obj
        from conformance.reference.errors import REASONS

        from .requirement_map import known

        get = (
            obj.get
            if isinstance(obj, dict)
            else lambda name, default=None: getattr(obj, name, default)
        )
        level = str(get("level", None) or get("severity", None) or ERROR).upper()
        path = str(get("path", "") or "").strip("/")
        requirement = get("requirement", None)
        reason = get("reason", None)
        return cls(
            level=level if level in LEVELS else ERROR,
            requirement=requirement if known(requirement) else None,
            reason=reason if reason in REASONS else "model-mismatch",
            path=path,
            message=str(get("message", "") or obj),
            key=get("key", None),
            format=get("format", format),
        )


@dataclass
class Tally:
    errors: int = 0
    cannot_check: int = 0
    warnings: int = 0
    notes: int = 0
    groups: int = 0
    arrays: int = 0
    chunks: int = 0  # stored chunks decoded (or, with --no-data, found)
    formats: list[str] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return self.groups + self.arrays


class Sink:
    """Collects findings and writes each one out at once (text lines or JSON lines).
    Thread-safe: the walk runs in a worker thread; `close` stops all further output, so that a
    walk abandoned at the time limit cannot print after the summary."""

    def __init__(
        self,
        out: TextIO | None = None,
        as_json: bool = False,
        on_finding: Callable[..., Any] | None = None,
    ):
        self.out = out if out is not None else sys.stdout
        self.as_json = as_json
        self.tally = Tally()
        self.findings: list[Finding] = []
        self._lock = threading.Lock()
        self._closed = False
        self._on_finding = on_finding
        self.on_broken: Callable[..., Any] | None = None  # called once output has become impossible
        self.broken = False

    def add(self, finding: Finding) -> None:
        with self._lock:
            if self._closed:
                return
            self.findings.append(finding)
            if finding.level == ERROR:
                self.tally.errors += 1
            elif finding.level == CANNOT_CHECK:
                self.tally.cannot_check += 1
            elif finding.level == WARNING:
                self.tally.warnings += 1
            else:
                self.tally.notes += 1
            self._write(
                json.dumps(finding.to_json(), ensure_ascii=False)
                if self.as_json
                else finding.line()
            )
            if self._on_finding:
                self._on_finding(finding)

    def write_line(self, text: str) -> None:
        with self._lock:
            if not self._closed:
                self._write(text)

    def _write(self, text: str) -> None:
        try:
            self.out.write(
                printable(text, self.as_json) + "\n"
            )  # names that are not UTF-8: '\\xff', valid UTF-8
            self.out.flush()
        except (BrokenPipeError, ValueError):  # the reader went away (`| head`) or out was closed
            self._closed = True
            self.broken = True
            _silence(self.out)
            if self.on_broken:
                self.on_broken()

    def write_final(self, text: str) -> None:
        """The summary: written even after `close` (which only silences the abandoned walk)."""
        with self._lock:
            if not self.broken:
                self._write(text)

    def close(self) -> None:
        with self._lock:
            self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed


def _silence(out: TextIO) -> None:
    """Point a broken stdout at /dev/null, so that Python's exit-time flush stays quiet."""
    import os

    try:
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
