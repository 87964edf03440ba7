"""The store interface, modelled on the v3 abstract store (get, partial get, set, erase, list,
list_prefix, list_dir). Keys are '/'-separated strings with no leading or trailing '/'.

Every read is bounded. A store never holds more than a limit of bytes for one value:

    store.get(key)               # at most store.limit_for(key) bytes, else LimitError('too-large')
    store.get(key, limit=4096)   # at most 4096 bytes (a caller that knows what to expect)

The default limit of a key depends on what it names: `max_metadata_bytes` (64 MiB) for metadata
documents (zarr.json, .zarray, .zgroup, .zattrs, .zmetadata, v1 `meta`/`attrs`, v3-draft
`meta/*.json`), `max_value_bytes` (1 GiB) for anything else (chunks, shards). Both are attributes
of each store (constructor arguments of the stores here), with defaults from the environment
variables ZARR_CONFORMANCE_MAX_VALUE_BYTES / ZARR_CONFORMANCE_MAX_METADATA_BYTES when set. A
value over its limit raises LimitError naming the key and the limit, before it is read when its
size is known (a file's size, a Content-Length, a zip member's declared size), else as soon as
the bytes read pass the limit: a store never needs more memory than the limit to refuse a value.

Keys are str. A local file name that is not valid UTF-8 becomes a key with surrogate escapes
(os.fsdecode), which reads back the same file; `printable` shows such a key as '\\xff'.
"""

from __future__ import annotations

import builtins  # `list` names a method of the store classes below
import io
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import Self

from ..errors import LimitError, PathError, ReadOnlyError, ZarrError

GiB, MiB = 1 << 30, 1 << 20
DEFAULT_MAX_VALUE_BYTES = 1 * GiB  # one chunk or shard: the reference decodes no chunk above 1 GiB
DEFAULT_MAX_METADATA_BYTES = 64 * MiB  # one metadata document (consolidated metadata included)
READ_BLOCK_BYTES = 1 * MiB  # streamed reads go in blocks of this size
ENV_MAX_VALUE_BYTES = "ZARR_CONFORMANCE_MAX_VALUE_BYTES"
ENV_MAX_METADATA_BYTES = "ZARR_CONFORMANCE_MAX_METADATA_BYTES"

METADATA_NAMES = frozenset({"zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"})
V1_METADATA_KEYS = frozenset({"meta", "attrs"})  # v1 documents sit at the store root


def is_metadata_key(key: str) -> bool:
    """Whether a key names a metadata document of some format (not a chunk)."""
    name = key.rsplit("/", 1)[-1]
    return (
        name in METADATA_NAMES
        or key in V1_METADATA_KEYS
        or (key.startswith("meta/") and key.endswith(".json"))
    )


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


class StoreIOError(ZarrError):
    """The store could not be read: a network failure, a timeout, a permission, a broken archive.
    Never 'missing' (that is None): a missing chunk would silently read as the fill value."""

    def __init__(self, message: str):
        super().__init__("io-error", message)


def too_large(key: str, limit: int, size: int | None = None, what: str = "value") -> LimitError:
    """The LimitError of a read over its limit: names the key, the limit and, when known, the size."""
    if size is not None:
        return LimitError(
            f"{what} {printable(key)!r} is {size} bytes, over the store's read limit of {limit} "
            "bytes: refused without reading it"
        )
    return LimitError(
        f"{what} {printable(key)!r} exceeds the store's read limit of {limit} bytes: "
        f"refused after {limit} bytes"
    )


def _env_bytes(name: str, default: int) -> int:
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a number of bytes") from None
    if value < 0:
        raise ValueError(f"{name}={text!r} is negative")
    return value


def read_stream(
    read: Callable[[int], bytes], key: str, limit: int, need: int | None = None, what: str = "value"
) -> bytes:
    """Bytes from `read(n)` (a file's read) until EOF, or until `need` bytes arrived: at most
    `limit` bytes are kept, one more is a LimitError. Memory: the bytes kept, once (BytesIO
    hands its buffer over without a copy)."""
    out = io.BytesIO()
    got = 0
    stop = need if need is not None else None
    while stop is None or got < stop:
        want = READ_BLOCK_BYTES if stop is None else min(READ_BLOCK_BYTES, stop - got)
        block = read(min(want, limit + 1 - got))
        if not block:
            break
        got += len(block)
        if got > limit:
            out.close()  # free what was read now, not when the traceback holding this frame goes
            raise too_large(key, limit, what=what)
        out.write(block)
    return out.getvalue()


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def printable(text: str, json: bool = False) -> str:
    """Text that encodes as UTF-8: a byte that was not UTF-8 (a surrogate escape from os.fsdecode)
    shows as '\\xff', any other lone surrogate as '\\udxxx'. With json=True the text is a JSON
    document, where the backslash is written escaped ('\\\\xff') so that it stays valid JSON."""
    if not _SURROGATE.search(text):
        return text
    if json:
        return _SURROGATE.sub(lambda m: "\\" + _escape(m), text)
    return _SURROGATE.sub(_escape, text)


class Store(ABC):
    """A key/value store. `get` returns None for a missing key (never raises KeyError)."""

    read_only: bool = False
    remote: bool = False  # each read waits on a network: readers gain from reading several at once
    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES
    max_metadata_bytes: int = DEFAULT_MAX_METADATA_BYTES

    def set_limits(
        self, max_value_bytes: int | None = None, max_metadata_bytes: int | None = None
    ) -> None:
        """Set this store's read limits: explicit values, else the environment, else the defaults."""
        value = (
            _env_bytes(ENV_MAX_VALUE_BYTES, DEFAULT_MAX_VALUE_BYTES)
            if max_value_bytes is None
            else max_value_bytes
        )
        metadata = (
            _env_bytes(ENV_MAX_METADATA_BYTES, DEFAULT_MAX_METADATA_BYTES)
            if max_metadata_bytes is None
            else max_metadata_bytes
        )
        if value < 0 or metadata < 0:
            raise ValueError("store limits must be non-negative numbers of bytes")
        self.max_value_bytes = int(value)
        self.max_metadata_bytes = int(metadata)

    def limit_for(self, key: str, limit: int | None = None) -> int:
        """The most bytes a read of `key` may return: `limit` when given, else the store's limit
        for metadata documents or for other values (a metadata limit above the value limit is
        cut to it)."""
        if limit is not None:
            if limit < 0:
                raise ValueError(f"limit must be non-negative, got {limit}")
            return int(limit)
        if is_metadata_key(key):
            return min(self.max_metadata_bytes, self.max_value_bytes)
        return self.max_value_bytes

    @abstractmethod
    def get(self, key: str, limit: int | None = None) -> bytes | None:
        """The value of `key`, or None when there is none. At most `self.limit_for(key, limit)`
        bytes: a larger value raises LimitError ('too-large'), never MemoryError."""

    def get_partial(
        self, key: str, start: int, length: int | None = None, limit: int | None = None
    ) -> bytes | None:
        """Bytes [start, start+length) of a value; a negative start counts from the end. The
        bytes returned count against the limit (this default reads the whole value, so the value
        does too; the stores here read only the range)."""
        value = self.get(key)
        if value is None:
            return None
        if start < 0:
            start = max(len(value) + start, 0)
        part = value[start:] if length is None else value[start : start + length]
        cap = self.limit_for(key, limit)
        if len(part) > cap:
            raise too_large(key, cap, len(part), "a range of")
        return part

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

    def list_prefix(self, prefix: str) -> builtins.list[str]:
        return sorted(k for k in self.list() if k.startswith(prefix))

    def list_dir(self, prefix: str) -> tuple[builtins.list[str], builtins.list[str]]:
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
        """Whether something is stored at `key`: a value (one over the read limit too), or an
        entry that `get` refuses (a FIFO, a symlink member of a zip): the walk then reports it.
        The stores here answer without reading; this default reads the value, within the limit."""
        try:
            return self.get(key) is not None
        except LimitError:
            return True

    def close(self) -> None:  # noqa: B027 - optional hook: most stores hold nothing to release
        """Release what the store holds open (a zip file, a session); nothing by default."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
