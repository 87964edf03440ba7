"""The published ZOM JSON Schemas (draft 2020-12) and validation against them.

`schemas/v2.schema.json` and `schemas/v3.schema.json` are ours (ZEP 6 with its defects fixed, see
docs/zom.md); `schemas/zep6-original-*.schema.json` are the ZEP's own schemas transcribed as they
are, defects included, so tests and the corpus can show what the defects do (ZOM-009..016).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from .convert import check_depth

SCHEMA_NAMES = ("v2", "v3", "zep6-original-v2", "zep6-original-v3", "model-file")


def schema_name(schema: str, version: int) -> str:
    """The schema a choice names for a ZOM version: "fixed" (ours) or "zep6-original" (the ZEP's)."""
    if schema not in ("fixed", "zep6-original"):
        raise ValueError(f"unknown schema choice {schema!r}")
    return f"v{version}" if schema == "fixed" else f"zep6-original-v{version}"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """One of SCHEMA_NAMES, parsed."""
    if name not in SCHEMA_NAMES:
        raise ValueError(f"unknown ZOM schema {name!r}; expected one of {', '.join(SCHEMA_NAMES)}")
    text = (
        resources.files(__package__).joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    )
    return json.loads(text)


@cache
def _validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(instance: Any, name: str) -> list[str]:
    """Messages for every way `instance` breaks the named schema ([] when it is valid).

    `members` nested deeper than MAX_HIERARCHY_DEPTH raise LimitError up front (the validator
    recurses once per level); attribute values are not recursed into by these schemas."""
    if isinstance(instance, dict):
        check_depth(instance)
    errors = sorted(_validator(name).iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message}" for e in errors]


def is_valid(instance: Any, name: str) -> bool:
    return not schema_errors(instance, name)
