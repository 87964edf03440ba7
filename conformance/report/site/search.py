"""Search over every implementation, case, requirement and feature. The index is a script file
(assets/search-index.js) so that it loads from disk too, where a page may not fetch JSON."""

from __future__ import annotations

import json

from . import paths
from .cases import columns
from .features import all_features
from .html import join, link, tag
from .layout import page

HERE = "search.html"


def index(site) -> str:
    entries = [
        [n, paths.impl(n), "implementation", site.descriptions.get(n.split("@")[0], "")]
        for n in site.names
    ]
    for cid, doc in sorted(site.cases.items()):
        text = " ".join(
            [
                doc.get("description", ""),
                doc.get("kind", ""),
                doc.get("tier", ""),
                *(doc.get("requirements") or []),
                *(doc.get("needs") or []),
            ]
        )
        entries.append([cid, paths.case(cid), "case", text])
    for rid, req in sorted(site.requirements.items()):
        entries.append(
            [rid, paths.requirement(rid), "requirement", req.text.split(" *Src:*", 1)[0]]
        )
    for fmt in site.formats:
        for f in all_features(site, fmt):
            entries.append(
                [
                    f"{f} ({fmt})",
                    paths.feature(fmt, f),
                    "feature",
                    f"who reads and writes {f} in {fmt}",
                ]
            )
    text = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    return "window.SEARCH_INDEX=" + text + ";\n"


def render(site) -> tuple[str, str]:
    body = join(
        [
            tag("h1", "Search"),
            tag(
                "form",
                tag(
                    "label",
                    "Search implementations, cases, requirements and features",
                    for_="search-q",
                ),
                tag("br"),
                tag("input", type="search", id="search-q", name="q", size="40"),
                action=HERE,
                role="search",
                aria_label="search this site",
            ),
            tag("div", id="search-results", aria_live="polite"),
            tag(
                "noscript",
                tag(
                    "p",
                    "Search needs JavaScript. Everything it finds is also listed on: ",
                    join(
                        [
                            link(paths.cases(site.formats[0] if site.formats else "v3"), "cases"),
                            link(paths.requirements(), "requirements"),
                            link(
                                paths.features(site.formats[0] if site.formats else "v3"),
                                "features",
                            ),
                            link("index.html", "implementations"),
                        ],
                        " · ",
                    ),
                ),
            ),
            tag(
                "p",
                f"{len(columns(site))} implementations, {len(site.cases)} cases, {len(site.requirements)} requirements.",
                class_="small muted",
            ),
        ]
    )
    return HERE, page(site, HERE, "Search", body, scripts=("assets/search-index.js",))
