"""Adapter for zarrs, the Rust Zarr library, through zarrista (its Python binding): zarrs' own
metadata parsing, chunk grids, chunk key encodings, codecs and stores; no zarr-python inside.

Stores: a directory is zarrista's FilesystemStore, a zip file its ZipStore over the FilesystemStore
of the zip's folder (read-only in zarrista), the bench's memory store its MemoryStore; `url` stores
(http://, s3://) go through zarrista's async API (AsyncArray / AsyncGroup) over an obstore
HTTPStore / S3Store. Every request runs as one coroutine (`asyncio.run`), so the sync and the async
classes share one code path (`settle` awaits what the async API returns).

Reads open the node as the stored document says it is (a v3 `node_type` of "group", a v2 `.zgroup`
without `.zarray`: Group.open; anything else: Array.open, so zarrs itself refuses what is not an
array). What a read reports comes from zarrista's objects: the data (`retrieve_array_subset(...)`),
`attributes` (`attrs`), group `members` (`array_keys()` / `group_keys()`) and `api`: shape, dtype
(of the decoded Tensor), chunk_shape (the chunk grid's metadata, when regular: the shard shape when
sharded), fill_value (`FillValue.as_bytes()`, native-endian) and, for v3, `dimension_names`.
`metadata` is the document as stored, read by the adapter for the record only (zarrista does not
hand out stored bytes; its `metadata` property is zarrs' re-serialisation).

Writes give the requested document (with the requested attributes) to `Array.from_metadata`, store
it with `store_metadata` and the data with `store_array_subset`: what lands in the store is zarrs'
rendering of the requested array. zarrista has no API that creates a group, nor a writable zip
store: such requests are answered `Unsupported` (declared in adapter.toml).

Errors are zarrista's exceptions (zarrista.exceptions.*, ValueError, TypeError from its argument
checks), left to propagate; a Rust panic reaches Python as pyo3's PanicException. zarrista is a
compiled extension with no Python frame of its own, so calls into it that may raise go through
`call`/`settle`, which mark what comes out as the implementation's (adapter_api.from_implementation).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import time
import zipfile
from importlib.metadata import version
from typing import Any

import ml_dtypes  # noqa: F401  (registers bfloat16, float8_*, int4, ... with numpy: zarrista's to_numpy names them)
import numpy as np
import zarrista
from zarrista.store import FilesystemStore, MemoryStore, ZipStore

from conformance.harness.adapter_api import (
    Unsupported,
    api_dtype,
    api_fill_value,
    from_implementation,
    load_data,
    save_data,
    verbatim_path,
    write_file,
)

FORMATS = {"v2": 2, "v3": 3}
# numpy kinds zarrista takes as numpy data (DLPack: integers, floats, complex, bool, native order)
DLPACK_KINDS = "biufc"


def check_format(request: dict) -> int:
    fmt = request.get("format")
    if fmt not in FORMATS:
        raise Unsupported(f"zarrs implements formats v2 and v3 only, not {fmt!r}")
    return FORMATS[fmt]


def node_path(raw: str | None, format: str | None = None) -> str:
    """A requested node path as zarrs gets it (feature:verbatim-paths): unchanged but for the
    leading '/' of a v3 path. Without a format: a path zarrs reports, relative to the root."""
    if format is None:
        return (raw or "").strip("/")
    return verbatim_path(raw, format)


def zarrs_path(path: str) -> str:
    """zarrs' absolute node path: zarrs takes paths from the root, with their leading '/'."""
    return path if path.startswith("/") else "/" + path


def call(function, *args, **kwargs):
    """Call into zarrista; an exception out of it is zarrs' own, passed on unchanged and marked as
    such (zarrista has no Python frames: the traceback would otherwise end in this adapter)."""
    try:
        return function(*args, **kwargs)
    except BaseException as exc:
        from_implementation(exc)  # marked as zarrista's own, then re-raised unchanged
        raise


async def settle(value):
    """The value of a zarrista call: awaited when the async API returned an awaitable."""
    if not inspect.isawaitable(value):
        return value
    try:
        return await value
    except BaseException as exc:
        from_implementation(exc)
        raise


def run(coroutine):
    return asyncio.run(coroutine)


# ---- stores -------------------------------------------------------------------------------------


class Store:
    """A request's store as zarrista opens it: `store` the zarrista (or obstore) store, `asynchronous`
    whether the async classes take it, `document(key)` the stored bytes of a metadata key for the
    record (None if absent), `lists` whether it can be listed (plain HTTP cannot)."""

    def __init__(self, spec: dict, *, writable: bool = False) -> None:
        kind, location = spec.get("kind"), spec.get("location")
        self.kind, self.location, self.asynchronous, self.lists = kind, location, False, True
        if kind == "directory":
            self.store = call(FilesystemStore, location)
        elif kind == "zip":
            if writable:
                raise Unsupported("zarrista's ZipStore is read-only: it cannot write a zip store")
            folder, name = os.path.split(location)
            self.store = call(ZipStore, call(FilesystemStore, folder), name)
        elif kind == "memory":
            self.store = call(MemoryStore)
        elif kind == "url":
            self.store = object_store(location, spec.get("storage_options") or {})
            self.asynchronous = True
            self.lists = not location.startswith(("http://", "https://"))
        else:
            raise Unsupported(f"store kind {kind!r}")

    @property
    def array_class(self):
        return zarrista.AsyncArray if self.asynchronous else zarrista.Array

    @property
    def group_class(self):
        return zarrista.AsyncGroup if self.asynchronous else zarrista.Group

    def document(self, key: str) -> bytes | None:
        """The bytes stored at `key` (for the record and the node kind), read beside zarrs."""
        if self.kind == "directory":
            target = os.path.join(self.location, *key.split("/"))
            if not os.path.isfile(target):
                return None
            with open(target, "rb") as f:
                return f.read()
        if self.kind == "zip":
            with zipfile.ZipFile(self.location) as archive:
                try:
                    return archive.read(key)
                except KeyError:
                    return None
        if self.kind == "url":
            import obstore

            try:
                return bytes(obstore.get(self.store, key).bytes())
            except FileNotFoundError:
                return None
            except ValueError:  # a key obstore cannot name ("a/./b"): zarrs decides such paths
                return None
        return None


def object_store(location: str, options: dict):
    """An obstore store for an http(s):// or s3:// URL with the protocol's storage_options
    (adapters/README.md: endpoint_url, key, secret, region, anon); path-style S3 requests and plain
    http:// endpoints, as on a loopback S3 server."""
    from obstore.store import HTTPStore, S3Store

    if location.startswith("s3://"):
        bucket, _, prefix = location[len("s3://") :].partition("/")
        config: dict[str, Any] = {"virtual_hosted_style_request": False}
        if options.get("endpoint_url"):
            config["endpoint"] = options["endpoint_url"]
        if options.get("region"):
            config["region"] = options["region"]
        if options.get("anon"):
            config["skip_signature"] = True
        elif options.get("key"):
            config["access_key_id"] = options["key"]
            config["secret_access_key"] = options.get("secret", "")
        return S3Store(
            bucket, prefix=prefix or None, config=config, client_options={"allow_http": True}
        )
    if location.startswith(("http://", "https://")):
        return HTTPStore.from_url(location, client_options={"allow_http": True})
    raise Unsupported(f"URL scheme of {location!r} (http, https and s3 only)")


def parse_document(raw: bytes | None) -> Any:
    """A stored metadata document as JSON, or None (absent, not UTF-8, not JSON): for the record
    and the node kind only, never a refusal of the adapter's own."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


def key_in(path: str, name: str) -> str:
    return f"{path}/{name}" if path else name


# ---- what zarrista reports ----------------------------------------------------------------------


def to_plain(tensor) -> tuple[np.ndarray, np.dtype]:
    """A decoded Tensor as an ndarray the harness can ship, and the numpy type zarrista gave it:
    StringDType and masked (optional) data as object arrays (variable-length data travels as
    JSON; a masked element is null), anything else as it is (save_data copies a read-only view)."""
    data = call(tensor.to_numpy)
    if isinstance(data, np.ma.MaskedArray):
        out = np.empty(data.shape, dtype=object)
        out.ravel()[:] = [None if m else v for v, m in zip(data.data.ravel(), data.mask.ravel())]
        return out, data.dtype
    if data.dtype.kind == "T":
        out = np.empty(data.shape, dtype=object)
        out.ravel()[:] = [str(v) for v in data.ravel()]
        return out, data.dtype
    return np.asarray(data), data.dtype


def fill_of(array, decoded: np.dtype, zarr_format: int) -> dict:
    """The fill value zarrista reports (native-endian bytes of one element) in the protocol's form.
    A v2 null fill ("no fill value") is what zarrista's parsed metadata says: its FillValue has no
    null (it holds the zeros zarrs fills missing chunks with)."""
    if zarr_format == 2 and call(lambda: array.metadata).get("fill_value") is None:
        return api_fill_value(None, decoded)
    raw = call(lambda: array.fill_value.as_bytes())
    if decoded.kind == "T":  # string: UTF-8 bytes
        return api_fill_value(raw.decode("utf-8"), object)
    if decoded.kind == "O":  # bytes
        return api_fill_value(raw, object)
    if len(raw) != decoded.itemsize:  # not one element of the decoded type: reported as it is
        return {"bytes": raw.hex()}
    return api_fill_value(np.frombuffer(raw, dtype=decoded)[0], decoded)


def array_api(array, decoded: np.dtype, zarr_format: int) -> dict:
    shape, grid, names = call(
        lambda: (list(array.shape), array.chunk_grid.metadata, array.dimension_names)
    )
    api: dict[str, Any] = {"shape": shape, "dtype": api_dtype(decoded)}
    if isinstance(grid, dict) and grid.get("name") == "regular":
        api["chunk_shape"] = list(grid["configuration"]["chunk_shape"])
    # else: a grid without one chunk shape (rectilinear): it cannot say
    api["fill_value"] = fill_of(array, decoded, zarr_format)
    if zarr_format == 3:
        api["dimension_names"] = None if names is None else list(names)
    return api


# ---- writing ----------------------------------------------------------------------------------


def array_input(data: np.ndarray):
    """The data in a form zarrista's store_array_subset takes: numpy for what DLPack carries
    (native byte order), ArrayBytes with offsets for variable-length strings and bytes, else the
    raw native-order bytes (zarrista then checks only their size)."""
    if data.dtype.hasobject:
        values = [
            v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in data.reshape(-1).tolist()
        ]
        offsets = [0]
        for value in values:
            offsets.append(offsets[-1] + len(value))
        return zarrista.ArrayBytes(b"".join(values), offsets=offsets)
    native = (
        data.astype(data.dtype.newbyteorder("="), copy=False) if data.dtype.fields is None else data
    )
    native = np.require(native, requirements="C")  # ascontiguousarray would make 0-d data 1-d
    if native.dtype.kind in DLPACK_KINDS:
        return native
    return zarrista.ArrayBytes(native.tobytes())


class Adapter:
    def describe(self, request: dict | None = None) -> dict:
        return {
            "name": "zarrs",
            "version": zarrista.__version__,
            "versions": {
                "zarrista": zarrista.__version__,
                "zarrs": ZARRS_VERSION,
                "obstore": version("obstore"),
                "numpy": np.__version__,
            },
        }

    # -- read ---------------------------------------------------------------------------------
    def read(self, request: dict) -> dict:
        return run(self._read(request))

    async def _read(self, request: dict) -> dict:
        zf = check_format(request)
        path = node_path(request.get("node"), request.get("format"))
        store = Store(request["store"])
        key = key_in(path, "zarr.json" if zf == 3 else ".zarray")
        if self._is_group(store, path, zf):
            group = await settle(call(store.group_class.open, store.store, zarrs_path(path)))
            group_key = key_in(path, "zarr.json" if zf == 3 else ".zgroup")
            return {
                "node_type": "group",
                "metadata": parse_document(store.document(group_key)),
                "attributes": call(lambda: group.attrs),
                "members": await self._members(group) if store.lists else None,
            }
        array = await settle(call(store.array_class.open, store.store, zarrs_path(path)))
        tensor = await settle(call(array.retrieve_array_subset, ...))
        data, decoded = to_plain(tensor)
        written = save_data(request["output"], data)
        return {
            "node_type": "array",
            "metadata": parse_document(store.document(key)),
            "attributes": call(lambda: array.attrs),
            "api": array_api(array, decoded, zf),
            "data": written,
            "shape": list(data.shape),
            "dtype": data.dtype.str,
        }

    @staticmethod
    def _is_group(store: Store, path: str, zf: int) -> bool:
        """Is the node a group by its stored document? (zarrs has no open-either call: the
        adapter picks Group.open or Array.open; zarrs refuses what the document does not say.)"""
        if zf == 3:
            doc = parse_document(store.document(key_in(path, "zarr.json")))
            return isinstance(doc, dict) and doc.get("node_type") == "group"
        return (
            store.document(key_in(path, ".zgroup")) is not None
            and store.document(key_in(path, ".zarray")) is None
        )

    @staticmethod
    async def _members(group) -> dict:
        arrays = await settle(call(group.array_keys))
        groups = await settle(call(group.group_keys))
        return {**{name: "array" for name in arrays}, **{name: "group" for name in groups}}

    # -- list ---------------------------------------------------------------------------------
    def list(self, request: dict) -> dict:
        return run(self._list(request))

    async def _list(self, request: dict) -> dict:
        zf = check_format(request)
        path = node_path(request.get("node"), request.get("format"))
        store = Store(request["store"])
        if not self._is_group(store, path, zf):
            await settle(call(store.array_class.open, store.store, zarrs_path(path)))
            return {"nodes": {path: "array"}}
        group = await settle(call(store.group_class.open, store.store, zarrs_path(path)))
        nodes = {path: "group"}
        for node in await settle(call(group.traverse)):
            kind = "array" if isinstance(node, (zarrista.Array, zarrista.AsyncArray)) else "group"
            nodes[node_path(call(lambda n=node: n.path))] = kind
        return {"nodes": nodes}

    # -- write --------------------------------------------------------------------------------
    def write(self, request: dict) -> dict:
        return run(self._write(request))

    async def _write(self, request: dict) -> dict:
        zf = check_format(request)
        if request.get("node_type") == "group":
            raise Unsupported("zarrista has no API that creates a group")
        store = Store(request["store"], writable=True)
        array = await self._create(store, request, zf, request.get("attributes") or {})
        if request.get("data") is not None:
            data = load_data(request["data"])
            if data.size:
                await settle(call(array.store_array_subset, ..., array_input(data)))
        return {}

    @staticmethod
    async def _create(store: Store, request: dict, zf: int, attributes: dict):
        document = dict(request.get("metadata") or {})
        if document.get("zarr_format") != zf:
            raise ValueError(f"metadata zarr_format {document.get('zarr_format')!r} != {zf}")
        document["attributes"] = attributes
        path = zarrs_path(node_path(request.get("path"), request.get("format")))
        array = call(store.array_class.from_metadata, document, store.store, path)
        await settle(call(array.store_metadata))
        return array

    # -- bench (conformance/bench): one timed write or read --------------------------------------
    def bench(self, request: dict) -> dict:
        return run(self._bench(request))

    async def _bench(self, request: dict) -> dict:
        zf = check_format(request)
        spec, write = request["store"], request["operation"] == "write"
        store = Store(spec, writable=write)
        settings = {
            "store": type(store.store).__name__,
            # zarrista's defaults: the global rayon pool, one thread per core unless
            # RAYON_NUM_THREADS says otherwise; codec options left to zarrs' defaults
            "RAYON_NUM_THREADS": os.environ.get("RAYON_NUM_THREADS"),
            "cpus": os.cpu_count(),
            "codec_options": "defaults (validate_checksums, store_empty_chunks=False)",
        }
        path = node_path(request.get("path"), request.get("format"))
        if write:
            array = await self._create(store, request, zf, {})
            data = array_input(load_data(request["data"]))
            start = time.perf_counter()
            await settle(call(array.store_array_subset, ..., data))
            seconds = time.perf_counter() - start
            if spec["kind"] == "memory" and request.get("dump"):
                await dump(array, request["dump"], path)
            return {"seconds": seconds, "settings": settings}
        if spec["kind"] == "memory":
            await fill(store, request["source"], path)
        array = await settle(call(store.array_class.open, store.store, zarrs_path(path)))
        regions = request.get("regions")
        start = time.perf_counter()
        if regions is None:
            tensors = [await settle(call(array.retrieve_array_subset, ...))]
        else:
            tensors = [
                await settle(
                    call(array.retrieve_array_subset, tuple(slice(a, b) for a, b in region))
                )
                for region in regions
            ]
        seconds = time.perf_counter() - start
        out = [to_plain(t)[0] for t in tensors]
        result = out[0] if regions is None else np.stack(out)
        return {
            "seconds": seconds,
            "data": save_data(request["output"], result),
            "settings": settings,
        }


async def fill(store: Store, source: str, path: str) -> None:
    """Fill the bench's memory store with the array in the folder `source` (untimed), through
    zarrista: its metadata (from_metadata + store_metadata) and its chunks as stored
    (retrieve_encoded_chunk from the folder, store_encoded_chunk into memory)."""
    origin = call(zarrista.Array.open, call(FilesystemStore, source), zarrs_path(path))
    target = call(zarrista.Array.from_metadata, origin.metadata, store.store, zarrs_path(path))
    await settle(call(target.store_metadata))
    for index in np.ndindex(*call(lambda: origin.chunk_grid_shape)):
        chunk = call(origin.retrieve_encoded_chunk, list(index))
        if chunk is not None:
            await settle(call(target.store_encoded_chunk, list(index), chunk.buffer))


async def dump(array, folder: str, path: str) -> None:
    """The keys of a bench write to a memory store, as files under `folder` (untimed): the metadata
    as zarrs holds it and every chunk as stored (retrieve_encoded_chunk)."""
    write_file(folder, key_in(path, "zarr.json"), json.dumps(call(lambda: array.metadata)).encode())
    for index in np.ndindex(*call(lambda: array.chunk_grid_shape)):
        chunk = await settle(call(array.retrieve_encoded_chunk, list(index)))
        if chunk is not None:
            key = call(array.chunk_key, list(index))
            write_file(folder, key, bytes(chunk.buffer))


def _zarrs_version() -> str:
    """The zarrs crate version zarrista was built with, as zarrs records it in what it writes."""
    array = call(
        zarrista.Array.from_metadata,
        {
            "zarr_format": 3,
            "node_type": "array",
            "shape": [1],
            "data_type": "uint8",
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1]}},
            "chunk_key_encoding": {"name": "default"},
            "fill_value": 0,
            "codecs": [{"name": "bytes"}],
        },
        call(MemoryStore),
        "/",
    )
    call(array.store_metadata)
    reopened = call(zarrista.Array.open, array.storage, "/")
    return str(call(lambda: reopened.attrs).get("_zarrs", {}).get("version", "unknown"))


ZARRS_VERSION = _zarrs_version()
