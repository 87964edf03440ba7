"""Who reads whose output, per format: writers as rows, readers as columns. A cell counts what the
reader read back exactly out of the attempts, and apart from them what the writer could not write
and what the reader could not read; the diagonal (self round trips) is marked and not in the
score; version rows are left out."""

from __future__ import annotations

from .. import scores as s
from .. import verdicts as v
from . import common as c
from . import paths
from .html import Html, join, link, table, tag
from .layout import definition, page

HERE = "interop.html"
PROBLEMS = ("wrong-data", "errored", "failed", "known-failure", "type-changed")


def _cell(fmt: str, w: str, r: str, cell: dict[str, int] | None) -> Html:
    cid = f"{paths.slug(fmt)}--{paths.slug(w)}--{paths.slug(r)}"
    if not cell:
        return tag("td", "", class_="o-none", id=cid)
    passed = cell.get("passed", 0)
    problems = {k: cell[k] for k in PROBLEMS if cell.get(k)}
    attempts = passed + sum(problems.values())
    worst = min(problems, key=v.rank) if problems else None
    css = worst or ("passed" if attempts else "unsupported")
    parts: list[object] = [
        tag("span", "self ", class_="small") if w == r else "",
        tag("strong", f"{passed}/{attempts}") if attempts else "–",
    ]
    if cell.get("cannot-write"):
        parts.append(
            tag(
                "span",
                f" ✗w {cell['cannot-write']}",
                class_="small",
                title="cases the writer cannot write",
            )
        )
    if cell.get("cannot-read"):
        parts.append(
            tag(
                "span",
                f" ✗r {cell['cannot-read']}",
                class_="small",
                title="cases the reader cannot read",
            )
        )
    body = join(parts)
    if problems:
        body = link(f"#{cid}-records", body)
    title = f"{w} wrote, {r} read: " + ", ".join(f"{n} {k}" for k, n in sorted(cell.items()))
    return tag("td", body, class_=f"o-{css} num" + (" self" if w == r else ""), id=cid, title=title)


def render(site) -> tuple[str, str]:
    parts = [
        tag("h1", "Who reads whose output"),
        tag(
            "p",
            "Rows wrote the write cases of the corpus, columns read what they wrote (cross tests; each store is judged by the reference first). "
            "Cells: read back exactly / attempts; ✗w n: n cases the writer cannot write; ✗r n: n cases the reader cannot read (neither is an attempt). "
            "The diagonal, marked “self”, is an implementation reading its own output.",
            class_="small",
        ),
        definition(site, HERE, "interop"),
    ]
    for fmt in site.formats:
        grid = s.grid(site.records, fmt)
        if not grid:
            continue
        writers, readers = s.grid_axes(grid, site.names)
        silent_w = [n for n in site.names if any(k[0] == n for k in grid) and n not in writers]
        silent_r = [n for n in site.names if any(k[1] == n for k in grid) and n not in readers]
        score = s.interop(site.records, fmt, site.parsers)
        score_text = (
            f"{s.percent(score.passed, score.attempts)} ({score.passed} of {score.attempts} attempts) among {', '.join(score.members)}; "
            f"not attempted: {score.cannot_write} cannot write, {score.cannot_read} cannot read"
            if score.share is not None
            else "no score: fewer than two implementations both write and read this format"
        )
        rows = [
            tag(
                "tr",
                tag("th", w, scope="row"),
                *(_cell(fmt, w, r, grid.get((w, r))) for r in readers),
            )
            for w in writers
        ]
        parts += [
            tag("h2", fmt, id=paths.slug(fmt)),
            tag("p", tag("strong", "Interop score: "), score_text),
            table(
                [tag("th", "writer \\ reader", scope="col")]
                + [tag("th", r, scope="col") for r in readers],
                rows,
                f"interop {fmt}",
            ),
            tag(
                "p",
                f"Not in the grid: cannot write any {fmt} write case: {', '.join(silent_w) or 'none'}; cannot read any: {', '.join(silent_r) or 'none'}.",
                class_="small",
            ),
            _problems(site, fmt),
        ]
    return HERE, page(site, HERE, "Interop", join(parts))


def _problems(site, fmt: str) -> Html:
    """The attempts that did not read back exactly, per cell, each with its verdict and message."""
    by_cell: dict[tuple[str, str], list[dict]] = {}
    for r in s.pair_records(site.records, fmt):
        if s.cell_kind(r) in PROBLEMS:
            by_cell.setdefault((r["writer"], r["reader"]), []).append(r)
    if not by_cell:
        return Html("")
    sections = []
    for (w, rd), rs in sorted(by_cell.items()):
        cid = f"{paths.slug(fmt)}--{paths.slug(w)}--{paths.slug(rd)}-records"
        items = [
            tag(
                "li",
                c.case_link(HERE, r["case"], site.cases),
                f" ({v.store_kind(r)}) ",
                tag("span", r["outcome"], class_=f"badge o-{r['outcome']}"),
                f" {v.side(r)} side: ",
                c.message(r),
            )
            for r in sorted(rs, key=lambda r: (v.rank(r["outcome"]), r["case"]))
        ]
        sections.append(
            tag(
                "section",
                tag("h4", f"{w} → {rd}: {len(rs)} not read back exactly"),
                tag("ul", *items),
                id=cid,
            )
        )
    return join([tag("h3", f"{fmt}: attempts not read back exactly"), *sections])
