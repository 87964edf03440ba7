"""What adapter authors import: protocol constants, the array-file helpers and the dispatcher that
turns a request dict into a response dict around an adapter object.

A child process imports this module, so it uses only the standard library and numpy (see
adapters/README.md). It must never import conformance.reference or conformance.corpus.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

PROTOCOL = 1
OPS = ("describe", "read", "write", "list", "validate", "zom", "shutdown")


class Unsupported(Exception):
    """Raise from an adapter method for a request the implementation knows it cannot serve
    (a capability missing at run time). Recorded as `unsupported`, not as a failure."""


class ProtocolError(Exception):
    """A request that breaks the protocol (unknown op, missing member)."""


# ---- array files ------------------------------------------------------------------------------

def load_data(path: str | os.PathLike):
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


def save_data(path: str | os.PathLike, array) -> str:
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
    np.save(path, array, allow_pickle=False)
    return path


def _json_value(value, kind: str):
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("latin-1")
        return {"bytes": text} if kind == "mixed" else text
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if hasattr(value, "item"):  # a NumPy scalar
        return value.item()
    raise TypeError(f"cannot put a {type(value).__name__} into an array file")


def dtype_str(array) -> str:
    return "|O" if array.dtype.hasobject else array.dtype.str


# ---- dispatching ------------------------------------------------------------------------------

def error_response(exc: BaseException, unsupported: bool = False) -> dict:
    reason = getattr(exc, "reason", None)
    return {
        "ok": False,
        **({"unsupported": True} if unsupported else {}),
        "error": {
            "type": type(exc).__name__,
            "message": str(exc) or type(exc).__name__,
            "reason": reason if isinstance(reason, str) else None,
        },
    }


def handle(adapter: Any, request: dict) -> dict:
    """Call the adapter method for `request["op"]`; returns the complete response (with id,
    ok, elapsed; protocol for describe). Never raises for an adapter's exception."""
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
        response = error_response(ProtocolError(f"unknown or unimplemented op {op!r}"))
    else:
        try:
            response = method(request)
            if response is None:
                response = {}
            elif not isinstance(response, dict):
                raise ProtocolError(f"adapter method {op} returned {type(response).__name__}, not a dict")
            response = dict(response)
            response.setdefault("ok", True)
            if op == "describe":
                response.setdefault("protocol", PROTOCOL)
        except Unsupported as exc:
            response = error_response(exc, unsupported=True)
        except MemoryError as exc:
            # Out of memory (the child's cap): reported so the harness records `errored` and restarts.
            response = error_response(exc)
        except Exception as exc:
            response = error_response(exc)
    response["id"] = rid
    response["elapsed"] = time.perf_counter() - start
    return response
