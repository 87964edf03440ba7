"""A local directory store: key 'a/b' is the file <root>/a/b (V3-FS-001)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ..errors import PathError
from .base import Store, check_key


class DirectoryStore(Store):
    def __init__(self, root: str | os.PathLike, read_only: bool = False):
        self.root = Path(root)
        self.read_only = read_only

    def _path(self, key: str) -> Path:
        check_key(key)
        path = self.root.joinpath(*key.split("/"))
        # A symlink inside a hostile store must not lead reads or writes outside the root.
        real_root = os.path.realpath(self.root)
        real = os.path.realpath(path)
        if real != real_root and not real.startswith(real_root + os.sep):
            raise PathError("invalid-path", f"key {key!r} resolves outside the store")
        return path

    def get(self, key: str) -> bytes | None:
        try:
            path = self._path(key)
            if not path.is_file():
                return None
            return path.read_bytes()
        except (PathError, OSError):
            return None

    def get_partial(self, key: str, start: int, length: int | None = None) -> bytes | None:
        try:
            path = self._path(key)
            with open(path, "rb") as f:
                if start < 0:
                    f.seek(max(f.seek(0, os.SEEK_END) + start, 0))
                else:
                    f.seek(start)
                return f.read() if length is None else f.read(length)
        except (PathError, OSError):
            return None

    def _set(self, key: str, value: bytes) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".partial")
        tmp.write_bytes(value)
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

    def list_prefix(self, prefix: str) -> list[str]:
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
        out = []
        for dirpath, dirnames, filenames in os.walk(start):
            rel = os.path.relpath(dirpath, self.root)
            parts = [] if rel == "." else rel.split(os.sep)
            out.extend("/".join([*parts, n]) for n in filenames if self._listable_file(dirpath, n))
        return sorted(k for k in out if k.startswith(prefix))

    def list_dir(self, prefix: str) -> tuple[list[str], list[str]]:
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
