"""Real servers on 127.0.0.1 (a free port each) for testing stores over the network.

    with http_server(directory) as server:       # byte ranges, 404s, a request log
        URLStore(server.url)
    with s3_server() as s3:                      # moto's S3, in a thread
        url = s3.upload_tree(directory, "bucket")
        URLStore(url, storage_options=s3.storage_options)

Python's http.server cannot answer Range requests, so `http_server` has its own small handler:
`Range: bytes=a-b`, `a-` and `-n` (one range; several ranges are answered with the whole body,
which RFC 9110 allows), 416 for a range past the end, 404 for anything that is not a regular
file inside the root (directories, '..', symlinks leading out).

Hostile answers for a path are `routes` (a dict on the handle, changeable while it runs):

    with http_server(directory) as server:
        server.routes["/zarr.json"] = endless_body()            # 200, no length, zeros forever
        server.routes["/a/zarr.json"] = huge_content_length()   # Content-Length: 1 PiB, then zeros
        server.routes["/c/0"] = gzip_bomb(8 << 30)              # Content-Encoding: gzip, 8 GiB of zeros
        server.routes["/b/zarr.json"] = redirect(other.url + "/zarr.json")
        server.bytes_sent["/c/0"]                               # how much a route could send

A route writes until the client goes away (or the server stops), so `bytes_sent` shows how much
of an endless answer a client took before it hung up.
"""

from __future__ import annotations

import os
import re
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .bombs import compressed_zeros

_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str  # the decoded URL path, e.g. '/a/zarr.json'
    range: str | None  # the Range header as sent
    status: int
    sent: int = 0  # body bytes answered (files; a route's bytes are in bytes_sent)


# A route answers one path: route(handler, send_body) writes the whole answer through
# handler.begin(status, headers) and handler.send(data) (which returns False once the client is gone).
Route = Callable[["_RangeHandler", bool], None]


@dataclass
class HTTPServerHandle:
    url: str  # 'http://127.0.0.1:<port>' (no trailing '/')
    root: Path
    requests: list[RequestRecord] = field(default_factory=list)
    routes: dict[str, Route] = field(default_factory=dict)  # decoded URL path -> hostile answer
    bytes_sent: dict[str, int] = field(default_factory=dict)  # body bytes written per route path

    def clear(self) -> None:
        self.requests.clear()
        self.bytes_sent.clear()

    def paths(self) -> list[str]:
        """The decoded paths of every request, in order."""
        return [r.path for r in self.requests]

    def bytes_served(self, prefix: str = "/") -> int:
        """Body bytes of every file answer for paths below `prefix` (what clients fetched)."""
        return sum(r.sent for r in self.requests if r.path.startswith(prefix))

    def ranges_for(self, path: str) -> list[str | None]:
        """The Range headers of every GET of `path` (e.g. '/c/0'), in order."""
        return [r.range for r in self.requests if r.method == "GET" and r.path == path]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # idle keep-alive connections must not hold up shutdown
    # socketserver's default backlog is 5: a client that opens a connection per chunk at once
    # (thousands) would see dropped SYNs and seconds of retransmission. Real servers take more.
    request_queue_size = 1024

    def __init__(self, root: Path, ranges: bool, delay: float, handle: HTTPServerHandle):
        super().__init__(("127.0.0.1", 0), _RangeHandler)
        self.root = root
        self.real_root = os.path.realpath(root)
        self.ranges = ranges
        self.delay = delay
        self.handle = handle
        self.stopping = threading.Event()
        self.log_lock = threading.Lock()

    def handle_error(self, request, client_address) -> None:
        # A client that gave up (a timeout test) leaves a broken pipe: not worth a traceback.
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class _RangeHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in separate writes: no 40 ms stalls
    server: _Server
    timeout = 30  # an idle keep-alive connection ends after this

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    def log_message(self, format: str, *args) -> None:  # keep test output quiet
        pass

    def _serve(self, send_body: bool) -> None:
        if self.server.delay:
            self.server.stopping.wait(self.server.delay)
        range_header = self.headers.get("Range")
        path = self._decoded_path()
        route = self.server.handle.routes.get(path) if path is not None else None
        if route is not None:
            self._route_path = path
            return route(self, send_body)
        file = self._file(path) if path is not None else None
        if file is None:
            return self._reply(404, b"not found\n", send_body, path, range_header)
        data = file.read_bytes()
        size = len(data)
        span = _parse_range(range_header, size) if self.server.ranges and range_header else None
        if span == "unsatisfiable":
            return self._reply(
                416, b"", send_body, path, range_header, {"Content-Range": f"bytes */{size}"}
            )
        if span is None:
            return self._reply(200, data, send_body, path, range_header)
        first, last = span
        headers = {"Content-Range": f"bytes {first}-{last}/{size}"}
        return self._reply(206, data[first : last + 1], send_body, path, range_header, headers)

    def _decoded_path(self) -> str | None:
        try:
            return unquote(urlsplit(self.path).path, errors="strict")
        except UnicodeDecodeError:
            return None

    def _file(self, path: str) -> Path | None:
        parts = path.split("/")[1:]
        if not parts or any(p in ("", ".", "..") or "\\" in p or "\x00" in p for p in parts):
            return None
        file = self.server.root.joinpath(*parts)
        real = os.path.realpath(file)
        if not real.startswith(self.server.real_root.rstrip(os.sep) + os.sep) or not os.path.isfile(
            real
        ):
            return None
        return file

    # ---- for routes ---------------------------------------------------------------------------
    def begin(self, status: int, headers: dict[str, str] | None = None) -> None:
        """Log the request and send the status line and headers of a route's answer."""
        path = self._route_path
        with self.server.log_lock:
            self.server.handle.requests.append(
                RequestRecord(self.command, path, self.headers.get("Range"), status)
            )
            self.server.handle.bytes_sent.setdefault(path, 0)
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if "Content-Length" not in (headers or {}):
            self.send_header("Connection", "close")  # the body ends when the connection does
            self.close_connection = True
        self.end_headers()

    def send(self, data: bytes) -> bool:
        """Write part of a route's body; False once the client has gone or the server stops."""
        if self.server.stopping.is_set():
            return False
        try:
            self.wfile.write(data)
        except (ConnectionError, TimeoutError, OSError):
            self.close_connection = True
            return False
        with self.server.log_lock:
            self.server.handle.bytes_sent[self._route_path] = self.server.handle.bytes_sent.get(
                self._route_path, 0
            ) + len(data)
        return True

    def _reply(
        self, status: int, body: bytes, send_body: bool, path, range_header, headers=None
    ) -> None:
        with self.server.log_lock:
            self.server.handle.requests.append(
                RequestRecord(
                    self.command, path or self.path, range_header, status, len(body) * send_body
                )
            )
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        if self.server.ranges:
            self.send_header("Accept-Ranges", "bytes")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(body)


# ---- hostile routes ----------------------------------------------------------------------------
ZEROS = bytes(1 << 16)


def _send_until(handler: _RangeHandler, block: bytes, stop_after: int | None) -> None:
    sent = 0
    while (stop_after is None or sent < stop_after) and handler.send(block):
        sent += len(block)


def endless_body(block: bytes = ZEROS, stop_after: int | None = None) -> Route:
    """200 with no Content-Length and `block` repeated until the client hangs up (or, with
    stop_after, until that many bytes are sent: a safety net for tests of clients that
    might not stop)."""

    def route(handler: _RangeHandler, send_body: bool) -> None:
        handler.begin(200, {"Content-Type": "application/octet-stream"})
        if send_body:
            _send_until(handler, block, stop_after)

    return route


def huge_content_length(
    declared: int = 1 << 50, block: bytes = ZEROS, stop_after: int | None = None
) -> Route:
    """200 declaring `declared` bytes (1 PiB), then zeros until the client hangs up: a client
    that trusts the length, or reads on, runs out of memory."""

    def route(handler: _RangeHandler, send_body: bool) -> None:
        handler.begin(
            200, {"Content-Type": "application/octet-stream", "Content-Length": str(declared)}
        )
        handler.close_connection = True
        if send_body:
            _send_until(handler, block, stop_after)

    return route


def gzip_bomb(decoded_bytes: int | None = 8 << 30, encoding: str = "gzip") -> Route:
    """200 with Content-Encoding gzip (or deflate): a few MB that decode to `decoded_bytes`
    zeros (8 GiB; None: endless, without a Content-Length)."""

    def route(handler: _RangeHandler, send_body: bool) -> None:
        headers = {"Content-Type": "application/json", "Content-Encoding": encoding}
        if decoded_bytes is not None:
            headers["Content-Length"] = str(
                sum(map(len, compressed_zeros(decoded_bytes, encoding)))
            )
        handler.begin(200, headers)
        if send_body:
            for part in compressed_zeros(decoded_bytes, encoding):
                if not handler.send(part):
                    break

    return route


def redirect(location: str, status: int = 302) -> Route:
    """A redirect to `location` (absolute, or relative to the request)."""

    def route(handler: _RangeHandler, send_body: bool) -> None:
        body = b"moved\n"
        handler.begin(status, {"Location": location, "Content-Length": str(len(body))})
        if send_body:
            handler.send(body)

    return route


def answer(status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> Route:
    """A fixed answer (with its Content-Length unless `headers` gives one)."""

    def route(handler: _RangeHandler, send_body: bool) -> None:
        handler.begin(status, {"Content-Length": str(len(body)), **(headers or {})})
        if send_body and body:
            handler.send(body)

    return route


def _parse_range(header: str, size: int):
    """(first, last) inclusive, 'unsatisfiable', or None to ignore the header (bad syntax or
    several ranges, where sending the whole body is allowed)."""
    match = _RANGE.match(header.strip())
    if not match:
        return None
    a, b = match.groups()
    if a == "" and b == "":
        return None
    if a == "":  # suffix: the last n bytes
        n = int(b)
        return "unsatisfiable" if n == 0 or size == 0 else (max(size - n, 0), size - 1)
    first = int(a)
    last = size - 1 if b == "" else int(b)
    if b != "" and last < first:
        return None
    if first >= size:
        return "unsatisfiable"
    return first, min(last, size - 1)


@contextmanager
def http_server(
    root_dir: str | os.PathLike, *, ranges: bool = True, delay: float = 0.0
) -> Iterator[HTTPServerHandle]:
    """Serve `root_dir` read-only over HTTP on a free loopback port.

    ranges=False makes the server ignore Range headers (answering 200 with the whole file), like
    some real servers; delay waits that many seconds before every answer (to test timeouts)."""
    root = Path(root_dir)
    handle = HTTPServerHandle(url="", root=root)
    server = _Server(root, ranges, delay, handle)
    handle.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield handle
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# ---- S3 (moto) -----------------------------------------------------------------------------
@dataclass
class S3ServerHandle:
    endpoint_url: str
    region: str = "us-east-1"
    key: str = "testing"
    secret: str = "testing"
    _client: object = field(default=None, repr=False)

    @property
    def storage_options(self) -> dict:
        """Options for URLStore / s3fs that reach this server with its fake credentials."""
        return {"endpoint_url": self.endpoint_url, "key": self.key, "secret": self.secret}

    @property
    def environment(self) -> dict[str, str]:
        """Environment variables that point an AWS client (or a CLI subprocess) at this server."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint_url,
            "AWS_ACCESS_KEY_ID": self.key,
            "AWS_SECRET_ACCESS_KEY": self.secret,
            "AWS_DEFAULT_REGION": self.region,
        }

    def client(self):
        """A boto3 S3 client for this server (made once: creating one takes a while)."""
        if self._client is None:
            import boto3

            self._client = boto3.client(
                "s3",
                endpoint_url=self.endpoint_url,
                region_name=self.region,
                aws_access_key_id=self.key,
                aws_secret_access_key=self.secret,
            )
        return self._client

    def new_bucket(self, prefix: str = "zarr") -> str:
        name = f"{prefix}-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def upload_tree(
        self, local_dir: str | os.PathLike, bucket: str | None = None, prefix: str = ""
    ) -> str:
        """Upload every regular file below `local_dir` (keys '/'-separated, relative to it) into
        `bucket` (created when None) under `prefix`; return the s3:// URL of that prefix."""
        return upload_tree(self.client(), local_dir, bucket or self.new_bucket(), prefix)

    def put(self, bucket: str, key: str, value: bytes) -> None:
        self.client().put_object(Bucket=bucket, Key=key, Body=value)


def upload_tree(client, local_dir: str | os.PathLike, bucket: str, prefix: str = "") -> str:
    """Upload a directory tree into an S3 bucket with a boto3 client; return its s3:// URL."""
    root = Path(local_dir)
    from concurrent.futures import ThreadPoolExecutor

    prefix = prefix.strip("/")
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = Path(dirpath).relative_to(root).parts
        for name in sorted(filenames):
            file = Path(dirpath, name)
            if file.is_symlink() or not file.is_file():
                continue
            files.append(("/".join([*([prefix] if prefix else []), *rel, name]), file))

    def put(item) -> None:
        key, file = item
        client.put_object(Bucket=bucket, Key=key, Body=file.read_bytes())

    # A store with thousands of chunk keys: one request at a time would take seconds (boto3
    # clients are thread-safe).
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(put, files))
    return f"s3://{bucket}/{prefix}" if prefix else f"s3://{bucket}"


@contextmanager
def s3_server() -> Iterator[S3ServerHandle]:
    """moto's S3 in a thread on a free loopback port; its state is reset on exit."""
    import logging

    from moto.server import ThreadedMotoServer

    werkzeug_log = logging.getLogger("werkzeug")  # one log line per request otherwise
    old_level = werkzeug_log.level
    werkzeug_log.setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    handle = S3ServerHandle(endpoint_url=f"http://{host}:{port}")
    try:
        yield handle
    finally:
        try:
            import requests

            requests.post(f"{handle.endpoint_url}/moto-api/reset", timeout=5)
        except Exception:  # best effort: the server is going away anyway
            pass
        server.stop()
        werkzeug_log.setLevel(old_level)
