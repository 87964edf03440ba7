"""--impl-env current: the http and s3 store kinds run when this environment has what they need
(the reference's URL store and moto for the harness, the adapter's remote_packages for the
adapter), or one printed line says which are skipped and why."""

from __future__ import annotations

from pathlib import Path

from conformance.harness.config import AdapterConfig
from conformance.harness.variants import without_missing_remote

REMOTE = frozenset({"format:v3", "store:directory", "store:http", "store:s3", "feature:s3-write"})


def config(packages) -> AdapterConfig:
    return AdapterConfig(
        name="zp",
        folder=Path("."),
        description="d",
        transport="python",
        capabilities=REMOTE,
        remote_packages=tuple(packages),
    )


def test_an_adapter_without_its_remote_packages_loses_its_remote_store_kinds():
    changed, note = without_missing_remote(config(["zz-zarr-conformance-no-such-dist"]))
    assert changed.capabilities == {"format:v3", "store:directory"}
    assert note == (
        "zp: its http and s3 store kinds are skipped: zz-zarr-conformance-no-such-dist is not "
        "installed in this environment (pip install zz-zarr-conformance-no-such-dist)"
    )


def test_with_them_nothing_changes():
    same, note = without_missing_remote(config(["numpy"]))
    assert same.capabilities == REMOTE and note is None
    assert without_missing_remote(config([]))[1] is None


def test_the_harness_side_says_why_a_kind_is_left_out(monkeypatch):
    import importlib.util

    from conformance.harness import pytest_plugin

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "moto" else real(name, *a)
    )
    kinds, notes = pytest_plugin._store_kinds(None)
    assert "s3" not in kinds and "moto" in notes["s3"]
