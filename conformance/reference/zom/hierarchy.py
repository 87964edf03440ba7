"""A ZOM from a store, and a store from a ZOM: metadata only, through the format modules.

`from_store` opens every node with the format's own parser (so invalid metadata is refused with
the format's reason code) and reads metadata documents only, never a chunk (ZOM-017).
`to_store` writes each node's metadata document and attributes through the format's create calls,
so what lands in the store is validated exactly as a normal write would be (ZOM-007, ZOM-013).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import jsonio
from ..errors import LimitError, MetadataError, NodeNotFoundError, UnsupportedError, ZarrError
from ..stores import Store, open_store

if TYPE_CHECKING:
    from ..array import Array, Group
    from ..formats.base import Format
from .convert import GROUP_MODELS, MAX_HIERARCHY_DEPTH, Model, metadata_of, node_from_metadata

ZOM_FORMATS = {"v2": 2, "v3": 3}


def join(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


def resolve_format(store: Store, path: str, format: str | None) -> tuple[Format, str]:
    """(Format object, normalised path) for a ZOM of the node at `path` (v2 or v3 only)."""
    from .. import detect_format, get_format

    name = format or detect_format(store, path)
    if name is None:
        raise NodeNotFoundError(f"no Zarr node at {path or '/'!r}")
    if name not in ZOM_FORMATS:
        raise UnsupportedError(f"ZEP 6 object models are defined for Zarr v2 and v3, not {name!r}")
    fmt = get_format(name)
    return fmt, fmt.normalize_path(path)


@dataclass
class NodeFailure:
    """A node that could not be modelled (its metadata was refused by the format)."""

    path: str
    error: ZarrError


def from_store(
    store: Store | str | os.PathLike[str], path: str = "", format: str | None = None
) -> Model:
    """The ZOM of the node at `path` (array, or group with all its descendants).

    `store` is a Store or anything `open_store` accepts; `format` is 'v2' or 'v3' (detected when
    None). Raises the format's ZarrError for the first node whose metadata is invalid."""
    model, _ = walk(open_store(store), path, format, on_failure=None)
    return model


def walk(
    store: Store, path: str, format: str | None, on_failure: Callable[[NodeFailure], None] | None
) -> tuple[Model, str]:
    """Build the ZOM; with `on_failure`, nodes that fail to open are reported and left out instead
    of aborting. Returns (model, normalised root path)."""
    fmt, path = resolve_format(store, path, format)
    version = ZOM_FORMATS[fmt.name]

    def read(node_path: str, depth: int) -> Model | None:
        if depth > MAX_HIERARCHY_DEPTH:
            raise LimitError(
                f"hierarchy deeper than {MAX_HIERARCHY_DEPTH} levels at {node_path!r}", "ZOM-004"
            )
        try:
            kind = fmt.node_kind(store, node_path)
            node: Array | Group
            if kind == "array":
                node = fmt.open_array(store, node_path)
            elif kind == "group":
                node = fmt.open_group(store, node_path)
            else:
                raise NodeNotFoundError(f"no {fmt.name} node at {node_path or '/'!r}")
            members = None
            if kind == "group":
                members = {}
                for name in fmt.children(store, node_path):
                    child = read(join(node_path, name), depth + 1)
                    if child is not None:
                        members[name] = child
            return node_from_metadata(version, kind, node.metadata, node.attrs, members)
        except LimitError:
            raise
        except ZarrError as exc:
            if on_failure is None or depth == 0:
                raise
            on_failure(NodeFailure(node_path, exc))
            return None

    model = read(path, 0)
    assert model is not None  # the root's failure is raised, never reported
    return model, path


def to_store(
    model: Model, store: Store | str | os.PathLike[str], path: str = "", overwrite: bool = False
) -> None:
    """Materialise a ZOM: write every node's metadata document and attributes (never chunks).

    Parents are written before their children. A v3 `storage_transformers: null` writes no key
    (ZOM-013). v3 extension members of groups (for example a metadata `members`, kept as
    `_members` in the ZOM, ZOM-006) are written into the group's zarr.json and re-read through the
    format to validate them."""
    from .. import get_format

    store = open_store(store, mode="w")
    fmt = get_format(f"v{model.version}")
    root = fmt.normalize_path(path)
    queue: list[tuple[str, Model, int]] = [(root, model, 0)]
    while queue:
        node_path, node, depth = queue.pop(0)
        if depth > MAX_HIERARCHY_DEPTH:
            raise LimitError(f"hierarchy deeper than {MAX_HIERARCHY_DEPTH} levels", "ZOM-004")
        if node.version != model.version:
            raise MetadataError(
                "invalid-zarr-format",
                f"node {node_path!r} is Zarr v{node.version} inside a v{model.version} ZOM",
                "ZOM-002",
            )
        metadata = metadata_of(node)
        if not isinstance(node, GROUP_MODELS):
            fmt.create_array(store, node_path, metadata, dict(node.attributes), overwrite=overwrite)
            continue
        fmt.create_group(store, node_path, dict(node.attributes), overwrite=overwrite)
        extensions = {k: v for k, v in metadata.items() if k not in ("zarr_format", "node_type")}
        if extensions:
            _write_group_extensions(fmt, store, node_path, metadata, node.attributes)
        for name, child in node.members.items():
            queue.append((join(node_path, name), child, depth + 1))


def _write_group_extensions(
    fmt: Format, store: Store, path: str, metadata: dict[str, Any], attributes: dict[str, Any]
) -> None:
    if fmt.name != "v3":  # the v2 model forbids extra .zgroup keys (V2-GROUP-002)
        raise UnsupportedError(f"{fmt.name} groups cannot carry extra metadata")
    document = {**metadata, "attributes": dict(attributes)}
    store.set(join(path, "zarr.json"), jsonio.dumps(document))
    fmt.open_group(store, path)  # the format must accept what was written
