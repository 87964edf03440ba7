"""The 'v3-draft' Format: hierarchy operations over either draft flavour.

Node discovery follows the draft's §Storage operations: existence is checked in the order array
key, group key, non-empty `list_dir` (an implicit group, V3DRAFT-KEY-010), and children come from
one `list_dir` on the metadata prefix (V3DRAFT-KEY-009). The root of a hierarchy whose entry
point exists is always a group unless a root array exists (a hierarchy always has a root node).
Creating a node writes its own document only, never ancestors' (V3DRAFT-KEY-008).

Writing is implemented for the seed-002 layout only; zarr-python 2 stores are read-only here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...array import Array, ArrayLayout, Group
from ...errors import MetadataError, NodeNotFoundError, UnsupportedError, ZarrError
from ...jsonio import dumps, load_object
from ...stores import Store, StoreIOError
from ..base import Format
from . import names
from .dtypes import DataType, core_name_for, parse_data_type
from .fill import encode_fill, parse_fill
from .flavours import (
    ENTRY_POINT_KEY,
    SEED002,
    SHARDING_URI,
    Flavour,
    default_entry_point,
    read_entry_point,
)
from .metadata import ArraySpec, check_attributes, parse_array, parse_group
from .sharding import ShardingTransformer


class DraftArray(Array):
    """An array of the draft layout, with the flavour (seed 002 or zarr-python 2) it was read as."""

    flavour: str = ""


class DraftGroup(Group):
    """A group of the draft layout; `implicit` when no group document exists (V3DRAFT-KEY-008)."""

    flavour: str = ""
    implicit: bool = False


def sharding(chunks_per_shard: Sequence[int]) -> dict[str, Any]:
    """A seed-002 sharding storage transformer entry (V3DRAFT-META-015)."""
    return {
        "extension": SHARDING_URI,
        "type": "indexed",
        "configuration": {"chunks_per_shard": [int(n) for n in chunks_per_shard]},
    }


def _base_store(store: Store) -> Store:
    while isinstance(store, ShardingTransformer):
        store = store.inner
    return store


class DraftFormat(Format):
    name = "v3-draft"

    # ---- paths and discovery -------------------------------------------------------------
    def normalize_path(self, path: str) -> str:
        return names.normalize_path(path)

    def flavour(self, store: Store) -> str | None:
        """'seed-002', 'zarr-python-2', or None when the store has no draft entry point."""
        found = read_entry_point(store)
        return found.name if found else None

    def _flavour(self, store: Store) -> Flavour:
        found = read_entry_point(store)
        if found is None:
            raise NodeNotFoundError(
                "no v3-draft entry point: a draft hierarchy needs zarr.json at the store root",
                "V3DRAFT-KEY-001",
            )
        return found

    def node_kind(self, store: Store, path: str) -> str | None:
        flavour = read_entry_point(store)
        if flavour is None:
            return None
        return self._kind(store, flavour, path)

    def _kind(self, store: Store, flavour: Flavour, path: str) -> str | None:
        if store.contains(flavour.array_key(path)):
            return "array"
        if store.contains(flavour.group_key(path)):
            return "group"
        if path == "":
            return "group"
        keys, prefixes = store.list_dir(flavour.meta_dir(path))
        return "group" if keys or prefixes else None

    def children(self, store: Store, path: str) -> dict[str, str]:
        flavour = self._flavour(store)
        keys, prefixes = store.list_dir(flavour.meta_dir(path))
        array_end, group_end = ".array" + flavour.suffix, ".group" + flavour.suffix
        found: dict[str, str] = {}
        for key in keys:
            for end, kind in ((array_end, "array"), (group_end, "group")):
                name = key[: -len(end)]
                if key.endswith(end) and names.is_valid_name(name) and found.get(name) != "array":
                    found[name] = kind
        for prefix in prefixes:  # implied by a descendant: an implicit group unless explicit
            if names.is_valid_name(prefix):
                found.setdefault(prefix, "group")
        return dict(sorted(found.items()))

    # ---- opening -------------------------------------------------------------------------
    def open_array(self, store: Store, path: str) -> Array:
        flavour = self._flavour(store)
        key = flavour.array_key(path)
        raw = store.get(key)
        if raw is None:
            raise NodeNotFoundError(
                f"no array at {path or '/'!r} ({key} is absent)", "V3DRAFT-KEY-003"
            )
        doc = load_object(raw, key, "V3DRAFT-META-004")
        spec = parse_array(doc, flavour)
        chunk_store = self._chunk_store(store, flavour, path, spec)
        data_prefix = flavour.data_prefix(path)
        layout = ArrayLayout(
            shape=spec.shape,
            chunk_shape=spec.chunk_shape,
            dtype=spec.data_type.dtype,
            fill_value=spec.fill,
            chunk_key=lambda index: data_prefix + flavour.chunk_id(index, spec.separator),
            codec=spec.codec,
        )
        array = DraftArray(chunk_store, path, self, doc, spec.attributes, layout)
        array.flavour = flavour.name
        return array

    def _chunk_store(self, store: Store, flavour: Flavour, path: str, spec: ArraySpec) -> Store:
        """The array talks to the first transformer, the last one to the store (§Storage transformers)."""
        for cps in reversed(spec.shards):
            store = ShardingTransformer(
                store, flavour, flavour.data_prefix(path), spec.separator, cps
            )
        return store

    def open_group(self, store: Store, path: str) -> Group:
        flavour = self._flavour(store)
        kind = self._kind(store, flavour, path)
        if kind is None:
            raise NodeNotFoundError(f"no group at {path or '/'!r}", "V3DRAFT-KEY-010")
        if kind == "array":
            raise ZarrError(
                "invalid-node-type", f"{path or '/'!r} is an array, not a group", "V3DRAFT-KEY-010"
            )
        key = flavour.group_key(path)
        raw = store.get(key)
        if raw is None:  # implicit group (V3DRAFT-KEY-008)
            group = DraftGroup(store, path, self, {}, {})
            group.implicit = True
        else:
            doc = load_object(raw, key, "V3DRAFT-META-016")
            group = DraftGroup(store, path, self, doc, parse_group(doc, flavour))
            group.implicit = False
        group.flavour = flavour.name
        return group

    # ---- creating ------------------------------------------------------------------------
    def _writable_flavour(self, store: Store) -> Flavour:
        flavour = read_entry_point(store)
        if flavour is None:
            store.set(ENTRY_POINT_KEY, dumps(default_entry_point()))
            flavour = read_entry_point(store)
        if flavour is None:
            raise StoreIOError(f"{store!r} does not keep the entry point written to it")
        if flavour.name != SEED002:
            raise UnsupportedError(
                f"writing the {flavour.name} draft layout is not supported (read only)"
            )
        return flavour

    def _occupied(self, store: Store, flavour: Flavour, path: str) -> bool:
        """An explicit node at `path`, or descendants implying a group there."""
        own = {flavour.array_key(path), flavour.group_key(path)}
        if any(store.contains(key) for key in own):
            return True
        return any(key not in own for key in store.list_prefix(flavour.meta_dir(path)))

    def _erase_subtree(self, store: Store, flavour: Flavour, path: str) -> None:
        keys = {flavour.array_key(path), flavour.group_key(path)}
        keys.update(store.list_prefix(flavour.meta_dir(path)))
        keys.update(store.list_prefix(flavour.data_prefix(path)))
        for key in sorted(keys):
            if store.contains(key):
                store.erase(key)

    def create_array(
        self,
        store: Store,
        path: str,
        metadata: dict[str, Any],
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Array:
        flavour = self._writable_flavour(store)
        doc = dict(metadata)
        doc["attributes"] = check_attributes(
            attributes if attributes is not None else doc.get("attributes", {})
        )
        parse_array(doc, flavour)  # validate before touching the store
        if self._occupied(store, flavour, path):
            if not overwrite:
                raise ZarrError("node-exists", f"a node exists at {path or '/'!r}")
            self._erase_subtree(store, flavour, path)
        store.set(flavour.array_key(path), dumps(doc))
        return self.open_array(store, path)

    def create_group(
        self,
        store: Store,
        path: str,
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Group:
        flavour = self._writable_flavour(store)
        doc = {"attributes": check_attributes(attributes if attributes is not None else {})}
        # An implicit group may be made explicit; an explicit node needs overwrite.
        explicit = store.contains(flavour.array_key(path)) or store.contains(
            flavour.group_key(path)
        )
        if explicit:
            if not overwrite:
                raise ZarrError("node-exists", f"a node exists at {path or '/'!r}")
            self._erase_subtree(store, flavour, path)
        store.set(flavour.group_key(path), dumps(doc))
        return self.open_group(store, path)

    def write_attributes(self, node: Array | Group, attributes: dict[str, Any]) -> None:
        store = _base_store(node.store)
        flavour = self._writable_flavour(store)
        check_attributes(attributes)
        if isinstance(node, Array):
            doc = dict(node.metadata)
            doc["attributes"] = attributes
            store.set(flavour.array_key(node.path), dumps(doc))
            node.metadata = doc
        else:
            doc = {"attributes": attributes}
            store.set(flavour.group_key(node.path), dumps(doc))
            node.metadata = doc
            if isinstance(node, DraftGroup):
                node.implicit = False

    def array_metadata(
        self,
        shape: Sequence[int],
        chunks: Sequence[int],
        dtype: Any,
        fill_value: Any = 0,
        order: str = "C",
        codecs: list[Any] | None = None,
        separator: str = "/",
        storage_transformers: list[Any] | None = None,
        attributes: dict[str, Any] | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """A seed-002 array document. `fill_value` may be a Python/NumPy value or an already
        encoded JSON form ("NaN", "0x3f800000"); `codecs` and `storage_transformers` are lists of
        draft JSON entries (see `sharding()`); absent codecs mean raw little-endian C bytes."""
        if unknown:
            raise TypeError(f"v3-draft arrays have no option(s) {sorted(unknown)}")
        data_type = core_name_for(dtype)
        dt = parse_data_type(data_type)
        doc: dict[str, Any] = {
            "shape": [int(n) for n in shape],
            "data_type": data_type,
            "chunk_grid": {
                "type": "regular",
                "chunk_shape": [int(c) for c in chunks],
                "separator": separator,
            },
            "chunk_memory_layout": order,
        }
        if codecs is not None:
            doc["codecs"] = list(codecs)
        doc["fill_value"] = _json_fill(fill_value, dt)
        doc["extensions"] = []
        doc["attributes"] = dict(attributes or {})
        if storage_transformers is not None:
            doc["storage_transformers"] = list(storage_transformers)
        return doc


def _json_fill(value: Any, dt: DataType) -> Any:
    """A Python/NumPy fill value in the draft's JSON form, validated by the reader's own rules."""
    kind = dt.dtype.kind
    json_value: Any
    if isinstance(value, str):
        json_value = value
    elif kind == "V":
        raw = bytes(dt.dtype.itemsize) if value == 0 else bytes(value)
        json_value = "0x" + raw.hex()
    elif kind == "b":
        json_value = bool(value)
    elif kind in "iu":
        if isinstance(value, (float, np.floating)) and not float(value).is_integer():
            raise MetadataError(
                "invalid-fill-value", f"fill_value {value!r} is not an integer", "V3DRAFT-META-011"
            )
        json_value = int(value)
    else:
        json_value = encode_fill(np.asarray(value).astype(dt.dtype), dt)
    parse_fill(json_value, dt)
    return json_value


FORMAT = DraftFormat()
