"""A tiny HTML builder: text is escaped unless it is already `Html`, so a page cannot inject a
record's message or a case's description as markup."""

from __future__ import annotations

import html as _html
from collections.abc import Iterable

VOID = frozenset({"br", "input", "link", "meta", "img", "hr"})


class Html(str):
    """Markup that is safe to insert as is; joined with plain text by `+`, the text is escaped."""

    __slots__ = ()

    def __add__(self, other: object) -> Html:
        return Html(str.__add__(self, esc(other)))

    def __radd__(self, other: object) -> Html:
        return Html(str.__add__(esc(other), self))


def esc(value: object) -> Html:
    if isinstance(value, Html):
        return value
    return Html(_html.escape("" if value is None else str(value), quote=True))


def join(parts: Iterable[object], sep: str = "") -> Html:
    return Html(esc(sep).join(esc(p) for p in parts if p is not None and p != ""))


def _attrs(attrs: dict[str, object]) -> str:
    out = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")  # class_ -> class, data_x -> data-x
        out.append(f" {name}" if value is True else f' {name}="{esc(value)}"')
    return "".join(out)


def tag(element: str, /, *children: object, **attrs: object) -> Html:
    """<element attrs>children</element>; children are escaped unless Html, None and "" are
    dropped; attribute names: class_ -> class, data_x -> data-x, True -> bare, None -> left out."""
    start = f"<{element}{_attrs(attrs)}>"
    if element in VOID:
        return Html(start)
    return Html("".join((start, join(children), f"</{element}>")))


def link(href: str, /, *children: object, **attrs: object) -> Html:
    return tag("a", *children, href=href, **attrs)


def table(head: Iterable[object], rows: Iterable[object], label: str, /, **attrs: object) -> Html:
    """A table in its own scrolling region (sticky header and first column come from the CSS);
    the region is focusable so a keyboard can scroll it."""
    thead = tag("thead", tag("tr", *head))
    return tag(
        "div",
        tag("table", thead, tag("tbody", *rows), **attrs),
        class_="scroll" + (" whole" if attrs.get("class_") == "front" else ""),
        tabindex="0",
        role="region",
        aria_label=label,
    )


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"
