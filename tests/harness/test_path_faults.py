"""Cause 7 of issue 16: one rule for path faults. A node path with '.', '..', empty segments, a
backslash or (v1, v2) a leading or trailing '/' is decided once in the harness: the case then
needs `feature:verbatim-paths`, which is never probed, so an adapter that walks names (GDAL,
NCZarr, cpp-zarr) or takes key prefixes (tensorstore) is `unsupported` with the same reason on
every store kind, and an adapter that declares it hands the path to the implementation
unchanged, so only the implementation is judged. Before, gdal-debian and cpp-zarr answered
`unsupported` from adapter code, tensorstore's adapter passed the faults through (failed over HTTP,
unsupported on a directory), and several adapters stripped slashes themselves."""

from __future__ import annotations

import pytest

from conformance.corpus import load_cases
from conformance.harness.adapter_api import verbatim_path
from conformance.harness.config import find_adapter
from conformance.harness.plan import plan_single
from conformance.harness.session import Options, SuiteSession, case_needs, case_path, path_faults


@pytest.mark.parametrize(
    "path, format, faults",
    [
        ("foo/../bar", "v2", ["'..' segment"]),
        ("a/./b", "v3", ["'.' segment"]),
        ("foo//bar", "v2", ["empty segment"]),
        ("foo\\bar", "v2", ["backslash"]),
        ("/foo", "v2", ["leading or trailing '/'"]),
        ("foo/", "v2", ["leading or trailing '/'"]),
        ("/foo/bar", "v3", []),  # v3's absolute form
        ("/a//b", "v3", ["empty segment"]),
        ("", "v2", []),
        ("foo/bar", "v2", []),
    ],
)
def test_path_faults(path, format, faults):
    assert path_faults(path, format) == faults


def test_verbatim_paths_keep_every_fault():
    assert verbatim_path("foo/../bar", "v2") == "foo/../bar"
    assert verbatim_path("/foo/", "v2") == "/foo/"
    assert verbatim_path("/a//b", "v3") == "a//b"


@pytest.fixture(scope="module")
def fault_cases():
    cases = [c for c in load_cases() if path_faults(case_path(c), c.format)]
    assert len(cases) >= 15  # v2 keys, v3 names, v3-draft, writes
    return cases


def test_every_path_fault_needs_verbatim_paths(fault_cases):
    for case in fault_cases:
        test = "write" if case.kind == "write" else case.kind
        assert "feature:verbatim-paths" in case_needs(test, case), case.id


@pytest.mark.parametrize("adapter", ["gdal-debian", "cpp-zarr", "tensorstore", "nczarr-netcdf4"])
def test_adapters_without_it_skip_the_same_way_on_every_store_kind(adapter, fault_cases):
    session = SuiteSession(Options(impls=[adapter]))
    config = find_adapter(adapter)
    assert "feature:verbatim-paths" not in config.capabilities
    for case in fault_cases:
        test = "write" if case.kind == "write" else case.kind
        if test not in ("read", "reject", "write"):
            continue
        plans = {plan_single(session, test, adapter, case, kind).mode for kind in (None, "http")}
        assert plans == {"skip"}, (case.id, plans)


@pytest.mark.parametrize(
    "adapter", ["reference", "zarr-python", "zarr-python2", "zarrita-js", "zarr-js", "zarrs"]
)
def test_adapters_with_it_run_every_path_fault(adapter, fault_cases):
    config = find_adapter(adapter)
    assert "feature:verbatim-paths" in config.capabilities
    session = SuiteSession(Options(impls=[adapter]))
    case = next(c for c in fault_cases if c.id == "v2/keys/reject-dotdot-inside")
    if "format:v2" in config.capabilities:
        assert plan_single(session, "reject", adapter, case).mode == "run"
