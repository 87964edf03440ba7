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

    @abstractmethod
    def array_metadata(
        self, shape: Sequence[int], chunks: Sequence[int], dtype: Any, **options: Any
    ) -> dict[str, Any]:
        """Build this format's array metadata document from NumPy-style arguments (a convenience for
        tests, benchmarks and the corpus generator); options are format specific (fill_value,
        order, compressor/codecs, ...). The result passes `create_array`'s validation."""
