"""Adapter for cpp-zarr (PyPI `cpp-zarr`, module `cppzarr`): a C++ reader and writer of Zarr v2
and v3 arrays (OpenMP, pybind11), with the two functions its Python package offers.

- `read_zarr(folder)` reads a whole array. It has no group, attribute or listing API and reports
  nothing but the array it returns: a read answers `api` with that array's shape and dtype only,
  `attributes` and `metadata` null. A node that is not an array is cpp-zarr's own refusal
  ("... does not exist. No .zarray or zarr.json metadata file was found").
- `write_zarr(folder, data, cname, clevel, order, chunks, dimension_separator, zarr_format, shards)`
  writes a whole array. Its documents always say fill value 0, little-endian, no filters, no
  attributes, blosc with byte shuffle and blocksize 0 (or gzip, or no compressor), and v3 sharding
  with crc32c-checked indexes at the end. A requested document asking for anything else has no
  write_zarr argument and is answered Unsupported (declared in adapter.toml); the adapter never
  writes a document itself.
"""

from __future__ import annotations

import math
import os
import platform
from importlib.metadata import version

import cppzarr
import numpy as np

from conformance.harness.adapter_api import (
    OperationTimer,
    Unsupported,
    api_dtype,
    load_data,
    save_data,
)


def node_folder(store: dict, node: str | None) -> str:
    """The folder of a node: cpp-zarr addresses an array by its folder, it has no hierarchy paths.
    Path segments a hierarchy API would have to normalise ('', '.', '..', a backslash) have no
    folder of their own and are not translated."""
    if store.get("kind") != "directory":
        raise Unsupported(
            f"store kind {store.get('kind')!r}: cpp-zarr reads and writes folders on a file system"
        )
    parts = (node or "").strip("/").split("/") if (node or "").strip("/") else []
    if any(p in ("", ".", "..") or "\\" in p for p in parts):
        raise Unsupported(f"cpp-zarr has no hierarchy paths: {node!r} names no folder of its own")
    return os.path.join(os.path.abspath(store["location"]), *parts)


def require_format(fmt: str) -> int:
    if fmt not in ("v2", "v3"):
        raise Unsupported(f"cpp-zarr implements Zarr formats v2 and v3 only, not {fmt!r}")
    return 2 if fmt == "v2" else 3


def no_argument(what: str) -> Unsupported:
    return Unsupported(f"write_zarr has no argument for {what}")


def _zero_fill(fill, dtype: np.dtype) -> None:
    """write_zarr always writes fill value 0 (false for bool): anything else cannot be asked for."""
    if dtype.kind == "b":
        zero = fill is False
    else:
        number = isinstance(fill, (int, float)) and not isinstance(fill, bool)
        zero = number and fill == 0 and math.copysign(1.0, fill) > 0
    if not zero:
        raise no_argument(f"fill_value {fill!r} (it always writes 0)")


def _compressor_v2(compressor) -> tuple[str, int]:
    if compressor is None:
        return "none", 1
    cid = compressor.get("id")
    if cid == "gzip" and set(compressor) <= {"id", "level"}:
        return "gzip", int(compressor.get("level", 1))
    if cid == "blosc" and compressor.get("shuffle") == 1 and compressor.get("blocksize", 0) == 0:
        return compressor["cname"], int(compressor["clevel"])
    raise no_argument(f"compressor {compressor!r}")


def _codecs_v3(codecs: list, dtype: np.dtype, ndim: int) -> dict:
    """write_zarr arguments (order, cname, clevel, shards, inner chunks) for a v3 codec chain."""
    args = {"order": "C", "cname": "none", "clevel": 1}
    chain = list(codecs)
    if len(chain) == 1 and chain[0].get("name") == "sharding_indexed":
        conf = chain[0].get("configuration", {})
        index = [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]
        if conf.get("index_codecs") != index or conf.get("index_location", "end") != "end":
            raise no_argument(f"the shard index {conf.get('index_codecs')!r}")
        args["inner_chunks"] = conf["chunk_shape"]
        chain = list(conf.get("codecs", []))
    if chain and chain[0].get("name") == "transpose":
        # order "F" writes the transpose codec with the reversed axes, the only one it writes
        if chain[0].get("configuration", {}).get("order") != list(range(ndim))[::-1]:
            raise no_argument(f"the codec {chain[0]!r} (it writes C or F order)")
        args["order"] = "F"
        chain = chain[1:]
    little = {"name": "bytes", "configuration": {"endian": "little"}}
    one_byte_bytes = dtype.itemsize == 1 and chain[:1] == [{"name": "bytes"}]
    if chain[:1] != [little] and not one_byte_bytes:
        raise no_argument(f"the codecs {codecs!r}")
    rest = chain[1:]
    if len(rest) > 1:
        raise no_argument(f"the codecs {codecs!r}")
    if rest:
        name, conf = rest[0].get("name"), rest[0].get("configuration", {})
        if name == "gzip":
            args.update(cname="gzip", clevel=int(conf.get("level", 1)))
        elif (
            name == "blosc"
            and conf.get("shuffle") == "shuffle"
            and conf.get("blocksize", 0) == 0
            and conf.get("typesize", dtype.itemsize) == dtype.itemsize
        ):
            args.update(cname=conf["cname"], clevel=int(conf["clevel"]))
        else:
            raise no_argument(f"the codec {rest[0]!r}")
    return args


def write_arguments(fmt: int, doc: dict) -> tuple[dict, np.dtype]:
    """write_zarr's keyword arguments for a requested .zarray (v2) or zarr.json (v3)."""
    if fmt == 2:
        allowed = {"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value"}
        allowed |= {"order", "filters", "dimension_separator"}
        extra = sorted(set(doc) - allowed)
        if extra or doc.get("filters"):
            raise no_argument(f"the members {extra or ['filters']}")
        dtype = np.dtype(doc["dtype"]) if isinstance(doc["dtype"], str) else None
        if dtype is None or (dtype.byteorder == ">" and dtype.itemsize > 1):
            raise no_argument(f"the data type {doc['dtype']!r} (it writes little-endian only)")
        _zero_fill(doc.get("fill_value"), dtype)
        cname, clevel = _compressor_v2(doc.get("compressor"))
        return dict(
            zarr_format=2,
            chunks=doc["chunks"],
            cname=cname,
            clevel=clevel,
            order=doc.get("order", "C"),
            dimension_separator=doc.get("dimension_separator", "."),
        ), dtype
    allowed = {"zarr_format", "node_type", "shape", "data_type", "chunk_grid", "fill_value"}
    allowed |= {"chunk_key_encoding", "codecs", "attributes"}
    extra = sorted(set(doc) - allowed)
    if extra or doc.get("attributes"):
        raise no_argument(f"the members {extra or ['attributes']}")
    if doc.get("chunk_grid", {}).get("name") != "regular":
        raise no_argument(f"the chunk grid {doc.get('chunk_grid')!r}")
    encoding = doc.get("chunk_key_encoding", {"name": "default"})
    if encoding.get("name") != "default":
        raise no_argument(f"the chunk key encoding {encoding!r}")
    try:
        dtype = np.dtype(doc["data_type"])
    except TypeError:
        raise no_argument(f"the data type {doc['data_type']!r}") from None
    _zero_fill(doc.get("fill_value"), dtype)
    codecs = _codecs_v3(doc.get("codecs", []), dtype, len(doc["shape"]))
    shape = doc["chunk_grid"]["configuration"]["chunk_shape"]
    args = dict(
        zarr_format=3,
        cname=codecs["cname"],
        clevel=codecs["clevel"],
        order=codecs["order"],
        dimension_separator=encoding.get("configuration", {}).get("separator", "/"),
    )
    if "inner_chunks" in codecs:
        args.update(chunks=codecs["inner_chunks"], shards=shape)
    else:
        args.update(chunks=shape)
    return args, dtype


class Adapter:
    name = "cpp-zarr"

    def describe(self, request=None):
        return {
            "name": self.name,
            "version": version("cpp-zarr"),
            "versions": {
                "cpp-zarr": version("cpp-zarr"),
                "numpy": np.__version__,
                "python": platform.python_version(),
            },
            "settings": {"OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS")},
        }

    def read(self, request):
        require_format(request["format"])
        folder = node_folder(request["store"], request.get("node"))
        data = cppzarr.read_zarr(folder)
        data = np.asarray(data, order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
        path = save_data(request["output"], data)
        api = {"shape": list(data.shape), "dtype": api_dtype(data.dtype)}
        return {
            "node_type": "array",
            "metadata": None,
            "attributes": None,
            "api": api,
            "data": path,
            "shape": list(data.shape),
            "dtype": api["dtype"],
        }

    def write(self, request):
        fmt = require_format(request["format"])
        if request.get("node_type") == "group":
            raise Unsupported("cpp-zarr writes arrays only: it has no group API")
        if request.get("attributes"):
            raise no_argument("attributes")
        if (request.get("path") or "").strip("/"):
            raise Unsupported("cpp-zarr has no hierarchy paths: it writes an array into a folder")
        folder = node_folder(request["store"], "")
        args, dtype = write_arguments(fmt, request.get("metadata") or {})
        data = load_data(request["data"]) if request.get("data") else None
        if data is None:
            raise no_argument("an array without data (it writes the data it is given)")
        cppzarr.write_zarr(folder, np.asarray(data, dtype=dtype.newbyteorder("=")), **args)
        return {}

    def list(self, request):
        raise Unsupported("cpp-zarr has no hierarchy listing")

    def bench(self, request):
        """One timed read (read_zarr of the whole array, or of each region by its start and end
        coordinates) or write (write_zarr, which writes the metadata document with the chunks:
        one call, timed whole). cpp-zarr has folders only: a memory store is refused."""
        fmt = require_format(request["format"])
        folder = node_folder(request["store"], request.get("path"))
        settings = {
            "threads": f"{cppzarr.cppzarrwrappers.pybind11_default_threads()} (OpenMP's default)",
            "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
        }
        if request["operation"] == "write":
            args, dtype = write_arguments(fmt, request["metadata"])
            data = np.asarray(load_data(request["data"]), dtype=dtype.newbyteorder("="))
            with OperationTimer() as timer:
                cppzarr.write_zarr(folder, data, **args)
            return {**timer.result(), "settings": settings}
        regions = request.get("regions")
        with OperationTimer() as timer:
            if regions is None:
                out = cppzarr.read_zarr(folder)
            else:
                out = [
                    cppzarr.read_zarr(
                        folder, start_coords=[a for a, _ in r], end_coords=[b for _, b in r]
                    )
                    for r in regions
                ]
        out = np.asarray(out, order="C") if regions is None else np.stack(out)
        return {**timer.result(), "data": save_data(request["output"], out), "settings": settings}
