"""v2 hierarchies: groups (V2-GROUP-*), logical paths and keys (V2-KEY-*, V2-STORE-001), attributes
(V2-ATTR-*) and zarr-python's consolidated `.zmetadata` convention."""

from __future__ import annotations

import json

import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .table_kit import each
from .v2_kit import COMPRESSORS, dumps, put_array, put_group, reject_case, zarray

I4 = ["dtype:int32"]
SPEC_ATTRS = {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}  # the v2.0.rst example
UNICODE_ATTRS = {"\u00fc": [None, {"a": [1.5, "x"]}]}  # V2-ATTR-003
GROUP_DOC = {"zarr_format": 2}


def _small_array(w, path: str, fill=0, attrs=None, separator=None) -> np.ndarray:
    """A <i4 (3,4) array in (2,3) zlib chunks at `path`, one chunk missing; returns the expected data."""
    extra = {"dimension_separator": separator} if separator else {}
    doc = zarray((3, 4), (2, 3), "<i4", fill, compressor=COMPRESSORS["zlib"], **extra)
    data = sample(w.rng, (3, 4), "<i4", avoid=np.int32(fill))
    expected, _ = put_array(w, path, doc, data, skip={(1, 1)}, attrs=attrs)
    return expected


# ---- groups: reads ----------------------------------------------------------------------
def _members_fixture(w) -> None:
    """The V2-GROUP-005 store: foo/.zgroup, foo/bar/.zgroup, foo/baz/.zarray, foo/qux/quux/.zarray
    (no foo/qux/.zgroup) and a stray key foo/junk; no root .zgroup."""
    put_group(w, "foo")
    put_group(w, "foo/bar")
    _small_array(w, "foo/baz")
    _small_array(w, "foo/qux/quux")
    w.put("foo/junk", b"not a node")


@case(
    "v2/groups/members",
    kind="read",
    needs=["node:group", *I4, "codec:zlib"],
    requirements=["V2-GROUP-005", "V2-GROUP-006", "V2-GROUP-001"],
    description="v2 group foo with children bar (group), baz (array), qux/quux (array under a path with no "
    ".zgroup) and a stray key junk: its members are exactly {bar: group, baz: array}",
    question="spec-read",
)
def _(w):
    _members_fixture(w)
    w.node = "foo"
    w.expect_group(members={"bar": "group", "baz": "array"})


@case(
    "v2/groups/v3-array-not-a-member",
    kind="read",
    needs=["node:group", *I4, "codec:zlib"],
    requirements=["V2-GROUP-005", "V2-GROUP-001"],
    description="v2 root group with a v2 array a and, under b, a v3 zarr.json array (as zarr-python "
    "before 3.4.1 wrote from a v2 group's zeros/full): its members are exactly {a: array}",
    question="spec-read",
)
def _(w):
    put_group(w, "")
    _small_array(w, "a")
    w.put_json(
        "b/zarr.json",
        {
            "zarr_format": 3,
            "node_type": "array",
            "shape": [4],
            "data_type": "int32",
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": 0,
            "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
            "attributes": {},
        },
    )
    w.put("b/c/0", np.arange(4, dtype="<i4").tobytes())
    w.expect_group(members={"a": "array"})


@case(
    "v2/groups/open-below-root",
    kind="read",
    needs=["node:group", *I4, "codec:zlib"],
    requirements=["V2-GROUP-006"],
    description="v2 hierarchy with no root .zgroup: the group foo/bar opens on its own (no fixed root)",
    question="spec-read",
)
def _(w):
    _members_fixture(w)
    w.put("foo/bar/.zattrs", dumps({"level": 2}))
    w.node = "foo/bar"
    w.expect_group(attributes={"level": 2}, members={})


@case(
    "v2/groups/array-below-non-group",
    kind="read",
    needs=[*I4, "codec:zlib"],
    requirements=["V2-GROUP-001"],
    description="v2 store with a/b/.zarray and no a/.zgroup: a/b still opens as an array",
    question="spec-read",
)
def _(w):
    put_group(w, "")
    w.node = "a/b"
    w.expect_array(_small_array(w, "a/b"))


@case(
    "v2/groups/root-skips-non-group",
    kind="read",
    needs=["node:group", *I4, "codec:zlib"],
    requirements=["V2-GROUP-001", "V2-GROUP-005"],
    description="v2 root group whose only path a has no .zgroup (a/b is an array): the root has no members",
    question="spec-read",
)
def _(w):
    put_group(w, "")
    _small_array(w, "a/b")
    w.expect_group(members={})


@case(
    "v2/groups/nested-members",
    kind="read",
    needs=["node:group", *I4, "codec:zlib"],
    requirements=["V2-GROUP-005", "V2-ATTR-001"],
    description="v2 root group with arrays x, y and group g (holding array g/z): root members are {g, x, y}",
    question="spec-read",
)
def _(w):
    put_group(w, "", attrs={"title": "root"})
    put_group(w, "g")
    for path in ("x", "y", "g/z"):
        _small_array(w, path)
    w.expect_group(attributes={"title": "root"}, members={"g": "group", "x": "array", "y": "array"})


@case(
    "v2/groups/zgroup-extra-key",
    kind="read",
    needs=["node:group"],
    tier="optional",
    requirements=["V2-GROUP-002"],
    description='v2 .zgroup {"zarr_format": 2, "foo": "bar"} (a key it must not have): lenient readers open it',
    question="lenient-read",
)
def _(w):
    w.put(".zgroup", dumps({"zarr_format": 2, "foo": "bar"}))
    put_group(w, "child")
    w.expect_group(members={"child": "group"})


@case(
    "v2/groups/reject-path-without-zgroup",
    kind="reject",
    needs=[*I4, "codec:zlib", "node:group"],
    requirements=["V2-GROUP-001"],
    description="v2 store with a/b/.zarray and no a/.zgroup: opening a fails (a group exists only with .zgroup)",
    question="no-metadata-document",
    tests=".zgroup",
)
def _(w):
    put_group(w, "")
    _small_array(w, "a/b")
    w.node = "a"
    w.expect_reject("node-not-found")


# fmt: off
REJECTS = [
    # case_id, doc_or_bytes, reason, requirements, description[, options]
    ("v2/groups/reject-zgroup-zarr-format-3", {"zarr_format": 3}, "invalid-zarr-format", ["V2-GROUP-002"], 'v2 .zgroup {"zarr_format": 3} is rejected', {"tests": "zarr_format", "question": "other-format", "key": ".zgroup", "chunk": False, "needs": ["node:group"]}),
    ("v2/groups/reject-zgroup-empty-object", {}, "missing-field", ["V2-GROUP-002"], "v2 .zgroup {} (no zarr_format) is rejected", {"tests": "zarr_format", "question": "missing-member", "key": ".zgroup", "chunk": False, "needs": ["node:group"]}),
    ("v2/groups/reject-zgroup-not-json", b'{"zarr_format": 2', "invalid-json", ["V2-GROUP-002"], "v2 .zgroup that is not JSON (unterminated object) is rejected", {"tests": "JSON", "question": "unreadable-document", "key": ".zgroup", "chunk": False, "needs": ["node:group"]}),
    ("v2/groups/reject-zgroup-list", b"[2]", "invalid-metadata", ["V2-GROUP-002"], "v2 .zgroup that is a JSON list is rejected", {"tests": "JSON", "question": "unreadable-document", "key": ".zgroup", "chunk": False, "needs": ["node:group"]}),
    ("v2/groups/reject-array-and-group", zarray((4,), (4,), "<i4", 0), "invalid-node-type", ["V2-GROUP-001"], "v2 node with both .zarray and .zgroup is rejected (it cannot be both)", {"question": "spec-silent", "needs": I4, "extra": {".zgroup": dumps(GROUP_DOC)}}),
]
# fmt: on

each(reject_case, REJECTS)

# ---- paths with '.' or '..' segments (V2-KEY-005): the store holds arrays where a resolver that
# normalised them away would land, so only a reader that raises passes ----------------------
_PATH_STORE = {
    ".zgroup": dumps(GROUP_DOC),
    "foo/.zgroup": dumps(GROUP_DOC),
    "bar/.zarray": dumps(zarray((4,), (4,), "<i4", 0)),
    "bar/0": np.arange(4, dtype="<i4").tobytes(),
    "foo/.zattrs": dumps({"decoy": True}),
}
with verdict(question="invalid-path", tests="path segment"):
    for _slug, _node in [
        ("dotdot-inside", "foo/../bar"),
        ("dot-leading", "./foo"),
        ("dot-trailing", "foo/."),
        ("dotdot-backslash", "foo\\..\\bar"),
        ("dotdot-trailing", "foo/.."),
        ("dotdot-alone", ".."),
    ]:

        def _build(w, node=_node):
            for k, v in _PATH_STORE.items():
                w.put(k, v)
            w.node = node
            w.expect_reject("invalid-path")

        add_case(
            f"v2/keys/reject-{_slug}",
            kind="reject",
            build=_build,
            needs=I4,
            requirements=["V2-KEY-005"],
            description=f"v2 opening the path {_node!r} raises: after normalisation it has a '.' or '..' segment "
            "(arrays and groups exist where it would resolve)",
        )


# The same paths given to a writer: the request itself must be refused (and nothing written there).
with verdict(question="invalid-path"):
    for _slug, _path, _kind in [
        ("dotdot-inside", "foo/../bar", "array"),
        ("dot-leading", "./foo", "array"),
        ("dot-trailing", "foo/.", "group"),
        ("dotdot-backslash", "foo\\..\\bar", "group"),
    ]:

        def _build(w, path=_path, kind=_kind):
            if kind == "group":
                w.expect_write(
                    node_type="group", path=path, metadata=None, must_fail="invalid-path"
                )
            else:
                w.expect_write(
                    path=path,
                    metadata=zarray((4,), (2,), "<i4", 0),
                    data=np.arange(1, 5, dtype="<i4"),
                    must_fail="invalid-path",
                )

        add_case(
            f"v2/keys/write-refused-{_slug}",
            kind="write",
            build=_build,
            requirements=["V2-KEY-005"],
            needs=["op:write", *(["node:group"] if _kind == "group" else I4)],
            description=f"v2 creating {'a group' if _kind == 'group' else 'an array'} at {_path!r} is refused: "
            "the normalised path has a '.' or '..' segment",
        )


# ---- keys: reads ----------------------------------------------------------------------------
def _hierarchy(w) -> np.ndarray:
    put_group(w, "")
    put_group(w, "g", attrs={"kind": "container"})
    return _small_array(w, "g/arr", attrs={"units": "m"}, separator="/")


with verdict(question="spec-read"):
    for _zip in (False, True):

        def _build(w, as_zip=_zip):
            expected = _hierarchy(w)
            w.zip = as_zip
            w.node = "g/arr"
            w.expect_array(expected, attributes={"units": "m"})

        add_case(
            f"v2/keys/hierarchy-{'zip' if _zip else 'directory'}",
            kind="read",
            build=_build,
            needs=[*I4, "codec:zlib", "feature:dimension-separator-slash"],
            requirements=["V2-KEY-007", "V2-KEY-006"],
            description=f"v2 array g/arr with '/' chunk keys in a root group, stored as "
            f"{'a zip with flat entry names' if _zip else 'nested directories'}: the same data and attributes",
        )

        def _build_group(w, as_zip=_zip):
            _hierarchy(w)
            w.zip = as_zip
            w.node = "g"
            w.expect_group(attributes={"kind": "container"}, members={"arr": "array"})

        add_case(
            f"v2/keys/hierarchy-group-{'zip' if _zip else 'directory'}",
            kind="read",
            build=_build_group,
            needs=[*I4, "codec:zlib", "feature:dimension-separator-slash", "node:group"],
            requirements=["V2-KEY-007", "V2-GROUP-005"],
            description=f"v2 group g of the same hierarchy as {'a zip' if _zip else 'a directory'}: members {{arr: array}}",
        )


@case(
    "v2/keys/nested-array-prefix",
    kind="read",
    needs=[*I4, "codec:zlib"],
    requirements=["V2-KEY-006"],
    description="v2 array at foo/bar/baz: metadata at foo/bar/baz/.zarray and chunks at foo/bar/baz/0.0 ...; a decoy "
    "chunk 0.0 at the root is not read",
    question="spec-read",
)
def _(w):
    put_group(w, "")
    put_group(w, "foo")
    put_group(w, "foo/bar")
    w.put("0.0", np.full(6, 99, "<i4").tobytes())
    w.node = "foo/bar/baz"
    w.expect_array(_small_array(w, "foo/bar/baz"))


# ---- attributes: reads ----------------------------------------------------------------------
@case(
    "v2/attributes/spec-example",
    kind="read",
    needs=[*I4, "codec:zlib"],
    requirements=["V2-ATTR-001"],
    description='v2 array .zattrs {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]} is reported as those attributes',
    question="spec-read",
)
def _(w):
    w.expect_array(_small_array(w, "", attrs=SPEC_ATTRS), attributes=SPEC_ATTRS)


@case(
    "v2/attributes/unicode-escaped",
    kind="read",
    needs=[*I4, "codec:zlib"],
    requirements=["V2-ATTR-003", "V2-STORE-001"],
    description='v2 .zattrs written as ASCII JSON with \\u escapes: {"\\u00fc": [null, {"a": [1.5, "x"]}]} reads as "ü"',
    question="spec-read",
)
def _(w):
    expected = _small_array(w, "")
    w.put(".zattrs", json.dumps(UNICODE_ATTRS).encode("ascii"))
    w.expect_array(expected, attributes=UNICODE_ATTRS)


@case(
    "v2/attributes/unicode-utf8",
    kind="read",
    needs=["node:group"],
    requirements=["V2-ATTR-003"],
    description="v2 group .zattrs holding raw UTF-8 (not escaped) non-ASCII text and nested values reads the same",
    question="spec-read",
)
def _(w):
    attrs = {
        "name": "Gr\u00fc\u00dfe \u65e5\u672c",
        "nested": {"list": [None, True, -0.5, {"k": []}]},
        "": "empty key",
    }
    put_group(w, "")
    w.put(".zattrs", json.dumps(attrs, ensure_ascii=False).encode("utf-8"))
    w.expect_group(attributes=attrs, members={})


@case(
    "v2/attributes/missing-array",
    kind="read",
    needs=[*I4, "codec:zlib"],
    requirements=["V2-ATTR-002"],
    description="v2 array without .zattrs reports attributes {} and does not raise",
    question="spec-read",
)
def _(w):
    w.expect_array(_small_array(w, ""), attributes={})


@case(
    "v2/attributes/missing-group",
    kind="read",
    needs=["node:group"],
    requirements=["V2-ATTR-002"],
    description="v2 group without .zattrs reports attributes {} and does not raise",
    question="spec-read",
)
def _(w):
    put_group(w, "")
    put_group(w, "sub")
    w.expect_group(attributes={}, members={"sub": "group"})


# fmt: off
ATTRIBUTE_REJECTS = [
    # case_id, doc_or_bytes, reason, requirements, description[, options]
    ("v2/attributes/reject-list", [1, 2], "invalid-attributes", ["V2-ATTR-001"], "v2 array whose .zattrs is a JSON list, not an object, is rejected", {"question": "wrong-structure", "key": ".zattrs", "needs": I4, "extra": {".zarray": dumps(zarray((4,), (4,), "<i4", 0))}}),
    ("v2/attributes/reject-not-json", b"{'a': 1}", "invalid-json", ["V2-ATTR-001"], "v2 group whose .zattrs is not JSON (single quotes) is rejected", {"question": "json-lenient", "key": ".zattrs", "chunk": False, "needs": ["node:group"], "extra": {".zgroup": dumps(GROUP_DOC)}}),
]
# fmt: on

each(reject_case, ATTRIBUTE_REJECTS, tests="JSON object")


# ---- consolidated metadata (zarr-python convention, optional) -------------------------------
def _consolidated(w) -> np.ndarray:
    put_group(w, "", attrs={"title": "consolidated"})
    put_group(w, "g")
    expected = _small_array(w, "g/arr", attrs={"units": "s"})
    metadata = {
        k: json.loads(v)
        for k, v in sorted(w.store.data.items())
        if k.rsplit("/", 1)[-1] in (".zarray", ".zgroup", ".zattrs")
    }
    w.put(".zmetadata", dumps({"zarr_consolidated_format": 1, "metadata": metadata}))
    return expected


@case(
    "v2/groups/consolidated-root",
    kind="read",
    needs=["node:group", "feature:consolidated", *I4, "codec:zlib"],
    tier="optional",
    requirements=["V2-GROUP-005", "V2-ATTR-001"],
    description="v2 root group with a consistent consolidated .zmetadata: members and attributes are the same",
    question="convention",
)
def _(w):
    _consolidated(w)
    w.expect_group(attributes={"title": "consolidated"}, members={"g": "group"})


@case(
    "v2/groups/consolidated-array",
    kind="read",
    needs=["feature:consolidated", *I4, "codec:zlib"],
    tier="optional",
    requirements=["V2-KEY-006", "V2-ATTR-001"],
    description="v2 array g/arr in a store with a consolidated .zmetadata at the root reads its data and attributes",
    question="convention",
)
def _(w):
    expected = _consolidated(w)
    w.node = "g/arr"
    w.expect_array(expected, attributes={"units": "s"})


# ---- writes -------------------------------------------------------------------------------
def _write_array(
    case_id,
    path,
    description,
    requirements,
    *,
    required=(),
    forbidden=(),
    keys=None,
    documents=None,
    attributes=None,
    needs=(),
    tier=None,
):
    def build(w):
        doc = zarray((3, 4), (2, 3), "<i4", 0)
        data = sample(w.rng, (3, 4), "<i4", avoid=np.int32(0))
        w.expect_write(
            path=path,
            metadata=doc,
            data=data,
            attributes=attributes,
            keys=keys,
            required_keys=required,
            forbidden_keys=forbidden,
            documents=documents,
            exact_basis=["V2-GROUP-002"] if documents else (),
        )

    add_case(
        case_id,
        kind="write",
        build=build,
        requirements=requirements,
        description=description,
        tier=tier,
        needs=[*I4, "op:write", *needs],
    )


_CHUNKS = ["0.0", "0.1", "1.0", "1.1"]


def _under(prefix: str, names=(".zarray", *_CHUNKS)) -> list[str]:
    return [f"{prefix}/{n}" for n in names]


# fmt: off
ARRAY_WRITES = [
    # case_id, path, description, requirements[, options]
    ("v2/keys/write-backslash", "foo\\bar", "v2 write of an array at foo\\bar: keys foo/bar/.zarray and foo/bar/0.0..., never under foo\\bar", ["V2-KEY-001", "V2-GROUP-004"], {"required": [".zgroup", "foo/.zgroup", *_under("foo/bar")], "forbidden": _under("foo\\bar"), "needs": ["node:group"]}),
    ("v2/keys/write-leading-slash", "/foo", "v2 write of an array at /foo: keys foo/.zarray and foo/0.0..., never /foo/...", ["V2-KEY-002"], {"required": _under("foo"), "forbidden": _under("/foo")}),
    ("v2/keys/write-trailing-slash", "foo/", "v2 write of an array at foo/: keys foo/.zarray and foo/0.0..., never foo//...", ["V2-KEY-003"], {"required": _under("foo"), "forbidden": _under("foo/")}),
    ("v2/keys/write-double-slash", "foo//bar", "v2 write of an array at foo//bar: keys foo/bar/.zarray..., never foo//bar/...", ["V2-KEY-004", "V2-GROUP-004"], {"required": [".zgroup", "foo/.zgroup", *_under("foo/bar")], "forbidden": _under("foo//bar"), "needs": ["node:group"]}),
    ("v2/keys/write-nested-prefix", "foo/bar", "v2 write of an array at foo/bar: keys foo/bar/.zarray and foo/bar/0.0 (the normalised path plus '/'), no chunk at the root", ["V2-KEY-006", "V2-CHUNK-003"], {"required": _under("foo/bar"), "forbidden": _CHUNKS + [".zarray", "foo/.zarray"]}),
    ("v2/keys/write-ascii-keys-unicode-attributes", "", "v2 write of a root array with non-ASCII attribute values: the keys are exactly .zarray, .zattrs and the four chunks (all ASCII)", ["V2-STORE-001", "V2-ATTR-003"], {"keys": [".zarray", ".zattrs", *_CHUNKS], "attributes": {"title": "Gr\u00fc\u00dfe \u65e5\u672c", "\u00e9": 1}, "needs": ["feature:attributes"]}),
    ("v2/groups/write-array-ancestors", "a/b/c", "v2 write of an array at a/b/c in an empty store creates " '.zgroup, a/.zgroup and a/b/.zgroup, each exactly {"zarr_format": 2}', ["V2-GROUP-004", "V2-GROUP-002"], {"required": [".zgroup", "a/.zgroup", "a/b/.zgroup", *_under("a/b/c")], "forbidden": ["a/b/c/.zgroup", ".zarray", "a/.zarray", "a/b/.zarray"], "documents": {".zgroup": GROUP_DOC, "a/.zgroup": GROUP_DOC, "a/b/.zgroup": GROUP_DOC}, "needs": ["node:group"]}),
    ("v2/attributes/write-spec-example", "data", "v2 write of an array with attributes " '{"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}: data/.zattrs holds exactly that object', ["V2-ATTR-001"], {"required": ["data/.zattrs"], "attributes": SPEC_ATTRS, "needs": ["feature:attributes"]}),
    ("v2/attributes/write-unicode-nested", "", 'v2 write of an array with attributes {"ü": [null, {"a": [1.5, "x"]}]}: .zattrs holds the same JSON value', ["V2-ATTR-003", "V2-ATTR-001"], {"required": [".zattrs"], "attributes": UNICODE_ATTRS, "needs": ["feature:attributes"]}),
]
# fmt: on

each(_write_array, ARRAY_WRITES, question="spec-write")


def _write_group(
    case_id,
    path,
    description,
    requirements,
    *,
    required,
    forbidden=(),
    documents,
    attributes=None,
    needs=(),
):
    def build(w):
        # .zgroup: "The following keys MUST be present ... Other keys MUST NOT be present" (V2-GROUP-002)
        w.expect_write(
            node_type="group",
            path=path,
            metadata=None,
            attributes=attributes,
            required_keys=required,
            forbidden_keys=forbidden,
            documents=documents,
            exact_basis=["V2-GROUP-002"],
        )

    add_case(
        case_id,
        kind="write",
        build=build,
        requirements=requirements,
        description=description,
        needs=["node:group", "op:write", *needs],
    )


# fmt: off
GROUP_WRITES = [
    # case_id, path, description, requirements[, options]
    ("v2/groups/write-root-group", "", 'v2 write of a root group: .zgroup is exactly {"zarr_format": 2}', ["V2-GROUP-002"], {"required": [".zgroup"], "forbidden": [".zarray"], "documents": {".zgroup": GROUP_DOC}}),
    ("v2/groups/write-group-ancestors", "a/b", "v2 write of group a/b in an empty store creates .zgroup, " 'a/.zgroup and a/b/.zgroup, each exactly {"zarr_format": 2}', ["V2-GROUP-003", "V2-GROUP-002"], {"required": [".zgroup", "a/.zgroup", "a/b/.zgroup"], "forbidden": [".zarray", "a/.zarray", "a/b/.zarray"], "documents": {".zgroup": GROUP_DOC, "a/.zgroup": GROUP_DOC, "a/b/.zgroup": GROUP_DOC}}),
    ("v2/attributes/write-group-attributes", "g", "v2 write of group g with attributes: g/.zattrs holds them " 'and g/.zgroup stays exactly {"zarr_format": 2}', ["V2-ATTR-001", "V2-GROUP-002"], {"required": ["g/.zgroup", "g/.zattrs"], "attributes": {"a": {"b": [1, 2.5, None]}, "c": "text"}, "documents": {"g/.zgroup": GROUP_DOC}, "needs": ["feature:attributes"]}),
]
# fmt: on

each(_write_group, GROUP_WRITES, question="spec-write")
