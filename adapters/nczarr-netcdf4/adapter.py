"""Adapter for NCZarr, netCDF-C's Zarr implementation, through the netCDF4 Python API.

netCDF-C opens a Zarr store as a netCDF-4 dataset when given a URL whose fragment says so:
`file:///abs/path#mode=zarr,file` reads and writes pure Zarr (v2) in a directory ("nczarr" would
add netCDF's own metadata). Everything the harness asks is translated into netCDF4 calls, and what
the netCDF4 objects report is what the adapter answers; the adapter parses no Zarr metadata.

The netCDF data model has no array at the root: the root of a dataset is always a group. So the
store's root (node "") is read through a wrapper folder holding one symbolic link, `s`, to the
store: NCZarr sees the store's root as the member `s` of the wrapper's root group, an array or a
group like any other node (where it sees no such member, a root folder with neither .zarray nor
.zgroup, the root is the dataset opened at the store itself, as for every other node). Writes
have no such trick (the written store is the dataset): an array at the root cannot be written
(`feature:write-root-array` is not declared; the request is answered Unsupported, declared in
adapter.toml).

netCDF has names, not paths: a node path, normalised as the v2 spec says for logical paths (a
backslash separates, empty segments drop out), is followed one name at a time (Group.__getitem__ on
each name, which raises IndexError("<name> not found in <group>") by design), and a write creates
the groups of its path one name at a time (createGroup). A write path that a path API would have
to normalise (a backslash, an empty, '.' or '..' segment) has no such translation and is answered
Unsupported; `feature:nested-paths` (a path API) is not declared.

Reads report (`api`) what the netCDF4 Variable says: shape, dtype, chunking() and the fill value
(the `_FillValue` attribute, else Variable.get_fill_value() where netCDF4 has it; netCDF4 1.6.2
has neither for a pure Zarr array, so there the fill value is not reported). `_FillValue` is
netCDF's reserved attribute for the fill value: it is reported as the fill value, not among the
attributes. Attributes are the rest of ncattrs(), as netCDF4 returns them (a one-element list
comes back as a scalar: netCDF attributes are vectors). `metadata` is null: netCDF4 does not give
the stored document.

Writes translate the requested .zarray into createVariable arguments (dtype, endian, chunksizes,
fill_value, compression); a member the netCDF4 API has no argument for (a codec it cannot ask for,
order "F", ...) is answered Unsupported, declared in adapter.toml. Attributes go through setncattr:
strings, numbers and lists of them as netCDF attribute vectors, any other JSON value as its JSON
text, which NCZarr's JSON attribute convention writes as that JSON value. NCZarr's own additions
(the `_NCProperties` and `_FillValue` attributes) are left in the store for the judge to see.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import tempfile

import netCDF4
import numpy as np

from conformance.harness.adapter_api import (
    OperationTimer,
    Unsupported,
    dtype_str,
    load_data,
    save_data,
)

WRAPPED = "s"  # the store's name inside the wrapper folder


def node_names(path: str) -> list[str]:
    """The names along a Zarr v2 logical path, normalised as the spec says: a backslash is a
    separator, and leading, trailing and repeated '/' make no names. '.' and '..' stay names:
    netCDF has no member so named, so such a path is refused (the spec asks for an error)."""
    return [name for name in path.replace("\\", "/").split("/") if name]


def _json(value):
    """An attribute value as netCDF4 returns it, as JSON."""
    if isinstance(value, np.ndarray):
        return [_json(v) for v in value.tolist()] if value.ndim else _json(value.item())
    if isinstance(value, np.generic):
        return _json(value.item())
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


def _attribute_value(value):
    """A JSON attribute value as the netCDF API takes it: strings, numbers and lists of numbers or
    of strings as they are (netCDF attribute vectors); any other JSON value (an object, a boolean,
    null, a mixed or nested list) as its JSON text, which NCZarr writes as that JSON value (the
    JSON attribute convention of netCDF-C's docs/nczarr.md, appendix "JSON Attribute Convention")."""

    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if isinstance(value, str) or number(value):
        return value
    if (
        isinstance(value, list)
        and value
        and (all(map(number, value)) or all(isinstance(v, str) for v in value))
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def _fill_json(value):
    """A JSON fill value of a request as a Python value (v2 spells non-finite floats as strings)."""
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    return value


class Adapter:
    name = "nczarr-netcdf4"

    def __init__(self):
        self._tmp = tempfile.mkdtemp(prefix="nczarr-adapter-")

    def close(self):
        shutil.rmtree(self._tmp, ignore_errors=True)

    # ---- describe -------------------------------------------------------------------------------
    def describe(self, request):
        plugin_path = os.environ.get("HDF5_PLUGIN_PATH")
        plugins = (
            sorted(os.listdir(plugin_path)) if plugin_path and os.path.isdir(plugin_path) else []
        )
        probe = netCDF4.Dataset(
            os.path.join(self._tmp, "probe.nc"), "w", diskless=True, persist=False
        )
        try:
            filters = {
                name: bool(getattr(probe, f"has_{name}_filter")())
                for name in ("zstd", "bzip2", "blosc", "szip")
                if hasattr(probe, f"has_{name}_filter")
            }
        finally:
            probe.close()
        return {
            "name": self.name,
            "version": netCDF4.__netcdf4libversion__,
            "versions": {
                "netcdf-c": netCDF4.__netcdf4libversion__,
                "netCDF4": netCDF4.__version__,
                "hdf5": netCDF4.__hdf5libversion__,
                "numpy": np.__version__,
                "python": platform.python_version(),
            },
            "settings": {
                "HDF5_PLUGIN_PATH": plugin_path,  # where netCDF-C looks for codec (filter) plugins
                "plugins": plugins,
                "filters_available": filters,  # nc_inq_filter_avail, through Dataset.has_*_filter()
                "netCDF4": os.path.dirname(netCDF4.__file__),
                "python": sys.executable,
            },
        }

    # ---- reading --------------------------------------------------------------------------------
    def _open(self, store: dict, fmt: str, url_path: str | None = None):
        """The dataset NCZarr opens at `url_path` (default: the store's folder)."""
        if fmt != "v2":
            raise Unsupported(
                f"NCZarr (netCDF-C {netCDF4.__netcdf4libversion__}) reads Zarr format v2 only, not {fmt!r}"
            )
        if store.get("kind") != "directory":
            raise Unsupported(
                f"store kind {store.get('kind')!r}: the adapter opens directory stores only"
            )
        return netCDF4.Dataset(
            f"file://{url_path or os.path.abspath(store['location'])}#mode=zarr,file", "r"
        )

    def _with_node(self, request, use):
        """Call use(node) with the Group or Variable at the request's node path.

        A path is followed one name at a time (netCDF4's Group.__getitem__, which raises
        IndexError "<name> not found in <group>" by design). The root: netCDF's root is always a
        group, so the store is first opened through a wrapper folder whose only entry `s` links to
        it: there NCZarr sees the store's root as a member, an array or a group. Where it sees no
        member `s` (a root folder with neither .zarray nor .zgroup) the root is the dataset NCZarr
        opens at the store itself, as for every other path."""
        store, fmt = request["store"], request["format"]
        names = node_names(request.get("node", ""))
        if not names:
            wrapper = tempfile.mkdtemp(dir=self._tmp)
            try:
                os.symlink(os.path.abspath(store["location"]), os.path.join(wrapper, WRAPPED))
                ds = self._open(store, fmt, wrapper)
                try:
                    if WRAPPED in ds.variables or WRAPPED in ds.groups:
                        return use(ds[WRAPPED])
                finally:
                    ds.close()
            finally:
                shutil.rmtree(wrapper, ignore_errors=True)
        ds = self._open(store, fmt)
        try:
            node = ds
            for name in names:
                if isinstance(node, netCDF4.Variable):
                    # A variable has no members: what netCDF4's path lookup says of the whole path.
                    node = ds["/".join(names)]
                    break
                node = node[name]
            return use(node)
        finally:
            ds.close()

    def read(self, request):
        output = request["output"]
        # A netCDF4 Group is a Dataset (the root is the Dataset itself); an array is a Variable.
        return self._with_node(
            request,
            lambda node: (
                self._array(node, output)
                if isinstance(node, netCDF4.Variable)
                else self._group(node)
            ),
        )

    @staticmethod
    def _attributes(node) -> dict:
        return {
            name: _json(node.getncattr(name)) for name in node.ncattrs() if name != "_FillValue"
        }

    def _group(self, group):
        members = {name: "array" for name in group.variables}
        members.update({name: "group" for name in group.groups})
        return {
            "node_type": "group",
            "metadata": None,
            "attributes": self._attributes(group),
            "members": members,
        }

    def _array(self, var, output: str):
        var.set_auto_maskandscale(False)  # the stored values, fill values included
        data = np.asarray(var[...])
        if var.dtype is str:
            data = data.astype(object)
        path = save_data(output, data)
        api = {
            "shape": list(var.shape),
            "dtype": "|O" if var.dtype is str else np.dtype(var.dtype).str,
        }
        chunking = var.chunking()
        if isinstance(chunking, list):
            api["chunk_shape"] = [int(c) for c in chunking]
        fill = self._fill_value(var)
        if fill is not None:
            api["fill_value"] = fill
        return {
            "node_type": "array",
            "metadata": None,
            "attributes": self._attributes(var),
            "api": api,
            "data": path,
            "shape": list(data.shape),
            "dtype": dtype_str(data),
        }

    @staticmethod
    def _fill_value(var):
        """The fill value netCDF4 reports: the `_FillValue` attribute, else Variable.get_fill_value()
        (netCDF4 >= 1.6.3: netCDF's default for the type, None when filling is off). None when the
        API cannot say (netCDF4 1.6.2 without a `_FillValue` attribute: NCZarr fills missing chunks
        with the Zarr fill_value but reports it nowhere)."""
        if "_FillValue" in var.ncattrs():
            value = var.getncattr("_FillValue")
        elif hasattr(var, "get_fill_value"):
            value = var.get_fill_value()
            if value is None:
                return {"value": None}
        else:
            return None
        if var.dtype is str or value is None:
            return {"value": _json(value)}
        dtype = np.dtype(var.dtype)
        return {"bytes": np.asarray(value, dtype).astype(dtype.newbyteorder("<")).tobytes().hex()}

    def list(self, request):
        start = request.get("node", "")
        nodes = {}

        def walk(n, path):
            if isinstance(n, netCDF4.Dataset):  # a group (or the root)
                nodes[path] = "group"
                for name in n.variables:
                    nodes[f"{path}/{name}" if path else name] = "array"
                for name, g in n.groups.items():
                    walk(g, f"{path}/{name}" if path else name)
            else:
                nodes[path] = "array"

        self._with_node(request, lambda node: walk(node, start))
        return {"nodes": nodes}

    # ---- writing --------------------------------------------------------------------------------
    def write(self, request):
        ds, var = self._create(request)
        try:
            if var is not None and request.get("data"):
                self._fill(var, load_data(request["data"]))
            return {}
        finally:
            ds.close()

    def _create(self, request):
        """(dataset, variable or None): the requested node created, open for writing, its data
        not yet written. Closing the dataset writes what NCZarr still holds."""
        fmt = request["format"]
        if fmt != "v2":
            raise Unsupported(
                f"NCZarr (netCDF-C {netCDF4.__netcdf4libversion__}) writes Zarr format v2 only, not {fmt!r}"
            )
        store = request["store"]
        if store.get("kind") != "directory":
            raise Unsupported(
                f"store kind {store.get('kind')!r}: the adapter writes directory stores only"
            )
        path = request.get("path", "")
        names = path.split("/") if path else []
        if "\\" in path or any(name in ("", ".", "..") for name in names):
            raise Unsupported(
                f"netCDF has names, not paths: the adapter cannot map the path {path!r} to group and "
                f"variable names (a backslash, an empty, '.' or '..' segment)"
            )
        node_type = request["node_type"]
        if node_type == "array" and not names:
            raise Unsupported(
                "netCDF's root is always a group: NCZarr cannot write an array at the store root"
            )
        kwargs = self._variable_arguments(request["metadata"]) if node_type == "array" else {}
        ds = netCDF4.Dataset(
            f"file://{os.path.abspath(store['location'])}#mode=zarr,noxarray,file", "w"
        )
        try:
            group = ds
            parents = names[:-1] if node_type == "array" else names
            for name in parents:
                group = group.groups[name] if name in group.groups else group.createGroup(name)
            if node_type == "group":
                for key, value in (request.get("attributes") or {}).items():
                    group.setncattr(key, _attribute_value(value))
                return ds, None
            name = names[-1]
            shape = request["metadata"]["shape"]
            dims = []
            for i, size in enumerate(shape):
                dim = f"{name}_dim{i}"
                group.createDimension(dim, size)
                dims.append(dim)
            var = group.createVariable(name, dimensions=tuple(dims), **kwargs)
            for key, value in (request.get("attributes") or {}).items():
                var.setncattr(key, _attribute_value(value))
            var.set_auto_maskandscale(False)
            return ds, var
        except BaseException:
            ds.close()
            raise

    @staticmethod
    def _fill(var, data) -> None:
        if var.shape == ():
            var.assignValue(data)
        else:
            var[...] = data

    # ---- bench (conformance/bench): one timed write or read -------------------------------------
    def bench(self, request):
        """A read times var[...] (or var[region] per region); a write times var[...] = data and
        closing the dataset, when NCZarr writes the chunks it still holds. NCZarr has no
        in-memory store: a memory store is refused."""
        if request["store"].get("kind") == "memory":
            raise Unsupported(
                "NCZarr has no in-memory Zarr store: its storage maps are a folder, a zip file and "
                "S3 (nc_open_mem opens netCDF-3 and HDF5 images, not Zarr)"
            )
        settings = {
            "store": "file:// URL, #mode=zarr,file",
            "netcdf-c": netCDF4.__netcdf4libversion__,
            "threads": "1 (netCDF-C reads and writes from the calling thread)",
        }
        if request["operation"] == "write":
            ds, var = self._create(dict(request, node_type="array", attributes={}))
            try:
                data = load_data(request["data"])
                with OperationTimer() as timer:
                    self._fill(var, data)
                    closing, ds = ds, None
                    closing.close()
            finally:
                if ds is not None:
                    ds.close()
            return {**timer.result(), "settings": settings}
        regions = request.get("regions")

        def timed_read(var):
            if not isinstance(var, netCDF4.Variable):
                raise TypeError(f"NCZarr opened the bench array as a {type(var).__name__}")
            var.set_auto_maskandscale(False)
            with OperationTimer() as timer:
                if regions is None:
                    out = var[...]
                else:
                    out = [var[tuple(slice(a, b) for a, b in region)] for region in regions]
            return timer, out

        timer, out = self._with_node(dict(request, node=""), timed_read)
        out = np.asarray(out) if regions is None else np.stack(out)
        return {**timer.result(), "data": save_data(request["output"], out), "settings": settings}

    @staticmethod
    def _variable_arguments(meta: dict) -> dict:
        """createVariable keyword arguments for a v2 .zarray document; Unsupported for a member the
        netCDF4 API has no argument for."""
        if meta.get("order", "C") != "C":
            raise Unsupported(
                f"netCDF4's API has no storage order: it cannot write order {meta.get('order')!r}"
            )
        if meta.get("dimension_separator", ".") != ".":
            raise Unsupported(
                f"netCDF4's API has no per-variable dimension separator: it cannot write "
                f"{meta.get('dimension_separator')!r}"
            )
        filters = list(meta.get("filters") or [])
        vlen_utf8 = [f for f in filters if f.get("id") == "vlen-utf8"]
        shuffle = [f for f in filters if f.get("id") == "shuffle"]
        others = [f for f in filters if f not in vlen_utf8 and f not in shuffle]
        if others:
            raise Unsupported(
                f"netCDF4's API has no way to ask for the filter {others[0].get('id')!r}"
            )
        raw = meta["dtype"]
        if raw == "|O" and vlen_utf8:
            datatype, endian = str, "native"
        else:
            dtype = np.dtype(raw) if isinstance(raw, str) else np.dtype([tuple(f) for f in raw])
            endian = {">": "big", "<": "little"}.get(dtype.byteorder, "native")
            datatype = dtype.newbyteorder("=") if dtype.byteorder in "<>" else dtype
        kwargs = {"datatype": datatype, "endian": endian, "shuffle": bool(shuffle)}
        if meta.get("chunks") is not None and meta.get("shape"):
            kwargs["chunksizes"] = tuple(meta["chunks"])
        fill = meta.get("fill_value")
        kwargs["fill_value"] = False if fill is None else _fill_json(fill)
        kwargs.update(Adapter._compression(meta.get("compressor")))
        return kwargs

    @staticmethod
    def _compression(compressor) -> dict:
        if compressor is None:
            return {"compression": None}
        cid = compressor.get("id")
        params = {k: v for k, v in compressor.items() if k != "id"}
        simple = {"zlib": "zlib", "zstd": "zstd", "bz2": "bzip2"}
        if cid in simple and set(params) <= {"level"}:
            return {"compression": simple[cid], "complevel": params.get("level", 4)}
        if (
            cid == "blosc"
            and set(params) <= {"cname", "clevel", "shuffle", "blocksize"}
            and not params.get("blocksize")
        ):
            return {
                "compression": f"blosc_{params.get('cname', 'lz4')}",
                "complevel": params.get("clevel", 5),
                "blosc_shuffle": params.get("shuffle", 1),
            }
        raise Unsupported(f"netCDF4's API has no way to ask for the compressor {compressor!r}")
