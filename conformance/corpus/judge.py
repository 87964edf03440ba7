"""Verdicts: compare what an implementation did with what a case expects.

Every comparison is exact. Arrays are compared as bytes after converting both sides to the
little-endian form of the expected dtype, so NaN payloads, -0.0 and integer extremes count, while a
reader that returns big-endian data as native-endian values is still right. JSON values
(attributes, members, what an API reports) are compared type-strictly (jsonstrict).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .case import Case
from .jsonstrict import differences


class DataProblem(str):
    """A problem with the array data itself (values, shape, data type of the returned array), as
    opposed to metadata or behaviour: the harness records such a verdict as `wrong-data`. A str,
    so that judges can keep returning lists of lines; keep the items compare_arrays returns as
    they are (formatting them into new strings would lose the tag)."""


class TypeProblem(str):
    """Every value is exact, but in another data type than the case's (a reader that widens bool
    to uint8 or int8 to int16, or returns fixed strings as its own string type): the harness
    records `type-changed`, naming both types (`types`: expected, observed)."""

    types: tuple[str, str] | None = None


def type_problem(text: str, expected: np.dtype, observed: np.dtype) -> TypeProblem:
    problem = TypeProblem(text)
    problem.types = (_dtype_name(expected), _dtype_name(observed))
    return problem


def _dtype_name(dtype: np.dtype) -> str:
    return str(dtype.descr) if dtype.fields else dtype.str


@dataclass
class ReadResult:
    node_type: str
    metadata: dict | None
    attributes: dict | None  # None: the implementation's API cannot give them (nothing to compare)
    data: Any = None  # np.ndarray for arrays
    members: dict | None = None
    api: dict | None = (
        None  # what the implementation's API reports about an array (see API_MEMBERS)
    )


# Members of a read response's `api` and of a read case's `expect` that describe an array.
API_MEMBERS = ("shape", "dtype", "chunk_shape", "fill_value", "dimension_names")


# ml_dtypes integer types that hold their value in the low bits of a byte (zarr-extensions int2,
# int4, uint2, uint4: "the upper bits are ignored"); their expectations hold the canonical byte.
SUB_BYTE_INTS = ("int2", "int4", "uint2", "uint4")


def little_endian(dtype: np.dtype) -> np.dtype:
    return dtype.newbyteorder("<") if dtype.byteorder in "<>=" or dtype.fields else dtype


def compare_arrays(
    expected: np.ndarray, observed: Any, what: str = "data"
) -> list[DataProblem | TypeProblem]:
    """Where `observed` differs from `expected` (shape, bits). Data in another type is compared
    after a lossless widening of the expected values into that type: equal bit for bit there, it
    is a TypeProblem (a visible type mapping), otherwise a DataProblem."""
    found = _array_differences(expected, observed, what)
    if found and _other_type(expected, observed):
        widened = lossless_widening(expected, np.asarray(observed).dtype)
        if widened is not None and not _array_differences(widened, observed, what):
            obs = np.asarray(observed).dtype
            return [
                type_problem(
                    f"{what}: every value exact, as {_dtype_name(obs)} where "
                    f"{_dtype_name(expected.dtype)} is expected",
                    expected.dtype,
                    obs,
                )
            ]
    return [DataProblem(p) for p in found]


def compare_defined(
    expected: np.ndarray, observed: Any, undefined: np.ndarray | None, what: str = "data"
) -> list[DataProblem | TypeProblem]:
    """compare_arrays over the elements the spec defines: those `undefined` (a boolean mask of
    the expected shape) marks are left out, once the shapes agree."""
    if undefined is None or not undefined.any() or np.shape(observed) != expected.shape:
        return compare_arrays(expected, observed, what)
    # The undefined elements take the expected values, so that messages keep the array's indices.
    observed = np.array(observed, copy=True)
    try:
        with np.errstate(all="ignore"):
            observed[undefined] = expected[undefined].astype(observed.dtype)
    except (TypeError, ValueError):
        defined = ~undefined
        return compare_arrays(expected[defined], observed[defined], f"{what} (defined elements)")
    return compare_arrays(expected, observed, what)


def _other_type(expected: np.ndarray, observed: Any) -> bool:
    if observed is None or expected.dtype.hasobject:
        return False
    obs = np.asarray(observed)
    if obs.shape != expected.shape:
        return False
    return obs.dtype.kind != expected.dtype.kind or obs.dtype.itemsize != expected.dtype.itemsize


def lossless_widening(expected: np.ndarray, dtype: np.dtype) -> np.ndarray | None:
    """The expected values in `dtype`, if converting them there and back gives the same bits
    (None: the conversion loses something, or NumPy cannot make it)."""
    if expected.dtype.fields or dtype.fields or expected.dtype.kind == "V":
        return None
    try:
        with np.errstate(all="ignore"):
            source = expected
            if expected.dtype.kind == "S" and dtype.kind in "UO":  # bytes as text: ASCII only
                source = expected.astype(f"U{max(expected.dtype.itemsize, 1)}")
            widened = source.astype(dtype)
            back = widened.astype(expected.dtype)
    except (TypeError, ValueError, UnicodeError, OverflowError):
        return None
    if expected.dtype.hasobject:  # Python objects: equal by type and value
        same = all(type(x) is type(y) and x == y for x, y in zip(expected.ravel(), back.ravel()))
        return widened if same else None
    want = little_endian(expected.dtype)
    a = np.ascontiguousarray(expected.astype(want, copy=False)).view(np.uint8)
    b = np.ascontiguousarray(back.astype(want, copy=False)).view(np.uint8)
    if a.shape != b.shape or not np.array_equal(a, b):
        return None
    return widened if _same_values(expected, widened) else None


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    """Numbers equal as numbers (NaN as NaN, the sign of zero kept): a round trip through a type
    that wraps (int8 -1 -> uint8 255 -> int8 -1) keeps the bits but not the value."""
    if a.dtype.kind not in "biufc" or b.dtype.kind not in "biufc":
        return True
    common = np.result_type(a.dtype, b.dtype)
    x, y = a.astype(common), b.astype(common)
    same = x == y
    if common.kind in "fc":
        same |= np.isnan(x) & np.isnan(y)
        if common.kind == "f":
            same &= np.signbit(x) == np.signbit(y)
    return bool(np.all(same))


def _array_differences(expected: np.ndarray, observed: Any, what: str) -> list[str]:
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
        return (
            [
                f"{what}: {len(bad)} elements differ, first at flat index {bad[0]}: {observed.ravel()[bad[0]]!r} != {expected.ravel()[bad[0]]!r}"
            ]
            if bad
            else []
        )
    want = little_endian(expected.dtype)
    try:
        opaque = (
            expected.dtype.kind == "V" and not expected.dtype.fields
        )  # raw bits (r<N>, ml_dtypes)
        if observed.dtype.kind != expected.dtype.kind and not (
            opaque and not observed.dtype.hasobject
        ):
            return [
                f"{what}: dtype {observed.dtype.str} is not of the expected kind {expected.dtype.str}"
            ]
        if observed.dtype.itemsize != expected.dtype.itemsize:
            return [
                f"{what}: dtype {observed.dtype.str} has itemsize {observed.dtype.itemsize}, expected {expected.dtype.itemsize}"
            ]
        if (opaque and not observed.dtype.fields) or (
            observed.dtype.fields and _same_layout(observed.dtype, want)
        ):
            # opaque expectations (r<N>, ml_dtypes types saved as V<n>) compare raw bits
            got = observed.astype(little_endian(observed.dtype), copy=False)
            if observed.dtype.name in SUB_BYTE_INTS:  # bits above the value are not part of it
                got = got.astype(np.int8).astype(observed.dtype)
        else:
            got = (
                observed.astype(want, copy=False)
                if observed.dtype.kind != "V" or observed.dtype.fields
                else observed
            )
    except (TypeError, ValueError) as exc:
        return [f"{what}: dtype {observed.dtype} cannot be compared with {expected.dtype}: {exc}"]
    exp_bytes = np.ascontiguousarray(expected.astype(want, copy=False)).view(np.uint8).reshape(-1)
    got_bytes = np.ascontiguousarray(got).view(np.uint8).reshape(-1)
    if exp_bytes.size == got_bytes.size and np.array_equal(exp_bytes, got_bytes):
        return []
    item = max(expected.dtype.itemsize, 1)
    diff = (
        np.flatnonzero(exp_bytes != got_bytes)
        if exp_bytes.size == got_bytes.size
        else np.array([0])
    )
    first = int(diff[0]) // item
    n_bad = len(set((diff // item).tolist()))
    flat_e, flat_o = expected.reshape(-1), observed.reshape(-1)
    return [
        f"{what}: {n_bad} of {expected.size} elements differ bit-wise; first at flat index {first}: "
        f"got {flat_o[first]!r} (bytes {got_bytes[first * item : (first + 1) * item].tobytes().hex()}), "
        f"expected {flat_e[first]!r} (bytes {exp_bytes[first * item : (first + 1) * item].tobytes().hex()})"
    ]


def judge_read(case: Case, result: ReadResult) -> list[str]:
    exp = case.expect
    if result.node_type != exp["node_type"]:
        return [f"opened as {result.node_type}, expected {exp['node_type']}"]
    problems = []
    if "attributes" in exp and result.attributes is not None and not approximates(case, result):
        problems += differences(exp["attributes"], result.attributes, "attributes")
    if exp["node_type"] == "group":
        # members None: the implementation has no way to list them (zarrita.js without
        # consolidated metadata); recorded as unchecked, like attributes it cannot give.
        if "members" in exp and result.members is not None:
            problems += differences(exp["members"], result.members, "members")
        return problems
    expected, observed = case.expected_data(), result.data
    if exp.get("undefined") and observed is not None and np.shape(observed) == expected.shape:
        defined = ~np.load(case.dir / exp["undefined"])
        expected, observed = expected[defined], np.asarray(observed)[defined]
    data = compare_arrays(expected, observed)
    changed = next((p.types for p in data if isinstance(p, TypeProblem)), None)
    for found in api_comparison(case, result, changed).values():
        problems += found or []
    return problems + data


# Integers JSON parsers that read numbers as IEEE doubles agree on exactly (RFC 8259, section 6).
EXACT_DOUBLE_INTEGERS = 2**53


def approximates(case: Case, result: ReadResult) -> bool:
    """Whether the attributes read differ from the case's only where a number beyond the range
    doubles hold exactly came back as its nearest double: what RFC 8259 lets a JSON parser do
    ("implementations [may] set limits on the range and precision of numbers"), so on cases of
    the question json-number-precision it is a recorded behaviour, not a wrong value."""
    expected = case.expect.get("attributes")
    if case.raw.get("question") != "json-number-precision" or result.attributes is None:
        return False
    if not differences(expected, result.attributes):
        return False
    return not differences(_as_doubles(expected), _as_doubles(result.attributes))


def _as_doubles(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) > EXACT_DOUBLE_INTEGERS:
        return float(value)
    if isinstance(value, list):
        return [_as_doubles(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_doubles(v) for k, v in value.items()}
    return value


def api_comparison(
    case: Case, result: ReadResult, changed: tuple[str, str] | None = None
) -> dict[str, list[str] | None]:
    """Per API_MEMBERS member of an array: where what the implementation's API reports differs from
    the case ([] = agrees), or None when it cannot be checked (the API does not report it, or the
    case does not say). Data types are compared as NumPy data types regardless of byte order,
    which is a property of the stored encoding, not of the values. `changed`: (expected,
    observed) when the data came back value-exact in another type: the API reporting that same
    type, and the fill value exact in it, belong to the type change (TypeProblem)."""
    api, exp = result.api or {}, case.expect
    out: dict[str, list[str] | None] = {}
    for member in API_MEMBERS:
        if member not in api or member not in exp:
            out[member] = None
        elif member == "dtype":
            out[member] = _dtype_differences(exp["dtype"], api["dtype"], "api/dtype")
            if out[member] and changed and not _dtype_differences(changed[1], api["dtype"], ""):
                want, got = np.dtype(_descr(exp["dtype"])), np.dtype(_descr(api["dtype"]))
                out[member] = [type_problem(out[member][0], want, got)]
        elif member == "fill_value":
            want_fill = _hex_lower(exp["fill_value"])
            if changed and isinstance(want_fill, dict) and "bytes" in want_fill:
                want_fill = _fill_in_type(want_fill, exp["dtype"], changed[1])
            out[member] = differences(want_fill, _hex_lower(api["fill_value"]), "api/fill_value")
            if out[member] and changed:
                out[member] = [
                    type_problem(out[member][0], *(np.dtype(_descr(t)) for t in changed))
                ]
        else:
            out[member] = differences(exp[member], api[member], f"api/{member}")
    return out


def unchecked(case: Case, result: ReadResult) -> list[str]:
    """What a read could not be judged on because the implementation cannot report it (or the case
    does not say): API members of an array, and `attributes` when the API gives none."""
    names = (
        [m for m, found in api_comparison(case, result).items() if found is None]
        if result.node_type == "array"
        else []
    )
    names += ["attributes"] if result.attributes is None else []
    return names + (["members"] if result.node_type == "group" and result.members is None else [])


def _fill_in_type(fill: dict, expected_dtype: Any, observed: str) -> dict:
    """A {"bytes": hex} fill of the expected type, converted to the type the data came in."""
    try:
        want = little_endian(np.dtype(_descr(expected_dtype)))
        value = np.frombuffer(bytes.fromhex(fill["bytes"]), dtype=want)
        widened = lossless_widening(value, np.dtype(_descr(observed)))
    except (TypeError, ValueError):
        return fill
    if widened is None or widened.dtype.hasobject:
        return fill
    le = widened.astype(little_endian(widened.dtype), copy=False)
    return {"bytes": le.tobytes().hex()}


def _dtype_differences(expected, reported, where: str) -> list[str]:
    try:
        got = little_endian(np.dtype(_descr(reported)))
    except (TypeError, ValueError):
        return [f"{where}: {reported!r} is not a NumPy data type"]
    want = little_endian(np.dtype(_descr(expected)))
    return [] if got == want else [f"{where}: {reported!r} where {expected!r} is expected"]


def _descr(value):
    """A data type in JSON (a NumPy type string, or a structured type's descr as nested lists:
    [name, type] or [name, type, shape]) as np.dtype takes it."""
    if not isinstance(value, list):
        return value
    return [(name, _descr(kind), *(tuple(s) for s in shape)) for name, kind, *shape in value]


def _hex_lower(fill):
    """Hex digits of a {"bytes": hex} fill value in one case (either is valid hex)."""
    if isinstance(fill, dict) and isinstance(fill.get("bytes"), str):
        return {**fill, "bytes": fill["bytes"].lower()}
    return fill


def judge_reject(
    case: Case, raised: bool, message: str = "", reason: str | None = None
) -> list[str]:
    if not raised:
        return [
            f"accepted a store that must be rejected ({case.expect['reason']}, at {case.expect.get('stage', 'open')})"
        ]
    if reason is not None and reason != case.expect["reason"]:
        return [f"rejected with reason {reason!r}, expected {case.expect['reason']!r}: {message}"]
    return []


def check_stored(case: Case, store) -> list[str]:
    """The raw-value checks of a write case (`stored`)."""
    problems = []
    for key, check in case.expect.get("stored", {}).items():
        value = store.get(key)
        if value is None:
            problems.append(f"stored value {key!r} missing")
            continue
        if "equals" in check and value != (case.dir / check["equals"]).read_bytes():
            problems.append(
                f"stored value {key!r} differs from the expected bytes ({len(value)} bytes: {value[:16].hex()}...)"
            )
        if "size" in check and len(value) != check["size"]:
            problems.append(f"stored value {key!r} is {len(value)} bytes, expected {check['size']}")
        if "prefix" in check and not value.startswith(bytes.fromhex(check["prefix"])):
            problems.append(
                f"stored value {key!r} starts {value[:8].hex()}, expected {check['prefix']}"
            )
        if check.get("crc32c_suffix"):
            import crc32c

            if len(value) < 4 or int.from_bytes(value[-4:], "little") != crc32c.crc32c(value[:-4]):
                problems.append(
                    f"stored value {key!r} does not end with the CRC-32C of the preceding bytes"
                )
    return problems


def judge_refused_write(
    case: Case, raised: bool, message: str = "", reason: str | None = None
) -> list[str]:
    """For a write case with `must_fail`: the implementation must refuse the request."""
    if not raised:
        return [f"accepted a write request that must be refused ({case.expect['must_fail']})"]
    if reason is not None and reason != case.expect["must_fail"]:
        return [f"refused with reason {reason!r}, expected {case.expect['must_fail']!r}: {message}"]
    return []


def judge_write(case: Case, store_path: Path, reader: Any = None) -> list[str]:
    """Judge a store written for a write case (after its steps, if any) by what the spec requires,
    reading it back with the reference (never with the writer): the key layout (`keys` exactly, apart from `optional_keys`;
    `required_keys`; `forbidden_keys`), exact `documents` / `document_members` / `stored` values
    where the case cites a sentence demanding them (`exact_basis`), and the MEANING of the written
    node: it must be valid to the reference and describe the same node as the request
    (write_semantics: data type, shape, chunking, chunk keys, codec semantics, fill value bit for
    bit, dimension names, attributes type-strictly; after resize steps, of the final shape). Data
    read back that differs from the input (with steps: from the case's `result`, apart from its
    `undefined` elements) is returned as DataProblem items (the harness records `wrong-data`); everything else as str."""
    from conformance.reference import get_format, open_store
    from conformance.reference.errors import ZarrError

    from .write_semantics import meaning_differences, requested_node, semantic_view

    exp = case.expect
    req = case.write_request()
    problems: list[str] = []
    store = open_store(store_path)
    try:
        keys = sorted(store.list())
        if exp.get("keys") is not None:
            optional = set(exp.get("optional_keys", ()))
            extra = sorted(set(keys) - set(exp["keys"]) - optional)
            lost = sorted(set(exp["keys"]) - set(keys) - optional)
            if extra or lost:
                problems.append(f"keys differ: unexpected {extra[:10]}, missing {lost[:10]}")
        for key in exp.get("required_keys", ()):
            if key not in keys:
                problems.append(f"required key {key!r} was not written")
        for key in exp.get("forbidden_keys", ()):
            if key in keys:
                problems.append(f"key {key!r} must not be written")
        for key, want in exp.get("documents", {}).items():
            got = _document(store, key, problems)
            if got is not _ABSENT:
                problems += [f"document {key!r}: {d}" for d in differences(want, got)]
        for key, members in exp.get("document_members", {}).items():
            got = _document(store, key, problems)
            if got is _ABSENT:
                continue
            if not isinstance(got, dict):
                problems.append(f"document {key!r} is not a JSON object")
                continue
            for member, want in members.items():
                if member not in got:
                    problems.append(f"{key}: member {member!r} missing")
                else:
                    problems += [f"{key}: {d}" for d in differences(want, got[member], member)]
        problems += check_stored(case, store)
        fmt = get_format(case.format)
        try:
            node = fmt.open_node(store, fmt.normalize_path(req.path))
        except ZarrError as exc:
            return problems + [f"the reference cannot open what was written: {exc}"]
        if node.kind != req.node_type:
            return problems + [f"wrote a {node.kind}, expected a {req.node_type}"]
        expected, undefined = case.expected_result()
        if req.steps and expected is not None:  # the array after its steps: the final shape
            req = replace(req, metadata={**(req.metadata or {}), "shape": list(expected.shape)})
        requested = requested_node(fmt, req)
        problems += meaning_differences(
            semantic_view(requested, case.format, requested.store),
            semantic_view(node, case.format, store),
        )
        if req.node_type == "array" and expected is not None:
            try:
                problems += compare_defined(
                    expected, node.read(), undefined, "data read back by the reference"
                )
            except ZarrError as exc:
                problems.append(f"the reference cannot read the written data: {exc}")
    finally:
        store.close()
    return problems


_ABSENT = object()


def _document(store, key: str, problems: list[str]) -> Any:
    """The JSON document stored at `key` (parsed strictly), or _ABSENT after noting why not."""
    from conformance.reference import jsonio
    from conformance.reference.errors import ZarrError

    raw = store.get(key)
    if raw is None:
        problems.append(f"document {key!r} missing")
        return _ABSENT
    try:
        return jsonio.loads(raw, key)
    except ZarrError as exc:
        problems.append(f"document {key!r}: {exc}")
        return _ABSENT


def _same_layout(observed: np.dtype, want: np.dtype) -> bool:
    """Structured types with the same field names and offsets whose fields are all opaque in the
    expected type (an .npy file stores ml_dtypes fields as V<n>) and one byte wide or native
    little-endian in the observed one: their bytes compare as they are."""
    if not want.fields or observed.names != want.names or observed.itemsize != want.itemsize:
        return False
    for name in want.names:
        w, w_off = want.fields[name][:2]
        o, o_off = observed.fields[name][:2]
        if w_off != o_off or w.kind != "V" or w.fields or o.itemsize != w.itemsize:
            return False
        if o.kind == "V" and not o.fields:
            continue
        if o.itemsize > 1 and o.byteorder not in ("<", "=", "|"):
            return False
    return np.little_endian
