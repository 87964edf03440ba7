"""A check as one HTML page, in the look of the published report (its colours and table style,
a few lines of CSS inlined; no script): the node x implementation table, the summary, then the
details and advice of every cell that is not an exact read."""

from __future__ import annotations

from html import escape
from pathlib import Path

from .report import EXIT_CODES, LABELS, OUTCOMES, Report, _advice_line

STYLE = (
    "body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto;"
    "max-width:1200px;padding:0 20px;color:#1b1f24;background:#fafbfc}"
    "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px}"
    "table{border-collapse:collapse;background:#fff}th,td{border:1px solid #d0d7de;"
    "padding:4px 8px;vertical-align:top}th{background:#f0f3f6}td.name{white-space:nowrap}"
    ".bad{background:#ffd7d5;color:#82071e;font-weight:600}.warn{background:#fff1c2}"
    ".good{background:#dafbe1}.none{color:#8c959f}.small{font-size:12px;color:#57606a}"
)
CLASS = {
    "exact": "good",
    "type-changed": "warn",
    "metadata-differs": "warn",
    "unverified": "none",
    "skipped": "none",
}


def render(report: Report) -> str:
    impls = [i.name for i in report.implementations if i.status == "ok"]
    e = escape
    parts = [f"<h1>Will it be read? {e(report.location)}</h1>"]
    parts.append(f"<p>{e(report.to_text().splitlines()[0])}</p>")
    code = report.exit_code
    parts.append(f"<p><b>exit {code}</b>: {e(dict(EXIT_CODES)[code])}</p>")
    if report.findings:
        parts.append("<pre>" + e("\n".join(report.findings)) + "</pre>")
    if report.refused:
        parts.append("<h2>Not opened by any implementation</h2><ul>")
        parts += [f"<li>{e(why)}</li>" for why in report.refused]
        parts.append("</ul>")
    else:
        parts.append("<h2>Nodes</h2><table><tr><th>node</th><th>reference</th>")
        parts += [f"<th>{e(i)}</th>" for i in impls]
        parts.append("</tr>")
        for node in report.nodes:
            parts.append(f"<tr><td class=name>{e(node.display)}<div class=small>")
            parts.append(f"{e(node.kind)} {e(node.summary)}</div></td>")
            parts.append(f"<td class=small>{e(node.reference or node.read or 'ok')}</td>")
            for impl in impls:
                cell = report.cell(node.path, impl)
                if cell is None:
                    parts.append("<td class=none>-</td>")
                    continue
                css = "none" if not cell.counted else CLASS.get(cell.outcome, "bad")
                title = e(cell.message, quote=True)
                parts.append(f'<td class={css} title="{title}">{e(LABELS[cell.outcome])}</td>')
            parts.append("</tr>")
        parts.append("</table>")
        parts.append(_summary(report))
        details = [c for c in report.cells if c.counted and c.outcome not in ("exact", "skipped")]
        if details:
            parts.append("<h2>Details and advice</h2><ul>")
            for cell in details:
                parts.append(
                    f"<li><b>/{e(cell.node)}</b> {e(cell.impl)}: {e(LABELS[cell.outcome])}: "
                    f"{e(cell.message)}"
                )
                if cell.advice:
                    parts.append("<ul>")
                    parts += [f"<li class=small>{e(_advice_line(a))}</li>" for a in cell.advice]
                    parts.append("</ul>")
                parts.append("</li>")
            parts.append("</ul>")
    parts += [f"<p class=small>incomplete: {e(n)}</p>" for n in report.incomplete]
    parts += [f"<p class=small>note: {e(n)}</p>" for n in report.notes]
    body = "".join(parts)
    return (
        "<!doctype html><meta charset=utf-8><title>zarr-conformance check</title>"
        f"<style>{STYLE}</style><body>{body}</body>"
    )


def _summary(report: Report) -> str:
    summary = report.summary()
    shown = [o for o in OUTCOMES if any(c[o] for c in summary.values())]
    versions = {i.name: i.version for i in report.implementations}
    rows = ["<h2>Summary</h2><table><tr><th>implementation</th><th>version</th>"]
    rows += [f"<th>{escape(LABELS[o])}</th>" for o in shown]
    rows.append("</tr>")
    for name, counts in summary.items():
        rows.append(
            f"<tr><td class=name>{escape(name)}</td><td>{escape(versions.get(name, ''))}</td>"
        )
        for o in shown:
            css = "" if not counts[o] else CLASS.get(o, "bad")
            rows.append(f"<td class='{css}'>{counts[o]}</td>")
        rows.append("</tr>")
    return "".join(rows) + "</table>"


def write_page(report: Report, path: str) -> None:
    Path(path).write_text(render(report), encoding="utf-8")
