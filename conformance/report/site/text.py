"""Spec quotes as readable text: inline reStructuredText (the zarr-specs) or Markdown (the
zarr-extensions READMEs) turned into HTML, and the link to the quoted section upstream.

Only inline markup occurs in a quoted sentence, so a few patterns cover it: literals, emphasis,
hyperlinks, section references and roles; anything else stays as written (escaped)."""

from __future__ import annotations

import re

from .html import Html, esc, link, tag

_RST = re.compile(
    r"``(?P<literal>.+?)``"
    r"|`(?P<ltext>[^`<]+?)\s*<(?P<url>[^>`]+)>`__?"
    r"|:[\w:-]+:`(?P<role>[^`]+)`"
    r"|`(?P<ref>[^`]+)`__?"
    r"|`(?P<interp>[^`]+)`"
    r"|\*\*(?P<strong>[^*]+)\*\*"
    r"|(?<![\w*])\*(?P<em>[^*\s][^*]*)\*(?!\w)"
    r"|\\(?P<escaped>.)"
)
_MD = re.compile(
    r"`(?P<literal>[^`]+)`"
    r"|\[(?P<ltext>[^\]]+)\]\((?P<url>[^)\s]+)\)"
    r"|\*\*(?P<strong>[^*]+)\*\*"
    r"|(?<![\w*])[*_](?P<em>[^*_\s][^*_]*)[*_](?!\w)"
)


def inline(text: str, markdown: bool = False) -> Html:
    """One quoted sentence as HTML."""
    pattern = _MD if markdown else _RST
    out, at = [], 0
    for m in pattern.finditer(text):
        out.append(esc(text[at : m.start()]))
        at = m.end()
        g = m.groupdict()
        if g.get("literal") is not None or g.get("interp") is not None:
            out.append(tag("code", g.get("literal") or g.get("interp")))
        elif g.get("url") is not None:
            url = g["url"]
            out.append(link(url, g["ltext"]) if re.match(r"https?://", url) else esc(g["ltext"]))
        elif g.get("role") is not None:
            out.append(esc(re.sub(r"\s*<[^>]*>$", "", g["role"])))  # :ref:`text <target>`
        elif g.get("ref") is not None:
            out.append(esc(g["ref"]))  # a reference to a section of the same document
        elif g.get("strong") is not None:
            out.append(tag("strong", g["strong"]))
        elif g.get("em") is not None:
            out.append(tag("em", g["em"]))
        elif g.get("escaped") is not None:
            out.append(esc(g["escaped"]))
    out.append(esc(text[at:]))
    return Html("".join(out))


# The spec folders the citations name (fixtures/README.md: `spec` is relative to the specs folder)
# and the upstream commit each copy was taken at (conformance/requirements.md, section 0).
SOURCES = {
    "zarr-specs-v3.0": ("zarr-developers/zarr-specs", "52610ba"),
    "zarr-specs-v3.1": ("zarr-developers/zarr-specs", "fc7dd9c"),
    "zarr-specs-v3-draft-2023-01": ("zarr-developers/zarr-specs", "d061a83"),
    "zarr-extensions": ("zarr-developers/zarr-extensions", "4da7b37"),
}
SEEDS = {
    "000_19436ea021b9e529.txt": "ZEP 6, Zarr Object Models (draft)",
    "001_723174111d2550b5.txt": "OGC 21-050r1, Zarr v2 community standard",
    "002_999875d545b8fc72.txt": "Zarr core v3.0 editor's draft (January 2023)",
    "003_33ff5bffb6477d4d.txt": "ZEP 1, Zarr v3",
    "004_3e9adb490e6a5614.txt": "Zarr storage spec v1",
}


def anchor(section: str, markdown: bool) -> str:
    """The id GitHub gives a heading: docutils ids for reStructuredText, GitHub's slug for
    Markdown (which keeps underscores)."""
    text = section.strip().lower()
    if markdown:
        return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def spec_url(spec: str, section: str | None) -> str | None:
    """The quoted file at the commit it was quoted from, at the section; None for texts with no
    public copy (the seed documents)."""
    folder, _, rest = spec.partition("/")
    if folder not in SOURCES or not rest:
        return None
    repo, commit = SOURCES[folder]
    url = f"https://github.com/{repo}/blob/{commit}/{rest}"
    return url + (f"#{anchor(section, rest.endswith('.md'))}" if section else "")


def spec_name(spec: str) -> str:
    """A readable name for the quoted text."""
    seed = spec.rsplit("/", 1)[-1]
    if spec.startswith("../seeds/") and seed in SEEDS:
        return SEEDS[seed]
    folder, _, rest = spec.partition("/")
    if folder in SOURCES:
        return f"{folder} {rest}"
    return spec


def is_markdown(spec: str) -> bool:
    return spec.endswith(".md")
