"""reports/index.html: one self-contained page (no CDN, no build step).

The tables are plain HTML; a cell's drill-down (its cases with requirement IDs, the spec sentence,
the message, the known-failure entry with its upstream link or report) is data embedded in the page
as JSON and shown by a few lines of JavaScript.
"""

from __future__ import annotations

import html
import json

from . import matrices as m
from .hostile import html_section as hostile_html
from .sweep import html_section as sweep_html

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1b1f24;background:#fafbfc}
header,main{max-width:1200px;margin:0 auto;padding:0 20px}
header{padding-top:18px}
h1{font-size:24px;margin:8px 0}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;background:#fff}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:center;vertical-align:top}
th{background:#f0f3f6;font-weight:600}td.name,th.name{text-align:left;white-space:nowrap}
.bad{background:#ffd7d5;color:#82071e;font-weight:600}.warn{background:#fff1c2}.good{background:#dafbe1}
.none{color:#8c959f}.cell{cursor:pointer}.cell:hover{outline:2px solid #0969da}
.legend span{display:inline-block;padding:1px 6px;margin-right:6px;border:1px solid #d0d7de}
#detail{position:fixed;right:0;top:0;bottom:0;width:min(720px,95vw);overflow:auto;background:#fff;
 border-left:2px solid #0969da;padding:12px 18px;box-shadow:-4px 0 16px #0002;display:none}
#detail pre{white-space:pre-wrap;background:#f6f8fa;padding:6px;font-size:12px}
#detail .case{border-bottom:1px solid #eaeef2;padding:6px 0}
.small{font-size:12px;color:#57606a}
code{font-size:12px}
"""

SCRIPT = """
const DATA = JSON.parse(document.getElementById('cells').textContent);
const RECORDS = JSON.parse(document.getElementById('records').textContent);
const CASES = JSON.parse(document.getElementById('cases').textContent);
function esc(s){return String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));}
function show(key){
  const cell = DATA[key]; const box = document.getElementById('detail');
  let h = '<p><a href="#" onclick="hide();return false">close</a></p><h3>'+esc(cell.title)+'</h3>';
  h += '<p class="small">'+esc(cell.summary)+'</p>';
  if(!cell.records.length){h += '<p>every case passed</p>';}
  for(const r of cell.records.map(i => RECORDS[i])){
    const c = CASES[r.case] || {};
    h += '<div class="case"><b class="'+(['wrong-data','errored','failed'].includes(r.outcome)?'bad':'')+'">'+esc(r.outcome)+'</b> ';
    h += esc(r.test)+' <code>'+esc(r.case)+'</code>'+(r.who?' ('+esc(r.who)+')':'')+(r.probe?' <span class="small">probe</span>':'');
    if(c.description) h += '<div>'+esc(c.description)+'</div>';
    h += '<div class="small">tier '+esc(c.tier||r.tier)+' &middot; '+esc((r.requirements||[]).join(', '))+'</div>';
    for(const q of (c.citation||[])) h += '<blockquote class="small">&ldquo;'+esc(q.quote)+'&rdquo; &mdash; '+esc(q.spec)+' &sect;'+esc(q.section)+'</blockquote>';
    if(r.message) h += '<pre>'+esc(r.message)+'</pre>';
    const k = r.known_failure;
    if(k){ h += '<div>known failure <b>'+esc(k.id||'')+'</b>: '+esc(k.reason)+' &mdash; ';
      h += k.issue==='unreported' ? 'unreported; ready-to-file report: <code>'+esc(k.report)+'</code>' : '<a href="'+esc(k.issue)+'">'+esc(k.issue)+'</a>';
      h += '</div>'; }
    h += '</div>';
  }
  box.innerHTML = h; box.style.display = 'block';
}
function hide(){document.getElementById('detail').style.display='none';}
document.addEventListener('click', e => { const t = e.target.closest('[data-cell]'); if(t) show(t.dataset.cell); });
document.addEventListener('keydown', e => { if(e.key==='Escape') hide(); });
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _pct(cell: m.Cell) -> str:
    share = cell.share()
    return "&ndash;" if share is None else f"{100 * share:.0f}%"


def _css(cell: m.Cell) -> str:
    if not cell.total or cell.counts["unsupported"] == cell.total:
        return "none"
    if cell.counts["wrong-data"] or cell.counts["errored"]:
        return "bad"
    return "good" if cell.passed == cell.total else "warn"


def _summary(cell: m.Cell) -> str:
    return ", ".join(f"{cell.counts[o]} {o}" for o in m.WORST_FIRST if cell.counts[o])


def _record_view(record: dict) -> dict:
    if record["outcome"] == "unsupported" and not record.get("probe"):
        return {
            "case": record["case"],
            "test": record["test"],
            "outcome": "unsupported",
        }  # the page stays small
    view = {
        k: record.get(k)
        for k in (
            "case",
            "test",
            "outcome",
            "message",
            "requirements",
            "tier",
            "probe",
            "known_failure",
        )
    }
    if record.get("writer") and record.get("reader"):
        view["who"] = f"{record['writer']} wrote, {record['reader']} read"
    view["message"] = (view["message"] or "")[:800]
    return {k: v for k, v in view.items() if v not in (None, "", [])}


class Page:
    """Collects drill-down cells while the tables are written."""

    def __init__(self):
        self.cells: dict[str, dict] = {}
        self.records: list[dict] = []  # each record's view once; cells refer to them by index
        self._index: dict[int, int] = {}

    def _ref(self, record: dict) -> int:
        if id(record) not in self._index:
            self._index[id(record)] = len(self.records)
            self.records.append(_record_view(record))
        return self._index[id(record)]

    def cell(self, cell: m.Cell, title: str, text: str | None = None) -> str:
        if not cell.total:
            return '<td class="none">&ndash;</td>'
        if cell.counts["unsupported"] == cell.total and text is None:
            text = "n/a"  # declined as a whole: not implemented rather than 0%
        key = f"c{len(self.cells)}"
        self.cells[key] = {
            "title": title,
            "summary": _summary(cell),
            "records": [self._ref(r) for r in sorted(cell.records, key=_severity)],
        }
        extra = ""
        if cell.counts["wrong-data"] or cell.counts["errored"]:
            extra = f'<br><span class="small">{cell.counts["wrong-data"]} wrong data, {cell.counts["errored"]} crashed</span>'
        return (
            f'<td class="cell {_css(cell)}" data-cell="{key}" title="{_e(_summary(cell))}">'
            f'{text if text is not None else _pct(cell)}<br><span class="small">{cell.passed}/{cell.total}</span>{extra}</td>'
        )


def _severity(record: dict) -> int:
    return m.WORST_FIRST.index(record["outcome"]) if record["outcome"] in m.WORST_FIRST else 99


def render(
    records: list[dict],
    meta: dict,
    cases: dict[str, dict],
    parsers: dict[str, str],
    bench_html: str = "",
    ranges: dict | None = None,
    hostile: list[dict] | None = None,
    hostile_run: dict | None = None,
) -> str:
    page = Page()
    names = m.implementations(records)
    versions = m.versions(records)
    parts = [
        f"<header><h1>Zarr implementations: compatibility report</h1>{_header(meta, names, versions, parsers)}</header><main>"
    ]
    parts.append(_headline(page, records, names))
    parts.append(_areas(page, records, names))
    parts.append(_stores(page, records, names))
    if ranges:
        parts.append(_ranges(ranges))
    if hostile:
        parts.append(hostile_html(page, hostile, names, hostile_run))
    parts.append(_interop(page, records, parsers))
    parts.append(_requirements(page, records, names))
    parts.append(sweep_html(records))
    if bench_html:
        parts.append(bench_html)
    parts.append("</main>")
    data = json.dumps(page.cells, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    views = json.dumps(page.records, ensure_ascii=False, separators=(",", ":")).replace(
        "</", "<\\/"
    )
    # sorted: a set's order changes with hash randomization, and the page must be reproducible
    cited = {c: cases[c] for c in sorted({r["case"] for r in page.records}) if c in cases}
    case_data = json.dumps(cited, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>Zarr compatibility report</title><style>{STYLE}</style><body>{''.join(parts)}"
        f"<div id=detail></div><script type=application/json id=cells>{data}</script>"
        f"<script type=application/json id=records>{views}</script>"
        f"<script type=application/json id=cases>{case_data}</script><script>{SCRIPT}</script></body></html>\n"
    )


def _header(meta: dict, names: list[str], versions: dict, parsers: dict[str, str]) -> str:
    machine = meta.get("machine") or {}
    rows = "".join(
        f"<tr><td class=name><b>{_e(n)}</b></td><td class=name>{_e(', '.join(f'{k} {v}' for k, v in sorted(versions.get(n, {}).items())))}</td>"
        f"<td class=name>{_e(meta.get('descriptions', {}).get(n, ''))}"
        f"{'<br><span class=small>metadata parser shared with ' + _e(parsers[n]) + '</span>' if parsers.get(n, n) != n else ''}</td></tr>"
        for n in names
    )
    facts = (
        f"<p class=small>Run <code>{_e(meta.get('run_id', '?'))}</code> on {_e(meta.get('date', '?'))} &middot; "
        f"corpus {_e(meta.get('corpus_version', '?'))} ({_e(meta.get('cases', '?'))} cases) &middot; "
        f"machine: {_e(machine.get('cpu', '?'))}, {_e(machine.get('cores', '?'))} cores, {_e(machine.get('memory_gib', '?'))} GiB, "
        f"{_e(machine.get('os', '?'))}, Python {_e(machine.get('python', '?'))}</p>"
    )
    legend = (
        "<p class='legend small'><span class=good>all passed</span><span class=warn>some cases not passed</span>"
        "<span class=bad>wrong data or crashes</span> Click a cell for its cases. <b>wrong-data</b>: the implementation "
        "returned or wrote different data without an error, the most serious outcome.</p>"
    )
    return (
        facts
        + f"<table><tr><th class=name>implementation</th><th class=name>versions</th><th class=name>what it is</th></tr>{rows}</table>"
        + legend
    )


def _headline(page: Page, records: list[dict], names: list[str]) -> str:
    table = m.headline(records)
    formats = [f for f in m.FORMATS if any(f in table[n] for n in table)]
    head = "".join(f"<th colspan={len(m.TIERS)}>{_e(f)}</th>" for f in formats)
    tiers = "".join(f"<th>{_e(t)}</th>" for _ in formats for t in m.TIERS)
    rows = []
    for name in names:
        if name not in table:
            continue
        totals = m.Cell()
        for f in formats:
            for t in m.TIERS:
                totals.counts.update(table[name][f][t].counts)
        danger = (
            f'<td class="{"bad" if totals.counts["wrong-data"] else "good"}">{totals.counts["wrong-data"]}</td>'
            f'<td class="{"bad" if totals.counts["errored"] else "good"}">{totals.counts["errored"]}</td>'
        )
        cells = "".join(
            page.cell(table[name][f][t], f"{name}: {f}, tier {t}") for f in formats for t in m.TIERS
        )
        rows.append(f"<tr><td class=name><b>{_e(name)}</b></td>{danger}{cells}</tr>")
    return (
        "<h2>Conformance per format and tier</h2><p class=small>Share of cases passed (read, reject, write, zom). "
        "An unsupported required case counts as not conformant. <i>required</i>: what the spec demands of every "
        "implementation; <i>strict</i>: documents that break a MUST a reader could tolerate (refusing is right); "
        "<i>optional</i>; <i>extension</i>: zarr-extensions registry.</p>"
        f"<table><tr><th class=name rowspan=2>implementation</th><th rowspan=2>wrong data</th><th rowspan=2>crashes</th>{head}</tr>"
        f"<tr>{tiers}</tr>{''.join(rows)}</table>"
    )


def _areas(page: Page, records: list[dict], names: list[str]) -> str:
    table = m.areas(records)
    all_areas = sorted({a for n in table for a in table[n]})
    present = [n for n in names if n in table]
    head = "".join(f"<th>{_e(n)}</th>" for n in present)
    rows = "".join(
        f"<tr><td class=name>{_e(a)}</td>"
        + "".join(page.cell(table[n][a], f"{n}: {a}") for n in present)
        + "</tr>"
        for a in all_areas
    )
    return f"<h2>Implementation &times; spec area</h2><table><tr><th class=name>area</th>{head}</tr>{rows}</table>"


def _stores(page: Page, records: list[dict], names: list[str]) -> str:
    table = m.store_kinds(records)
    kinds = m.kinds_present(records)
    present = [n for n in names if n in table]
    head = "".join(f"<th>{_e(k)}</th>" for k in kinds)
    rows = "".join(
        f"<tr><td class=name>{_e(n)}</td>"
        + "".join(page.cell(table[n][k], f"{n}: {k} store", _counts(table[n][k])) for k in kinds)
        + "</tr>"
        for n in present
    )
    return (
        "<h2>Implementation &times; store kind</h2><p class=small>Read, reject, write and zom "
        "records per store kind: each case on its own store (directory or zip), and the directory "
        "cases again from a range-capable HTTP server (read, reject) and an S3 server (read, and "
        "write where the implementation writes to S3) on the loopback interface, for the "
        "implementations that declare <code>store:http</code> / <code>store:s3</code>. "
        "Cells: passed / records; the drill-down lists the rest.</p>"
        f"<table><tr><th class=name>implementation</th>{head}</tr>{rows}</table>"
    )


def _counts(cell: m.Cell) -> str:
    return f"{cell.passed} / {cell.total}" if cell.total else "&ndash;"


def _ranges(ranges: dict) -> str:
    sizes = ranges.get("sizes") or {}
    rows = []
    for name, r in sorted((ranges.get("adapters") or {}).items()):
        if r.get("status") == "measured":
            css = "good" if r["ratio"] <= 1.5 else "warn"
            cells = (
                f"<td>{r['bytes_fetched']}</td><td>{r['bytes_needed']}</td>"
                f'<td class="{css}">{r["ratio"]:.2f}</td><td>{r["requests"]} '
                f"({r['ranged_requests']} ranged)</td>"
            )
        else:
            cells = f'<td colspan=4 class="{"bad" if r.get("status") in ("wrong-data", "errored") else "none"}">{_e(r.get("status"))}: {_e((r.get("message") or "")[:200])}</td>'
        rows.append(f"<tr><td class=name>{_e(name)}</td>{cells}</tr>")
    return (
        "<h2>Range requests: one inner chunk of a sharded array over HTTP</h2><p class=small>"
        f"A 64&times;64 int32 array in one shard of 8&times;8 inner chunks ({sizes.get('shard')} "
        f"bytes); reading [0:8, 0:8] needs the metadata ({sizes.get('metadata')} B), the shard "
        f"index ({sizes.get('index')} B) and one inner chunk ({sizes.get('chunk')} B). Fetched: "
        "the body bytes the server answered (conformance.bench.ranges).</p>"
        "<table><tr><th class=name>implementation</th><th>bytes fetched</th><th>bytes needed</th>"
        f"<th>ratio</th><th>GET requests</th></tr>{''.join(rows)}</table>"
    )


def _interop(page: Page, records: list[dict], parsers: dict[str, str]) -> str:
    grids = m.interop(records)
    out = [
        "<h2>Who reads whose output</h2><p class=small>Rows write, columns read (cross tests over the write cases). "
        "The diagonal is each implementation reading its own output: a self round trip, reported apart and not "
        "counted in the interop score.</p>"
    ]
    for fmt in [f for f in m.FORMATS if f in grids]:
        grid = grids[fmt]
        writers, readers = m.interop_participants(records, fmt)
        score, stores, members = m.interop_score(records, parsers, fmt)
        score_text = (
            "&ndash;"
            if score is None
            else f"{100 * score:.0f}% of {stores} valid stores are read exactly by every "
            f"pair of {', '.join(members)}"
        )
        head = "".join(f"<th>{_e(n)}</th>" for n in readers)
        rows = "".join(
            f"<tr><th class=name>{_e(w)}</th>"
            + "".join(
                page.cell(
                    grid[(w, r)],
                    f"{fmt}: {w} wrote, {r} read" + (" (self round trip)" if w == r else ""),
                )
                for r in readers
            )
            + "</tr>"
            for w in writers
        )
        out.append(
            f"<h3>{_e(fmt)}</h3><p>Interop score: {score_text}</p>"
            f"<table><tr><th class=name>writer \\ reader</th>{head}</tr>{rows}</table>"
        )
    return "".join(out)


def _requirements(page: Page, records: list[dict], names: list[str]) -> str:
    table = m.requirements(records)
    present = [n for n in names if any(n in table[r] for r in table)]
    head = "".join(f"<th>{_e(n)}</th>" for n in present)
    symbols = {
        "passes": ("good", "&#10003;"),
        "fails": ("bad", "&#10007;"),
        "unsupported": ("none", "&ndash;"),
        "partial": ("warn", "~"),
        "none": ("none", ""),
    }
    rows = []
    for requirement in sorted(table):
        cells = []
        for n in present:
            cell = table[requirement].get(n, m.Cell())
            css, mark = symbols[m.requirement_status(cell)]
            cells.append(
                page.cell(cell, f"{n}: {requirement}", mark).replace(
                    'class="cell ' + _css(cell), f'class="cell {css}'
                )
                if cell.total
                else '<td class="none"></td>'
            )
        rows.append(f"<tr><td class=name><code>{_e(requirement)}</code></td>{''.join(cells)}</tr>")
    return (
        "<h2>Requirements</h2><p class=small>&#10003; every case citing the requirement passed; &#10007; at least one "
        "failed, crashed or returned wrong data; ~ some unsupported; &ndash; unsupported.</p>"
        f"<details><summary>{len(rows)} requirements</summary><table><tr><th class=name>requirement</th>{head}</tr>{''.join(rows)}</table></details>"
    )
