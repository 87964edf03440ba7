"""How much of the requirement catalogue the corpus reaches, per family, and which entries of the
zarr-extensions registry have cases."""

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
    out["registry"] = registry_coverage(cases)
    return out


# Registry entries whose README only points to the core spec are covered by the core corpus: the
# cases that need the entry's capability, or these (the regular grid and the key encodings have
# no capability of their own).
_CORE_ENTRIES = {
    ("chunk-grids", "regular"): lambda c: any(r.startswith("V3-GRID-") for r in c.requirements),
    ("chunk-key-encodings", "default"): lambda c: any(
        r in ("V3-CKE-001", "V3-CKE-002", "V3-CKE-004", "V3-CKE-007") for r in c.requirements
    ),
    ("chunk-key-encodings", "v2"): lambda c: (
        "feature:chunk-key-encoding-v2" in c.needs or "V3-CKE-005" in c.requirements
    ),
    ("data-types", "r"): lambda c: "dtype:r*" in c.needs,
}
_CAPABILITY = {"data-types": "dtype", "codecs": "codec", "chunk-grids": "grid"}


def registry_entries() -> dict[str, list[str]]:
    """Registry folder -> its entry names (REGISTRY_COMMIT of the reference)."""
    from ..reference.formats.v3 import registry

    return {
        "data-types": sorted({*registry.DATA_TYPES, "r"}),
        "codecs": sorted(registry.CODECS),
        "chunk-grids": sorted(registry.CHUNK_GRIDS),
        "chunk-key-encodings": sorted(registry.CHUNK_KEY_ENCODINGS),
    }


def registry_coverage(cases: list[Case]) -> dict[str, dict[str, int]]:
    """Registry folder -> entry -> number of v3 cases about it: cases citing its README, needing
    its capability (dtype:NAME, codec:NAME, grid:NAME), or core cases of a core entry."""
    out: dict[str, dict[str, int]] = {}
    v3 = [c for c in cases if c.format == "v3"]
    for folder, names in registry_entries().items():
        row = {}
        for name in names:
            readme = f"zarr-extensions/{folder}/{name}/README.md"
            capability = f"{_CAPABILITY.get(folder, 'cke')}:{name}"
            core = _CORE_ENTRIES.get((folder, name), lambda c: False)
            row[name] = sum(
                1
                for c in v3
                if capability in c.needs
                or core(c)
                or any(e.get("spec") == readme for e in c.raw.get("citation") or ())
            )
        out[folder] = row
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
        if family in ("all", "registry"):
            continue
        lines.append(f"{family:8} {row['covered']:4}/{row['testable']:<4} {row['share']:6.1%}")
        if row["uncovered"]:
            lines.append("         uncovered: " + " ".join(row["uncovered"]))
    total = report["all"]
    lines.append(f"{'all':8} {total['covered']:4}/{total['testable']:<4} {total['share']:6.1%}")
    lines.append(f"coverage: {round(total['share'] * 100)}%")
    for folder, row in report.get("registry", {}).items():
        covered = sum(1 for n in row.values() if n)
        lines.append(f"registry {folder}: {covered}/{len(row)} entries with cases")
        lines.append("         " + " ".join(f"{name}:{n}" for name, n in row.items()))
        missing = [name for name, n in row.items() if not n]
        if missing:
            lines.append("         without cases: " + " ".join(missing))
    return "\n".join(lines)
