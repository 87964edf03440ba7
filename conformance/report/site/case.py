"""A page per case: what it tests, its tier and why, the spec sentences it rests on (linked to the
section upstream), its fixture files, and every implementation's outcome and message side by
side (for write cases, also who reads whose output)."""

from __future__ import annotations

from .. import verdicts as v
from . import common as c
from . import paths
from .html import Html, esc, join, link, table, tag
from .layout import page
from .reproducers import reproducer
from .text import inline, is_markdown, spec_name, spec_url

STORE_FILES_SHOWN = 40


def render(site, case_id: str) -> tuple[str, str]:
    here = paths.case(case_id)
    doc = site.cases.get(case_id) or {}
    records = site.by_case.get(case_id, [])
    body = [
        tag("h1", case_id),
        tag("p", doc.get("description") or _pseudo_description(case_id), class_="lead"),
        _facts(site, here, doc),
        _citations(doc),
        _single(site, here, records),
        _pairs(site, here, records),
        _files(site, here, doc),
    ]
    return here, page(site, here, case_id, join(body))


def _pseudo_description(case_id: str) -> str:
    if case_id.startswith("property/"):
        return "A property test: random arrays written by one implementation and read by another (no case folder)."
    if case_id.startswith("fault/"):
        return "A fault injected into a valid case (conformance/testing/faults.py; no case folder)."
    return "No case.json for this case in the corpus the site was rendered with."


def _facts(site, here: str, doc: dict) -> Html:
    if not doc:
        return Html("")
    requirements = [
        tag(
            "li",
            link(paths.rel(here, paths.requirement(rid)), rid),
            join(
                [
                    f" [{site.requirements[rid].level}] ",
                    inline(_statement(site.requirements[rid].text), markdown=True),
                ]
            )
            if rid in site.requirements
            else "",
        )
        for rid in doc.get("requirements") or []
    ]
    needs = join(
        (
            link(paths.rel(here, paths.feature(doc.get("format", ""), n)), n)
            if not n.startswith(("format:", "op:"))
            else esc(n)
            for n in doc.get("needs") or []
        ),
        ", ",
    )
    rows = [
        ("kind", doc.get("kind")),
        ("format", doc.get("format")),
        (
            "tier",
            join(
                [
                    tag("strong", doc.get("tier", "?")),
                    f": {doc['tier_reason']}" if doc.get("tier_reason") else "",
                ]
            ),
        ),
        ("question", doc.get("question")),
        ("expected", _expected(doc)),
        ("needs", needs),
        ("requirements", tag("ul", *requirements) if requirements else ""),
    ]
    adjudication = doc.get("adjudication")
    if adjudication:
        rows.append(
            ("adjudication", f"{adjudication.get('verdict')}: {adjudication.get('reason', '')}")
        )
    provenance = doc.get("provenance")
    if provenance:
        rows.append(
            (
                "written by",
                ", ".join(
                    f"{k} {val}"
                    for k, val in sorted(provenance.items())
                    if isinstance(val, (str, int))
                ),
            )
        )
    return tag(
        "dl", *(join([tag("dt", k), tag("dd", val)]) for k, val in rows if val), class_="facts"
    )


def _statement(text: str) -> str:
    """A catalogue entry without its source and test notes."""
    return text.split(" *Src:*", 1)[0].strip()


def _expected(doc: dict) -> str:
    expect = doc.get("expect") or {}
    kind = doc.get("kind")
    if kind == "reject":
        return f"refused at {expect.get('stage', '?')} (the reference's reason: {expect.get('reason', '?')})"
    if kind == "read" and expect.get("node_type") == "array":
        return (
            f"an array of {expect.get('dtype')} with shape {expect.get('shape')}, read bit for bit"
        )
    if kind == "read":
        return f"a {expect.get('node_type', 'node')} with its attributes and members"
    if kind == "write":
        if expect.get("must_fail"):
            return f"the request is refused ({expect['must_fail']})"
        return "the store written is valid, means the same node, and reads back bit for bit (judged by the reference)"
    if kind == "zom":
        return "the object model document" + (
            " is valid" if expect.get("valid", True) else " is invalid"
        )
    return ""


def _citations(doc: dict) -> Html:
    quotes = []
    for cite in doc.get("citation") or []:
        url = spec_url(cite.get("spec", ""), cite.get("section"))
        where = f"{spec_name(cite.get('spec', ''))}, section “{cite.get('section', '')}”"
        quotes.append(
            tag(
                "figure",
                tag(
                    "blockquote",
                    tag("p", inline(cite.get("quote", ""), is_markdown(cite.get("spec", "")))),
                ),
                tag(
                    "figcaption",
                    f"{cite.get('requirement', '')} — ",
                    link(url, where) if url else where,
                    class_="small",
                ),
            )
        )
    if not quotes:
        return Html("")
    return join([tag("h2", "What the spec says", id="spec"), *quotes])


def _single(site, here: str, records: list[dict]) -> Html:
    rs = [r for r in records if not v.is_pair(r)]  # single tests, hostile and fault ones too
    if not rs:
        return Html("")
    rows = []
    for r in sorted(
        rs,
        key=lambda r: (
            site.names.index(r["impl"]) if r["impl"] in site.names else 999,
            r["test"],
            v.store_kind(r),
        ),
    ):
        kf = r.get("known_failure")
        found = reproducer(r) if r["outcome"] not in ("passed", "unsupported") else None
        rows.append(
            tag(
                "tr",
                tag("th", c.impl_link(here, r["impl"]), scope="row"),
                tag("td", r["test"]),
                tag("td", v.store_kind(r)),
                tag("td", c.MARK.get(r["outcome"], r["outcome"]), class_=f"o-{r['outcome']}"),
                tag(
                    "td",
                    c.message(r, None),
                    tag("br") if kf else "",
                    join(
                        [
                            "known failure ",
                            c.impl_link(
                                here,
                                kf.get("owner") or v.blamed(r),
                                f"#kf-{paths.slug(kf.get('id', ''))}",
                            ),
                            ": ",
                            c.evidence(here, site, kf),
                        ]
                    )
                    if kf
                    else "",
                    _repro(found),
                ),
                id=f"{paths.slug(r['impl'])}--{r['test']}--{v.store_kind(r)}",
            )
        )
    return join(
        [
            tag("h2", "Every implementation", id="outcomes"),
            c.legend(),
            table(
                [
                    tag("th", h, scope="col")
                    for h in ("implementation", "test", "store", "outcome", "message")
                ],
                rows,
                "outcomes",
            ),
        ]
    )


def _repro(found) -> Html:
    if not found:
        return Html("")
    source, script = found
    return tag(
        "details",
        tag("summary", "reproducer"),
        tag("p", f"from {source}", class_="small"),
        tag("pre", tag("code", script)),
    )


def _pairs(site, here: str, records: list[dict]) -> Html:
    """Who reads whose output: writer rows, reader columns, per store kind; then the messages."""
    rs = [r for r in records if v.is_pair(r) and r.get("writer") and r.get("reader")]
    if not rs:
        return Html("")
    names = [n for n in site.names if any(n in (r["writer"], r["reader"]) for r in rs)]
    parts = [
        tag("h2", "Who reads whose output", id="pairs"),
        tag(
            "p",
            "Rows wrote the case, columns read it back; the diagonal is a self round trip. A verdict other than passed is about the side at fault.",
            class_="small muted",
        ),
    ]
    for kind in sorted({v.store_kind(r) for r in rs}):
        by_pair = {}
        for r in rs:
            if v.store_kind(r) == kind:
                by_pair.setdefault((r["writer"], r["reader"], r["test"]), r)
        writers = [n for n in names if any(k[0] == n for k in by_pair)]
        readers = [n for n in names if any(k[1] == n for k in by_pair)]
        rows = []
        for w in writers:
            cells = []
            for rd in readers:
                r = next((by_pair[k] for k in by_pair if k[0] == w and k[1] == rd), None)
                if r is None:
                    cells.append(tag("td", "", class_="o-none"))
                    continue
                side = v.side(r) if r["outcome"] != "passed" else ""
                cells.append(
                    tag(
                        "td",
                        link(
                            f"#pair-{paths.slug(w)}--{paths.slug(rd)}--{kind}",
                            c.SHORT[r["outcome"]],
                        )
                        if r["outcome"] not in ("passed", "unsupported")
                        else c.SHORT.get(r["outcome"], "?"),
                        tag("span", f" {side}", class_="small") if side else "",
                        class_=f"o-{r['outcome']}",
                        title=f"{w} wrote, {rd} read: {r['outcome']}"
                        + (f" ({side} side)" if side else ""),
                    )
                )
            rows.append(tag("tr", tag("th", w, scope="row"), *cells))
        parts.append(tag("h3", f"{kind} store"))
        parts.append(
            table(
                [tag("th", "writer \\ reader", scope="col")]
                + [tag("th", rd, scope="col") for rd in readers],
                rows,
                f"pairs on {kind}",
            )
        )
        notes = [
            tag(
                "li",
                tag("strong", f"{r['writer']} → {r['reader']}: {r['outcome']}"),
                f" ({r['test']}, {v.side(r)} side) ",
                c.message(r, None),
                id=f"pair-{paths.slug(r['writer'])}--{paths.slug(r['reader'])}--{kind}",
            )
            for r in by_pair.values()
            if r["outcome"] not in ("passed", "unsupported")
        ]
        if notes:
            parts.append(tag("ul", *notes))
    return join(parts)


def _files(site, here: str, doc: dict) -> Html:
    if not doc.get("files"):
        return Html("")
    shown = doc["files"][:STORE_FILES_SHOWN]
    items = [tag("li", link(site.repo_link(here, f"{doc['folder']}/{f}"), f)) for f in shown]
    more = len(doc["files"]) - len(shown)
    if more:
        items.append(tag("li", f"… and {more} more in {doc['folder']}/"))
    return join(
        [
            tag("h2", "Fixture files", id="files"),
            tag(
                "p",
                f"The case folder {doc['folder']}/ in the corpus (format: fixtures/README.md).",
                class_="small muted",
            ),
            tag("ul", *items, class_="cases"),
            tag(
                "p", link(paths.rel(here, paths.api_case(doc["id"])), "this case's results as JSON")
            ),
        ]
    )
