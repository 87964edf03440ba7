"""Every case of a format across implementations (one page per format): a row per case, a column
per implementation, filterable by text, area, kind, tier and requirement (kept in the URL)."""

from __future__ import annotations

from .. import verdicts as v
from . import common as c
from . import paths
from .html import Html, join, link, table, tag
from .layout import page


def columns(site) -> list[str]:
    """The implementations shown side by side: no version rows (their pages compare versions)."""
    return [n for n in site.names if not v.is_version_row(n)]


def outcome_of(site, name: str, case_id: str) -> str | None:
    """The implementation's verdict on the case as the case's kind asks it, on its own store."""
    doc = site.cases.get(case_id) or {}
    kind = doc.get("kind")
    found = [
        r["outcome"]
        for r in site.single(name, case_id)
        if v.own_store(r) and (kind is None or r["test"] == kind)
    ]
    return min(found, key=v.rank) if found else None


def case_rows(site, here: str, case_ids: list[str], names: list[str]) -> list[Html]:
    rows = []
    for cid in case_ids:
        doc = site.cases.get(cid, {})
        cells = []
        for n in names:
            o = outcome_of(site, n, cid)
            cells.append(
                tag(
                    "td",
                    c.SHORT.get(o, "") if o else "",
                    class_=f"o-{o}" if o else "o-none",
                    title=f"{n}: {o or 'not run'}",
                )
            )
        rows.append(
            tag(
                "tr",
                tag("th", link(paths.rel(here, paths.case(cid)), cid), scope="row"),
                tag(
                    "td",
                    tag("span", f"{doc.get('kind', '?')} · {doc.get('tier', '?')}", class_="muted"),
                    " ",
                    doc.get("description", ""),
                    class_="small description",
                ),
                *cells,
                data_area=c.area_of(cid),
                data_kind=doc.get("kind", ""),
                data_tier=doc.get("tier", ""),
                data_req=" ".join(doc.get("requirements") or []),
                data_need=" ".join(doc.get("needs") or []),
            )
        )
    return rows


def case_head(names: list[str]) -> list[Html]:
    return [tag("th", h, scope="col") for h in ("case", "kind · tier · description")] + [
        tag("th", n, scope="col") for n in names
    ]


def _select(name: str, label: str, values) -> Html:
    options = [tag("option", "any", value="")] + [
        tag("option", x, value=x) for x in sorted(set(values)) if x
    ]
    return tag("label", label, tag("select", *options, name=name))


def render(site, fmt: str) -> tuple[str, str]:
    here = paths.cases(fmt)
    ids = sorted(cid for cid, doc in site.cases.items() if doc.get("format") == fmt)
    names = columns(site)
    form = tag(
        "form",
        tag("label", "text", tag("input", type="search", name="q")),
        _select("area", "area", (c.area_of(i) for i in ids)),
        _select("kind", "kind", (site.cases[i].get("kind", "") for i in ids)),
        _select("tier", "tier", (site.cases[i].get("tier", "") for i in ids)),
        tag("label", "requirement", tag("input", type="search", name="req", size="14")),
        tag("output"),
        class_="filter",
        data_for="cases-table",
        hidden=True,
    )
    others = join(
        (
            link(paths.rel(here, paths.cases(f)), f) if f != fmt else tag("strong", f)
            for f in site.formats
        ),
        " · ",
    )
    body = join(
        [
            tag("h1", f"Cases of {fmt} ({len(ids)})"),
            tag("p", "Formats: ", others),
            tag(
                "p",
                "Each implementation's verdict on each case, as the case's kind asks it (read, reject, write, zom), on the case's own store. Open a case for the spec sentence, the messages and the files.",
                class_="small muted",
            ),
            c.legend(),
            form,
            table(
                case_head(names),
                case_rows(site, here, ids, names),
                f"cases of {fmt}",
                id="cases-table",
            ),
        ]
    )
    return here, page(site, here, f"Cases of {fmt}", body)
