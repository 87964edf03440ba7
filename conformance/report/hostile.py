"""The report's "Hostile stores and faults" section: how each implementation copes with the opt-in
kinds `hostile` (fixtures/hostile) and `fault` (conformance/testing/faults.py).

These records never gate a run (tier "hostile", conformance.model.gates), so they stay out of
every conformance table and get a section of their own, fed from `hostile.jsonl` beside the results
(what `./dev report` records) and from any hostile or fault records in the results themselves.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from . import matrices as m

TESTS = ("hostile", "fault")
LABELS = {"hostile": "hostile stores", "fault": "faults"}
COUNTED = ("passed", "errored", "wrong-data", "failed", "unsupported")
LISTED = (
    "wrong-data",
    "errored",
    "failed",
    "known-failure",
)  # what the Markdown names case by case
BAD = ("errored", "wrong-data", "failed")  # shown in red
MAX_LISTED = 40  # per implementation in the Markdown; the page lists them all


def is_hostile(record: dict) -> bool:
    return record["test"] in TESTS


def default_file(results: Path) -> Path:
    """Where `./dev report` records the hostile run: beside the results."""
    return Path(results).with_name("hostile.jsonl")


def merge(main: list[dict], extra: list[dict]) -> list[dict]:
    """The hostile and fault records of the results and of the hostile file, each identity once
    (the hostile file's record wins: it is the run made for them)."""
    from .compare import identity

    merged = {identity(r): r for r in main if is_hostile(r)}
    merged.update((identity(r), r) for r in extra if is_hostile(r))
    return list(merged.values())


def table(records: list[dict]) -> dict[str, dict[str, m.Cell]]:
    """impl -> "hostile" / "fault" / "all" -> Cell."""
    out: dict = defaultdict(lambda: defaultdict(m.Cell))
    for r in records:
        if is_hostile(r):
            out[r["impl"]][r["test"]].add(r)
            out[r["impl"]]["all"].add(r)
    return out


def caps() -> dict[str, float]:
    """The suite's caps on one hostile or fault read (the modules that apply them say it)."""
    from conformance.suite.test_faults import FAULT_TIMEOUT
    from conformance.suite.test_hostile import FIFO_GRACE, HOSTILE_TIMEOUT

    return {"hostile_s": HOSTILE_TIMEOUT, "fault_s": FAULT_TIMEOUT, "fifo_s": FIFO_GRACE}


def explanation(run: dict | None) -> str:
    """What the section's numbers mean, in plain text (both the page and the Markdown use it)."""
    c = caps()
    source = f" Run `{run.get('run_id', '?')}` on {run.get('date', '?')}." if run else ""
    return (
        "These results do not gate: a run never fails on them, and they are not counted in the "
        "conformance tables. Hostile stores (fixtures/hostile) try to exhaust memory or time, to "
        "reach outside the store, or to slip invalid JSON past a parser; faults make one chunk of "
        "a valid case fail, come back short or stall. Each read ran under the harness's caps: "
        "the adapter's memory cap over its whole process tree (`--adapter-memory`, 4 GiB unless "
        f"the run set another), {c['hostile_s']:g} s per hostile read and {c['fault_s']:g} s per "
        f"faulted read, and a reader still blocked on a FIFO after {c['fifo_s']:g} s is released. "
        "passed: a clean refusal or the valid answer; errored: a crash, a hang, out of memory; "
        "wrong data: data returned for a store that must be refused, data from outside the store, "
        "or a faulted chunk read as data; failed: files changed in or beside the store; "
        "unsupported: not sent (the adapter does not declare the store kind or format)." + source
    )


def summary(records: list[dict]) -> dict:
    """impl -> test kind -> outcome counts, for results.json."""
    return {
        name: {kind: dict(cell.counts) for kind, cell in sorted(kinds.items())}
        for name, kinds in sorted(table(records).items())
    }


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join((text or "").split()).replace("|", "/")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def markdown(records: list[dict], run: dict | None = None) -> str:
    rows = table(records)
    lines = [
        explanation(run),
        "",
        "| implementation | hostile stores | faults | passed | errored | wrong data | failed "
        "| unsupported |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in sorted(rows):
        kinds = rows[name]
        split = [f"{kinds[k].passed}/{kinds[k].total}" if kinds[k].total else "–" for k in TESTS]
        counts = [str(kinds["all"].counts[o]) for o in COUNTED]
        for i in (1, 2):  # errored, wrong data: the ones that matter
            counts[i] = f"**{counts[i]}**" if counts[i] != "0" else counts[i]
        lines.append(f"| {name} | " + " | ".join(split + counts) + " |")
    for name in sorted(rows):
        bad = sorted(
            (r for r in rows[name]["all"].records if r["outcome"] in LISTED),
            key=lambda r: (LISTED.index(r["outcome"]), r["case"]),
        )
        if not bad:
            continue
        lines += ["", f"### {name}: not passed", ""]
        for r in bad[:MAX_LISTED]:
            message = _one_line(r.get("message") or "")
            lines.append(
                f"- {r['outcome']}: `{r['case']}` ({r['test']})"
                + (f": {message}" if message else "")
            )
        if len(bad) > MAX_LISTED:
            lines.append(f"- … and {len(bad) - MAX_LISTED} more (index.html lists them all)")
    return "\n".join(lines) + "\n"


def case_details(records: list[dict], cases: dict[str, dict]) -> dict[str, dict]:
    """Drill-down facts of fault cases (`fault/<fault>/<base case>`: no case.json of their own)."""
    from conformance.testing.faults import FAULTS

    out = {}
    for r in records:
        parts = r["case"].split("/", 2)
        if r["test"] != "fault" or len(parts) < 3 or r["case"] in cases:
            continue
        fault = FAULTS.get(parts[1])
        base = cases.get(parts[2], {})
        if fault is not None:
            description = fault.description + (
                f": {base['description']}" if base.get("description") else ""
            )
            out[r["case"]] = {"description": description, "tier": "hostile"}
    return out


def load(path: Path) -> tuple[list[dict], dict | None]:
    """The records of a hostile run and its facts (`<file>.meta.json`, written by the run)."""
    side = Path(path).with_suffix(".meta.json")
    run = json.loads(side.read_text("utf-8")) if side.is_file() else None
    return m.load_records(path), run
