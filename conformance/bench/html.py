"""A bench report rendered for people: an HTML fragment for the report page (bench_fragment) and
markdown tables (markdown_table, printed by `zarr-conformance bench` and written beside the JSON).

Every figure shown is a median with the confidence interval of the median over the repetitions
(conformance/bench/stats.py), its place in the cell ("1" when its interval is apart from every
other, "2–4" when it is within noise of those placed 2 to 4), the ratio of the median to the
single-thread limit of the workload, the throughput per CPU second, and for writes the stored
(compressed) size. A workload an implementation cannot do says why; a wrong answer says WRONG
DATA and shows no speed. Reports of schema 1 (no intervals, no CPU time) render with min–max.
"""

from __future__ import annotations

from html import escape

MB = 1e6


def _results(report: dict) -> dict:
    return {
        (r["impl"], r["codec"], r["store"], r["operation"]): r for r in report.get("results", [])
    }


def _impls(report: dict) -> list[str]:
    seen = {r["impl"] for r in report.get("results", [])}
    return [name for name in report.get("implementations", {}) if name in seen]


def _load_range(machine: dict) -> str:
    loads = [x for x in machine.get("load_average_1min") or [] if x is not None]
    return f"{min(loads):.1f}–{max(loads):.1f}" if loads else "?"


def _rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}" if value >= 1 else f"{value:.2f}"


def _places(results: dict, metric: str = "wall") -> dict:
    """The place of every ranked entry: its rank, or the span of ranks it is within noise of."""
    out = {}
    for key, entry in results.items():
        rank = (entry.get("rank") or {}).get(metric)
        if rank is None:
            continue
        ranks = [rank]
        for other in (entry.get("within_noise_of") or {}).get(metric, []):
            found = results.get((other, *key[1:]))
            if found and (found.get("rank") or {}).get(metric):
                ranks.append(found["rank"][metric])
        low, high = min(ranks), max(ranks)
        out[key] = str(low) if low == high else f"{low}–{high}"
    return out


def _interval(rate: dict) -> tuple[float, float]:
    return tuple(rate.get("ci") or (rate["min"], rate["max"]))


def _limit_of(results: dict, codec: str, store: str, operation: str) -> float | None:
    for (_, c, s, o), r in results.items():
        if (c, s, o) == (codec, store, operation) and r.get("limit_mb_s"):
            return r["limit_mb_s"]
    return None


# ---- HTML -----------------------------------------------------------------------------------------

STYLE = """<style>
#bench table.bench{border-collapse:collapse;font-size:0.85em;margin:0.5em 0 1.2em}
#bench table.bench th,#bench table.bench td{border:1px solid #ccc;padding:3px 6px;text-align:right;vertical-align:top}
#bench table.bench th{background:#f3f3f3}
#bench table.bench td.label,#bench table.bench th.label{text-align:left}
#bench .range,#bench .ratio,#bench .size,#bench .cpu,#bench .place{color:#555;font-size:0.85em;white-space:nowrap}
#bench .na{color:#777}
#bench .wrong{color:#fff;background:#b00000;padding:0 3px}
#bench .err{color:#b00000}
#bench figure{margin:0.5em 0}
#bench figure svg{max-width:100%;height:auto}
</style>"""


def _cell_html(entry: dict | None, place: str | None = None) -> str:
    if entry is None:
        return '<td class="na">–</td>'
    status = entry["status"]
    reason = escape(entry.get("reason", ""), quote=True)
    if status == "wrong-data":
        probe = " (probe)" if entry.get("undeclared") else ""
        return f'<td title="{reason}"><span class="wrong">WRONG DATA</span>{probe}</td>'
    if status == "errored":
        return f'<td class="err" title="{reason}">error</td>'
    if status != "ok":
        word = "n/a" if status == "not-applicable" else status
        return f'<td class="na" title="{reason}">{word}</td>'
    rate = entry["mb_s"]
    low, high = _interval(rate)
    parts = [
        f"<b>{_rate(rate['median'])}</b>"
        + (f' <span class="place">#{place}</span>' if place else ""),
        f'<span class="range">{_rate(low)}–{_rate(high)}</span>',
    ]
    if entry.get("mb_per_cpu_s"):
        parts.append(
            f'<span class="cpu">{_rate(entry["mb_per_cpu_s"]["median"])} /cpu-s, '
            f"{entry.get('cores_used', 0):.1f} cores</span>"
        )
    if entry.get("ratio_to_limit"):
        parts.append(f'<span class="ratio">{entry["ratio_to_limit"]["median"]:.2f}× limit</span>')
    if entry.get("stored_bytes") is not None:
        parts.append(f'<span class="size">{entry["stored_bytes"] / MB:,.1f} MB stored</span>')
    return "<td>" + "<br>".join(parts) + "</td>"


def _validate_html(report: dict) -> str:
    block = report.get("validate") or {}
    rows = []
    for row in block.get("rows", []):
        label = f"{escape(row['codec'])} ({escape(row['store'])})"
        if row["status"] != "ok":
            rows.append(
                f'<tr><td class="label">{label}</td><td colspan="5" class="err">'
                f"{escape(row['status'])}: {escape(row.get('reason', ''))}</td></tr>"
            )
            continue
        validate = row["validate"]
        reads = row.get("reads", {})
        read = reads.get(row.get("reader")) or {}
        noise = " (within noise)" if row.get("within_noise") else ""
        rows.append(
            f'<tr><td class="label">{label}</td>'
            f"<td>{_rate(validate['mb_s']['median'])}</td>"
            f"<td>{escape(str(row.get('reader')))}: {_rate(read['mb_s']['median']) if read else '–'}</td>"
            f"<td><b>{row.get('ratio_wall', 0):.2f}×</b>{noise}</td>"
            f"<td>{row.get('ratio_cpu', 0):.2f}×</td>"
            f"<td>{validate.get('peak_rss_mib', 0):,.0f} MiB</td></tr>"
        )
    if not rows:
        return ""
    return (
        f"<h3>validate ({block.get('size_mib')} MiB stores)</h3>"
        f"<p><small>{escape(block.get('method', ''))}</small></p>"
        '<table class="bench"><tr><th class="label">store</th><th>validate MB/s</th>'
        "<th>fastest read MB/s</th><th>time ratio</th><th>CPU ratio</th><th>validate peak</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def _limits_html(report: dict) -> str:
    limits = report.get("limits")
    if not limits:
        return ""
    rows = []
    for name, label in (
        ("memcpy", "memory copy"),
        ("file_write", "raw file write"),
        ("file_read", "raw file read"),
    ):
        s = limits.get(name)
        if s:
            rows.append(
                f'<tr><td class="label">{label}</td><td>{_rate(s["median"])}</td>'
                f"<td>{_rate(s['min'])}–{_rate(s['max'])}</td><td></td></tr>"
            )
    for codec, entry in limits.get("codecs", {}).items():
        for way in ("encode", "decode"):
            s = entry.get(way)
            if s:
                rows.append(
                    f'<tr><td class="label">{escape(codec)} {way} (numcodecs, 1 thread)</td>'
                    f"<td>{_rate(s['median'])}</td><td>{_rate(s['min'])}–{_rate(s['max'])}</td>"
                    f"<td>{entry['stored_bytes'] / MB:,.1f} MB ({entry['compression_ratio']:.2f}×)</td></tr>"
                )
    return (
        '<table class="bench"><tr><th class="label">physical limit (same run, same data)</th><th>median MB/s</th>'
        "<th>min–max</th><th>compressed size</th></tr>" + "".join(rows) + "</table>"
    )


def bench_fragment(bench_json: dict) -> str:
    """The bench figures as an HTML fragment (a <section>) for the report page: per store a table
    (median, min–max MB/s, ratio to the single-thread limit, stored size) and the plot inlined as
    SVG (when matplotlib is installed), the physical limits, versions and settings."""
    report = bench_json
    results = _results(report)
    places = _places(results)
    impls = _impls(report)
    options = report.get("options", {})
    workload = report.get("workload", {})
    machine = report.get("machine", {})
    out = ['<section id="bench">', STYLE, "<h2>Throughput</h2>"]
    shape = " × ".join(str(n) for n in workload.get("shape", []))
    out.append(
        f"<p>float32 array {escape(shape)} ({workload.get('nbytes', 0) / 2**20:.0f} MiB, "
        f"{escape(workload.get('data', ''))}) in 1 MiB chunks; sharded: "
        f"{' × '.join(str(n) for n in workload.get('shard_shape', []))} shards. "
        f"{options.get('repeat', '?')} repetitions, each in a fresh adapter process, interleaved across "
        f"implementations; the adapter times the operation alone. Every read and write was checked bit for bit. "
        f"MB/s = 10<sup>6</sup> bytes of array data per second: median (bold), min–max, ratio of the median to the "
        f"single-thread limit (codec + raw I/O measured in the same run; above 1 = using more than one core). "
        f"Machine: {escape(str(machine.get('cpu', '?')))}, {machine.get('cores', '?')} cores, "
        f"{machine.get('memory_gib', '?')} GiB, {escape(str(machine.get('os', '?')))}, "
        f"file system {escape(str(machine.get('filesystem', {}).get('type', '?')))}; "
        f"1-minute load average during the run {_load_range(machine)}. "
        f"Run {escape(str(report.get('created', '?')))}, {report.get('duration_s', 0) / 60:.1f} min.</p>"
    )
    out.append(
        "<p>Each cell: median MB/s (bold) and its place in the row (#2–4: within noise of the "
        "implementations placed 2 to 4, no order claimed among them), the confidence interval of "
        f"the median ({escape(workload.get('statistics', 'min–max'))}), MB per CPU second and the "
        "cores it kept busy (CPU time over wall time), the ratio to the single-thread limit.</p>"
    )
    if not report.get("ok", True):
        out.append(
            '<p><span class="wrong">Some results are wrong or errored: see the tables.</span></p>'
        )
    for store in options.get("stores", []):
        rows = []
        for codec in options.get("codecs", []):
            for operation in options.get("operations", []):
                if not any((i, codec, store, operation) in results for i in impls):
                    continue
                limit = _limit_of(results, codec, store, operation)
                cells = "".join(
                    _cell_html(
                        results.get((i, codec, store, operation)),
                        places.get((i, codec, store, operation)),
                    )
                    for i in impls
                )
                rows.append(
                    f'<tr><td class="label">{escape(codec)}</td><td class="label">{escape(operation)}</td>'
                    f"<td>{_rate(limit) if limit else '–'}</td>{cells}</tr>"
                )
        if not rows:
            continue
        label = workload.get("stores", {}).get(store, store)
        head = "".join(f"<th>{escape(i)}</th>" for i in impls)
        out.append(f"<h3>{escape(store)} store <small>({escape(label)})</small></h3>")
        out.append(
            f'<table class="bench"><tr><th class="label">codec</th><th class="label">operation</th>'
            f"<th>limit MB/s</th>{head}</tr>{''.join(rows)}</table>"
        )
        try:
            from .plots import svg_text
        except ImportError:
            out.append("<p><small>(plot: matplotlib is not installed)</small></p>")
        else:
            out.append(f"<figure>{svg_text(report, store)}</figure>")
    out.append(_validate_html(report))
    out.append("<h3>Physical limits</h3>" + _limits_html(report))
    out.append(_notes_html(report))
    out.append("</section>")
    return "\n".join(part for part in out if part)


def _notes_html(report: dict) -> str:
    items = []
    for name, info in report.get("implementations", {}).items():
        if info.get("status") != "ok":
            items.append(
                f"<li><b>{escape(name)}</b>: not benchmarked: {escape(info.get('reason', ''))}</li>"
            )
            continue
        versions = ", ".join(
            f"{escape(k)} {escape(str(v))}" for k, v in (info.get("versions") or {}).items()
        )
        settings = "; ".join(
            f"{escape(store)}: "
            + ", ".join(f"{escape(k)}={escape(_short(v))}" for k, v in s.items())
            for store, s in (info.get("settings") or {}).items()
        )
        items.append(
            f"<li><b>{escape(name)}</b> (format {escape(str(info.get('format')))}): {versions}."
            f"<br><small>{settings}</small></li>"
        )
    reasons: dict[str, list[str]] = {}
    for r in report.get("results", []):
        if r["status"] in ("not-applicable", "skipped", "errored", "wrong-data"):
            reasons.setdefault(f"{r['status']}: {r.get('reason', '')}", []).append(
                f"{r['impl']} {r['codec']} {r['store']} {r['operation']}"
            )
    notes = "".join(
        f"<li>{escape(reason)} <small>({escape(', '.join(sorted(set(w)))[:600])})</small></li>"
        for reason, w in reasons.items()
    )
    return (
        f"<details><summary>Implementations, versions and settings</summary><ul>{''.join(items)}</ul></details>"
        + (
            f"<details><summary>Workloads not measured, and why</summary><ul>{notes}</ul></details>"
            if notes
            else ""
        )
    )


def _short(value) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) < 120 else text[:117] + "..."


# ---- markdown -------------------------------------------------------------------------------------


def _cell_md(entry: dict | None, place: str | None = None, metric: str = "wall") -> str:
    if entry is None:
        return "–"
    status = entry["status"]
    if status == "wrong-data":
        return "**WRONG DATA**" + (" (probe)" if entry.get("undeclared") else "")
    if status == "errored":
        return "error"
    if status != "ok":
        return "n/a" if status == "not-applicable" else status
    rate = entry.get("mb_s" if metric == "wall" else "mb_per_cpu_s")
    if rate is None:
        return "(no cpu time)"
    low, high = _interval(rate)
    text = f"**{_rate(rate['median'])}** {_rate(low)}–{_rate(high)}"
    if place:
        text += f" #{place}"
    if metric == "wall" and entry.get("ratio_to_limit"):
        text += f" ({entry['ratio_to_limit']['median']:.2f}×)"
    if metric == "wall" and entry.get("stored_bytes") is not None:
        text += f" [{entry['stored_bytes'] / MB:.1f} MB]"
    if metric == "cpu" and entry.get("cores_used") is not None:
        text += f" ({entry['cores_used']:.1f} cores)"
    return text


def markdown_table(report: dict) -> str:
    """Markdown: per store, codec x operation rows, one column per implementation with
    **median** MB/s, the confidence interval of the median, #place in the row, (ratio of the
    median to the limit) and [stored MB] for writes; then the same in MB per CPU second, the
    validate rows, the physical limits and what was not measured, with the reasons."""
    results = _results(report)
    impls = _impls(report)
    options = report.get("options", {})
    workload = report.get("workload", {})
    machine = report.get("machine", {})
    lines = [
        f"# Bench: {workload.get('nbytes', 0) / 2**20:.0f} MiB float32, {options.get('repeat')} repetitions, "
        f"{report.get('duration_s', 0) / 60:.1f} min",
        "",
        f"Machine: {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores; "
        f"1-minute load average during the run {_load_range(machine)}.",
        "",
        "Cells: **median** MB/s (10^6 bytes of array data per second), the confidence interval of the "
        "median, #place in the row (#2–4: within noise of those placed 2 to 4: intervals overlap, no "
        "order claimed), (median / single-thread limit), [stored MB] for writes. n/a: the "
        "implementation cannot do the workload (reasons below).",
        f"Statistics: {workload.get('statistics', 'min–max')}.",
        "",
    ]
    for metric, title in (("wall", "MB/s (wall time)"), ("cpu", "MB per CPU second")):
        places = _places(results, metric)
        for store in options.get("stores", []):
            rows = []
            for codec in options.get("codecs", []):
                for operation in options.get("operations", []):
                    if not any((i, codec, store, operation) in results for i in impls):
                        continue
                    limit = (
                        _limit_of(results, codec, store, operation) if metric == "wall" else None
                    )
                    rows.append(
                        f"| {codec} | {operation} | {_rate(limit) if limit else '–'} | "
                        + " | ".join(
                            _cell_md(
                                results.get((i, codec, store, operation)),
                                places.get((i, codec, store, operation)),
                                metric,
                            )
                            for i in impls
                        )
                        + " |"
                    )
            if rows:
                lines += [
                    f"## {store} store: {title}",
                    "",
                    "| codec | operation | limit | " + " | ".join(impls) + " |",
                    "|---|---|---:|" + "---:|" * len(impls),
                    *rows,
                    "",
                ]
    block = report.get("validate") or {}
    if block.get("rows"):
        lines += [
            f"## validate ({block.get('size_mib')} MiB stores)",
            "",
            block.get("method", ""),
            "",
            "| store | validate MB/s | fastest read MB/s | time ratio | CPU ratio | validate peak |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in block["rows"]:
            label = f"{row['codec']} ({row['store']})"
            if row["status"] != "ok":
                lines.append(f"| {label} | {row['status']}: {row.get('reason', '')} | | | | |")
                continue
            validate, read = row["validate"], row.get("reads", {}).get(row.get("reader")) or {}
            noise = " (within noise)" if row.get("within_noise") else ""
            lines.append(
                f"| {label} | {_rate(validate['mb_s']['median'])} | {row.get('reader')}: "
                f"{_rate(read['mb_s']['median']) if read else '–'} | **{row.get('ratio_wall', 0):.2f}×**{noise} | "
                f"{row.get('ratio_cpu', 0):.2f}× | {validate.get('peak_rss_mib', 0):,.0f} MiB |"
            )
        lines.append("")
    limits = report.get("limits")
    if limits:
        lines += [
            "## Physical limits (same run, same data; MB/s min / median / max)",
            "",
            "| limit | MB/s | compressed |",
            "|---|---:|---:|",
        ]
        for name in ("memcpy", "file_write", "file_read"):
            s = limits.get(name)
            if s:
                lines.append(
                    f"| {name} | {_rate(s['min'])} / **{_rate(s['median'])}** / {_rate(s['max'])} | |"
                )
        for codec, entry in limits.get("codecs", {}).items():
            for way in ("encode", "decode"):
                s = entry.get(way)
                if s:
                    lines.append(
                        f"| {codec} {way} (1 thread) | {_rate(s['min'])} / **{_rate(s['median'])}** / "
                        f"{_rate(s['max'])} | {entry['stored_bytes'] / MB:.1f} MB ({entry['compression_ratio']:.2f}×) |"
                    )
        lines.append("")
    notes: dict[str, list[str]] = {}
    for r in report.get("results", []):
        if r["status"] != "ok":
            probe = f" (probe: {r['undeclared']} not declared)" if r.get("undeclared") else ""
            notes.setdefault(f"{r['status']}{probe}: {r.get('reason', '')}", []).append(
                f"{r['impl']} {r['codec']} {r['store']} {r['operation']}"
            )
    for name, info in report.get("implementations", {}).items():
        if info.get("status") != "ok":
            notes.setdefault(f"{info['status']}: {info.get('reason', '')}", []).append(name)
    if notes:
        lines += ["## Not measured", ""]
        lines += [f"- {reason} — {', '.join(sorted(set(w)))}" for reason, w in notes.items()]
        lines.append("")
    return "\n".join(lines)
