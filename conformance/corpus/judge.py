"""Verdicts: compare what an implementation did with what a case expects.

Every comparison is exact. Arrays are compared as bytes after converting both sides to the
little-endian form of the expected dtype, so NaN payloads, -0.0 and integer extremes count, while a
reader that returns big-endian data as native-endian values is still right.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .case import Case


@dataclass
class ReadResult:
    node_type: str
    metadata: dict | None
    attributes: dict
    data: Any = None  # np.ndarray for arrays
    members: dict | None = None


def little_endian(dtype: np.dtype) -> np.dtype:
    return dtype.newbyteorder("<") if dtype.byteorder in "<>=" or dtype.fields else dtype


def compare_arrays(expected: np.ndarray, observed: Any, what: str = "data") -> list[str]:
    if observed is None:
        return [f"{what}: nothing returned"]
    observed = np.asarray(observed)
    if observed.shape != expected.shape:
        return [f"{what}: shape {observed.shape} != expected {expected.shape}"]
    if expected.dtype.hasobject:
        bad = [i for i, (a, b) in enumerate(zip(expected.ravel(), observed.ravel())) if type(a) is not type(b) or a != b]
        return [f"{what}: {len(bad)} elements differ, first at flat index {bad[0]}: {observed.ravel()[bad[0]]!r} != {expected.ravel()[bad[0]]!r}"] if bad else []
    want = little_endian(expected.dtype)
    try:
        if observed.dtype.kind != expected.dtype.kind and not (expected.dtype.kind == "V" and observed.dtype.kind == "V"):
            return [f"{what}: dtype {observed.dtype.str} is not of the expected kind {expected.dtype.str}"]
        if observed.dtype.itemsize != expected.dtype.itemsize:
            return [f"{what}: dtype {observed.dtype.str} has itemsize {observed.dtype.itemsize}, expected {expected.dtype.itemsize}"]
        got = observed.astype(want, copy=False) if observed.dtype.kind != "V" or observed.dtype.fields else observed
    except (TypeError, ValueError) as exc:
        return [f"{what}: dtype {observed.dtype} cannot be compared with {expected.dtype}: {exc}"]
    exp_bytes = np.ascontiguousarray(expected.astype(want, copy=False)).view(np.uint8).reshape(-1)
    got_bytes = np.ascontiguousarray(got).view(np.uint8).reshape(-1)
    if exp_bytes.size == got_bytes.size and np.array_equal(exp_bytes, got_bytes):
        return []
    item = max(expected.dtype.itemsize, 1)
    diff = np.flatnonzero(exp_bytes != got_bytes) if exp_bytes.size == got_bytes.size else np.array([0])
    first = int(diff[0]) // item
    n_bad = len(set((diff // item).tolist()))
    flat_e, flat_o = expected.reshape(-1), observed.reshape(-1)
    return [
        f"{what}: {n_bad} of {expected.size} elements differ bit-wise; first at flat index {first}: "
        f"got {flat_o[first]!r} (bytes {got_bytes[first*item:(first+1)*item].tobytes().hex()}), "
        f"expected {flat_e[first]!r} (bytes {exp_bytes[first*item:(first+1)*item].tobytes().hex()})"
    ]


def judge_read(case: Case, result: ReadResult) -> list[str]:
    exp = case.expect
    if result.node_type != exp["node_type"]:
        return [f"opened as {result.node_type}, expected {exp['node_type']}"]
    problems = []
    if "attributes" in exp and result.attributes != exp["attributes"]:
        problems.append(f"attributes {result.attributes!r} != expected {exp['attributes']!r}")
    if exp["node_type"] == "group":
        if "members" in exp and result.members is not None and result.members != exp["members"]:
            problems.append(f"members {result.members!r} != expected {exp['members']!r}")
        elif "members" in exp and result.members is None:
            problems.append("no members reported")
        return problems
    expected, observed = case.expected_data(), result.data
    if exp.get("undefined") and observed is not None and np.shape(observed) == expected.shape:
        defined = ~np.load(case.dir / exp["undefined"])
        expected, observed = expected[defined], np.asarray(observed)[defined]
    return problems + compare_arrays(expected, observed)


def judge_reject(case: Case, raised: bool, message: str = "", reason: str | None = None) -> list[str]:
    if not raised:
        return [f"accepted a store that must be rejected ({case.expect['reason']}, at {case.expect.get('stage', 'open')})"]
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
            problems.append(f"stored value {key!r} differs from the expected bytes ({len(value)} bytes: {value[:16].hex()}...)")
        if "size" in check and len(value) != check["size"]:
            problems.append(f"stored value {key!r} is {len(value)} bytes, expected {check['size']}")
        if "prefix" in check and not value.startswith(bytes.fromhex(check["prefix"])):
            problems.append(f"stored value {key!r} starts {value[:8].hex()}, expected {check['prefix']}")
        if check.get("crc32c_suffix"):
            import crc32c

            if len(value) < 4 or int.from_bytes(value[-4:], "little") != crc32c.crc32c(value[:-4]):
                problems.append(f"stored value {key!r} does not end with the CRC-32C of the preceding bytes")
    return problems


def judge_refused_write(case: Case, raised: bool, message: str = "", reason: str | None = None) -> list[str]:
    """For a write case with `must_fail`: the implementation must refuse the request."""
    if not raised:
        return [f"accepted a write request that must be refused ({case.expect['must_fail']})"]
    if reason is not None and reason != case.expect["must_fail"]:
        return [f"refused with reason {reason!r}, expected {case.expect['must_fail']!r}: {message}"]
    return []


def judge_write(case: Case, store_path: Path, reader: Any = None) -> list[str]:
    """Judge a store written for a write case, reading it back with the reference."""
    from conformance.reference import get_format, open_store

    exp = case.expect
    req = case.write_request()
    problems: list[str] = []
    store = open_store(store_path)
    try:
        keys = sorted(store.list())
        if exp.get("keys") is not None and keys != sorted(exp["keys"]):
            extra = sorted(set(keys) - set(exp["keys"]))
            lost = sorted(set(exp["keys"]) - set(keys))
            problems.append(f"keys differ: unexpected {extra[:10]}, missing {lost[:10]}")
        for key in exp.get("required_keys", ()):
            if key not in keys:
                problems.append(f"required key {key!r} was not written")
        for key in exp.get("forbidden_keys", ()):
            if key in keys:
                problems.append(f"key {key!r} must not be written")
        from conformance.reference import jsonio
        from conformance.reference.errors import ZarrError

        for key, want in exp.get("documents", {}).items():
            raw = store.get(key)
            if raw is None:
                problems.append(f"document {key!r} missing")
                continue
            try:
                got = jsonio.loads(raw, key)
            except ZarrError as exc:
                problems.append(f"document {key!r}: {exc}")
                continue
            if got != want:
                problems.append(f"document {key!r} is {got!r}, expected {want!r}")
        problems += check_stored(case, store)
        for key, members in exp.get("document_members", {}).items():
            raw = store.get(key)
            try:
                got = jsonio.loads(raw, key) if raw is not None else None
            except ZarrError as exc:
                problems.append(f"document {key!r}: {exc}")
                continue
            if not isinstance(got, dict):
                problems.append(f"document {key!r} missing or not an object")
                continue
            for member, want in members.items():
                if member not in got:
                    problems.append(f"{key}: member {member!r} missing")
                elif got[member] != want:
                    problems.append(f"{key}: {member} is {got[member]!r}, expected {want!r}")
        fmt = get_format(case.format)
        try:
            node = fmt.open_node(store, fmt.normalize_path(req.path))
        except ZarrError as exc:
            return problems + [f"the reference cannot open what was written: {exc}"]
        if node.kind != req.node_type:
            return problems + [f"wrote a {node.kind}, expected a {req.node_type}"]
        if node.attrs != req.attributes:
            problems.append(f"attributes read back {node.attrs!r} != requested {req.attributes!r}")
        if req.node_type == "array" and req.data is not None:
            try:
                problems += compare_arrays(req.data, node.read(), "data read back by the reference")
            except ZarrError as exc:
                problems.append(f"the reference cannot read the written data: {exc}")
    finally:
        store.close()
    return problems
