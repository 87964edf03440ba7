"""Adapter for zarr-python 2 (zarr 2.18.x, numcodecs 0.15.x), in its own venv.

Format v2 is zarr 2's native format. Format "v3-draft" is served by zarr 2's experimental v3 API
(`ZARR_V3_EXPERIMENTAL_API=1`, sharding with `ZARR_V3_SHARDING=1`), which implements the early-2022
"protocol" draft layout (`zarr.json` entry point, `meta/root/<path>.array.json`,
`data/root/<path>/c0/0`): capability `format:v3-draft-zp2`, not the seed-002 layout.

Reads report what zarr 2's objects say: the data, `attributes` (`attrs`), group `members`
(`Group.items()`) and, for arrays, `api`: shape, dtype, chunk_shape (`chunks`) and fill_value of
the `Array` (zarr 2 has no dimension names). `metadata` is the raw document through zarr 2's store,
for the record only. Errors are zarr 2's own exceptions, left to propagate; the adapter raises
`Unsupported` only for formats and layouts zarr 2 does not implement (declared in adapter.toml).

Writes go through zarr 2's own metadata codec: the requested document is decoded with
`Metadata2` / `Metadata3.decode_array_metadata` and the array is created with
`zarr.storage.init_array` from the decoded values, so zarr 2 encodes and writes the document;
data go through the Array API.
"""

from __future__ import annotations

import json
import os
import re

# Read at import time by zarr 2: the v3 API (and its sharding transformer) exist only when set.
os.environ["ZARR_V3_EXPERIMENTAL_API"] = "1"
os.environ["ZARR_V3_SHARDING"] = "1"

import warnings

import numcodecs
import numpy as np
import zarr
from zarr._storage.store import _path_to_prefix, _prefix_to_array_key
from zarr._storage.v3 import DirectoryStoreV3, FSStoreV3, ZipStoreV3
from zarr.meta import Metadata2, Metadata3
from zarr.storage import DirectoryStore, FSStore, ZipStore, init_array

from conformance.harness.adapter_api import (
    OperationTimer,
    Unsupported,
    api_dtype,
    api_fill_value,
    files_of,
    fsspec_options,
    load_data,
    region_index,
    save_data,
    step_values,
    verbatim_path,
    write_file,
)

ZARR_VERSIONS = {"v2": 2, "v3-draft": 3}

warnings.filterwarnings("ignore", category=FutureWarning)  # the v3 API announces it is experimental
warnings.filterwarnings("ignore", category=UserWarning)


def zarr_version_of(request: dict) -> int:
    fmt = request.get("format")
    if fmt not in ZARR_VERSIONS:
        raise Unsupported(
            f"zarr-python {zarr.__version__} does not implement format {fmt!r} "
            "(its v3 is the early-2022 draft: format v3-draft, layout v3-draft-zp2)"
        )
    return ZARR_VERSIONS[fmt]


def node_path(raw: str | None, format: str | None) -> str:
    return verbatim_path(raw, format)  # feature:verbatim-paths


def overlay(store_class):
    """`store_class` made safe to read with: writes go to memory, never to the store. Adapters must
    not modify what they read, and zarr 2's experimental v3 API writes a default `zarr.json` entry
    point into any store it opens, even with mode "r" (zarr/_storage/v3.py _normalize_store_arg_v3);
    the overlay keeps that behaviour observable (the store then opens) without touching the store."""

    class ReadOverlay(store_class):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._overlay = {}

        def __setitem__(self, key, value):
            self._overlay[key] = bytes(value)

        def __getitem__(self, key):
            return self._overlay[key] if key in self._overlay else super().__getitem__(key)

        def __contains__(self, key):
            return key in self._overlay or super().__contains__(key)

        def __delitem__(self, key):
            raise PermissionError(f"read-only: refusing to delete {key!r}")

    ReadOverlay.__name__ = f"ReadOverlay{store_class.__name__}"
    return ReadOverlay


def open_store(spec: dict, zarr_version: int, *, writable: bool = False):
    kind, location = spec.get("kind"), spec.get("location")
    v3 = zarr_version == 3
    if kind == "directory":
        store_class = DirectoryStoreV3 if v3 else DirectoryStore
        return store_class(location) if writable else overlay(store_class)(location)
    if kind == "zip":
        return (ZipStoreV3 if v3 else ZipStore)(location, mode="a" if writable else "r")
    if kind == "url":  # fsspec: http(s):// (aiohttp) and s3:// (s3fs)
        store_class = FSStoreV3 if v3 else FSStore
        return store_class(location, mode="a" if writable else "r", **fsspec_options(spec))
    raise Unsupported(f"store kind {kind!r}")


def lists(spec: dict) -> bool:
    """Can the request's store be listed? Plain HTTP cannot (no listing in the protocol): group
    members are then reported as unknown (null)."""
    return not (spec.get("kind") == "url" and spec["location"].startswith(("http://", "https://")))


# The early-2022 entry point names the "protocol" core; seed 002 (Jan 2023) names ".../spec/core/3.0".
ZP2_PROTOCOL = "https://purl.org/zarr/spec/protocol/core/"
ZP2_DATA_TYPE = re.compile(r"[<>|][biufcmMSUV]\d+|[iu]1")


def require_zp2_layout(store) -> None:
    """Format v3-draft covers two drafts; zarr 2 implements only the early-2022 one. A store in the
    seed-002 layout (entry point `zarr_format` ".../spec/core/3.0") is unsupported, not failed."""
    entry = raw_document(store, "zarr.json")
    if (
        isinstance(entry, dict)
        and isinstance(entry.get("zarr_format"), str)
        and not entry["zarr_format"].startswith(ZP2_PROTOCOL)
    ):
        raise Unsupported(
            f"zarr 2 implements the early-2022 v3 draft (protocol/core/3.0), "
            f"not the layout of entry point {entry['zarr_format']!r}"
        )


def require_zp2_document(document: dict | None) -> None:
    """The same for a write request, which does not name the draft: only an array document that is
    recognisably early-2022 (a `compressor`, or a typestr data type such as "<f8"; seed 002 has
    `codecs` and names such as "float64") is written. A group, or a document that fits both drafts
    (e.g. "bool" without compressor), is unsupported rather than written in the wrong layout."""
    document = document or {}
    data_type = document.get("data_type")
    typestr = isinstance(data_type, str) and ZP2_DATA_TYPE.fullmatch(data_type)
    if "codecs" in document or not (typestr or "compressor" in document):
        raise Unsupported(
            "zarr 2 writes only the early-2022 v3 draft; this request may be for the "
            "seed-002 layout (format v3-draft does not say which draft)"
        )


def raw_document(store, key: str) -> dict | None:
    """The document as stored, or None if absent or not JSON. Never raises for the document's
    content: the adapter's own parse must not pass for a refusal by zarr 2 (which then opens the
    store and says what it says)."""
    try:
        raw = store[key]
    except KeyError:
        return None
    try:
        return json.loads(raw)
    except ValueError:  # not UTF-8 / not JSON
        return None


def array_api(array) -> dict:
    """What zarr 2's Array object reports about itself."""
    return {
        "shape": list(array.shape),
        "dtype": api_dtype(array.dtype),
        "chunk_shape": list(array.chunks),
        "fill_value": api_fill_value(array.fill_value, array.dtype),
    }


def codec_or_none(config):
    return numcodecs.get_codec(dict(config)) if config else None


def kind_of(node) -> str:
    return "group" if isinstance(node, zarr.hierarchy.Group) else "array"


class Adapter:
    def describe(self, request: dict | None = None) -> dict:
        return {
            "name": "zarr-python2",
            "version": zarr.__version__,
            "versions": {
                "zarr": zarr.__version__,
                "numcodecs": numcodecs.__version__,
                "numpy": np.__version__,
            },
            "settings": {"ZARR_V3_EXPERIMENTAL_API": "1", "ZARR_V3_SHARDING": "1"},
        }

    def _open(self, store, path: str, zv: int, mode: str = "r"):
        if zv == 3:
            require_zp2_layout(store)
        try:
            return zarr.open(store=store, mode=mode, path=path or None, zarr_version=zv)
        except zarr.errors.PathNotFoundError:
            if zv != 3:
                raise
            # zarr.open / open_group(mode="r") accept only explicit groups, while the Group class
            # itself implements the draft's implicit groups (a prefix under meta/root/).
            return zarr.hierarchy.Group(store, path=path or None, read_only=True, zarr_version=3)

    # -- read ---------------------------------------------------------------------------------
    def read(self, request: dict) -> dict:
        zv = zarr_version_of(request)
        path = node_path(request.get("node"), request.get("format"))
        store = open_store(request["store"], zv)
        try:
            node = self._open(store, path, zv)
            as_read = node.attrs.asdict()
            # zarr 2 hands back whatever .zattrs holds; a non-object is reported as read, never repaired
            attributes, extra = (
                (dict(as_read), {})
                if isinstance(as_read, dict)
                else (None, {"attributes_as_read": as_read})
            )
            if kind_of(node) == "group":
                members = (
                    {name: kind_of(child) for name, child in node.items()}
                    if lists(request["store"])
                    else None
                )
                return {"node_type": "group", "attributes": attributes, **extra, "members": members}
            data = np.asarray(node[...])
            api = array_api(node)  # after the data: zarr 2 has its say on the store first
            key = _prefix_to_array_key(store, _path_to_prefix(path))
            written = save_data(request["output"], data)
            return {
                "node_type": "array",
                "metadata": raw_document(store, key),
                "attributes": attributes,
                **extra,
                "api": api,
                "data": written,
                "shape": list(data.shape),
                "dtype": "|O" if data.dtype.hasobject else data.dtype.str,
            }
        finally:
            store.close()

    # -- list ---------------------------------------------------------------------------------
    def list(self, request: dict) -> dict:
        zv = zarr_version_of(request)
        store = open_store(request["store"], zv)
        try:
            path = node_path(request.get("node"), request.get("format"))
            node = self._open(store, path, zv)
            nodes = {path: kind_of(node)}  # paths from the store root
            if nodes[path] == "group":
                self._walk(node, f"{path}/" if path else "", nodes)
            return {"nodes": nodes}
        finally:
            store.close()

    def _walk(self, group, prefix: str, nodes: dict) -> None:
        for name, child in group.items():
            path = f"{prefix}{name}"
            nodes[path] = kind_of(child)
            if nodes[path] == "group":
                self._walk(child, path + "/", nodes)

    # -- write --------------------------------------------------------------------------------
    def write(self, request: dict) -> dict:
        zv = zarr_version_of(request)
        path = node_path(request.get("path"), request.get("format"))
        attributes = request.get("attributes") or {}
        if zv == 3:
            require_zp2_document(
                request.get("metadata") if request.get("node_type") != "group" else None
            )
        store = open_store(request["store"], zv, writable=True)
        try:
            if request.get("node_type") == "group":
                group = zarr.open_group(store, mode="a", path=path or None, zarr_version=zv)
                if attributes:
                    group.attrs.put(attributes)
                return {}
            if zv == 2:
                self._init_v2(store, path, request.get("metadata") or {})
            else:
                self._init_v3_draft(store, path, request.get("metadata") or {}, attributes)
            array = zarr.open_array(store, mode="r+", path=path or None, zarr_version=zv)
            if attributes and zv == 2:
                array.attrs.put(attributes)
            if request.get("data") is not None:
                data = load_data(request["data"])
                if data.size or array.ndim == 0:
                    array[...] = data
            return {}
        finally:
            store.close()

    def update(self, request: dict) -> dict:
        """The steps of a write case on the array this adapter has just written, opened again
        with `zarr.open_array(mode="r+")`: `array[region] = values` and `array.resize(*shape)`,
        in order (zarr 2's defaults: write_empty_chunks true)."""
        zv = zarr_version_of(request)
        path = node_path(request.get("path"), request.get("format"))
        store = open_store(request["store"], zv, writable=True)
        try:
            array = zarr.open_array(store, mode="r+", path=path or None, zarr_version=zv)
            for step in request["steps"]:
                if step["op"] == "resize":
                    array.resize(*step["shape"])
                else:
                    array[region_index(step["region"])] = step_values(step["data"])
            return {}
        finally:
            store.close()

    def _init_v2(self, store, path: str, document: dict) -> None:
        meta = Metadata2.decode_array_metadata(json.dumps(document))  # zarr 2's own decoding
        filters = list(meta["filters"] or [])
        object_codec = None
        if meta["dtype"].hasobject and filters:
            object_codec = codec_or_none(filters.pop(0))
        init_array(
            store,
            shape=meta["shape"],
            chunks=meta["chunks"],
            dtype=meta["dtype"],
            compressor=codec_or_none(meta["compressor"]),
            fill_value=meta["fill_value"],
            order=meta["order"],
            path=path or None,
            filters=[codec_or_none(f) for f in filters] or None,
            object_codec=object_codec,
            dimension_separator=meta.get("dimension_separator"),
        )

    def _init_v3_draft(self, store, path: str, document: dict, attributes: dict) -> None:
        document = dict(document, attributes=dict(document.get("attributes") or {}, **attributes))
        meta = Metadata3.decode_array_metadata(json.dumps(document))
        grid = meta["chunk_grid"]
        init_array(
            store,
            shape=meta["shape"],
            chunks=grid["chunk_shape"],
            dtype=meta["data_type"],
            compressor=meta.get("compressor"),
            fill_value=meta["fill_value"],
            order=meta["chunk_memory_layout"],
            path=path or None,
            dimension_separator=grid["separator"],
            storage_transformers=meta.get("storage_transformers", ()),
        )
        if meta["attributes"]:
            zarr.open_array(store, mode="r+", path=path or None, zarr_version=3).attrs.put(
                meta["attributes"]
            )

    # -- bench (conformance/bench): one timed write or read ---------------------------------------
    def bench(self, request: dict) -> dict:
        if request.get("format") != "v2":
            raise Unsupported(
                f"zarr-python {zarr.__version__} does not implement format {request.get('format')!r} "
                "(its v3 is the early-2022 draft: format v3-draft, layout v3-draft-zp2)"
            )
        path = node_path(request.get("path"), request.get("format"))
        spec, write = request["store"], request["operation"] == "write"
        if spec["kind"] == "memory":
            store = zarr.storage.MemoryStore()
            if not write:
                for key, value in files_of(request["source"]).items():
                    store[key] = value
        else:
            store = DirectoryStore(spec["location"])
        try:
            if write:
                self._init_v2(store, path, request["metadata"])
                array = zarr.open_array(store, mode="r+", path=path or None, zarr_version=2)
                data = load_data(request["data"])
                with OperationTimer() as timer:
                    array[...] = data
                if spec["kind"] == "memory" and request.get("dump"):
                    for key in list(store.keys()):
                        write_file(request["dump"], key, bytes(store[key]))
            else:
                array = zarr.open_array(store, mode="r", path=path or None, zarr_version=2)
                regions = request.get("regions")
                with OperationTimer() as timer:
                    if regions is None:
                        out = array[...]
                    else:
                        out = [array[tuple(slice(a, b) for a, b in region)] for region in regions]
                out = out if regions is None else np.stack(out)
            settings = {
                "store": type(store).__name__,
                "chunk_loop": "serial (zarr 2 reads and writes one chunk after another)",
                **(
                    {"chunk_files": "written to a temporary file, then renamed"}
                    if spec["kind"] == "directory"
                    else {}
                ),
                "write_empty_chunks": array._write_empty_chunks,
                "blosc_nthreads": numcodecs.blosc.get_nthreads(),
                "blosc_use_threads": numcodecs.blosc.use_threads,
            }
            if write:
                return {**timer.result(), "settings": settings}
            return {
                **timer.result(),
                "data": save_data(request["output"], out),
                "settings": settings,
            }
        finally:
            store.close()
