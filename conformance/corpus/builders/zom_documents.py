"""ZOM (ZEP 6) model documents that the schemas must accept or refuse (kind `zom`, no store).

Each case is one document, a schema ("fixed" = conformance/reference/zom/schemas/v{2,3}.schema.json,
"zep6-original" = the ZEP's own schema with its defects) and whether the document is valid. The
defect rows of ZOM-009..016 appear twice: what the ZEP's schema does (a recorded defect, tier
optional) and what the fixed schema does. The ZEP's own v2 examples are negatives (ZOM-019); its
v3 example is structurally a ZOM, so it is turned into v3 must-reject stores in zom_hierarchies.py.
"""

from __future__ import annotations

import copy
import json

from ...resources import REPO_ROOT
from ..generator import add_case
from .table_kit import each

ZEP_EXAMPLES = REPO_ROOT / "tests" / "reference" / "zom" / "data"


def v3_array(**changes) -> dict:
    """A valid v3 ZOM array node (its zarr.json plus attributes); a change to KeyError deletes."""
    node = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [4],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "attributes": {},
    }
    return _apply(node, changes)


def v2_array(**changes) -> dict:
    node = {
        "zarr_format": 2,
        "shape": [4],
        "chunks": [2],
        "dtype": "<i4",
        "compressor": {"id": "zlib", "level": 1},
        "fill_value": 0,
        "order": "C",
        "filters": None,
        "attributes": {},
    }
    return _apply(node, changes)


def _apply(node: dict, changes: dict) -> dict:
    node = copy.deepcopy(node)
    for key, value in changes.items():
        if value is KeyError:
            node.pop(key, None)
        else:
            node[key] = value
    return node


def group3(members=None, **extra) -> dict:
    node = {"zarr_format": 3, "node_type": "group", "attributes": {}, **extra}
    if members is not None:
        node["members"] = members
    return node


def group2(members=None, **extra) -> dict:
    node = {"zarr_format": 2, "attributes": {}, **extra}
    if members is not None:
        node["members"] = members
    return node


def zep_example(name: str) -> dict:
    """One of ZEP 6's JSON examples, transcribed unchanged in the ZOM tests' data folder."""
    return json.loads((ZEP_EXAMPLES / f"zep6-example-{name}.json").read_text("utf-8"))


def doc_case(
    slug: str,
    version: int,
    requirements,
    description: str,
    document,
    *,
    valid: bool,
    schema: str = "fixed",
    question: str | None = None,
) -> None:
    """A model-document case: judged by the fixed schema it asks `zom-model`, by the ZEP's original
    schema (whose defects it records) `zep6-original-schema`, unless the row names another question."""

    def build(w, document=document):
        doc = document() if callable(document) else document
        w.expect_zom(model=doc, schema_version=version, valid=valid, schema=schema)

    slug = slug.removeprefix(f"v{version}-")
    add_case(
        f"v{version}/zom/doc-{slug}",
        kind="zom",
        build=build,
        needs=["op:zom"],
        requirements=requirements,
        question=question or ("zom-model" if schema == "fixed" else "zep6-original-schema"),
        description=description,
    )


def pair(
    slug: str,
    version: int,
    requirements,
    what: str,
    document,
    *,
    fixed: bool,
    zep: bool,
    fixed_question: str | None = None,
) -> None:
    """The same document judged by the fixed schema and by the ZEP's original schema."""
    verdict = {True: "valid", False: "invalid"}
    doc_case(
        f"{slug}-fixed",
        version,
        requirements,
        f"{what}: {verdict[fixed]} under the fixed v{version} schema",
        document,
        valid=fixed,
        question=fixed_question,
    )
    doc_case(
        f"{slug}-zep6",
        version,
        requirements,
        f"{what}: {verdict[zep]} under the ZEP 6 original v{version} schema",
        document,
        valid=zep,
        schema="zep6-original",
    )


def judged(slug, version, requirements, what, document, **how) -> None:
    """A row of the tables below: judged by both schemas (fixed=, zep=) or by one (valid=)."""
    (doc_case if "valid" in how else pair)(slug, version, requirements, what, document, **how)


def in_group3(node: dict) -> dict:
    """The ZEP's v3 schema validates arrays only as members of a root group."""
    return group3(members={"a": node})


# ---- v3: required members and arrays (ZOM-001..003, -007, -008) ---------------------------------------------

# fmt: off
JUDGED = [
    # slug, version, requirements, what, document, how it is judged (fixed=/zep= by both schemas, valid= by the fixed one)
    ("v3-array-valid", 3, ["ZOM-008", "ZOM-002"], "v3 ZOM group holding a valid int32 array (zarr.json + attributes)", in_group3(v3_array()), {"fixed": True, "zep": True}),
    *[(f"v3-array-missing-{m.replace('_', '-')}", 3, ["ZOM-008"], f"v3 ZOM array without the required {m!r} is invalid", in_group3(v3_array(**{m: KeyError})), {"valid": False})
      for m in ("shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs")],
    ("v3-array-no-attributes", 3, ["ZOM-001"], "v3 ZOM array without attributes (every ZOM node has them)", in_group3(v3_array(attributes=KeyError)), {"fixed": False, "zep": True}),
    ("v3-group-attributes-list", 3, ["ZOM-001"], "v3 ZOM group whose attributes are a list is invalid", group3(members={}, attributes=[1, 2]), {"valid": False}),
    ("v3-array-no-zarr-format", 3, ["ZOM-002"], "v3 ZOM array without zarr_format (its zarr.json must have it) is invalid under the fixed schema", in_group3(v3_array(zarr_format=KeyError)), {"valid": False}),
    ("v3-array-node-type-group", 3, ["ZOM-002", "ZOM-008"], "v3 ZOM array node whose node_type is 'group' is invalid", in_group3(v3_array(node_type="group")), {"valid": False}),
    ("v3-array-with-members", 3, ["ZOM-003"], "v3 ZOM array with members {} (arrays never have members)", in_group3(v3_array(members={})), {"fixed": False, "zep": False}),
    ("v3-array-user-key-top-level", 3, ["ZOM-007", "ZOM-008"], "v3 ZOM array with user metadata 'units' as a top-level property instead of in attributes is invalid", in_group3(v3_array(units="m")), {"valid": False}),
    ("v3-array-must-understand-false-member", 3, ["ZOM-008"], "v3 ZOM array with an extension member {'must_understand': false} (valid v3.0 metadata)", in_group3(v3_array(foo={"must_understand": False, "x": 1})), {"fixed": True, "zep": False}),
    ("v3-root-array", 3, ["ZOM-002", "ZOM-008"], "v3 ZOM whose root is an array (a single-array hierarchy) is valid", v3_array(attributes={"units": "K"}), {"valid": True}),
    # ---- v3: member names (ZOM-004, -005) and groups without members (ZOM-009) --------------------------
    *[(f"v3-member-name-{slug}", 3, ["ZOM-005"], f"v3 ZOM group with member key {name!r} (not a valid v3 node name) is invalid", group3(members={name: group3(members={})}), {"valid": False})
      for slug, name in [("empty", ""), ("slash", "a/b"), ("periods", ".."), ("dunder", "__x")]],
    ("v3-member-name-slash-zep6", 3, ["ZOM-005"], "v3 ZOM group with member key 'a/b': valid under the ZEP 6 original v3 schema (member names unchecked)", group3(members={"a/b": group3(members={})}), {"valid": True, "schema": "zep6-original"}),
    ("v3-member-name-unicode", 3, ["ZOM-005", "ZOM-004"], "v3 ZOM group with member keys '日本語' and 'café' (valid v3 node names) is valid", group3(members={"日本語": group3(members={}), "café": in_group3(v3_array())["members"]["a"]}), {"valid": True}),
    ("v3-nested-members", 3, ["ZOM-004", "ZOM-009"], "v3 ZOM with nested members g/h/a (groups whose members are groups and arrays) is valid", group3(members={"g": group3(members={"h": group3(members={"a": v3_array()})})}), {"valid": True}),
    # The ZEP's text asks for members only when there are children, its schema always: the fix is a choice.
    ("v3-group-without-members", 3, ["ZOM-009"], "v3 ZOM childless group without a members property", group3(), {"fixed": True, "zep": False, "fixed_question": "versions-disagree"}),
    ("v3-member-not-a-node", 3, ["ZOM-009"], "v3 ZOM group whose member value is a number is invalid", group3(members={"a": 1}), {"valid": False}),
    # ---- v3: NamedConfig, dimension_names, fill_value, storage_transformers (ZOM-010..013) --------------------
    ("v3-codec-without-configuration", 3, ["ZOM-010"], "v3 ZOM array with codec {'name': 'crc32c'} (no configuration, valid v3.0)", in_group3(v3_array(codecs=[{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}])), {"fixed": True, "zep": False}),
    ("v3-codec-short-hand", 3, ["ZOM-010"], "v3 ZOM uint8 array with the 3.1 short-hand codec 'bytes'", in_group3(v3_array(data_type="uint8", codecs=["bytes"])), {"fixed": True, "zep": False}),
    ("v3-codec-configuration-null", 3, ["ZOM-010"], "v3 ZOM array with codec configuration null (not valid v3)", in_group3(v3_array(codecs=[{"name": "bytes", "configuration": None}])), {"fixed": False, "zep": True}),
    ("v3-dimension-names-null-entry", 3, ["ZOM-011"], "v3 ZOM 2-d array with dimension_names ['x', null] (valid v3)", in_group3(v3_array(shape=[4, 6], chunk_grid={"name": "regular", "configuration": {"chunk_shape": [2, 3]}}, dimension_names=["x", None])), {"fixed": True, "zep": False}),
    ("v3-dimension-names-number", 3, ["ZOM-011"], "v3 ZOM array with dimension_names [1] is invalid", in_group3(v3_array(dimension_names=[1])), {"valid": False}),
    ("v3-fill-complex-nan-pair", 3, ["ZOM-012"], "v3 ZOM complex64 array with fill_value ['NaN', 0] (valid v3)", in_group3(v3_array(data_type="complex64", fill_value=["NaN", 0])), {"fixed": True, "zep": False}),
    ("v3-fill-hex-string", 3, ["ZOM-012"], "v3 ZOM float32 array with fill_value '0x7fc00001' (a hex NaN)", in_group3(v3_array(data_type="float32", fill_value="0x7fc00001")), {"fixed": True, "zep": True}),
    ("v3-fill-null", 3, ["ZOM-012"], "v3 ZOM array with fill_value null is invalid", in_group3(v3_array(fill_value=None)), {"valid": False}),
    ("v3-fill-object", 3, ["ZOM-012"], "v3 ZOM array with fill_value {'re': 1} is invalid", in_group3(v3_array(fill_value={"re": 1})), {"valid": False}),
    ("v3-storage-transformers-null", 3, ["ZOM-013"], "v3 ZOM array with storage_transformers null (materialised as no key)", in_group3(v3_array(storage_transformers=None)), {"fixed": True, "zep": True}),
    ("v3-storage-transformers-object", 3, ["ZOM-013"], "v3 ZOM array with storage_transformers {} is invalid", in_group3(v3_array(storage_transformers={})), {"valid": False}),
    # ---- v2 (ZOM-014..016, and ZOM-001/003/005/007 for v2) ------------------------------------------------------
    ("v2-group-zarr-format", 2, ["ZOM-014"], "v2 ZOM childless group spelling zarr_format (as v2 metadata does)", group2(members={}), {"fixed": True, "zep": False}),
    ("v2-group-zarr-version", 2, ["ZOM-014"], "v2 ZOM group spelling zarr_version (the ZEP schema's name)", {"zarr_version": 2, "attributes": {}, "members": {}}, {"fixed": False, "zep": True}),
    ("v2-array-zlib", 2, ["ZOM-015", "ZOM-002"], "v2 ZOM group holding an array with a zlib compressor and filters null", group2(members={"a": v2_array()}), {"fixed": True, "zep": False}),
    ("v2-array-zarr-version-zep6", 2, ["ZOM-015"], "v2 ZOM array spelled exactly as the ZEP's v2 schema asks (zarr_version, filters []) is still invalid under it: 'attributess' is required", {"zarr_version": 2, "attributes": {}, "members": {"a": v2_array(zarr_format=KeyError, zarr_version=2, filters=[])}}, {"valid": False, "schema": "zep6-original"}),
    ("v2-compressor-null", 2, ["ZOM-016"], "v2 ZOM array with compressor null (valid v2)", group2(members={"a": v2_array(compressor=None)}), {"fixed": True, "zep": False}),
    ("v2-filters-object", 2, ["ZOM-016"], "v2 ZOM array with filters {} is invalid", group2(members={"a": v2_array(filters={})}), {"valid": False}),
    ("v2-dimension-separator-dash", 2, ["ZOM-016"], "v2 ZOM array with dimension_separator '-' is invalid", group2(members={"a": v2_array(dimension_separator="-")}), {"valid": False}),
    ("v2-structured-dtype", 2, ["ZOM-016", "ZOM-002"], "v2 ZOM array with a structured dtype [['x', '<f4'], ['y', '<f4', [2]]] is valid", group2(members={"a": v2_array(dtype=[["x", "<f4"], ["y", "<f4", [2]]])}), {"valid": True}),
    ("v2-array-no-attributes", 2, ["ZOM-001"], "v2 ZOM array without attributes is invalid", group2(members={"a": v2_array(attributes=KeyError)}), {"valid": False}),
    ("v2-array-with-members", 2, ["ZOM-003"], "v2 ZOM array with members {} is invalid", group2(members={"a": v2_array(members={})}), {"valid": False}),
    ("v2-array-user-key-top-level", 2, ["ZOM-007"], "v2 ZOM array with user metadata 'units' next to the .zarray keys instead of in attributes is invalid", group2(members={"a": v2_array(units="m")}), {"valid": False}),
    *[(f"v2-member-name-{slug}", 2, ["ZOM-005"], f"v2 ZOM group with member key {name!r} is invalid", group2(members={name: group2(members={})}), {"valid": False})
      for slug, name in [("backslash", "a\\b"), ("dotdot", ".."), ("non-ascii", "café")]],
    # ---- the ZEP's own v2 examples are negatives (ZOM-019) ----------------------------------------------
    ("zep6-example-v2-group-zep6", 2, ["ZOM-019", "ZOM-014"], "ZEP 6's own v2 group example (it spells zarr_format) is invalid under the ZEP 6 original v2 schema", lambda: zep_example("v2-group"), {"valid": False, "schema": "zep6-original"}),
    ("zep6-example-v2-hierarchy", 2, ["ZOM-019", "ZOM-016"], "ZEP 6's own v2 hierarchy example ('filters': {}) is invalid under the fixed v2 schema", lambda: zep_example("v2-hierarchy"), {"valid": False}),
    ("zep6-example-v2-hierarchy-zep6", 2, ["ZOM-019", "ZOM-014", "ZOM-015"], "ZEP 6's own v2 hierarchy example is invalid under the ZEP 6 original v2 schema too", lambda: zep_example("v2-hierarchy"), {"valid": False, "schema": "zep6-original"}),
]
# fmt: on

each(judged, JUDGED)
