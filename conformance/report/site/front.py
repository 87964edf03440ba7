"""The front page: one screen that answers "how conformant is each implementation": per column
(implementation or version row) the required read, write and reject conformance, silent wrong
data, crashes, the date of its run and the corpus version, each a link to the evidence."""

from __future__ import annotations

from .. import scores as s
from .. import verdicts as v
from . import common as c
from . import paths
from .html import Html, join, link, table, tag
from .layout import page

HERE = "index.html"


def render(site) -> tuple[str, str]:
    head = [
        tag("th", "implementation ", tag("span", "version", class_="small"), scope="col"),
        *(
            tag("th", f"{t} ", tag("span", "required", class_="small"), scope="col", class_="num")
            for t in s.CONFORMANCE_TESTS
        ),
        tag("th", "silent wrong data", scope="col", class_="num"),
        tag("th", "crashes", scope="col", class_="num"),
        tag("th", "formats", scope="col"),
        tag("th", "run", scope="col"),
        tag("th", "corpus", scope="col"),
    ]
    rows = [_row(site, name) for name in site.names]
    corpus = site.meta.get("corpus_version", "?")
    implementations = len([n for n in site.names if n != "reference" and not v.is_version_row(n)])
    rows_of_versions = len([n for n in site.names if v.is_version_row(n)])
    lead = tag(
        "p",
        f"{implementations} implementations"
        + (f" and {rows_of_versions} older releases" if rows_of_versions else "")
        + f" against corpus {corpus} ({site.meta.get('cases', '?')} cases), run {site.meta.get('date', '?')}. "
        "Each figure links to its evidence and is defined below the table; wrong data and crashes count cases.",
        class_="lead",
    )
    notes = tag(
        "ul",
        *(
            tag(
                "li",
                tag("strong", f"{key.replace('_', ' ')}: "),
                s.SCOPE[key],
                ". ",
                link(f"about.html#{key}", "definition"),
            )
            for key in ("read", "write", "reject", "wrong_data", "crashes")
        ),
        tag(
            "li",
            "A version row (name@version) runs an older release with the current release's known failures; it is left out of interop scores.",
        ),
        class_="small",
    )
    more = tag(
        "p",
        "Questions this site answers: ",
        join(
            [
                link(
                    "features/v3.html",
                    "which implementations read a feature (data types, codecs, sharding, stores)",
                ),
                link("interop.html", "who reads whose output"),
                link("requirements.html", "how many implementations satisfy each requirement"),
                link("cases/v3.html", "every case across implementations"),
            ],
            " · ",
        ),
    )
    body = join(
        [
            tag("h1", "Zarr implementations: conformance at a glance"),
            lead,
            table(head, rows, "conformance per implementation", class_="front"),
            notes,
            more,
        ]
    )
    return HERE, page(site, HERE, "Overview", body)


def _behind(site, name: str) -> Html:
    """A column that cannot test the implementation's current release says so, and why."""
    current = site.current.get(v.base_name(name))
    if not current or v.is_version_row(name):
        return ""
    # on a line of its own: the sticky first column is narrow on a phone; the page says why
    return join(
        [
            tag("br"),
            tag(
                "span",
                f"not current (current: {current['release']})",
                class_="small",
                title=f"the current release cannot be tested here: {current['why']}",
            ),
        ]
    )


def _row(site, name: str) -> Html:
    sc = site.scores[name]
    target = paths.impl(name)
    cell = paths.slug(name)  # each figure's cell has an id: index.html#zarr-python--read
    formats = sorted({f for t in s.CONFORMANCE_TESTS for f in getattr(sc, t).formats})
    label = join(
        [
            c.impl_link(HERE, name),
            " ",
            tag("span", site.versions.get(name, "") or "version not reported", class_="small"),
            tag("span", " · the oracle", class_="small") if name == "reference" else "",
            _behind(site, name),
        ]
    )
    return tag(
        "tr",
        tag("th", label, scope="row"),
        *(
            c.share_cell(getattr(sc, t), f"{target}?test={t}#misses", id=f"{cell}--{t}")
            for t in s.CONFORMANCE_TESTS
        ),
        c.count_cell(
            sc.wrong_data.n,
            f"{target}?outcome=wrong-data#misses",
            sc.wrong_data.known,
            id=f"{cell}--wrong-data",
        ),
        c.count_cell(sc.crashes.n, f"{target}?outcome=errored#misses", id=f"{cell}--crashes"),
        tag("td", ", ".join(formats) or "–"),
        tag("td", link("about.html#run", site.run_date(name))),
        tag("td", link("about.html#corpus", site.meta.get("corpus_version", "?"))),
        class_="version-row" if v.is_version_row(name) else None,
    )
