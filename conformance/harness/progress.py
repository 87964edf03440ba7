"""Progress lines and the final summary of `zarr-conformance run` (a pytest plugin object that the
command registers; under xdist it runs in the controller, which sees every report)."""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from typing import Any, TextIO

import pytest

from .records import OUTCOMES, PAIR_TESTS, summary_table, unexpected

FAILURES_SHOWN = 40


class RunReporter:
    def __init__(self, stream: TextIO | None = None, interval: float = 2.0) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self.total: int | None = None
        self.done = 0
        self.per_adapter: dict[str, Counter[str]] = defaultdict(Counter)
        self.started = time.monotonic()
        self._last = 0.0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.config: pytest.Config | None = None

    # -- pytest hooks --------------------------------------------------------------------------
    def pytest_configure(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.total = len(session.items)
        self._say(f"{self.total} tests collected")

    @pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown when xdist is not loaded
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if self.total is None:
            self.total = len(ids)
            self._say(f"{self.total} tests collected")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        # pytest's terminal reporter is off in `run`: collection errors must still be seen.
        if report.failed:
            self._say(f"error collecting {report.nodeid or 'the suite'}:\n{report.longreprtext}")

    def pytest_internalerror(self, excrepr: object) -> None:
        self._say(f"internal error:\n{excrepr}")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        from .pytest_plugin import RECORD_PROPERTY

        record: Any = next((v for k, v in report.user_properties if k == RECORD_PROPERTY), None)
        if record is None:
            return
        self.done += 1
        self.per_adapter[record["impl"]][record["outcome"]] += 1
        now = time.monotonic()
        if now - self._last >= self.interval or self.done == self.total:
            self._last = now
            self._progress()

    # -- output ------------------------------------------------------------------------------
    def _progress(self) -> None:
        total = self.total or self.done
        parts = []
        for name in sorted(self.per_adapter):
            counts = self.per_adapter[name]
            parts.append(f"{name}: " + " ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts[o]))
        line = (
            f"[{self.done}/{total} {100 * self.done // max(total, 1)}% {time.monotonic() - self.started:.0f}s] "
            + " | ".join(parts)
        )
        if self.tty:
            self.stream.write("\r\033[K" + line[:200])
            if self.done == total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def _say(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()

    def summary(self, records: list[dict[str, Any]], stale: list[str], results_path: object) -> str:
        lines = ["", summary_table(records, time.monotonic() - self.started)]
        bad = unexpected(records)
        if bad:
            lines += ["", f"{len(bad)} unexpected outcome(s):"]
            for r in bad[:FAILURES_SHOWN]:
                who = f"{r['writer']}->{r['reader']}" if r["test"] in PAIR_TESTS else r["impl"]
                first = (r["message"] or "").strip().splitlines()[:1]
                lines.append(
                    f"  {r['outcome'].upper():10} {r['test']:9} {who} {r['case']}: {first[0] if first else ''}"[
                        :300
                    ]
                )
            if len(bad) > FAILURES_SHOWN:
                lines.append(f"  ... and {len(bad) - FAILURES_SHOWN} more (see the results file)")
        lines += [f"warning: {w}" for w in stale]
        if results_path:
            lines.append(f"results: {results_path}")
        # Wrong data and crashes first, known or not; then the profiles of allowed behaviour; then
        # one closing line in the plain 'N passed, N failed, N skipped' form CI systems read:
        # failed = the records that fail the run, skipped = unsupported and known failures.
        counts = Counter(r["outcome"] for r in records)
        known_wrong = sum(
            r["outcome"] == "wrong-data" and bool(r.get("known_failure")) for r in records
        )
        lines.append(
            f"wrong data: {counts['wrong-data']} ({known_wrong} explained by known failures), "
            f"errored: {counts['errored']}, failed: {counts['failed']}, known failures: "
            f"{counts['known-failure']} (every tier and test kind); allowed behaviour: "
            f"{counts['type-changed']} type-changed, {counts['lenient']} lenient, "
            f"{counts['declined']} declined; probes: {sum(bool(r.get('probe')) for r in records)}"
        )
        bad_ids = {id(r) for r in bad}
        ok = sum(
            r["outcome"] not in ("unsupported", "known-failure") and id(r) not in bad_ids
            for r in records
        )
        lines.append(
            f"matrix: {ok} passed, {len(bad)} failed, {len(records) - ok - len(bad)} skipped"
        )
        return "\n".join(lines)
