"""Every requirement of the catalogue: its statement, the cases that cite it, and how many
implementations satisfy it (every citing case passed), with each implementation's share."""

from __future__ import annotations

from collections import defaultdict

from .. import verdicts as v
from . import paths
from .cases import columns
from .html import join, link, table, tag
from .layout import definition, page
from .text import inline

HERE = "requirements.html"
TESTS = ("read", "reject", "write")


def tally(site) -> dict[str, dict[str, list[int]]]:
    """requirement -> implementation -> [passed, tried, records]; a record counts when it is a
    read, reject or write record on the case's own store."""
    out: dict = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for r in site.records:
        if r["test"] in TESTS and v.own_store(r):
            for rid in r.get("requirements") or ():
                cell = out[rid][r["impl"]]
                cell[2] += 1
                if r["outcome"] not in v.NOT_TRIED:
                    cell[1] += 1
                    cell[0] += r["outcome"] == "passed"
    return out


def satisfied(cell: list[int]) -> bool:
    passed, tried, records = cell
    return tried > 0 and passed == records


def counted(name: str) -> bool:
    return name != "reference" and not v.is_version_row(name)


def render(site) -> tuple[str, str]:
    counts = tally(site)
    names = [n for n in columns(site) if counted(n)]
    cited = defaultdict(list)
    for cid, doc in site.cases.items():
        for rid in doc.get("requirements") or []:
            cited[rid].append(cid)
    head = [
        tag("th", h, scope="col")
        for h in ("requirement", "satisfied by", "cases", "statement", "level")
    ] + [tag("th", n, scope="col") for n in names]
    rows = []
    for rid, req in sorted(site.requirements.items()):
        cells = counts.get(rid, {})
        judged = [n for n in names if n in cells and cells[n][1]]
        ok = [n for n in judged if satisfied(cells[n])]
        fmt = next((site.cases[c]["format"] for c in cited.get(rid, []) if c in site.cases), "v3")
        case_link = (
            link(paths.rel(HERE, paths.cases(fmt)) + f"?req={rid}", str(len(cited[rid])))
            if cited.get(rid)
            else "0"
        )
        summary = f"{len(ok)} of {len(judged)}" if judged else "no implementation tried"
        per_impl = []
        for n in names:
            cell = cells.get(n)
            cid = f"{paths.slug(rid)}--{paths.slug(n)}"  # e.g. #V3-FILL-001--zarr-python
            if not cell or not cell[1]:
                per_impl.append(
                    tag(
                        "td",
                        "–" if cell else "",
                        class_="o-unsupported" if cell else "o-none",
                        title=f"{n}: {'unsupported' if cell else 'not run'}",
                        id=cid,
                    )
                )
            elif satisfied(cell):
                per_impl.append(
                    tag(
                        "td",
                        "✓",
                        class_="o-passed",
                        title=f"{n}: all {cell[2]} cases passed",
                        id=cid,
                    )
                )
            else:
                per_impl.append(
                    tag(
                        "td",
                        f"{cell[0]}/{cell[2]}",
                        class_="o-partial num" if cell[0] else "o-failed num",
                        title=f"{n}: {cell[0]} of {cell[2]} cases passed",
                        id=cid,
                    )
                )
        rows.append(
            tag(
                "tr",
                tag("th", link(f"#{paths.slug(rid)}", rid), scope="row"),
                tag("td", tag("strong", summary), class_="num satisfied"),
                tag("td", case_link, class_="num"),
                tag(
                    "td",
                    inline(req.text.split(" *Src:*", 1)[0], markdown=True),
                    class_="small statement",
                ),
                tag("td", req.level),
                *per_impl,
                id=paths.slug(rid),
                data_family=req.family,
                data_search=f"{rid} {req.text}",
            )
        )
    families = sorted({r.family for r in site.requirements.values()})
    form = tag(
        "form",
        tag("label", "text or ID", tag("input", type="search", name="q")),
        tag(
            "label",
            "family",
            tag(
                "select",
                tag("option", "any", value=""),
                *(tag("option", f, value=f) for f in families),
                name="family",
            ),
        ),
        tag("output"),
        class_="filter",
        data_for="requirements-table",
        hidden=True,
    )
    body = join(
        [
            tag("h1", "Requirements: how many implementations satisfy each"),
            definition(site, HERE, "requirement"),
            tag(
                "p",
                "✓ every citing case passed · k/n: k of the n citing cases passed · – it does not claim what the cases need. Columns: implementations (the reference and version rows are not counted).",
                class_="small",
            ),
            form,
            table(head, rows, "requirements", id="requirements-table"),
        ]
    )
    return HERE, page(site, HERE, "Requirements", body)


def summary(site) -> dict[str, dict]:
    """requirement -> {satisfied_by, judged_by}: for results.json and the API."""
    counts = tally(site)
    out = {}
    for rid in sorted(counts):
        judged = sorted(n for n, cell in counts[rid].items() if counted(n) and cell[1])
        out[rid] = {
            "satisfied_by": [n for n in judged if satisfied(counts[rid][n])],
            "judged_by": judged,
        }
    return out
