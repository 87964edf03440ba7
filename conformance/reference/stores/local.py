"""Reading local files safely: only regular files, never more than a limit.

A FIFO, a socket or a device where a store (or a value) should be is refused before it is opened:
opening a FIFO blocks until a writer comes, reading a device may never end. The check is stat()
then S_ISREG, and the open itself is non-blocking with a second check on the open descriptor, so
that a file swapped for a FIFO between the two cannot block either.
"""

from __future__ import annotations

import errno
import os
import stat

from ..errors import PathError
from .base import StoreIOError, printable, too_large

# Errors that mean "there is no such value": the key names nothing (or a directory, or a path
# through a file). Any other OSError (permission denied, an I/O error) is a StoreIOError.
_ABSENT = {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP}


def special_file_kind(mode: int) -> str | None:
    """'FIFO', 'socket', ... for a mode that is neither a regular file nor a directory."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISLNK(mode):
        return "symbolic link"
    return "special file"


def check_store_path(path: str | os.PathLike[str], what: str = "store") -> None:
    """Refuse a store location that is a FIFO, socket or device (PathError 'invalid-path'),
    without opening it. A missing path, a directory or a regular file pass."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    kind = special_file_kind(mode)
    if kind is not None:
        raise PathError(
            "invalid-path",
            f"the {what} {printable(os.fspath(path))!r} is a {kind}, not a directory "
            "or a regular file: refused without opening it",
        )


def _refuse(key: str, mode: int) -> PathError:
    return PathError(
        "invalid-path",
        f"key {printable(key)!r} is a {special_file_kind(mode)}, not a regular file: "
        "refused without opening it",
    )


def entry_exists(path: str) -> bool:
    """Whether something that is not a directory is at `path` (following symlinks): a regular
    file, or a FIFO, socket or device, which `read_file` then refuses (the key holds something,
    so that a walk reports it rather than skipping it). Never opens anything."""
    try:
        return not stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_file(
    path: str, key: str, limit: int, start: int | None = None, length: int | None = None
) -> bytes | None:
    """The bytes of a regular file (or of [start, start+length) of it; a negative start counts
    from the end), or None when there is none (missing, a directory). A FIFO, socket or device
    is a PathError; more than `limit` bytes to return is a LimitError, raised before reading."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        raise StoreIOError(f"cannot read {printable(key)!r}: {exc.strerror or exc}") from None
    except ValueError:  # an embedded NUL: no such file
        return None
    if stat.S_ISDIR(mode):
        return None
    if not stat.S_ISREG(mode):
        raise _refuse(key, mode)
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        raise StoreIOError(f"cannot read {printable(key)!r}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped between stat and open
            raise _refuse(key, info.st_mode)
        size = info.st_size
        if start is None:
            first, count = 0, size
        else:
            first = max(size + start, 0) if start < 0 else min(start, size)
            count = size - first if length is None else max(min(length, size - first), 0)
        if count > limit:
            raise too_large(key, limit, count, "value" if start is None else "a range of")
        chunks = []
        got = 0
        if not hasattr(os, "pread"):  # Windows
            os.lseek(fd, first, os.SEEK_SET)
        while got < count:  # a single read may return less (large reads, signals)
            block = (
                os.pread(fd, count - got, first + got)
                if hasattr(os, "pread")
                else os.read(fd, count - got)
            )
            if not block:
                break  # the file shrank meanwhile: what is there is the value
            chunks.append(block)
            got += len(block)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as exc:
        raise StoreIOError(f"cannot read {printable(key)!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
