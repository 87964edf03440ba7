"""A zip file store: read existing archives, or write a new one (written out on close).

Reading is bounded like every store (base.py): a member whose declared size is over the read
limit is refused before anything is inflated, and a member is inflated by streaming, in blocks,
stopping as soon as the bytes decoded pass the limit (a deflate bomb that lies about its size
costs the limit at most, never the bomb). A member is read once: no second copy of the
compressed bytes is held.

Only members with a valid key name are keys: '../evil', '/abs', 'a\\b', 'a/./b' are not listed
and read as absent, so nothing in an archive can name a path outside it (and nothing is ever
extracted). A symbolic-link member is listed but refused on read (PathError): a zip store has no
links. Archive names that are not valid UTF-8 (a member flagged UTF-8 that is not) make the
archive unreadable: a StoreIOError, never a UnicodeDecodeError.
"""

from __future__ import annotations

import os
import stat
import zipfile
import zlib
from collections.abc import Iterator

from ..errors import PathError, ReadOnlyError
from .base import Store, StoreIOError, check_key, printable, read_stream, too_large
from .local import check_store_path


def _valid_key(name: str) -> bool:
    try:
        check_key(name)
        return True
    except PathError:
        return False


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    return info.create_system == 3 and stat.S_ISLNK(info.external_attr >> 16)  # 3: Unix


# What inflating a member can raise besides OSError: a bad CRC or header, corrupt deflate data,
# an encrypted member, a compression method this Python lacks.
_MEMBER_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    RuntimeError,
    NotImplementedError,
    ValueError,
    OSError,
)


class ZipStore(Store):
    """mode 'r' reads an archive; mode 'w' builds one in memory and writes it on close, with
    sorted entries and fixed timestamps so that the same content gives the same bytes."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        mode: str = "r",
        *,
        max_value_bytes: int | None = None,
        max_metadata_bytes: int | None = None,
    ):
        if mode not in ("r", "w"):
            raise ValueError("mode must be 'r' or 'w'")
        check_store_path(path, "zip archive")  # a FIFO would block zipfile's open forever
        self.path = os.fspath(path)
        self.mode = mode
        self.read_only = mode == "r"
        self.set_limits(max_value_bytes, max_metadata_bytes)
        self._pending: dict[str, bytes] | None = {}
        self._zip: zipfile.ZipFile | None = None
        self._infos: dict[str, zipfile.ZipInfo] = {}
        if mode == "r":
            try:
                self._zip = zipfile.ZipFile(self.path, "r")
            except UnicodeDecodeError as exc:
                raise StoreIOError(
                    f"zip archive {printable(self.path)!r} has a member name flagged as UTF-8 "
                    f"that is not UTF-8 ({exc.reason} at byte {exc.start}): it cannot be read"
                ) from None
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
                raise StoreIOError(
                    f"cannot read zip archive {printable(self.path)!r}: {type(exc).__name__}: {exc}"
                ) from None
            for info in self._zip.infolist():  # the last of duplicate names wins, as in zipfile
                self._infos[info.filename] = info
        self._names = set(self._infos)

    def _info(self, key: str) -> zipfile.ZipInfo | None:
        """The member of a key, or None: not a member, a directory entry, or a name that is no key
        ('../evil' is no key of this store)."""
        info = self._infos.get(key)
        if info is None or info.is_dir() or not _valid_key(key):
            return None
        if _is_symlink(info):
            raise PathError(
                "invalid-path",
                f"zip member {printable(key)!r} is a symbolic link: a zip store "
                "has no links, so it is not read",
            )
        return info

    def get(self, key: str, limit: int | None = None) -> bytes | None:
        cap = self.limit_for(key, limit)
        if self.mode == "w":
            value = self._writes.get(key)
            if value is not None and len(value) > cap:
                raise too_large(key, cap, len(value))
            return value
        info = self._info(key)
        if info is None:
            return None
        if info.file_size > cap:  # declared size: refused before inflating anything
            raise too_large(key, cap, info.file_size, "zip member")
        try:
            with self._archive.open(info) as member:
                return read_stream(member.read, key, cap, what="zip member")
        except _MEMBER_ERRORS as exc:
            raise StoreIOError(
                f"zip member {printable(key)!r} cannot be read: {type(exc).__name__}: {exc}"
            ) from None

    def get_partial(
        self, key: str, start: int, length: int | None = None, limit: int | None = None
    ) -> bytes | None:
        if self.mode == "w":
            return super().get_partial(key, start, length, limit)
        info = self._info(key)
        if info is None:
            return None
        cap = self.limit_for(key, limit)
        size = info.file_size
        first = max(size + start, 0) if start < 0 else min(start, size)
        count = size - first if length is None else max(min(length, size - first), 0)
        if count > cap:
            raise too_large(key, cap, count, "a range of zip member")
        if first and info.compress_type != zipfile.ZIP_STORED and size > self.max_value_bytes:
            # Seeking in a compressed member inflates everything before the range: bounded by
            # the value limit, like reading it whole.
            raise too_large(key, self.max_value_bytes, size, "compressed zip member")
        try:
            with self._archive.open(info) as member:
                if first:
                    member.seek(first)
                return read_stream(member.read, key, cap, need=count, what="a range of zip member")
        except _MEMBER_ERRORS as exc:
            raise StoreIOError(
                f"zip member {printable(key)!r} cannot be read: {type(exc).__name__}: {exc}"
            ) from None

    def contains(self, key: str) -> bool:
        if self.mode == "w":
            return key in self._writes
        info = self._infos.get(key)  # a symlink member is there (and refused when read)
        return info is not None and not info.is_dir() and _valid_key(key)

    def _set(self, key: str, value: bytes) -> None:
        self._writes[key] = value

    def _erase(self, key: str) -> None:
        self._writes.pop(key, None)

    def list(self) -> Iterator[str]:
        names = self._writes.keys() if self.mode == "w" else self._names
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

    @property
    def _writes(self) -> dict[str, bytes]:
        """The members to be written (mode "w"), until close() writes the archive."""
        if self._pending is None:
            raise ReadOnlyError(f"{self!r} is closed")
        return self._pending

    @property
    def _archive(self) -> zipfile.ZipFile:
        if self._zip is None:
            raise StoreIOError(f"{self!r} is closed")
        return self._zip

    def _check_writable(self) -> None:
        if self.mode != "w" or self._pending is None:
            raise ReadOnlyError(f"{self!r} is not open for writing")

    def __repr__(self) -> str:
        return f"ZipStore({self.path!r}, {self.mode!r})"
