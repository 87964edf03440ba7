"""The bench's statistics: the order-statistic interval of the median, rankings within noise, and
the comparison of two runs (which must catch a ranking that flips)."""

from __future__ import annotations

import copy
import time

import pytest

from conformance.bench import stats
from conformance.bench.cli import compare as compare_files
from conformance.harness.adapter_api import OperationTimer


def test_coverage_of_order_statistic_intervals():
    # P(median in [x(k), x(n+1-k)]) = 1 - 2 P(Binomial(n, 1/2) <= k - 1)
    assert stats.coverage(5, 1) == pytest.approx(1 - 2 / 32)
    assert stats.coverage(3, 1) == pytest.approx(0.75)
    assert stats.coverage(9, 2) == pytest.approx(1 - 2 * 10 / 512)
    assert stats.coverage(1, 1) == 0.0


def test_median_interval_is_the_narrowest_reaching_the_level():
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert stats.median_interval(values) == (1.0, 5.0, pytest.approx(0.9375))
    nine = [float(v) for v in range(9)]
    low, high, level = stats.median_interval(nine)
    assert (low, high) == (1.0, 7.0) and level == pytest.approx(1 - 20 / 512)  # k = 2
    summary = stats.summary([3.0, 1.0, 2.0, 10.0])
    assert summary["median"] == 2.5 and summary["ci"] == [1.0, 10.0]


def entry(impl, median, low, high, codec="zstd"):
    figure = {"median": median, "ci": [low, high], "min": low, "max": high}
    return {
        "impl": impl,
        "codec": codec,
        "store": "directory",
        "operation": "read",
        "status": "ok",
        "mb_s": figure,
        "mb_per_cpu_s": figure,
    }


def test_rank_says_who_is_within_noise():
    order = stats.rank(
        [entry("a", 10, 9, 11), entry("b", 20, 10.5, 25), entry("c", 50, 40, 60)], "wall"
    )
    assert [(o["impl"], o["rank"]) for o in order] == [("c", 1), ("b", 2), ("a", 3)]
    assert order[0]["within_noise_of"] == []
    assert order[1]["within_noise_of"] == ["a"] and order[2]["within_noise_of"] == ["b"]


def run_of(*entries):
    return {"results": list(entries)}


def test_compare_accepts_a_rerun_that_keeps_every_separated_order():
    first = run_of(entry("a", 10, 9, 11), entry("b", 20, 18, 22), entry("c", 21, 17, 23))
    second = run_of(entry("a", 12, 10, 13), entry("b", 19, 17, 21), entry("c", 18, 16, 25))
    result = stats.compare(first, second)
    # a-b and a-c are apart (checked, same order); b-c is within noise in both (not checked)
    assert result["pairs_checked"] == 4 and result["disagreements"] == []


def test_compare_catches_a_flipped_ranking():
    first = run_of(entry("a", 10, 9, 11), entry("b", 20, 18, 22))
    second = copy.deepcopy(first)
    second["results"][0]["mb_s"] = {"median": 25, "ci": [24, 26], "min": 24, "max": 26}
    result = stats.compare(first, second, metrics=["wall"])
    assert len(result["disagreements"]) == 1
    flip = result["disagreements"][0]
    assert flip["pair"] == ["a", "b"] and flip["faster"] == ["b", "a"]
    # a flip of medians inside overlapping intervals of one run still counts: the other run
    # claimed an order
    second["results"][0]["mb_s"] = {"median": 21, "ci": [15, 26], "min": 15, "max": 26}
    assert len(stats.compare(first, second, metrics=["wall"])["disagreements"]) == 1
    assert "in the other order" in stats.describe_comparison(result, ("A", "B"))


def test_compare_command_exit_codes(tmp_path):
    import json

    first = {
        "schema": "zarr-conformance-bench/2",
        **run_of(entry("a", 10, 9, 11), entry("b", 20, 18, 22)),
    }
    flipped = copy.deepcopy(first)
    flipped["results"][1]["mb_s"] = {"median": 5, "ci": [4, 6], "min": 4, "max": 6}
    paths = []
    for name, report in (("a", first), ("b", first), ("c", flipped)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(report))
    assert compare_files([paths[0], paths[1]]) == 0
    assert compare_files([paths[0], paths[2]]) == 1
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"schema": "zarr-conformance-bench/1", "results": []}))
    with pytest.raises(SystemExit, match="schema"):
        compare_files([old, paths[0]])


def test_operation_timer_counts_cpu_of_every_thread():
    import threading

    def spin(seconds):
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    with OperationTimer() as timer:
        threads = [threading.Thread(target=spin, args=(0.1,)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    result = timer.result()
    assert result["seconds"] > 0
    # two threads spun 0.1 s of CPU each: counted whatever the wall time was
    assert result["cpu"]["user"] + result["cpu"]["system"] >= 0.19
