"""Adapter for z5py (PyPI z5py): the Python bindings of z5, a C++ implementation of Zarr (v2 and v3)
and N5, used here in its Zarr mode.

z5py opens a store as a `File` (a group: the root of the hierarchy) and its members by path
(`file["a/b"]`): a `Dataset` (array) or a `Group`. Reads report what those objects say: shape,
dtype and chunks of a Dataset, its `attrs`, a group's `keys()`. z5py has no fill-value getter, so
`api` leaves the fill value out. Writes create the hierarchy with `create_group` /
`create_dataset`, translating the requested document into create_dataset's arguments (data type,
chunks, shards, compression and its options, fill value); what they cannot ask for is answered
Unsupported (declared in adapter.toml). The root of a z5py File is always a group, so an array at
the store root cannot be written.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import tempfile
from importlib.metadata import version

import numpy as np
import z5py

from conformance.harness.adapter_api import (
    OperationTimer,
    Unsupported,
    api_dtype,
    json_value,
    load_data,
    region_index,
    save_data,
)

FORMATS = {"v2": 2, "v3": 3}
LITTLE = {"name": "bytes", "configuration": {"endian": "little"}}
V3_INDEX = [LITTLE, {"name": "crc32c"}]
WRAPPED = "s"  # the store's name inside the wrapper folder
WRAPPER_DOCS = {
    2: (".zgroup", {"zarr_format": 2}),
    3: ("zarr.json", {"zarr_format": 3, "node_type": "group", "attributes": {}}),
}


def no_argument(what: str) -> Unsupported:
    return Unsupported(f"z5py's create_dataset has no argument for {what}")


def zarr_format(fmt: str) -> int:
    if fmt not in FORMATS:
        raise Unsupported(f"z5py implements Zarr formats v2 and v3 only, not {fmt!r}")
    return FORMATS[fmt]


def directory(store: dict) -> str:
    if store.get("kind") != "directory":
        raise Unsupported(f"store kind {store.get('kind')!r}: z5py opens folders on a file system")
    return os.path.abspath(store["location"])


def node_path(raw: str | None, format: str | None) -> str:
    """z5py names datasets by file-system paths joined to the container's folder: a node path is
    not handed over verbatim (an absolute '/foo' would be written at the file system's root), so
    the adapter does not declare feature:verbatim-paths and strips the slashes itself."""
    return (raw or "").strip("/")


def _fill(value):
    """A JSON fill value as create_dataset's fillvalue (a number)."""
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    if value is None or isinstance(value, (str, list, dict)):
        raise no_argument(f"fill_value {value!r}")
    return value


def _v2_compression(compressor) -> tuple[str, dict]:
    if compressor is None:
        return "raw", {}
    cid, conf = compressor.get("id"), {k: v for k, v in compressor.items() if k != "id"}
    if cid in ("zlib", "gzip", "bz2", "zstd") and set(conf) <= {"level"}:
        return {"bz2": "bzip2"}.get(cid, cid), conf
    if cid == "blosc" and set(conf) <= {"cname", "clevel", "shuffle", "blocksize"}:
        return "blosc", {
            "codec": conf["cname"],
            "clevel": conf["clevel"],
            "shuffle": conf.get("shuffle", 1),
            "blocksize": conf.get("blocksize", 0),
        }
    raise no_argument(f"compressor {compressor!r}")


def v2_arguments(doc: dict) -> tuple[dict, str]:
    """(create_dataset keyword arguments, dimension separator) for a requested .zarray."""
    allowed = {"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order"}
    allowed |= {"filters", "dimension_separator"}
    extra = sorted(set(doc) - allowed)
    if extra or doc.get("filters"):
        raise no_argument(f"the members {extra or ['filters']}")
    if doc.get("order", "C") != "C":
        raise no_argument(f"order {doc.get('order')!r} (it writes C order)")
    dtype = np.dtype(doc["dtype"]) if isinstance(doc["dtype"], str) else None
    if dtype is None or (dtype.byteorder == ">" and dtype.itemsize > 1):
        raise no_argument(f"the data type {doc['dtype']!r} (it writes little-endian)")
    compression, options = _v2_compression(doc.get("compressor"))
    args = dict(
        shape=tuple(doc["shape"]),
        chunks=tuple(doc["chunks"]),
        dtype=dtype.newbyteorder("<") if dtype.itemsize > 1 else dtype,
        compression=compression,
        fillvalue=_fill(doc.get("fill_value")),
        **options,
    )
    return args, doc.get("dimension_separator", ".")


def v3_arguments(doc: dict) -> tuple[dict, str]:
    """(create_dataset keyword arguments, chunk key separator) for a requested zarr.json."""
    allowed = {"zarr_format", "node_type", "shape", "data_type", "chunk_grid", "fill_value"}
    allowed |= {"chunk_key_encoding", "codecs", "attributes"}
    extra = sorted(set(doc) - allowed)
    if extra:
        raise no_argument(f"the members {extra}")
    if doc.get("chunk_grid", {}).get("name") != "regular":
        raise no_argument(f"the chunk grid {doc.get('chunk_grid')!r}")
    encoding = doc.get("chunk_key_encoding", {"name": "default"})
    if encoding.get("name") != "default":
        raise no_argument(f"the chunk key encoding {encoding!r}")
    chunks = doc["chunk_grid"]["configuration"]["chunk_shape"]
    codecs, shards = list(doc.get("codecs", [])), None
    if len(codecs) == 1 and codecs[0].get("name") == "sharding_indexed":
        conf = codecs[0].get("configuration", {})
        if conf.get("index_codecs") != V3_INDEX or conf.get("index_location", "end") != "end":
            raise no_argument(f"the shard index {conf.get('index_codecs')!r}")
        shards, chunks, codecs = chunks, conf["chunk_shape"], list(conf.get("codecs", []))
    if not codecs or codecs[0] != LITTLE or len(codecs) > 2:
        raise no_argument(f"the codecs {doc.get('codecs')!r}")
    compression, options = "raw", {}
    if len(codecs) == 2:
        name, conf = codecs[1].get("name"), codecs[1].get("configuration", {})
        if name not in ("gzip", "zstd") or set(conf) - {"level"}:
            raise no_argument(f"the codec {codecs[1]!r}")
        compression, options = name, conf
    args = dict(
        shape=tuple(doc["shape"]),
        chunks=tuple(chunks),
        dtype=np.dtype(doc["data_type"]),
        compression=compression,
        fillvalue=_fill(doc.get("fill_value")),
        **options,
    )
    if shards is not None:
        args["shards"] = tuple(shards)
    return args, encoding.get("configuration", {}).get("separator", "/")


class Adapter:
    name = "z5py"

    def describe(self, request=None):
        return {
            "name": self.name,
            "version": version("z5py"),
            "versions": {
                "z5py": version("z5py"),
                "numpy": np.__version__,
                "python": platform.python_version(),
            },
        }

    def _with_node(self, request, use):
        """use(node) for the node at the request's path. A z5py File is always a group, so the
        store is opened as the member `s` of a wrapper folder (a group document of the request's
        format and a symbolic link to the store): the store's root is then a node like any
        other, an array or a group, as z5py sees it."""
        fmt = zarr_format(request["format"])
        store = directory(request["store"])
        wrapper = tempfile.mkdtemp(prefix="z5py-adapter-")
        try:
            with open(os.path.join(wrapper, WRAPPER_DOCS[fmt][0]), "w") as f:
                json.dump(WRAPPER_DOCS[fmt][1], f)
            os.symlink(store, os.path.join(wrapper, WRAPPED))
            file = z5py.File(wrapper, "r", use_zarr_format=True, zarr_format=fmt)
            path = node_path(request.get("node"), request.get("format"))
            return use(file[f"{WRAPPED}/{path}" if path else WRAPPED], path)
        finally:
            shutil.rmtree(wrapper, ignore_errors=True)

    def read(self, request):
        return self._with_node(request, lambda node, path: self._read(node, request["output"]))

    def _read(self, node, output):
        attributes = {k: json_value(v) for k, v in node.attrs.items()}
        if not isinstance(node, z5py.Dataset):
            members = {k: "array" if isinstance(node[k], z5py.Dataset) else "group" for k in node}
            return {"node_type": "group", "attributes": attributes, "members": members}
        data = np.asarray(node[...])
        out = save_data(output, data)
        # the chunk grid's shape: for a sharded v3 array the shard shape (`chunks` is the inner one)
        grid = node.shards if getattr(node, "shards", None) else node.chunks
        api = {"shape": list(node.shape), "dtype": api_dtype(node.dtype), "chunk_shape": list(grid)}
        return {
            "node_type": "array",
            "metadata": None,
            "attributes": attributes,
            "api": api,
            "data": out,
            "shape": list(data.shape),
            "dtype": api_dtype(data.dtype),
        }

    def list(self, request):
        return self._with_node(request, self._list)

    def _list(self, node, path):
        nodes = {}

        def visit(prefix, item):
            if isinstance(item, z5py.Dataset):
                nodes[prefix] = "array"
                return
            nodes[prefix] = "group"
            for key in item:
                visit(f"{prefix}/{key}" if prefix else key, item[key])

        visit(path, node)
        return {"nodes": nodes}

    def write(self, request, timed=None):
        fmt = zarr_format(request["format"])
        path = node_path(request.get("path"), request.get("format"))
        doc = request.get("metadata") or {}
        if request.get("node_type") != "group":
            args, separator = (v2_arguments if fmt == 2 else v3_arguments)(doc)
            if not path:
                raise Unsupported("z5py's File is a group: it cannot write an array at the root")
        else:
            args, separator = None, "." if fmt == 2 else "/"
        # z5py opens a folder as Zarr when its name ends in .zarr or it holds Zarr metadata, and
        # cannot open an existing empty folder: it writes a fresh folder `new.zarr`, whose files
        # are then moved into the (empty) store folder unchanged
        scratch = tempfile.mkdtemp(
            prefix="z5py-adapter-", dir=os.path.dirname(directory(request["store"]))
        )
        try:
            fresh = os.path.join(scratch, "new.zarr")
            self._write(request, path, args, fresh, fmt, separator, timed)
            for entry in os.listdir(fresh):
                shutil.move(
                    os.path.join(fresh, entry), os.path.join(directory(request["store"]), entry)
                )
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return {}

    def update(self, request):
        """The steps of a write case on the dataset this adapter has just written, opened again
        (`z5py.File(folder, "a")`, the dataset by its path): `dataset[region] = values` in order.
        z5py's Dataset has no resize (op:update only)."""
        fmt = zarr_format(request["format"])
        path = node_path(request.get("path"), request.get("format"))
        file = z5py.File(directory(request["store"]), "a", use_zarr_format=True, zarr_format=fmt)
        dataset = file[path]
        for step in request["steps"]:
            if step["op"] != "write":
                raise Unsupported(f"z5py's Dataset has no {step['op']}")
            values = load_data(step["data"])
            values = values.astype(values.dtype.newbyteorder("="))  # z5py takes native order
            dataset[region_index(step["region"])] = values[()] if values.ndim == 0 else values
        return {}

    def _write(self, request, path, args, folder, fmt, separator, timed=None):
        file = z5py.File(
            folder, "a", use_zarr_format=True, zarr_format=fmt, dimension_separator=separator
        )
        if args is None:
            node = file.require_group(path) if path else file
        else:
            node = file.create_dataset(path, **args)
            if request.get("data"):
                data = load_data(request["data"])
                if data.size:
                    values = np.asarray(data, dtype=args["dtype"].newbyteorder("="))
                    with timed or contextlib.nullcontext():
                        node[...] = values
        if request.get("attributes"):
            node.attrs.update(request["attributes"])

    def bench(self, request):
        """A write times Dataset[...] = data (z5 writes every chunk before it returns), a read
        Dataset[...] (or each region); creating and opening are not timed. z5py opens folders:
        a memory store is refused."""
        directory(request["store"])  # a memory store: Unsupported
        timer = OperationTimer()
        if request["operation"] == "write":
            self.write(dict(request, node_type="array", attributes={}), timed=timer)
            return {**timer.result(), "settings": {"n_threads": 1, "store": "folder"}}
        regions = request.get("regions")

        def timed_read(node, _path):
            if not isinstance(node, z5py.Dataset):
                raise TypeError(f"z5py opened the bench array as a {type(node).__name__}")
            with timer:
                if regions is None:
                    out = node[...]
                else:
                    out = [node[tuple(slice(a, b) for a, b in region)] for region in regions]
            return out, node.n_threads

        out, threads = self._with_node(dict(request, node=""), timed_read)
        out = np.asarray(out) if regions is None else np.stack(out)
        settings = {"n_threads": threads, "store": "folder"}
        return {**timer.result(), "data": save_data(request["output"], out), "settings": settings}
