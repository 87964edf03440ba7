"""The JSON Schemas of the harness (adapter.toml, protocol messages, result records) and cached
validators for them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

SCHEMA_DIR = Path(__file__).with_name("schemas")

RESPONSE_SCHEMAS = {
    "describe": "response-describe",
    "read": "response-read",
    "write": "response-write",
    "update": "response-write",
    "shutdown": "response-write",
    "list": "response-list",
    "validate": "response-validate",
    "zom": "response-zom",
}


@cache
def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.json").read_text("utf-8"))


@cache
def validator(name: str):
    import jsonschema

    doc = schema(name)
    cls = jsonschema.validators.validator_for(doc)
    cls.check_schema(doc)
    return cls(doc)


def problems(name: str, instance) -> list[str]:
    """Every way `instance` breaks schema `name`, as readable one-liners (empty: valid)."""
    out = []
    for error in sorted(validator(name).iter_errors(instance), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        out.append(f"{where}: {error.message}")
    return out


def response_problems(op: str, response) -> list[str]:
    if not isinstance(response, dict):
        return [f"response is a JSON {type(response).__name__}, not an object"]
    if response.get("ok") is False:
        return problems("response-error", response)
    return problems(RESPONSE_SCHEMAS.get(op, "response-write"), response)
