"""An in-memory store backed by a dict. Its values are in memory already; the read limits apply
all the same, so that every store answers a value over the limit alike (LimitError)."""

from __future__ import annotations

from collections.abc import Iterator

from .base import Store, too_large


class MemoryStore(Store):
    def __init__(
        self,
        data: dict[str, bytes] | None = None,
        *,
        max_value_bytes: int | None = None,
        max_metadata_bytes: int | None = None,
    ):
        self.data: dict[str, bytes] = dict(data or {})
        self.set_limits(max_value_bytes, max_metadata_bytes)

    def get(self, key: str, limit: int | None = None) -> bytes | None:
        value = self.data.get(key)
        if value is not None:
            cap = self.limit_for(key, limit)
            if len(value) > cap:
                raise too_large(key, cap, len(value))
        return value

    def get_partial(
        self, key: str, start: int, length: int | None = None, limit: int | None = None
    ) -> bytes | None:
        value = self.data.get(key)
        if value is None:
            return None
        first = max(len(value) + start, 0) if start < 0 else start
        part = value[first:] if length is None else value[first : first + max(length, 0)]
        cap = self.limit_for(key, limit)
        if len(part) > cap:
            raise too_large(key, cap, len(part), "a range of")
        return part

    def contains(self, key: str) -> bool:
        return key in self.data

    def _set(self, key: str, value: bytes) -> None:
        self.data[key] = value

    def _erase(self, key: str) -> None:
        self.data.pop(key, None)

    def list(self) -> Iterator[str]:
        return iter(list(self.data))

    def __repr__(self) -> str:
        return f"MemoryStore({len(self.data)} keys)"
