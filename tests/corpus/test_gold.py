"""The gold stores keep their promises: every planned store written by a real implementation is
present (at least one per writer), says exactly which pinned versions wrote it, is never touched by
the generator, holds as expected data the writer's seeded INPUT (recomputed here, not read back),
stays small, and the reference reads each one exactly.

tests/corpus/test_corpus.py runs the reference on every case too; this file checks what is specific
to gold stores. (Regenerate them with `.venv/bin/python scripts/gold_stores.py`.)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from conformance.corpus import default_root, load_cases
from conformance.corpus.generator import is_generated
from conformance.corpus.reference_verdict import reference_verdict

REPO = Path(__file__).resolve().parents[2]
ROOT = default_root()


def _load(name: str):
    if name in sys.modules:
        return sys.modules[name]
    scripts = str(REPO / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


GOLD_CASES = _load("gold_cases")
GOLD_STORES = _load("gold_stores")
WRITERS = GOLD_CASES.WRITERS
# Saved property failures (<format>/found/, provenance names a `property`) are kept cases too, not gold
# stores; so are the writers' default stores of scripts/writer_defaults.py (tests/corpus/test_registry_cases.py).
GOLD = [
    c
    for c in load_cases(ROOT)
    if c.provenance is not None
    and not c.provenance.get("property")
    and c.provenance.get("script") != "scripts/writer_defaults.py"
]
PLANNED = {c.id: c for c in GOLD_CASES.all_cases()}


def test_every_writer_has_gold_stores():
    by_writer = {w: [c.id for c in GOLD if c.provenance.get("writer") == w] for w in WRITERS}
    assert all(by_writer.values()), (
        f"writers without gold stores: {[w for w, ids in by_writer.items() if not ids]}"
    )


def test_every_planned_store_is_present_and_current():
    present = {c.id for c in GOLD}
    missing = sorted(set(PLANNED) - present)
    assert not missing, f"planned gold stores missing (run scripts/gold_stores.py): {missing[:10]}"
    stale = sorted(
        c.id
        for c in GOLD
        if c.id in PLANNED
        and c.provenance.get("spec_digest") != GOLD_STORES.spec_digest(PLANNED[c.id])
    )
    assert not stale, (
        f"gold stores written from an older plan (run scripts/gold_stores.py): {stale[:10]}"
    )
    unplanned = sorted(present - set(PLANNED))
    assert not unplanned, f"gold stores no longer planned: {unplanned[:10]}"


@pytest.mark.parametrize("case", GOLD, ids=[c.id for c in GOLD])
def test_provenance_names_exact_pinned_versions(case):
    prov = case.provenance
    writer = WRITERS.get(prov.get("writer"))
    assert writer is not None, f"unknown writer {prov.get('writer')!r}"
    assert case.id.split("/")[1] == f"gold-{writer.name}"
    assert prov["version"] == writer.version
    assert prov.get("script") == "scripts/gold_stores.py"
    versions = prov.get("versions") or {}
    for package, version in {writer.package: writer.version, **writer.also}.items():
        assert versions.get(package) == version, (
            f"{package} {versions.get(package)} != pinned {version}"
        )
    pinned = dict(p.split("==") for p in writer.pins)
    for package, version in versions.items():  # everything recorded that is pinned ran at its pin
        if package in pinned:
            assert version == pinned[package], f"{package} {version} != pinned {pinned[package]}"


@pytest.mark.parametrize("case", GOLD, ids=[c.id for c in GOLD])
def test_gold_case_is_a_small_read_case_the_generator_keeps(case):
    assert case.kind == "read"
    assert not is_generated(case.dir), "corpus generate would delete this case"
    size = sum(p.stat().st_size for p in case.store_path.rglob("*") if p.is_file())
    assert 0 < size <= GOLD_STORES.MAX_STORE_BYTES


def test_expected_data_is_the_writers_input(tmp_path):
    """Recompute every writer input from its seed: the frozen expected data must be exactly it
    (with the fill value where nothing was written), so it was never taken from a read-back."""
    arrays = [PLANNED[c.id] for c in GOLD if c.id in PLANNED and c.expect["node_type"] == "array"]
    expected = GOLD_STORES.prepare_job(arrays, tmp_path)
    by_id = {c.id: c for c in GOLD}
    checked = 0
    for spec in arrays:
        frozen = by_id[spec.id].expected_data()
        want = expected[(spec.id, spec.read)]
        if want.dtype.hasobject:
            assert frozen.tolist() == want.tolist(), spec.id
        else:
            assert frozen.dtype == want.dtype and frozen.tobytes() == want.tobytes(), spec.id
        checked += 1
    assert checked >= len(WRITERS)


@pytest.mark.parametrize("case", GOLD, ids=[c.id for c in GOLD])
def test_gold_store_has_written_and_unwritten_regions(case):
    """Against silent failure: no written element equals the fill value, and part of the array
    was never written (missing chunks or empty inner chunks must read as the fill)."""
    if case.expect["node_type"] != "array":
        assert case.expect["members"], "a gold hierarchy has members"
        return
    spec = PLANNED[case.id]
    node = GOLD_CASES.node_at(spec, spec.read)
    data = case.expected_data()
    written = np.zeros(data.shape, bool)
    written[tuple(slice(a, b) for a, b in node["region"])] = True
    assert written.any() and not written.all(), f"{case.id}: the plan must write part of the array"
    if data.dtype.hasobject:
        return
    fill = GOLD_STORES.node_fill(node, data.dtype)
    raw = f"V{data.dtype.itemsize}"
    is_fill = data.view(raw) == fill.reshape(()).view(raw)
    assert not is_fill[written].any(), f"{case.id}: a written element equals the fill value"
    assert is_fill[~written].all(), f"{case.id}: an unwritten element is not the fill value"


@pytest.mark.parametrize("case", GOLD, ids=[c.id for c in GOLD])
def test_reference_reads_gold_store_exactly(case):
    problems = reference_verdict(case)
    assert not problems, "\n".join(problems)
