"""ZOM models <-> JSON, and ZOM nodes <-> the metadata documents a format stores.

JSON output is deterministic: within a node the identity fields come first, then the metadata
properties in the model's order, extension members sorted, then `attributes` and `members`
(sorted by name). Groups always carry `members` (`{}` when childless), which also satisfies the
ZEP's own schema.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from .. import jsonio
from ..errors import LimitError, MetadataError
from . import models_v2, models_v3
from .names import metadata_to_zom_keys, zom_to_metadata_keys

Model = models_v2.ArrayModel | models_v2.GroupModel | models_v3.ArrayModel | models_v3.GroupModel
GROUP_MODELS = (models_v2.GroupModel, models_v3.GroupModel)
ARRAY_MODELS = (models_v2.ArrayModel, models_v3.ArrayModel)
MODEL_CLASSES: dict[tuple[int, str], type[Model]] = {
    (2, "array"): models_v2.ArrayModel,
    (2, "group"): models_v2.GroupModel,
    (3, "array"): models_v3.ArrayModel,
    (3, "group"): models_v3.GroupModel,
}

# Hierarchies deeper than this are refused (hostile stores and documents must not exhaust the stack).
MAX_HIERARCHY_DEPTH = 48

# A cache of the hierarchy, not part of its structure: dropped from groups and rebuilt by `flatten`.
CONSOLIDATED_KEY = "consolidated_metadata"

_NOT_METADATA = ("attributes", "members")


# ---- JSON ------------------------------------------------------------------------------------


def to_json(model: Model) -> dict[str, Any]:
    """The ZOM as a JSON value with a deterministic member order."""
    return _node_json(model, 0)


def _node_json(model: Model, depth: int) -> dict[str, Any]:
    if depth > MAX_HIERARCHY_DEPTH:
        raise LimitError(f"hierarchy deeper than {MAX_HIERARCHY_DEPTH} levels", "ZOM-004")
    dumped = model.model_dump(mode="python", exclude_unset=True, exclude={"members"})
    out: dict[str, Any] = {}
    for name in model.__class__.model_fields:
        if name in dumped and name not in _NOT_METADATA:
            out[name] = dumped[name]
    for name in sorted(model.model_extra or {}):
        out[name] = dumped[name]
    out["attributes"] = dumped["attributes"]
    if isinstance(model, GROUP_MODELS):
        out["members"] = {
            name: _node_json(child, depth + 1) for name, child in sorted(model.members.items())
        }
    return out


def dumps(model: Model) -> bytes:
    """The ZOM as UTF-8 JSON text (two-space indent), byte-for-byte reproducible."""
    return jsonio.dumps(to_json(model)) + b"\n"


def from_json(doc: Any, zarr_format: int | None = None) -> Model:
    """Validate a ZOM JSON value (a dict, or JSON text/bytes) into a model.

    The version comes from the root's `zarr_format` unless given. Raises MetadataError naming the
    ZOM requirement the document breaks."""
    if isinstance(doc, (str, bytes, bytearray)):
        doc = jsonio.loads(doc, "ZOM document")
    if not isinstance(doc, dict):
        raise MetadataError("invalid-metadata", "a ZOM node is a JSON object", "ZOM-001")
    version = doc.get("zarr_format") if zarr_format is None else zarr_format
    if type(version) is not int or version not in (2, 3):
        raise MetadataError(
            "invalid-zarr-format",
            f"a ZOM node needs zarr_format 2 or 3, got {doc.get('zarr_format')!r}",
            "ZOM-002",
        )
    check_depth(doc)
    if version == 3:
        kind = "array" if doc.get("node_type") == "array" else "group"
    else:
        kind = "array" if "shape" in doc else "group"
    return validate_model(MODEL_CLASSES[(version, kind)], doc)


def check_depth(doc: dict[str, Any]) -> None:
    """Refuse ZOM documents whose `members` nest deeper than MAX_HIERARCHY_DEPTH (iteratively)."""
    stack = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_HIERARCHY_DEPTH:
            raise LimitError(
                f"ZOM members nested deeper than {MAX_HIERARCHY_DEPTH} levels", "ZOM-004"
            )
        members = node.get("members") if isinstance(node, dict) else None
        if isinstance(members, dict):
            stack.extend((child, depth + 1) for child in members.values())


_REQUIREMENT_IN_MESSAGE = re.compile(r"\((ZOM-\d{3})\)")


def validate_model(cls: type[Model], doc: dict[str, Any]) -> Model:
    try:
        return cls.model_validate(doc)
    except ValidationError as exc:
        raise MetadataError("invalid-metadata", _describe(exc), _requirement_of(exc)) from None
    except RecursionError:
        raise LimitError("ZOM document nested too deeply", "ZOM-004") from None


def _describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:5]:
        loc = "/".join(str(p) for p in error["loc"]) or "<root>"
        parts.append(f"{loc}: {error['msg']}")
    more = exc.error_count() - len(parts)
    return "invalid ZOM: " + "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def _requirement_of(exc: ValidationError) -> str:
    error = exc.errors()[0]
    found = _REQUIREMENT_IN_MESSAGE.search(error["msg"])
    if found:
        return found.group(1)
    loc = [str(p) for p in error["loc"]]
    if loc and loc[-1] == "members" and error["type"] == "extra_forbidden":
        return "ZOM-003"
    if "attributes" in loc[-2:]:  # the attributes themselves, or one of their keys
        return "ZOM-001"
    return "ZOM-002"


# ---- metadata documents ----------------------------------------------------------------------


def node_from_metadata(
    zarr_format: int,
    kind: str,
    metadata: dict[str, Any],
    attributes: dict[str, Any],
    members: dict[str, Any] | None = None,
) -> Model:
    """A ZOM node from a stored metadata document (without user attributes) and the attributes.

    `members` are already-built child models. v3 `attributes` inside `metadata` are ignored in
    favour of the `attributes` argument; `consolidated_metadata` is dropped from groups."""
    doc = {k: v for k, v in metadata.items() if k != "attributes"}
    if kind == "group":
        doc.pop(CONSOLIDATED_KEY, None)
    doc = metadata_to_zom_keys(doc)
    doc["attributes"] = attributes
    cls = MODEL_CLASSES[(zarr_format, kind)]
    model = validate_model(cls, doc)
    if members:
        if not isinstance(model, GROUP_MODELS):
            raise MetadataError("invalid-metadata", "an array has no members", "ZOM-002")
        # Children are validated models already (instances are not re-validated); the member
        # names still are (ZOM-005).
        try:
            model.members = dict(members)
        except ValidationError as exc:
            raise MetadataError("invalid-node-name", _describe(exc), "ZOM-005") from None
    return model


def metadata_of(model: Model) -> dict[str, Any]:
    """The metadata document the node stores, without user attributes (v2 `.zarray`/`.zgroup`,
    v3 `zarr.json` minus `attributes`). A v3 `storage_transformers` or `dimension_names` of null
    is left out (ZOM-013): v3 allows only a list or an absent key."""
    doc = {k: v for k, v in _node_json_shallow(model).items() if k not in _NOT_METADATA}
    if model.version == 3:
        for key in ("storage_transformers", "dimension_names"):
            if key in doc and doc[key] is None:
                del doc[key]
    return zom_to_metadata_keys(doc)


def _node_json_shallow(model: Model) -> dict[str, Any]:
    dumped = model.model_dump(mode="python", exclude_unset=True, exclude={"members"})
    out = {name: dumped[name] for name in model.__class__.model_fields if name in dumped}
    out.update((name, dumped[name]) for name in sorted(model.model_extra or {}))
    return out
