"""The reference implementation: exact, small, synchronous; numpy + stdlib, with numcodecs and
crc32c as compression primitives, ml_dtypes for the storage of the narrow extension types and
zfpy / pcodec (through numcodecs) for the codecs that are defined by those libraries.

    from conformance import reference as ref
    store = ref.MemoryStore()
    fmt = ref.get_format("v3")
    a = fmt.create_array(store, "x", fmt.array_metadata((10,), (4,), "int32", fill_value=0))
    a[2:7] = 5
    ref.open_node(store, "x")[:]
"""

from __future__ import annotations

import os

from .array import Array, ArrayLayout, Group
from .errors import REASONS, ZarrError
from .formats.base import Format
from .stores import DirectoryStore, MemoryStore, Store, ZipStore, open_store

FORMAT_NAMES = ("v3", "v2", "v3-draft", "v1")


def get_format(name: str) -> Format:
    """The Format object for 'v1', 'v2', 'v3' or 'v3-draft'."""
    # Imported on demand: most runs need one format, and each pulls in its own codecs.
    if name == "v3":
        from .formats.v3 import FORMAT as v3

        return v3
    if name == "v2":
        from .formats.v2 import FORMAT as v2

        return v2
    if name == "v1":
        from .formats.v1 import FORMAT as v1

        return v1
    if name == "v3-draft":
        from .formats.v3draft import FORMAT as draft

        return draft
    raise ValueError(f"unknown format {name!r}; expected one of {', '.join(FORMAT_NAMES)}")


def detect_format(store: Store, path: str = "") -> str | None:
    """The format of the node at `path`, judged by which metadata keys exist (None if none)."""
    from .errors import PathError

    path_errors, invalid = [], []
    for name in FORMAT_NAMES:
        fmt = get_format(name)
        try:
            normalized = fmt.normalize_path(path)
        except PathError as exc:
            path_errors.append(exc)
            continue
        try:
            if fmt.node_kind(store, normalized) is not None:
                return name
        except ZarrError:
            invalid.append(name)
    if invalid:
        return invalid[0]  # its metadata is there but invalid: opening it reports the real reason
    if len(path_errors) == len(FORMAT_NAMES):
        raise path_errors[0]  # every format refuses the path itself (e.g. V2-KEY-005 '..')
    return None


def open_node(
    location: str | os.PathLike[str] | Store, path: str = "", format: str | None = None
) -> Array | Group:
    """Open the array or group at `path` in a store, path or URL; the format is auto-detected."""
    from .errors import NodeNotFoundError

    store = open_store(location)
    name = format or detect_format(store, path)
    if name is None:
        raise NodeNotFoundError(f"no Zarr node of any format at {path or '/'!r} in {store!r}")
    fmt = get_format(name)
    return fmt.open_node(store, fmt.normalize_path(path))


__all__ = [
    "FORMAT_NAMES",
    "REASONS",
    "Array",
    "ArrayLayout",
    "DirectoryStore",
    "Group",
    "MemoryStore",
    "Store",
    "ZarrError",
    "ZipStore",
    "detect_format",
    "get_format",
    "open_node",
    "open_store",
]
