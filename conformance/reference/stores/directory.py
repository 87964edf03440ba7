"""A local directory store: key 'a/b' is the file <root>/a/b (V3-FS-001).

Reads are bounded (base.py): a file over the read limit is refused from its size, before it is
read (a sparse 4 GiB chunk costs nothing). Only regular files are values: a FIFO, socket or
device at a key (or as the store root) is a PathError and is never opened, so it cannot block.
File names that are not UTF-8 are keys with surrogate escapes and read back the same file."""

from __future__ import annotations

import builtins  # `list` names a method of the store classes below
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import PathError
from .base import Store, check_key
from .local import check_store_path, entry_exists, read_file


class DirectoryStore(Store):
    def __init__(
        self,
        root: str | os.PathLike[str],
        read_only: bool = False,
        *,
        max_value_bytes: int | None = None,
        max_metadata_bytes: int | None = None,
    ):
        check_store_path(root, "store root")  # a FIFO or device as the root: refused, never opened
        self.root = Path(root)
        self.read_only = read_only
        self.set_limits(max_value_bytes, max_metadata_bytes)

    def _path(self, key: str) -> Path:
        check_key(key)
        path = self.root.joinpath(*key.split("/"))
        # A symlink inside a hostile store must not lead reads or writes outside the root.
        real_root = os.path.realpath(self.root)
        real = os.path.realpath(path)
        if real != real_root and not real.startswith(real_root + os.sep):
            raise PathError("invalid-path", f"key {key!r} resolves outside the store")
        return path

    def _file(self, key: str) -> str | None:
        try:
            return os.fspath(self._path(key))
        except (PathError, ValueError):
            return None

    def get(self, key: str, limit: int | None = None) -> bytes | None:
        path = self._file(key)
        return None if path is None else read_file(path, key, self.limit_for(key, limit))

    def get_partial(
        self, key: str, start: int, length: int | None = None, limit: int | None = None
    ) -> bytes | None:
        path = self._file(key)
        if path is None:
            return None
        return read_file(path, key, self.limit_for(key, limit), start, length)

    def contains(self, key: str) -> bool:
        path = self._file(key)
        return path is not None and entry_exists(path)

    def _set(self, key: str, value: bytes) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".partial")
        # Non-blocking and not through a symlink: a FIFO planted at the temporary name fails
        # (ENXIO) instead of blocking, a symlink there (ELOOP) instead of writing elsewhere.
        flags = (
            os.O_WRONLY
            | os.O_CREAT
            | os.O_TRUNC
            | getattr(os, "O_NONBLOCK", 0)
            | getattr(os, "O_NOFOLLOW", 0)
            | getattr(os, "O_CLOEXEC", 0)
            | getattr(os, "O_BINARY", 0)
        )
        fd = os.open(tmp, flags, 0o644)
        with open(fd, "wb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise PathError(
                    "invalid-path", f"cannot write {key!r}: {tmp.name!r} is not a regular file"
                )
            f.write(value)
        os.replace(tmp, path)

    def _erase(self, key: str) -> None:
        path = self._path(key)
        if path.is_file():
            path.unlink()

    # Listings never follow a symlinked directory (os.walk's default): one pointing outside the
    # root would list foreign files, one pointing at an ancestor would loop forever. A symlinked
    # file is listed only when it resolves inside the root (get() checks the same).
    def _listable_file(self, dirpath: str, name: str) -> bool:
        full = os.path.join(dirpath, name)
        if not os.path.islink(full):
            return True
        real_root = os.path.realpath(self.root)
        real = os.path.realpath(full)
        return real.startswith(real_root + os.sep) and os.path.isfile(real)

    def _real_dir(self, base: str) -> Path | None:
        """The directory of a key prefix, if every component is a real directory (no symlink)."""
        path = self.root
        for part in base.split("/") if base else []:
            path = path / part
            if path.is_symlink():
                return None
        return path if path.is_dir() else None

    def list(self) -> Iterator[str]:
        if not self.root.is_dir():
            return
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames.sort()
            rel = os.path.relpath(dirpath, self.root)
            parts = [] if rel == "." else rel.split(os.sep)
            for name in sorted(filenames):
                if self._listable_file(dirpath, name):
                    yield "/".join([*parts, name])

    def list_prefix(self, prefix: str) -> builtins.list[str]:
        # Walk only the directory the prefix names, not the whole tree.
        base = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
        try:
            if base:
                check_key(base)
        except PathError:
            return []
        start = self._real_dir(base)
        if start is None:
            return []
        out: builtins.list[str] = []
        for dirpath, _dirnames, filenames in os.walk(start):
            rel = os.path.relpath(dirpath, self.root)
            parts = [] if rel == "." else rel.split(os.sep)
            out.extend("/".join([*parts, n]) for n in filenames if self._listable_file(dirpath, n))
        return sorted(k for k in out if k.startswith(prefix))

    def list_dir(self, prefix: str) -> tuple[builtins.list[str], builtins.list[str]]:
        if prefix:
            check_key(prefix.rstrip("/"))
        path = self._real_dir(prefix.rstrip("/"))
        if path is None:
            return [], []
        keys, dirs = [], []
        for entry in sorted(os.scandir(path), key=lambda e: e.name):
            if entry.is_dir(follow_symlinks=False):
                dirs.append(entry.name)
            elif not entry.is_symlink() or self._listable_file(str(path), entry.name):
                keys.append(entry.name)
        return keys, dirs

    def __repr__(self) -> str:
        return f"DirectoryStore({str(self.root)!r})"
