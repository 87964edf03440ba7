"""The bench page, from reports/bench/bench.json (schema zarr-conformance-bench/1), kept in its
own module because that format is being reworked.

One statistic everywhere: the median of the repetitions with the full range (min–max) beside it,
for the implementations and for the physical limits alike (the single-thread limit of a workload is
recomputed here from the limits' medians; bench.json's own limit_mb_s uses their maxima). Where an
implementation's range overlaps the range of the fastest, the difference is within noise and the
cell says so; the load the machine was under is stated first."""

from __future__ import annotations

from statistics import median

from .html import Html, join, table, tag
from .layout import page

HERE = "bench.html"


def _rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}" if value >= 1 else f"{value:.2f}"


def limit_median(limits: dict, codec: str, store: str, operation: str) -> float | None:
    """Single-thread pipeline limit (MB/s): encode (decode) the data and move the stored bytes to
    (from) the store, each at its median measured speed."""
    entry = (limits.get("codecs") or {}).get(codec)
    if not entry:
        return None
    write = operation == "write"
    move = (
        limits.get("memcpy")
        if store == "memory"
        else limits.get("file_write" if write else "file_read")
    )
    if not move:
        return None
    seconds = entry["stored_bytes"] / (move["median"] * 1e6)
    rate = entry.get("encode" if write else "decode")
    if rate:
        seconds += limits["bytes"] / (rate["median"] * 1e6)
    return limits["bytes"] / seconds / 1e6


def _overlaps(a: dict, b: dict) -> bool:
    return a["min"] <= b["max"] and b["min"] <= a["max"]


def _cell(entry: dict | None, best: dict | None) -> Html:
    if entry is None:
        return tag("td", "", class_="o-none")
    status = entry.get("status")
    if status == "wrong-data":
        return tag(
            "td",
            "✗ wrong data: no speed shown",
            class_="o-wrong-data",
            title=entry.get("reason", ""),
        )
    if status == "errored":
        return tag("td", "✗ crashed", class_="o-errored", title=entry.get("reason", ""))
    if status != "ok":
        return tag(
            "td",
            "n/a" if status == "not-applicable" else str(status),
            class_="o-unsupported",
            title=entry.get("reason", ""),
        )
    mb = entry["mb_s"]
    note = ""
    if best is not None:
        if mb is best:
            note = "fastest"
        elif _overlaps(mb, best):
            note = "≈ fastest"
    return tag(
        "td",
        tag("strong", _rate(mb["median"])),
        tag("br"),
        tag("span", f"{_rate(mb['min'])}–{_rate(mb['max'])}", class_="small"),
        tag("br") if note else "",
        tag("span", note, class_="small") if note else "",
        class_="num",
    )


def render(site) -> tuple[str, str] | None:
    report = site.bench
    if not report:
        return None
    options = report.get("options") or {}
    machine = report.get("machine") or {}
    loads = [x for x in machine.get("load_average_1min") or [] if x is not None]
    cores = machine.get("cores") or 0
    results = {
        (r["impl"], r["codec"], r["store"], r["operation"]): r for r in report.get("results", [])
    }
    impls = [n for n in report.get("implementations", {}) if any(k[0] == n for k in results)]
    spreads = [
        r["mb_s"]["max"] / r["mb_s"]["min"]
        for r in report.get("results", [])
        if r.get("status") == "ok" and r["mb_s"]["min"] > 0
    ]
    load_text = f"{min(loads):.1f}–{max(loads):.1f}" if loads else "not recorded"
    busy = loads and cores and max(loads) > cores
    facts = tag(
        "p",
        f"Run {report.get('created', '?')} on {machine.get('cpu', '?')}, {cores or '?'} cores, {machine.get('memory_gib', '?')} GiB; "
        f"1-minute load average during the run: {load_text}"
        + (
            f" on {cores} cores: the machine was busy, so every figure is slowed and noisy. "
            if busy
            else ". "
        )
        + f"Every figure is the median of {options.get('repeat', '?')} repetitions with the range (min–max) under it"
        + (
            f"; the median range spans {median(spreads):.1f}× from slowest to fastest repetition"
            if spreads
            else ""
        )
        + ". “≈ fastest”: its range overlaps the fastest's range, so the difference is within noise.",
    )
    parts = [tag("h1", "Throughput"), facts]
    workload = report.get("workload") or {}
    parts.append(
        tag(
            "p",
            f"{workload.get('dtype', '?')} array {' × '.join(map(str, workload.get('shape', [])))} "
            f"({(workload.get('nbytes') or 0) / 2**20:.0f} MiB) in {(workload.get('chunk_bytes') or 0) / 2**20:.0f} MiB chunks. "
            "MB/s = 10⁶ bytes of array data per second; each read and write was checked bit for bit.",
            class_="small",
        )
    )
    limits = report.get("limits") or {}
    for store in options.get("stores", []):
        rows = []
        for codec in options.get("codecs", []):
            for operation in options.get("operations", []):
                entries = [results.get((n, codec, store, operation)) for n in impls]
                if not any(entries):
                    continue
                ok = [e["mb_s"] for e in entries if e and e.get("status") == "ok"]
                best = max(ok, key=lambda m: m["median"]) if len(ok) > 1 else None
                limit = limit_median(limits, codec, store, operation)
                rows.append(
                    tag(
                        "tr",
                        tag("th", f"{codec} {operation}", scope="row"),
                        tag("td", _rate(limit) if limit else "–", class_="num"),
                        *(_cell(e, best) for e in entries),
                    )
                )
        if rows:
            parts += [
                tag("h2", f"{store} store", id=store),
                table(
                    [
                        tag("th", "workload", scope="col"),
                        tag("th", "single-thread limit (median)", scope="col"),
                    ]
                    + [tag("th", n, scope="col") for n in impls],
                    rows,
                    f"bench {store}",
                ),
            ]
    parts.append(_limits(limits))
    parts.append(_ranges(site.ranges))
    plots = list(report.get("plots") or [])
    if plots:
        parts.append(tag("h2", "Plots", id="plots"))
        for p in plots:
            parts.append(
                tag(
                    "p",
                    tag(
                        "img",
                        src=site.repo_link(HERE, p),
                        alt=f"bench plot {p.rsplit('/', 1)[-1]}",
                        style="max-width:100%",
                    ),
                )
            )
    parts.append(_not_measured(report))
    return HERE, page(site, HERE, "Bench", join(parts))


def _limits(limits: dict) -> Html:
    rows = []
    for key, label in (
        ("memcpy", "memory copy"),
        ("file_write", "file write"),
        ("file_read", "file read"),
    ):
        s = limits.get(key)
        if s:
            rows.append(
                tag(
                    "tr",
                    tag("th", label, scope="row"),
                    tag("td", _rate(s["median"]), class_="num"),
                    tag("td", f"{_rate(s['min'])}–{_rate(s['max'])}", class_="num"),
                )
            )
    for codec, entry in (limits.get("codecs") or {}).items():
        for way in ("encode", "decode"):
            s = entry.get(way)
            if s:
                rows.append(
                    tag(
                        "tr",
                        tag("th", f"{codec} {way}, 1 thread", scope="row"),
                        tag("td", _rate(s["median"]), class_="num"),
                        tag("td", f"{_rate(s['min'])}–{_rate(s['max'])}", class_="num"),
                    )
                )
    if not rows:
        return Html("")
    return join(
        [
            tag("h2", "Physical limits", id="limits"),
            tag(
                "p",
                "Measured in the same run on the same data: MB/s, median and range.",
                class_="small",
            ),
            table(
                [tag("th", h, scope="col") for h in ("limit", "median", "min–max")], rows, "limits"
            ),
        ]
    )


def _not_measured(report: dict) -> Html:
    reasons: dict[str, list[str]] = {}
    for r in report.get("results", []):
        if r.get("status") not in ("ok", None):
            reasons.setdefault(f"{r['status']}: {r.get('reason', '')}", []).append(
                f"{r['impl']} {r['codec']} {r['store']} {r['operation']}"
            )
    for name, info in (report.get("implementations") or {}).items():
        if info.get("status") != "ok":
            reasons.setdefault(f"not benchmarked: {info.get('reason', '')}", []).append(name)
    if not reasons:
        return Html("")
    items = [
        tag("li", reason, tag("br"), tag("span", ", ".join(sorted(set(w))), class_="small muted"))
        for reason, w in sorted(reasons.items())
    ]
    return join([tag("h2", "Not measured, and why", id="not-measured"), tag("ul", *items)])


def _ranges(ranges: dict | None) -> Html:
    """Bytes fetched to read one inner chunk of a sharded array over HTTP (conformance.bench.ranges)."""
    if not ranges:
        return Html("")
    sizes = ranges.get("sizes") or {}
    rows = []
    for name, r in sorted((ranges.get("adapters") or {}).items()):
        if r.get("status") == "measured":
            cells = [
                tag("td", str(r["bytes_fetched"]), class_="num"),
                tag("td", str(r["bytes_needed"]), class_="num"),
                tag("td", f"{r['ratio']:.2f}", class_="num"),
                tag("td", f"{r['requests']} ({r['ranged_requests']} ranged)", class_="num"),
            ]
        else:
            cells = [
                tag(
                    "td",
                    f"{r.get('status')}: {(r.get('message') or '')[:200]}",
                    colspan="4",
                    class_=f"o-{r.get('status')}"
                    if r.get("status") in ("wrong-data", "errored")
                    else "o-unsupported",
                )
            ]
        rows.append(tag("tr", tag("th", name, scope="row"), *cells))
    return join(
        [
            tag("h2", "Range requests: one inner chunk of a sharded array over HTTP", id="ranges"),
            tag(
                "p",
                f"A 64×64 int32 array in one shard of 8×8 inner chunks ({sizes.get('shard')} bytes); reading [0:8, 0:8] needs the metadata ({sizes.get('metadata')} B), the shard index ({sizes.get('index')} B) and one inner chunk ({sizes.get('chunk')} B). Fetched: the body bytes the server answered; one measurement, no spread.",
                class_="small",
            ),
            table(
                [
                    tag("th", h, scope="col")
                    for h in (
                        "implementation",
                        "bytes fetched",
                        "bytes needed",
                        "ratio",
                        "GET requests",
                    )
                ],
                rows,
                "range requests",
            ),
        ]
    )
