"""The Zarr v3 (final 3.0) format family: discovery, opening and creating nodes.

Hierarchies are explicit (V3-GRP-005): a node exists exactly where `P/zarr.json` exists
(V3-GRP-009), creating a node writes any missing ancestor group documents (V3-GRP-006), and child
listing skips names starting with '__' (V3-GRP-008).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import jsonio
from ...array import Array, Group
from ...errors import MetadataError, NodeNotFoundError, PathError, ZarrError
from ...stores import Store
from ..base import Format
from .build import array_document
from .metadata import load_document, node_type_of, parse_array_metadata, parse_group_metadata
from .names import ancestors, join_path, metadata_key, name_problem, node_prefix, normalize_path
from .nodes import V3Array, V3Group, array_layout

GROUP_DOCUMENT = {"zarr_format": 3, "node_type": "group"}


def _serialise(doc: dict[str, Any], reason: str) -> bytes:
    try:
        _check_string_keys(doc)
        return jsonio.dumps(doc)
    except (
        TypeError,
        ValueError,
        RecursionError,
    ) as exc:  # NaN floats, NumPy scalars, non-string keys...
        raise MetadataError(
            reason, f"the metadata cannot be written as strict JSON: {exc}", "V3-ARR-013"
        ) from None


def _check_string_keys(value: Any) -> None:
    """json.dumps would silently turn int or float keys into strings; refuse them instead."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            bad = [k for k in item if not isinstance(k, str)]
            if bad:
                raise TypeError(f"object keys must be strings, got {bad[0]!r}")
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)


class V3Format(Format):
    name = "v3"

    # ---- paths and discovery -------------------------------------------------------------
    def normalize_path(self, path: str) -> str:
        return normalize_path(path)

    def _load(self, store: Store, path: str) -> tuple[dict[str, Any], Any] | None:
        key = metadata_key(path)
        data = store.get(key)
        return None if data is None else load_document(data, key)

    def node_kind(self, store: Store, path: str) -> str | None:
        path = normalize_path(path)
        loaded = self._load(store, path)
        return None if loaded is None else node_type_of(loaded[0], metadata_key(path))

    def _missing(self, store: Store, path: str) -> ZarrError:
        """No zarr.json at `path`: say so, naming the implicit-group case (V3-GRP-005)."""
        try:
            descendants = store.list_prefix(node_prefix(path))
        except ZarrError:  # stores that cannot list (plain HTTP): plain "not found"
            descendants = []
        if descendants:
            return MetadataError(
                "implicit-group",
                f"{path or '/'!r} has descendants but no zarr.json; v3 has no implicit groups",
                "V3-GRP-005",
            )
        return NodeNotFoundError(f"no v3 node at {path or '/'!r}", "V3-GRP-009")

    def children(self, store: Store, path: str) -> dict[str, str]:
        path = normalize_path(path)
        kind = self.node_kind(store, path)
        if kind is None:
            raise self._missing(store, path)
        if kind != "group":
            raise MetadataError(
                "invalid-node-type", f"{path or '/'!r} is an array, not a group", "V3-GRP-008"
            )
        _, prefixes = store.list_dir(node_prefix(path))
        found = {}
        for name in prefixes:
            if name_problem(name):  # '__' names are reserved (V3-GRP-008); others cannot be nodes
                continue
            child = self.node_kind(store, join_path(path, name))
            if child is not None:  # a prefix without zarr.json is not a node (V3-GRP-005)
                found[name] = child
        return dict(sorted(found.items()))

    # ---- opening -------------------------------------------------------------------------
    def open_node(self, store: Store, path: str) -> Array | Group:
        path = normalize_path(path)
        kind = self.node_kind(store, path)
        if kind is None:
            raise self._missing(store, path)
        return self.open_array(store, path) if kind == "array" else self.open_group(store, path)

    def open_array(self, store: Store, path: str) -> V3Array:
        path = normalize_path(path)
        loaded = self._load(store, path)
        if loaded is None:
            raise self._missing(store, path)
        doc, exact_fill = loaded
        meta = parse_array_metadata(doc, exact_fill, metadata_key(path))
        array = V3Array(store, path, self, doc, meta.attributes, array_layout(meta, path))
        array.meta = meta
        array.notes = list(meta.notes) + list(getattr(array.layout.codec, "notes", []))
        return array

    def open_group(self, store: Store, path: str) -> V3Group:
        path = normalize_path(path)
        loaded = self._load(store, path)
        if loaded is None:
            raise self._missing(store, path)
        meta = parse_group_metadata(loaded[0], metadata_key(path))
        group = V3Group(store, path, self, loaded[0], meta.attributes)
        group.meta = meta
        group.notes = list(meta.notes)
        return group

    # ---- creating ------------------------------------------------------------------------
    def create_array(
        self,
        store: Store,
        path: str,
        metadata: dict[str, Any],
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> V3Array:
        path = normalize_path(path)
        if not isinstance(metadata, dict):
            raise MetadataError("invalid-metadata", "array metadata must be a dict")
        doc = dict(metadata)
        if attributes is not None:
            doc["attributes"] = attributes
        data = _serialise(
            doc, "invalid-attributes" if attributes is not None else "invalid-metadata"
        )
        parsed, exact_fill = load_document(data)  # judge it exactly as open_array will
        array_layout(parse_array_metadata(parsed, exact_fill), path)
        self._write_node(store, path, data, overwrite)
        return self.open_array(store, path)

    def create_group(
        self,
        store: Store,
        path: str,
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> V3Group:
        path = normalize_path(path)
        doc = dict(GROUP_DOCUMENT)
        if attributes is not None:
            doc["attributes"] = attributes
        data = _serialise(doc, "invalid-attributes")
        parse_group_metadata(load_document(data)[0])
        self._write_node(store, path, data, overwrite)
        return self.open_group(store, path)

    def _write_node(self, store: Store, path: str, data: bytes, overwrite: bool) -> None:
        for parent in ancestors(path):
            if self.node_kind(store, parent) == "array":
                raise MetadataError(
                    "invalid-node-type",
                    f"cannot create {path!r} inside the array {parent or '/'!r}",
                )
        key = metadata_key(path)
        if store.get(key) is not None:
            if not overwrite:
                raise PathError("node-exists", f"a node already exists at {path or '/'!r}")
            prefix = node_prefix(path)
            for stale in store.list_prefix(prefix):  # the old node's metadata, chunks and children
                store.erase(stale)
        for parent in ancestors(path):  # V3-GRP-006
            parent_key = metadata_key(parent)
            if store.get(parent_key) is None:
                store.set(parent_key, jsonio.dumps(GROUP_DOCUMENT))
        store.set(key, data)

    def write_shape(self, store: Store, array: Array, shape: tuple[int, ...]) -> None:
        key = metadata_key(array.path)
        doc = dict(jsonio.loads(store.get(key) or b"", key))
        doc["shape"] = list(shape)
        data = _serialise(doc, "invalid-metadata")
        parsed, exact_fill = load_document(data)  # judge it exactly as open_array will
        array_layout(parse_array_metadata(parsed, exact_fill), array.path)
        store.set(key, data)

    def write_attributes(self, node: Array | Group, attributes: dict[str, Any]) -> None:
        """Rewrite the node's zarr.json with new attributes; nothing else changes (V3-ATTR-002)."""
        if not isinstance(attributes, dict):
            raise MetadataError("invalid-attributes", "attributes must be a dict", "V3-ATTR-001")
        key = metadata_key(node.path)
        data = node.store.get(key)
        if data is None:
            raise NodeNotFoundError(f"no v3 node at {node.path or '/'!r}")
        doc, _ = load_document(data, key)
        if node_type_of(doc, key) != node.kind:
            raise MetadataError("invalid-node-type", f"{key} no longer describes a {node.kind}")
        doc["attributes"] = attributes
        data = _serialise(doc, "invalid-attributes")
        parsed, exact_fill = load_document(data, key)
        if node.kind == "array":
            parse_array_metadata(parsed, exact_fill, key)
        else:
            parse_group_metadata(parsed, key)
        node.store.set(key, data)
        node.metadata = parsed

    def array_metadata(
        self, shape: Sequence[int], chunks: Sequence[int], dtype: Any, **options: Any
    ) -> dict[str, Any]:
        return array_document(shape, chunks, dtype, **options)

    # ---- zarr-python extras ----------------------------------------------------------------
    def read_consolidated(self, store: Store, path: str = "") -> dict[str, dict[str, Any]] | None:
        return read_consolidated(store, path)


def read_consolidated(store: Store, path: str = "") -> dict[str, dict[str, Any]] | None:
    """The inline consolidated metadata zarr-python keeps in a group's zarr.json:
    {"kind": "inline", "must_understand": false, "metadata": {relative path: document}}.
    None when the group has none (or has zarr-python 3.0's `null`)."""
    path = normalize_path(path)
    key = metadata_key(path)
    data = store.get(key)
    if data is None:
        raise NodeNotFoundError(f"no v3 node at {path or '/'!r}")
    meta = parse_group_metadata(load_document(data, key)[0], key)
    value = meta.consolidated
    if value is None:
        return None
    if value.get("kind") != "inline" or not isinstance(value.get("metadata"), dict):
        raise MetadataError(
            "invalid-metadata",
            "consolidated_metadata must be {'kind': 'inline', 'metadata': {...}}",
            "V3-GRP-004",
        )
    documents = value["metadata"]
    for name, doc in documents.items():
        if not isinstance(doc, dict):
            raise MetadataError(
                "invalid-metadata", f"consolidated entry {name!r} is not an object", "V3-GRP-004"
            )
    return dict(documents)


FORMAT = V3Format()
