"""Adapter for tensorstore: the `zarr` (v2) and `zarr3` drivers, arrays only.

TensorStore has no group API, so group nodes are answered `unsupported`. Metadata travels as JSON
in the spec: writes pass the requested document as `metadata` with `create: true` and tensorstore
validates and writes it. The raw metadata documents returned by reads are fetched through
tensorstore's own kvstore. Local writes use the context option `file_io_sync: false` (reported in
describe): durability is irrelevant here and fsync would distort timings against the other
implementations, which do not fsync.

Attributes: the zarr3 driver carries them in the metadata (`attributes` member, read back from the
resolved spec). The v2 `zarr` driver ignores `.zattrs` completely: on read the adapter returns the
`.zattrs` document fetched through tensorstore's kvstore (plain JSON, no interpretation); on write
it answers `unsupported` when attributes are requested, since tensorstore cannot write them.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from urllib.parse import urlparse

import numpy as np
import tensorstore as ts

from conformance.harness.adapter_api import Unsupported, load_data, save_data

DRIVERS = {"v2": "zarr", "v3": "zarr3"}
FILE_IO_SYNC = False


def driver_of(request: dict) -> str:
    fmt = request.get("format")
    if fmt not in DRIVERS:
        raise Unsupported(f"tensorstore has no driver for format {fmt!r}")
    return DRIVERS[fmt]


def node_path(raw: str | None) -> str:
    return (raw or "").strip("/")


def kvstore_spec(store: dict) -> dict:
    kind, location = store.get("kind"), store.get("location")
    if kind == "directory":
        return {"driver": "file", "path": location.rstrip("/") + "/"}
    if kind == "zip":
        return {"driver": "zip", "base": {"driver": "file", "path": location}}
    if kind == "url":
        parsed = urlparse(location)
        if parsed.scheme in ("http", "https"):
            return {"driver": "http", "base_url": location.rstrip("/") + "/"}
        if parsed.scheme == "s3":
            spec = {"driver": "s3", "bucket": parsed.netloc, "path": parsed.path.strip("/") + "/"}
            options = store.get("options") or {}
            endpoint = (options.get("client_kwargs") or {}).get("endpoint_url") or options.get("endpoint_url")
            if endpoint:
                spec["endpoint"] = endpoint
            return spec
    raise Unsupported(f"store {kind!r} {location!r}")


def refuse_unconvertible(array) -> None:
    """TensorStore maps v2 |S<n> / |V<n> to its char / byte types with an extra dimension of n, and
    its Python binding turns those into numpy |S0 / |V0 arrays that hold no bytes (and cannot cast
    them to uint8): such data cannot be returned, so the request is unsupported."""
    if array.dtype in (ts.char, ts.byte):
        raise Unsupported(f"tensorstore's Python API cannot convert {array.dtype} data (v2 |S / |V types) to numpy")


def key_in(path: str, name: str) -> str:
    return f"{path}/{name}" if path else name


class Adapter:
    def __init__(self) -> None:
        self.context = ts.Context({"file_io_sync": FILE_IO_SYNC})

    def describe(self, request: dict | None = None) -> dict:
        v = version("tensorstore")
        return {"name": "tensorstore", "version": v,
                "versions": {"tensorstore": v, "numpy": np.__version__},
                "settings": {"file_io_sync": FILE_IO_SYNC}}

    def _kvstore(self, store: dict):
        return ts.KvStore.open(kvstore_spec(store), context=self.context).result()

    def _document(self, kvstore, key: str):
        result = kvstore.read(key).result()
        if result.state != "value":
            return None
        return json.loads(bytes(result.value))

    def _open(self, request: dict, path: str, **kwargs):
        spec = {"driver": driver_of(request), "kvstore": kvstore_spec(request["store"])}
        if path:
            spec["path"] = path
        spec.update(kwargs.pop("spec_extra", {}))
        return ts.open(spec, context=self.context, **kwargs).result()

    def _refuse_group(self, request: dict, kvstore, path: str) -> None:
        """No group API: a node that is a group (and not an array) is unsupported, not failed."""
        if request["format"] == "v3":
            doc = self._document(kvstore, key_in(path, "zarr.json"))
            is_group = isinstance(doc, dict) and doc.get("node_type") == "group"
        else:
            is_group = (kvstore.read(key_in(path, ".zgroup")).result().state == "value"
                        and kvstore.read(key_in(path, ".zarray")).result().state != "value")
        if is_group:
            raise Unsupported("tensorstore has no group API")

    def read(self, request: dict) -> dict:
        driver_of(request)
        path = node_path(request.get("node"))
        kvstore = self._kvstore(request["store"])
        self._refuse_group(request, kvstore, path)
        try:
            array = self._open(request, path, open=True, read=True)
        except ValueError as exc:
            if 'Must specify a "field"' not in str(exc):
                raise
            data = self._read_fields(request, path, self._document(kvstore, key_in(path, ".zarray")))
            array = None
        else:
            refuse_unconvertible(array)
            data = np.asarray(array.read().result())
        if request["format"] == "v3":
            metadata = self._document(kvstore, key_in(path, "zarr.json"))
            resolved = array.spec(minimal_spec=False).to_json().get("metadata", {})
            attributes = resolved.get("attributes", {})
        else:
            metadata = self._document(kvstore, key_in(path, ".zarray"))
            attributes = self._document(kvstore, key_in(path, ".zattrs")) or {}
        extra = {}
        if not isinstance(attributes, dict):  # accepted all the same: report it, keep the protocol
            attributes, extra = {}, {"attributes_as_read": attributes}
        written = save_data(request["output"], data)
        return {"node_type": "array", "metadata": metadata, "attributes": attributes, **extra,
                "data": written, "shape": list(data.shape), "dtype": data.dtype.str}

    def _read_fields(self, request: dict, path: str, zarray: dict) -> np.ndarray:
        """A v2 structured array: tensorstore opens one field at a time ("field" in the spec);
        the fields are put together into the numpy structured array the .zarray describes."""
        dtype = np.dtype([tuple(field) for field in zarray["dtype"]])
        fields = {}
        for name in dtype.names:
            view = self._open(request, path, open=True, read=True, spec_extra={"field": name})
            refuse_unconvertible(view)
            fields[name] = np.asarray(view.read().result())
        shape = fields[dtype.names[0]].shape[: len(zarray["shape"])]
        out = np.empty(shape, dtype=dtype)
        for name, values in fields.items():
            out[name] = values
        return out

    def write(self, request: dict) -> dict:
        driver_of(request)
        if request.get("node_type") == "group":
            raise Unsupported("tensorstore has no group API")
        path = node_path(request.get("path"))
        attributes = request.get("attributes") or {}
        document = dict(request.get("metadata") or {})
        if request["format"] == "v3":
            if attributes:
                document["attributes"] = attributes
        elif attributes:
            raise Unsupported("tensorstore's zarr (v2) driver cannot write .zattrs")
        data = load_data(request["data"]) if request.get("data") is not None else None
        if data is not None and data.dtype.names:
            # structured: tensorstore creates the array once and writes one field at a time
            self._open(request, path, create=True, spec_extra={"metadata": document, "field": data.dtype.names[0]})
            views = [(name, self._open(request, path, open=True, write=True, spec_extra={"field": name}))
                     for name in data.dtype.names]
        else:
            views = [(None, self._open(request, path, create=True, spec_extra={"metadata": document}))]
        for name, view in views:
            refuse_unconvertible(view)
            if data is not None and data.size:
                values = data if name is None else data[name]
                target = view.dtype.numpy_dtype
                view.write(values if values.dtype == target else values.astype(target)).result()
        return {}

    def list(self, request: dict) -> dict:
        raise Unsupported("tensorstore has no group API and cannot list a hierarchy")
