"""Adapter for zarr-python 3 (the `zarr` package, 3.1.x).

Runs in its own venv (see adapter.toml): imports only the stdlib, numpy, zarr and the harness's
stdlib+numpy helpers. The zarrs adapter subclasses this one (it swaps the codec pipeline).

Reads go through zarr's public API (`zarr.open`); the metadata returned is the raw document as
stored (zarr.json / .zarray), fetched through zarr's own store. Writes build the array from the
requested document itself (`parse_array_metadata` = `ArrayV3Metadata.from_dict` /
`ArrayV2Metadata.from_dict`), let zarr serialise and save that metadata, then write the data
through zarr's array API: what lands in the store is zarr's rendering of the requested array.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from typing import Any

import numpy as np

from conformance.harness.adapter_api import Unsupported, load_data, save_data

import zarr
from zarr.core.array import Array, AsyncArray, parse_array_metadata
from zarr.core.sync import sync
from zarr.storage import LocalStore, StorePath, ZipStore

ZARR_FORMATS = {"v2": 2, "v3": 3}
METADATA_KEYS = {2: (".zarray", ".zgroup"), 3: ("zarr.json", "zarr.json")}


def zarr_format_of(request: dict) -> int:
    fmt = request.get("format")
    if fmt not in ZARR_FORMATS:
        raise Unsupported(f"zarr-python {zarr.__version__} does not implement format {fmt!r}")
    return ZARR_FORMATS[fmt]


def node_path(raw: str | None) -> str:
    return (raw or "").strip("/")


def open_store(spec: dict, *, writable: bool = False):
    """The zarr store for a request's `store` object."""
    kind, location = spec.get("kind"), spec.get("location")
    if kind == "directory":
        return LocalStore(location, read_only=not writable)
    if kind == "zip":
        return ZipStore(location, mode="a" if writable else "r")
    if kind == "url":
        from zarr.storage import FsspecStore  # needs fsspec (+ aiohttp / s3fs) in the venv

        return FsspecStore.from_url(location, read_only=not writable,
                                    storage_options=spec.get("options") or None)
    raise Unsupported(f"store kind {kind!r}")


def raw_document(store, key: str) -> dict | None:
    """The metadata document exactly as stored (parsed leniently: zarr itself accepts NaN tokens)."""
    from zarr.core.buffer import default_buffer_prototype

    buf = sync(store.get(key, prototype=default_buffer_prototype()))
    if buf is None:
        return None
    return json.loads(buf.to_bytes())


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
        return {"zarr": zarr.__version__, "numcodecs": version("numcodecs"), "numpy": np.__version__}

    def describe(self, request: dict | None = None) -> dict:
        return {"name": self.name, "version": zarr.__version__,
                "versions": self.implementation_versions()}

    # -- hooks the zarrs adapter overrides --------------------------------------------------------
    def check_array(self, array: Array) -> None:
        """Called on every array before its data is read or written."""

    def configure(self):
        """A context manager wrapped around every request (zarr.config settings)."""
        return zarr.config.set({})

    # -- read ---------------------------------------------------------------------------------
    def read(self, request: dict) -> dict:
        zf = zarr_format_of(request)
        path = node_path(request.get("node"))
        with self.configure():
            store = open_store(request["store"])
            try:
                node = zarr.open(store=store, path=path, zarr_format=zf, mode="r")
                if isinstance(node, zarr.Group):
                    return {"node_type": "group", "attributes": dict(node.attrs.asdict()),
                            "members": members_of(node)}
                self.check_array(node)
                data = to_plain_array(node[...] if node.ndim else node[()])
                key = f"{path}/{METADATA_KEYS[zf][0]}".lstrip("/")
                written = save_data(request["output"], data)
                return {"node_type": "array", "metadata": raw_document(store, key),
                        "attributes": dict(node.attrs.asdict()), "data": written,
                        "shape": list(data.shape), "dtype": data.dtype.str}
            finally:
                store.close()

    # -- list ---------------------------------------------------------------------------------
    def list(self, request: dict) -> dict:
        zf = zarr_format_of(request)
        path = node_path(request.get("node"))
        with self.configure():
            store = open_store(request["store"])
            try:
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
        path = node_path(request.get("path"))
        attributes = request.get("attributes") or {}
        with self.configure():
            store = open_store(request["store"], writable=True)
            try:
                if request.get("node_type") == "group":
                    zarr.create_group(store, path=path, zarr_format=zf, attributes=attributes)
                    return {}
                self.write_array(store, path, zf, request, attributes)
                return {}
            finally:
                store.close()

    def write_array(self, store, path: str, zf: int, request: dict, attributes: dict) -> None:
        document = dict(request.get("metadata") or {})
        if document.get("zarr_format") != zf:
            raise ValueError(f"metadata zarr_format {document.get('zarr_format')!r} != {zf}")
        document["attributes"] = attributes
        metadata = parse_array_metadata(document)  # zarr validates the document itself
        async_array = AsyncArray(metadata=metadata, store_path=StorePath(store, path))
        sync(async_array._save_metadata(metadata, ensure_parents=True))
        array = Array(async_array)
        self.check_array(array)
        if request.get("data") is not None:
            data = load_data(request["data"])
            if array.ndim == 0:
                array[()] = data
            elif data.size:
                array[...] = data

    def close(self) -> None:
        pass


def members_of(group: "zarr.Group") -> dict:
    return {name: "group" if isinstance(child, zarr.Group) else "array"
            for name, child in group.members()}
