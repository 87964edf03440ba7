"""Cases whose node exists only through the keys below it (the v3 drafts' implicit groups) need a
store that can list, and say so with `feature:implicit-groups`: the remote matrix leaves them out
over plain HTTP on that declaration alone."""

from __future__ import annotations

import pytest

from conformance.corpus import default_root, load_cases
from conformance.harness.remote import NEEDS_LISTING, remote_kinds

LISTING_CASES = ["v3-draft/zp2/implicit-group", "v3-draft/zp2/bool-in-implicit-group"]


@pytest.fixture(scope="module")
def cases():
    return {c.id: c for c in load_cases(default_root())}


@pytest.mark.parametrize("case_id", LISTING_CASES)
def test_implicit_group_cases_declare_listing_and_skip_http(cases, case_id):
    case = cases[case_id]
    assert NEEDS_LISTING in case.needs
    assert "http" not in remote_kinds("read", case)


def test_a_draft_case_with_explicit_ancestors_still_runs_over_http(cases):
    assert "http" in remote_kinds("read", cases["v3-draft/zp2/gzip-int32"])
