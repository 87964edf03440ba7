"""Consolidated metadata as a flattened ZOM (ZOM-020, ZEP 6 §consolidated metadata).

ZEP 6 only sketches the idea; the two shapes produced here are zarr-python's (a §9 convention, not
part of any spec):

* v2: the `.zmetadata` document `{"zarr_consolidated_format": 1, "metadata": {key: document}}`
  with a `.zgroup`/`.zarray` entry per node and a `.zattrs` entry per node with attributes;
* v3: the root group's zarr.json with an inline
  `"consolidated_metadata": {"kind": "inline", "must_understand": false, "metadata": {path: zarr.json}}`.

`unflatten` turns either back into a ZOM, keeping only real members (a node whose parent has no
group document is not a member, V2-GROUP-005 / V3-GRP-005).
"""

from __future__ import annotations

from typing import Any

from ..errors import MetadataError, UnsupportedError
from .check import iter_nodes
from .convert import CONSOLIDATED_KEY, Model, metadata_of, node_from_metadata
from .hierarchy import join

V2_KEYS = {".zarray": "array", ".zgroup": "group"}


def flatten(model: Model) -> dict[str, Any]:
    """The consolidated-metadata document of a ZOM, keys sorted (deterministic)."""
    if model.version == 2:
        metadata: dict[str, Any] = {}
        for path, node in iter_nodes(model):
            metadata[join(path, ".zarray" if node.kind == "array" else ".zgroup")] = metadata_of(
                node
            )
            if node.attributes:
                metadata[join(path, ".zattrs")] = dict(node.attributes)
        return {"zarr_consolidated_format": 1, "metadata": dict(sorted(metadata.items()))}
    if model.kind != "group":
        raise UnsupportedError(
            "v3 consolidated metadata belongs to a group; the root is an array", "ZOM-020"
        )
    entries = {path: _v3_document(node) for path, node in iter_nodes(model) if path}
    root = _v3_document(model)
    root[CONSOLIDATED_KEY] = {
        "kind": "inline",
        "must_understand": False,
        "metadata": dict(sorted(entries.items())),
    }
    return root


def _v3_document(node: Model) -> dict[str, Any]:
    return {**metadata_of(node), "attributes": dict(node.attributes)}


def unflatten(document: Any, zarr_format: int) -> Model:
    """The ZOM that a consolidated-metadata document describes (the inverse of `flatten`)."""
    if not isinstance(document, dict):
        raise MetadataError(
            "invalid-metadata", "consolidated metadata must be a JSON object", "ZOM-020"
        )
    if zarr_format == 2:
        nodes = _v2_nodes(document)
    elif zarr_format == 3:
        nodes = _v3_nodes(document)
    else:
        raise MetadataError(
            "invalid-zarr-format",
            f"no consolidated metadata for zarr_format {zarr_format!r}",
            "ZOM-020",
        )
    if "" not in nodes:
        raise MetadataError(
            "invalid-metadata", "consolidated metadata has no document for the root node", "ZOM-020"
        )
    children: dict[str, list[str]] = {}
    for path in nodes:
        if path:
            children.setdefault(path.rpartition("/")[0], []).append(path)
    built: dict[str, Model] = {}
    # deepest first, so every group's members are built before the group itself
    for path in sorted(nodes, key=lambda p: (-(p.count("/") + 1) if p else 0, p)):
        kind, metadata, attributes = nodes[path]
        members = None
        if kind == "group":
            members = {child.rpartition("/")[2]: built[child] for child in children.get(path, [])}
        built[path] = node_from_metadata(zarr_format, kind, metadata, attributes, members)
    return built[""]


def _v2_nodes(
    document: dict[str, Any],
) -> dict[str, tuple[str, dict[str, Any], dict[str, Any]]]:
    if document.get("zarr_consolidated_format") != 1 or isinstance(
        document.get("zarr_consolidated_format"), bool
    ):
        raise MetadataError("invalid-zarr-format", "zarr_consolidated_format must be 1", "ZOM-020")
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        raise MetadataError("invalid-metadata", '.zmetadata has no "metadata" object', "ZOM-020")
    nodes = {}
    for key, value in metadata.items():
        parent, _, name = key.rpartition("/")
        if name in V2_KEYS:
            if not isinstance(value, dict):
                raise MetadataError("invalid-metadata", f"{key!r} is not a JSON object", "ZOM-020")
            attributes = metadata.get(join(parent, ".zattrs"), {})
            if not isinstance(attributes, dict):
                raise MetadataError(
                    "invalid-attributes",
                    f"{join(parent, '.zattrs')!r} is not a JSON object",
                    "V2-ATTR-001",
                )
            nodes[parent] = (V2_KEYS[name], value, attributes)
    return _reachable(nodes)


def _v3_nodes(
    document: dict[str, Any],
) -> dict[str, tuple[str, dict[str, Any], dict[str, Any]]]:
    consolidated = document.get(CONSOLIDATED_KEY)
    if not isinstance(consolidated, dict) or not isinstance(consolidated.get("metadata"), dict):
        raise MetadataError(
            "invalid-metadata", "no inline consolidated_metadata object", "V3-GRP-004"
        )
    nodes = {"": ("group", document, _attributes(document, ""))}
    for path, value in consolidated["metadata"].items():
        if not isinstance(value, dict) or value.get("node_type") not in ("array", "group"):
            raise MetadataError(
                "invalid-metadata",
                f"consolidated entry {path!r} is not a node document",
                "V3-GRP-004",
            )
        nodes[path] = (value["node_type"], value, _attributes(value, path))
    return _reachable(nodes)


def _attributes(document: dict[str, Any], path: str) -> dict[str, Any]:
    attributes = document.get("attributes", {})
    if not isinstance(attributes, dict):
        raise MetadataError(
            "invalid-attributes",
            f"attributes of {path or '/'!r} are not a JSON object",
            "V3-ATTR-001",
        )
    return attributes


def _reachable(nodes: dict[str, Any]) -> dict[str, Any]:
    """Only nodes whose every ancestor is a group in the document."""
    out = {}
    for path, entry in nodes.items():
        parts = path.split("/") if path else []
        ancestors = ["/".join(parts[:i]) for i in range(len(parts))]
        if all(a in nodes and nodes[a][0] == "group" for a in ancestors):
            out[path] = entry
    return out
