"""The judge every Python reproducer carries: `zarr-conformance reproduce` pastes this file into
the script it prints, after the script's `CASE`, so that the script needs nothing but the
implementation, numpy and the standard library.

A template defines `read(store, node, fmt)` (returning a `Read`) or `write(store, request)` through
the implementation's public API, and ends with `run_read(read, CASE)` or `run_write(write, CASE)`.
These compare what the implementation did with the case, the way the suite does
(conformance/corpus/judge.py: bit for bit after a lossless widening, JSON type-strictly), print
it, and end with one machine-readable line (MARK + JSON) that `zarr-conformance audit` reads:

    behaviour  passed | wrong-data | type-changed | mismatch | refused | accepted | written
    error      the exception that refused ({"type", "module", "message"}), or null
    problems   what differs

The exit status is 0 when the implementation did what the case expects (read: the data; reject
and must-fail writes: a refusal; writes: written, to be judged by the reference afterwards), 1
otherwise.

Keep it importable on its own and free of this package's imports: it runs inside each
implementation's environment (numpy 1.24 and up, Python 3.11 and up)."""

import json
import math
import os
import sys
import tempfile

import numpy as np

MARK = "zarr-conformance-reproduce:"


class Read:
    """What a template read: the node type, the data (numpy array), and whatever else the
    implementation's API reports (None: it cannot say, so nothing is compared)."""

    def __init__(self, node_type, data=None, attributes=None, members=None, **api):
        self.node_type = node_type
        self.data = data
        self.attributes = attributes
        self.members = members
        # shape, dtype, chunk_shape, fill_value (in the array's type), dimension_names: only
        # what the implementation's API reports is given, and so compared
        self.api = api


# ---- expected data ---------------------------------------------------------------------------


def load_expected(spec):
    """The exact array a case names: `data` (.npy) or `data_json` (a flat JSON list of strings,
    or of latin-1 text for bytes with `data_json_bytes`), at absolute paths."""
    if spec.get("data_json"):
        with open(spec["data_json"], encoding="utf-8") as f:
            values = json.load(f)
        out = np.empty(len(values), dtype=object)
        for i, value in enumerate(values):
            out[i] = value.encode("latin-1") if spec.get("data_json_bytes") else value
        return out.reshape(spec["shape"])
    return np.load(spec["data"], allow_pickle=False)


def plain(data):
    """An implementation's array as numpy holds it: 0-d scalars as arrays, NumPy 2 StringDType
    as an object array of str (what the suite compares with)."""
    arr = np.asarray(data)
    if arr.dtype.kind == "T":
        out = np.empty(arr.shape, dtype=object)
        out.ravel()[:] = [str(v) for v in arr.ravel()]
        return out
    return arr


# ---- arrays, bit for bit ---------------------------------------------------------------------


def little_endian(dtype):
    return dtype.newbyteorder("<") if dtype.byteorder in "<>=" or dtype.fields else dtype


def type_name(dtype):
    return str(dtype.descr) if dtype.fields else dtype.str


def array_differences(expected, observed, what="data"):
    """Where `observed` differs from `expected`: [] when equal bit for bit (after converting both
    to the little-endian form of the expected type; NaN payloads and -0.0 count)."""
    if observed is None:
        return [f"{what}: nothing returned"]
    observed = np.asarray(observed)
    if observed.shape != expected.shape:
        return [f"{what}: shape {observed.shape} != expected {expected.shape}"]
    if expected.dtype.hasobject:
        bad = [
            i
            for i, (a, b) in enumerate(zip(expected.ravel(), observed.ravel()))
            if type(a) is not type(b) or a != b
        ]
        if not bad:
            return []
        first = bad[0]
        return [
            f"{what}: {len(bad)} elements differ, first at flat index {first}: "
            f"{observed.ravel()[first]!r} != {expected.ravel()[first]!r}"
        ]
    want = little_endian(expected.dtype)
    opaque = expected.dtype.kind == "V" and not expected.dtype.fields  # raw bits (r<N>)
    if observed.dtype.kind != expected.dtype.kind and not (opaque and not observed.dtype.hasobject):
        return [f"{what}: dtype {observed.dtype.str} is not of the expected kind {want.str}"]
    if observed.dtype.itemsize != expected.dtype.itemsize:
        return [
            f"{what}: dtype {observed.dtype.str} has itemsize {observed.dtype.itemsize}, "
            f"expected {expected.dtype.itemsize}"
        ]
    try:
        if opaque or (observed.dtype.kind == "V" and not observed.dtype.fields):
            got = observed.astype(little_endian(observed.dtype), copy=False)
        else:
            got = observed.astype(want, copy=False)
    except (TypeError, ValueError) as exc:
        return [f"{what}: dtype {observed.dtype} cannot be compared with {expected.dtype}: {exc}"]
    a = np.ascontiguousarray(expected.astype(want, copy=False)).view(np.uint8).reshape(-1)
    b = np.ascontiguousarray(got).view(np.uint8).reshape(-1)
    if a.size == b.size and np.array_equal(a, b):
        return []
    item = max(expected.dtype.itemsize, 1)
    diff = np.flatnonzero(a != b) if a.size == b.size else np.array([0])
    first = int(diff[0]) // item
    count = len(set((diff // item).tolist()))
    return [
        f"{what}: {count} of {expected.size} elements differ bit-wise; first at flat index "
        f"{first}: got {observed.reshape(-1)[first]!r} "
        f"(bytes {b[first * item : (first + 1) * item].tobytes().hex()}), expected "
        f"{expected.reshape(-1)[first]!r} (bytes {a[first * item : (first + 1) * item].tobytes().hex()})"
    ]


def widened(expected, dtype):
    """The expected values in `dtype` when converting them there and back keeps every bit and
    every value (a lossless widening), else None."""
    if expected.dtype.fields or dtype.fields or expected.dtype.kind == "V":
        return None
    try:
        with np.errstate(all="ignore"):
            source = expected
            if expected.dtype.kind == "S" and dtype.kind in "UO":  # bytes as text: ASCII only
                source = expected.astype(f"U{max(expected.dtype.itemsize, 1)}")
            out = source.astype(dtype)
            back = out.astype(expected.dtype)
    except (TypeError, ValueError, UnicodeError, OverflowError):
        return None
    want = little_endian(expected.dtype)
    a = np.ascontiguousarray(expected.astype(want, copy=False)).view(np.uint8)
    b = np.ascontiguousarray(back.astype(want, copy=False)).view(np.uint8)
    if a.shape != b.shape or not np.array_equal(a, b):
        return None
    if expected.dtype.kind in "biufc" and out.dtype.kind in "biufc":
        common = np.result_type(expected.dtype, out.dtype)
        x, y = expected.astype(common), out.astype(common)
        same = x == y
        if common.kind in "fc":
            same |= np.isnan(x) & np.isnan(y)
            if common.kind == "f":
                same &= np.signbit(x) == np.signbit(y)
        if not np.all(same):
            return None
    return out


def compare_data(expected, observed):
    """("wrong-data" | "type-changed" | None, problems)."""
    problems = array_differences(expected, observed)
    if not problems:
        return None, []
    observed = np.asarray(observed) if observed is not None else None
    other_type = (
        observed is not None
        and not expected.dtype.hasobject
        and observed.shape == expected.shape
        and (
            observed.dtype.kind != expected.dtype.kind
            or observed.dtype.itemsize != expected.dtype.itemsize
        )
    )
    if other_type:
        wide = widened(expected, observed.dtype)
        if wide is not None and not array_differences(wide, observed):
            return "type-changed", [
                f"data: every value exact, as {type_name(observed.dtype)} where "
                f"{type_name(expected.dtype)} is expected"
            ]
    return "wrong-data", problems


# ---- JSON, type-strictly ---------------------------------------------------------------------


def _kind(value):
    for name, types in (("null", type(None)), ("boolean", bool), ("integer", int)):
        if isinstance(value, types):
            return name
    for name, types in (("float", float), ("string", str), ("array", (list, tuple))):
        if isinstance(value, types):
            return name
    return "object" if isinstance(value, dict) else type(value).__name__


def json_differences(want, got, where=""):
    """Where `got` differs from `want`: a boolean is never a number, an integer never a float,
    the sign of zero counts, NaN equals NaN."""
    here, kw, kg = where or "/", _kind(want), _kind(got)
    if kw != kg:
        return [f"{here}: {kg} {got!r} where {kw} {want!r} is expected"]
    out = []
    if kw == "object":
        for key in sorted(set(want) | set(got), key=str):
            if key not in got:
                out.append(f"{where}/{key}: missing (expected {want[key]!r})")
            elif key not in want:
                out.append(f"{where}/{key}: unexpected member {got[key]!r}")
            else:
                out += json_differences(want[key], got[key], f"{where}/{key}")
    elif kw == "array":
        if len(want) != len(got):
            return [f"{here}: {len(got)} items where {len(want)} are expected"]
        for i, (a, b) in enumerate(zip(want, got)):
            out += json_differences(a, b, f"{where}/{i}")
    elif kw == "float":
        nan = math.isnan(want) and math.isnan(got)
        if not nan and not (want == got and math.copysign(1, want) == math.copysign(1, got)):
            out.append(f"{here}: {got!r} where {want!r} is expected")
    elif want != got:
        out.append(f"{here}: {got!r} where {want!r} is expected")
    return out


# ---- what an API reports -----------------------------------------------------------------------


def descr(value):
    """A data type in JSON (a type string, or a structured type's descr as nested lists)."""
    if not isinstance(value, list):
        return value
    return [(name, descr(kind), *(tuple(s) for s in shape)) for name, kind, *shape in value]


def fill_bytes(fill, dtype):
    """A fill value as the suite compares it: {"bytes": little-endian hex in the type}, or
    {"value": ...} for variable-length types and a null fill."""
    dtype = np.dtype(dtype)
    if fill is None or dtype.kind in "OT":
        return {"value": fill.decode("latin-1") if isinstance(fill, bytes) else fill}
    value = np.asarray(fill, dtype=dtype)
    return {"bytes": value.astype(little_endian(dtype)).tobytes().hex()}


def api_differences(expect, api, changed):
    """What the API reports against the case (members the template or the case does not give
    are not compared). `changed`: the data came back value-exact in another type, so a data type
    and fill value in that type belong to the type change."""
    out = []
    for member in ("shape", "chunk_shape", "dimension_names"):
        if member in api and member in expect:
            got = api[member]
            got = list(got) if isinstance(got, tuple) else got
            out += json_differences(expect[member], got, f"api/{member}")
    dtype = api.get("dtype")
    if dtype is not None and "dtype" in expect and not changed:
        want = little_endian(np.dtype(descr(expect["dtype"])))
        got = np.dtype(dtype)
        if got.kind in "OT" and want.kind == "O":
            pass
        elif little_endian(got) != want:
            out.append(f"api/dtype: {type_name(got)!r} where {expect['dtype']!r} is expected")
    if "fill_value" in api and "fill_value" in expect and not changed:
        fill_type = dtype if dtype is not None else descr(expect["dtype"])
        try:
            got = fill_bytes(api["fill_value"], fill_type)
        except (TypeError, ValueError, OverflowError) as exc:
            got = {"value": repr(api["fill_value"]), "error": str(exc)}
        want = dict(expect["fill_value"])
        if isinstance(want.get("bytes"), str):
            want["bytes"] = want["bytes"].lower()
        out += json_differences(want, got, "api/fill_value")
    return out


# ---- the verdict -------------------------------------------------------------------------------


def judge_read(expect, result):
    """(behaviour, problems) of a successful read against a read expectation."""
    if result.node_type != expect["node_type"]:
        return "mismatch", [f"opened as {result.node_type}, expected {expect['node_type']}"]
    problems = []
    if "attributes" in expect and result.attributes is not None:
        problems += json_differences(expect["attributes"], dict(result.attributes), "attributes")
    if expect["node_type"] == "group":
        if "members" in expect and result.members is not None:
            problems += json_differences(expect["members"], dict(result.members), "members")
        return ("mismatch" if problems else "passed"), problems
    expected = load_expected(expect)
    observed = None if result.data is None else plain(result.data)
    if expect.get("undefined") and observed is not None and observed.shape == expected.shape:
        defined = ~np.load(expect["undefined"])
        expected, observed = expected[defined], observed[defined]
    kind, data = compare_data(expected, observed)
    problems += api_differences(expect, result.api, kind == "type-changed")
    if kind == "wrong-data":
        return kind, problems + data
    if problems:
        return "mismatch", problems + data
    return kind or "passed", data


def error_of(exc):
    kind = type(exc)
    message = str(exc)
    if not message and exc.__cause__ is not None:  # raised bare `from` what says why (zarrs)
        message = str(exc.__cause__)
    error = {"type": kind.__name__, "module": kind.__module__, "message": message}
    if isinstance(getattr(exc, "reason", None), str):
        error["reason"] = exc.reason  # a reason code (conformance/reference/errors.py)
    return error


def finish(behaviour, problems=(), error=None, expected=("passed",)):
    """Print what happened, the machine-readable line, and exit (0: as the case expects)."""
    print(f"observed: {behaviour}")
    if error is not None:
        print(f"  {error['module']}.{error['type']}: {error['message']}")
    for line in problems:
        print(f"  {line}")
    doc = {"behaviour": behaviour, "error": error, "problems": list(problems)}
    print(MARK, json.dumps(doc, default=str), flush=True)
    sys.exit(0 if behaviour in expected else 1)


def run_read(read, case):
    """Read the case's node with `read(store, node, fmt)` and say what happened. A read case
    expects the data; a reject case expects a refusal (any exception)."""
    reject = case["kind"] == "reject"
    print(f"reading node {case['node']!r} of {case['store']} (format {case['format']})")
    try:
        result = read(case["store"], case["node"], case["format"])
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a refusal; whether its type is a crash, the audit decides
        error = error_of(exc)
        want = case["expect"].get("reason") if reject and case.get("reason_codes") else None
        if want is not None and error.get("reason") != want:
            wrong = [f"rejected with reason {error.get('reason')!r}, expected {want!r}"]
            finish("mismatch", wrong, error=error, expected=("refused",))
        finish("refused", error=error, expected=("refused",) if reject else ("passed",))
    if reject:
        what = result.node_type
        if result.data is not None:
            shown = plain(result.data)
            what += f" {shown.shape} {type_name(shown.dtype)}"
        finish("accepted", [f"it read {what}; the store must be refused"], expected=("refused",))
    behaviour, problems = judge_read(case["expect"], result)
    finish(behaviour, problems)


def output_store():
    """Where a write goes: the folder given on the command line (it must not exist or be
    empty), else a new temporary folder."""
    if len(sys.argv) > 1:
        os.makedirs(sys.argv[1], exist_ok=True)
        return os.path.abspath(sys.argv[1])
    return tempfile.mkdtemp(prefix="zarr-reproduce-")


def show_store(folder, limit=40):
    """Print the keys of a written store and its JSON documents."""
    keys = sorted(
        os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")
        for root, _dirs, files in os.walk(folder)
        for name in files
    )
    print(f"the store holds {len(keys)} keys:")
    for key in keys[:limit]:
        print(f"  {key} ({os.path.getsize(os.path.join(folder, key))} bytes)")
        if key.rsplit("/", 1)[-1] in ("zarr.json", ".zarray", ".zgroup", ".zattrs"):
            with open(os.path.join(folder, key), "rb") as f:
                print("    " + f.read().decode("utf-8", "replace").replace("\n", "\n    "))
    if len(keys) > limit:
        print(f"  ... and {len(keys) - limit} more")


def run_write(write, case):
    """Write the case's request with `write(store, request)` into an empty folder and show what
    the store holds; the reference judges it afterwards (`zarr-conformance audit` does). A request
    with `must_fail` expects a refusal."""
    request = dict(case["request"])
    if request.get("data") or request.get("data_json"):
        request["array"] = load_expected(request)
    else:
        request["array"] = None
    store = output_store()
    must_fail = "must_fail" in case
    print(
        f"writing {request['node_type']} {request['path']!r} (format {case['format']}) into {store}"
    )
    try:
        write(store, request)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        error = error_of(exc)
        if must_fail and case.get("reason_codes") and error.get("reason") != case["must_fail"]:
            wrong = [f"refused with reason {error.get('reason')!r}, expected {case['must_fail']!r}"]
            finish("mismatch", wrong, error=error, expected=("refused",))
        finish("refused", error=error, expected=("refused",) if must_fail else ("written",))
    show_store(store)
    if must_fail:
        finish(
            "accepted",
            [f"the request must be refused ({case['must_fail']})"],
            expected=("refused",),
        )
    finish("written", [f"store: {store}"], expected=("written",))
