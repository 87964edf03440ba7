"""The contract every format family (v1, v2, v3, v3-draft) implements.

Node paths given to a Format are already normalised: '' for the root, otherwise names joined by
'/' with no leading or trailing '/'. `normalize_path` is the format's own rule for turning a
user-supplied path into that form (or raising PathError).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from ..array import Array, Group
from ..stores import Store


class Format(ABC):
    name: str  # 'v1', 'v2', 'v3', 'v3-draft'

    # ---- paths and discovery -------------------------------------------------------------
    @abstractmethod
    def normalize_path(self, path: str) -> str:
        """A user path in this format's normal form; PathError('invalid-path' / 'invalid-node-name')."""

    @abstractmethod
    def node_kind(self, store: Store, path: str) -> str | None:
        """'array', 'group' or None when no node of this format exists at `path`."""

    @abstractmethod
    def children(self, store: Store, path: str) -> dict[str, str]:
        """Direct children of the group at `path`: name -> 'array' | 'group', sorted by name."""

    # ---- opening -------------------------------------------------------------------------
    @abstractmethod
    def open_array(self, store: Store, path: str) -> Array:
        """Parse and validate the array's metadata; raise ZarrError subclasses on anything invalid."""

    @abstractmethod
    def open_group(self, store: Store, path: str) -> Group: ...

    def open_node(self, store: Store, path: str) -> Array | Group:
        from ..errors import NodeNotFoundError

        kind = self.node_kind(store, path)
        if kind == "array":
            return self.open_array(store, path)
        if kind == "group":
            return self.open_group(store, path)
        raise NodeNotFoundError(f"no {self.name} node at {path or '/'!r}")

    # ---- creating ------------------------------------------------------------------------
    @abstractmethod
    def create_array(
        self,
        store: Store,
        path: str,
        metadata: dict[str, Any],
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Array:
        """Validate `metadata` (this format's own array document, without user attributes),
        write it and any missing ancestor groups the format requires, and return the array."""

    @abstractmethod
    def create_group(
        self,
        store: Store,
        path: str,
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Group: ...

    @abstractmethod
    def write_attributes(self, node: Array | Group, attributes: dict[str, Any]) -> None: ...

    # ---- resizing ------------------------------------------------------------------------
    def write_shape(self, store: Store, array: Array, shape: tuple[int, ...]) -> None:
        """Rewrite the array's metadata document with another shape (validated as on creation)."""
        from ..errors import UnsupportedError

        raise UnsupportedError(f"the reference does not resize {self.name} arrays")

    def resize_array(self, store: Store, path: str, shape: Sequence[int]) -> Array:
        """Give the array at `path` a new shape of the same rank. Chunks wholly outside the new
        shape are erased: 3.0 ("Resizing", an implementation note) lets a shrinking implementation
        delete or keep them, and the reference deletes them so that growing again reads the fill
        value there. Edge chunks the new shape cuts through are kept as they are (their overhang
        is not part of the array)."""
        from ..errors import MetadataError, UnsupportedError
        from ..grid import RectilinearGrid

        array = self.open_array(store, path)
        shape = tuple(int(n) for n in shape)
        if len(shape) != array.ndim or any(n < 0 for n in shape):
            raise MetadataError(
                "invalid-metadata", f"cannot resize {array.shape} to {list(shape)}: another rank"
            )
        if isinstance(array.chunks, RectilinearGrid):
            raise UnsupportedError("the reference resizes arrays on regular chunk grids only")
        self.write_shape(store, array, shape)
        for index in array.chunk_indices():
            if any(i * c >= n for i, c, n in zip(index, array.chunks, shape)):
                store.erase(array.chunk_key(index))
        return self.open_array(store, path)

    @abstractmethod
    def array_metadata(
        self, shape: Sequence[int], chunks: Sequence[int], dtype: Any, **options: Any
    ) -> dict[str, Any]:
        """Build this format's array metadata document from NumPy-style arguments (a convenience for
        tests, benchmarks and the corpus generator); options are format specific (fill_value,
        order, compressor/codecs, ...). The result passes `create_array`'s validation."""
