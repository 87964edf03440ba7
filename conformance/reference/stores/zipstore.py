"""A zip file store: read existing archives, or write a new one (written out on close)."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator

from ..errors import LimitError, PathError, ReadOnlyError
from .base import Store, check_key

# No value the reference can use is larger: decoded chunks are limited to 1 GiB. A bigger
# entry is most likely a deflate bomb (a few MB that inflate to many GB).
MAX_VALUE_BYTES = 4 << 30


def _valid_key(name: str) -> bool:
    try:
        check_key(name)
        return True
    except PathError:
        return False


class ZipStore(Store):
    """mode 'r' reads an archive; mode 'w' builds one in memory and writes it on close, with
    sorted entries and fixed timestamps so that the same content gives the same bytes."""

    def __init__(self, path: str | os.PathLike, mode: str = "r"):
        if mode not in ("r", "w"):
            raise ValueError("mode must be 'r' or 'w'")
        self.path = os.fspath(path)
        self.mode = mode
        self.read_only = mode == "r"
        self._pending: dict[str, bytes] = {}
        self._zip = zipfile.ZipFile(self.path, "r") if mode == "r" else None
        self._names = set(self._zip.namelist()) if self._zip else set()

    def get(self, key: str) -> bytes | None:
        if self.mode == "w":
            return self._pending.get(key)
        if key not in self._names or not _valid_key(key):  # '../evil' is no key of this store
            return None
        size = self._zip.getinfo(key).file_size
        if size > MAX_VALUE_BYTES:
            raise LimitError(f"zip entry {key!r} inflates to {size} bytes, more than {MAX_VALUE_BYTES}")
        return self._zip.read(key)

    def _set(self, key: str, value: bytes) -> None:
        self._pending[key] = value

    def _erase(self, key: str) -> None:
        self._pending.pop(key, None)

    def list(self) -> Iterator[str]:
        names = self._pending if self.mode == "w" else self._names
        return iter(sorted(n for n in names if not n.endswith("/") and _valid_key(n)))

    def close(self) -> None:
        if self.mode == "w" and self._pending is not None:
            with zipfile.ZipFile(self.path, "w", compression=zipfile.ZIP_STORED) as zf:
                for key in sorted(self._pending):
                    info = zipfile.ZipInfo(key, date_time=(1980, 1, 1, 0, 0, 0))
                    info.external_attr = 0o644 << 16
                    zf.writestr(info, self._pending[key])
            self._pending = None
        if self._zip is not None:
            self._zip.close()
            self._zip = None

    def _check_writable(self) -> None:
        if self.mode != "w" or self._pending is None:
            raise ReadOnlyError(f"{self!r} is not open for writing")

    def __repr__(self) -> str:
        return f"ZipStore({self.path!r}, {self.mode!r})"
