"""Adapter for zarr-python 3 (the `zarr` package, 3.x; pinned 3.4.2, version rows 3.0 to 3.3).

Runs in its own venv (see adapter.toml): imports only the stdlib, numpy, zarr and the harness's
stdlib+numpy helpers. The zarrs-python adapter subclasses this one (it swaps the codec pipeline).

Reads go through zarr's public API (`zarr.open`). What a read reports comes from zarr's objects:
the data, `attributes` (`attrs`), group `members` (`Group.members()`) and, for arrays, `api`:
shape, dtype, chunk_shape (`shards`, else `chunks`), fill_value and (v3) dimension_names
(`metadata.dimension_names`). `metadata` is the raw document as stored (zarr.json / .zarray /
.zgroup), fetched through zarr's own store, for the record only.

Stores: LocalStore, ZipStore, and for `url` stores (http://, s3://) zarr.storage.ObjectStore over
obstore's HTTPStore / S3Store (adapters/README.md, "Remote stores"); over plain HTTP, which cannot
list, group members are reported as unknown (null). An `icechunk` store is the IcechunkStore of a
session on the repository's branch (`session.store`, as Icechunk's documentation has zarr use it):
read-only for reads, writable for writes and updates, which commit it when they succeed.

Errors are zarr's own exceptions, left to propagate (adapter.toml `[[errors]]` maps them to
categories); the adapter raises `Unsupported` only for formats and store kinds zarr-python does not
implement, each declared in adapter.toml. Each call into zarr is marked with its phase
(`adapter_api.phase`: "metadata" for opening, listing and making nodes, "data" for chunk data), so
that the rule for the TypeErrors zarr's parsers raise on purpose holds whatever their wording.

Writes build the array from the requested document itself (`parse_array_metadata` =
`ArrayV3Metadata.from_dict` / `ArrayV2Metadata.from_dict`), let zarr serialise and save that
metadata, then write the data through zarr's array API: what lands in the store is zarr's rendering
of the requested array.
"""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np
import zarr
from zarr.core.array import Array, AsyncArray, parse_array_metadata
from zarr.core.sync import sync
from zarr.storage import LocalStore, StorePath, ZipStore

from conformance.harness.adapter_api import (
    OperationTimer,
    Unsupported,
    api_dtype,
    api_fill_value,
    load_data,
    phase,
    region_index,
    save_data,
    step_values,
    verbatim_path,
    write_file,
)

ZARR_FORMATS = {"v2": 2, "v3": 3}
METADATA_KEYS = {2: (".zarray", ".zgroup"), 3: ("zarr.json", "zarr.json")}
ARRAY, GROUP = 0, 1


def opt_ins() -> dict:
    """zarr.config switches of features zarr-python implements behind an opt-in, turned on so that
    the column measures what its public API reaches: rectilinear chunk grids (3.3 and later:
    `array.rectilinear_chunks`, experimental). Not pickle decoding (3.4.2
    `array.allow_unsafe_pickle_decode`): refusing it by default is a security decision."""
    return {
        key: True for key in ("array.rectilinear_chunks",) if zarr.config.get(key, None) is not None
    }


def zarr_format_of(request: dict) -> int:
    fmt = request.get("format")
    if fmt not in ZARR_FORMATS:
        raise Unsupported(f"zarr-python {zarr.__version__} does not implement format {fmt!r}")
    return ZARR_FORMATS[fmt]


def node_path(raw: str | None, format: str | None) -> str:
    return verbatim_path(raw, format)  # feature:verbatim-paths


def open_store(spec: dict, *, writable: bool = False):
    """The zarr store for a request's `store` object."""
    kind, location = spec.get("kind"), spec.get("location")
    if kind == "directory":
        return LocalStore(location, read_only=not writable)
    if kind == "zip":
        return ZipStore(location, mode="a" if writable else "r")
    if kind == "url":
        from zarr.storage import ObjectStore

        return ObjectStore(
            object_store(location, spec.get("storage_options") or {}), read_only=not writable
        )
    if kind == "icechunk":
        import icechunk

        repository = icechunk.Repository.open(icechunk.local_filesystem_storage(location))
        branch = spec.get("branch", "main")
        if writable:
            return repository.writable_session(branch).store
        return repository.readonly_session(branch=branch).store
    raise Unsupported(f"store kind {kind!r}")


def commit(store, spec: dict) -> None:
    """After a write or an update that succeeded: commit an Icechunk session on its branch (what
    was not committed is not in the repository). A write that changed nothing commits nothing."""
    if spec.get("kind") == "icechunk":
        store.session.commit("zarr-python", allow_empty=True)


def object_store(location: str, options: dict):
    """An obstore store (zarr.storage.ObjectStore's backend) for an http(s):// or s3:// URL with
    the protocol's storage_options (adapters/README.md: endpoint_url, key, secret, region, anon);
    path-style S3 requests and plain http:// endpoints, as on a loopback S3 server."""
    from obstore.store import HTTPStore, S3Store

    if location.startswith("s3://"):
        bucket, _, prefix = location[len("s3://") :].partition("/")
        config = {"virtual_hosted_style_request": False}
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


def lists(spec: dict) -> bool:
    """Can the request's store be listed? Plain HTTP cannot (no listing in the protocol): group
    members are then reported as unknown (null)."""
    return not (spec.get("kind") == "url" and spec["location"].startswith(("http://", "https://")))


def raw_document(store, key: str) -> dict | None:
    """The metadata document exactly as stored (parsed leniently: zarr itself accepts NaN tokens),
    for the record; None if absent or not JSON. Never raises for the document's content: the
    adapter's own parse must not pass for a refusal by zarr."""
    from zarr.core.buffer import default_buffer_prototype

    buf = sync(store.get(key, prototype=default_buffer_prototype()))
    if buf is None:
        return None
    try:
        return json.loads(buf.to_bytes())
    except ValueError:  # not UTF-8 / not JSON
        return None


def array_api(array: Array) -> dict:
    """What zarr's Array object reports about itself."""
    # int(): a release that accepts a JSON true as a length (3.0) reports the bool it stored
    api: dict[str, Any] = {"shape": [int(n) for n in array.shape], "dtype": api_dtype(array.dtype)}
    try:
        shards, chunks = array.shards, array.chunks
    except NotImplementedError:  # zarr defines both only for regular chunk grids: it cannot say
        pass
    else:
        api["chunk_shape"] = [int(n) for n in (shards if shards is not None else chunks)]
    api["fill_value"] = api_fill_value(array.fill_value, array.dtype)
    if array.metadata.zarr_format == 3:
        names = array.metadata.dimension_names
        api["dimension_names"] = None if names is None else list(names)
    return api


def to_plain_array(value: Any) -> np.ndarray:
    """zarr returns numpy scalars for 0-d reads and StringDType for v3 strings: make an ndarray
    the harness can ship (object arrays of str/bytes travel as JSON)."""
    arr = np.asarray(value)
    if arr.dtype.kind == "T":  # numpy 2 variable-width StringDType
        out = np.empty(arr.shape, dtype=object)
        out.ravel()[:] = [str(v) for v in arr.ravel()]
        return out
    return arr


class Adapter:
    name = "zarr-python"

    def __init__(self) -> None:
        self._stores: list = []

    # -- describe -----------------------------------------------------------------------------
    def implementation_versions(self) -> dict:
        versions = {
            "zarr": zarr.__version__,
            "numcodecs": version("numcodecs"),
            "numpy": np.__version__,
        }
        try:  # the store of the icechunk store kind, where it is installed
            versions["icechunk"] = version("icechunk")
        except PackageNotFoundError:
            pass
        return versions

    def describe(self, request: dict | None = None) -> dict:
        return {
            "name": self.name,
            "version": zarr.__version__,
            "versions": self.implementation_versions(),
            "settings": dict(opt_ins()),
        }

    # -- hooks the zarrs-python adapter overrides -------------------------------------------------
    def check_array(self, array: Array) -> None:
        """Called on every array before its data is read or written."""

    def configure(self):
        """A context manager wrapped around every request (zarr.config settings)."""
        return zarr.config.set(opt_ins())

    # -- read ---------------------------------------------------------------------------------
    def read(self, request: dict) -> dict:
        zf = zarr_format_of(request)
        path = node_path(request.get("node"), request.get("format"))
        with self.configure():
            store = open_store(request["store"])
            try:
                with phase("metadata"):
                    node = zarr.open(store=store, path=path, zarr_format=zf, mode="r")
                if isinstance(node, zarr.Group):
                    with phase("metadata"):
                        members = members_of(node) if lists(request["store"]) else None
                    return {
                        "node_type": "group",
                        "metadata": raw_document(store, metadata_key(path, zf, GROUP)),
                        "attributes": dict(node.attrs.asdict()),
                        "members": members,
                    }
                self.check_array(node)
                with phase("data"):
                    data = to_plain_array(node[...] if node.ndim else node[()])
                api = array_api(node)  # after the data: zarr has its say on the store first
                attributes = dict(node.attrs.asdict())
                written = save_data(request["output"], data)
                return {
                    "node_type": "array",
                    "metadata": raw_document(store, metadata_key(path, zf, ARRAY)),
                    "attributes": attributes,
                    "api": api,
                    "data": written,
                    "shape": list(data.shape),
                    "dtype": data.dtype.str,
                }
            finally:
                store.close()

    # -- list ---------------------------------------------------------------------------------
    def list(self, request: dict) -> dict:
        zf = zarr_format_of(request)
        path = node_path(request.get("node"), request.get("format"))
        with self.configure():
            store = open_store(request["store"])
            try:
                with phase("metadata"):
                    node = zarr.open(store=store, path=path, zarr_format=zf, mode="r")
                    if not isinstance(node, zarr.Group):
                        return {"nodes": {path: "array"}}
                    # paths from the store root, like the reference adapter's
                    prefix = f"{path}/" if path else ""
                    nodes = {path: "group"}
                    for name, child in node.members(max_depth=None):
                        nodes[prefix + name] = "group" if isinstance(child, zarr.Group) else "array"
                return {"nodes": nodes}
            finally:
                store.close()

    # -- write --------------------------------------------------------------------------------
    def write(self, request: dict) -> dict:
        zf = zarr_format_of(request)
        path = node_path(request.get("path"), request.get("format"))
        attributes = request.get("attributes") or {}
        with self.configure():
            store = open_store(request["store"], writable=True)
            try:
                if request.get("node_type") == "group":
                    with phase("metadata"):
                        zarr.create_group(store, path=path, zarr_format=zf, attributes=attributes)
                else:
                    self.write_array(store, path, zf, request, attributes)
                commit(store, request["store"])
                return {}
            finally:
                store.close()

    def write_array(self, store, path: str, zf: int, request: dict, attributes: dict) -> None:
        document = dict(request.get("metadata") or {})
        if document.get("zarr_format") != zf:
            raise ValueError(f"metadata zarr_format {document.get('zarr_format')!r} != {zf}")
        document["attributes"] = attributes
        with phase("metadata"):
            metadata = parse_array_metadata(document)  # zarr validates the document itself
            async_array = AsyncArray(metadata=metadata, store_path=StorePath(store, path))
            sync(async_array._save_metadata(metadata, ensure_parents=True))
            array = Array(async_array)
        self.check_array(array)
        if request.get("data") is not None:
            data = load_data(request["data"])
            with phase("data"):
                if array.ndim == 0:
                    array[()] = data
                elif data.size:
                    array[...] = data

    # -- update (write cases with steps) -------------------------------------------------------
    def update(self, request: dict) -> dict:
        """The steps of a write case on the array this adapter has just written, opened again
        with `zarr.open_array(mode="r+")`: `array[region] = values` (zarr's own indexing) and
        `array.resize(shape)`, in order, under zarr's default configuration (write_empty_chunks
        false: chunks equal to the fill value are not stored)."""
        zf = zarr_format_of(request)
        path = node_path(request.get("path"), request.get("format"))
        with self.configure():
            store = open_store(request["store"], writable=True)
            try:
                array = zarr.open_array(store=store, path=path, zarr_format=zf, mode="r+")
                self.check_array(array)
                for step in request["steps"]:
                    if step["op"] == "resize":
                        array.resize(tuple(step["shape"]))
                    else:
                        array[region_index(step["region"])] = step_values(step["data"])
                commit(store, request["store"])
                return {}
            finally:
                store.close()

    # -- bench (conformance/bench): one timed write or read --------------------------------------
    def bench_settings(self) -> dict:
        """zarr.config values that change throughput, and numcodecs' blosc threading."""
        import numcodecs.blosc

        keys = (
            "async.concurrency",
            "threading.max_workers",
            "codec_pipeline.path",
            "codec_pipeline.batch_size",
            "array.write_empty_chunks",
        )
        return {
            **{key: zarr.config.get(key) for key in keys},
            "blosc_nthreads": numcodecs.blosc.get_nthreads(),
            "blosc_use_threads": numcodecs.blosc.use_threads,
        }

    def bench_watch(self, array: Array):
        """Called before the timed operation; returns a check to run after it (zarrs-python
        proves there that its own pipeline did the work)."""
        return lambda: None

    def bench(self, request: dict) -> dict:
        zf = zarr_format_of(request)
        path = node_path(request.get("path"), request.get("format"))
        spec, write = request["store"], request["operation"] == "write"
        with self.configure():
            if spec["kind"] == "memory":
                store = zarr.storage.MemoryStore(None if write else _buffers_of(request["source"]))
            else:
                store = open_store(spec, writable=write)
            settings = {**self.bench_settings(), "store": type(store).__name__}
            try:
                if write:
                    document = dict(request["metadata"], attributes={})
                    metadata = parse_array_metadata(document)
                    async_array = AsyncArray(metadata=metadata, store_path=StorePath(store, path))
                    sync(async_array._save_metadata(metadata, ensure_parents=True))
                    array = Array(async_array)
                    self.check_array(array)
                    data = load_data(request["data"])
                    check = self.bench_watch(array)
                    with OperationTimer() as timer:
                        array[...] = data
                    check()
                    if spec["kind"] == "memory" and request.get("dump"):
                        _dump_store(store, request["dump"])
                    return {**timer.result(), "settings": settings}
                array = zarr.open_array(store=store, path=path, zarr_format=zf, mode="r")
                self.check_array(array)
                regions = request.get("regions")
                check = self.bench_watch(array)
                with OperationTimer() as timer:
                    if regions is None:
                        out = array[...]
                    else:
                        out = [array[tuple(slice(a, b) for a, b in region)] for region in regions]
                check()
                out = out if regions is None else np.stack(out)
                return {
                    **timer.result(),
                    "data": save_data(request["output"], out),
                    "settings": settings,
                }
            finally:
                store.close()

    def close(self) -> None:
        pass


def _buffers_of(folder: str) -> dict:
    """Every file under `folder` as zarr Buffers by key (bench: filling a MemoryStore, untimed)."""
    import os

    from zarr.core.buffer import default_buffer_prototype

    out = {}
    for root, _dirs, files in os.walk(folder):
        for name in files:
            full = os.path.join(root, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, folder).replace(os.sep, "/")] = (
                    default_buffer_prototype().buffer.from_bytes(f.read())
                )
    return out


def _dump_store(store, folder: str) -> None:
    """Every key of `store` as a file under `folder`, through zarr's store API (untimed)."""
    from zarr.core.buffer import default_buffer_prototype

    async def keys():
        return [key async for key in store.list()]

    for key in sync(keys()):
        write_file(
            folder, key, sync(store.get(key, prototype=default_buffer_prototype())).to_bytes()
        )


def metadata_key(path: str, zf: int, kind: int) -> str:
    return f"{path}/{METADATA_KEYS[zf][kind]}".lstrip("/")


def members_of(group: zarr.Group) -> dict:
    return {
        name: "group" if isinstance(child, zarr.Group) else "array"
        for name, child in group.members()
    }
