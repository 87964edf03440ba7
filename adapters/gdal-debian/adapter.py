"""Adapter for GDAL's Zarr driver through its multidimensional API (`osgeo.gdal`).

This folder drives whatever `osgeo.gdal` the interpreter named in adapter.toml imports: for
gdal-debian that is Debian bookworm's python3-gdal (GDAL 3.6.2, numpy 1.24) under /usr/bin/python3.

Reads: `gdal.OpenEx(<folder>, gdal.OF_MULTIDIM_RASTER)` and its root group. v2 has no fixed root,
so a v2 node is opened at its own folder (`<store>/<path>`); the v3 layouts are opened at the store
root and the node is found through GDAL's own hierarchy (`OpenGroupFromFullname`, the parent
group's `GetGroupNames` / `OpenMDArray`). GDAL shows an array stored at the folder it opened as
the only array of a root group it makes up, named after the folder; the adapter therefore looks at
that folder's metadata document only to know whether the node is an array (v2 `.zarray`, the
early-2022 draft's `meta/root.array.json`, v3 `zarr.json` with `node_type` "array") and then asks
GDAL for that array by its GDAL name. What a read reports comes from GDAL's objects: the data as GDAL returns
it (`ReadAsArray`, `Read` for strings and compound types: GDAL widens the data types it has no type
for, e.g. bool to Byte, int8 to Int16 before 3.7, float16 to Float32; the adapter never repairs
that), `attributes` (`GetAttributes`, each `Read()`; GDAL moves some of them into its own API, e.g.
`_ARRAY_DIMENSIONS`, units, scale_factor, add_offset), group `members` (`GetGroupNames`,
`GetMDArrayNames`) and, for arrays, `api`: shape (`GetDimensions` sizes), dtype (GDAL's
extended data type as numpy), chunk_shape (`GetBlockSize`), fill_value (`GetNoDataValueAsRaw`, the
raw bytes of the value in GDAL's data type; no nodata is a null fill). `dimension_names` is left
out: GDAL always names dimensions (made-up `dim0`... when the store has none), so its API cannot
tell an unnamed dimension from one named so. `metadata` is the raw document, for the record only.

Writes: `gdal.GetDriverByName("Zarr").CreateMultiDimensional(<store>, options=["FORMAT=ZARR_V2"
| "ZARR_V3"])` (GDAL wants a path that does not exist yet, so the empty store folder the harness
gives is removed first; GDAL always writes a root group), groups with `CreateGroup`, the array with
`CreateDimension` + `CreateMDArray` and the creation options GDAL documents for its Zarr driver
(BLOCKSIZE, COMPRESS and its parameters, FILTER=DELTA, CHUNK_MEMORY_LAYOUT, DIM_SEPARATOR,
STRING_FORMAT), the fill with `SetNoDataValueRaw`, attributes with `CreateAttribute`, the data with
`Write`. A request GDAL's API cannot express (a data type GDAL has no type for, a big-endian type, a
codec or filter GDAL cannot write, an array at the store root) is answered `Unsupported`, each
answer declared in adapter.toml.

Errors: `gdal.UseExceptions()`; GDAL raises RuntimeError with the message of its last CPLError.
Every call into GDAL goes through `call()`, which marks what comes out as the implementation's
(`adapter_api.from_implementation`) and puts GDAL's error class in front of the message
(`CPLE_OpenFailed: ...`, from `gdal.GetLastErrorNo()`), so that adapter.toml `[[errors]]` can
classify by error class. A GDAL call that fails without raising (returns None) is reported as
`GDALError` with GDAL's last error message, if any.
"""

from __future__ import annotations

import base64
import json
import math
import os
import sys
from urllib.parse import urlsplit

import numpy as np
from osgeo import gdal

from conformance.harness.adapter_api import (
    OperationTimer,
    Unsupported,
    files_of,
    from_implementation,
    json_value,
    load_data,
    save_data,
    write_file,
)

gdal.UseExceptions()
try:
    from osgeo import gdal_array
except ImportError:  # built without numpy support: ReadAsArray would fail, say so at describe
    gdal_array = None

FORMATS = {"v2": "ZARR_V2", "v3": "ZARR_V3", "v3-draft": "ZARR_V3"}
GDAL_VERSION = gdal.VersionInfo("VERSION_NUM")
GDAL_NUM = int(GDAL_VERSION)
# GDAL 3.8 replaced the early-2022 draft (zarr.json entry point + meta/root/...) by Zarr 3.0.
V3_IS_FINAL = GDAL_NUM >= 3080000

CPLE = {
    0: "CPLE_None",
    1: "CPLE_AppDefined",
    2: "CPLE_OutOfMemory",
    3: "CPLE_FileIO",
    4: "CPLE_OpenFailed",
    5: "CPLE_IllegalArg",
    6: "CPLE_NotSupported",
    7: "CPLE_AssertionFailed",
    8: "CPLE_NoWriteAccess",
    9: "CPLE_UserInterrupt",
    10: "CPLE_ObjectNull",
    11: "CPLE_HttpResponse",
    12: "CPLE_AWSBucketNotFound",
    13: "CPLE_AWSObjectNotFound",
    14: "CPLE_AWSAccessDenied",
    15: "CPLE_AWSInvalidCredentials",
    16: "CPLE_AWSSignatureDoesNotMatch",
    17: "CPLE_AWSError",
}


# BLOSC_SHUFFLE by the names GDAL documents for the numcodecs values 0, 1, 2
BLOSC_SHUFFLES = {0: "NONE", 1: "BYTE", 2: "BIT"}


class GDALError(Exception):
    """A GDAL call that failed without raising: it returned None (or False)."""


def cple_name() -> str:
    number = gdal.GetLastErrorNo()
    return CPLE.get(number, f"CPLE_{number}")


def call(function, *args, **kwargs):
    """Call into GDAL. A RuntimeError out of it is GDAL's own: passed on (same object), its message
    led by GDAL's error class, and marked as the implementation's."""
    gdal.ErrorReset()
    try:
        return function(*args, **kwargs)
    except RuntimeError as exc:
        message = str(exc)
        exc.args = (f"{cple_name()}: {message}",)
        from_implementation(exc)  # marked as GDAL's own, then re-raised
        raise


def call_non_null(what: str, function, *args, **kwargs):
    """call(), and a None result (GDAL failed without an exception) as a GDALError carrying GDAL's
    last error, marked as the implementation's."""
    result = call(function, *args, **kwargs)
    if result is None:
        last = gdal.GetLastErrorMsg()
        exc = GDALError(
            f"{cple_name()}: {what} returned None"
            + (f": {last}" if last else " (no error message)")
        )
        raise from_implementation(exc)
    return result


def node_path(raw: str | None) -> str:
    return (raw or "").strip("/")


def refuse_logical_path(path: str) -> None:
    """GDAL addresses Zarr nodes by folder (reads) or by one name per level (writes); it has no
    logical Zarr path of its own. A path with empty, "." or ".." segments or a backslash would be
    resolved by the operating system or by this adapter, never by GDAL: unsupported."""
    if path and any(part in ("", ".", "..") or "\\" in part for part in path.split("/")):
        raise Unsupported(
            f"GDAL's multidimensional API creates groups and arrays by name, one level at a time, "
            f"and opens folders by file-system path: it has no logical path to normalise ({path!r})"
        )


def gdal_format(request: dict) -> str:
    fmt = request.get("format")
    if fmt not in FORMATS:
        raise Unsupported(f"GDAL's Zarr driver does not implement format {fmt!r}")
    if fmt == "v3" and not V3_IS_FINAL:
        raise Unsupported(
            f"GDAL {gdal.__version__} implements the early-2022 v3 draft, not Zarr 3.0 (format v3)"
        )
    if fmt == "v3-draft" and V3_IS_FINAL:
        raise Unsupported(
            f"GDAL {gdal.__version__} implements Zarr 3.0, not the v3 drafts (format v3-draft)"
        )
    return FORMATS[fmt]


def dataset_name(store: dict) -> str:
    kind, location = store.get("kind"), store.get("location")
    if kind == "directory":
        return location
    if kind == "zip":
        return "/vsizip/" + location
    if kind == "url" and location.startswith(("http://", "https://")):
        return "/vsicurl/" + location
    if kind == "url" and location.startswith("s3://"):
        configure_s3(store.get("storage_options") or {})
        return "/vsis3/" + location[len("s3://") :]
    raise Unsupported(f"store kind {kind!r} {location!r}")


def configure_s3(options: dict) -> None:
    """GDAL's /vsis3/ settings for the protocol's storage_options (adapters/README.md): a custom
    endpoint as host:port with AWS_HTTPS and path-style requests, region and credentials."""
    endpoint = options.get("endpoint_url")
    if endpoint:
        parts = urlsplit(endpoint)
        gdal.SetConfigOption("AWS_S3_ENDPOINT", parts.netloc)
        gdal.SetConfigOption("AWS_HTTPS", "YES" if parts.scheme == "https" else "NO")
        gdal.SetConfigOption("AWS_VIRTUAL_HOSTING", "FALSE")
    if options.get("region"):
        gdal.SetConfigOption("AWS_REGION", options["region"])
    if options.get("anon"):
        gdal.SetConfigOption("AWS_NO_SIGN_REQUEST", "YES")
    elif options.get("key"):
        gdal.SetConfigOption("AWS_ACCESS_KEY_ID", options["key"])
        gdal.SetConfigOption("AWS_SECRET_ACCESS_KEY", options.get("secret", ""))


def lists(store: dict) -> bool:
    """Can the store be listed? Plain HTTP cannot (GDAL's /vsicurl/ finds no directory index):
    group members are then reported as unknown (null)."""
    return not (
        store.get("kind") == "url" and store["location"].startswith(("http://", "https://"))
    )


# ---- the raw documents (for the record, and to tell a root array) -----------------------------------


def read_bytes(name: str) -> bytes | None:
    """A file of the store through GDAL's virtual file system (works for /vsizip/ too)."""
    if gdal.VSIStatL(name) is None:
        return None
    handle = gdal.VSIFOpenL(name, "rb")
    if handle is None:
        return None
    try:
        chunks = []
        while True:
            chunk = gdal.VSIFReadL(1, 1 << 20, handle)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        gdal.VSIFCloseL(handle)


def raw_document(name: str):
    """The JSON object stored at `name`, or None if absent, not JSON or not an object (never raises: the
    adapter's own parse must not pass for a refusal by GDAL)."""
    try:
        data = read_bytes(name)
        document = None if data is None else json.loads(data)
    except (ValueError, RuntimeError):
        return None
    return document if isinstance(document, dict) else None


def metadata_keys(fmt: str, path: str) -> tuple[str, str]:
    """(array document key, group document key) of the node at `path` for the format."""
    if fmt == "v2":
        prefix = f"{path}/" if path else ""
        return prefix + ".zarray", prefix + ".zgroup"
    if fmt == "v3-draft":
        return (
            (f"meta/root/{path}.array.json", f"meta/root/{path}.group.json")
            if path
            else ("meta/root.array.json", "meta/root.group.json")
        )
    key = f"{path}/zarr.json" if path else "zarr.json"
    return key, key


def root_is_array(base: str, fmt: str) -> bool:
    """Is the node at the store root an array by its stored document? (Routing only: GDAL shows a
    root array as a member of a made-up root group.)"""
    array_key, _ = metadata_keys(fmt, "")
    if fmt == "v3":
        doc = raw_document(f"{base}/{array_key}")
        return isinstance(doc, dict) and doc.get("node_type") == "array"
    return gdal.VSIStatL(f"{base}/{array_key}") is not None


# ---- data types -------------------------------------------------------------------------------

NUMERIC = {
    gdal.GDT_Byte: "u1",
    gdal.GDT_UInt16: "<u2",
    gdal.GDT_Int16: "<i2",
    gdal.GDT_UInt32: "<u4",
    gdal.GDT_Int32: "<i4",
    gdal.GDT_Float32: "<f4",
    gdal.GDT_Float64: "<f8",
    gdal.GDT_CInt16: None,
    gdal.GDT_CInt32: None,
    gdal.GDT_CFloat32: "<c8",
    gdal.GDT_CFloat64: "<c16",
}
for _name, _np in (
    ("GDT_UInt64", "<u8"),
    ("GDT_Int64", "<i8"),
    ("GDT_Int8", "i1"),
    ("GDT_Float16", "<f2"),
):
    if hasattr(gdal, _name):
        NUMERIC[getattr(gdal, _name)] = _np


def numpy_dtype(edt) -> np.dtype:
    """GDAL's extended data type as numpy (little-endian: GDAL hands data over in native order)."""
    cls = edt.GetClass()
    if cls == gdal.GEDTC_STRING:
        return np.dtype(object)
    if cls == gdal.GEDTC_COMPOUND:
        names, formats, offsets = [], [], []
        for component in edt.GetComponents():
            name = component.GetName()
            while name in names:  # GDAL lets two components share a name; numpy cannot
                name += "#"
            names.append(name)
            formats.append(numpy_dtype(component.GetType()))
            offsets.append(component.GetOffset())
        return np.dtype(
            {"names": names, "formats": formats, "offsets": offsets, "itemsize": edt.GetSize()}
        )
    code = edt.GetNumericDataType()
    if NUMERIC.get(code):
        return np.dtype(NUMERIC[code])
    if gdal_array is not None:
        return np.dtype(gdal_array.GDALTypeCodeToNumericTypeCode(code))
    raise ValueError(f"no numpy type for GDAL data type {gdal.GetDataTypeName(code)}")


def packed(dtype: np.dtype) -> np.dtype:
    """A compound type with its fields packed in order (GDAL pads its components to alignment)."""
    if not dtype.fields:
        return dtype
    return np.dtype([(name, packed(dtype.fields[name][0])) for name in dtype.names])


def api_dtype(dtype: np.dtype):
    return (
        "|O" if dtype.hasobject else json_value(packed(dtype).descr) if dtype.fields else dtype.str
    )


# ---- reading ----------------------------------------------------------------------------------


def read_attributes(node) -> dict:
    """GDAL's attributes of a group or array, each as its Read() gives it (JSON-typed string
    attributes come back parsed; numeric arrays as tuples, turned into lists)."""
    out = {}
    for attribute in call(node.GetAttributes) or []:
        out[attribute.GetName()] = json_value(call(attribute.Read))
    return out


def read_data(array, dtype: np.dtype, shape: list[int]) -> np.ndarray:
    if dtype.hasobject:  # strings: Read() gives a flat list
        values = call(array.Read)
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out.reshape(shape)
    if dtype.fields:  # compound: Read() gives GDAL's in-memory layout (the component offsets above)
        raw = call(array.Read)
        as_gdal = np.frombuffer(bytes(raw), dtype=dtype).reshape(shape)
        # the same values, fields packed (GDAL aligns its components; layout, not data)
        return as_gdal.astype(packed(dtype))
    data = call(array.ReadAsArray)
    if data is None:
        raise from_implementation(
            GDALError(f"{cple_name()}: ReadAsArray returned None: {gdal.GetLastErrorMsg()}")
        )
    return np.asarray(data)


def fill_value(array, dtype: np.dtype) -> dict | None:
    """What GDAL reports as the array's nodata value (None: the API cannot say)."""
    if dtype.hasobject:
        getter = getattr(array, "GetNoDataValueAsString", None)
        # a str, or bytes where GDAL's string is not UTF-8 (as latin-1 text, like data values)
        return {"value": json_value(call(getter))} if getter is not None else None
    raw = call(array.GetNoDataValueAsRaw)
    if raw is None:
        return {"value": None}
    if dtype.fields:  # GDAL's aligned component layout: the same value, fields packed
        return {
            "bytes": np.frombuffer(bytes(raw), dtype=dtype).astype(packed(dtype)).tobytes().hex()
        }
    return {"bytes": bytes(raw).hex()}


class Adapter:
    def describe(self, request: dict | None = None) -> dict:
        versions = {
            "gdal": gdal.__version__,
            "gdal_release": gdal.VersionInfo("RELEASE_NAME"),
            "numpy": np.__version__,
            "python": sys.version.split()[0],
        }
        driver = gdal.GetDriverByName("Zarr")
        compressors = (driver.GetMetadataItem("COMPRESSORS") or "") if driver is not None else ""
        return {
            "name": os.path.basename(os.path.dirname(os.path.abspath(__file__))),
            "version": gdal.__version__,
            "versions": versions,
            "settings": {
                "zarr_driver": driver is not None,
                "compressors": compressors,
                "blosc_compressors": (driver.GetMetadataItem("BLOSC_COMPRESSORS") or "")
                if driver
                else "",
                "filters": (driver.GetMetadataItem("FILTERS") or "") if driver else "",
            },
        }

    # -- opening ----------------------------------------------------------------------------------
    def _open(self, request: dict, node_key: str = "node"):
        fmt = request.get("format")
        gdal_format(request)
        base = dataset_name(request["store"])
        path = node_path(request.get(node_key))
        refuse_logical_path(path)
        if fmt == "v3-draft":
            require_zp2_store(base)
        # v2 has no fixed root: every node is a folder that GDAL opens on its own (a store need not
        # have a root .zgroup). The v3 layouts are opened at the store root and walked.
        at = f"{base}/{path}" if fmt == "v2" and path else base
        dataset = call_non_null(
            "gdal.OpenEx",
            gdal.OpenEx,
            # /vsicurl/ cannot tell that a URL without a directory index is a folder: the ZARR:
            # prefix names the driver, which then asks for the metadata keys below it.
            f'ZARR:"{at}"' if at.startswith("/vsicurl/") else at,
            gdal.OF_MULTIDIM_RASTER | gdal.OF_VERBOSE_ERROR,
            allowed_drivers=["Zarr"],
        )
        root = call_non_null("GetRootGroup", dataset.GetRootGroup)
        if not path or fmt == "v2":
            if root_is_array(at, fmt):
                name = os.path.basename(at.rstrip("/"))
                names = call(root.GetMDArrayNames) or []
                if name not in names and len(names) == 1:
                    name = names[0]
                return (
                    dataset,
                    "array",
                    call_non_null(f"OpenMDArray({name!r})", root.OpenMDArray, name),
                    path,
                    base,
                    fmt,
                )
            return dataset, "group", root, path, base, fmt
        parent_path, _, name = path.rpartition("/")
        parent = (
            root
            if not parent_path
            else call_non_null(
                f"OpenGroupFromFullname('/{parent_path}')",
                root.OpenGroupFromFullname,
                "/" + parent_path,
            )
        )
        if name in (call(parent.GetGroupNames) or []):
            return (
                dataset,
                "group",
                call_non_null(f"OpenGroup({name!r})", parent.OpenGroup, name),
                path,
                base,
                fmt,
            )
        if not lists(request["store"]):
            # Over plain HTTP GDAL lists no members: ask for the group by name (GDAL then reads its
            # metadata document); if there is none, the node is opened as an array below.
            gdal.ErrorReset()
            try:
                group = parent.OpenGroup(name)
            except RuntimeError:
                group = None
            if group is not None:
                return dataset, "group", group, path, base, fmt
        return (
            dataset,
            "array",
            call_non_null(f"OpenMDArray({name!r})", parent.OpenMDArray, name),
            path,
            base,
            fmt,
        )

    # -- read -------------------------------------------------------------------------------------
    def read(self, request: dict) -> dict:
        _dataset, kind, node, path, base, fmt = self._open(request)  # node lives as long as it
        array_key, group_key = metadata_keys(fmt, path)
        if kind == "group":
            members = {name: "group" for name in call(node.GetGroupNames) or []}
            members.update({name: "array" for name in call(node.GetMDArrayNames) or []})
            return {
                "node_type": "group",
                "metadata": raw_document(f"{base}/{group_key}"),
                "attributes": read_attributes(node),
                "members": members if lists(request["store"]) else None,
            }
        edt = call(node.GetDataType)
        dtype = numpy_dtype(edt)
        shape = [int(call(d.GetSize)) for d in call(node.GetDimensions) or []]
        data = read_data(node, dtype, shape)
        api = {
            "shape": shape,
            "dtype": api_dtype(dtype),
            "chunk_shape": [int(b) for b in call(node.GetBlockSize) or []],
        }
        fill = fill_value(node, dtype)
        if fill is not None:
            api["fill_value"] = fill
        attributes = read_attributes(node)
        written = save_data(request["output"], data)
        return {
            "node_type": "array",
            "metadata": raw_document(f"{base}/{array_key}"),
            "attributes": attributes,
            "api": api,
            "data": written,
            "shape": list(data.shape),
            "dtype": "|O" if data.dtype.hasobject else data.dtype.str,
        }

    # -- list -------------------------------------------------------------------------------------
    def list(self, request: dict) -> dict:
        _dataset, kind, node, path, _base, _fmt = self._open(request)  # node lives as long as it
        nodes = {path: kind}
        if kind == "group":
            self._walk(node, f"{path}/" if path else "", nodes)
        return {"nodes": nodes}

    def _walk(self, group, prefix: str, nodes: dict) -> None:
        for name in call(group.GetMDArrayNames) or []:
            nodes[prefix + name] = "array"
        for name in call(group.GetGroupNames) or []:
            nodes[prefix + name] = "group"
            self._walk(
                call_non_null(f"OpenGroup({name!r})", group.OpenGroup, name),
                f"{prefix}{name}/",
                nodes,
            )

    # -- write ------------------------------------------------------------------------------------
    def write(self, request: dict) -> dict:
        dataset, array, plan = self._create(request)
        try:
            if array is not None and request.get("data") is not None:
                plan.write_data(array, load_data(request["data"]))
        finally:
            del array, dataset  # releasing the dataset closes it: GDAL writes what it holds
        return {}

    def _create(self, request: dict):
        """(dataset, array or None, plan): the requested node created (groups, attributes, the
        array and its fill value), its data not yet written. Closing the dataset writes it."""
        fmt = request.get("format")
        option = gdal_format(request)
        path = node_path(request.get("path"))
        is_array = request.get("node_type") != "group"
        refuse_logical_path(path)
        if is_array and not path:
            raise Unsupported(
                "GDAL's Zarr writer always writes a root group: it cannot write an array at the store root"
            )
        document = dict(request.get("metadata") or {}) if is_array else {}
        if fmt == "v3-draft":
            require_zp2_document(document if is_array else None)
        plan = (
            ArrayPlan(fmt, document) if is_array else None
        )  # refuses what GDAL cannot express, before writing
        store = request["store"]
        if store.get("kind") != "directory":
            raise Unsupported(
                f"store kind {store.get('kind')!r}: the adapter writes directories only"
            )
        location = store["location"]
        if os.path.isdir(location) and not os.listdir(location):
            os.rmdir(
                location
            )  # GDAL creates the dataset's folder itself and refuses an existing one
        driver = call_non_null('GetDriverByName("Zarr")', gdal.GetDriverByName, "Zarr")
        options = [f"FORMAT={option}"] + (["CREATE_ZMETADATA=NO"] if fmt == "v2" else [])
        dataset = call_non_null(
            "CreateMultiDimensional", driver.CreateMultiDimensional, location, options=options
        )
        group = call_non_null("GetRootGroup", dataset.GetRootGroup)
        parts = path.split("/") if path else []
        for part in parts[:-1] if is_array else parts:
            group = call_non_null(f"CreateGroup({part!r})", group.CreateGroup, part)
        attributes = request.get("attributes") or {}
        if not is_array:
            write_attributes(group, attributes)
            return dataset, None, None
        array = plan.create(group, parts[-1])
        write_attributes(array, attributes)
        return dataset, array, plan

    # -- bench (conformance/bench): one timed write or read -----------------------------------------
    def bench(self, request: dict) -> dict:
        """A memory store is GDAL's own in-memory file system, /vsimem/ (filled from `source`
        before a read, copied out to `dump` after a write, untimed). A write is timed from
        MDArray.Write until the dataset is closed: GDAL keeps chunks in its cache and writes them
        when the array and the dataset are released."""
        spec = request["store"]
        memory = spec.get("kind") == "memory"
        root = f"/vsimem/zarr-conformance-bench-{os.getpid()}-{request.get('id')}"
        if memory and request["operation"] == "read":
            gdal.Mkdir(root, 0o755)  # /vsimem/ folders exist only when made
            for key, value in sorted(files_of(request["source"]).items()):
                parts = key.split("/")
                for i in range(1, len(parts)):
                    gdal.Mkdir(f"{root}/{'/'.join(parts[:i])}", 0o755)
                gdal.FileFromMemBuffer(f"{root}/{key}", value)
        local = dict(request, store={"kind": "directory", "location": root}) if memory else request
        settings = {
            "store": "/vsimem/ (GDAL's in-memory file system)" if memory else "directory",
            "GDAL_NUM_THREADS": gdal.GetConfigOption("GDAL_NUM_THREADS"),
            "GDAL_CACHEMAX_bytes": gdal.GetCacheMax(),
            "BLOSC_NUM_THREADS": "1 (the creation option's default)",
        }
        try:
            if request["operation"] == "write":
                dataset, array, plan = self._create(dict(local, node_type="array"))
                data = load_data(request["data"])
                with OperationTimer() as timer:
                    plan.write_data(array, data)
                    del array, dataset  # the chunks are written when the dataset closes
                if memory and request.get("dump"):
                    for key in gdal.ReadDirRecursive(root) or []:
                        if not key.endswith("/"):  # folders end with a slash
                            write_file(request["dump"], key, read_bytes(f"{root}/{key}") or b"")
                return {**timer.result(), "settings": settings}
            _dataset, kind, node, _path, _base, _fmt = self._open(dict(local, node=""))
            if kind != "array":
                raise GDALError("GDAL opened the bench store as a group")
            shape = [int(call(d.GetSize)) for d in call(node.GetDimensions) or []]
            regions = request.get("regions")
            with OperationTimer() as timer:
                if regions is None:
                    out = read_data(node, numpy_dtype(call(node.GetDataType)), shape)
                else:
                    out = [
                        call(
                            node.ReadAsArray,
                            array_start_idx=[a for a, _ in region],
                            count=[b - a for a, b in region],
                        )
                        for region in regions
                    ]
            out = out if regions is None else np.stack(out)
            return {
                **timer.result(),
                "data": save_data(request["output"], out),
                "settings": settings,
            }
        finally:
            if memory:
                gdal.RmdirRecursive(root)


ZP2_PROTOCOL = "https://purl.org/zarr/spec/protocol/core/"


def require_zp2_store(base: str) -> None:
    """Format v3-draft covers two drafts; GDAL before 3.8 implements only the early-2022 one. A
    store whose entry point names the seed-002 core (".../spec/core/3.0") is unsupported."""
    entry = raw_document(f"{base}/zarr.json")
    if (
        isinstance(entry, dict)
        and isinstance(entry.get("zarr_format"), str)
        and not entry["zarr_format"].startswith(ZP2_PROTOCOL)
    ):
        raise Unsupported(
            f"GDAL {gdal.__version__} implements the early-2022 v3 draft (protocol/core/3.0), "
            f"not the layout of entry point {entry['zarr_format']!r}"
        )


def require_zp2_document(document: dict | None) -> None:
    """GDAL before 3.8 writes the early-2022 draft (zarr.json entry point, meta/root/...). Format
    v3-draft also names the seed-002 draft: only an array document that is recognisably early-2022
    (a `compressor` member, or a typestr data type such as "<f8") is written; a group, or a
    document of the other draft, is unsupported rather than written in the wrong layout."""
    import re

    document = document or {}
    data_type = document.get("data_type")
    typestr = isinstance(data_type, str) and re.fullmatch(r"[<>|][biufcmMSUV]\d+|[iu]1", data_type)
    if "codecs" in document or not (typestr or "compressor" in document):
        raise Unsupported(
            "GDAL writes only the early-2022 v3 draft; this request may be for the seed-002 layout"
        )


# ---- writing ------------------------------------------------------------------------------------

GDT_OF = {
    "u1": "GDT_Byte",
    "u2": "GDT_UInt16",
    "i2": "GDT_Int16",
    "u4": "GDT_UInt32",
    "i4": "GDT_Int32",
    "u8": "GDT_UInt64",
    "i8": "GDT_Int64",
    "f4": "GDT_Float32",
    "f8": "GDT_Float64",
    "c8": "GDT_CFloat32",
    "c16": "GDT_CFloat64",
    "i1": "GDT_Int8",
    "f2": "GDT_Float16",
}
V3_NAMES = {
    "bool": "|b1",
    "int8": "|i1",
    "int16": "<i2",
    "int32": "<i4",
    "int64": "<i8",
    "uint8": "|u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "uint64": "<u8",
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "complex64": "<c8",
    "complex128": "<c16",
}


def refuse(what: str):
    raise Unsupported(f"GDAL's Zarr writer cannot express {what}")


def decode_fill(value, dtype: np.dtype):
    """The requested fill as a numpy scalar of `dtype` (None: null)."""
    if value is None:
        return None
    if dtype.kind in "SV" and isinstance(value, str):
        return np.frombuffer(base64.b64decode(value), dtype=dtype)[0]
    if dtype.kind in "fc" and isinstance(value, str):
        if value.startswith("0x"):
            return np.frombuffer(
                int(value, 16).to_bytes(dtype.itemsize, "big"), dtype=dtype.newbyteorder(">")
            )[0]
        return np.asarray(
            {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[value], dtype=dtype
        )[()]
    if dtype.kind == "c" and isinstance(value, list):
        parts = [decode_fill(v, np.dtype(f"<f{dtype.itemsize // 2}")) for v in value]
        return np.asarray(complex(parts[0], parts[1]), dtype=dtype)[()]
    return np.asarray(value, dtype=dtype)[()]


class ArrayPlan:
    """The GDAL calls for a requested array document; refuses (Unsupported) what GDAL cannot express."""

    def __init__(self, fmt: str, document: dict):
        self.fmt = fmt
        self.options: list[str] = []
        if fmt == "v2":
            self.shape = list(document["shape"])
            self.chunks = list(document["chunks"])
            dtype_spec = document["dtype"]
            self._compressor(document.get("compressor"))
            self._filters(document.get("filters"), dtype_spec)
            if document.get("order", "C") == "F":
                self.options.append("CHUNK_MEMORY_LAYOUT=F")
            separator = document.get("dimension_separator")
            if separator not in (None, "."):
                self.options.append(f"DIM_SEPARATOR={separator}")
            self.dimension_names = None
        else:  # the early-2022 draft (GDAL < 3.8) or 3.0
            self.shape = list(document["shape"])
            grid = document.get("chunk_grid") or {}
            if fmt == "v3-draft":
                self.chunks = list(grid["chunk_shape"])
                if grid.get("separator", "/") != "/":
                    self.options.append(f"DIM_SEPARATOR={grid['separator']}")
                if document.get("chunk_memory_layout", "C") == "F":
                    self.options.append("CHUNK_MEMORY_LAYOUT=F")
                if document.get("storage_transformers"):
                    refuse("storage transformers")
                self._v3_draft_compressor(document.get("compressor"))
            else:
                self._v3_final(document)
            dtype_spec = document["data_type"]
            self.dimension_names = document.get("dimension_names")
        self.dtype = self._dtype(dtype_spec)
        self.options.append("BLOCKSIZE=" + ",".join(str(c) for c in self.chunks))
        self.fill = decode_fill(document.get("fill_value"), self.dtype)

    def _dtype(self, spec) -> np.dtype:
        if isinstance(spec, list):  # GDAL has compound types; this adapter does not build them
            raise Unsupported(
                "the adapter does not drive GDAL's compound data type creation "
                "(ExtendedDataType.CreateCompound): structured writes are not tested"
            )
        if not isinstance(spec, str):
            refuse(f"data type {spec!r}")
        spec = V3_NAMES.get(spec, spec)
        dtype = np.dtype(spec)
        if dtype.kind == "b":
            refuse("bool (GDAL has no boolean data type)")
        if dtype.kind in "SU":
            self.options.append("STRING_FORMAT=" + ("STRING" if dtype.kind == "S" else "UNICODE"))
            return dtype
        if dtype.kind not in "iufc":
            refuse(f"data type {spec!r}")
        if dtype.byteorder == ">" and dtype.itemsize > 1:
            refuse(f"big-endian data type {spec!r} (GDAL writes native little-endian)")
        key = dtype.kind + str(dtype.itemsize)
        if key not in GDT_OF or not hasattr(gdal, GDT_OF[key]):
            refuse(f"data type {spec!r} (GDAL {gdal.__version__} has no such data type)")
        return dtype.newbyteorder("<")

    def _compressor(self, compressor) -> None:
        if compressor is None:
            return
        cid = compressor.get("id")
        if cid == "blosc":
            shuffle = compressor.get("shuffle", 1)
            self.options += [
                "COMPRESS=BLOSC",
                f"BLOSC_CNAME={compressor.get('cname', 'lz4')}",
                f"BLOSC_CLEVEL={compressor.get('clevel', 5)}",
                # by name: GDAL 3.6 writes the numeric alias ("1") into .zarray as a string
                f"BLOSC_SHUFFLE={BLOSC_SHUFFLES.get(shuffle, shuffle)}",
                f"BLOSC_BLOCKSIZE={compressor.get('blocksize', 0)}",
            ]
        elif cid in ("zlib", "gzip"):
            self.options += [
                f"COMPRESS={cid.upper()}",
                f"{cid.upper()}_LEVEL={compressor.get('level', 6)}",
            ]
        elif cid == "zstd":
            self.options += ["COMPRESS=ZSTD", f"ZSTD_LEVEL={compressor.get('level', 13)}"]
        elif cid == "lz4":
            self.options += [
                "COMPRESS=LZ4",
                f"LZ4_ACCELERATION={compressor.get('acceleration', 1)}",
            ]
        elif (
            cid == "lzma" and compressor.get("format", 1) == 1 and compressor.get("filters") is None
        ):
            self.options += [
                "COMPRESS=LZMA",
                f"LZMA_PRESET={compressor.get('preset') if compressor.get('preset') is not None else 6}",
            ]
        else:
            refuse(f"compressor {json.dumps(compressor, sort_keys=True)}")

    def _filters(self, filters, dtype_spec) -> None:
        for item in filters or []:
            if (
                item.get("id") == "delta"
                and item.get("dtype") == dtype_spec
                and item.get("astype", dtype_spec) == dtype_spec
            ):
                self.options += ["FILTER=DELTA", f"DELTA_DTYPE={item['dtype']}"]
            else:
                refuse(f"filter {json.dumps(item, sort_keys=True)}")
        if len(filters or []) > 1:
            refuse("more than one filter")

    def _v3_draft_compressor(self, compressor) -> None:
        if compressor is None:
            return
        codec = str(compressor.get("codec", ""))
        config = compressor.get("configuration") or {}
        name = codec.rstrip("/").split("/")[-2] if codec.count("/") >= 2 else codec
        if name == "gzip":
            self.options += ["COMPRESS=GZIP", f"GZIP_LEVEL={config.get('level', 6)}"]
        elif name == "blosc":
            self.options += [
                "COMPRESS=BLOSC",
                f"BLOSC_CNAME={config.get('cname', 'lz4')}",
                f"BLOSC_CLEVEL={config.get('clevel', 5)}",
                f"BLOSC_SHUFFLE={BLOSC_SHUFFLES.get(config.get('shuffle', 1), config.get('shuffle'))}",
                f"BLOSC_BLOCKSIZE={config.get('blocksize', 0)}",
            ]
        else:
            refuse(f"compressor {json.dumps(compressor, sort_keys=True)}")

    def _v3_final(self, document: dict) -> None:
        grid = document.get("chunk_grid") or {}
        self.chunks = list((grid.get("configuration") or {}).get("chunk_shape") or [])
        encoding = document.get("chunk_key_encoding") or {}
        separator = (encoding.get("configuration") or {}).get(
            "separator", "/" if encoding.get("name") == "default" else "."
        )
        if encoding.get("name") == "v2":
            refuse("the v2 chunk key encoding")
        if separator != "/":
            self.options.append(f"DIM_SEPARATOR={separator}")
        codecs = list(document.get("codecs") or [])
        # transpose (F order), bytes little-endian, then one compressor
        if codecs and codecs[0].get("name") == "transpose":
            order = (codecs.pop(0).get("configuration") or {}).get("order")
            if order != list(range(len(self.shape)))[::-1]:
                refuse(f"transpose order {order!r}")
            self.options.append("CHUNK_MEMORY_LAYOUT=F")
        if not codecs or codecs[0].get("name") != "bytes":
            refuse(f"codecs {json.dumps(document.get('codecs'))}")
        endian = (codecs.pop(0).get("configuration") or {}).get("endian", "little")
        if endian != "little":
            refuse("the bytes codec with endian big")
        for codec in codecs:
            name, config = codec.get("name"), codec.get("configuration") or {}
            if name == "gzip":
                self.options += ["COMPRESS=GZIP", f"GZIP_LEVEL={config.get('level', 6)}"]
            elif name == "zstd":
                self.options += ["COMPRESS=ZSTD", f"ZSTD_LEVEL={config.get('level', 13)}"]
            elif name == "blosc":
                shuffle = {"noshuffle": "NONE", "shuffle": "BYTE", "bitshuffle": "BIT"}.get(
                    config.get("shuffle"), "BYTE"
                )
                self.options += [
                    "COMPRESS=BLOSC",
                    f"BLOSC_CNAME={config.get('cname', 'lz4')}",
                    f"BLOSC_CLEVEL={config.get('clevel', 5)}",
                    f"BLOSC_SHUFFLE={shuffle}",
                    f"BLOSC_BLOCKSIZE={config.get('blocksize', 0)}",
                ]
            else:
                refuse(f"codec {json.dumps(codec, sort_keys=True)}")
        if len(codecs) > 1:
            refuse("more than one bytes-to-bytes codec")
        if document.get("storage_transformers"):
            refuse("storage transformers")

    def _edt(self):
        if self.dtype.kind in "SU":
            length = self.dtype.itemsize if self.dtype.kind == "S" else self.dtype.itemsize // 4
            return gdal.ExtendedDataType.CreateString(length)
        return gdal.ExtendedDataType.Create(
            getattr(gdal, GDT_OF[self.dtype.kind + str(self.dtype.itemsize)])
        )

    def create(self, group, name: str):
        dimensions = []
        names = self.dimension_names or []
        for i, size in enumerate(self.shape):
            dim_name = names[i] if i < len(names) and names[i] else f"{name}_dim{i}"
            dimensions.append(
                call_non_null(
                    f"CreateDimension({dim_name!r})",
                    group.CreateDimension,
                    dim_name,
                    None,
                    None,
                    size,
                )
            )
        array = call_non_null(
            f"CreateMDArray({name!r})",
            group.CreateMDArray,
            name,
            dimensions,
            self._edt(),
            self.options,
        )
        if self.fill is not None:
            if self.dtype.kind in "SU":
                call(
                    array.SetNoDataValueString,
                    str(self.fill)
                    if self.dtype.kind == "U"
                    else bytes(self.fill).decode("latin-1"),
                )
            else:
                call(array.SetNoDataValueRaw, np.asarray(self.fill, dtype=self.dtype).tobytes())
        return array

    def write_data(self, array, data: np.ndarray) -> None:
        if self.dtype.kind in "SU":
            values = [
                v.decode("latin-1") if isinstance(v, bytes) else str(v)
                for v in np.asarray(data).reshape(-1).tolist()
            ]
            if not call(array.Write, values):
                raise from_implementation(
                    GDALError(f"{cple_name()}: Write returned False: {gdal.GetLastErrorMsg()}")
                )
            return
        data = np.ascontiguousarray(np.asarray(data).astype(self.dtype, copy=False))
        if data.size == 0:
            return
        ok = call(array.Write, data) if data.ndim else call(array.Write, data.tobytes())
        if ok is False:
            raise from_implementation(
                GDALError(f"{cple_name()}: Write returned False: {gdal.GetLastErrorMsg()}")
            )


def write_attributes(node, attributes: dict) -> None:
    """Each attribute with GDAL's attribute API: integers as Int32, or Int64 beyond its range, floats as Float64, strings as strings, anything else (bools, null, objects, lists
    that are not all numbers of one kind) as a JSON-typed string, which GDAL stores as JSON."""
    for key, value in attributes.items():
        if isinstance(value, bool) or value is None or isinstance(value, dict):
            edt, dims, payload = (
                gdal.ExtendedDataType.CreateString(0, gdal.GEDTST_JSON),
                [],
                json.dumps(value),
            )
        elif isinstance(value, int):
            gdt = (
                gdal.GDT_Int32
                if -(2**31) <= value < 2**31
                else getattr(gdal, "GDT_Int64", gdal.GDT_Float64)
            )
            edt, dims, payload = gdal.ExtendedDataType.Create(gdt), [], value
        elif isinstance(value, float):
            edt, dims, payload = gdal.ExtendedDataType.Create(gdal.GDT_Float64), [], value
        elif isinstance(value, str):
            edt, dims, payload = gdal.ExtendedDataType.CreateString(), [], value
        else:
            edt, dims, payload = (
                gdal.ExtendedDataType.CreateString(0, gdal.GEDTST_JSON),
                [],
                json.dumps(value),
            )
        attribute = call_non_null(f"CreateAttribute({key!r})", node.CreateAttribute, key, dims, edt)
        call(attribute.Write, payload)
