"""v2 -> v3 by rewriting metadata only (ZEP 1, V3-V2UP-001), as a ZOM -> ZOM mapping (ZEP 6).

Every v2 array keeps its chunk keys and bytes: the v3 document uses the `v2` chunk key encoding
with the v2 separator, the v2 byte order as the bytes codec's `endian`, order F as a transpose
[n-1, ..., 0], and the compressor as its v3 codec. The per-array mapping itself is the v3 format's
`upgrade_v2_metadata`; this module validates the input as v2, maps whole hierarchies, and writes
the new `zarr.json` documents only after every one of them has been built and validated.
"""

from __future__ import annotations

from typing import Any

from ..errors import MetadataError, UnsupportedError, ZarrError
from ..stores import MemoryStore, Store, open_store
from . import models_v2, models_v3
from .check import iter_nodes
from .convert import Model, metadata_of, node_from_metadata
from .hierarchy import from_store, join
from .names import node_name_problem

REQUIREMENT = "V3-V2UP-001"


def upgrade_v2_array(
    zarray: dict[str, Any], zattrs: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The v3 `zarr.json` (with `attributes`) for a v2 `.zarray` and its `.zattrs`.

    Raises MetadataError for an invalid v2 document and UnsupportedError naming the reason when
    v3 has no equivalent (structured, `S`/`U`/`O` dtypes, filters, compressors other than blosc,
    gzip and zstd)."""
    from ..formats.v2.metadata import parse_array_metadata
    from ..formats.v3.upgrade import upgrade_v2_metadata

    attributes = {} if zattrs is None else zattrs
    if not isinstance(attributes, dict):
        raise MetadataError("invalid-attributes", ".zattrs must be a JSON object", "V2-ATTR-001")
    try:
        parse_array_metadata(zarray)
        document = upgrade_v2_metadata(zarray, attributes)
    except ZarrError as exc:
        if exc.requirement is None:
            exc.requirement = REQUIREMENT
        raise
    document["attributes"] = dict(attributes)  # always present: the ZOM and zarr-python agree
    return document


def upgrade_model(model: Model) -> Model:
    """The v3 ZOM of a v2 ZOM: arrays via `upgrade_v2_array`, groups keep their attributes.

    Every node name must also be a valid v3 name (no reserved `__` prefix, V3-NAME-004)."""
    if model.version != 2:
        raise MetadataError(
            "invalid-zarr-format", f"expected a v2 ZOM, got v{model.version}", REQUIREMENT
        )
    built: dict[str, Model] = {}
    nodes = list(iter_nodes(model))
    for path, _node in nodes:
        name = path.rsplit("/", 1)[-1]
        problem = path and node_name_problem(name, 3)
        if problem:
            raise UnsupportedError(f"{path!r} cannot become a v3 node: {problem}", REQUIREMENT)
    for path, node in reversed(nodes):  # children before parents
        if isinstance(node, models_v2.ArrayModel):
            document = upgrade_v2_array(metadata_of(node), node.attributes)
            attributes = document.pop("attributes")
            built[path] = node_from_metadata(3, "array", document, attributes)
        elif isinstance(node, models_v2.GroupModel):
            members = {name: built[join(path, name)] for name in node.members}
            built[path] = node_from_metadata(
                3, "group", {"zarr_format": 3, "node_type": "group"}, dict(node.attributes), members
            )
    root = built[nodes[0][0]]
    assert isinstance(root, (models_v3.ArrayModel, models_v3.GroupModel))
    return root


def upgrade_store(store: Store, path: str = "", remove_v2: bool = False) -> Model:
    """Add a v3 `zarr.json` beside every v2 node under `path`, leaving chunks untouched.

    Nothing is written unless the whole hierarchy upgrades: the documents are first materialised
    and re-opened in a scratch store. With `remove_v2`, the `.zarray`/`.zgroup`/`.zattrs` keys are
    erased afterwards (the chunk keys are shared and stay). Returns the new v3 ZOM."""
    from .. import get_format
    from .hierarchy import to_store

    store = open_store(store, mode="w")
    v2 = get_format("v2")
    root = v2.normalize_path(path)
    upgraded = upgrade_model(from_store(store, root, format="v2"))
    v3 = get_format("v3")
    for node_path, _ in iter_nodes(upgraded, root):
        if v3.node_kind(store, node_path) is not None:
            raise ZarrError(
                "node-exists", f"{node_path or '/'!r} already has a v3 zarr.json", REQUIREMENT
            )
    scratch = MemoryStore()
    to_store(upgraded, scratch, root)  # validates every document through the v3 format
    for key in sorted(scratch.list()):  # node documents, plus ancestor groups the store lacks
        value = scratch.get(key)
        if value is not None and store.get(key) is None:
            store.set(key, value)
    if remove_v2:
        for node_path, _ in iter_nodes(upgraded, root):
            for name in (".zarray", ".zgroup", ".zattrs"):
                if store.contains(join(node_path, name)):
                    store.erase(join(node_path, name))
    return from_store(store, root, format="v3")
