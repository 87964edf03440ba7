"""How much of the requirement catalogue the corpus reaches, per family."""

from __future__ import annotations

from .case import Case
from .requirements import FAMILIES, load_requirements


def coverage(cases: list[Case]) -> dict[str, dict]:
    reqs = load_requirements()
    cited = {rid for case in cases for rid in case.requirements}
    out = {}
    for family in FAMILIES + ("all",):
        testable = sorted(
            r.id for r in reqs.values() if r.testable and (family == "all" or r.family == family)
        )
        covered = [rid for rid in testable if rid in cited]
        out[family] = {
            "testable": len(testable),
            "covered": len(covered),
            "share": len(covered) / len(testable) if testable else 1.0,
            "uncovered": [rid for rid in testable if rid not in cited],
        }
    return out


def unknown_ids(cases: list[Case]) -> dict[str, list[str]]:
    reqs = load_requirements()
    bad = {}
    for case in cases:
        missing = [rid for rid in case.requirements if rid not in reqs]
        if missing:
            bad[case.id] = missing
    return bad


def render(report: dict[str, dict]) -> str:
    lines = []
    for family, row in report.items():
        if family == "all":
            continue
        lines.append(f"{family:8} {row['covered']:4}/{row['testable']:<4} {row['share']:6.1%}")
        if row["uncovered"]:
            lines.append("         uncovered: " + " ".join(row["uncovered"]))
    total = report["all"]
    lines.append(f"{'all':8} {total['covered']:4}/{total['testable']:<4} {total['share']:6.1%}")
    lines.append(f"coverage: {round(total['share'] * 100)}%")
    return "\n".join(lines)
