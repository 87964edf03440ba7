"""Finding a hierarchy in a store that cannot list its keys (plain HTTP).

The keys come from consolidated metadata instead (v2 `.zmetadata`, v3 inline
`consolidated_metadata`), plus the documents of the starting node itself. Chunks cannot be
listed: `lists_chunks = False` tells the walker to probe grid positions instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from conformance.reference.errors import UnsupportedError, ZarrError
from conformance.reference.stores import Store

NODE_KEYS = (".zarray", ".zgroup", ".zattrs", ".zmetadata", "zarr.json")
V1_KEYS = ("meta", "attrs")


class KnownKeysStore(Store):
    """A read-only view of `inner` whose listing is a fixed set of known keys."""

    read_only = True
    lists_chunks = False

    def __init__(self, inner: Store, keys: set[str]):
        self.inner = inner
        self.keys = set(keys)
        self.remote = inner.remote

    def get(self, key: str, limit: int | None = None) -> bytes | None:
        return self.inner.get(key) if limit is None else self.inner.get(key, limit)

    def get_partial(
        self, key: str, start: int, length: int | None = None, limit: int | None = None
    ) -> bytes | None:
        return (
            self.inner.get_partial(key, start, length)
            if limit is None
            else self.inner.get_partial(key, start, length, limit)
        )

    def contains(self, key: str) -> bool:  # the inner store's, which does not read the value
        return self.inner.contains(key)

    def list(self) -> Iterator[str]:
        return iter(sorted(self.keys))

    def __repr__(self) -> str:
        return f"KnownKeysStore({self.inner!r}, {len(self.keys)} known keys)"


def can_list(store: Store) -> bool:
    """False for stores that cannot list: plain HTTP, or a bucket that allows reading objects
    but refuses listing (S3 without s3:ListBucket answers 403)."""
    try:
        store.list_dir("")
        return True
    except UnsupportedError:
        return False
    except ZarrError as exc:
        if exc.reason == "io-error":
            return False
        raise


def _prefix(path: str) -> str:
    return f"{path}/" if path else ""


def consolidated_keys(store: Store, format: str, path: str) -> set[str] | None:
    """The metadata keys that the consolidated metadata at `path` names (None if it has none)."""
    try:
        module = importlib.import_module(f"conformance.reference.formats.{format}")
    except ImportError:
        return None
    reader = getattr(module, "read_consolidated", None)
    if reader is None:
        return None
    documents = reader(store, path)
    if documents is None:
        return None
    prefix = _prefix(path)
    if format == "v2":  # {'a/.zarray': {...}}: relative keys
        return {prefix + key for key in documents}
    return {f"{prefix}{name}/zarr.json" for name in documents}  # v3: {'a/b': {...}}: node paths


def known_keys_view(store: Store, formats: list[str], path: str) -> tuple[KnownKeysStore, str]:
    """A listing view of a store that cannot list, and a note saying where its keys came from."""
    prefix = _prefix(path)
    keys = {prefix + name for name in NODE_KEYS if store.contains(prefix + name)}
    if not path:
        keys |= {name for name in V1_KEYS if store.contains(name)}
    sources = []
    for format in formats:
        if format not in ("v2", "v3"):
            continue
        try:
            found = consolidated_keys(store, format, path)
        except ZarrError as exc:
            sources.append(f"{format} consolidated metadata is unusable ({exc.message})")
            continue
        if found is not None:
            keys |= found
            sources.append(f"{len(found)} keys from {format} consolidated metadata")
    if not any("keys from" in s for s in sources):
        sources.append("no consolidated metadata: only the starting node is checked")
    note = (
        "the store cannot list its keys; "
        + "; ".join(sources)
        + "; chunks are found by requesting each grid position"
    )
    return KnownKeysStore(store, keys), note
