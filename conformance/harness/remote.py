"""Store kinds as a dimension of the matrix: the corpus's stores served over HTTP and S3.

Every pytest session (each xdist worker) that runs a case over a remote store kind starts its own
servers on 127.0.0.1, on first use, and stops them when the session ends
(conformance.testing.servers): one range-capable HTTP server serving the corpus root, and one moto
S3 server with a bucket for the run, into which each case's store is uploaded the first time it is
asked for (once per session). Adapters get the store as

    {"kind": "url", "location": "http://127.0.0.1:<port>/v3/.../store", "storage_options": {}}
    {"kind": "url", "location": "s3://<bucket>/v3/.../store",
     "storage_options": {"endpoint_url": "http://127.0.0.1:<port>", "key": ..., "secret": ...,
                         "region": "us-east-1", "anon": false}}

A write over S3 goes to a fresh prefix of the bucket; its keys are then copied into the test's
local directory, where the reference judges them as it judges a directory write.

The store kind `icechunk` is no server: the case's store is held in an Icechunk repository on the
local file system (conformance.harness.icechunk_store, which also decides which cases Icechunk can
hold at all).
"""

from __future__ import annotations

import math
import os
import threading
import uuid
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from conformance.model import REMOTE_STORE_KINDS

if TYPE_CHECKING:
    from conformance.corpus import Case
    from conformance.testing.servers import HTTPServerHandle, S3ServerHandle

# A request's `store` object (adapters/README.md).
StoreSpec = dict[str, Any]

# Store kinds that are served to adapters rather than handed over as a path.
REMOTE_KINDS = tuple(k.value for k in REMOTE_STORE_KINDS)
# Spec areas (a case id's second part) where the store itself is under test: key names and
# encodings, byte ranges of shards and chunks, listing and hierarchy. Elsewhere (data types,
# codecs, metadata documents) a case reads the same bytes whatever serves them. `update`: writes
# into existing arrays read, change and rewrite stored chunks (and delete them on a resize).
STORE_AREAS = frozenset(
    {
        "sharding",
        "chunks",
        "keys",
        "groups",
        "names",
        "hierarchy",
        "grid",
        "layout",
        "entry",
        "update",
    }
)
# Which remote kinds each test kind runs over, for all cases or only the store areas (the case's
# own store must be a directory: a zip file is a store kind of its own). Every read case goes over
# HTTP; the rest is kept to the store areas, because the matrix time matters (a moto request costs
# several times a loopback HTTP one). Icechunk holds every v3 read and write case it can hold.
REMOTE_TESTS = {
    "read": {"http": "all", "s3": "store-areas", "icechunk": "all"},
    "reject": {"http": "store-areas"},
    "write": {"s3": "store-areas", "icechunk": "all"},
}
# Formats a kind holds (absent: every format). Icechunk is a Zarr v3 store: it refuses v2
# metadata keys, and a v3 draft is not v3.
KIND_FORMATS = {"icechunk": frozenset({"v3"})}


# moto answers about a hundred requests a second: a read of thousands of chunk keys (most of them
# missing, read as the fill value) takes half a minute over S3, against five seconds over HTTP.
S3_MAX_CHUNKS = 256


def chunk_count(case: Case) -> int:
    """How many chunk keys reading the case's array touches (0 when the case does not say)."""
    shape, chunks = case.expect.get("shape"), case.expect.get("chunk_shape")
    if not shape or not chunks or len(shape) != len(chunks):
        return 0
    return math.prod(-(-size // chunk) if chunk else 1 for size, chunk in zip(shape, chunks))


# Plain HTTP cannot list keys, so a node that exists only through the keys below it (an implicit
# group of the v3 drafts) cannot be found over it by anyone, the reference included.
NEEDS_LISTING = "feature:implicit-groups"


def needs_listing(case: Case) -> bool:
    # Telling an implicit group from a missing node takes a listing of the prefix, too.
    return NEEDS_LISTING in case.needs or case.expect.get("reason") == "implicit-group"


def remote_kinds(test: str, case: Case) -> tuple[str, ...]:
    """The remote store kinds a case of this test kind also runs over."""
    if test not in REMOTE_TESTS or (case.kind != "write" and case.store_kind != "directory"):
        return ()
    parts = case.id.split("/")
    in_store_area = len(parts) > 2 and parts[1] in STORE_AREAS
    return tuple(
        kind
        for kind, scope in REMOTE_TESTS.get(test, {}).items()
        if (scope == "all" or in_store_area)
        and case.format in KIND_FORMATS.get(kind, (case.format,))
        and not (kind == "s3" and chunk_count(case) > S3_MAX_CHUNKS)
        and not (kind == "http" and needs_listing(case))
        # A request that must be refused: Icechunk refuses keys with '..' or empty segments
        # itself, which would hide whether the implementation refused the request.
        and not (kind == "icechunk" and "must_fail" in case.expect)
    )


def unavailable(kinds: Iterable[str]) -> dict[str, str]:
    """Remote kinds whose server cannot run in this environment, and why (the HTTP server is the
    standard library's; the S3 one is moto's, an extra of the test environment). Icechunk's
    helper environment is made, or found missing, only for a run with an adapter that uses it
    (conformance.harness.icechunk_store.provision)."""
    import importlib.util

    def lacking(*modules: str) -> list[str]:
        return [m for m in modules if importlib.util.find_spec(m) is None]

    out: dict[str, str] = {}
    # The reference reads (and judges) remote stores through fsspec: the package's `url` extra.
    url_missing = lacking("fsspec", "aiohttp", "s3fs")
    if url_missing:
        reason = f"the reference's URL store needs {', '.join(url_missing)} (pip install 'zarr-conformance[url]')"
        out = {kind: reason for kind in ("http", "s3") if kind in kinds}
    s3_missing = lacking("moto", "boto3")
    if "s3" in kinds and "s3" not in out and s3_missing:
        out["s3"] = f"the S3 server needs {' and '.join(s3_missing)} (pip install 'moto[server]')"
    return out


def relative_key(root: Path, store: Path) -> str:
    """The '/'-separated path of a store below the served root (ValueError if it is outside)."""
    rel = Path(os.path.realpath(store)).relative_to(os.path.realpath(root))
    return "/".join(rel.parts)


class RemoteStores:
    """The servers of one session, started on first use and stopped by close()."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._stack = ExitStack()
        self._lock = threading.Lock()
        self._http: HTTPServerHandle | None = None
        self._s3: S3ServerHandle | None = None
        self._bucket: str | None = None
        self._uploaded: set[str] = set()

    # ---- the servers -------------------------------------------------------------------------
    @property
    def http(self) -> HTTPServerHandle:
        from conformance.testing.servers import http_server

        with self._lock:
            if self._http is None:
                self._http = self._stack.enter_context(http_server(self.root))
            return self._http

    @property
    def s3(self) -> S3ServerHandle:
        from conformance.testing.servers import s3_server

        with self._lock:
            if self._s3 is None:
                s3 = self._stack.enter_context(s3_server())
                # public-read: readers that speak plain HTTP (unsigned GETs) may read it too
                self._bucket = f"zarr-conformance-{uuid.uuid4().hex[:12]}"
                s3.client().create_bucket(Bucket=self._bucket, ACL="public-read")
                self._s3 = s3
            return self._s3

    @property
    def bucket(self) -> str:
        _ = self.s3  # starting the S3 server makes the bucket
        return self._bucket or ""

    def s3_options(self) -> dict[str, Any]:
        s3 = self.s3
        return {
            "endpoint_url": s3.endpoint_url,
            "key": s3.key,
            "secret": s3.secret,
            "region": s3.region,
            "anon": False,
        }

    # ---- store specs -------------------------------------------------------------------------
    def read_spec(self, kind: str, store: Path) -> StoreSpec:
        """The request store for reading the corpus store `store` over `kind`."""
        key = relative_key(self.root, store)
        if kind == "http":
            return {
                "kind": "url",
                "location": f"{self.http.url}/{quote(key)}",
                "storage_options": {},
            }
        if kind == "s3":
            self._upload(store, key)
            return {
                "kind": "url",
                "location": f"s3://{self.bucket}/{key}",
                "storage_options": self.s3_options(),
            }
        raise ValueError(f"not a remote store kind: {kind!r}")

    def write_spec(self, kind: str) -> StoreSpec:
        """An empty store of `kind` to write into."""
        if kind != "s3":
            raise ValueError(f"writes go to a directory or to s3, not {kind!r}")
        return {
            "kind": "url",
            "location": f"s3://{self.bucket}/writes/{uuid.uuid4().hex}",
            "storage_options": self.s3_options(),
        }

    def download(self, spec: StoreSpec, directory: Path) -> int:
        """Copy every key below an s3:// location into `directory`; the number of keys."""
        bucket, _, prefix = spec["location"][len("s3://") :].partition("/")
        client = self.s3.client()
        count = 0
        for page in client.get_paginator("list_objects_v2").paginate(
            Bucket=bucket, Prefix=prefix + "/"
        ):
            for item in page.get("Contents", []):
                rel = item["Key"][len(prefix) + 1 :]
                parts = rel.split("/")
                if not rel or any(p in ("", ".", "..") for p in parts):
                    continue  # a key no directory can hold: the judge sees it missing
                target = directory.joinpath(*parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                body = client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
                target.write_bytes(body)
                count += 1
        return count

    def _upload(self, store: Path, key: str) -> None:
        from conformance.testing.servers import upload_tree

        if key in self._uploaded:
            return
        upload_tree(self.s3.client(), store, self.bucket, key)
        self._uploaded.add(key)

    def close(self) -> None:
        self._stack.close()
        self._http = self._s3 = None
        self._uploaded.clear()
