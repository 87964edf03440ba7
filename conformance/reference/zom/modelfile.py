"""Model files: what `zarr-conformance validate --model MODEL.json PATH` checks a hierarchy against.

A model file is a JSON object (schema: schemas/model-file.schema.json):

    {
      "zom_model_file": 1,
      "description": "free text",
      "zarr_format": 3,                       # optional; else taken from "hierarchy" or the store
      "hierarchy": { ...a ZOM... },           # optional: the expected structure and metadata
      "members": "exact",                     # or "at-least": extra stored members are allowed
      "compare_attributes": false,            # true: attribute values must equal the ZOM's
      "rule_sets": ["xarray"],                # built-in named rule sets (rules.RULE_SETS)
      "attributes": [                         # JSON Schemas for attributes, per node
        {"path": "**", "node_type": "array", "schema": {...}},
        {"path": "", "schema": {...}},
        {"path": "temperature", "node_type": "array", "required": true, "schema": {...}}
      ]
    }

A plain ZOM document (an object with `zarr_format` and `attributes`) is also a model file: it is
the "hierarchy" with every option at its default. Paths are relative to the checked node; '' is
that node itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from .. import jsonio
from ..errors import MetadataError
from ..stores import Store, open_store
from .check import Finding, MemberMatch, compare_models, read_for_check
from .convert import Model, from_json
from .rules import RULE_SETS, AttributeRule, apply_rules
from .schema import schema_errors

MODEL_FILE_VERSION = 1


@dataclass
class ModelFile:
    hierarchy: Model | None = None
    zarr_format: int | None = None
    members: MemberMatch = "exact"
    compare_attributes: bool = False
    rule_sets: list[str] = field(default_factory=list)
    attribute_rules: list[AttributeRule] = field(default_factory=list)
    description: str = ""

    @property
    def format_name(self) -> str | None:
        version = self.hierarchy.version if self.hierarchy is not None else self.zarr_format
        return None if version is None else f"v{version}"


def parse_model_file(doc: Any) -> ModelFile:
    """A ModelFile from its JSON value; MetadataError('invalid-metadata') when it is malformed."""
    if (
        isinstance(doc, dict)
        and "zom_model_file" not in doc
        and "zarr_format" in doc
        and "attributes" in doc
    ):
        doc = {"zom_model_file": MODEL_FILE_VERSION, "hierarchy": doc}
    errors = schema_errors(doc, "model-file")
    if errors:
        raise MetadataError("invalid-metadata", "invalid model file: " + "; ".join(errors[:5]))
    hierarchy = from_json(doc["hierarchy"]) if "hierarchy" in doc else None
    zarr_format = doc.get("zarr_format")
    if hierarchy is not None and zarr_format is not None and zarr_format != hierarchy.version:
        raise MetadataError(
            "invalid-metadata",
            f"model file says zarr_format {zarr_format} but its hierarchy is v{hierarchy.version}",
        )
    rules = [
        AttributeRule(
            path=entry["path"],
            schema=entry["schema"],
            node_type=entry.get("node_type"),
            required=entry.get("required", False),
        )
        for entry in doc.get("attributes", [])
    ]
    model_file = ModelFile(
        hierarchy=hierarchy,
        zarr_format=zarr_format,
        members=doc.get("members", "exact"),
        compare_attributes=doc.get("compare_attributes", False),
        rule_sets=list(doc.get("rule_sets", [])),
        attribute_rules=rules,
        description=doc.get("description", ""),
    )
    unknown = [name for name in model_file.rule_sets if name not in RULE_SETS]
    if unknown:
        raise MetadataError(
            "invalid-metadata",
            f"unknown rule sets {unknown}; known: {', '.join(sorted(RULE_SETS))}",
        )
    return model_file


def load_model_file(location: str | os.PathLike[str]) -> ModelFile:
    with open(location, "rb") as handle:
        return parse_model_file(jsonio.loads(handle.read(), f"model file {os.fspath(location)!r}"))


def check_model(store: Store, model_file: ModelFile, path: str = "") -> list[Finding]:
    """Findings for the hierarchy at `path` against a parsed model file ([] when it conforms)."""
    actual, root, findings = read_for_check(open_store(store), path, model_file.format_name)
    if actual is None:
        return findings
    if model_file.hierarchy is not None:
        findings += compare_models(
            model_file.hierarchy,
            actual,
            members=model_file.members,
            compare_attributes=model_file.compare_attributes,
            path=root,
        )
    findings += apply_rules(root, actual, model_file.attribute_rules, model_file.rule_sets)
    return sorted(findings, key=lambda f: (f.path, f.severity, f.requirement, f.message))


def validate_model_file(
    store: Store, model_path: str | os.PathLike[str], path: str = ""
) -> list[Finding]:
    """The CLI entry point: check the hierarchy at `path` of `store` (a Store, path or URL)
    against the model file at `model_path`. A malformed model file raises MetadataError."""
    return check_model(store, load_model_file(model_path), path)
