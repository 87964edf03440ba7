"""The version sweep: the columns of one implementation at several versions, side by side.

A column runs some version of an implementation: its adapter's pinned one (`zarr-python`, which
pins zarr 3.4.2; `zarr-python2`, 2.18.7), or another (`zarr-python@3.0.10`, a version row of the
harness: ./dev report runs the newest patch of every zarr-python minor, 3.0 to 3.3, each under the
Python its release allows). Columns whose
adapters drive the same package (pip `zarr` for zarr-python and zarr-python2) form one sweep,
ordered by version. Between consecutive versions it lists the cases whose outcome changed (single
tests on the case's own store), so that regressions and fixes show up release by release; each
version's figures are those of conformance/report/scores.py, like every other column's.

Everything comes from the results file; the adapters' configurations only say which package a
column's adapter drives and which version it pins (a column's recorded `versions` win).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

from . import matrices as m


@dataclass(frozen=True)
class Column:
    name: str  # the results' column: adapter name, or name@version
    package: str  # what the adapter drives, e.g. "pip:zarr"
    version: str


def version_key(version: str) -> tuple:
    """Release order: numbers compared as numbers ("3.0.10" after "3.0.9")."""
    return tuple(
        (0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.+!_-]", version)
    )


def columns(records: list[dict]) -> list[Column]:
    """Every column of the records whose adapter drives a known package, with its version."""
    from conformance.harness.config import AdapterConfigError, find_adapter
    from conformance.harness.variants import main_package, split_name

    recorded = m.versions(records)
    found = []
    for name in m.implementations(records):
        base, asked = split_name(name)
        try:
            package = main_package(find_adapter(base))
        except (AdapterConfigError, OSError, ValueError):
            continue
        if package is None:
            continue
        distribution, pinned, kind = package
        version = (recorded.get(name) or {}).get(distribution) or asked or pinned
        if version:
            found.append(Column(name, f"{kind}:{distribution}", str(version)))
    return found


def sweeps(records: list[dict]) -> dict[str, list[Column]]:
    """package -> its columns in version order, for packages seen at two versions or more."""
    by_package: dict[str, list[Column]] = defaultdict(list)
    for column in columns(records):
        by_package[column.package].append(column)
    return {
        package: sorted(cols, key=lambda c: version_key(c.version))
        for package, cols in sorted(by_package.items())
        if len({c.version for c in cols}) > 1
    }


def _single(records: list[dict], name: str) -> list[dict]:
    return [
        r
        for r in records
        if r["impl"] == name and r["test"] in m.SINGLE_TESTS and r.get("tier") and m.local(r)
    ]


def outcomes(records: list[dict], name: str) -> dict[tuple[str, str], str]:
    """(test, case) -> outcome for one column."""
    return {(r["test"], r["case"]): r["outcome"] for r in _single(records, name)}


def changes(records: list[dict], older: str, newer: str) -> list[tuple[str, str, str, str]]:
    """(test, case, outcome at older, outcome at newer) for the cases whose outcome differs; a
    case only one of the two ran shows as "absent" on the other side."""
    a, b = outcomes(records, older), outcomes(records, newer)
    return [
        (test, case, a.get((test, case), "absent"), b.get((test, case), "absent"))
        for test, case in sorted(set(a) | set(b))
        if a.get((test, case)) != b.get((test, case))
    ]


MAX_LISTED = 40  # changed cases listed per pair of versions; the rest are counted


def markdown(records: list[dict]) -> str:
    """The cases whose outcome changed from one version to the next, per package (empty when no
    package was run at two versions); the versions' figures are rows of the conformance table."""
    lines = []
    for package, cols in sweeps(records).items():
        lines += [f"### {package.split(':', 1)[1]} ({package.split(':', 1)[0]})", ""]
        lines.append("Versions: " + ", ".join(f"{c.version} (`{c.name}`)" for c in cols))
        lines.append("")
        for older, newer in pairwise(cols):
            changed = changes(records, older.name, newer.name)
            lines.append(f"{older.version} → {newer.version}: {len(changed)} case(s) changed")
            lines.append("")
            for test, case, was, now in changed[:MAX_LISTED]:
                lines.append(f"- `{case}` ({test}): {was} → {now}")
            if len(changed) > MAX_LISTED:
                lines.append(f"- ... and {len(changed) - MAX_LISTED} more")
            lines.append("")
    return "\n".join(lines)
