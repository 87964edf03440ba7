"""A page per implementation: its figures, its bugs grouped by known-failure entry (evidence and
reproducer), everything it did not pass (filterable), its misses by spec area and test kind, its
trend across versions, and its badge."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import pairwise

from conformance.resources import adapters_dir

from .. import scores as s
from .. import sweep
from .. import verdicts as v
from . import common as c
from . import paths
from .html import Html, join, link, table, tag
from .layout import definition, page
from .reproducers import reproducer

TIERS = ("required", "strict", "optional", "extension")
AREA_TESTS = ("read", "reject", "write", "zom", "cross", "roundtrip", "property")
PROBLEMS = ("wrong-data", "errored", "failed")


def render(site, name: str) -> tuple[str, str]:
    here = paths.impl(name)
    records = site.by_impl.get(name, [])
    sc = site.scores[name]
    toc = [
        ("#scores", "conformance"),
        ("#bugs", "known bugs"),
        ("#unexplained", "unexplained failures"),
        ("#profile", "allowed behaviour"),
        ("#areas", "misses by area"),
        ("#misses", "every record not passed"),
        ("#versions", "versions"),
        ("#interop", "interoperability"),
        ("#badge", "badge"),
    ]
    sections = [
        _figures(site, here, name, sc),
        _bugs(site, here, name, records),
        _unexplained(site, here, records),
        _profile(site, here, records),
        _areas(here, records),
        _misses(site, here, name, records),
        _versions(site, here, name),
        _interop(site, here, name),
        _badge(site, here, name, sc),
    ]
    present = join(sections)
    body = [
        tag("h1", name),
        tag(
            "nav",
            tag(
                "ul",
                *(tag("li", link(h, t)) for h, t in toc if f'id="{h[1:]}"' in present),
                class_="toc",
            ),
            aria_label="sections",
        ),
        _facts(site, here, name),
        present,
    ]
    return here, page(site, here, name, join(body))


def _facts(site, here: str, name: str) -> Html:
    base = v.base_name(name)
    parser = site.parsers.get(base, base)
    rows = [
        ("what it is", site.descriptions.get(base, "")),
        ("version tested", site.versions.get(name, "") or "not reported"),
        (
            "current release",
            f"{site.current[base]['release']}, not tested: {site.current[base]['why']}"
            if base in site.current
            else "",
        ),
        ("recorded", site.run_date(name)),
        (
            "metadata parser",
            f"shared with {parser} (counted once in the interop score)" if parser != base else "",
        ),
        (
            "adapter",
            join(
                [
                    *(
                        link(site.repo_link(here, f"adapters/{base}/{f}"), f)
                        for f in ("adapter.toml", "known-failures.toml")
                        if (adapters_dir() / base / f).is_file()
                    ),
                    link(paths.rel(here, paths.api_impl(name)), "results as JSON"),
                ],
                " · ",
            ),
        ),
    ]
    if v.is_version_row(name):
        rows.append(("version row", c.impl_link(here, base, "#versions")))
    return tag(
        "dl",
        *(join([tag("dt", k), tag("dd", val)]) for k, val in rows if val),
        class_="facts",
    )


def _figures(site, here: str, name: str, sc: s.Scores) -> Html:
    head = [tag("th", "format", scope="col")] + [
        tag("th", f"{t} (required)", scope="col") for t in s.CONFORMANCE_TESTS
    ]
    formats = sorted(
        {f for t in s.CONFORMANCE_TESTS for f in getattr(sc, t).formats},
        key=lambda f: site.formats.index(f) if f in site.formats else 99,
    )
    rows = []
    for fmt in formats:
        cells = []
        for t in s.CONFORMANCE_TESTS:
            got = getattr(sc, t).formats.get(fmt)
            share = s.Share(got[0], got[1]) if got else s.Share()
            cells.append(c.share_cell(share, f"?test={t}&format={fmt}#misses"))
        rows.append(tag("tr", tag("th", fmt, scope="row"), *cells))
    rows.append(
        tag(
            "tr",
            tag("th", "all formats", scope="row"),
            *(c.share_cell(getattr(sc, t), f"?test={t}#misses") for t in s.CONFORMANCE_TESTS),
        )
    )
    counts = tag(
        "p",
        join(
            [
                tag("strong", f"Silent wrong data: {sc.wrong_data.n} case(s)"),
                f" ({sc.wrong_data.known} explained by a known failure)" if sc.wrong_data.n else "",
                " · ",
                tag("strong", f"Crashes: {sc.crashes.n} case(s)"),
                " · Self round trips: "
                + (f"{sc.roundtrip.passed}/{sc.roundtrip.total}" if sc.roundtrip.total else "none"),
            ]
        ),
    )
    return join(
        [
            tag("h2", "Conformance", id="scores"),
            table(head, rows, f"{name} conformance", class_="scores"),
            counts,
            definition(site, here, "read"),
            definition(site, here, "wrong_data"),
        ]
    )


def _record_rows(site, here: str, records: list[dict], with_reproducer: bool = False) -> list[Html]:
    rows = []
    for r in sorted(records, key=_order):
        cells = [
            tag("th", c.case_link(here, r["case"], site.cases), scope="row"),
            tag("td", r["test"] + (f" ({c.partner(r)})" if c.partner(r) else "")),
            tag("td", v.store_kind(r)),
            tag("td", r.get("tier") or ""),
            tag("td", c.MARK.get(r["outcome"], r["outcome"]), class_=f"o-{r['outcome']}"),
            tag("td", c.message(r)),
        ]
        if with_reproducer:
            found = reproducer(r)
            cells.append(
                tag(
                    "td",
                    _reproducer(found) if found else tag("span", "not available", class_="muted"),
                )
            )
        rows.append(
            tag(
                "tr",
                *cells,
                data_outcome=r["outcome"],
                data_test=r["test"],
                data_area=c.area_of(r["case"]),
                data_format=r.get("format") or "",
                data_store=v.store_kind(r),
                data_tier=r.get("tier") or "",
            )
        )
    return rows


RECORD_HEAD = ("case", "test", "store", "tier", "outcome", "message")


def _head(names) -> list[Html]:
    return [tag("th", n, scope="col") for n in names]


def _reproducer(found: tuple[str, str]) -> Html:
    source, script = found
    return tag(
        "details",
        tag("summary", "reproducer"),
        tag(
            "p",
            f"Standalone script (from {source}); it ends in an AssertionError while the bug exists.",
            class_="small",
        ),
        tag("pre", tag("code", script)),
    )


def _bugs(site, here: str, name: str, records: list[dict]) -> Html:
    """Known-failure entries of this implementation, each with every record it explains."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        kf = r.get("known_failure")
        if (
            kf
            and r["outcome"] != "passed"
            and kf.get("owner", v.base_name(name)) == v.base_name(name)
        ):
            groups[kf.get("id") or kf.get("reason", "?")].append(r)
    parts = [
        tag(
            "h2",
            f"Known bugs ({len(groups)} entries, {sum(map(len, groups.values()))} records)",
            id="bugs",
        ),
        tag(
            "p",
            "Each entry of the implementation's known-failures.toml that explained a record of this "
            "run, with the upstream issue about that bug or a ready-to-file report, and a "
            "reproducer that uses the implementation's public API only.",
            class_="small muted",
        ),
    ]
    for kid in sorted(groups, key=lambda k: (min(v.rank(r["outcome"]) for r in groups[k]), k)):
        rs = groups[kid]
        kf = rs[0]["known_failure"]
        outcomes = Counter(r["outcome"] for r in rs)
        found = next((f for f in map(reproducer, rs) if f), None)
        parts.append(
            tag(
                "section",
                tag("h3", link(f"#kf-{paths.slug(kid)}", kid, class_="permalink")),
                tag("p", kf.get("reason", "")),
                tag(
                    "p",
                    tag("strong", "Evidence: "),
                    c.evidence(here, site, kf),
                    " · ",
                    ", ".join(
                        f"{n} {o}" for o, n in sorted(outcomes.items(), key=lambda x: v.rank(x[0]))
                    ),
                    " · strict" if kf.get("strict") else "",
                ),
                _reproducer(found)
                if found
                else tag("p", "Reproducer: not available yet.", class_="small muted"),
                tag("div", tag("strong", "Observed: "), c.message(rs[0]), class_="small"),
                tag(
                    "details",
                    tag("summary", f"{len(rs)} record(s) it explains"),
                    tag(
                        "ul",
                        *(_record_item(site, here, r) for r in sorted(rs, key=_order)),
                        class_="cases small",
                    ),
                ),
                class_="bug",
                id=f"kf-{paths.slug(kid)}",
            )
        )
    return join(parts)


def _order(r: dict) -> tuple:
    return (v.rank(r["outcome"]), r["case"], r["test"], v.store_kind(r))


def _record_item(site, here: str, r: dict) -> Html:
    where = ", ".join(x for x in (r["test"], c.partner(r), v.store_kind(r)) if x)
    return tag(
        "li",
        c.case_link(here, r["case"], site.cases),
        f" ({where}) ",
        tag("span", c.SHORT[r["outcome"]], class_=f"badge o-{r['outcome']}", title=r["outcome"]),
    )


def _unexplained(site, here: str, records: list[dict]) -> Html:
    rs = [r for r in records if r["outcome"] in PROBLEMS and not r.get("known_failure")]
    intro = tag(
        "p",
        "Wrong data, crashes and failures that no known-failure entry explains: each is either a "
        "bug to report upstream or a fault of this suite.",
        class_="small muted",
    )
    if not rs:
        return join([tag("h2", "Unexplained failures: none", id="unexplained")])
    return join(
        [
            tag("h2", f"Unexplained failures ({len(rs)})", id="unexplained"),
            intro,
            table(
                _head(RECORD_HEAD + ("reproducer",)),
                _record_rows(site, here, rs, True),
                "unexplained failures",
            ),
        ]
    )


def _profile(site, here: str, records: list[dict]) -> Html:
    """What the spec lets it do either way: type changes, leniency, declined and unsupported."""
    parts = [tag("h2", "Behaviour the spec allows", id="profile")]
    for outcome in ("type-changed", "lenient", "declined"):
        rs = [r for r in records if r["outcome"] == outcome]
        if rs:
            parts.append(
                tag(
                    "details",
                    tag("summary", f"{len(rs)} {outcome}: {v.OUTCOMES[outcome]}"),
                    table(_head(RECORD_HEAD), _record_rows(site, here, rs), outcome),
                )
            )
    lacking: Counter = Counter()
    unsupported = [r for r in records if r["outcome"] == "unsupported"]
    for r in unsupported:
        lacking.update(c.missing_capabilities(r) or ["(refused at run time)"])
    if unsupported:
        items = [
            tag("li", f"{cap}: {n} record(s)")
            for cap, n in sorted(lacking.items(), key=lambda x: (-x[1], x[0]))
        ]
        parts.append(
            tag(
                "details",
                tag("summary", f"{len(unsupported)} unsupported: what it lacks"),
                tag("ul", *items, class_="cases"),
            )
        )
    return join(parts) if len(parts) > 1 else Html("")


def _areas(here: str, records: list[dict]) -> Html:
    table_: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for r in records:
        if r["test"] in AREA_TESTS and (v.own_store(r) or v.is_pair(r)):
            table_[c.area_of(r["case"])][r["test"]][r["outcome"]] += 1
    tests = [t for t in AREA_TESTS if any(t in row for row in table_.values())]
    rows = []
    for area in sorted(table_):
        cells = []
        for t in tests:
            counts = table_[area][t]
            total = sum(counts.values())
            if not total:
                cells.append(tag("td", "", class_="o-none"))
                continue
            missed = total - counts["passed"] - counts["unsupported"] - counts["declined"]
            worst = min(counts, key=v.rank)
            text = f"{missed} of {total}" if missed else f"0 of {total}"
            cells.append(
                tag(
                    "td",
                    link(f"?area={area}&test={t}#misses", text) if missed else text,
                    class_=f"o-{worst if missed else ('passed' if counts['passed'] else 'unsupported')} num",
                    title=", ".join(
                        f"{n} {o}" for o, n in sorted(counts.items(), key=lambda x: v.rank(x[0]))
                    ),
                )
            )
        rows.append(tag("tr", tag("th", area, scope="row"), *cells))
    return join(
        [
            tag("h2", "Misses by spec area and test kind", id="areas"),
            tag(
                "p",
                "Records not passed (neither passed, unsupported nor declined) of all records, every "
                "tier, on the case's own store; pair tests where this implementation is the side at "
                "fault (passed pairs count for both sides). A cell opens its records below.",
                class_="small muted",
            ),
            table(_head(["area", *tests]), rows, "misses by area"),
        ]
    )


def _filter_form(table_id: str, records: list[dict]) -> Html:
    def select(name: str, label: str, values) -> Html:
        options = [tag("option", "any", value="")] + [
            tag("option", x, value=x) for x in sorted(set(values))
        ]
        return tag("label", label, tag("select", *options, name=name))

    return tag(
        "form",
        tag("label", "text", tag("input", type="search", name="q")),
        select("outcome", "outcome", (r["outcome"] for r in records)),
        select("test", "test", (r["test"] for r in records)),
        select("format", "format", (r.get("format") or "" for r in records)),
        select("area", "area", (c.area_of(r["case"]) for r in records)),
        select("store", "store kind", (v.store_kind(r) for r in records)),
        select("tier", "tier", (r.get("tier") or "" for r in records)),
        tag("output"),
        class_="filter",
        data_for=table_id,
        hidden=True,
    )


def _misses(site, here: str, name: str, records: list[dict]) -> Html:
    rs = [r for r in records if r["outcome"] not in ("passed", *v.NOT_TRIED)]
    return join(
        [
            tag("h2", f"Every record not passed ({len(rs)})", id="misses"),
            tag(
                "p",
                "Everything but passed, unsupported and declined (those are summed up above). "
                "Filter by outcome, test kind, format, area, store kind and tier; the filter is "
                "kept in the address, so a link shows the same list.",
                class_="small muted",
            ),
            _filter_form("misses-table", rs),
            table(
                _head(RECORD_HEAD),
                _record_rows(site, here, rs),
                "records not passed",
                id="misses-table",
            ),
        ]
    )


def _versions(site, here: str, name: str) -> Html:
    """The implementation at every version the results hold (columns driving the same package,
    in release order), with the same figures, and what changed from one version to the next."""
    columns = next((cols for cols in site.sweeps.values() if any(c.name == name for c in cols)), [])
    if len(columns) < 2:
        return Html("")
    head = _head(["version", "column", "read", "write", "reject", "wrong data", "crashes"])
    rows = []
    for col in columns:
        sc = site.scores.get(col.name) or s.scores([])
        rows.append(
            tag(
                "tr",
                tag("th", col.version, scope="row"),
                tag(
                    "td",
                    c.impl_link(here, col.name) if col.name != name else tag("strong", col.name),
                ),
                *(c.share_cell(getattr(sc, t)) for t in s.CONFORMANCE_TESTS),
                c.count_cell(sc.wrong_data.n, known=sc.wrong_data.known),
                c.count_cell(sc.crashes.n),
            )
        )
    changes = []
    for older, newer in pairwise(columns):
        changed = sweep.changes(site.records, older.name, newer.name)
        items = [
            tag("li", c.case_link(here, case, site.cases), f" ({test}): {was} → {now}")
            for test, case, was, now in changed
        ]
        changes.append(
            tag(
                "details",
                tag(
                    "summary", f"{older.version} → {newer.version}: {len(changed)} case(s) changed"
                ),
                tag("ul", *items, class_="small"),
            )
        )
    return join(
        [
            tag("h2", "Across versions", id="versions"),
            tag(
                "p",
                "The same figures for every version in the results (version rows run with the pinned release's known failures), then the cases whose outcome changed between consecutive versions (single tests, own store).",
                class_="small muted",
            ),
            table(head, rows, "versions"),
            *changes,
        ]
    )


def _interop(site, here: str, name: str) -> Html:
    if v.is_version_row(name):
        return Html("")
    items = []
    for fmt in site.formats:
        grid = s.grid(site.records, fmt)
        as_writer = {r: cell for (w, r), cell in grid.items() if w == name and r != name}
        as_reader = {w: cell for (w, r), cell in grid.items() if r == name and w != name}
        if not as_writer and not as_reader:
            continue

        def read_by(cells: dict) -> str:
            ok = sorted(k for k, cell in cells.items() if cell.get("passed") and len(cell) == 1)
            return ", ".join(ok) or "none"

        items.append(
            tag(
                "li",
                link(paths.rel(here, paths.interop() + f"#{paths.slug(fmt)}"), fmt),
                f": every store it wrote was read exactly by: {read_by(as_writer)}; "
                f"it read exactly every store written by: {read_by(as_reader)}.",
            )
        )
    if not items:
        return Html("")
    return join([tag("h2", "Interoperability", id="interop"), tag("ul", *items)])


def _badge(site, here: str, name: str, sc: s.Scores) -> Html:
    svg = f"badges/{paths.slug(name)}.svg"
    endpoint = f"badges/{paths.slug(name)}.json"
    base = (site.site_url or "").rstrip("/")
    page_url = f"{base}/{here}" if base else here
    if base:
        shield = f"https://img.shields.io/endpoint?url={base}/{endpoint}"
        code = f"[![zarr conformance]({shield})]({page_url})"
        html_code = f'<a href="{page_url}"><img alt="zarr conformance" src="{shield}"></a>'
        note = "shields.io reads the badge's JSON from the published site."
    else:
        code = f"[![zarr conformance](SITE_URL/{svg})](SITE_URL/{here})"
        html_code = (
            f'<a href="SITE_URL/{here}"><img alt="zarr conformance" src="SITE_URL/{svg}"></a>'
        )
        note = (
            "Replace SITE_URL with where this site is published (zarr-conformance report "
            "--site-url fills it in); badges/NAME.json beside it is the shields.io endpoint form."
        )
    return join(
        [
            tag("h2", "Badge", id="badge"),
            tag("p", tag("img", src=paths.rel(here, svg), alt=s.badge(name, sc)["message"])),
            tag("p", "Markdown:"),
            tag("pre", tag("code", code)),
            tag("p", "HTML:"),
            tag("pre", tag("code", html_code)),
            tag("p", note, class_="small muted"),
            definition(site, here, "badge"),
        ]
    )
