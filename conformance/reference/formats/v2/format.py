"""The v2 Format: `.zarray` / `.zgroup` / `.zattrs` documents under normalised logical paths,
explicit groups with ancestor creation (V2-GROUP-*), chunks under `P/<i.j...>` (V2-CHUNK-003)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ... import jsonio
from ...array import Array, ArrayLayout, Group, join_path
from ...errors import MetadataError, NodeNotFoundError, PathError, ZarrError
from ...stores import Store
from ..base import Format
from .attributes import decode_attributes, encode_attributes
from .codecs import V2ChunkCodec
from .metadata import (
    GROUP_DOCUMENT,
    ArrayMeta,
    array_metadata,
    parse_array_metadata,
    parse_group_metadata,
)
from .paths import ARRAY_KEY, ATTRS_KEY, GROUP_KEY, ancestors, key_prefix, node_key, normalize_path


def chunk_key_function(path: str, separator: str) -> Callable[[tuple[int, ...]], str]:
    """Chunk keys: grid indices joined by the separator (V2-CHUNK-003, V2-META-007); a 0-d array's
    single chunk is '0' (§9 convention, as the v3 'v2' key encoding)."""
    prefix = key_prefix(path)

    def chunk_key(index: tuple[int, ...]) -> str:
        return prefix + (separator.join(map(str, index)) if index else "0")

    return chunk_key


def layout_for(meta: ArrayMeta, path: str) -> ArrayLayout:
    codec = V2ChunkCodec(meta.dtype, meta.chunks, meta.order, list(meta.filters), meta.compressor)
    return ArrayLayout(
        meta.shape,
        meta.chunks,
        meta.dtype,
        meta.fill_value,
        chunk_key_function(path, meta.dimension_separator),
        codec,
    )


def _writable_path(path: str) -> str:
    path = normalize_path(path)
    if not path.isascii():
        raise PathError("invalid-path", f"v2 logical paths are ASCII, got {path!r}", "V2-STORE-001")
    return path


class V2Format(Format):
    name = "v2"

    # ---- paths and discovery -------------------------------------------------------------
    def normalize_path(self, path: str) -> str:
        return normalize_path(path)

    def node_kind(self, store: Store, path: str) -> str | None:
        is_array = store.contains(node_key(path, ARRAY_KEY))
        is_group = store.contains(node_key(path, GROUP_KEY))
        if is_array and is_group:
            raise MetadataError(
                "invalid-node-type", f"both .zarray and .zgroup exist at {path or '/'!r}"
            )
        return "array" if is_array else "group" if is_group else None

    def children(self, store: Store, path: str) -> dict[str, str]:
        """Direct child paths that hold a .zarray or .zgroup (V2-GROUP-005); deeper nodes under a
        path with no metadata of its own are not members."""
        if self.node_kind(store, path) != "group":
            raise NodeNotFoundError(f"no v2 group at {path or '/'!r}", "V2-GROUP-001")
        _, dirs = store.list_dir(key_prefix(path))
        out = {}
        for name in sorted(dirs):
            kind = self.node_kind(store, join_path(path, name))
            if kind is not None:
                out[name] = kind
        return out

    # ---- opening -------------------------------------------------------------------------
    def read_array_metadata(self, store: Store, path: str) -> tuple[dict[str, Any], ArrayMeta]:
        data = store.get(node_key(path, ARRAY_KEY))
        if data is None:
            raise NodeNotFoundError(f"no v2 array at {path or '/'!r}", "V2-GROUP-001")
        doc = jsonio.load_object(data, ".zarray", "V2-META-001")
        return doc, parse_array_metadata(doc)

    def open_array(self, store: Store, path: str) -> Array:
        doc, meta = self.read_array_metadata(store, path)
        attrs = decode_attributes(store.get(node_key(path, ATTRS_KEY)), ".zattrs")
        array = Array(store, path, self, doc, attrs, layout_for(meta, path))
        array.notes = list(meta.notes)
        return array

    def open_group(self, store: Store, path: str) -> Group:
        data = store.get(node_key(path, GROUP_KEY))
        if data is None:
            raise NodeNotFoundError(f"no v2 group at {path or '/'!r} (no .zgroup)", "V2-GROUP-001")
        doc = jsonio.load_object(data, ".zgroup", "V2-GROUP-002")
        notes = parse_group_metadata(doc)
        attrs = decode_attributes(store.get(node_key(path, ATTRS_KEY)), ".zattrs")
        group = Group(store, path, self, doc, attrs)
        group.notes = list(notes)
        return group

    # ---- creating ------------------------------------------------------------------------
    def _prepare(self, store: Store, path: str, overwrite: bool) -> list[str]:
        """Check that `path` can hold a new node; return the ancestor groups to create."""
        missing = []
        for ancestor in ancestors(path):
            kind = self.node_kind(store, ancestor)
            if kind == "array":
                raise MetadataError(
                    "invalid-node-type",
                    f"cannot create {path!r} inside the array {ancestor or '/'!r}",
                )
            if kind is None:
                missing.append(ancestor)
        if self._exists(store, path) and not overwrite:
            raise ZarrError("node-exists", f"a node exists at {path or '/'!r}")
        return missing

    def _exists(self, store: Store, path: str) -> bool:
        return any(store.contains(node_key(path, k)) for k in (ARRAY_KEY, GROUP_KEY))

    def _write_node(
        self,
        store: Store,
        path: str,
        missing: list[str],
        key: str,
        document: dict[str, Any],
        attributes: bytes | None,
        overwrite: bool,
    ) -> None:
        if overwrite:  # the old node and everything under it go, as zarr-python's rmdir
            for old in store.list_prefix(key_prefix(path)):
                store.erase(old)
        for ancestor in missing:  # V2-GROUP-003/004
            store.set(node_key(ancestor, GROUP_KEY), jsonio.dumps_ascii(GROUP_DOCUMENT))
        store.set(node_key(path, key), jsonio.dumps_ascii(document))
        if attributes is not None:
            store.set(node_key(path, ATTRS_KEY), attributes)

    def create_array(
        self,
        store: Store,
        path: str,
        metadata: dict[str, Any],
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Array:
        path = _writable_path(path)
        parse_array_metadata(metadata)
        try:
            document = jsonio.loads(jsonio.dumps_ascii(metadata))
        except (TypeError, ValueError) as exc:
            raise MetadataError(
                "invalid-metadata", f"array metadata is not JSON: {exc}", "V2-META-009"
            ) from None
        attrs = encode_attributes(attributes) if attributes else None
        missing = self._prepare(store, path, overwrite)
        self._write_node(store, path, missing, ARRAY_KEY, document, attrs, overwrite)
        return self.open_array(store, path)

    def create_group(
        self,
        store: Store,
        path: str,
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Group:
        path = _writable_path(path)
        attrs = encode_attributes(attributes) if attributes else None
        missing = self._prepare(store, path, overwrite)
        self._write_node(store, path, missing, GROUP_KEY, GROUP_DOCUMENT, attrs, overwrite)
        return self.open_group(store, path)

    def write_attributes(self, node: Array | Group, attributes: dict[str, Any]) -> None:
        node.store.set(node_key(node.path, ATTRS_KEY), encode_attributes(attributes))

    def write_shape(self, store: Store, array: Array, shape: tuple[int, ...]) -> None:
        document = dict(self.read_array_metadata(store, array.path)[0])
        document["shape"] = list(shape)
        parse_array_metadata(document)
        store.set(node_key(array.path, ARRAY_KEY), jsonio.dumps_ascii(document))

    def array_metadata(
        self, shape: Sequence[int], chunks: Sequence[int], dtype: Any, **options: Any
    ) -> dict[str, Any]:
        return array_metadata(shape, chunks, dtype, **options)


FORMAT = V2Format()
