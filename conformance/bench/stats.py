"""Medians with confidence intervals, rankings that say where they are within noise, and the
comparison of two runs.

The interval of a median is the distribution-free order-statistic interval: with n repetitions
sorted x(1) <= ... <= x(n), [x(k), x(n+1-k)] holds the true median with probability
1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2). The narrowest such interval reaching `LEVEL` is used;
when n is too small for that, [min, max] with the confidence it has (n = 3: 75 %, n = 5: 93.8 %).
It assumes nothing about the shape of the noise, which on a shared machine is anything but normal.

Two figures of one cell are *separated* when their intervals do not overlap; otherwise they are
within noise of each other, and no ranking between them is claimed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

LEVEL = 0.95


def median(values: list[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    return ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def coverage(n: int, k: int) -> float:
    """Confidence that [x(k), x(n+1-k)] (1-based order statistics) holds the median."""
    below = sum(math.comb(n, i) for i in range(k)) / 2**n
    return max(0.0, 1 - 2 * below)


def median_interval(values: list[float], level: float = LEVEL) -> tuple[float, float, float]:
    """(low, high, confidence) of the order-statistic interval of the median."""
    ordered = sorted(values)
    n = len(ordered)
    k = 1
    while k + 1 <= (n + 1) // 2 and coverage(n, k + 1) >= level:
        k += 1
    return ordered[k - 1], ordered[n - k], coverage(n, k)


def summary(values: list[float]) -> dict:
    """min, median, max and the median's interval of a sample."""
    low, high, confidence = median_interval(values)
    return {
        "min": min(values),
        "median": median(values),
        "max": max(values),
        "ci": [low, high],
        "ci_level": round(confidence, 4),
    }


def separated(a: dict, b: dict) -> bool:
    """Whether two summaries' intervals do not overlap."""
    return a["ci"][1] < b["ci"][0] or b["ci"][1] < a["ci"][0]


# ---- rankings ---------------------------------------------------------------------------------

# The figures a ranking can be made of: higher is better for both.
METRICS = {
    "wall": "mb_s",  # MB of array data per second of wall time
    "cpu": "mb_per_cpu_s",  # MB of array data per second of CPU time (every core counted)
}


def cell_key(entry: dict) -> tuple[str, str, str]:
    return entry["codec"], entry["store"], entry["operation"]


def cells(results: Iterable[dict]) -> dict[tuple[str, str, str], list[dict]]:
    """The measured entries of each (codec, store, operation), in result order."""
    out: dict[tuple[str, str, str], list[dict]] = {}
    for entry in results:
        if entry.get("status") == "ok":
            out.setdefault(cell_key(entry), []).append(entry)
    return out


def rank(entries: list[dict], metric: str) -> list[dict]:
    """Each entry's place in its cell by median (1 = fastest), and the implementations it is
    within noise of (intervals overlap): {"impl", "rank", "within_noise_of": [...]}."""
    field = METRICS[metric]
    scored = [e for e in entries if e.get(field)]
    scored.sort(key=lambda e: -e[field]["median"])
    return [
        {
            "impl": e["impl"],
            "rank": place,
            "within_noise_of": [
                o["impl"] for o in scored if o is not e and not separated(e[field], o[field])
            ],
        }
        for place, e in enumerate(scored, 1)
    ]


def rankings(results: list[dict]) -> list[dict]:
    """One ranking per cell and metric, for the report."""
    out = []
    for (codec, store, operation), entries in cells(results).items():
        for metric in METRICS:
            order = rank(entries, metric)
            if order:
                out.append(
                    {
                        "codec": codec,
                        "store": store,
                        "operation": operation,
                        "metric": metric,
                        "order": order,
                    }
                )
    return out


# ---- two runs ---------------------------------------------------------------------------------


def compare(first: dict, second: dict, metrics: Iterable[str] = tuple(METRICS)) -> dict:
    """Whether a rerun keeps every ranking the first run's intervals support, and back.

    For each cell and metric, every pair of implementations whose intervals do not overlap in
    one run must be in the same order (by median) in the other run. Pairs within noise in both
    runs claim no order and are not checked. Returns the counts and each disagreement."""
    runs = (cells(first.get("results", [])), cells(second.get("results", [])))
    checked, disagreements = 0, []
    for key in sorted(set(runs[0]) & set(runs[1])):
        for metric in metrics:
            field = METRICS[metric]
            by_impl = [{e["impl"]: e[field] for e in run[key] if e.get(field)} for run in runs]
            common = sorted(set(by_impl[0]) & set(by_impl[1]))
            for i, a in enumerate(common):
                for b in common[i + 1 :]:
                    claims = [separated(run[a], run[b]) for run in by_impl]
                    if not any(claims):
                        continue
                    checked += 1
                    faster = [a if run[a]["median"] > run[b]["median"] else b for run in by_impl]
                    if faster[0] != faster[1]:
                        disagreements.append(
                            {
                                "codec": key[0],
                                "store": key[1],
                                "operation": key[2],
                                "metric": metric,
                                "pair": [a, b],
                                "faster": faster,
                                "separated": claims,
                                "medians": [
                                    [run[a]["median"], run[b]["median"]] for run in by_impl
                                ],
                                "intervals": [[run[a]["ci"], run[b]["ci"]] for run in by_impl],
                            }
                        )
    return {
        "cells": len(set(runs[0]) & set(runs[1])),
        "only_in_one": sorted("/".join(k) for k in set(runs[0]) ^ set(runs[1])),
        "pairs_checked": checked,
        "disagreements": disagreements,
    }


def describe_comparison(result: dict, names: tuple[str, str]) -> str:
    lines = [
        f"bench comparison of {names[0]} and {names[1]}: {result['cells']} cells in both, "
        f"{result['pairs_checked']} ordered pairs (intervals apart in at least one run), "
        f"{len(result['disagreements'])} in the other order"
    ]
    for d in result["disagreements"]:
        a, b = d["pair"]
        where = f"{d['codec']} / {d['store']} / {d['operation']} ({d['metric']})"
        runs = []
        for i in range(2):
            (ma, mb), (ia, ib) = d["medians"][i], d["intervals"][i]
            apart = "apart" if d["separated"][i] else "within noise"
            runs.append(
                f"run {i + 1}: {a} {ma:.4g} [{ia[0]:.4g}, {ia[1]:.4g}] vs {b} {mb:.4g} "
                f"[{ib[0]:.4g}, {ib[1]:.4g}] ({apart})"
            )
        lines.append(f"  {where}: " + "; ".join(runs))
    if result["only_in_one"]:
        lines.append(f"  cells measured in one run only: {', '.join(result['only_in_one'])}")
    return "\n".join(lines)
