"""Attribute constraints on a hierarchy: JSON Schemas per node and named rule sets.

ZEP 6 motivates the ZOM with conventions such as xarray's: constraints on the attributes of
particular nodes. Some of them are static (a JSON Schema for a node's `attributes`); some depend
on other metadata at run time (the length of `_ARRAY_DIMENSIONS` equals the array's rank), which
no JSON Schema can say. Both kinds report `Finding`s with requirement ZOM-001 (the node's
`attributes`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ..errors import MetadataError
from . import models_v3
from .check import Finding, iter_nodes
from .convert import ARRAY_MODELS, Model
from .hierarchy import join

ATTRIBUTES_REQUIREMENT = "ZOM-001"


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Node-path globs: `*` is any run of characters within one name, `?` one such character,
    `**` any number of whole names (`**/x` also matches `x`). The root ('') is matched only by
    '' and '**'."""
    out, i = ([], 0) if pattern in ("", "**") else (["(?=.)"], 0)
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out), re.DOTALL)


def _is_glob(pattern: str) -> bool:
    return any(ch in pattern for ch in "*?")


@dataclass
class AttributeRule:
    """A JSON Schema for the attributes of every node whose path matches `path` (a glob relative
    to the checked root) and whose kind matches `node_type` (None: both). With `required`, a
    non-glob `path` must exist."""

    path: str
    schema: dict[str, Any]
    node_type: Literal["array", "group"] | None = None
    required: bool = False
    _validator: Draft202012Validator = field(init=False, repr=False)
    _regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        try:
            Draft202012Validator.check_schema(self.schema)
        except SchemaError as exc:
            raise MetadataError(
                "invalid-metadata",
                f"attribute schema for {self.path!r} is not a valid JSON Schema: {exc.message}",
                "ZOM-001",
            ) from None
        self._validator = Draft202012Validator(self.schema)
        self._regex = glob_to_regex(self.path)

    def applies_to(self, rel_path: str, node: Model) -> bool:
        return (self.node_type is None or node.kind == self.node_type) and self._regex.fullmatch(
            rel_path
        ) is not None

    def check(self, root: str, model: Model) -> list[Finding]:
        findings, matched = [], False
        for rel_path, node in iter_nodes(model):
            if not self.applies_to(rel_path, node):
                continue
            matched = True
            for error in sorted(
                self._validator.iter_errors(node.attributes), key=lambda e: list(e.absolute_path)
            ):
                where = "/".join(str(p) for p in error.absolute_path)
                findings.append(
                    Finding(
                        ATTRIBUTES_REQUIREMENT,
                        "error",
                        join(root, rel_path),
                        f"attributes{'/' + where if where else ''}: {error.message} (rule for {self.path!r})",
                    )
                )
        if self.required and not matched and not _is_glob(self.path):
            what = self.node_type or "node"
            findings.append(
                Finding("ZOM-004", "error", join(root, self.path), f"required {what} is missing")
            )
        return findings


# ---- named rule sets -------------------------------------------------------------------------


def xarray_rules(root: str, model: Model) -> list[Finding]:
    """xarray's Zarr encoding: every array names its dimensions, one string per axis.

    v2 keeps them in the `_ARRAY_DIMENSIONS` attribute. For v3, xarray writes the `dimension_names`
    metadata instead, so a v3 array passes with either (all entries strings, one per axis)."""
    findings = []
    for rel_path, node in iter_nodes(model):
        if not isinstance(node, ARRAY_MODELS):
            continue
        path, rank = join(root, rel_path), len(node.shape)
        if (
            isinstance(node, models_v3.ArrayModel)
            and "_ARRAY_DIMENSIONS" not in node.attributes
            and node.dimension_names is not None
        ):
            problem = _dimension_problem(node.dimension_names, rank, "dimension_names")
        elif "_ARRAY_DIMENSIONS" not in node.attributes:
            where = "attribute (or v3 dimension_names)" if node.version == 3 else "attribute"
            problem = f"xarray: the array has no _ARRAY_DIMENSIONS {where}"
        else:
            problem = _dimension_problem(
                node.attributes["_ARRAY_DIMENSIONS"], rank, "_ARRAY_DIMENSIONS"
            )
        if problem:
            findings.append(Finding(ATTRIBUTES_REQUIREMENT, "error", path, problem))
    return findings


def _dimension_problem(names: Any, rank: int, what: str) -> str | None:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return f"xarray: {what} must be a list of strings, got {names!r}"[:200]
    if len(names) != rank:
        return f"xarray: {what} has {len(names)} names but the array has {rank} dimensions"
    return None


RuleSet = Callable[[str, Model], list[Finding]]
RULE_SETS: dict[str, RuleSet] = {"xarray": xarray_rules}


def apply_rules(
    root: str,
    model: Model,
    rules: Sequence[AttributeRule] = (),
    rule_sets: Sequence[str] = (),
) -> list[Finding]:
    """All attribute findings for the hierarchy `model` stored at `root`."""
    findings: list[Finding] = []
    for name in rule_sets:
        if name not in RULE_SETS:
            raise MetadataError(
                "invalid-metadata",
                f"unknown rule set {name!r}; known: {', '.join(sorted(RULE_SETS))}",
            )
        findings += RULE_SETS[name](root, model)
    for rule in rules:
        findings += rule.check(root, model)
    return findings
