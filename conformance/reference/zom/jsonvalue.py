"""JSON values as data: checking that a Python object is plain JSON, and exact comparison.

Python's `==` says `1 == 1.0 == True`, but metadata documents that differ that way are different
JSON values (a `1.0` integer fill value is invalid v3, V3-FILL-002), so comparisons of metadata go
through a canonical serialisation instead.
"""

from __future__ import annotations

import json
import math
from typing import Any

# Nesting deeper than this is refused: hostile documents must not exhaust the stack.
MAX_JSON_DEPTH = 512


def json_problem(value: Any, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why `value` is not a plain JSON value (None when it is). Iterative, so deep values are safe."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return f"JSON nesting deeper than {max_depth}"
        if item is None or isinstance(item, (bool, int, str)):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return f"{item!r} is not a JSON number (write 'NaN'/'Infinity' strings instead)"
            continue
        if isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
            continue
        if isinstance(item, dict):
            for key, v in item.items():
                if not isinstance(key, str):
                    return f"object key {key!r} is not a string"
                stack.append((v, depth + 1))
            continue
        return f"{type(item).__name__} is not a JSON type"
    return None


def canonical(value: Any) -> str:
    """A canonical text of a JSON value: sorted keys, no whitespace, 1 and 1.0 and true kept apart."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values (object member order ignored, number spellings kept apart)."""
    return canonical(a) == canonical(b)
