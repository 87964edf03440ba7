"""An in-memory store backed by a dict."""

from __future__ import annotations

from collections.abc import Iterator

from .base import Store


class MemoryStore(Store):
    def __init__(self, data: dict[str, bytes] | None = None):
        self.data: dict[str, bytes] = dict(data or {})

    def get(self, key: str) -> bytes | None:
        return self.data.get(key)

    def _set(self, key: str, value: bytes) -> None:
        self.data[key] = value

    def _erase(self, key: str) -> None:
        self.data.pop(key, None)

    def list(self) -> Iterator[str]:
        return iter(list(self.data))

    def __repr__(self) -> str:
        return f"MemoryStore({len(self.data)} keys)"
