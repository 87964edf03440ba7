"""The store interface, modelled on the v3 abstract store (get, partial get, set, erase, list,
list_prefix, list_dir). Keys are '/'-separated strings with no leading or trailing '/'."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator

from ..errors import PathError, ReadOnlyError


def check_key(key: str) -> str:
    """Refuse keys that could escape a store: empty, absolute, '.'/'..' segments, backslashes, NUL."""
    if not isinstance(key, str) or not key:
        raise PathError("invalid-path", f"invalid store key {key!r}")
    if key.startswith("/") or key.endswith("/") or "\\" in key or "\x00" in key:
        raise PathError("invalid-path", f"invalid store key {key!r}")
    for segment in key.split("/"):
        if segment in ("", ".", ".."):
            raise PathError("invalid-path", f"store key {key!r} has an empty, '.' or '..' segment")
    return key


class Store(ABC):
    """A key/value store. `get` returns None for a missing key (never raises KeyError)."""

    read_only: bool = False

    @abstractmethod
    def get(self, key: str) -> bytes | None: ...

    def get_partial(self, key: str, start: int, length: int | None = None) -> bytes | None:
        """Bytes [start, start+length) of a value; a negative start counts from the end."""
        value = self.get(key)
        if value is None:
            return None
        if start < 0:
            start = max(len(value) + start, 0)
        return value[start:] if length is None else value[start : start + length]

    def set(self, key: str, value: bytes) -> None:
        self._check_writable()
        self._set(check_key(key), bytes(value))

    def erase(self, key: str) -> None:
        self._check_writable()
        self._erase(check_key(key))

    def _check_writable(self) -> None:
        if self.read_only:
            raise ReadOnlyError(f"{self!r} is read-only")

    def _set(self, key: str, value: bytes) -> None:
        raise ReadOnlyError(f"{type(self).__name__} cannot be written")

    def _erase(self, key: str) -> None:
        raise ReadOnlyError(f"{type(self).__name__} cannot be written")

    @abstractmethod
    def list(self) -> Iterator[str]:
        """Every key in the store, in no particular order."""

    def list_prefix(self, prefix: str) -> list[str]:
        return sorted(k for k in self.list() if k.startswith(prefix))

    def list_dir(self, prefix: str) -> tuple[list[str], list[str]]:
        """(keys, child prefixes) directly below `prefix` ('' or ending in '/').
        Child prefixes are returned without the trailing '/'; both lists are names relative to prefix."""
        keys: set[str] = set()
        dirs: set[str] = set()
        for key in self.list_prefix(prefix):
            rest = key[len(prefix) :]
            head, sep, _ = rest.partition("/")
            (dirs if sep else keys).add(head)
        return sorted(keys), sorted(dirs)

    def contains(self, key: str) -> bool:
        return self.get(key) is not None

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
