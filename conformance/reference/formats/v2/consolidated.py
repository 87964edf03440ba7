"""Consolidated metadata (§9 convention, zarr-python): every `.zarray`, `.zgroup` and `.zattrs`
document below a group gathered into one `.zmetadata` key:

    {"zarr_consolidated_format": 1, "metadata": {"a/.zarray": {...}, ".zgroup": {...}, ...}}

Keys inside "metadata" are relative to the group that holds `.zmetadata`.
"""

from __future__ import annotations

from typing import Any

from ... import jsonio
from ...errors import MetadataError
from ...stores import Store
from .paths import (
    ARRAY_KEY,
    ATTRS_KEY,
    CONSOLIDATED_KEY,
    GROUP_KEY,
    key_prefix,
    node_key,
    normalize_path,
)

_METADATA_NAMES = (ARRAY_KEY, GROUP_KEY, ATTRS_KEY)


def write_consolidated(store: Store, path: str = "") -> dict[str, Any]:
    """Gather the metadata documents below `path` into `path/.zmetadata`; returns the document."""
    path = normalize_path(path)
    prefix = key_prefix(path)
    metadata = {}
    for key in sorted(store.list_prefix(prefix)):
        value = store.get(key)
        if key.rsplit("/", 1)[-1] in _METADATA_NAMES and value is not None:
            metadata[key[len(prefix) :]] = jsonio.loads(value, key)
    document = {"zarr_consolidated_format": 1, "metadata": metadata}
    store.set(node_key(path, CONSOLIDATED_KEY), jsonio.dumps_ascii(document))
    return document


def read_consolidated(store: Store, path: str = "") -> dict[str, Any] | None:
    """The consolidated {relative key: document} mapping at `path`, or None if there is none."""
    path = normalize_path(path)
    data = store.get(node_key(path, CONSOLIDATED_KEY))
    if data is None:
        return None
    document = jsonio.load_object(data, CONSOLIDATED_KEY)
    if document.get("zarr_consolidated_format") != 1 or isinstance(
        document.get("zarr_consolidated_format"), bool
    ):
        raise MetadataError(
            "invalid-zarr-format",
            f"zarr_consolidated_format must be 1, got {document.get('zarr_consolidated_format')!r}",
        )
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        raise MetadataError("invalid-metadata", '.zmetadata has no "metadata" object')
    for key, value in metadata.items():
        if key.rsplit("/", 1)[-1] not in _METADATA_NAMES or not isinstance(value, dict):
            raise MetadataError(
                "invalid-metadata", f".zmetadata entry {key!r} is not a metadata document"
            )
    return metadata
