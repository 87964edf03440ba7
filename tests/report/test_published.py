"""The committed report (reports/) is what a fresh run of this checkout renders.

`./dev test` records the gate's matrix into results/matrix.jsonl before pytest runs. The gate
records less than the report's run (no probes, fewer property examples: publish.GATE_SCOPE), so
results.json keeps the figures of the records both share ("gate"); those of the fresh run
(conformance/report/scores.py: conformance, wrong data, crashes, round trips, and the outcome
counts behind them) must equal them for every implementation column the fresh run has (the
published run may have more: version rows, adapters not in the default matrix), and so must the
interop grid and score. A corpus, adapter or known-failure change without a re-rendered report
fails here, with the commands that fix it."""

import json
from pathlib import Path

import pytest

from conformance.report import matrices as m
from conformance.report.publish import gate_figures

ROOT = Path(__file__).resolve().parents[2]
FRESH = ROOT / "results" / "matrix.jsonl"
PUBLISHED = ROOT / "reports" / "results.json"
SCHEMA = "zarr-conformance-results/2"
HOW_TO_FIX = "re-render the published report: ./dev report, then commit reports/"


def figures_of(summary: dict) -> tuple[dict, dict]:
    """(implementation -> its figures and outcome counts, format -> interop score and grid)."""
    impls = {
        name: {"scores": entry["scores"], "outcomes": entry["outcomes"]}
        for name, entry in summary.get("implementations", {}).items()
    }
    return impls, summary.get("interop", {})


def fresh_figures(
    records: list[dict], tmp_path: Path, fixtures: Path = ROOT / "fixtures"
) -> tuple[dict, dict]:
    """What results.json's gate figures would say for these records (no pages are rendered)."""
    return figures_of(gate_figures(records, fixtures))


def differences(published: dict, fresh: dict, what: str) -> list[str]:
    out = []
    for name in sorted(fresh):
        if name not in published:
            out.append(f"{what} {name}: in the fresh run, missing from the published report")
        elif published[name] != fresh[name]:
            out.append(f"{what} {name}: published {published[name]} != fresh {fresh[name]}")
    return out


def interop_differences(published: dict, fresh: dict, columns: set[str]) -> list[str]:
    out = []
    for fmt in sorted(set(published) | set(fresh)):
        old, new = published.get(fmt, {}), fresh.get(fmt, {})
        pairs = {k: val for k, val in old.get("pairs", {}).items() if set(k.split("->")) <= columns}
        out += differences(pairs, new.get("pairs", {}), f"interop {fmt}")
        members = set(old.get("score", {}).get("members", []))
        if members <= columns and old.get("score") != new.get("score"):
            out.append(
                f"interop {fmt} score: published {old.get('score')} != fresh {new.get('score')}"
            )
    return out


@pytest.mark.skipif(not FRESH.is_file(), reason="no fresh matrix: `./dev test` records one first")
def test_published_figures_match_the_fresh_matrix(tmp_path):
    records = m.load_records(FRESH)
    columns = {r["impl"] for r in records}
    summary = json.loads(PUBLISHED.read_text("utf-8"))
    assert summary.get("schema") == SCHEMA, f"reports/results.json predates {SCHEMA}: {HOW_TO_FIX}"
    assert "gate" in summary, f"reports/results.json has no gate figures: {HOW_TO_FIX}"
    published_impls, published_interop = figures_of(summary["gate"])
    fresh_impls, fresh_interop = fresh_figures(records, tmp_path)
    problems = differences(published_impls, fresh_impls, "implementation")
    problems += interop_differences(published_interop, fresh_interop, columns)
    assert not problems, "\n".join(problems[:40] + [HOW_TO_FIX])


def test_a_changed_figure_is_caught(tmp_path):
    """The comparison above is not vacuous: one record's outcome changed is reported, in the
    figures and in the counts behind them."""
    record = {"test": "read", "case": "v3/x", "impl": "a", "format": "v3", "tier": "required"}
    base = [dict(record, outcome="passed"), dict(record, case="v3/y", outcome="passed")]
    changed = [base[0], dict(base[1], outcome="wrong-data")]
    published, _ = fresh_figures(base, tmp_path / "one", tmp_path)
    fresh, _ = fresh_figures(changed, tmp_path / "two", tmp_path)
    found = differences(published, fresh, "implementation")
    assert found and "'wrong_data': {'cases': 1" in found[0]
    assert not differences(published, published, "implementation")
