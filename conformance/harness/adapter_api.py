"""What adapter authors import: protocol constants, the array-file helpers and the dispatcher that
turns a request dict into a response dict around an adapter object.

A child process imports this module, so it uses only the standard library, numpy and
conformance.resources (standard library only; see adapters/README.md). It must never import
conformance.reference or conformance.corpus.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..resources import PACKAGE_DIR

if TYPE_CHECKING:  # numpy is imported only where an array is handled (a child may not need it)
    import numpy as np
    from numpy.typing import DTypeLike, NDArray

PROTOCOL = 1
OPS = ("describe", "read", "write", "update", "list", "validate", "zom", "bench", "shutdown")
# Code of this package counts as adapter code (the dispatcher, these helpers), except the
# reference implementation, which is the implementation under test of the reference adapter.
REFERENCE_DIR = PACKAGE_DIR / "reference"
# The attribute from_implementation sets on an exception (its origin, whatever its traceback says).
ORIGIN_MARK = "__zarr_conformance_origin__"
# The attribute `phase` sets on an exception leaving its block (the request phase it ended).
PHASE_MARK = "__zarr_conformance_phase__"
# The opcode of a `raise` statement (a re-raise keeps the frame where the exception began).
RAISE_OP = "RAISE_VARARGS"

Request = dict[str, Any]
Response = dict[str, Any]
# Where adapter code lives: one folder, several, or none known.
CodeDirs = str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None


class Unsupported(Exception):
    """Raise from an adapter method for a request outside what the adapter drives (e.g. a format
    the library does not implement). Recorded as `unsupported` only when adapter.toml declares
    the answer in [[errors]] (category "unsupported"); otherwise the harness records `errored`."""


class ProtocolError(Exception):
    """A request that breaks the protocol (unknown op, missing member)."""


# ---- array files ------------------------------------------------------------------------------


def load_data(path: str | os.PathLike[str]) -> NDArray[Any]:
    """The array in an array file: `.npy` (no pickles) or the `.json` form of object arrays."""
    import numpy as np

    path = os.fspath(path)
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        values = doc["values"]
        kind = doc.get("kind")
        arr = np.empty(len(values), dtype=object)
        for i, v in enumerate(values):
            if kind == "bytes" and isinstance(v, str):
                v = v.encode("latin-1")
            elif kind == "mixed" and isinstance(v, dict):
                v = v["bytes"].encode("latin-1")
            arr[i] = v
        return arr.reshape(doc["shape"])
    return np.load(path, allow_pickle=False)


def save_data(path: str | os.PathLike[str], array: Any) -> str:
    """Write `array` for the harness; returns the path written. Object arrays (variable-length
    strings or bytes) go to the same path with the suffix `.json` instead of `.npy`:
    {"shape", "kind", "values"}, values in C order; kind "string", "bytes" (bytes as latin-1 text)
    or "mixed" (bytes as {"bytes": latin-1 text}); None and numbers stay JSON null and numbers."""
    import numpy as np

    path = os.fspath(path)
    array = np.asarray(array)
    if array.dtype.hasobject:
        flat = array.reshape(-1).tolist()
        has_bytes = any(isinstance(v, (bytes, bytearray)) for v in flat)
        has_str = any(isinstance(v, str) for v in flat)
        kind = "mixed" if has_bytes and has_str else "bytes" if has_bytes else "string"
        values = [_json_value(v, kind) for v in flat]
        target = path[: -len(".npy")] + ".json" if path.endswith(".npy") else path + ".json"
        with open(target, "w", encoding="utf-8") as f:
            json.dump({"shape": list(array.shape), "kind": kind, "values": values}, f)
        return target
    np.save(path, _npy_safe(array), allow_pickle=False)
    return path


def _npy_safe(array: NDArray[Any]) -> NDArray[Any]:
    """ml_dtypes types (bfloat16, float8_*, int4, ...) as opaque V<n> of the same bits: .npy cannot
    name them (float8_e5m2 would be saved as the unloadable '<f1'). Sub-byte integers are made
    canonical first: their value is the low bits of the byte (int4 0xF3 is 3)."""
    import numpy as np

    opaque = _opaque_dtype(array.dtype)
    if opaque == array.dtype:
        return array
    if array.dtype.name in ("int2", "int4", "uint2", "uint4"):
        array = array.astype(np.int8).astype(array.dtype)
    return array.view(opaque)


def _opaque_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    import numpy as np

    if dtype.fields:
        return np.dtype([(n, _opaque_dtype(dtype.fields[n][0])) for n in dtype.names or ()])
    return np.dtype(f"V{dtype.itemsize}") if dtype.type.__module__ == "ml_dtypes" else dtype


def _json_value(value: Any, kind: str) -> Any:
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("latin-1")
        return {"bytes": text} if kind == "mixed" else text
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if hasattr(value, "item"):  # a NumPy scalar
        return value.item()
    raise TypeError(f"cannot put a {type(value).__name__} into an array file")


def region_index(region: list[Any]) -> tuple[int | slice, ...]:
    """An `update` write step's region as a NumPy-style index: an int selects one index (its
    dimension is dropped from the values' shape), [start, stop] a step-1 slice."""
    return tuple(r if isinstance(r, int) else slice(int(r[0]), int(r[1])) for r in region)


def step_values(path: str | os.PathLike[str]) -> Any:
    """An `update` write step's values: the array, or for a single element (0-d) the scalar, as
    users write one element (`a[3, 4] = x`)."""
    values = load_data(path)
    return values[()] if values.ndim == 0 else values


def dtype_str(array: NDArray[Any]) -> str:
    return "|O" if array.dtype.hasobject else array.dtype.str


# ---- dispatching ------------------------------------------------------------------------------


class phase:
    """`with phase("metadata"): ...` marks an exception leaving the block with the phase of the
    request it ended (the innermost phase wins), reported as the error's `phase`: [[errors]] rules
    may say a crash type raised on purpose is a refusal only in that phase (adapters/README.md).
    Phases: "metadata" (opening nodes, listing them, parsing or making their metadata documents)
    and "data" (reading or writing chunk data)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is not None and getattr(exc, PHASE_MARK, None) is None:
            try:
                setattr(exc, PHASE_MARK, self.name)
            except AttributeError:  # an exception type without a __dict__: no phase then
                pass


def error_response(
    exc: BaseException, unsupported: bool = False, adapter_dir: CodeDirs = None
) -> Response:
    """The failure response for `exc`: its class name and module, its origin, which tells a
    refusal by the implementation from a bug in the adapter (see raised_in_adapter), where it was
    raised and how (raise_site), and the request phase it ended (`phase`)."""
    reason = getattr(exc, "reason", None)
    raised_in, raised_by = raise_site(exc)
    mark = getattr(exc, PHASE_MARK, None)
    return {
        "ok": False,
        **({"unsupported": True} if unsupported else {}),
        "error": {
            "type": type(exc).__name__,
            "message": str(exc) or type(exc).__name__,
            "reason": reason if isinstance(reason, str) else None,
            "module": type(exc).__module__,
            "origin": "adapter" if raised_in_adapter(exc, adapter_dir) else "implementation",
            "raised_in": raised_in,
            "raised_by": raised_by,
            "phase": mark if isinstance(mark, str) else None,
        },
    }


def raise_site(exc: BaseException) -> tuple[str | None, str | None]:
    """(raised_in, raised_by) of `exc`, from the innermost frame of its traceback: what stays the
    same across releases of an implementation when its messages are reworded.

    raised_in: the function that raised it, `module.qualname` ("zarr.core.json_parse.parse_field").
    raised_by: "raise" when that function's own `raise` statement raised it (the implementation
    refused on purpose), "assert" when an `assert` statement failed (an internal check, not a
    refusal), "operation" when one of its operations failed (the interpreter or a builtin raised:
    a missing keyword argument, a subscript of None), None when the frame is compiled code that
    cannot tell (Cython's frames carry no bytecode of their own)."""
    tb = exc.__traceback__
    if tb is None:
        return None, None
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    module = tb.tb_frame.f_globals.get("__name__")
    qualname = getattr(code, "co_qualname", code.co_name)
    if isinstance(module, str) and not qualname.startswith(module + "."):
        qualname = f"{module}.{qualname}"
    if not os.path.isabs(
        code.co_filename
    ):  # compiled code naming its source ("numcodecs/zstd.pyx")
        return qualname, None
    import dis

    instructions = list(dis.get_instructions(code))
    at = next((i for i in instructions if i.offset == tb.tb_lasti), None)
    if at is None:
        return qualname, None
    if at.opname != RAISE_OP:
        return qualname, "operation"
    # an `assert` compiles to LOAD_ASSERTION_ERROR ... RAISE_VARARGS on the statement's line: an
    # internal consistency check that failed, not a refusal the function means to give
    line = at.positions.lineno if at.positions else None
    if any(
        i.opname == "LOAD_ASSERTION_ERROR" and i.positions and i.positions.lineno == line
        for i in instructions
    ):
        return qualname, "assert"
    return qualname, "raise"


def from_implementation(exc: BaseException) -> BaseException:
    """Mark `exc`, which came out of a call into a compiled implementation (a C++ / Rust
    extension such as tensorstore's binding, which has no Python frame of its own), as raised by
    the implementation; the adapter re-raises it unchanged. Returns `exc`."""
    setattr(exc, ORIGIN_MARK, "implementation")
    return exc


def adapter_code_dirs(adapter: Any, adapter_dir: str | os.PathLike[str] | None) -> list[str]:
    """The folders holding the adapter's own code: its folder, and the folder of every class it
    inherits from outside the standard library and site-packages (the zarrs-python adapter extends
    the zarr-python one, the broken test adapters extend the reference's)."""
    dirs = [os.fspath(adapter_dir)] if adapter_dir is not None else []
    for cls in type(adapter).__mro__:
        module = sys.modules.get(cls.__module__)
        file = getattr(module, "__file__", None)
        if file and "site-packages" not in file and not file.startswith(sys.base_prefix):
            dirs.append(os.path.dirname(os.path.abspath(file)))
    return list(dict.fromkeys(dirs))


def raised_in_adapter(exc: BaseException, adapter_dir: CodeDirs) -> bool:
    """Was `exc` raised by adapter code: is the innermost frame of its traceback a file of the
    adapter's folder or of this package (outside the reference implementation)? An exception
    that was never raised (no traceback) was made by the adapter side too; one the adapter
    marked with from_implementation was not. A relative file name is compiled code naming its
    source (Cython: "numcodecs/zstd.pyx"), never adapter code: resolved, it would land in the
    working directory, which is the adapter's folder."""
    if getattr(exc, ORIGIN_MARK, None) == "implementation":
        return False
    tb = exc.__traceback__
    if tb is None:
        return True
    while tb.tb_next is not None:
        tb = tb.tb_next
    filename = tb.tb_frame.f_code.co_filename
    if not os.path.isabs(filename):
        return False
    path = Path(filename).resolve()
    roots = [
        Path(d).resolve()
        for d in (
            [adapter_dir] if isinstance(adapter_dir, (str, os.PathLike)) else adapter_dir or ()
        )
    ]
    if any(path.is_relative_to(root) for root in roots):
        return True
    return path.is_relative_to(PACKAGE_DIR) and not path.is_relative_to(REFERENCE_DIR)


def handle(
    adapter: Any, request: Request, adapter_dir: str | os.PathLike[str] | None = None
) -> Response:
    """Call the adapter method for `request["op"]`; returns the complete response (with id,
    ok, elapsed; protocol for describe). Never raises for an adapter's exception. `adapter_dir`:
    the adapter's folder, whose code is adapter code (error origins)."""
    code_dirs = adapter_code_dirs(adapter, adapter_dir)
    rid = request.get("id")
    op = request.get("op")
    start = time.perf_counter()
    if op == "shutdown":
        close = getattr(adapter, "close", None)
        try:
            if close is not None:
                close()
        except Exception:  # shutting down anyway
            pass
        return {"id": rid, "ok": True, "elapsed": time.perf_counter() - start}
    method = getattr(adapter, op, None) if op in OPS else None
    if method is None or not callable(method):
        response = error_response(
            ProtocolError(f"unknown or unimplemented op {op!r}"), adapter_dir=code_dirs
        )
    else:
        try:
            response = method(request)
            if response is None:
                response = {}
            elif not isinstance(response, dict):
                raise ProtocolError(
                    f"adapter method {op} returned {type(response).__name__}, not a dict"
                )
            response = dict(response)
            response.setdefault("ok", True)
            if op == "describe":
                response.setdefault("protocol", PROTOCOL)
        except Unsupported as exc:
            response = error_response(exc, unsupported=True, adapter_dir=code_dirs)
        except MemoryError as exc:
            # Out of memory (the child's cap): reported so the harness records `errored` and restarts.
            response = error_response(exc, adapter_dir=code_dirs)
        except Exception as exc:
            response = error_response(exc, adapter_dir=code_dirs)
    response["id"] = rid
    response["elapsed"] = time.perf_counter() - start
    return response


# ---- what a read response's `api` member holds (the same spelling for every Python adapter) ------


def json_value(value: Any) -> Any:
    """A value the implementation gave (a fill value, an attribute) as JSON: numpy scalars as
    Python values, bytes as latin-1 text, tuples as lists."""
    import numpy as np

    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("latin-1")
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    return value


def api_dtype(dtype: DTypeLike) -> Any:
    """A numpy dtype in the protocol's spelling: "|O" for variable-length types (numpy object and
    StringDType, which travel as object arrays), the field list for structured types, else str."""
    import numpy as np

    dtype = _opaque_dtype(np.dtype(dtype))  # ml_dtypes types: NumPy cannot name them
    if dtype.kind in "OT":
        return "|O"
    if dtype.fields:
        return json_value(dtype.descr)
    return dtype.str


def api_fill_value(fill: Any, dtype: DTypeLike) -> dict[str, Any]:
    """{"bytes": little-endian hex of the fill in `dtype`}, or {"value": json} for variable-length
    types and a null fill: bit-exact, so -0.0 and NaN payloads count."""
    import numpy as np

    dtype = np.dtype(dtype)
    if fill is None or dtype.kind in "OT":
        return {"value": json_value(fill)}
    value = np.asarray(fill, dtype=dtype)  # a numpy scalar of this dtype already: no conversion
    return {"bytes": value.astype(dtype.newbyteorder("<")).tobytes().hex()}


# ---- bench helpers: timing one operation; moving a store to and from memory (untimed) -----------


class OperationTimer:
    """Times the operation of a `bench` request, wall and CPU:

        with OperationTimer() as timer:
            array[...] = data
        return {**timer.result(), "settings": ...}

    `seconds` is perf_counter around the block; `cpu` is getrusage of this process (every thread)
    plus its children that ended and were waited for during the block, user and system apart.
    Linux sums a process's CPU time exactly (the scheduler's runtime); only its split into user
    and system is sampled at clock ticks."""

    def __enter__(self) -> OperationTimer:
        self._cpu = _cpu_times()
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._start
        end = _cpu_times()
        self.cpu = {"user": end[0] - self._cpu[0], "system": end[1] - self._cpu[1]}

    def result(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "cpu": self.cpu}


def _cpu_times() -> tuple[float, float]:
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + children.ru_utime, own.ru_stime + children.ru_stime


def files_of(folder: str | os.PathLike[str]) -> dict[str, bytes]:
    """Every file under `folder` as {key: bytes}, keys '/'-separated (to fill a memory store)."""
    folder = os.fspath(folder)
    out = {}
    for root, _dirs, files in os.walk(folder):
        for name in files:
            full = os.path.join(root, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, folder).replace(os.sep, "/")] = f.read()
    return out


def write_file(folder: str | os.PathLike[str], key: str, value: bytes) -> None:
    """Store `value` as the file of `key` under `folder` (to check what a memory store holds)."""
    target = os.path.join(folder, *key.split("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(bytes(value))


def sibling_adapter(name: str, here: str | os.PathLike[str]) -> ModuleType:
    """The module adapter.py of the adapter folder `name` beside the folder of file `here`,
    loaded once: for an adapter that extends another one (zarrs-python extends zarr-python,
    nczarr-debian extends nczarr-netcdf4)."""
    import importlib.util

    module_name = "zarr_conformance_adapter_" + name.replace("-", "_").replace(".", "_")
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = Path(here).resolve().parent.parent / name / "adapter.py"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"no adapter module at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def fsspec_options(store: dict[str, Any]) -> dict[str, Any]:
    """A url store's `storage_options` (adapters/README.md: endpoint_url, key, secret, region,
    anon) as fsspec's s3fs and http filesystems take them (an http store's options are empty)."""
    given = dict(store.get("storage_options") or {})
    if not store["location"].startswith("s3://"):
        return given
    options = {k: given[k] for k in ("endpoint_url", "key", "secret", "anon") if k in given}
    if given.get("region"):
        options["client_kwargs"] = {"region_name": given["region"]}
    return options


def verbatim_path(raw: str | None, format: str | None) -> str:
    """A node path as an adapter declaring `feature:verbatim-paths` hands it to the implementation:
    unchanged, apart from the one leading '/' of a v3 or v3-draft path's absolute form (APIs take
    paths relative to the root). '.', '..', empty segments, backslashes and v2's leading or
    trailing '/' stay for the implementation to refuse or normalise (conformance.harness.session
    path_faults: one rule for every adapter and store kind)."""
    path = raw or ""
    if format in ("v3", "v3-draft") and path.startswith("/"):
        path = path[1:]
    return path
