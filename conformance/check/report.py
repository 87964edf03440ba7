"""The result of a check: per node, per implementation, one outcome; the summary; the exit code;
the text and JSON forms (html.py renders the page).

Outcomes, worst first:

    wrong-data        returned values that differ bit for bit from the reference's decoding
                      (after a lossless widening), without an error; or data where the reference
                      refuses the node
    crashed           died, ran out of memory, answered outside the protocol, or raised a crash
                      type (refusals.py)
    timed-out         no answer within --timeout (its process tree killed)
    refused           a clean error: the implementation cannot or will not read the node
    metadata-differs  every value exact, but the attributes or a group's members differ
    type-changed      every value exact, returned in another data type (both are named)
    unverified        read, but the reference cannot decode the node: nothing to compare with
    skipped           not read: too large for the budget without region reads, the time budget,
                      or (not counted) a format or node kind the implementation does not declare
    exact             read exactly
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .advice import Advice

OUTCOMES = (
    "wrong-data",
    "crashed",
    "timed-out",
    "refused",
    "metadata-differs",
    "type-changed",
    "unverified",
    "skipped",
    "exact",
)
LABELS = {
    "wrong-data": "WRONG DATA",
    "crashed": "crashed",
    "timed-out": "timed out",
    "refused": "refused",
    "metadata-differs": "metadata differs",
    "type-changed": "type changed",
    "unverified": "not compared",
    "skipped": "not read",
    "exact": "read exactly",
}

# Exit codes (cli.py prints them in --help); where several apply, the one first in PRECEDENCE.
EXIT_CODES = (
    (0, "every implementation read every node exactly"),
    (1, "wrong data: an implementation returned values that differ, without an error"),
    (2, "usage error: no such path, unknown URL scheme or implementation, bad options"),
    (3, "an implementation refused, crashed or timed out on a node"),
    (
        4,
        "every value was read exactly, but some in another data type, or with other attributes "
        "or members",
    ),
    (5, "the store breaks the spec: validate finds a MUST-level error"),
    (
        6,
        "not checked: the store holds a code-executing codec, a special file or a link out of "
        "it, so no implementation was let open it; or no Zarr node can be read there (no "
        "metadata, or the store cannot be reached)",
    ),
    (
        7,
        "incomplete: part of it was not read (budget, time) or not compared (the reference "
        "cannot decode it)",
    ),
)
PRECEDENCE = (6, 1, 5, 3, 4, 7, 0)


@dataclass
class Node:
    path: str  # "" is the root
    format: str
    kind: str  # array | group | node (unreadable metadata)
    summary: str = ""  # "uint64 (9, 7) in (4, 4) chunks: bytes, gzip"
    reference: str = ""  # "" or why the reference refuses it: "[reason] message"
    reason: str = ""  # the reference's reason code, when it refuses
    read: str = ""  # "whole" | "a sample of N chunks, X of Y bytes"
    needs: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)

    @property
    def display(self) -> str:
        return "/" + self.path

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in ("", [])} | {
            "path": self.display
        }


@dataclass
class Cell:
    node: str
    impl: str
    outcome: str
    message: str = ""
    counted: bool = True  # part of the verdict (not: a format the implementation never claimed)
    seconds: float = 0.0
    comparison: dict[str, Any] = field(default_factory=dict)
    advice: list[Advice] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "node": "/" + self.node,
            "impl": self.impl,
            "outcome": self.outcome,
            "counted": self.counted,
            "seconds": round(self.seconds, 3),
        }
        if self.message:
            out["message"] = self.message
        if self.comparison:
            out["comparison"] = self.comparison
        if self.advice:
            out["advice"] = [a.as_json() for a in self.advice]
        return out


@dataclass
class Implementation:
    name: str
    version: str = ""
    status: str = "ok"  # or why it could not run
    named: bool = False


@dataclass
class Report:
    location: str
    store_kind: str
    formats: list[str] = field(default_factory=list)
    validation: dict[str, Any] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)  # validate's ERROR lines, a few
    nodes: list[Node] = field(default_factory=list)
    implementations: list[Implementation] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # why no implementation opened the store
    incomplete: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)

    # ---- the verdict ----------------------------------------------------------------------------
    def counted(self) -> list[Cell]:
        return [c for c in self.cells if c.counted]

    @property
    def exit_code(self) -> int:
        return next(code for code in PRECEDENCE if code in self.exit_codes())

    def exit_codes(self) -> set[int]:
        """Every exit code that applies (0 always does)."""
        if self.refused or not self.nodes:
            return {6, 0}
        outcomes = {c.outcome for c in self.counted()}
        found = {0}
        if "wrong-data" in outcomes:
            found.add(1)
        if outcomes & {"refused", "crashed", "timed-out"}:
            found.add(3)
        if outcomes & {"type-changed", "metadata-differs"}:
            found.add(4)
        if self.validation.get("errors"):
            found.add(5)
        if outcomes & {"skipped", "unverified"} or self.incomplete:
            found.add(7)
        return found

    def summary(self) -> dict[str, Counter[str]]:
        out: dict[str, Counter[str]] = {i.name: Counter() for i in self.implementations}
        for cell in self.counted():
            out.setdefault(cell.impl, Counter())[cell.outcome] += 1
        return out

    def cell(self, node: str, impl: str) -> Cell | None:
        return next((c for c in self.cells if c.node == node and c.impl == impl), None)

    # ---- JSON ---------------------------------------------------------------------------------
    def as_json(self) -> dict[str, Any]:
        return {
            "type": "check",
            "schema": 1,
            "location": self.location,
            "store_kind": self.store_kind,
            "formats": self.formats,
            "exit_code": self.exit_code,
            "verdict": dict(EXIT_CODES)[self.exit_code],
            "validation": self.validation,
            "refused": self.refused,
            "incomplete": self.incomplete,
            "notes": self.notes,
            "implementations": [i.__dict__ for i in self.implementations],
            "nodes": [n.as_json() for n in self.nodes],
            "cells": [c.as_json() for c in self.cells],
            "summary": {k: dict(v) for k, v in self.summary().items()},
            "seconds": round(self.seconds, 2),
            "options": self.options,
        }

    def to_json(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=False, indent=1)

    # ---- text ---------------------------------------------------------------------------------
    def to_text(self) -> str:
        lines = [self._headline()]
        lines += [f"  {f}" for f in self.findings]
        if self.refused or not self.nodes:
            if self.refused:
                lines.append("no implementation was let open the store:")
                lines += [f"  {why}" for why in self.refused]
            else:
                lines.append("no Zarr node found there: nothing for an implementation to read")
            lines.append(f"EXIT {self.exit_code}: {dict(EXIT_CODES)[self.exit_code]}")
            return "\n".join(lines) + "\n"
        impls = [i.name for i in self.implementations if i.status == "ok"]
        lines += ["", _table(self, impls), ""]
        details = self._details()
        if details:
            lines += ["details:", *details, ""]
        lines += ["summary (nodes per outcome):", _summary_table(self), ""]
        lines += [f"incomplete: {n}" for n in self.incomplete]
        lines += [f"note: {n}" for n in self.notes]
        lines += [f"{i.name}: {i.status}" for i in self.implementations if i.status != "ok"]
        lines.append(f"EXIT {self.exit_code}: {dict(EXIT_CODES)[self.exit_code]}")
        return "\n".join(lines) + "\n"

    def _headline(self) -> str:
        v = self.validation
        arrays = sum(1 for n in self.nodes if n.kind == "array")
        groups = sum(1 for n in self.nodes if n.kind == "group")
        validity = (
            f"validate {str(v.get('verdict', '?')).upper()} ({v.get('errors', 0)} errors, "
            f"{v.get('warnings', 0)} warnings)"
        )
        formats = "+".join(self.formats) or "no format found"
        return (
            f"check {self.location}: {formats}, {arrays} arrays, {groups} groups; {validity}; "
            f"{self.seconds:.1f} s"
        )

    def _details(self) -> list[str]:
        out = []
        for node in self.nodes:
            if node.reference:
                out.append(f"{node.display}: the reference refuses it: {node.reference}")
            if node.read and node.read != "whole":
                out.append(f"{node.display}: read {node.read}")
            for cell in self.cells:
                if cell.node != node.path or cell.outcome == "exact" or not cell.counted:
                    continue
                out.append(f"{node.display} {cell.impl}: {LABELS[cell.outcome]}: {cell.message}")
                for advice in cell.advice:
                    out.append(f"    {_advice_line(advice)}")
        return out


def _advice_line(advice: Advice) -> str:
    cause = advice.cause if len(advice.cause) <= 240 else advice.cause[:237] + "..."
    where = f" [{advice.issue}]" if advice.issue and advice.issue != "unreported" else ""
    if advice.report:
        where = f" [unreported; report: {advice.report}]"
    text = f"{advice.source}{where}: {cause} (matched on {', '.join(advice.features)})"
    if advice.change:
        text += f"; to be read, write {advice.change}"
    return text


def _table(report: Report, impls: list[str]) -> str:
    header = ["node", *impls]
    rows = [header]
    for node in report.nodes:
        row = [f"{node.display} ({node.kind})" if node.kind != "array" else node.display]
        for impl in impls:
            cell = report.cell(node.path, impl)
            if cell is None:
                row.append("-")
            else:
                row.append(LABELS[cell.outcome] + ("" if cell.counted else "*"))
        rows.append(row)
    text = _columns(rows)
    if any(not c.counted for c in report.cells):
        text += "\n* not counted: a format or node kind the implementation does not declare"
    return text


def _summary_table(report: Report) -> str:
    summary = report.summary()
    shown = [o for o in OUTCOMES if any(c[o] for c in summary.values())]
    rows = [["implementation", "version", *[LABELS[o] for o in shown]]]
    versions = {i.name: i.version for i in report.implementations}
    for name, counts in summary.items():
        rows.append([name, versions.get(name, ""), *[str(counts[o]) for o in shown]])
    return _columns(rows)


def _columns(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows
    )
