"""Read-only stores over fsspec for `file://`, `http(s)://` and `s3://` URLs.

Missing keys read as None (FileNotFoundError / HTTP 404); every other failure, including a
timeout, is a ZarrError('io-error') so that a network problem is never mistaken for a missing
chunk (which would silently read as the fill value). Plain HTTP cannot list keys: `list*` raise
ZarrError('unsupported') and callers fall back to consolidated metadata or known keys.

Reads are bounded like every store's (base.py): bodies are streamed in blocks and refused
(LimitError) as soon as they pass the read limit; a Content-Length (or an S3 ContentLength)
over the limit is refused before the body is read. HTTP bodies with Content-Encoding gzip or
deflate are decoded here, incrementally, and the limit applies to the decoded size (a gzip bomb
is refused after `limit` decoded bytes); ranged requests ask for the identity encoding. Other
encodings are an io-error. HTTP redirects are followed only within the store's origin (scheme,
host and port equal, at most 10); a redirect to another origin is an io-error, raised before
anything is requested from that origin, so nothing it serves is read or echoed (no request
forgery through a validation service). file:// reads only regular files, like DirectoryStore.

S3 credentials come from the environment (AWS_ACCESS_KEY_ID, AWS_PROFILE, the AWS config files);
with none the bucket is read anonymously. An endpoint (MinIO, moto, ...) comes from
`storage_options={"endpoint_url": ...}` or AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL.
"""

from __future__ import annotations

import builtins  # `list` names a method of the store classes below
import io
import os
import zlib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from ..errors import LimitError, PathError, UnsupportedError, ZarrError
from .base import READ_BLOCK_BYTES, Store, StoreIOError, check_key, printable, too_large
from .local import entry_exists, read_file

__all__ = ["DEFAULT_TIMEOUT", "MAX_REDIRECTS", "SCHEMES", "StoreIOError", "URLStore", "url_scheme"]

SCHEMES = ("file", "http", "https", "s3")
DEFAULT_TIMEOUT = 30.0  # seconds per network request
MAX_REDIRECTS = 10  # same-origin redirects followed per request
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
DEFAULT_PORTS = {"http": 80, "https": 443}


def url_scheme(url: str) -> str:
    return url.split("://", 1)[0].lower() if "://" in url else ""


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) with the scheme's default port filled in: equal origins only."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = -1  # a malformed port: an origin of its own
    return (
        scheme,
        (parts.hostname or "").lower(),
        port if port is not None else DEFAULT_PORTS.get(scheme),
    )


def origin_text(url: str) -> str:
    scheme, host, port = origin(url)
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


_MISSING = object()  # a 404
_NOT_SATISFIABLE = object()  # a 416: the range starts at or past the end


class URLStore(Store):
    read_only = True

    def __init__(
        self,
        url: str,
        storage_options: dict[str, Any] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        max_value_bytes: int | None = None,
        max_metadata_bytes: int | None = None,
    ):
        self.scheme = url_scheme(url)
        if self.scheme not in SCHEMES:
            raise UnsupportedError(
                f"unsupported URL scheme {self.scheme + '://' if self.scheme else url!r}; "
                f"expected one of {', '.join(s + '://' for s in SCHEMES)}"
            )
        self.url = url.rstrip("/")
        self.timeout = float(timeout)
        self.can_list = self.scheme not in ("http", "https")
        self.remote = self.scheme != "file"
        self.set_limits(max_value_bytes, max_metadata_bytes)
        options = dict(storage_options or {})
        try:
            self._fs, self._root = _make_filesystem(self.scheme, self.url, options, self.timeout)
        except ZarrError:
            raise
        except Exception as exc:  # a bad option or an unusable URL: say so, do not crash
            raise StoreIOError(f"cannot open {self.url}: {type(exc).__name__}: {exc}") from None
        self._local_root = os.path.realpath(self._root) if self.scheme == "file" else None
        self._origin = origin(self.url) if self.scheme in ("http", "https") else None

    # ---- paths ----------------------------------------------------------------------------
    def _path(self, key: str) -> str | None:
        """The filesystem path of a key, or None when the key is invalid or (for a local
        directory) a symlink leads outside the store."""
        try:
            check_key(key)
        except PathError:
            return None
        if self.scheme in ("http", "https"):
            # Quote everything that is not a plain path character so that keys holding
            # '?', '#', '%' or Unicode address exactly one resource; a key holding bytes that
            # are not UTF-8 (surrogate escapes) asks for those very bytes.
            return f"{self._root}/{quote(key, safe='/', errors='surrogateescape')}"
        if self.scheme == "s3":
            try:
                key.encode("utf-8")
            except UnicodeEncodeError:
                return None  # S3 keys are UTF-8: no object can have this name
        path = f"{self._root}/{key}"
        if self._local_root is not None and not _inside(self._local_root, path):
            return None
        return path

    def _key_of(self, path: str, directory: bool = False) -> str | None:
        """The key (or key prefix, for a directory) of a listed path below the root, or None when
        it is not valid: a bad key, or locally a symlink leading out or a symlinked directory."""
        root = self._root.rstrip("/") + "/"
        path = path.replace("\\", "/") if self.scheme == "file" and os.sep == "\\" else path
        if not path.startswith(root):
            return None
        key = path[len(root) :]
        try:
            check_key(key)
        except PathError:
            return None
        if self._local_root is not None:
            if not _inside(self._local_root, path):
                return None
            if os.path.isdir(path) and (not directory or os.path.islink(path)):
                return None  # listings never follow symlinked directories (no loops, no escapes)
        return key

    # ---- reads ----------------------------------------------------------------------------
    def get(self, key: str, limit: int | None = None) -> bytes | None:
        path = self._path(key)
        if path is None:
            return None
        return self._cat(path, key, self.limit_for(key, limit))

    def get_partial(
        self, key: str, start: int, length: int | None = None, limit: int | None = None
    ) -> bytes | None:
        path = self._path(key)
        if path is None:
            return None
        cap = self.limit_for(key, limit)
        if self.scheme == "file":
            return read_file(path, key, cap, start, length)
        if length is not None and length <= 0:
            return b"" if self._exists(path, key) else None
        if start < 0:
            # A suffix range ('bytes=-n'); a length then cuts the front of that suffix. The
            # whole suffix counts against the limit (it is what crosses the network).
            data = self._cat(path, key, cap, start, None)
            return data if data is None or length is None else data[:length]
        end = None if length is None else start + length
        return self._cat(path, key, cap, start, end)

    def contains(self, key: str) -> bool:
        path = self._path(key)
        if path is None:
            return False
        if self.scheme == "file":
            return entry_exists(path)
        return self._exists(path, key)

    def _cat(
        self, path: str, key: str, limit: int, start: int | None = None, end: int | None = None
    ) -> bytes | None:
        """Bytes [start, end) of a value (all of it when start is None; a negative start is a
        suffix), at most `limit` of them; None when the value is missing."""
        if self.scheme == "file":
            if start is None:
                return read_file(path, key, limit)
            return read_file(path, key, limit, start, None if end is None else end - start)
        try:
            if self.scheme == "s3":
                data = self._sync(_s3_read, self, path, key, limit, start, end)
            else:
                data = self._sync(_http_read, self, path, key, limit, start, end)
        except ZarrError:
            raise
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except Exception as exc:
            if _range_not_satisfiable(exc):  # a range that starts past the end
                return b"" if self._exists(path, key) else None
            raise self._io_error(exc, key) from None
        if data is _MISSING:
            return None
        if data is _NOT_SATISFIABLE:
            return b"" if self._exists(path, key) else None
        return data

    def _exists(self, path: str, key: str) -> bool:
        """Whether a value is stored: a one-byte ranged GET whose body is not read."""
        if self.scheme == "file":
            return entry_exists(path)
        try:
            if self.scheme == "s3":
                found = self._sync(_s3_read, self, path, key, 1, 0, 1, probe=True)
            else:
                found = self._sync(_http_read, self, path, key, 1, 0, 1, probe=True)
        except ZarrError:
            raise
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return False
        except Exception as exc:
            if _range_not_satisfiable(exc):  # an empty value exists
                return True
            raise self._io_error(exc, key) from None
        return found is not _MISSING

    def _sync(self, func: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        from fsspec.asyn import sync

        return sync(self._fs.loop, func, *args, **kwargs)

    def _io_error(self, exc: BaseException, key: str) -> StoreIOError:
        if isinstance(exc, TimeoutError) or "Timeout" in type(exc).__name__:
            return StoreIOError(
                f"timed out after {self.timeout:g} s reading {printable(key)!r} from {self.url}"
            )
        return StoreIOError(
            f"cannot read {printable(key)!r} from {self.url}: {type(exc).__name__}: {exc}"
        )

    # ---- listing --------------------------------------------------------------------------
    def _require_listing(self) -> None:
        if not self.can_list:
            raise UnsupportedError(
                f"{self.url} cannot be listed over {self.scheme}://; "
                "use consolidated metadata or known keys instead"
            )

    def _find(self, base: str) -> builtins.list[str]:
        self._require_listing()
        top = f"{self._root}/{base}" if base else self._root
        try:
            paths = self._fs.find(top, withdirs=False)
        except (FileNotFoundError, NotADirectoryError):
            return []
        except Exception as exc:
            raise self._io_error(exc, base or "/") from None
        keys = (self._key_of(p) for p in paths)
        return sorted(k for k in keys if k is not None)

    def list(self) -> Iterator[str]:
        return iter(self._find(""))

    def list_prefix(self, prefix: str) -> builtins.list[str]:
        base = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
        if base and self._path(base) is None:
            return []
        return [k for k in self._find(base) if k.startswith(prefix)]

    def list_dir(self, prefix: str) -> tuple[builtins.list[str], builtins.list[str]]:
        self._require_listing()
        base = prefix.rstrip("/")
        if base and self._path(base) is None:
            return [], []
        top = f"{self._root}/{base}" if base else self._root
        try:
            entries = self._fs.ls(top, detail=True)
        except (FileNotFoundError, NotADirectoryError):
            return [], []
        except Exception as exc:
            raise self._io_error(exc, prefix or "/") from None
        keys: set[str] = set()
        dirs: set[str] = set()
        for entry in entries:
            name = entry["name"].rstrip("/").rsplit("/", 1)[-1]
            full = f"{top}/{name}"
            is_dir = entry.get("type") == "directory"
            if not name or name in (".", "..") or self._key_of(full, directory=is_dir) is None:
                continue
            (dirs if is_dir else keys).add(name)
        keys -= dirs  # S3 can hold both 'a' and 'a/...'; the prefix wins, as on a filesystem
        return sorted(keys), sorted(dirs)

    def __repr__(self) -> str:
        return f"URLStore({self.url!r})"


# ---- helpers ------------------------------------------------------------------------------
def _inside(real_root: str, path: str) -> bool:
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status", None) or getattr(exc, "code", None)
    return status if isinstance(status, int) else None


def _range_not_satisfiable(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}"
    return _status(exc) == 416 or "InvalidRange" in text or "not satisfiable" in text


def _cut_whole(data: bytes, start: int, end: int | None) -> bytes:
    """A server that ignores Range answers 200 with the whole value (read only up to the range's
    end, see `_need`): cut the range out of it."""
    return data[start:] if end is None or start < 0 else data[start:end]


# ---- streamed network reads -------------------------------------------------------------------
def _range_header(start: int, end: int | None) -> str:
    if start < 0:
        return f"bytes={start}"  # the last -start bytes
    return f"bytes={start}-" if end is None else f"bytes={start}-{end - 1}"


def _need(start: int | None, end: int | None, partial: bool) -> int | None:
    """How many bytes of a body are wanted (None: all): of a 206 answer the range's length; of a
    200 answer to a ranged request (a server ignoring Range) the bytes up to the range's end."""
    if start is None:
        return None
    if partial:
        return -start if start < 0 else (None if end is None else end - start)
    return None if start < 0 or end is None else end


_GZIP_MAGIC = b"\x1f\x8b"


def _zlib_header(data: bytes) -> bool:
    return (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0


class _Decoder:
    """Incremental Content-Encoding gzip / deflate decoding with a bound on each call's output:
    a few compressed bytes never become more than `max_out` decoded ones at once. 'deflate' is
    zlib-wrapped by the standard, raw from some servers: both are accepted. Concatenated gzip
    members are decoded in turn."""

    def __init__(self, encoding: str):
        self.gzip = encoding in ("gzip", "x-gzip")
        self.full = False  # the last call stopped at max_out: call again (with b"") for more
        self._d: Any = None  # the zlib decompressor of the current member
        self._input = b""
        self._members = 0

    def feed(self, data: bytes, max_out: int) -> bytes:
        self._input = self._input + data if self._input else data
        out: list[bytes] = []
        size = 0
        while self._input and size < max_out:
            if self._d is None:
                if len(self._input) < 2:
                    break  # a header needs two bytes: wait for more
                if self._members and (not self.gzip or self._input[:2] != _GZIP_MAGIC):
                    self._input = b""  # padding after the stream: ignored, like gzip.decompress
                    break
                wbits = 31 if self.gzip else (15 if _zlib_header(self._input) else -15)
                self._d = zlib.decompressobj(wbits)
                self._members += 1
            piece = self._d.decompress(self._input, max_out - size)
            out.append(piece)
            size += len(piece)
            if self._d.eof:
                self._input = self._d.unused_data
                self._d = None
            else:
                self._input = self._d.unconsumed_tail
        self.full = size >= max_out
        return out[0] if len(out) == 1 else b"".join(out)

    def finish(self) -> None:
        if self._d is not None or (self._input and not self._members):
            raise zlib.error("the compressed body ends inside a compressed stream")


async def _collect(
    read: Callable[[int], Awaitable[bytes]],
    key: str,
    limit: int,
    need: int | None,
    decoder: _Decoder | None = None,
) -> bytes:
    """A body, streamed: decoded bytes until its end or until `need` of them arrived. More than
    `limit` decoded bytes is a LimitError, raised as soon as byte limit+1 is decoded (so an
    endless body or a gzip bomb costs `limit` bytes of memory at most). The compressed bytes are
    bounded too (a stream of empty deflate blocks decodes to nothing, forever)."""
    out = io.BytesIO()
    try:
        return await _collect_into(out, read, key, limit, need, decoder)
    except BaseException:
        # Free the bytes read at once: the exception's traceback keeps this frame, and with it
        # `out`, alive until the cyclic GC runs (fsspec's sync() makes a cycle of it).
        out.close()
        raise


async def _collect_into(
    out: io.BytesIO,
    read: Callable[[int], Awaitable[bytes]],
    key: str,
    limit: int,
    need: int | None,
    decoder: _Decoder | None,
) -> bytes:
    got = raw = 0
    raw_limit = limit + (limit >> 8) + 65536  # deflate's worst case expansion is far below that
    while need is None or got < need:
        room = min(limit + 1, need if need is not None else limit + 1) - got
        if decoder is not None and decoder.full:  # decoded bytes still waiting in the decoder
            data = decoder.feed(b"", min(room, READ_BLOCK_BYTES))
        else:
            data = await read(
                READ_BLOCK_BYTES if decoder is not None else min(READ_BLOCK_BYTES, room)
            )
            if not data:
                if decoder is not None:
                    decoder.finish()
                break
            if decoder is not None:
                raw += len(data)
                if raw > raw_limit:
                    raise LimitError(
                        f"the compressed body of {printable(key)!r} passed {raw_limit} bytes "
                        f"(the read limit is {limit} bytes): refused"
                    )
                data = decoder.feed(data, min(room, READ_BLOCK_BYTES))
        got += len(data)
        if got > limit:
            raise too_large(key, limit, what="value" if decoder is None else "decoded value")
        out.write(data)
    return out.getvalue()


_DECODED = ("gzip", "x-gzip", "deflate")


async def _http_read(
    store: URLStore,
    url: str,
    key: str,
    limit: int,
    start: int | None,
    end: int | None,
    probe: bool = False,
) -> Any:
    """GET a value (or the range [start, end) of it) as bytes; _MISSING for a 404,
    _NOT_SATISFIABLE for a 416. probe=True only asks whether it is there (the body is not read).
    Redirects are followed by hand, within the store's origin only."""
    import yarl

    fs = store._fs
    session = await fs.set_session()
    options = dict(fs.kwargs)  # request options of storage_options (headers, auth, ...)
    headers = dict(options.pop("headers", None) or {})
    for name in ("allow_redirects", "auto_decompress", "max_redirects"):
        options.pop(name, None)
    if start is not None:
        headers["Range"] = _range_header(start, end)
        headers["Accept-Encoding"] = (
            "identity"  # a range of an encoded body is no range of the value
        )
    else:
        headers["Accept-Encoding"] = "gzip, deflate"
    target = fs.encode_url(url)
    for _ in range(MAX_REDIRECTS + 1):
        async with session.get(
            target, headers=headers, allow_redirects=False, auto_decompress=False, **options
        ) as r:
            if r.status in REDIRECT_STATUSES:
                location = r.headers.get("Location")
                if not location:
                    raise StoreIOError(
                        f"reading {printable(key)!r} from {store.url}: HTTP {r.status} without a Location"
                    )
                new = urljoin(str(r.url), location)
                if origin(new) != store._origin:
                    raise StoreIOError(
                        f"reading {printable(key)!r}: {origin_text(store.url)} redirects (HTTP {r.status}) to another "
                        f"origin, {origin_text(new)}; only redirects within the store's origin (same scheme, host "
                        "and port) are followed, so nothing was requested from it"
                    )
                target = yarl.URL(new)
                continue
            if r.status == 404:
                return _MISSING
            if r.status == 416:
                return _NOT_SATISFIABLE
            if r.status not in (200, 206):
                raise StoreIOError(
                    f"cannot read {printable(key)!r} from {store.url}: HTTP {r.status} {r.reason or ''}".rstrip()
                )
            if probe:
                return b""
            partial = r.status == 206 and start is not None
            encoding = (r.headers.get("Content-Encoding") or "identity").strip().lower()
            decoder = None
            if encoding not in ("", "identity"):
                if encoding not in _DECODED:
                    raise StoreIOError(
                        f"{printable(key)!r} from {store.url} has Content-Encoding {encoding!r}; "
                        "only gzip and deflate are decoded"
                    )
                if partial:
                    raise StoreIOError(
                        f"{printable(key)!r} from {store.url}: a ranged answer with Content-Encoding "
                        f"{encoding!r} is a range of the encoded body, not of the value"
                    )
                decoder = _Decoder(encoding)
            need = _need(start, end, partial)
            declared = r.content_length
            if (
                decoder is None
                and declared is not None
                and declared > limit
                and (need is None or need > limit)
            ):
                raise too_large(key, limit, declared)  # refused before reading the body
            data = await _collect(r.content.read, key, limit, need, decoder)
            return data if start is None or partial else _cut_whole(data, start, end)
    raise StoreIOError(
        f"reading {printable(key)!r} from {store.url}: more than {MAX_REDIRECTS} redirects"
    )


async def _s3_read(
    store: URLStore,
    path: str,
    key: str,
    limit: int,
    start: int | None,
    end: int | None,
    probe: bool = False,
) -> Any:
    """GetObject, streamed (s3fs's cat_file reads whole bodies); errors as s3fs translates them
    (FileNotFoundError for a missing key)."""
    fs = store._fs
    bucket, name, version = fs.split_path(path)
    request = {"Bucket": bucket, "Key": name}
    if version:
        request["VersionId"] = version
    if start is not None:
        request["Range"] = _range_header(start, end)
    response = await fs._call_s3("get_object", **request)
    body = response["Body"]
    try:
        if probe:
            return b""
        partial = start is not None and bool(response.get("ContentRange"))
        need = _need(start, end, partial)
        declared = response.get("ContentLength")
        if declared is not None and declared > limit and (need is None or need > limit):
            raise too_large(key, limit, declared)
        data = await _collect(body.read, key, limit, need)
    finally:
        body.close()
    return data if start is None or partial else _cut_whole(data, start, end)


def _aws_credentials_in_environment() -> bool:
    names = (
        "AWS_ACCESS_KEY_ID",
        "AWS_PROFILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    )
    if any(os.environ.get(n) for n in names):
        return True
    home = Path.home() / ".aws"
    files = [
        os.environ.get("AWS_SHARED_CREDENTIALS_FILE"),
        os.environ.get("AWS_CONFIG_FILE"),
        str(home / "credentials"),
        str(home / "config"),
    ]
    return any(f and os.path.isfile(f) for f in files)


def _make_filesystem(scheme: str, url: str, options: dict[str, Any], timeout: float) -> Any:
    if scheme == "file":
        from fsspec.implementations.local import LocalFileSystem

        fs = LocalFileSystem(**options)
        root = fs._strip_protocol(url).rstrip("/") or "/"
        return fs, root
    if scheme in ("http", "https"):
        import aiohttp
        from fsspec.implementations.http import HTTPFileSystem

        client_kwargs = dict(options.pop("client_kwargs", {}))
        client_kwargs.setdefault(
            "timeout", aiohttp.ClientTimeout(total=timeout, sock_connect=min(timeout, 10.0))
        )
        options.setdefault("encoded", True)  # keys are quoted by _path
        fs = HTTPFileSystem(
            client_kwargs=client_kwargs,
            skip_instance_cache=True,
            use_listings_cache=False,
            **options,
        )
        return fs, url
    # s3
    import s3fs

    endpoint = (
        options.pop("endpoint_url", None)
        or os.environ.get("AWS_ENDPOINT_URL_S3")
        or os.environ.get("AWS_ENDPOINT_URL")
    )
    if endpoint:
        options.setdefault("endpoint_url", endpoint)
    if "anon" not in options and "key" not in options:
        options["anon"] = not _aws_credentials_in_environment()
    options.setdefault("max_concurrency", 1)  # else every whole-value read starts with a HEAD
    config = dict(options.pop("config_kwargs", {}))
    config.setdefault("connect_timeout", min(timeout, 10.0))
    config.setdefault("read_timeout", timeout)
    config.setdefault("retries", {"max_attempts": 2, "mode": "standard"})
    # fsspec reuses one filesystem per set of options: creating an S3 client is slow (~1 s).
    fs = s3fs.S3FileSystem(config_kwargs=config, use_listings_cache=False, **options)
    root = url[len("s3://") :].rstrip("/")
    if not root:
        raise UnsupportedError("an s3:// URL needs a bucket name")
    return fs, root
