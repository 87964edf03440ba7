"""`zarr-conformance check` against implementations whose bugs are known exactly: the reference
adapter (reads everything exactly) and the deliberately broken ones of tests/broken, each in its
own held process as any implementation. Fast: no adapter environment to make."""

from __future__ import annotations

import json

import pytest

from conformance.check.runner import Options, check
from conformance.cli import main
from conformance.corpus.case import default_root
from conformance.testing.hostile_runs import tree_digest

CORPUS = default_root()
BROKEN = CORPUS.parent / "tests" / "broken"
GOLD_FILL = CORPUS / "v3/gold-zarr-python/uint64-max-fill/store"  # chunks missing, fill 2**64-1


def run(store, *impls, **options):
    return check(str(store), Options(impls=list(impls), progress=False, **options))


def test_a_faithful_reader_reads_exactly_and_exits_0():
    report = run(GOLD_FILL, "reference")
    assert [(c.node, c.impl, c.outcome) for c in report.cells] == [("", "reference", "exact")]
    assert report.exit_code == 0


@pytest.mark.parametrize(
    ("bug", "store", "where"),
    [
        ("fill-value-ignored", GOLD_FILL, "7 of 63 elements differ bit for bit, first at (8, 0)"),
        (
            "byte-order-ignored",
            CORPUS / "v2/gold-zarr-python/float32-big-endian-zstd-minus-infinity/store",
            "elements differ bit for bit",
        ),
        (
            "order-f-ignored",
            CORPUS / "v2/gold-zarr-python/int64-lzma-order-F-3d/store",
            "elements differ bit for bit",
        ),
    ],
)
def test_a_misreading_reader_is_wrong_data_with_where_and_how_many(bug, store, where):
    before = tree_digest(store)
    report = run(store, str(BROKEN / bug))
    (cell,) = report.cells
    assert cell.outcome == "wrong-data", cell
    assert where in cell.message
    assert cell.comparison["differing"] > 0 and cell.comparison["first"]
    assert report.exit_code == 1
    assert tree_digest(store) == before  # read-only: nothing written in the store


def test_dropped_attributes_are_metadata_that_differs():
    store = CORPUS / "v3/gold-zarr-python/attributes-dimension-names/store"
    report = run(store, str(BROKEN / "attributes-dropped"), "reference")
    outcomes = {c.impl: c.outcome for c in report.cells}
    assert outcomes == {"attributes-dropped": "metadata-differs", "reference": "exact"}
    assert "attributes" in report.cell("", "attributes-dropped").message
    assert report.exit_code == 4


def test_a_group_is_listed_and_each_array_read():
    store = CORPUS / "v3/gold-zarr-python/hierarchy/store"
    report = run(store, "reference")
    kinds = {n.path: n.kind for n in report.nodes}
    assert kinds == {"": "group", "g": "group", "x": "array", "g/arr": "array"}
    assert {c.outcome for c in report.cells} == {"exact"}


def test_the_command_line_json_html_and_exit_code(tmp_path, capsys):
    page = tmp_path / "page.html"
    code = main(
        ["check", "-q", str(GOLD_FILL), "--impl", str(BROKEN / "fill-value-ignored"), "--json",
         "--html", str(page)]
    )  # fmt: skip
    result = json.loads(capsys.readouterr().out)
    assert code == result["exit_code"] == 1
    assert result["cells"][0]["outcome"] == "wrong-data"
    assert result["summary"] == {"fill-value-ignored": {"wrong-data": 1}}
    html = page.read_text()
    assert "WRONG DATA" in html and "<table>" in html and "fill-value-ignored" in html


def test_usage_errors_exit_2(capsys):
    assert main(["check", "-q", "/no/such/store"]) == 2
    assert main(["check", "-q", str(GOLD_FILL), "--impl", "no-such-implementation"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_sample_of_chunks_within_the_budget(tmp_path):
    """--sample reads chunk regions through the adapter's bench op and compares each."""
    report = run(GOLD_FILL, "reference", sample=2)
    (node,) = report.nodes
    assert node.read.startswith("a sample of 2 chunk regions")
    assert [c.outcome for c in report.cells] == ["exact"]
    small = run(GOLD_FILL, "reference", sample=4, budget=100)  # 4 chunks of 128 bytes, cut
    assert small.nodes[0].read == "a sample of 2 chunk regions, 96 of 504 bytes"
    assert [c.outcome for c in small.cells] == ["exact"]


FAKES = CORPUS.parent / "tests" / "harness" / "fakes"  # misbehave on stores named *trigger*


def test_over_the_budget_without_region_reads_is_not_read_and_incomplete():
    """An adapter without the bench op reads whole arrays only: over the budget, nothing is read."""
    report = run(GOLD_FILL, str(FAKES / "whole-reads"), budget=64)
    (cell,) = report.cells
    assert cell.outcome == "skipped" and "over the budget" in cell.message, cell
    assert report.exit_code == 7
    assert [c.outcome for c in run(GOLD_FILL, str(FAKES / "whole-reads")).cells] == ["exact"]


def test_crashes_memory_hogs_and_hangs_are_held_and_named(tmp_path):
    import shutil

    store = shutil.copytree(GOLD_FILL, tmp_path / "trigger")
    report = run(store, str(FAKES / "segfault"), str(FAKES / "hog"), memory=512 << 20)
    cells = {c.impl: c for c in report.cells}
    assert cells["segfault"].outcome == "crashed" and "SIGSEGV" in cells["segfault"].message
    assert cells["hog"].outcome == "crashed" and "out of memory" in cells["hog"].message
    assert report.exit_code == 3
    hung = run(store, str(FAKES / "hang"), timeout=12)
    assert [c.outcome for c in hung.cells] == ["timed-out"], hung.to_text()
