"""v3 array metadata documents (V3-ARR-*): required and optional members, unknown members and
must_understand, dimension_names, storage_transformers and strict JSON. Extension objects and
short-hand names (V3-EXT-*) are in v3_extensions."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import add_case, case
from .v3_kit import array_doc, put_array, reject_case

I4 = ["dtype:int32", "codec:bytes"]
SHAPE, CHUNKS = (5, 4), (2, 3)


def _read(
    slug, description, requirements, needs=(), tier=None, attributes=None, transform=None, **members
):
    """A root int32 (5,4) array in (2,3) chunks with one chunk missing; `members` are added to (or
    replace) the document, `transform(doc)` may rewrite it."""

    def build(w):
        data = sample(w.rng, SHAPE, "i4", avoid=np.int32(-9))
        doc = array_doc(SHAPE, CHUNKS, "int32", -9, **members)
        if attributes is not None:
            doc["attributes"] = attributes
        if transform:
            doc = transform(doc)
        expected = put_array(
            w, "", doc, data, fill_bits=np.array(-9, "i4"), skip={(2, 1)}, endian="little"
        )
        w.expect_array(expected, attributes=attributes or {})

    add_case(
        f"v3/metadata/{slug}",
        kind="read",
        build=build,
        needs=[*I4, *needs],
        tier=tier,
        requirements=requirements,
        description=description,
    )


_read(
    "no-attributes",
    "v3 array without an attributes member opens and reports attributes {}",
    ["V3-ARR-006"],
)
_read(
    "empty-attributes",
    "v3 array with attributes {} opens and reports {}",
    ["V3-ARR-006"],
    attributes={},
)
_read(
    "storage-transformers-empty",
    "v3 array with storage_transformers [] opens like one without the member",
    ["V3-ARR-007"],
    storage_transformers=[],
)
_read(
    "dimension-names-null-and-x",
    "v3 array with dimension_names [null, 'x'] opens and reads",
    ["V3-ARR-008"],
    needs=["feature:dimension-names"],
    dimension_names=[None, "x"],
)
_read(
    "dimension-names-all-null",
    "v3 array with dimension_names [null, null] opens and reads",
    ["V3-ARR-008"],
    needs=["feature:dimension-names"],
    dimension_names=[None, None],
)
_read(
    "dimension-names-duplicate",
    "v3 array with the duplicate dimension_names ['x', 'x'] still opens",
    ["V3-ARR-009"],
    needs=["feature:dimension-names"],
    dimension_names=["x", "x"],
)
_read(
    "dimension-names-unicode-and-empty",
    "v3 array with dimension_names ['', '時間'] (an empty and a non-ASCII name)",
    ["V3-ARR-008"],
    needs=["feature:dimension-names"],
    dimension_names=["", "時間"],
)
_read(
    "unknown-member-must-understand-false",
    "v3 array with the unknown member 'foo': {'must_understand': false, 'x': 1} opens and the data reads",
    ["V3-ARR-010", "V3-EXT-003"],
    needs=["feature:must-understand-false"],
    foo={"must_understand": False, "x": 1},
)
_read(
    "two-ignorable-members",
    "v3 array with two unknown object members that both say must_understand false opens and reads",
    ["V3-ARR-010"],
    needs=["feature:must-understand-false"],
    x_stats={"must_understand": False, "configuration": {"min": -5, "max": [1, 2]}},
    y_provenance={"name": "tool", "must_understand": False},
)


@case(
    "v3/metadata/codecs-shorthand-bytes",
    kind="read",
    tier="optional",
    needs=["dtype:uint8", "codec:bytes", "feature:shorthand-names"],
    requirements=["V3-ARR-014", "V3-EXT-002"],
    description="v3.1 short-hand codecs ['bytes'] for a uint8 array reads like [{'name': 'bytes'}]",
)
def _(w):
    data = sample(w.rng, (7,), "u1", avoid=np.uint8(0))
    doc = array_doc((7,), (3,), "uint8", 0, codecs=["bytes"])
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(0, "u1"), skip={(1,)}))


@case(
    "v3/metadata/compact-reordered-json",
    kind="read",
    needs=I4,
    requirements=["V3-ARR-013", "V3-ARR-003"],
    description="v3 zarr.json in compact JSON with members in reverse order, CRLF and tab whitespace and "
    "\\u escapes reads the same (only the JSON value matters)",
)
def _(w):
    data = sample(w.rng, (4,), "i4", avoid=np.int32(0))
    doc = array_doc((4,), (3,), "int32", 0)
    put_array(w, "", doc, data, fill_bits=np.array(0, "i4"), endian="little")
    text = (
        '{"codecs":[{"configuration":{"endian":"little"},"name":"bytes"}],\r\n\t"fill_value":0,'
        '"chunk_key_encoding":{"configuration":{"separator":"\\/"},"name":"default"},'
        '"chunk_grid":{"configuration":{"chunk_shape":[3]},"name":"regular"},'
        '"attributes":{"caf\\u00e9":"\\ud83d\\ude00"},'
        '"data_type":"int\\u0033\\u0032","shape":[4],"node_type":"array","zarr_format":3}'
    )
    w.put("zarr.json", text.encode())
    w.expect_array(data, attributes={"café": "\U0001f600"})


@case(
    "v3/metadata/spec-example-shrunk",
    kind="read",
    needs=["dtype:float64", "codec:bytes", "feature:dimension-names"],
    requirements=["V3-ARR-003", "V3-ARR-008", "V3-FILL-004", "V3-FILL-009"],
    description="v3 the core spec's float64 example (dimension_names rows/columns, fill 'NaN', attributes "
    "foo/bar/baz) shrunk to (20,10) in (10,5) chunks, half of them missing",
)
def _(w):
    attrs = {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}
    data = sample(w.rng, (20, 10), "f8", avoid=np.float64(np.nan))
    doc = array_doc(
        (20, 10), (10, 5), "float64", "NaN", dimension_names=["rows", "columns"], attributes=attrs
    )
    nan = np.array(0x7FF8000000000000, "u8").view("f8")
    w.expect_array(
        put_array(w, "", doc, data, fill_bits=nan, skip={(0, 1), (1, 0)}, endian="little"),
        attributes=attrs,
    )


# ---- documents that must not open -------------------------------------------------------------------


def _doc(**changes) -> dict:
    doc = array_doc((4,), (2,), "int32", 0)
    for name, value in changes.items():
        if value is _DROP:
            doc.pop(name)
        else:
            doc[name] = value
    return doc


_DROP = object()
_CHUNKS = {"c/0": np.arange(2, dtype="<i4").tobytes()}


def _bad(slug, reason, requirements, what, tier=None, needs=(), **changes):
    reject_case(
        f"v3/metadata/reject-{slug}",
        _doc(**changes),
        reason,
        requirements,
        f"v3 array {what} is rejected on open",
        needs=[*I4, *needs],
        tier=tier,
        extra=_CHUNKS,
    )


for _member in (
    "zarr_format",
    "node_type",
    "shape",
    "data_type",
    "chunk_grid",
    "chunk_key_encoding",
    "fill_value",
    "codecs",
):
    _reason = "invalid-node-type" if _member == "node_type" else "missing-field"
    _bad(
        f"missing-{_member.replace('_', '-')}",
        _reason,
        ["V3-ARR-003"] + (["V3-ARR-002"] if _member == "node_type" else []),
        f"document without the required member {_member!r}",
        **{_member: _DROP},
    )

_bad(
    "zarr-format-string",
    "invalid-zarr-format",
    ["V3-ARR-001"],
    "with zarr_format '3' (a string)",
    zarr_format="3",
)
_bad(
    "zarr-format-2",
    "invalid-zarr-format",
    ["V3-ARR-001"],
    "document in zarr.json with zarr_format 2",
    zarr_format=2,
)
_bad("zarr-format-4", "invalid-zarr-format", ["V3-ARR-001"], "with zarr_format 4", zarr_format=4)
_bad(
    "zarr-format-float",
    "invalid-zarr-format",
    ["V3-ARR-001"],
    "with zarr_format 3.0 (not an integer literal)",
    zarr_format=3.0,
)
_bad(
    "node-type-capitalised",
    "invalid-node-type",
    ["V3-ARR-002"],
    "with node_type 'Array'",
    node_type="Array",
)
_bad("node-type-null", "invalid-node-type", ["V3-ARR-002"], "with node_type null", node_type=None)
_bad(
    "node-type-dataset",
    "invalid-node-type",
    ["V3-ARR-002"],
    "with node_type 'dataset'",
    node_type="dataset",
)
_bad("shape-negative", "invalid-shape", ["V3-ARR-004"], "with shape [-1]", shape=[-1])
_bad("shape-fraction", "invalid-shape", ["V3-ARR-004"], "with shape [1.5]", shape=[1.5])
_bad("shape-string", "invalid-shape", ["V3-ARR-004"], "with shape '10' (a string)", shape="10")
_bad("shape-boolean", "invalid-shape", ["V3-ARR-004"], "with shape [true]", shape=[True])
_bad("shape-null", "invalid-shape", ["V3-ARR-004"], "with shape null", shape=None)
_bad("shape-nested", "invalid-shape", ["V3-ARR-004"], "with shape [[4]]", shape=[[4]])
_bad(
    "codecs-empty",
    "codec-order",
    ["V3-ARR-005"],
    "with codecs [] (no array->bytes codec)",
    codecs=[],
)
_bad(
    "codecs-object",
    "invalid-codec",
    ["V3-ARR-005"],
    "with codecs as one object instead of a list",
    codecs={"name": "bytes", "configuration": {"endian": "little"}},
)
_bad("codecs-null", "invalid-codec", ["V3-ARR-005"], "with codecs null", codecs=None)
_bad("codec-entry-number", "invalid-codec", ["V3-ARR-014"], "with codecs [5]", codecs=[5])
_bad(
    "codec-entry-no-name",
    "invalid-codec",
    ["V3-ARR-014"],
    "with a codec object that has no name",
    codecs=[{"configuration": {"endian": "little"}}],
)
_bad(
    "codec-entry-name-number",
    "invalid-codec",
    ["V3-ARR-014"],
    "with a codec whose name is the number 5",
    codecs=[{"name": 5}],
)
_bad(
    "storage-transformer-unknown",
    "invalid-storage-transformer",
    ["V3-ARR-007"],
    "with storage_transformers [{'name': 'foo'}] (no transformer is known)",
    storage_transformers=[{"name": "foo"}],
)
_bad(
    "storage-transformers-null",
    "invalid-storage-transformer",
    ["V3-ARR-007", "ZOM-019"],
    "with storage_transformers null (as in the ZEP 6 example)",
    storage_transformers=None,
)
_bad(
    "storage-transformers-object",
    "invalid-storage-transformer",
    ["V3-ARR-007"],
    "with storage_transformers as an object, not a list",
    storage_transformers={"name": "foo"},
)
_bad(
    "dimension-names-too-long",
    "invalid-dimension-names",
    ["V3-ARR-008"],
    "of rank 1 with 2 dimension_names",
    needs=["feature:dimension-names"],
    dimension_names=["x", "y"],
)
_bad(
    "dimension-names-numbers",
    "invalid-dimension-names",
    ["V3-ARR-008"],
    "with dimension_names [1]",
    needs=["feature:dimension-names"],
    dimension_names=[1],
)
_bad(
    "dimension-names-string",
    "invalid-dimension-names",
    ["V3-ARR-008"],
    "with dimension_names 'x' (not a list)",
    needs=["feature:dimension-names"],
    dimension_names="x",
)
_bad(
    "attributes-list",
    "invalid-attributes",
    ["V3-ATTR-001"],
    "with attributes [] (not an object)",
    attributes=[],
)
_bad(
    "attributes-null",
    "invalid-attributes",
    ["V3-ATTR-001"],
    "with attributes null",
    attributes=None,
)
_bad(
    "unknown-member-number",
    "unknown-field",
    ["V3-ARR-010"],
    "with the unknown member 'foo': 1",
    foo=1,
)
_bad(
    "unknown-member-object",
    "unknown-field",
    ["V3-ARR-010"],
    "with the unknown member 'foo': {'bar': 1}",
    foo={"bar": 1},
)
_bad(
    "unknown-member-must-understand-true",
    "unknown-field",
    ["V3-ARR-010", "V3-EXT-003"],
    "with the unknown member 'foo': {'must_understand': true}",
    foo={"must_understand": True},
)
_bad(
    "unknown-member-must-understand-string",
    "unknown-field",
    ["V3-ARR-010"],
    "with 'foo': {'must_understand': 'false'} (a string, not the boolean false)",
    foo={"must_understand": "false"},
)
_bad(
    "unknown-member-null",
    "unknown-field",
    ["V3-ARR-010"],
    "with the unknown member 'foo': null",
    foo=None,
)
_bad(
    "v2-member-order", "unknown-field", ["V3-ARR-010"], "with the v2 member 'order': 'C'", order="C"
)
_bad(
    "v2-member-dimension-separator",
    "unknown-field",
    ["V3-ARR-010"],
    "with the v2 member 'dimension_separator'",
    dimension_separator="/",
)
_bad(
    "draft-member-extensions",
    "unknown-field",
    ["V3-ARR-010"],
    "with the draft member 'extensions': []",
    extensions=[],
)


def _bad_json(slug, text: bytes, reason, what, tier=None, requirements=("V3-ARR-013",)):
    reject_case(
        f"v3/metadata/reject-{slug}",
        text,
        reason,
        list(requirements),
        f"v3 zarr.json {what} is rejected",
        needs=I4,
        tier=tier,
        extra=_CHUNKS,
    )


_BASE = (
    b'{"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "int32", '
    b'"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, '
    b'"chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, '
    b'"fill_value": 0, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]'
)

_bad_json(
    "trailing-comma",
    _BASE + b",}",
    "invalid-json",
    "with a trailing comma before the closing brace",
)
_bad_json(
    "comment",
    _BASE.replace(b'"fill_value": 0,', b'"fill_value": 0, // zero\n') + b"}",
    "invalid-json",
    "with a // comment",
)
_bad_json(
    "single-quotes",
    _BASE.replace(b'"data_type": "int32"', b"'data_type': 'int32'") + b"}",
    "invalid-json",
    "with single-quoted strings",
)
_bad_json(
    "duplicate-member",
    _BASE + b', "fill_value": 1}',
    "invalid-json",
    "with the member fill_value twice",
)
_bad_json(
    "invalid-utf8",
    _BASE + b', "attributes": {"a": "\xff\xfe"}}',
    "invalid-json",
    "holding bytes that are not UTF-8",
)
_bad_json("truncated", _BASE[:-20], "invalid-json", "cut off in the middle (not JSON at all)")
_bad_json("empty-file", b"", "invalid-json", "that is empty")
_bad_json(
    "json-array",
    b"[" + _BASE + b"}]",
    "invalid-metadata",
    "holding a JSON array instead of an object",
)

# The spec's own examples are not valid JSON (requirements §8.5); copied as they are, they must not open.
_SPEC_DATETIME_EXAMPLE = b"""{
    "zarr_format": 3,
    "node_type": "array",
    "shape": [10000, 1000],
    "data_type": {
        "name": "datetime",
        "configuration": {
            "unit": "ns"
        }
    },
    "chunk_grid": {
        "name": "regular",
        "configuration": {
            "chunk_shape": [1000, 100]
        }
    },
    "chunk_key_encoding": {
        "name": "default",
        "configuration": {
            "separator": "/"
        }
    },
    "codecs": [{
        "name": "bytes",
        "configuration": {
            "endian": "big"
        }
    }],
    "fill_value": null,
}
"""
_SPEC_SHARDING_EXAMPLE = b"""{
  "zarr_format": 3, "node_type": "array", "shape": [64, 64], "data_type": "uint8",
  "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [64, 64]}},
  "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
      "codecs": [
        {
          "name": "sharding_indexed"
          "configuration": {
            "chunk_shape": [32, 32],
            "codecs": [
              {
                "name": "bytes",
                "configuration": {
                  "endian": "little",
                }
              },
              {
                "name": "gzip",
                "configuration": {
                  "level": 1
                }
              }
            ],
            "index_codecs": [
              {
                "name": "bytes",
                "configuration": {
                  "endian": "little",
                }
              },
              { "name": "crc32c" }
            ],
            "index_location": "end"
          }
        }
      ]
}
"""
_bad_json(
    "spec-example-extension-dtype",
    _SPEC_DATETIME_EXAMPLE,
    "invalid-json",
    'copied from the core spec\'s extension data type example (trailing comma after "fill_value": null)',
)
_bad_json(
    "spec-example-sharding",
    _SPEC_SHARDING_EXAMPLE,
    "invalid-json",
    "built around the 3.0 sharding spec's codecs example (a missing comma and trailing commas)",
)
