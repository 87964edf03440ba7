"""ZOM (ZEP 6) cases with a hierarchy store (kind `zom`): building the model of the store must give
exactly model.json (the reference ZOM's deterministic output), and the direct members and root
attributes are stated in case.json as a group read expectation. Stores are hand-built key by key.
"""

from __future__ import annotations

import json

import numpy as np

from ...reference import zom
from ..data import sample
from ..generator import add_case
from .table_kit import each

# ---- v2 stores ------------------------------------------------------------------------------------------


def zarray(shape=(4,), chunks=(2,), dtype="<i4", **extra) -> dict:
    doc = {
        "zarr_format": 2,
        "shape": list(shape),
        "chunks": list(chunks),
        "dtype": dtype,
        "compressor": None,
        "fill_value": 0,
        "order": "C",
        "filters": None,
    }
    doc.update(extra)
    return doc


def put(w, key: str, doc) -> None:
    w.put(key, json.dumps(doc, sort_keys=True).encode())


def group_005(w) -> None:
    """The V2-GROUP-005 store: foo has exactly the members bar (group) and baz (array)."""
    put(w, "foo/.zgroup", {"zarr_format": 2})
    put(w, "foo/bar/.zgroup", {"zarr_format": 2})
    put(w, "foo/baz/.zarray", zarray())
    put(w, "foo/qux/quux/.zarray", zarray())
    w.put("foo/junk", b"not metadata")


V2_ATTRS = {"title": "root", "n": [1, 2.5, None], "flag": False}


def v2_hierarchy(w, variant: int, attributes: bool = True) -> None:
    """A v2 hierarchy with nested groups, F order, a big-endian separator-'/' array, bool, and blosc plus a
    delta filter. `variant` changes only chunk bytes (and which chunks exist)."""
    rng = np.random.default_rng(variant)
    put(w, ".zgroup", {"zarr_format": 2})
    put(w, "g/.zgroup", {"zarr_format": 2})
    put(w, "g/temp/.zarray", zarray((6, 4), (4, 3), "<f8", order="F", fill_value="NaN"))
    put(w, "ints/.zarray", zarray((5,), (2,), ">i2", dimension_separator="/", fill_value=-3))
    put(w, "flags/.zarray", zarray((3, 3), (3, 3), "|b1", fill_value=True))
    put(
        w,
        "z/.zarray",
        zarray(
            (10,),
            (5,),
            "<i4",
            compressor={"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
            filters=[{"id": "delta", "dtype": "<i4"}],
        ),
    )
    if attributes:
        put(w, ".zattrs", V2_ATTRS)
        put(w, "g/.zattrs", {"ü": {"nested": True}})
        put(w, "g/temp/.zattrs", {"_ARRAY_DIMENSIONS": ["y", "x"], "units": "K"})
    for key in (
        ("g/temp/0.0", "g/temp/1.1") if variant == 0 else ("g/temp/0.0", "g/temp/0.1", "g/temp/1.0")
    ):
        w.put(key, rng.random(12).tobytes())
    w.put(
        "ints/1" if variant == 0 else "ints/2", rng.integers(-100, 100, 2).astype(">i2").tobytes()
    )
    w.put("flags/0.0", rng.integers(0, 2, 9).astype("u1").tobytes())


V2_MEMBERS = {"flags": "array", "g": "group", "ints": "array", "z": "array"}
V2_NEEDS = [
    "dtype:float64",
    "dtype:int16",
    "dtype:bool",
    "dtype:int32",
    "dtype:big-endian",
    "codec:blosc",
    "codec:delta",
    "feature:order-F",
    "node:group",
]

# ---- v3 stores ------------------------------------------------------------------------------------------


def v3_array(shape, chunks, data_type, fill_value, codecs=None, **extra) -> dict:
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill_value,
        "codecs": codecs or [{"name": "bytes", "configuration": {"endian": "little"}}],
    }
    doc.update(extra)
    return doc


def v3_group(**extra) -> dict:
    return {"zarr_format": 3, "node_type": "group", **extra}


V3_ATTRS = {"title": "dtypes", "version": 2}


def v3_hierarchy(w, variant: int) -> None:
    """A v3 hierarchy with arrays of several data types, fills and codecs; `variant` changes only chunks."""
    put(w, "zarr.json", v3_group(attributes=V3_ATTRS))
    put(w, "g/zarr.json", v3_group(attributes={"ü": [1, None]}))
    put(
        w,
        "g/temp/zarr.json",
        v3_array(
            (6, 4), (4, 3), "float64", "NaN", dimension_names=["y", None], attributes={"units": "K"}
        ),
    )
    put(w, "g/empty/zarr.json", v3_group())
    put(w, "i8/zarr.json", v3_array((5,), (2,), "int8", -128, codecs=[{"name": "bytes"}]))
    put(
        w,
        "u64/zarr.json",
        v3_array(
            (8,),
            (4,),
            "uint64",
            18446744073709551615,
            codecs=[{"name": "bytes", "configuration": {"endian": "big"}}, {"name": "crc32c"}],
            chunk_key_encoding={"name": "v2", "configuration": {"separator": "."}},
        ),
    )
    put(w, "c64/zarr.json", v3_array((2,), (2,), "complex64", ["NaN", 0]))
    put(
        w,
        "f16/zarr.json",
        v3_array(
            (3, 2),
            (2, 2),
            "float16",
            "0x7e01",
            codecs=[
                {"name": "transpose", "configuration": {"order": [1, 0]}},
                {"name": "bytes", "configuration": {"endian": "little"}},
                {"name": "gzip", "configuration": {"level": 1}},
            ],
        ),
    )
    put(
        w,
        "flags/zarr.json",
        v3_array((3,), (3,), "bool", False, codecs=[{"name": "bytes"}], storage_transformers=[]),
    )
    rng = np.random.default_rng(variant)
    w.put("g/temp/c/0/0", rng.random(12).tobytes())
    w.put("i8/c/0" if variant == 0 else "i8/c/2", rng.integers(-100, 100, 2).astype("i1").tobytes())
    w.put("flags/c/0", rng.integers(0, 2, 3).astype("u1").tobytes())


V3_MEMBERS = {
    "c64": "array",
    "f16": "array",
    "flags": "array",
    "g": "group",
    "i8": "array",
    "u64": "array",
}
V3_NEEDS = [
    "dtype:float64",
    "dtype:int8",
    "dtype:uint64",
    "dtype:complex64",
    "dtype:float16",
    "dtype:bool",
    "codec:bytes",
    "codec:crc32c",
    "codec:transpose",
    "codec:gzip",
    "feature:dimension-names",
    "feature:chunk-key-encoding-v2",
    "node:group",
]


# ---- case registration -------------------------------------------------------------------------------------


def store_case(
    case_id,
    requirements,
    description,
    fill,
    *,
    members=None,
    attributes=None,
    node="",
    needs=(),
    tier=None,
    array=False,
):
    """`fill(w)` builds the store; the model of `node` is written to model.json by the reference ZOM.
    A group states its direct `members`; for an array (`array=True`) `fill` returns the expected data."""
    fmt = case_id.split("/")[0]

    def build(w):
        data = fill(w)
        w.node = node
        if array:
            w.expect_array(data, attributes=attributes or {})
        else:
            w.expect_group(attributes=attributes or {}, members=members or {})
        w.expect["model"] = "model.json"
        w.files["model.json"] = zom.dumps(zom.from_store(w.store, node, format=fmt))

    add_case(
        case_id,
        kind="zom",
        build=build,
        needs=needs,
        tier=tier,
        requirements=requirements,
        description=description,
    )


def _v2_structured(w) -> None:
    put(w, ".zgroup", {"zarr_format": 2})
    put(w, "s/.zarray", zarray((2,), (2,), [["x", "<f4"], ["y", "<u2", [2]]], fill_value=None))
    put(w, "s/.zattrs", {"fields": ["x", "y"]})
    w.put("s/0", np.arange(16, dtype="u1").tobytes())


def _v2_root_array(w) -> np.ndarray:
    put(w, ".zarray", zarray((5,), (2,), "<u2", fill_value=9))
    put(w, ".zattrs", {"units": "m"})
    data = sample(w.rng, (5,), "<u2", avoid=np.uint16(9))
    w.put("0", data[0:2].tobytes())
    w.put("2", np.array([data[4], 0xABCD], "<u2").tobytes())  # edge chunk overhang is junk
    data[2:4] = 9  # chunk 1 is absent
    return data


def _clash(w) -> None:
    put(
        w,
        "zarr.json",
        v3_group(attributes={"a": 1}, members={"must_understand": False, "listing": ["x"]}),
    )
    put(w, "x/zarr.json", v3_group())


def _clash_twice(w) -> None:
    put(
        w,
        "zarr.json",
        v3_group(
            members={"must_understand": False, "n": 1}, _members={"must_understand": False, "n": 2}
        ),
    )
    put(w, "y/zarr.json", v3_group())


def _no_attributes(w) -> None:
    put(w, "zarr.json", v3_group())
    put(w, "a/zarr.json", v3_array((3,), (2,), "int32", 0))
    put(w, "b/zarr.json", v3_group())


def _not_members(w) -> None:
    put(w, "zarr.json", v3_group(attributes={"k": "v"}))
    put(w, "a/zarr.json", v3_array((3,), (2,), "int32", 0))
    put(w, "b/zarr.json", v3_group())
    put(w, "b/c/d/zarr.json", v3_group())  # c has no zarr.json: not a member of b
    w.put("e/c/0", b"\x00" * 8)  # keys without metadata
    w.put("__meta/info", b"reserved")
    put(w, "__ext/zarr.json", v3_group())  # '__' names are reserved, never members


def _consolidated_siblings(w) -> None:
    """Sibling groups a and b whose children interleave in the consolidated metadata, as written
    (a, b, a/x, b/y, a/z: a JSON object's member order means nothing): zarr-python before 3.4 grouped
    the keys with itertools.groupby, which only groups neighbours, and lost a's child x."""
    leaf = v3_array((2,), (2,), "uint8", 0, codecs=[{"name": "bytes"}], attributes={})
    nodes = {
        "a": v3_group(attributes={"n": 1}),
        "b": v3_group(attributes={"n": 2}),
        "a/x": leaf,
        "b/y": leaf,
        "a/z": leaf,
    }
    consolidated = {"kind": "inline", "must_understand": False, "metadata": nodes}
    root = v3_group(attributes={}, consolidated_metadata=consolidated)
    w.put("zarr.json", json.dumps(root).encode())  # member order as listed, not sorted
    for path, doc in nodes.items():
        put(w, f"{path}/zarr.json", doc)
    for path in ("a/x", "b/y", "a/z"):
        w.put(f"{path}/c/0", b"\x01\x02")


def _deep(w) -> None:
    put(w, "zarr.json", v3_group())
    path = ""
    for name in ("l1", "l2", "l3", "l4"):
        path = f"{path}{name}/"
        put(w, f"{path}zarr.json", v3_group(attributes={"depth": len(path.split("/")) - 1}))
    put(w, f"{path}leaf/zarr.json", v3_array((2,), (2,), "uint8", 0, codecs=[{"name": "bytes"}]))


def _v3_root_array(w) -> np.ndarray:
    put(
        w,
        "zarr.json",
        v3_array(
            (5,),
            (2,),
            "int16",
            -1,
            attributes={"units": "m"},
            dimension_names=["t"],
            hint={"must_understand": False, "note": "kept"},
        ),
    )
    data = sample(w.rng, (5,), "<i2", avoid=np.int16(-1))
    w.put("c/0", data[0:2].tobytes())
    w.put("c/2", np.array([data[4], 0x5A5A], "<i2").tobytes())  # edge chunk overhang is junk
    data[2:4] = -1  # chunk 1 is absent
    return data


# fmt: off
STORES = [
    # case_id, requirements, description, fill[, options]
    ("v2/zom/store-group-005", ["ZOM-004", "ZOM-001", "ZOM-002"], "model of the V2-GROUP-005 group foo: members exactly {bar, baz} (not qux, not the stray key foo/junk), attributes {} on every node", group_005, {"question": "zom-model", "node": "foo", "members": {"bar": "group", "baz": "array"}, "needs": ["dtype:int32", "node:group"]}),
    ("v2/zom/store-hierarchy", ["ZOM-001", "ZOM-002", "ZOM-004", "ZOM-007", "ZOM-018"], "model of a v2 hierarchy: .zattrs become attributes, .zarray keys are copied (F order, NaN fill, dimension_separator, blosc + delta)", lambda w: v2_hierarchy(w, 0), {"question": "zom-model", "attributes": V2_ATTRS, "members": V2_MEMBERS, "needs": V2_NEEDS}),
    ("v2/zom/store-hierarchy-other-chunks", ["ZOM-017"], "the v2 hierarchy of store-hierarchy with different chunk bytes and other chunks present gives the identical model", lambda w: v2_hierarchy(w, 1), {"question": "zep6-original-schema", "tier": "optional", "attributes": V2_ATTRS, "members": V2_MEMBERS, "needs": V2_NEEDS}),
    ("v2/zom/store-no-attributes", ["ZOM-001"], "model of a v2 hierarchy with no .zattrs anywhere: every node has attributes {}", lambda w: v2_hierarchy(w, 0, attributes=False), {"question": "zom-model", "members": V2_MEMBERS, "needs": V2_NEEDS}),
    ("v2/zom/store-subgroup", ["ZOM-004", "ZOM-002"], "model of the v2 subgroup g opened by path: its own attributes and only its member temp", lambda w: v2_hierarchy(w, 0), {"question": "zom-model", "node": "g", "attributes": {"ü": {"nested": True}}, "members": {"temp": "array"}, "needs": ["dtype:float64", "feature:order-F", "node:group"]}),
    ("v2/zom/store-structured-dtype", ["ZOM-002"], "model of a v2 group holding a structured array: the dtype list [['x', '<f4'], ['y', '<u2', [2]]] and fill_value null are copied as they are", _v2_structured, {"question": "zom-model", "members": {"s": "array"}, "needs": ["dtype:structured", "node:group"]}),
    ("v2/zom/store-array-root", ["ZOM-002", "ZOM-003"], "model of a v2 store whose root is an array: the .zarray keys plus attributes and no members", _v2_root_array, {"question": "zom-model", "attributes": {"units": "m"}, "needs": ["dtype:uint16"], "array": True}),
    ("v3/zom/store-hierarchy-dtypes", ["ZOM-002", "ZOM-004", "ZOM-008", "ZOM-011", "ZOM-012", "ZOM-018"], "model of a v3 hierarchy with float64 (dimension_names ['y', null]), int8, uint64 max fill with crc32c and v2 keys, complex64 ['NaN', 0], float16 with transpose and gzip, bool: zarr.json kept as stored", lambda w: v3_hierarchy(w, 0), {"question": "optional-data-type", "attributes": V3_ATTRS, "members": V3_MEMBERS, "needs": V3_NEEDS}),
    ("v3/zom/store-hierarchy-dtypes-other-chunks", ["ZOM-017"], "the v3 hierarchy of store-hierarchy-dtypes with different chunk bytes and other chunks present gives the identical model", lambda w: v3_hierarchy(w, 1), {"question": "zep6-original-schema", "tier": "optional", "attributes": V3_ATTRS, "members": V3_MEMBERS, "needs": V3_NEEDS}),
    ("v3/zom/store-subgroup", ["ZOM-004"], "model of the v3 subgroup g opened by path: members empty (group, with members {}) and temp (array)", lambda w: v3_hierarchy(w, 0), {"question": "zom-model", "node": "g", "attributes": {"ü": [1, None]}, "members": {"empty": "group", "temp": "array"}, "needs": ["dtype:float64", "feature:dimension-names", "node:group"]}),
    ("v3/zom/store-members-name-clash", ["ZOM-006", "ZOM-004"], "model of a v3 group whose zarr.json has its own 'members' (must_understand false): kept as '_members', while 'members' holds the child x", _clash, {"question": "zom-model", "attributes": {"a": 1}, "members": {"x": "group"}, "needs": ["node:group", "feature:must-understand-false"]}),
    ("v3/zom/store-members-name-clash-twice", ["ZOM-006"], "model of a v3 group whose zarr.json has both 'members' and '_members': they become '__members' and '_members'", _clash_twice, {"question": "zom-model", "members": {"y": "group"}, "needs": ["node:group", "feature:must-understand-false"]}),
    ("v3/zom/store-attributes-absent", ["ZOM-001"], "model of v3 documents that have no attributes member: every node gets attributes {}", _no_attributes, {"question": "zom-model", "members": {"a": "array", "b": "group"}, "needs": ["dtype:int32", "node:group"]}),
    ("v3/zom/store-only-real-members", ["ZOM-004", "ZOM-005"], "model of a v3 root with arrays/groups a and b plus e/ (no zarr.json), __meta and __ext: members are {a, b}, and b has no members", _not_members, {"question": "invalid-node-name", "attributes": {"k": "v"}, "members": {"a": "array", "b": "group"}, "needs": ["dtype:int32", "node:group"]}),
    ("v3/zom/store-consolidated-sibling-groups", ["ZOM-004", "V3-GRP-004"], "model of a v3 root whose consolidated metadata (must_understand false) lists a, b, a/x, b/y, a/z in that order: the model holds a with members x and z and b with y, whether or not a reader uses the consolidated metadata", _consolidated_siblings, {"question": "zom-model", "members": {"a": "group", "b": "group"}, "needs": ["dtype:uint8", "codec:bytes", "node:group", "feature:consolidated"]}),
    ("v3/zom/store-deep", ["ZOM-004"], "model of a v3 chain of groups l1/l2/l3/l4 holding an array leaf: members nest one level per group", _deep, {"question": "zom-model", "members": {"l1": "group"}, "needs": ["dtype:uint8", "node:group"]}),
    ("v3/zom/store-array-root", ["ZOM-002", "ZOM-003", "ZOM-008"], "model of a v3 store whose root is an array with dimension_names and a must_understand-false member: its zarr.json unchanged, no members", _v3_root_array, {"question": "zom-model", "attributes": {"units": "m"}, "array": True, "needs": ["dtype:int16", "codec:bytes", "feature:dimension-names", "feature:must-understand-false"]}),
]
# fmt: on

each(store_case, STORES)
