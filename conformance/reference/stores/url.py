"""Read-only stores over fsspec for `file://`, `http(s)://` and `s3://` URLs.

Missing keys read as None (FileNotFoundError / HTTP 404); every other failure, including a
timeout, is a ZarrError('io-error') so that a network problem is never mistaken for a missing
chunk (which would silently read as the fill value). Plain HTTP cannot list keys: `list*` raise
ZarrError('unsupported') and callers fall back to consolidated metadata or known keys.

S3 credentials come from the environment (AWS_ACCESS_KEY_ID, AWS_PROFILE, the AWS config files);
with none the bucket is read anonymously. An endpoint (MinIO, moto, ...) comes from
`storage_options={"endpoint_url": ...}` or AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from ..errors import PathError, UnsupportedError, ZarrError
from .base import Store, check_key

SCHEMES = ("file", "http", "https", "s3")
DEFAULT_TIMEOUT = 30.0  # seconds per network request


class StoreIOError(ZarrError):
    def __init__(self, message: str):
        super().__init__("io-error", message)


def url_scheme(url: str) -> str:
    return url.split("://", 1)[0].lower() if "://" in url else ""


class URLStore(Store):
    read_only = True

    def __init__(self, url: str, storage_options: dict | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.scheme = url_scheme(url)
        if self.scheme not in SCHEMES:
            raise UnsupportedError(
                f"unsupported URL scheme {self.scheme + '://' if self.scheme else url!r}; "
                f"expected one of {', '.join(s + '://' for s in SCHEMES)}"
            )
        self.url = url.rstrip("/")
        self.timeout = float(timeout)
        self.can_list = self.scheme not in ("http", "https")
        options = dict(storage_options or {})
        try:
            self._fs, self._root = _make_filesystem(self.scheme, self.url, options, self.timeout)
        except ZarrError:
            raise
        except Exception as exc:  # a bad option or an unusable URL: say so, do not crash
            raise StoreIOError(f"cannot open {self.url}: {type(exc).__name__}: {exc}") from None
        self._local_root = os.path.realpath(self._root) if self.scheme == "file" else None

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
            # '?', '#', '%' or Unicode address exactly one resource.
            return f"{self._root}/{quote(key, safe='/')}"
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
    def get(self, key: str) -> bytes | None:
        path = self._path(key)
        if path is None:
            return None
        return self._cat(path, key)

    def get_partial(self, key: str, start: int, length: int | None = None) -> bytes | None:
        path = self._path(key)
        if path is None:
            return None
        if length is not None and length <= 0:
            return b"" if self._cat(path, key, 0, 1) is not None else None
        if start < 0:
            # A suffix range ('bytes=-n'); a length then cuts the front of that suffix.
            data = self._cat(path, key, start, None)
            return data if data is None or length is None else data[:length]
        end = None if length is None else start + length
        if end is None and start > 0 and not self.can_list:
            # An HTTP server may ignore 'bytes=a-'; with the size known the answer can be checked.
            end = self._size(path, key)
            if end is None:
                return None
            if start >= end:
                return b""
        return self._cat(path, key, start, end)

    def _size(self, path: str, key: str) -> int | None:
        try:
            return int(self._fs.size(path))
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except Exception as exc:
            raise self._io_error(exc, key) from None

    def _cat(self, path: str, key: str, start: int | None = None, end: int | None = None) -> bytes | None:
        try:
            if start is None:
                return self._fs.cat_file(path)
            data = self._fs.cat_file(path, start=start, end=end)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except Exception as exc:
            if _range_not_satisfiable(exc):  # a range that starts past the end
                return b"" if self._exists(path, key) else None
            raise self._io_error(exc, key) from None
        return _fix_ignored_range(data, start, end)

    def _exists(self, path: str, key: str) -> bool:
        try:
            self._fs.cat_file(path, start=0, end=1)
            return True
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return False
        except Exception as exc:
            if _range_not_satisfiable(exc):  # an empty value exists
                return True
            raise self._io_error(exc, key) from None

    def _io_error(self, exc: BaseException, key: str) -> StoreIOError:
        if isinstance(exc, TimeoutError) or "Timeout" in type(exc).__name__:
            return StoreIOError(f"timed out after {self.timeout:g} s reading {key!r} from {self.url}")
        return StoreIOError(f"cannot read {key!r} from {self.url}: {type(exc).__name__}: {exc}")

    # ---- listing --------------------------------------------------------------------------
    def _require_listing(self) -> None:
        if not self.can_list:
            raise UnsupportedError(
                f"{self.url} cannot be listed over {self.scheme}://; "
                "use consolidated metadata or known keys instead"
            )

    def _find(self, base: str) -> list[str]:
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

    def list_prefix(self, prefix: str) -> list[str]:
        base = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
        if base and self._path(base) is None:
            return []
        return [k for k in self._find(base) if k.startswith(prefix)]

    def list_dir(self, prefix: str) -> tuple[list[str], list[str]]:
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
        keys, dirs = set(), set()
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


def _fix_ignored_range(data: bytes, start: int | None, end: int | None) -> bytes:
    """A server that ignores Range answers 200 with the whole value; cut the range out of it.
    A correct 206 answer is never longer than the range, so it passes through unchanged."""
    if start is None:
        return data
    if start < 0:
        return data[start:] if len(data) > -start else data
    if end is not None and len(data) > end - start:
        return data[start:end]
    return data


def _aws_credentials_in_environment() -> bool:
    names = ("AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE",
             "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI")
    if any(os.environ.get(n) for n in names):
        return True
    home = Path.home() / ".aws"
    files = [os.environ.get("AWS_SHARED_CREDENTIALS_FILE"), os.environ.get("AWS_CONFIG_FILE"),
             str(home / "credentials"), str(home / "config")]
    return any(f and os.path.isfile(f) for f in files)


def _make_filesystem(scheme: str, url: str, options: dict, timeout: float):
    if scheme == "file":
        from fsspec.implementations.local import LocalFileSystem

        fs = LocalFileSystem(**options)
        root = fs._strip_protocol(url).rstrip("/") or "/"
        return fs, root
    if scheme in ("http", "https"):
        import aiohttp
        from fsspec.implementations.http import HTTPFileSystem

        client_kwargs = dict(options.pop("client_kwargs", {}))
        client_kwargs.setdefault("timeout", aiohttp.ClientTimeout(total=timeout, sock_connect=min(timeout, 10.0)))
        options.setdefault("encoded", True)  # keys are quoted by _path
        fs = HTTPFileSystem(client_kwargs=client_kwargs, skip_instance_cache=True, use_listings_cache=False, **options)
        return fs, url
    # s3
    import s3fs

    endpoint = options.pop("endpoint_url", None) or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
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
