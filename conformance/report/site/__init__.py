"""The compatibility report as a static site: pages that work from disk and from any static host
(relative links only, no fetches), one module per kind of page. `render` writes them all."""

from __future__ import annotations

import shutil
from pathlib import Path

from .. import badges
from .. import scores as s
from . import (
    about,
    api,
    assets,
    bench,
    case,
    cases,
    features,
    front,
    hostile,
    impl,
    interop,
    requirements,
    search,
)
from .context import Site

GENERATED = (
    "impl",
    "case",
    "cases",
    "feature",
    "features",
    "api",
    "assets",
)  # wholly generated folders


def pages(site: Site):
    """(site path, text) of every file of the site, in a fixed order."""
    yield front.render(site)
    for name in site.names:
        yield impl.render(site, name)
    for cid in sorted(set(site.cases) | set(site.by_case)):
        yield case.render(site, cid)
    for fmt in site.formats:
        yield cases.render(site, fmt)
        yield features.render_table(site, fmt)
        for f in features.all_features(site, fmt):
            yield features.render_feature(site, fmt, f)
    yield requirements.render(site)
    yield interop.render(site)
    yield hostile.render(site)
    yield about.render(site)
    yield search.render(site)
    found = bench.render(site)
    if found:
        yield found
    yield "assets/site.css", assets.CSS.lstrip()
    yield "assets/site.js", assets.JS.lstrip()
    yield "assets/search-index.js", search.index(site)
    yield from api.files(site).items()
    for name in site.names:
        badge = s.badge(name, site.scores[name])
        yield f"badges/{name}.svg", badges.svg(badge)


def render(site: Site, out: Path) -> list[Path]:
    for folder in GENERATED:
        shutil.rmtree(out / folder, ignore_errors=True)
    written = []
    for path, text in pages(site):
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
        written.append(target)
    return written
