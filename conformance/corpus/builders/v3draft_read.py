"""v3-draft read cases: the key layout, implicit groups and children listing, node existence order,
the entry point and its extensions, and the array/group documents (V3DRAFT-KEY-*, V3DRAFT-META-*).
Data types, memory layouts, fill values, codecs and sharding are in v3draft_values.py."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import case
from .v3draft_kit import (
    CORE_URI,
    array_doc,
    data_prefix,
    entry_point,
    gzip_codec,
    meta_key,
    put_array,
    put_entry,
)

I4 = ["dtype:int32"]
G = ["node:group"]
ATTRS = {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}


def small_int32(w, path: str, entry: dict | None = None, **doc_changes) -> np.ndarray:
    """A (5, 7) int32 array in (2, 3) chunks, fill 42, chunk (1, 1) missing; returns expected data."""
    doc = array_doc((5, 7), (2, 3), "int32", 42, **doc_changes)
    data = sample(w.rng, (5, 7), "<i4", avoid=np.int32(42))
    return put_array(w, path, doc, data, np.array(42, "<i4"), skip={(1, 1)}, entry=entry)


def put_leaf(w, path: str) -> None:
    """A (3,) uint8 array with one chunk at `path` (for hierarchy cases)."""
    w.put_json(meta_key(path), array_doc((3,), (3,), "uint8", 0))
    w.put(data_prefix(path) + "c0", bytes([1, 2, 3]))


# ---- the key layout (V3DRAFT-KEY-002..005) ----------------------------------------------------------


@case(
    "v3-draft/keys/layout-table",
    kind="read",
    needs=I4 + G,
    requirements=[
        "V3DRAFT-KEY-002",
        "V3DRAFT-KEY-003",
        "V3DRAFT-KEY-009",
        "V3DRAFT-META-016",
        "V3DRAFT-META-018",
    ],
    description="draft keys as in the spec table: meta/group.json, meta/foo.group.json, meta/foo/bar.group.json, "
    "meta/foo/baz.array.json; group /foo has members {bar: group, baz: array}",
    question="spec-read",
)
def _(w):
    small_int32(w, "foo/baz")
    w.put_json(meta_key("", "group"), {"attributes": {"root": True}})
    w.put_json(meta_key("foo", "group"), {"attributes": {"spam": "ham", "eggs": 42}})
    w.put_json(meta_key("foo/bar", "group"), {"attributes": {}})
    w.node = "foo"
    w.expect_group(attributes={"spam": "ham", "eggs": 42}, members={"bar": "group", "baz": "array"})


@case(
    "v3-draft/keys/array-foo-baz",
    kind="read",
    needs=I4,
    requirements=["V3DRAFT-KEY-003", "V3DRAFT-KEY-004", "V3DRAFT-KEY-005", "V3DRAFT-META-004"],
    description="draft array /foo/baz (5,7) in (2,3) chunks at data/foo/baz/c<i>/<j>; chunk (1,1) is absent "
    "(fill 42) while a final-style decoy data/foo/baz/c/1/1 holds other values",
    question="spec-read",
)
def _(w):
    expected = small_int32(w, "foo/baz", attributes=ATTRS)
    w.put("data/foo/baz/c/1/1", np.full(6, -7, "<i4").tobytes())
    w.node = "foo/baz"
    w.expect_array(expected, attributes=ATTRS)


@case(
    "v3-draft/keys/root-array",
    kind="read",
    needs=["dtype:uint16"],
    requirements=["V3DRAFT-KEY-003", "V3DRAFT-KEY-004", "V3DRAFT-KEY-005"],
    description="draft root array: metadata at meta/array.json and chunks at data/c0/0 .. data/c2/1",
    question="spec-read",
)
def _(w):
    doc = array_doc((6, 5), (2, 3), "uint16", 0)
    data = sample(w.rng, (6, 5), "<u2", avoid=np.uint16(0))
    w.expect_array(put_array(w, "", doc, data, np.array(0, "<u2")))


@case(
    "v3-draft/keys/chunk-id-c1-23-45",
    kind="read",
    needs=["dtype:int8"],
    requirements=["V3DRAFT-KEY-005", "V3DRAFT-KEY-004"],
    description="draft 3-d int8 (2,24,46) in (1,1,1) chunks: only data/a/c1/23/45 exists (-5); the decoys "
    "data/a/c/1/23/45 and data/a/c1.23.45 are ignored and everything else reads as fill 7",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("a"), array_doc((2, 24, 46), (1, 1, 1), "int8", 7))
    w.put("data/a/c1/23/45", b"\xfb")
    w.put("data/a/c/1/23/45", b"\x63")
    w.put("data/a/c1.23.45", b"\x64")
    expected = np.full((2, 24, 46), 7, "|i1")
    expected[1, 23, 45] = -5
    w.node = "a"
    w.expect_array(expected)


@case(
    "v3-draft/keys/zero-d",
    kind="read",
    needs=["dtype:float64", "feature:0d"],
    requirements=["V3DRAFT-KEY-005", "V3DRAFT-META-008"],
    description="draft 0-d float64 array: its one chunk is data/s/c (a decoy at data/s/c0 is ignored)",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("s"), array_doc((), (), "float64", 0))
    w.put("data/s/c", np.array(-2.5, "<f8").tobytes())
    w.put("data/s/c0", np.array(99.0, "<f8").tobytes())
    w.node = "s"
    w.expect_array(np.array(-2.5, "<f8"))


@case(
    "v3-draft/keys/separator-dot",
    kind="read",
    needs=I4,
    requirements=["V3DRAFT-META-009", "V3DRAFT-KEY-005"],
    description="draft chunk_grid separator '.': chunks are data/a/c0.0 .. data/a/c2.2 and chunk (1,1) is absent",
    question="spec-read",
)
def _(w):
    w.node = "a"
    w.expect_array(small_int32(w, "a", separator="."))


# ---- implicit groups, children, existence order (V3DRAFT-KEY-008..010) -------------------------------


def implicit_store(w) -> None:
    """Only zarr.json and meta/foo/baz/qux.array.json (with a chunk): /, /foo and /foo/baz are implicit."""
    put_entry(w)
    put_leaf(w, "foo/baz/qux")


@case(
    "v3-draft/hierarchy/implicit-group",
    kind="read",
    needs=G + ["feature:implicit-groups", "dtype:uint8"],
    requirements=["V3DRAFT-KEY-008", "V3DRAFT-KEY-009", "V3DRAFT-KEY-010"],
    description="draft store with only zarr.json and meta/foo/baz/qux.array.json: /foo is a group with "
    "empty attributes and the one member baz (group)",
    question="spec-read",
)
def _(w):
    implicit_store(w)
    w.node = "foo"
    w.expect_group(attributes={}, members={"baz": "group"})


@case(
    "v3-draft/hierarchy/implicit-group-parent-of-array",
    kind="read",
    needs=G + ["feature:implicit-groups", "dtype:uint8"],
    requirements=["V3DRAFT-KEY-008", "V3DRAFT-KEY-009"],
    description="draft store with only zarr.json and meta/foo/baz/qux.array.json: /foo/baz is a group "
    "with empty attributes whose member is qux (array)",
    question="spec-read",
)
def _(w):
    implicit_store(w)
    w.node = "foo/baz"
    w.expect_group(attributes={}, members={"qux": "array"})


@case(
    "v3-draft/hierarchy/implicit-root",
    kind="read",
    needs=G + ["feature:implicit-groups", "dtype:uint8"],
    requirements=["V3DRAFT-KEY-008", "V3DRAFT-KEY-009"],
    description="draft store with no meta/group.json: the root is a group with empty attributes and member foo",
    question="spec-read",
)
def _(w):
    implicit_store(w)
    w.expect_group(attributes={}, members={"foo": "group"})


@case(
    "v3-draft/hierarchy/spec-example-children",
    kind="read",
    needs=G + ["feature:implicit-groups", "dtype:uint8"],
    requirements=["V3DRAFT-KEY-009", "V3DRAFT-KEY-008"],
    description="the spec's Discover-children example with its key corrected (meta/foo/baz/qux.array.json): "
    "/foo has children bar (explicit group) and baz (implicit group)",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("foo/bar", "group"), {"attributes": {"explicit": True}})
    put_leaf(w, "foo/baz/qux")
    w.node = "foo"
    w.expect_group(attributes={}, members={"bar": "group", "baz": "group"})


@case(
    "v3-draft/hierarchy/root-children-mixed",
    kind="read",
    needs=G + ["feature:implicit-groups", "dtype:uint8"],
    requirements=["V3DRAFT-KEY-009", "V3DRAFT-META-016"],
    description="draft root group with an explicit group g, arrays a and b.c, and an implicit group i "
    "(only meta/i/j/k.array.json): the members are exactly those four",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("", "group"), {"attributes": {"title": "mixed"}})
    w.put_json(meta_key("g", "group"), {"attributes": {}})
    for path in ("a", "b.c", "i/j/k", "g/inner"):
        put_leaf(w, path)
    w.expect_group(
        attributes={"title": "mixed"},
        members={"a": "array", "b.c": "array", "g": "group", "i": "group"},
    )


@case(
    "v3-draft/hierarchy/array-before-implicit",
    kind="read",
    needs=["dtype:uint8", "feature:implicit-groups"],
    requirements=["V3DRAFT-KEY-010"],
    description="draft path x with meta/x.array.json and also descendants meta/x/y.array.json resolves as an array",
    question="spec-read",
)
def _(w):
    put_entry(w)
    put_leaf(w, "x")
    put_leaf(w, "x/y")
    w.node = "x"
    w.expect_array(np.array([1, 2, 3], "|u1"))


@case(
    "v3-draft/hierarchy/array-before-group",
    kind="read",
    needs=["dtype:uint8"],
    requirements=["V3DRAFT-KEY-010"],
    description="draft path x with both meta/x.array.json and meta/x.group.json resolves as the array (checked first)",
    question="spec-read",
)
def _(w):
    put_entry(w)
    put_leaf(w, "x")
    w.put_json(meta_key("x", "group"), {"attributes": {"group": True}})
    w.node = "x"
    w.expect_array(np.array([1, 2, 3], "|u1"))


@case(
    "v3-draft/hierarchy/explicit-group-before-implicit",
    kind="read",
    needs=G + ["dtype:uint8"],
    requirements=["V3DRAFT-KEY-010", "V3DRAFT-META-016"],
    description="draft path x with meta/x.group.json and descendants is the explicit group: its attributes are read",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("x", "group"), {"attributes": {"explicit": [1, "two"]}})
    put_leaf(w, "x/y")
    w.node = "x"
    w.expect_group(attributes={"explicit": [1, "two"]}, members={"y": "array"})


# ---- entry point and extensions (V3DRAFT-META-001..003) -------------------------------------------------


@case(
    "v3-draft/entry/extension-must-understand-false",
    kind="read",
    needs=I4 + ["feature:must-understand-false"],
    requirements=["V3DRAFT-META-003", "V3DRAFT-META-002"],
    description="draft entry point with the spec's example extension (unknown URI, must_understand false) is ignored",
    question="spec-read",
)
def _(w):
    ext = {
        "extension": "http://example.org/zarr/extension/foo",
        "must_understand": False,
        "configuration": {"foo": "bar"},
    }
    w.node = "a"
    w.expect_array(small_int32(w, "a", entry=entry_point(extensions=[ext])))


@case(
    "v3-draft/entry/array-extension-must-understand-false",
    kind="read",
    needs=I4 + ["feature:must-understand-false"],
    requirements=["V3DRAFT-META-003"],
    description="draft array document whose extensions list holds an unknown URI with must_understand false opens",
    question="spec-read",
)
def _(w):
    ext = [{"extension": "https://example.org/zarr/ext/hint", "must_understand": False}]
    w.node = "a"
    w.expect_array(small_int32(w, "a", extensions=ext))


@case(
    "v3-draft/entry/minor-version-3-1",
    kind="read",
    needs=I4,
    tier="optional",
    requirements=["V3DRAFT-META-001"],
    description="draft entry point zarr_format .../core/3.1 (same major version) opens like 3.0",
    question="should",
)
def _(w):
    w.node = "a"
    w.expect_array(small_int32(w, "a", entry=entry_point(zarr_format=CORE_URI[:-3] + "3.1")))


@case(
    "v3-draft/entry/minor-version-ignores-unknown-members",
    kind="read",
    needs=I4,
    tier="optional",
    requirements=["V3DRAFT-META-001", "V3DRAFT-META-005"],
    description="draft 3.1 hierarchy: undefined members in zarr.json and in the array document are ignored "
    "under the stability policy",
    question="should",
)
def _(w):
    entry = entry_point(zarr_format=CORE_URI[:-3] + "3.1", future_member={"x": 1})
    w.node = "a"
    w.expect_array(small_int32(w, "a", entry=entry, dimension_names=["y", "x"]))


# ---- documents (V3DRAFT-META-004, -012, -014, -016, -017) ------------------------------------------------


@case(
    "v3-draft/meta/attributes",
    kind="read",
    needs=I4,
    requirements=["V3DRAFT-META-017", "V3DRAFT-META-004"],
    description="draft array attributes with nested objects, null, unicode keys and large integers read exactly",
    question="json-number-precision",
)
def _(w):
    attrs = {
        "nested": {"a": [1, 2.5, None, True]},
        "ünï": "日本",
        "big": 9007199254740993,
        "empty": {},
    }
    w.node = "a"
    w.expect_array(small_int32(w, "a", attributes=attrs), attributes=attrs)


@case(
    "v3-draft/meta/group-attributes",
    kind="read",
    needs=G,
    requirements=["V3DRAFT-META-016", "V3DRAFT-META-017"],
    description="draft explicit group meta/g.group.json {'attributes': {...}} with no children opens with its attributes",
    question="spec-read",
)
def _(w):
    put_entry(w)
    attrs = {"spam": "ham", "eggs": 42}
    w.put_json(meta_key("g", "group"), {"attributes": attrs})
    w.node = "g"
    w.expect_group(attributes=attrs, members={})


@case(
    "v3-draft/meta/codecs-empty-list",
    kind="read",
    needs=I4,
    requirements=["V3DRAFT-META-012"],
    description="draft array with codecs [] stores raw little-endian C-order chunks",
    question="spec-read",
)
def _(w):
    w.node = "a"
    w.expect_array(small_int32(w, "a", codecs=[]))


@case(
    "v3-draft/meta/storage-transformers-empty",
    kind="read",
    needs=I4,
    requirements=["V3DRAFT-META-014"],
    description="draft array with storage_transformers [] reads its chunks directly",
    question="spec-read",
)
def _(w):
    w.node = "a"
    w.expect_array(small_int32(w, "a", transformers=[]))


@case(
    "v3-draft/meta/spec-example-gzip-float64",
    kind="read",
    needs=["dtype:float64", "codec:gzip"],
    requirements=["V3DRAFT-META-004", "V3DRAFT-META-013", "V3DRAFT-META-011"],
    description="the spec's array example (data_type fixed to float64) at a small shape: gzip level 1, "
    "fill 'NaN', attributes foo/bar/baz, the last chunk absent",
    question="spec-read",
)
def _(w):
    doc = array_doc((9, 7), (4, 3), "float64", "NaN", codecs=[gzip_codec(1)], attributes=ATTRS)
    data = sample(w.rng, (9, 7), "<f8", avoid=np.float64(0))
    expected = put_array(w, "arr", doc, data, np.array(np.nan, "<f8"), skip={(2, 2)})
    w.node = "arr"
    w.expect_array(expected, attributes=ATTRS)
