"""Badges: the shields.io endpoint JSON (scores.badge) and the same badge as a static SVG, so the
site shows it without a third party and a README can embed it from any static host."""

from __future__ import annotations

from html import escape

# shields.io's named colours, darkened so that white text on them keeps a 4.5:1 contrast.
COLORS = {
    "brightgreen": "#1a7f37",
    "yellow": "#9a6700",
    "orange": "#bc4c00",
    "red": "#cf222e",
    "lightgrey": "#6e7781",
}
CHAR_PX = 6.6  # Verdana 11 px, an average advance: the box fits the text closely enough


def svg(badge: dict) -> str:
    label, message = badge["label"], badge["message"]
    lw = round(len(label) * CHAR_PX) + 12
    mw = round(len(message) * CHAR_PX) + 12
    color = COLORS.get(badge["color"], badge["color"])
    title = escape(f"{label}: {message}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lw + mw}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{color}"/>'
        f'<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="6" y="14">{escape(label)}</text><text x="{lw + 6}" y="14">{escape(message)}</text></g></svg>\n'
    )
