"""Where each page of the site lives, and links between pages as relative URLs (the site works
from disk and from any static host, at any prefix). Every implementation, case, feature and
requirement has one permanent path; cells have an id on their page."""

from __future__ import annotations

import posixpath
import re

API = "api/v1"


def slug(text: str) -> str:
    """A file or id name for any text: ASCII letters, digits and '.', '-', '@', '+' kept, anything
    else written as _xx (its UTF-8 bytes in hex), so different texts never share a name."""
    return re.sub(
        r"[^A-Za-z0-9.@+-]|_",
        lambda m: "".join(f"_{b:02x}" for b in m.group().encode()),
        text,
    )


def impl(name: str) -> str:
    return f"impl/{slug(name)}.html"


def case(case_id: str) -> str:
    return "case/" + "/".join(slug(p) for p in case_id.split("/")) + ".html"


def cases(fmt: str) -> str:
    return f"cases/{slug(fmt)}.html"


def features(fmt: str) -> str:
    return f"features/{slug(fmt)}.html"


def feature(fmt: str, name: str) -> str:
    """`dtype:string` of v3 -> feature/v3/dtype/string.html"""
    family, _, value = name.partition(":")
    return f"feature/{slug(fmt)}/{slug(family)}/{slug(value)}.html"


def requirements() -> str:
    return "requirements.html"


def requirement(rid: str) -> str:
    return f"requirements.html#{slug(rid)}"


def interop() -> str:
    return "interop.html"


def api_impl(name: str) -> str:
    return f"{API}/impl/{slug(name)}.json"


def api_case(case_id: str) -> str:
    return f"{API}/case/" + "/".join(slug(p) for p in case_id.split("/")) + ".json"


def rel(here: str, target: str) -> str:
    """The URL of `target` (a site path, maybe with #fragment or ?query) from page `here`."""
    path, tail = re.match(r"([^#?]*)(.*)", target).groups()  # type: ignore[union-attr]
    if not path:  # "#x" on the same page
        return tail
    return posixpath.relpath(path, posixpath.dirname(here) or ".") + tail
