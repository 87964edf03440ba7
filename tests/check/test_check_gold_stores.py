"""check over the stores real writers made (fixtures/*/gold-*, */writers-*), read by the
implementations CI runs, must agree with what the suite knows about each pair: an exact read,
except where the reader has a known failure for that case (then anything but exact).

The stores of one writer area are checked together, as the children of one group (a copy in a
temporary folder), so that each implementation starts once per area."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.check.runner import Options, check
from conformance.corpus.case import default_root, load_cases
from conformance.harness.config import find_adapter
from conformance.testing.hostile_runs import tree_digest

pytestmark = pytest.mark.slow

READERS = ("zarr-python", "zarrita-js", "tensorstore")
ROOT = default_root()
AREAS = sorted(
    f"{fmt.name}/{area.name}"
    for fmt in (ROOT / "v2", ROOT / "v3")
    for area in fmt.iterdir()
    if area.name.startswith(("gold-", "writers-"))
)
GROUP = {
    "v3": {"zarr.json": {"zarr_format": 3, "node_type": "group"}},
    "v2": {".zgroup": {"zarr_format": 2}},
}


def area_cases(area: str):
    return [
        c
        for c in load_cases()
        if c.id.startswith(area + "/")
        and c.kind == "read"
        and c.node == ""
        and c.store_kind == "directory"
        and c.expect.get("node_type") == "array"
    ]


def super_store(cases, fmt: str, target: Path) -> Path:
    target.mkdir()
    for name, doc in GROUP[fmt].items():
        (target / name).write_text(json.dumps(doc))
    for case in cases:
        shutil.copytree(case.store_path, target / case.id.rsplit("/", 1)[1])
    return target


def expectation(reader: str, case) -> str | None:
    """'exact', 'not exact', or None (no claim: a capability the reader does not declare, or a
    known failure that does not always show)."""
    config = find_adapter(reader)
    entry = next(iter(config.known_failures_for("read", case.id, store="directory")), None)
    if entry is not None:
        return "not exact" if entry.strict else None
    if not case.needs - {"store:directory"} <= config.capabilities:
        return None
    return "exact"


@pytest.mark.parametrize("area", AREAS)
def test_gold_stores_read_as_the_suite_knows(area, tmp_path):
    cases = area_cases(area)
    assert cases, area
    store = super_store(cases, area.split("/")[0], tmp_path / "store")
    before = tree_digest(store)
    report = check(str(store), Options(impls=list(READERS), progress=False))
    assert tree_digest(store) == before
    assert report.validation["errors"] == 0, report.findings
    disagree = []
    for case in cases:
        node = case.id.rsplit("/", 1)[1]
        for reader in READERS:
            cell = report.cell(node, reader)
            want = expectation(reader, case)
            if cell is None or not cell.counted or want is None:
                continue
            if (cell.outcome == "exact") != (want == "exact"):
                disagree.append(
                    f"{case.id} {reader}: {cell.outcome} ({cell.message}), expected {want}"
                )
    assert not disagree, "\n".join(disagree)
