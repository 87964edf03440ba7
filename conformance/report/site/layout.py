"""The frame of every page: head, navigation, the search box, the run's facts in the footer."""

from __future__ import annotations

from .html import Html, esc, join, link, tag
from .paths import rel

NAV = (
    ("index.html", "Overview"),
    ("cases/v3.html", "Cases"),
    ("features/v3.html", "Features"),
    ("requirements.html", "Requirements"),
    ("interop.html", "Interop"),
    ("bench.html", "Bench"),
    ("hostile.html", "Hostile stores"),
    ("about.html", "Definitions"),
)


def page(
    site, here: str, title: str, body: object, *, head: object = "", scripts: tuple = ()
) -> str:
    """A whole HTML document for the site path `here`."""
    nav_targets = {p for p, _ in NAV if p != "bench.html" or site.bench}
    items = [
        tag(
            "li",
            link(
                rel(here, target),
                label,
                aria_current="page" if target == here else None,
            ),
        )
        for target, label in NAV
        if target in nav_targets
    ]
    search = tag(
        "form",
        tag("label", "Search", for_="site-q", class_="skip"),
        tag(
            "input", id="site-q", name="q", type="search", placeholder="case, requirement, feature"
        ),
        tag("button", "Search", type="submit"),
        action=rel(here, "search.html"),
        role="search",
        aria_label="site search",
    )
    header = tag(
        "header",
        link("#main", "Skip to content", class_="skip"),
        link(rel(here, "index.html"), "Zarr conformance", class_="brand"),
        tag("nav", tag("ul", *items), aria_label="site"),
        search,
        class_="site",
    )
    meta = site.meta
    footer = tag(
        "footer",
        join(
            [
                f"Run {meta.get('run_id', '?')} on {meta.get('date', '?')}",
                f"corpus {meta.get('corpus_version', '?')}",
                link(rel(here, "about.html"), "how each figure is defined"),
                link(rel(here, "api/v1/index.json"), "JSON API"),
                "rendered by zarr-conformance report from recorded results",
            ],
            " · ",
        ),
    )
    script_tags = join(tag("script", src=rel(here, s)) for s in (*scripts, "assets/site.js"))
    return "".join(
        (
            "<!DOCTYPE html>\n",
            tag(
                "html",
                tag(
                    "head",
                    tag("meta", charset="utf-8"),
                    tag("meta", name="viewport", content="width=device-width, initial-scale=1"),
                    tag("title", f"{title} · Zarr conformance"),
                    tag("link", rel="stylesheet", href=rel(here, "assets/site.css")),
                    head,
                ),
                tag("body", header, tag("main", body, id="main"), footer, script_tags),
                lang="en",
            ),
            "\n",
        )
    )


def outcome_cell(outcome: str | None, text: object = None, **attrs: object) -> Html:
    """A table cell coloured by an outcome (its name is the text unless given)."""
    css = f"o-{outcome}" if outcome else "o-none"
    return tag("td", text if text is not None else (outcome or "–"), class_=css, **attrs)


def definition(site, here: str, key: str) -> Html:
    """The written definition of a figure, as shown beside it, with its link to the full list."""
    from ..scores import DEFINITIONS

    return tag(
        "p",
        esc(DEFINITIONS[key]) + Html(" ") + link(rel(here, f"about.html#{key}"), "(definitions)"),
        class_="small muted",
    )
