"""v3 array metadata documents (V3-ARR-*): required and optional members, unknown members and
must_understand, dimension_names, storage_transformers and strict JSON. Extension objects and
short-hand names (V3-EXT-*) are in v3_extensions."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .v3_kit import array_doc, put_array, reject_case

I4 = ["dtype:int32", "codec:bytes"]
SHAPE, CHUNKS = (5, 4), (2, 3)


def _read(slug, description, requirements, members, needs=()):
    """A root int32 (5,4) array in (2,3) chunks with one chunk missing; `members` are added to (or
    replace) the document."""

    def build(w):
        data = sample(w.rng, SHAPE, "i4", avoid=np.int32(-9))
        doc = array_doc(SHAPE, CHUNKS, "int32", -9, **members)
        fill = np.array(-9, "i4")
        expected = put_array(w, "", doc, data, fill_bits=fill, skip={(2, 1)}, endian="little")
        w.expect_array(expected, attributes=members.get("attributes") or {})

    add_case(
        f"v3/metadata/{slug}",
        kind="read",
        build=build,
        needs=[*I4, *needs],
        requirements=requirements.split(),
        description=description,
    )


DIM_NAMES = ["feature:dimension-names"]
IGNORABLE = ["feature:must-understand-false"]
_STATS = {"must_understand": False, "configuration": {"min": -5, "max": [1, 2]}}

# fmt: off
READS = [
    # slug, description, requirements, members added to the document[, needs]
    ("no-attributes", "v3 array without an attributes member opens and reports attributes {}", "V3-ARR-006", {}),
    ("empty-attributes", "v3 array with attributes {} opens and reports {}", "V3-ARR-006", {"attributes": {}}),
    ("storage-transformers-empty", "v3 array with storage_transformers [] opens like one without the member", "V3-ARR-007", {"storage_transformers": []}),
    ("dimension-names-null-and-x", "v3 array with dimension_names [null, 'x'] opens and reads", "V3-ARR-008", {"dimension_names": [None, "x"]}, DIM_NAMES),
    ("dimension-names-all-null", "v3 array with dimension_names [null, null] opens and reads", "V3-ARR-008", {"dimension_names": [None, None]}, DIM_NAMES),
    ("dimension-names-duplicate", "v3 array with the duplicate dimension_names ['x', 'x'] still opens", "V3-ARR-009", {"dimension_names": ["x", "x"]}, DIM_NAMES),
    ("dimension-names-unicode-and-empty", "v3 array with dimension_names ['', '時間'] (an empty and a non-ASCII name)", "V3-ARR-008", {"dimension_names": ["", "時間"]}, DIM_NAMES),
    ("unknown-member-must-understand-false", "v3 array with the unknown member 'foo': {'must_understand': false, 'x': 1} opens and the data reads", "V3-ARR-010 V3-EXT-003", {"foo": {"must_understand": False, "x": 1}}, IGNORABLE),
    ("two-ignorable-members", "v3 array with two unknown object members that both say must_understand false opens and reads", "V3-ARR-010", {"x_stats": _STATS, "y_provenance": {"name": "tool", "must_understand": False}}, IGNORABLE),
]
# fmt: on

with verdict(question="spec-read"):
    for _row in READS:
        _read(*_row)


@case(
    "v3/metadata/codecs-shorthand-bytes",
    kind="read",
    tier="optional",
    needs=["dtype:uint8", "codec:bytes", "feature:shorthand-names"],
    requirements=["V3-ARR-014", "V3-EXT-002"],
    description="v3.1 short-hand codecs ['bytes'] for a uint8 array reads like [{'name': 'bytes'}]",
    question="v3.1-addition",
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
    question="spec-read",
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
    question="spec-read",
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


def _doc(changes) -> dict:
    doc = {**array_doc((4,), (2,), "int32", 0), **changes}
    return {k: v for k, v in doc.items() if v is not _DROP}


_DROP = object()  # a change that deletes the member
_CHUNKS = {"c/0": np.arange(2, dtype="<i4").tobytes()}


def _bad(slug, reason, requirements, what, doc, needs=()):
    """`doc` is the changes to a valid int32 (4,) document, or the zarr.json bytes."""
    reject_case(
        f"v3/metadata/reject-{slug}",
        doc if isinstance(doc, bytes) else _doc(doc),
        reason,
        requirements.split(),
        what,
        needs=[*I4, *needs],
        extra=_CHUNKS,
    )


_REQUIRED = ("zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs")  # fmt: skip

# fmt: off
DOCUMENT_FAULTS = [
    # slug, question, tests, reason, requirements, "v3 array <what> is rejected on open", changed members[, needs]
    *[(f"missing-{m.replace('_', '-')}", "missing-member", m, "missing-field", "V3-ARR-003", f"document without the required member {m!r}", {m: _DROP}) for m in _REQUIRED if m != "node_type"],
    ("missing-node-type", "missing-member", "node_type", "invalid-node-type", "V3-ARR-003 V3-ARR-002", "document without the required member 'node_type'", {"node_type": _DROP}),
    ("zarr-format-string", "scalar-spelling", "zarr_format", "invalid-zarr-format", "V3-ARR-001", "with zarr_format '3' (a string)", {"zarr_format": "3"}),
    ("zarr-format-2", "other-format", "zarr_format", "invalid-zarr-format", "V3-ARR-001", "document in zarr.json with zarr_format 2", {"zarr_format": 2}),
    ("zarr-format-4", "other-format", "zarr_format", "invalid-zarr-format", "V3-ARR-001", "with zarr_format 4", {"zarr_format": 4}),
    ("zarr-format-float", "integer-as-float", "zarr_format", "invalid-zarr-format", "V3-ARR-001", "with zarr_format 3.0 (not an integer literal)", {"zarr_format": 3.0}),
    ("node-type-capitalised", "case-variant", "node_type", "invalid-node-type", "V3-ARR-002", "with node_type 'Array'", {"node_type": "Array"}),
    ("node-type-null", "null-mandatory", "node_type", "invalid-node-type", "V3-ARR-002", "with node_type null", {"node_type": None}),
    ("node-type-dataset", "invalid-value", "node_type", "invalid-node-type", "V3-ARR-002", "with node_type 'dataset'", {"node_type": "dataset"}),
    ("shape-negative", "invalid-value", "shape", "invalid-shape", "V3-ARR-004", "with shape [-1]", {"shape": [-1]}),
    ("shape-fraction", "invalid-value", "shape", "invalid-shape", "V3-ARR-004", "with shape [1.5]", {"shape": [1.5]}),
    ("shape-string", "wrong-structure", "shape", "invalid-shape", "V3-ARR-004", "with shape '10' (a string)", {"shape": "10"}),
    ("shape-boolean", "scalar-spelling", "shape", "invalid-shape", "V3-ARR-004", "with shape [true]", {"shape": [True]}),
    ("shape-null", "null-mandatory", "shape", "invalid-shape", "V3-ARR-004", "with shape null", {"shape": None}),
    ("shape-nested", "wrong-structure", "shape", "invalid-shape", "V3-ARR-004", "with shape [[4]]", {"shape": [[4]]}),
    ("codecs-empty", "codec-order", "array -> bytes", "codec-order", "V3-ARR-005", "with codecs [] (no array->bytes codec)", {"codecs": []}),
    ("codecs-object", "wrong-structure", "codecs", "invalid-codec", "V3-ARR-005", "with codecs as one object instead of a list", {"codecs": {"name": "bytes", "configuration": {"endian": "little"}}}),
    ("codecs-null", "null-mandatory", "codecs", "invalid-codec", "V3-ARR-005", "with codecs null", {"codecs": None}),
    ("codec-entry-number", "wrong-structure", "name", "invalid-codec", "V3-ARR-014", "with codecs [5]", {"codecs": [5]}),
    ("codec-entry-no-name", "unknown-extension", "name", "invalid-codec", "V3-ARR-014", "with a codec object that has no name", {"codecs": [{"configuration": {"endian": "little"}}]}),
    ("codec-entry-name-number", "unknown-extension", "name", "invalid-codec", "V3-ARR-014", "with a codec whose name is the number 5", {"codecs": [{"name": 5}]}),
    ("storage-transformer-unknown", "unknown-extension", "storage_transformers", "invalid-storage-transformer", "V3-ARR-007", "with storage_transformers [{'name': 'foo'}] (no transformer is known)", {"storage_transformers": [{"name": "foo"}]}),
    ("storage-transformers-null", "null-optional", "storage_transformers", "invalid-storage-transformer", "V3-ARR-007 ZOM-019", "with storage_transformers null (as in the ZEP 6 example)", {"storage_transformers": None}),
    ("storage-transformers-object", "unknown-extension", "storage_transformers", "invalid-storage-transformer", "V3-ARR-007", "with storage_transformers as an object, not a list", {"storage_transformers": {"name": "foo"}}),
    ("dimension-names-too-long", "invalid-value", "dimension_names", "invalid-dimension-names", "V3-ARR-008", "of rank 1 with 2 dimension_names", {"dimension_names": ["x", "y"]}, DIM_NAMES),
    ("dimension-names-numbers", "scalar-spelling", "dimension_names", "invalid-dimension-names", "V3-ARR-008", "with dimension_names [1]", {"dimension_names": [1]}, DIM_NAMES),
    ("dimension-names-string", "wrong-structure", "dimension_names", "invalid-dimension-names", "V3-ARR-008", "with dimension_names 'x' (not a list)", {"dimension_names": "x"}, DIM_NAMES),
    ("attributes-list", "wrong-structure", "attributes", "invalid-attributes", "V3-ATTR-001", "with attributes [] (not an object)", {"attributes": []}),
    ("attributes-null", "null-optional", "attributes", "invalid-attributes", "V3-ATTR-001", "with attributes null", {"attributes": None}),
    ("unknown-member-number", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with the unknown member 'foo': 1", {"foo": 1}),
    ("unknown-member-object", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with the unknown member 'foo': {'bar': 1}", {"foo": {"bar": 1}}),
    ("unknown-member-must-understand-true", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010 V3-EXT-003", "with the unknown member 'foo': {'must_understand': true}", {"foo": {"must_understand": True}}),
    ("unknown-member-must-understand-string", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with 'foo': {'must_understand': 'false'} (a string, not the boolean false)", {"foo": {"must_understand": "false"}}),
    ("unknown-member-null", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with the unknown member 'foo': null", {"foo": None}),
    ("v2-member-order", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with the v2 member 'order': 'C'", {"order": "C"}),
    ("v2-member-dimension-separator", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with the v2 member 'dimension_separator'", {"dimension_separator": "/"}),
    ("draft-member-extensions", "unknown-member", "unknown metadata fields", "unknown-field", "V3-ARR-010", "with the draft member 'extensions': []", {"extensions": []}),
]
# fmt: on

for _slug, _question, _tests, _reason, _reqs, _what, _changes, *_needs in DOCUMENT_FAULTS:
    with verdict(question=_question, tests=_tests):
        _bad(_slug, _reason, _reqs, f"v3 array {_what} is rejected on open", _changes, *_needs)

_BASE = (
    b'{"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "int32", '
    b'"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, '
    b'"chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, '
    b'"fill_value": 0, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]'
)

# fmt: off
JSON_FAULTS = [
    # slug, question, tests, reason, "v3 zarr.json <what> is rejected", the bytes
    ("trailing-comma", "json-lenient", "JSON", "invalid-json", "with a trailing comma before the closing brace", _BASE + b",}"),
    ("comment", "json-lenient", "JSON", "invalid-json", "with a // comment", _BASE.replace(b'"fill_value": 0,', b'"fill_value": 0, // zero\n') + b"}"),
    ("single-quotes", "json-lenient", "JSON", "invalid-json", "with single-quoted strings", _BASE.replace(b'"data_type": "int32"', b"'data_type': 'int32'") + b"}"),
    ("duplicate-member", "duplicate-member", "JSON", "invalid-json", "with the member fill_value twice", _BASE + b', "fill_value": 1}'),
    ("invalid-utf8", "json-lenient", "JSON", "invalid-json", "holding bytes that are not UTF-8", _BASE + b', "attributes": {"a": "\xff\xfe"}}'),
    ("truncated", "unreadable-document", "JSON", "invalid-json", "cut off in the middle (not JSON at all)", _BASE[:-20]),
    ("empty-file", "unreadable-document", "JSON", "invalid-json", "that is empty", b""),
    ("json-array", "unreadable-document", "JSON", "invalid-metadata", "holding a JSON array instead of an object", b"[" + _BASE + b"}]"),
]
# fmt: on

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
JSON_FAULTS += [
    ("spec-example-extension-dtype", "json-lenient", "JSON", "invalid-json", 'copied from the core spec\'s extension data type example (trailing comma after "fill_value": null)', _SPEC_DATETIME_EXAMPLE),
    ("spec-example-sharding", "unreadable-document", "JSON", "invalid-json", "built around the 3.0 sharding spec's codecs example (a missing comma and trailing commas)", _SPEC_SHARDING_EXAMPLE),
]  # fmt: skip

for _slug, _question, _tests, _reason, _what, _text in JSON_FAULTS:
    with verdict(question=_question, tests=_tests):
        _bad(_slug, _reason, "V3-ARR-013", f"v3 zarr.json {_what} is rejected", _text)
