"""Which cases each broken implementation must be caught on: a predicate choosing them from the
real corpus (fixtures/), and a few cases built here with the corpus API as a fallback for a corpus
that does not (yet) have any (then the test still runs instead of skipping)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numcodecs
import numpy as np

from conformance.corpus.generator import CaseSpec, build_case
from conformance.reference import get_format
from conformance.reference.errors import ZarrError

MAX_CASES = 30

# The question each kind of self-test case asks (a case names its question: no default tier).
SELF_TEST_QUESTIONS = {
    "read": "spec-read",
    "write": "spec-write",
    "zom": "zom-model",
    "reject": "unreadable-document",
}


@dataclass
class Target:
    bug: str  # the folder name under tests/broken
    tests: tuple[str, ...]  # suite test kinds that must catch it
    select: Callable  # case -> bool, on the real corpus
    fallback: dict  # case id -> (kind, builder, needs)


# ---- reading what a case stores -------------------------------------------------------------


def stored_doc(case) -> dict | None:
    """The metadata document of the case's node, read straight from the store (None if absent or
    not JSON: reject cases)."""
    node = case.node.strip("/")
    names = {
        "v3": ["zarr.json"],
        "v2": [".zarray", ".zgroup"],
        "v1": ["meta"],
        "v3-draft": [f"meta/root/{node}.array.json" if node else "meta/root.array.json"],
    }[case.format]
    for name in names:
        key = name if case.format == "v3-draft" else (f"{node}/{name}" if node else name)
        try:
            if case.store_kind == "zip":
                import zipfile

                with zipfile.ZipFile(case.store_path) as zf:
                    raw = zf.read(key)
            else:
                raw = (case.store_path / key).read_bytes()
            doc = json.loads(raw)
            return doc if isinstance(doc, dict) else None
        except (OSError, KeyError, ValueError):
            continue
    return None


def request_doc(case) -> dict:
    return case.expect.get("request", {}).get("metadata") or {}


def codecs_of(doc: dict) -> list:
    out = []
    for codec in doc.get("codecs") or []:
        if isinstance(codec, dict):
            out.append(codec)
            inner = (codec.get("configuration") or {}).get("codecs")
            if codec.get("name") == "sharding_indexed" and isinstance(inner, list):
                out += codecs_of({"codecs": inner})
    return out


def is_write(case, fmt=None) -> bool:
    return (
        case.kind == "write"
        and case.expect["request"]["node_type"] == "array"
        and "must_fail" not in case.expect
        and (fmt is None or case.format in fmt)
    )


def has_edge(doc: dict) -> bool:
    shape = doc.get("shape") or []
    chunks = (
        doc.get("chunks")
        or (doc.get("chunk_grid") or {}).get("configuration", {}).get("chunk_shape")
        or []
    )
    return any(s % c for s, c in zip(shape, chunks) if c)


def raw_layout(case) -> bool:
    doc = request_doc(case)
    if case.format == "v3":
        codecs = doc.get("codecs") or []
        return (
            len(codecs) == 1
            and codecs[0].get("name") == "bytes"
            and isinstance(doc.get("data_type"), str)
        )
    if case.format == "v2":
        return doc.get("compressor") is None and not doc.get("filters") and doc.get("order") == "C"
    if case.format == "v1":
        return doc.get("compression") in (None, "none") and doc.get("order") == "C"
    return False


def nonzero_fill(doc: dict | None) -> bool:
    if not doc:
        return False
    fill = doc.get("fill_value")
    return (
        isinstance(fill, (int, float)) and not isinstance(fill, bool) and fill != 0
    ) or fill in ("NaN", "Infinity", "-Infinity")


def non_involution_transpose(doc: dict | None) -> bool:
    for codec in codecs_of(doc or {}):
        order = (codec.get("configuration") or {}).get("order")
        if (
            codec.get("name") == "transpose"
            and isinstance(order, list)
            and [order[i] for i in order] != list(range(len(order)))
        ):
            return True
    return False


# ---- fallback cases -------------------------------------------------------------------------


def _v3():
    return get_format("v3")


def _v2():
    return get_format("v2")


def data_2d(dtype="int32"):
    return (np.arange(30, dtype=dtype) * 3 + 1).reshape(5, 6)


def b_write_default_keys(w):
    w.expect_write(
        metadata=_v3().array_metadata((5, 6), (2, 4), "int32", fill_value=0), data=data_2d()
    )


def b_write_nan_fill(w):
    w.expect_write(
        metadata=_v3().array_metadata((7,), (3,), "float64", fill_value="NaN"),
        data=np.linspace(1, 2, 7),
    )


def b_write_attrs(w):
    w.expect_write(
        metadata=_v3().array_metadata((4,), (4,), "uint8", fill_value=0),
        attributes={"units": "m"},
        data=np.arange(1, 5, dtype="uint8"),
    )


def b_read_missing_chunks(w):
    fmt = _v3()
    array = fmt.create_array(w.store, "", fmt.array_metadata((10,), (4,), "int32", fill_value=7))
    array[0:4] = np.arange(1, 5, dtype="int32")
    w.expect_array(np.array([1, 2, 3, 4, 7, 7, 7, 7, 7, 7], dtype="int32"))


def b_read_order_f(w):
    fmt = _v2()
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((5, 6), (3, 4), "<i4", order="F", fill_value=0)
    )
    array[...] = data_2d()
    w.expect_array(data_2d())


def b_read_big_endian(w):
    fmt = _v2()
    array = fmt.create_array(w.store, "", fmt.array_metadata((5, 6), (3, 4), ">i4", fill_value=0))
    array[...] = data_2d(">i4")
    w.expect_array(data_2d(">i4"))


def b_read_attrs(w):
    fmt = _v3()
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((4,), (4,), "uint8", fill_value=0), {"units": "m"}
    )
    array[...] = np.arange(1, 5, dtype="uint8")
    w.expect_array(np.arange(1, 5, dtype="uint8"), attributes={"units": "m"})


def b_read_filters(w):
    fmt = _v2()
    filters = [numcodecs.Delta(dtype="<i4"), numcodecs.Shuffle(elementsize=4)]
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((20,), (8,), "<i4", filters=filters, fill_value=0)
    )
    data = np.arange(20, dtype="<i4") * 3 + 1
    array[...] = data
    w.expect_array(data)


def b_read_transpose(w):
    fmt = _v3()
    codecs = [
        {"name": "transpose", "configuration": {"order": [1, 2, 0]}},
        {"name": "bytes", "configuration": {"endian": "little"}},
    ]
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((2, 3, 4), (2, 3, 4), "int32", fill_value=0, codecs=codecs)
    )
    data = np.arange(24, dtype="int32").reshape(2, 3, 4) + 1
    array[...] = data
    w.expect_array(data)


def b_read_shard_index_start(w):
    fmt = _v3()
    le = {"name": "bytes", "configuration": {"endian": "little"}}
    codecs = [
        {
            "name": "sharding_indexed",
            "configuration": {
                "chunk_shape": [2],
                "codecs": [le],
                "index_codecs": [le, {"name": "crc32c"}],
                "index_location": "start",
            },
        }
    ]
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((10,), (10,), "int32", fill_value=0, codecs=codecs)
    )
    data = np.arange(10, dtype="int32") + 1
    array[...] = data
    w.expect_array(data)


def b_reject_unknown_member(w):
    doc = _v3().array_metadata((4,), (4,), "uint8", fill_value=0)
    doc["unknown_extension"] = {"some": "thing"}
    w.put_json("zarr.json", doc)
    w.expect_reject("unknown-field", "open")


def b_reject_bad_checksum(w):
    fmt = _v3()
    codecs = [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((4,), (4,), "uint8", fill_value=0, codecs=codecs)
    )
    array[...] = np.arange(1, 5, dtype="uint8")
    chunk = bytearray(w.store.data["c/0"])
    chunk[0] ^= 0xFF
    w.put("c/0", bytes(chunk))
    w.expect_reject("checksum-mismatch", "read")


def b_update_edge_region(w):
    from conformance.corpus.updates import Write

    values = (np.arange(12, dtype="int32") + 1).reshape(3, 4)
    w.expect_update(
        metadata=_v3().array_metadata((5, 6), (2, 4), "int32", fill_value=7),
        steps=[Write(((2, 5), (2, 6)), values)],
    )


def writes_regions(case) -> bool:
    """A write case whose steps write a region into an array with edge chunks."""
    steps = case.expect.get("request", {}).get("steps") or []
    return (
        case.kind == "write"
        and any(s["op"] == "write" for s in steps)
        and has_edge(request_doc(case))
    )


def needs_of(*extra):
    return sorted({"codec:bytes", *extra})


TARGETS = [
    Target(
        "chunk-key-separator",
        ("write",),
        lambda c: (
            is_write(c, ("v3",))
            and (request_doc(c).get("chunk_key_encoding") or {}).get("name") == "default"
            and (
                (request_doc(c)["chunk_key_encoding"].get("configuration") or {}).get(
                    "separator", "/"
                )
                == "/"
            )
            and len(request_doc(c).get("shape", [])) >= 1
            and c.expect["request"].get("data")
        ),
        {
            "v3/write/broken-default-keys": (
                "write",
                b_write_default_keys,
                needs_of("dtype:int32", "op:write"),
            )
        },
    ),
    Target(
        "fill-value-ignored",
        ("read",),
        lambda c: (
            c.kind == "read"
            and c.expect.get("node_type") == "array"
            and nonzero_fill(stored_doc(c))
        ),
        {"v3/read/broken-missing-chunks": ("read", b_read_missing_chunks, needs_of("dtype:int32"))},
    ),
    Target(
        "order-f-ignored",
        ("read",),
        lambda c: (
            c.kind == "read"
            and c.format in ("v1", "v2")
            and (stored_doc(c) or {}).get("order") == "F"
        ),
        {
            "v2/read/broken-order-f": (
                "read",
                b_read_order_f,
                needs_of("dtype:int32", "feature:order-F"),
            )
        },
    ),
    Target(
        "byte-order-ignored",
        ("read",),
        lambda c: c.kind == "read" and "dtype:big-endian" in c.needs,
        {
            "v2/read/broken-big-endian": (
                "read",
                b_read_big_endian,
                needs_of("dtype:int32", "dtype:big-endian"),
            )
        },
    ),
    Target(
        "must-understand-ignored",
        ("reject",),
        lambda c: (
            c.kind == "reject"
            and c.format == "v3"
            and c.expect["reason"] in ("must-understand", "unknown-field")
        ),
        {
            "v3/reject/broken-unknown-member": (
                "reject",
                b_reject_unknown_member,
                needs_of("dtype:uint8"),
            )
        },
    ),
    Target(
        "checksum-ignored",
        ("reject",),
        lambda c: c.kind == "reject" and c.expect["reason"] == "checksum-mismatch",
        {
            "v3/reject/broken-bad-checksum": (
                "reject",
                b_reject_bad_checksum,
                needs_of("dtype:uint8", "codec:crc32c"),
            )
        },
    ),
    Target(
        "edge-chunk-truncated",
        ("write",),
        lambda c: (
            is_write(c)
            and c.expect["request"].get("data")
            and raw_layout(c)
            and has_edge(request_doc(c))
        ),
        {
            "v3/write/broken-edge-chunks": (
                "write",
                b_write_default_keys,
                needs_of("dtype:int32", "op:write"),
            )
        },
    ),
    Target(
        "attributes-dropped",
        ("read", "write"),
        lambda c: (
            (c.kind == "read" and c.expect.get("attributes"))
            or (is_write(c) and c.expect["request"].get("attributes"))
        ),
        {
            "v3/read/broken-attrs": ("read", b_read_attrs, needs_of("dtype:uint8")),
            "v3/write/broken-attrs": ("write", b_write_attrs, needs_of("dtype:uint8", "op:write")),
        },
    ),
    Target(
        "nan-fill-null",
        ("write",),
        lambda c: is_write(c) and request_doc(c).get("fill_value") == "NaN",
        {
            "v3/write/broken-nan-fill": (
                "write",
                b_write_nan_fill,
                needs_of("dtype:float64", "op:write"),
            )
        },
    ),
    Target(
        "v2-filters-reversed",
        ("read",),
        lambda c: (
            c.kind == "read"
            and c.format == "v2"
            and len((stored_doc(c) or {}).get("filters") or []) > 1
        ),
        {
            "v2/read/broken-two-filters": (
                "read",
                b_read_filters,
                needs_of("dtype:int32", "codec:delta", "codec:shuffle"),
            )
        },
    ),
    Target(
        "transpose-inverse",
        ("read",),
        lambda c: c.kind == "read" and c.format == "v3" and non_involution_transpose(stored_doc(c)),
        {
            "v3/read/broken-transpose": (
                "read",
                b_read_transpose,
                needs_of("dtype:int32", "codec:transpose"),
            )
        },
    ),
    Target(
        "partial-edge-chunk-dropped",
        ("write",),
        writes_regions,
        {
            "v3/update/broken-edge-region": (
                "write",
                b_update_edge_region,
                needs_of("dtype:int32", "op:write", "op:update"),
            )
        },
    ),
    Target(
        "shard-index-from-end",
        ("read",),
        lambda c: c.kind == "read" and "feature:sharding-index-start" in c.needs,
        {
            "v3/read/broken-shard-index-start": (
                "read",
                b_read_shard_index_start,
                needs_of(
                    "dtype:int32",
                    "codec:sharding_indexed",
                    "codec:crc32c",
                    "feature:sharding-index-start",
                ),
            )
        },
    ),
]


def build_fallback(root: Path, target: Target) -> Path:
    folder = root / target.bug
    for case_id, (kind, builder, needs) in target.fallback.items():
        fmt = case_id.split("/")[0]
        spec = CaseSpec(
            case_id,
            kind,
            fmt,
            "required",
            f"broken-implementation self-test case {case_id}",
            ("V3-SELFTEST",),
            tuple(sorted({f"format:{fmt}", *needs})),
            builder,
            question=SELF_TEST_QUESTIONS[kind],
        )
        for rel, value in build_case(spec).items():
            path = folder / case_id / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(value)
    return folder


def select(target: Target, cases) -> list:
    chosen = []
    for case in cases:
        try:
            if target.select(case):
                chosen.append(case)
        except (KeyError, TypeError, AttributeError, ZarrError):
            continue
    return chosen[:MAX_CASES]
