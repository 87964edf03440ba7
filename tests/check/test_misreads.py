"""Stores with a known misread: each must come out as wrong data for the implementation that
misreads it (a known-failures.toml entry of that adapter, evidenced by the suite), and the advice
must name the entry where its cases share a distinctive feature with the store."""

from __future__ import annotations

import pytest

from conformance.check import advice
from conformance.check.runner import Options, check
from conformance.corpus.case import default_root
from conformance.harness.config import find_adapter
from conformance.testing.hostile_runs import tree_digest

pytestmark = pytest.mark.slow

ROOT = default_root()
MISREADS = [  # (reader, known failure, case whose store it misreads)
    ("zarrita-js", "int64-fill-value-precision", "v3/gold-zarr-python/uint64-max-fill"),
    ("zarrita-js", "int64-fill-value-precision", "v2/fill/uint64-max"),
    ("zarrita-js", "transpose-codecs-not-composed", "v3/codecs/transpose-twice-120"),
    ("zarrita-js", "bool-big-endian-byteswap", "v3/pipeline/matrix-bytes-be-bool"),
    ("zarrita-js", "fill-value-strings-coerced", "v3/fill/float32-hex-one"),
    ("zarrita-js", "float32-fill-double-rounding", "v3/fill/float32-double-rounding"),
    ("zarr-python", "fill-hex-decoded-by-digit-count", "v3/fill/float16-hex-nan-payload"),
    ("zarr-python", "fill-float32-double-rounding", "v3/fill/float32-double-rounding"),
    (
        "tensorstore",
        "v2-fixed-size-bytes-extra-dimension",
        "v2/gold-tensorstore/bytes-S6-base64-fill",
    ),
    ("tensorstore", "v3-float32-fill-double-rounding", "v3/fill/float32-double-rounding"),
    ("zarrs-python", "fill-nan-payload-lost-on-read", "v3/fill/float32-hex-negative-nan"),
]


@pytest.mark.parametrize(("reader", "entry_id", "case_id"), MISREADS)
def test_a_known_misread_is_wrong_data_and_named(reader, entry_id, case_id):
    store = ROOT / case_id / "store"
    config = find_adapter(reader)
    entry = next(e for e in config.known_failures if e.id == entry_id)
    assert entry.matches("read", case_id), "the entry no longer names the case"
    before = tree_digest(store)
    report = check(str(store), Options(impls=[reader], progress=False))
    assert tree_digest(store) == before
    [cell] = report.cells
    assert cell.outcome == "wrong-data", report.to_text()
    assert report.exit_code == 1
    if advice.signature(entry):
        assert f"known failure {entry_id}" in [a.source for a in cell.advice], report.to_text()
