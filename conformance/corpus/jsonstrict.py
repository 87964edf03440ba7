"""Type-strict comparison of JSON values.

Python's `==` says `1 == True`, `1 == 1.0` and `0.0 == -0.0`; a writer that stores `true` as `1`
or a fill of `-0.0` as `0` would pass such a check. Here a boolean is never a number, an integer
is never a float, the sign of zero counts, and NaN equals NaN (JSON itself has no NaN; documents
parsed leniently may hold one).
"""

from __future__ import annotations

import math
from typing import Any


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def differences(expected: Any, got: Any, where: str = "", limit: int = 10) -> list[str]:
    """Where `got` differs from `expected` (JSON pointer-like paths), type-strictly; [] if equal."""
    out: list[str] = []
    _walk(expected, got, where, out, limit)
    return out


def equal(expected: Any, got: Any) -> bool:
    return not differences(expected, got, limit=1)


def _walk(want: Any, got: Any, where: str, out: list[str], limit: int) -> None:
    if len(out) >= limit:
        return
    here = where or "/"
    kw, kg = _kind(want), _kind(got)
    if kw != kg:
        out.append(f"{here}: {kg} {_short(got)} where {kw} {_short(want)} is expected")
        return
    if kw == "object":
        for key in sorted(set(want) | set(got), key=str):
            if key not in got:
                out.append(f"{where}/{key}: missing (expected {_short(want[key])})")
            elif key not in want:
                out.append(f"{where}/{key}: unexpected member {_short(got[key])}")
            else:
                _walk(want[key], got[key], f"{where}/{key}", out, limit)
            if len(out) >= limit:
                return
    elif kw == "array":
        if len(want) != len(got):
            out.append(f"{here}: {len(got)} items where {len(want)} are expected")
            return
        for i, (a, b) in enumerate(zip(want, got)):
            _walk(a, b, f"{where}/{i}", out, limit)
    elif kw == "float":
        same = (math.isnan(want) and math.isnan(got)) or (
            want == got and math.copysign(1.0, want) == math.copysign(1.0, got)
        )
        if not same:
            out.append(f"{here}: {got!r} where {want!r} is expected")
    elif want != got:
        out.append(f"{here}: {_short(got)} where {_short(want)} is expected")


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
