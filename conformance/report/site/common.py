"""Pieces several pages share: outcome marks, share cells, a record's row, a known failure's
evidence, and the reproducer of a verdict."""

from __future__ import annotations

import re

from .. import verdicts as v
from ..scores import Share, percent
from .html import Html, esc, join, link, tag
from .paths import case as case_path
from .paths import impl as impl_path
from .paths import rel

# One mark per outcome, so a cell never speaks by colour alone.
MARK = {
    "wrong-data": "✗ wrong data",
    "errored": "✗ crashed",
    "failed": "✗ failed",
    "known-failure": "✗ known",
    "type-changed": "≈ type",
    "lenient": "~ lenient",
    "declined": "– declined",
    "unsupported": "– unsupported",
    "passed": "✓",
}
SHORT = {
    "wrong-data": "W",
    "errored": "E",
    "failed": "✗",
    "known-failure": "K",
    "type-changed": "T",
    "lenient": "L",
    "declined": "D",
    "unsupported": "–",
    "passed": "✓",
}
MESSAGE_SHOWN = 600  # characters of a message on a list page; the case page shows it whole


def legend() -> Html:
    return tag(
        "p",
        "Marks: ",
        join(
            (tag("span", f"{SHORT[o]} {o}", class_=f"badge o-{o}") for o in v.WORST_FIRST),
            " ",
        ),
        class_="small",
    )


def worst(records) -> str | None:
    found = [r["outcome"] for r in records]
    return min(found, key=v.rank) if found else None


def share_cell(share: Share, href: str | None = None, **attrs: object) -> Html:
    """A conformance share: percent, then passed / total; coloured by how close to all."""
    if not share.total:
        return tag("td", "–", class_="o-none num", **attrs)
    text = join(
        [
            tag("strong", percent(share.passed, share.total)),
            tag("span", f" {share.passed}/{share.total}", class_="small"),
        ]
    )
    css = "o-passed" if share.passed == share.total else "o-partial" if share.passed else "o-failed"
    return tag("td", link(href, text) if href else text, class_=f"{css} num", **attrs)


def count_cell(n: int, href: str | None = None, known: int = 0, **attrs: object) -> Html:
    text: object = str(n)
    if known:
        text = join([str(n), tag("span", f" ({known} known)", class_="small")])
    body = link(href, text) if href and n else text
    return tag("td", body, class_=("o-wrong-data" if n else "o-passed") + " num", **attrs)


def evidence(here: str, site, kf: dict) -> Html:
    """The upstream issue about the bug, or the ready-to-file report."""
    issue = kf.get("issue") or ""
    if issue.startswith("http"):
        return link(issue, issue.replace("https://github.com/", ""))
    if kf.get("report"):
        return join(
            [
                "unreported; ready-to-file report: ",
                link(site.repo_link(here, kf["report"]), kf["report"]),
            ]
        )
    return esc(issue or "no evidence recorded")


def partner(record: dict) -> str:
    """For a pair record, who wrote and who read."""
    if v.is_pair(record) and record.get("writer"):
        return f"{record['writer']} → {record['reader']}"
    return ""


def message(record: dict, limit: int | None = MESSAGE_SHOWN) -> Html:
    text = record.get("message") or ""
    types = record.get("types")
    if types:
        text = f"returned {types.get('observed')} for {types.get('expected')}. " + text
    if limit and len(text) > limit:
        text = text[: limit - 1] + "…"
    return tag("pre", text) if "\n" in text else esc(text)


def case_link(here: str, case_id: str, cases: dict) -> Html:
    return link(
        rel(here, case_path(case_id)), case_id, title=(cases.get(case_id) or {}).get("description")
    )


def impl_link(here: str, name: str, fragment: str = "") -> Html:
    return link(rel(here, impl_path(name) + fragment), name)


def area_of(case_id: str) -> str:
    parts = case_id.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def missing_capabilities(record: dict) -> list[str]:
    """The capabilities an unsupported record names as lacking ("lacks codec:zlib")."""
    return sorted(set(re.findall(r"lacks ([\w.*+-]+:[\w.*+-]+)", record.get("message") or "")))
