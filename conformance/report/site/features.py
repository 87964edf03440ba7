"""Feature × implementation (one page per format, read and write apart) and a page per feature
with its cases. A feature is a capability a case needs (case.json `needs`: data types, codecs,
chunk grids, key encodings, sharding, node kinds) or the kind of store a record ran on."""

from __future__ import annotations

import json
from collections import defaultdict

from .. import verdicts as v
from . import common as c
from . import paths
from .cases import case_head, case_rows, columns, outcome_of
from .html import Html, join, link, table, tag
from .layout import definition, page

GROUPS = (
    ("Data types", lambda n: n.startswith("dtype:")),
    ("Codecs", lambda n: n.startswith("codec:") and n != "codec:sharding_indexed"),
    ("Sharding", lambda n: n == "codec:sharding_indexed" or n.startswith("feature:sharding")),
    ("Chunk grids", lambda n: n.startswith("grid:")),
    (
        "Chunk key encodings",
        lambda n: n in ("feature:chunk-key-encoding-v2", "feature:dimension-separator-slash"),
    ),
    ("Stores", lambda n: n.startswith("store:")),
    ("Nodes", lambda n: n.startswith("node:")),
    ("Other features", lambda n: n.startswith("feature:")),
)
KINDS = ("read", "write")
CODES = {
    "passed": "p",
    "unsupported": "u",
    "declined": "u",
    "wrong-data": "w",
    "errored": "e",
    "known-failure": "k",
    "type-changed": "t",
}


def group_of(name: str) -> str | None:
    return next((g for g, test in GROUPS if test(name)), None)


def record_features(site, r: dict) -> list[str]:
    """What a record exercised: its case's needs (op and format names aside), and the store kind it
    ran on in place of the case's own."""
    doc = site.cases.get(r["case"]) or {}
    needs = [n for n in doc.get("needs") or [] if group_of(n) and not n.startswith("store:")]
    return needs + [f"store:{v.store_kind(r)}"]


def tally(site, fmt: str) -> dict[str, dict[tuple[str, str], dict[str, int]]]:
    """feature -> (implementation, read|write) -> outcome -> cases, over single read/write
    records of the format (each case once per store kind)."""
    return site.memo(("features", fmt), lambda: _tally(site, fmt))


def _tally(site, fmt: str) -> dict:
    out: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for r in site.records:
        if r["test"] in KINDS and r.get("format") == fmt and not v.is_version_row(r["impl"]):
            for f in record_features(site, r):
                out[f][(r["impl"], r["test"])][r["outcome"]] += 1
    return out


def status(counts: dict[str, int]) -> tuple[str, str]:
    """(css outcome, text) of a feature cell."""
    total = sum(counts.values())
    tried = total - counts.get("unsupported", 0) - counts.get("declined", 0)
    passed = counts.get("passed", 0)
    if not total:
        return "none", ""
    if not tried:
        return "unsupported", "–"
    if passed == tried == total:
        return "passed", f"✓ {passed}/{total}"
    bad = min(
        (o for o in counts if o not in ("passed", "unsupported", "declined")),
        key=v.rank,
        default=None,
    )
    if bad in ("wrong-data", "errored"):
        return bad, f"{c.SHORT[bad]} {passed}/{total}"
    return ("partial" if passed else "failed"), f"{'◐' if passed else '✗'} {passed}/{total}"


def render_table(site, fmt: str) -> tuple[str, str]:
    here = paths.features(fmt)
    counts = tally(site, fmt)
    names = columns(site)
    head = [tag("th", "feature", scope="col")] + [
        tag("th", n, tag("br"), tag("span", k, class_="small"), scope="col")
        for n in names
        for k in KINDS
    ]
    rows = []
    for group, _ in GROUPS:
        members = sorted(f for f in counts if group_of(f) == group)
        if not members:
            continue
        rows.append(
            tag(
                "tr", tag("th", group, scope="row", colspan=str(1 + 2 * len(names)), class_="group")
            )
        )
        for f in members:
            cells = []
            for n in names:
                for k in KINDS:
                    css, text = status(counts[f].get((n, k), {}))
                    cell_id = f"{paths.slug(f)}--{paths.slug(n)}--{k}"
                    target = paths.rel(here, paths.feature(fmt, f)) + f"#{paths.slug(n)}"
                    cells.append(
                        tag(
                            "td",
                            link(target, text) if text else "",
                            class_=f"o-{css} num",
                            id=cell_id,
                        )
                    )
            rows.append(
                tag(
                    "tr",
                    tag(
                        "th",
                        tag(
                            "input",
                            type="checkbox",
                            name="need",
                            value=f,
                            form="combo-form",
                            aria_label=f"combine {f}",
                            class_="js-only",
                        ),
                        " ",
                        link(paths.rel(here, paths.feature(fmt, f)), f),
                        scope="row",
                        id=paths.slug(f),
                    ),
                    *cells,
                    data_group=paths.slug(group),
                )
            )
    others = join(
        (
            link(paths.rel(here, paths.features(f)), f) if f != fmt else tag("strong", f)
            for f in site.formats
        ),
        " · ",
    )
    body = join(
        [
            tag("h1", f"Features of {fmt}: who reads and writes them"),
            tag("p", "Formats: ", others),
            definition(site, here, "feature"),
            tag(
                "p",
                "✓ every case passed · ◐ some passed · ✗ none passed · W wrong data · E crashed · – unsupported or declined (it does not claim the feature); passed / cases. Tick features to see who handles them together.",
                class_="small",
            ),
            tag(
                "form",
                tag(
                    "p",
                    "Tick features in the first column of the table: who reads them together appears here (the choice is kept in the address).",
                    class_="small",
                ),
                id="combo-form",
                class_="combo",
                hidden=True,
            ),
            tag("div", id="combo", hidden=True, aria_live="polite"),
            table(head, rows, f"features of {fmt}", class_="features"),
            _combo_data(site, here, fmt, names),
        ]
    )
    return here, page(site, here, f"Features of {fmt}", body)


def _combo_data(site, here: str, fmt: str, names: list[str]) -> Html:
    """The cases of the format with their features and one outcome code per implementation, for
    the combination view (read cases; the page's script reads it)."""
    index: dict[str, int] = {}
    cases = []
    for cid in sorted(
        cid for cid, d in site.cases.items() if d.get("format") == fmt and d.get("kind") == "read"
    ):
        needs = [n for n in site.cases[cid].get("needs") or [] if group_of(n)]
        ids = [index.setdefault(n, len(index)) for n in needs]
        found = [outcome_of(site, n, cid) for n in names]
        codes = "".join("-" if o is None else CODES.get(o, "f") for o in found)
        cases.append([cid, "read", ids, codes])
    features = sorted(index, key=index.get)  # type: ignore[arg-type]
    data = {
        "kind": "read",
        "features": features,
        "impls": names,
        "links": [paths.rel(here, paths.impl(n)) for n in names],
        "cases": cases,
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return Html(f'<script type="application/json" id="combo-data">{text}</script>')


def render_feature(site, fmt: str, feature: str) -> tuple[str, str]:
    here = paths.feature(fmt, feature)
    counts = tally(site, fmt).get(feature, {})
    names = columns(site)
    rows = []
    for n in names:
        cells = []
        for k in KINDS:
            css, text = status(counts.get((n, k), {}))
            cells.append(tag("td", text or "not run", class_=f"o-{css} num"))
        rows.append(
            tag("tr", tag("th", c.impl_link(here, n), scope="row"), *cells, id=paths.slug(n))
        )
    listing: list[object]
    if feature.startswith("store:"):
        # every case runs on some store: the cases of the format are listed on their own page
        listing = [
            tag(
                "p",
                "Cases: ",
                link(paths.rel(here, paths.cases(fmt)), f"every case of {fmt}"),
                " (a store kind is where a case ran, not something it needs).",
            )
        ]
    else:
        ids = sorted(
            cid
            for cid, d in site.cases.items()
            if d.get("format") == fmt and feature in (d.get("needs") or [])
        )
        listing = [
            tag("h2", f"Cases that need it ({len(ids)})", id="cases"),
            c.legend(),
            table(case_head(names), case_rows(site, here, ids, names), "cases"),
        ]
    body = join(
        [
            tag("h1", f"{feature} in {fmt}"),
            tag("p", link(paths.rel(here, paths.features(fmt)), f"all features of {fmt}")),
            definition(site, here, "feature"),
            table(
                [tag("th", h, scope="col") for h in ("implementation", "read", "write")],
                rows,
                "support",
            ),
            *listing,
        ]
    )
    return here, page(site, here, f"{feature} in {fmt}", body)


def all_features(site, fmt: str) -> list[str]:
    """Every feature a page of the format can name: what its records exercised and what its
    cases need (a reject case's needs are features too)."""
    needed = {
        n
        for d in site.cases.values()
        if d.get("format") == fmt
        for n in d.get("needs") or []
        if group_of(n)
    }
    return sorted(set(tally(site, fmt)) | needed)
