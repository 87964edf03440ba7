"""The reference adapter: conformance.reference behind the adapter contract.

Runs in the caller's environment (no requirements), so unlike other adapters it may import the
reference. Errors carry the reference's reason codes, which reject cases check exactly.
"""

from __future__ import annotations

import sys

import numpy as np

import conformance
from conformance.harness.adapter_api import (
    OperationTimer,
    api_dtype,
    dtype_str,
    files_of,
    fsspec_options,
    json_value,
    load_data,
    region_index,
    save_data,
    write_file,
)
from conformance.reference import get_format, open_store
from conformance.reference.stores import DirectoryStore, ZipStore


def open_request_store(spec: dict, mode: str = "r"):
    kind, location = spec["kind"], spec["location"]
    if kind == "zip":
        return ZipStore(location, "w" if mode == "w" else "r")
    if kind == "directory":
        return DirectoryStore(location, read_only=(mode == "r"))
    if kind == "url" and mode == "r":
        from conformance.reference.stores.url import URLStore

        return URLStore(location, storage_options=fsspec_options(spec))
    return open_store(location, mode)


def members_of(node, store) -> dict | None:
    """A group's members; None over plain HTTP, which cannot list keys (the read is then judged
    without them, `unchecked`: members)."""
    from conformance.reference.errors import UnsupportedError

    try:
        return dict(node.children())
    except UnsupportedError:
        if getattr(store, "can_list", True) is False:
            return None
        raise


class Adapter:
    name = "reference"

    def describe(self, request: dict) -> dict:
        import numcodecs

        return {
            "name": self.name,
            "version": conformance.__version__,
            "versions": {
                "zarr-conformance": conformance.__version__,
                "numpy": np.__version__,
                "numcodecs": numcodecs.__version__,
                "python": sys.version.split()[0],
            },
        }

    # The read path is split in two so that broken adapters (tests/broken) can bend one step.
    def open_node(self, store, request: dict):
        fmt = get_format(request["format"])
        return fmt.open_node(store, fmt.normalize_path(request["node"]))

    def read_data(self, node) -> np.ndarray:
        return node.read()

    def read(self, request: dict) -> dict:
        store = open_request_store(request["store"])
        try:
            node = self.open_node(store, request)
            if node.kind == "group":
                return {
                    "node_type": "group",
                    "metadata": node.metadata,
                    "attributes": node.attrs,
                    "members": members_of(node, store),
                }
            api = array_api(node)
            data = self.read_data(node)
            path = save_data(request["output"], data)
            return {
                "node_type": "array",
                "metadata": node.metadata,
                "attributes": node.attrs,
                "api": api,
                "data": path,
                "shape": list(data.shape),
                "dtype": dtype_str(data),
            }
        finally:
            store.close()

    def write(self, request: dict) -> dict:
        store = open_request_store(request["store"], "w")
        try:
            self.write_node(store, request)
        finally:
            store.close()
        return {}

    def write_node(self, store, request: dict) -> None:
        fmt = get_format(request["format"])
        path = fmt.normalize_path(request["path"])
        if request["node_type"] == "group":
            fmt.create_group(store, path, request["attributes"])
            return
        array = fmt.create_array(store, path, request["metadata"], request["attributes"])
        if request.get("data"):
            array.write(None, load_data(request["data"]))

    def update(self, request: dict) -> dict:
        """The steps of a write case, on the array this adapter has just written: regions and
        single elements written, resizes (the array is opened again for every step)."""
        if request["store"]["kind"] != "directory":
            raise ValueError(
                f"the reference updates directory stores, not {request['store']['kind']}"
            )
        store = open_request_store(request["store"], "w")
        try:
            fmt = get_format(request["format"])
            path = fmt.normalize_path(request["path"])
            for step in request["steps"]:
                if step["op"] == "resize":
                    self.resize(fmt, store, path, tuple(step["shape"]))
                else:
                    array = fmt.open_array(store, path)
                    self.write_region(array, region_index(step["region"]), load_data(step["data"]))
        finally:
            store.close()
        return {}

    # The update steps, apart so that broken adapters (tests/broken) can bend one.
    def write_region(self, array, selection: tuple, values: np.ndarray) -> None:
        array.write(selection, values)

    def resize(self, fmt, store, path: str, shape: tuple[int, ...]) -> None:
        fmt.resize_array(store, path, shape)

    def list(self, request: dict) -> dict:
        store = open_request_store(request["store"])
        try:
            fmt = get_format(request["format"])
            return {"nodes": walk(store, fmt, fmt.normalize_path(request["node"]))}
        finally:
            store.close()

    def validate(self, request: dict) -> dict:
        from conformance.reference.errors import ZarrError

        store = open_request_store(request["store"])
        findings = []
        try:
            fmt = get_format(request["format"])
            try:
                nodes = walk(store, fmt, "")
            except ZarrError as exc:
                nodes = {}
                findings.append(finding("", exc))
            for path, kind in nodes.items():
                try:
                    node = fmt.open_node(store, path)
                    if kind == "array":
                        node.read()
                except ZarrError as exc:
                    findings.append(finding(path, exc))
        finally:
            store.close()
        return {"valid": not findings, "findings": findings}

    def zom(self, request: dict) -> dict:
        """The ZEP 6 model of the hierarchy at `node`, or (given `model`) whether a model document
        is valid."""
        from conformance.reference import zom

        if "model" in request:
            return validate_model(
                request["model"], request["format"], request.get("schema", "fixed")
            )
        store = open_request_store(request["store"])
        try:
            return {"model": zom.to_json(zom.from_store(store, request["node"], request["format"]))}
        finally:
            store.close()

    def bench(self, request: dict) -> dict:
        """Time one write or read (conformance/bench); only the operation itself is timed."""
        from conformance.reference import MemoryStore
        from conformance.reference.array import PARALLEL_MIN_CHUNKS, _threads

        fmt = get_format(request["format"])
        path = fmt.normalize_path(request["path"])
        spec, write = request["store"], request["operation"] == "write"
        if spec["kind"] == "memory":
            store = MemoryStore(None if write else files_of(request["source"]))
        else:
            store = open_request_store(spec, "w" if write else "r")
        settings = {
            "threads": _threads(),
            "parallel_min_chunks": PARALLEL_MIN_CHUNKS,
            "write_empty_chunks": True,
            "store": type(store).__name__,
        }
        try:
            if write:
                array = fmt.create_array(store, path, request["metadata"], {})
                data = load_data(request["data"])
                with OperationTimer() as timer:
                    array.write(None, data)
                if spec["kind"] == "memory" and request.get("dump"):
                    for key, value in store.data.items():
                        write_file(request["dump"], key, value)
                return {**timer.result(), "settings": settings}
            array = fmt.open_node(store, path)
            regions = request.get("regions")
            with OperationTimer() as timer:
                if regions is None:
                    out = array.read()
                else:
                    out = [array.read(tuple(slice(a, b) for a, b in region)) for region in regions]
            out = out if regions is None else np.stack(out)
            return {
                **timer.result(),
                "data": save_data(request["output"], out),
                "settings": settings,
            }
        finally:
            store.close()


def array_api(node) -> dict:
    """What the reference's Array object reports: shape, dtype, chunk shape (the chunk grid's:
    the shard shape when sharded), the exact fill value, and (v3) dimension names."""
    dtype = np.dtype(node.dtype)
    fill = node.fill_value  # a 0-d array with the exact fill bits, or None (undefined)
    if fill is None or dtype.hasobject:
        fill_value = {"value": json_value(None if fill is None else np.asarray(fill)[()])}
    else:
        fill_value = {
            "bytes": np.asarray(fill, dtype=dtype).astype(dtype.newbyteorder("<")).tobytes().hex()
        }
    api = {
        "shape": list(node.shape),
        "dtype": api_dtype(dtype),  # its spelling of ml_dtypes types is opaque V<n>
        "chunk_shape": list(node.chunks),
        "fill_value": fill_value,
    }
    if hasattr(node, "dimension_names"):  # v3 arrays only
        names = node.dimension_names
        api["dimension_names"] = None if names is None else list(names)
    return api


def validate_model(document, format: str, schema: str) -> dict:
    """A model document judged by a ZEP 6 JSON Schema ("fixed": ours, which the reference's models
    must agree with; "zep6-original": the ZEP's own, defects included)."""
    from conformance.reference import zom
    from conformance.reference.errors import ZarrError
    from conformance.reference.zom.schema import schema_name

    version = {"v2": 2, "v3": 3}.get(format)
    if version is None:
        raise ValueError(f"ZEP 6 models exist for v2 and v3, not {format!r}")
    try:
        findings = [
            {"path": "", "message": m}
            for m in zom.schema_errors(document, schema_name(schema, version))
        ]
    except ZarrError as exc:
        findings = [finding("", exc)]
    if schema == "fixed" and not findings:
        try:
            zom.from_json(document, version)
        except ZarrError as exc:
            findings.append(finding("", exc))
    return {"valid": not findings, "findings": findings}


def walk(store, fmt, path: str) -> dict[str, str]:
    """Every node at and below `path`: path -> 'array' | 'group'."""
    node = fmt.open_node(store, path)
    nodes = {path: node.kind}
    if node.kind == "group":
        for name in node.children():
            child = f"{path}/{name}" if path else name
            nodes.update(walk(store, fmt, child))
    return nodes


def finding(path: str, exc) -> dict:
    return {
        "path": path,
        "reason": exc.reason,
        "requirement": exc.requirement,
        "message": exc.message,
    }
