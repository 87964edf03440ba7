"""Hostile stores and faults (never counted in conformance): per implementation, and every record
that was not passed, with its message."""

from __future__ import annotations

from .. import hostile as h
from .. import verdicts as v
from . import common as c
from .html import join, table, tag
from .layout import page

HERE = "hostile.html"


def render(site) -> tuple[str, str]:
    rows_ = h.table(site.hostile)
    names = [n for n in site.names if n in rows_] + sorted(set(rows_) - set(site.names))
    rows = []
    for n in names:
        kinds = rows_[n]
        cells = [
            tag(
                "td", f"{kinds[k].passed}/{kinds[k].total}" if kinds[k].total else "–", class_="num"
            )
            for k in h.TESTS
        ]
        counts = [
            tag(
                "td",
                str(kinds["all"].counts[o]),
                class_=("o-" + o if o in h.BAD and kinds["all"].counts[o] else "") + " num",
            )
            for o in h.COUNTED[1:]
        ]
        rows.append(tag("tr", tag("th", c.impl_link(HERE, n), scope="row"), *cells, *counts))
    listed = []
    for n in names:
        bad = sorted(
            (r for r in rows_[n]["all"].records if r["outcome"] in h.LISTED),
            key=lambda r: (v.rank(r["outcome"]), r["case"]),
        )
        if bad:
            items = [
                tag(
                    "li",
                    c.case_link(HERE, r["case"], site.cases),
                    f" ({r['test']}) ",
                    tag("span", r["outcome"], class_=f"badge o-{r['outcome']}"),
                    " ",
                    c.message(r),
                )
                for r in bad
            ]
            listed.append(
                tag(
                    "details",
                    tag("summary", f"{n}: {len(bad)} not passed"),
                    tag("ul", *items),
                    id=f"hostile-{n}",
                )
            )
    body = join(
        [
            tag("h1", "Hostile stores and faults"),
            tag("p", h.explanation(site.hostile_run), class_="small"),
            table(
                [
                    tag("th", x, scope="col")
                    for x in (
                        "implementation",
                        "hostile stores",
                        "faults",
                        "errored",
                        "wrong data",
                        "failed",
                        "unsupported",
                    )
                ],
                rows,
                "hostile",
            )
            if rows
            else tag("p", "No hostile or fault records in these results."),
            *listed,
        ]
    )
    return HERE, page(site, HERE, "Hostile stores", body)
