"""A store's needs in the capability vocabulary, and advice from known failures and capabilities."""

from __future__ import annotations

import pytest

from conformance.check import advice
from conformance.check.features import array_features
from conformance.corpus.capabilities import unknown
from conformance.corpus.case import load_cases
from conformance.harness.config import find_adapter
from conformance.reference import get_format, open_store

# Gold and writer stores whose case.json needs say more than their own metadata, and why.
CASE_NEEDS_BEYOND_THE_NODE = {
    "v3/writers-zarr-python/bytes-S5": "zarr-python 3 names |S5 'null_terminated_bytes'",
    "v3/writers-zarr-python/void-V3": "zarr-python 3 names V3 'raw_bytes'",
}


def features_of(case):
    fmt = get_format(case.format)
    with open_store(case.store_path) as store:
        return array_features(fmt.open_array(store, fmt.normalize_path(case.node)))


def written_cases():
    return [
        c
        for c in load_cases(kinds=["read"])
        if c.id.split("/")[1].startswith(("gold-", "writers-"))
        and c.expect.get("node_type") == "array"
        and c.node == ""
    ]


@pytest.mark.parametrize("case", written_cases(), ids=lambda c: c.id)
def test_the_needs_of_a_written_store_cover_its_cases_needs(case):
    needs, _ = features_of(case)
    if case.id in CASE_NEEDS_BEYOND_THE_NODE:
        pytest.skip(CASE_NEEDS_BEYOND_THE_NODE[case.id])
    assert {n for n in case.needs if not n.startswith("store:")} <= needs
    assert not unknown(needs - {"dtype:null_terminated_bytes", "dtype:raw_bytes"})


def test_fill_traits_name_what_trips_readers():
    [case] = [c for c in written_cases() if c.id == "v3/gold-zarr-python/uint64-max-fill"]
    needs, traits = features_of(case)
    assert {"format:v3", "dtype:uint64", "codec:bytes"} <= needs
    assert {"fill:beyond-2^53", "fill:nonzero"} <= traits


def test_a_known_failure_is_matched_by_its_cases_distinctive_features():
    zarrita = find_adapter("zarrita-js")
    entry = next(e for e in zarrita.known_failures if e.id == "int64-fill-value-precision")
    assert advice.signature(entry) == {"fill:beyond-2^53"}
    store = {"format:v3", "op:read", "dtype:int64", "codec:zstd", "fill:beyond-2^53"}
    found = advice.advise(zarrita, zarrita.capabilities, store, "directory")
    assert [a.source for a in found] == ["known failure int64-fill-value-precision"]
    assert "within +-2^53" in found[0].change
    assert advice.advise(zarrita, zarrita.capabilities, store - {"fill:beyond-2^53"}, "http") == []


def test_an_entry_whose_cases_share_nothing_distinctive_is_never_matched():
    """int32 is the corpus builders' default type: a fifth of the read cases have it."""
    tensorstore = find_adapter("tensorstore")
    entry = next(
        e for e in tensorstore.known_failures if e.id == "v3-chunk-key-encoding-must-understand"
    )
    assert advice.signature(entry) == frozenset()


def test_a_missing_capability_says_what_to_write_instead():
    zarr_js = find_adapter("zarr-js")
    store = {"format:v2", "op:read", "dtype:float32", "codec:zstd"}
    [found] = advice.advise(zarr_js, zarr_js.capabilities, store, "directory")
    assert found.source == "capabilities" and found.features == ("codec:zstd",)
    assert "instead of zstd" in found.change and "gzip" in found.change
