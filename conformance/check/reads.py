"""Asking one implementation to read the nodes of a store, through the harness's adapter process
(conformance/harness/client.py: its own process tree, memory-capped, killed on a hang), and
turning each answer into an observation the runner compares with the reference.

A whole array is read with the protocol's `read`; a sample of it (an array over the byte
budget, or `--sample`) with `bench` read requests of one region each (adapters/README.md,
"bench": the protocol's only region read). An adapter without `bench`, or a store it cannot
take there (`bench` reads directories), reads whole arrays only.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from conformance.harness.adapter_api import load_data
from conformance.harness.client import AdapterClient, AdapterPool, Description, Response
from conformance.harness.config import AdapterConfig
from conformance.harness.refusals import judge_refusal
from conformance.harness.transport import AdapterErrored

# What the transport says when it killed a process that did not answer in time (transport.py
# _read_line), and when an adapter does not implement an op (client.py call, ProtocolError).
HANG = "hang:"
NO_SUCH_OP = "the adapter refused the request:"
NPY_SLACK = 1 << 16  # an .npy header is never larger


@dataclass
class Answer:
    """One request's outcome before comparison: data (or members), or why there is none."""

    outcome: str  # "read" | "refused" | "crashed" | "timed-out" | "no-regions"
    message: str = ""
    data: Any = None  # np.ndarray of a read array
    body: dict[str, Any] | None = None  # the read response (attributes, members, api)
    seconds: float = 0.0


class Reader:
    """One implementation, started on first use and closed by close()."""

    def __init__(
        self, config: AdapterConfig, workdir: Path, memory: int, timeout: float, logs: Path
    ):
        self.config = config
        self.workdir = workdir
        self.timeout = timeout
        self.pool = AdapterPool(timeout=timeout, memory_limit=memory, scratch=workdir, log_dir=logs)
        self.pool.register(config)
        self.regions = True  # until bench proves missing
        self._count = 0

    @property
    def name(self) -> str:
        return self.config.name

    def client(self) -> AdapterClient:
        return self.pool.get(self.name)

    def describe(self) -> Description:
        return self.client().describe()

    def read(
        self, store: dict[str, Any], format: str, node: str, limit: int, deadline: float | None
    ) -> Answer:
        """The whole node; `limit`: the most bytes its data file may hold (else not loaded)."""
        output = self._output()
        answer = self._call(
            deadline, "read", store=store, format=format, node=node, output=str(output)
        )
        if answer.outcome == "read" and answer.body and answer.body.get("node_type") == "array":
            self._load(answer, output, limit)
        return answer

    def read_region(
        self,
        store: dict[str, Any],
        format: str,
        node: str,
        metadata: dict[str, Any],
        region: list[tuple[int, int]],
        limit: int,
        deadline: float | None,
    ) -> Answer:
        """One region, through `bench`; outcome "no-regions" when the adapter has no bench."""
        if not self.regions or store.get("kind") != "directory":
            return Answer("no-regions")
        output = self._output()
        answer = self._call(
            deadline,
            "bench",
            operation="read",
            store=store,
            format=format,
            path=node,
            metadata=metadata,
            regions=[[list(r) for r in region]],
            output=str(output),
        )
        if answer.outcome == "crashed" and answer.message.startswith(NO_SUCH_OP):
            self.regions = False
            return Answer("no-regions", answer.message)
        if answer.outcome == "read":
            self._load(answer, output, limit)
            if answer.outcome == "read":
                stacked = np.asarray(answer.data)
                answer.data = stacked[0] if stacked.ndim and len(stacked) == 1 else stacked
        return answer

    def close(self) -> None:
        self.pool.close()

    # ---- one request -------------------------------------------------------------------------
    def _output(self) -> Path:
        self._count += 1
        folder = self.workdir / f"r{self._count}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder / "out.npy"

    def _call(self, deadline: float | None, op: str, **fields: Any) -> Answer:
        client = self.client()
        timeout = self.timeout  # one request at most; the check's budget may leave less
        if deadline is not None:
            timeout = max(min(timeout, deadline - time.monotonic()), 1.0)
        client.timeout = timeout
        started = time.monotonic()
        try:
            response = client.call(op, **fields)
        except AdapterErrored as exc:
            text = str(exc)
            outcome = "timed-out" if text.startswith(HANG) else "crashed"
            return Answer(outcome, _first_lines(text), seconds=time.monotonic() - started)
        seconds = time.monotonic() - started
        if response.ok:
            return Answer("read", body=response.body, seconds=seconds)
        return self._refusal(response, seconds)

    def _refusal(self, response: Response, seconds: float) -> Answer:
        refusal = judge_refusal(self.config, response.body)
        if refusal.verdict in ("crash", "undeclared"):
            return Answer("crashed", f"{refusal.why}: {refusal.describe()}", seconds=seconds)
        why = f" ({refusal.why})" if refusal.verdict == "unsupported" and refusal.why else ""
        return Answer("refused", refusal.describe() + why, seconds=seconds)

    def _load(self, answer: Answer, output: Path, limit: int) -> None:
        """The data file the adapter wrote, if it is where it was asked to write and not larger
        than `limit` (an implementation returning far too much is wrong, not loaded)."""
        body = answer.body or {}
        path = Path(str(body.get("data", "")))
        if path.parent != output.parent or not path.is_file():
            answer.outcome, answer.message = "crashed", f"no data file where asked: {path}"
            return
        size = path.stat().st_size
        if size > limit + NPY_SLACK:
            answer.outcome = "too-much"
            answer.message = f"returned a data file of {size} bytes for at most {limit}"
            return
        try:
            answer.data = load_data(path)
        except (OSError, ValueError, KeyError) as exc:
            answer.outcome, answer.message = "crashed", f"unreadable data file: {exc}"
        finally:
            shutil.rmtree(output.parent, ignore_errors=True)


def _first_lines(text: str, lines: int = 6) -> str:
    return os.linesep.join(text.splitlines()[:lines])
