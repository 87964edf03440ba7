"""The property tests find a silent data bug, and save the shrunk example as case folders that
re-run on their own."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import FAKES

from conformance.corpus import load_cases
from conformance.harness.session import Options, SuiteSession, TestContext
from conformance.suite.test_properties import run_property
from conformance.suite.test_read import test_read as suite_read
from conformance.suite.test_write import test_write as suite_write


@pytest.fixture
def session(monkeypatch, tmp_path):
    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    session = SuiteSession(Options(impls=[str(FAKES / "flip"), "reference"]))
    yield session
    session.close()


def test_reference_roundtrip_passes(session):
    run_property(TestContext(session), "reference", "reference", "v2", "property/roundtrip-v2")


def test_flipped_bit_is_found_shrunk_and_saved(session, tmp_path):
    context = TestContext(session)
    with pytest.raises(AssertionError, match="differ bit-wise") as info:
        run_property(context, "reference", "flip", "v3", "property/roundtrip-v3")
    folder = context.fields["example"]
    assert "shrunk example saved to" in "".join(info.value.__notes__)
    cases = {c.kind: c for c in load_cases(folder)}
    assert set(cases) == {"read", "write"}
    # shrunk: hypothesis reduces the failing array to a single element
    assert cases["read"].expected_data().size == 1
    assert np.asarray(cases["write"].write_request().data).size == 1
    # the saved cases re-run: the reference passes both, the buggy reader fails the read case
    suite_read(harness=TestContext(session), impl="reference", case=cases["read"])
    suite_write(harness=TestContext(session), impl="reference", case=cases["write"])
    with pytest.raises(AssertionError, match="differ bit-wise"):
        suite_read(harness=TestContext(session), impl="flip", case=cases["read"])
