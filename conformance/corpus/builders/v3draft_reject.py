"""v3-draft must-reject cases: one fault each in an otherwise valid seed-002 store.

The entry point, the array and group documents, node names, data types, fill values, codecs, the
sharding transformer and corrupt chunks (V3DRAFT-KEY-*, V3DRAFT-META-*). Where the draft is
ambiguous (int64, "<f8", "Infinity", unknown entry-point members under 3.0, truncated edge chunks)
the case is optional and records the reference's documented choice."""

from __future__ import annotations

import gzip

import numpy as np

from ..generator import case
from .v3draft_kit import (
    BLOSC_URI,
    CORE_URI,
    GZIP_URI,
    array_doc,
    blosc_codec,
    endian_codec,
    entry_point,
    meta_key,
    put_entry,
    reject_case,
    sharding,
)

I4 = ["dtype:int32"]
CHUNK = {"data/x/c0/0": np.arange(6, dtype="<i4").tobytes()}


def doc_without(name: str) -> dict:
    doc = array_doc((4, 6), (2, 3), "int32", 0)
    del doc[name]
    return doc


def bad_array(case_id, reason, requirements, description, tier=None, needs=I4, **changes):
    """An array document at /x that differs from a valid one only by `changes`."""
    doc = array_doc((4, 6), (2, 3), "int32", 0)
    doc.update(changes)
    reject_case(
        case_id,
        reason,
        requirements,
        description,
        docs={meta_key("x"): doc, **CHUNK},
        tier=tier,
        needs=needs,
    )


# ---- the entry point (V3DRAFT-KEY-001, V3DRAFT-META-001..003) -------------------------------------------

reject_case(
    "v3-draft/reject/no-entry-point",
    "node-not-found",
    ["V3DRAFT-KEY-001"],
    "draft store with meta/x.array.json and chunks but no zarr.json entry point cannot be opened",
    entry=None,
    docs={meta_key("x"): array_doc((4, 6), (2, 3)), **CHUNK},
    needs=I4,
)
reject_case(
    "v3-draft/reject/final-format-entry-point",
    "node-not-found",
    ["V3DRAFT-KEY-001", "V3DRAFT-META-001"],
    "draft meta/ layout whose zarr.json is a final v3 group document (zarr_format 3) has no draft entry point",
    entry={"zarr_format": 3, "node_type": "group"},
    docs={meta_key("x"): array_doc((4, 6), (2, 3)), **CHUNK},
    needs=I4,
)
reject_case(
    "v3-draft/reject/zarr-format-major-4",
    "invalid-zarr-format",
    ["V3DRAFT-META-001"],
    "draft entry point zarr_format https://purl.org/zarr/spec/core/4.0 (another major version) is rejected",
    entry=entry_point(zarr_format=CORE_URI[:-3] + "4.0"),
    docs={meta_key("x"): array_doc((4, 6), (2, 3))},
    needs=I4,
)
reject_case(
    "v3-draft/reject/entry-point-not-json",
    "invalid-json",
    ["V3DRAFT-KEY-001", "V3DRAFT-META-018"],
    "draft entry point zarr.json that is not JSON (a trailing comma) is rejected",
    entry=b'{"zarr_format": "https://purl.org/zarr/spec/core/3.0", "extensions": [],}',
    docs={meta_key("x"): array_doc((4, 6), (2, 3))},
    needs=I4,
)
reject_case(
    "v3-draft/reject/metadata-encoding-string",
    "invalid-metadata",
    ["V3DRAFT-META-002"],
    'draft entry point with metadata_encoding "json" (a string, not the object) is rejected',
    entry=entry_point(metadata_encoding="json"),
    docs={meta_key("x"): array_doc((4, 6), (2, 3))},
    needs=I4,
)
reject_case(
    "v3-draft/reject/metadata-encoding-extension",
    "must-understand",
    ["V3DRAFT-META-002", "V3DRAFT-META-003"],
    "draft metadata_encoding defined by an unknown extension (extension, type, metadata_key_suffix) stops processing",
    entry=entry_point(
        metadata_encoding={
            "extension": "https://example.org/zarr/encodings/cbor/1.0",
            "type": "cbor",
            "metadata_key_suffix": ".cbor",
        }
    ),
    docs={"meta/x.array.cbor": b"\xa0"},
    needs=I4,
)
reject_case(
    "v3-draft/reject/metadata-encoding-missing",
    "missing-field",
    ["V3DRAFT-META-002"],
    "draft entry point without metadata_encoding is rejected",
    entry={"zarr_format": CORE_URI, "extensions": []},
    docs={meta_key("x"): array_doc((4, 6), (2, 3))},
    needs=I4,
)
reject_case(
    "v3-draft/reject/entry-extension-must-understand",
    "must-understand",
    ["V3DRAFT-META-003"],
    "draft entry point extension with an unknown URI and must_understand true stops processing",
    entry=entry_point(
        extensions=[{"extension": "https://example.org/zarr/ext/unknown", "must_understand": True}]
    ),
    docs={meta_key("x"): array_doc((4, 6), (2, 3)), **CHUNK},
    needs=I4,
)
reject_case(
    "v3-draft/reject/entry-unknown-member-3-0",
    "unknown-field",
    ["V3DRAFT-META-001"],
    description="draft 3.0 entry point with an undefined member 'foo' is rejected by the reference "
    "(a reader may also ignore it: record behaviour)",
    entry=entry_point(foo="bar"),
    docs={meta_key("x"): array_doc((4, 6), (2, 3))},
    needs=I4,
)

# ---- node names (V3DRAFT-KEY-006) ------------------------------------------------------------------------

for _slug, _name in [("non-ascii", "café"), ("space", "a b"), ("only-periods", "..")]:
    reject_case(
        f"v3-draft/reject/node-name-{_slug}",
        "invalid-node-name",
        ["V3DRAFT-KEY-006", "V3DRAFT-KEY-007"],
        f"draft node name {_name!r} (outside [A-Za-z0-9._-] or only periods) is refused even with its metadata present",
        docs={meta_key(_name): array_doc((4, 6), (2, 3))},
        node=_name,
        needs=I4,
    )

# ---- array documents (V3DRAFT-META-004/005) --------------------------------------------------------------

for _member in (
    "attributes",
    "chunk_memory_layout",
    "fill_value",
    "extensions",
    "chunk_grid",
    "data_type",
    "shape",
):
    reject_case(
        f"v3-draft/reject/missing-{_member.replace('_', '-')}",
        "missing-field",
        ["V3DRAFT-META-004"],
        f"draft array document without the mandatory member {_member!r} is rejected",
        docs={meta_key("x"): doc_without(_member), **CHUNK},
        needs=I4,
    )

bad_array(
    "v3-draft/reject/dimension-names-member",
    "unknown-field",
    ["V3DRAFT-META-005"],
    "draft array document with dimension_names (not defined by this draft) is rejected",
    dimension_names=["y", "x"],
)
bad_array(
    "v3-draft/reject/zarr-format-in-array",
    "unknown-field",
    ["V3DRAFT-META-005"],
    "draft array document carrying zarr_format (an entry-point member) is rejected",
    zarr_format=CORE_URI,
)
bad_array(
    "v3-draft/reject/final-style-chunk-grid",
    "invalid-chunk-grid",
    ["V3DRAFT-META-009"],
    "draft chunk_grid in the final form {'name': 'regular', 'configuration': {...}} is rejected",
    chunk_grid={"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
)
bad_array(
    "v3-draft/reject/separator-dash",
    "invalid-chunk-key-encoding",
    ["V3DRAFT-META-009"],
    "draft chunk_grid separator '-' (only '/' and '.' are allowed) is rejected",
    chunk_grid={"type": "regular", "chunk_shape": [2, 3], "separator": "-"},
)
bad_array(
    "v3-draft/reject/chunk-shape-rank",
    "invalid-chunk-shape",
    ["V3DRAFT-META-009"],
    "draft chunk_shape [2] for a 2-d array is rejected",
    chunk_grid={"type": "regular", "chunk_shape": [2], "separator": "/"},
)
bad_array(
    "v3-draft/reject/layout-A",
    "invalid-order",
    ["V3DRAFT-META-010"],
    "draft chunk_memory_layout 'A' is rejected",
    chunk_memory_layout="A",
)
bad_array(
    "v3-draft/reject/layout-extension",
    "must-understand",
    ["V3DRAFT-META-010"],
    "draft chunk_memory_layout defined by an unknown extension {extension, type} cannot be processed",
    chunk_memory_layout={
        "extension": "https://example.org/zarr/layouts/morton/1.0",
        "type": "morton",
    },
)
bad_array(
    "v3-draft/reject/array-extension-must-understand",
    "must-understand",
    ["V3DRAFT-META-003"],
    "draft array extensions entry with an unknown URI and must_understand true stops processing",
    extensions=[{"extension": "https://example.org/zarr/ext/required", "must_understand": True}],
)
bad_array(
    "v3-draft/reject/attributes-list",
    "invalid-attributes",
    ["V3DRAFT-META-017"],
    "draft array attributes that are a list, not an object, are rejected",
    attributes=[1, 2],
)

# ---- data types (V3DRAFT-META-006/007) -------------------------------------------------------------------

bad_array(
    "v3-draft/reject/int64",
    "invalid-data-type",
    ["V3DRAFT-META-006"],
    needs=["dtype:int64"],
    description="draft data_type 'int64' (not in this draft's core table) is rejected by the reference: record behaviour",
    data_type="int64",
)
bad_array(
    "v3-draft/reject/typestr-f8",
    "invalid-data-type",
    ["V3DRAFT-META-006"],
    needs=["dtype:float64"],
    description="draft data_type '<f8' (the spec's own example spelling) is rejected by the reference: record behaviour",
    data_type="<f8",
)
bad_array(
    "v3-draft/reject/data-type-unknown",
    "invalid-data-type",
    ["V3DRAFT-META-006"],
    "draft data_type 'int31' is rejected",
    data_type="int31",
)
bad_array(
    "v3-draft/reject/extension-dtype-no-fallback",
    "must-understand",
    ["V3DRAFT-META-007"],
    "draft unknown extension data type without a fallback cannot be processed",
    data_type={"extension": "https://example.org/zarr/data-types/celsius/1.0", "type": "celsius"},
)
bad_array(
    "v3-draft/reject/extension-dtype-unknown-fallbacks",
    "must-understand",
    ["V3DRAFT-META-007"],
    "draft unknown extension data type whose fallbacks are all unknown cannot be processed",
    data_type={
        "extension": "https://example.org/zarr/data-types/celsius/1.0",
        "type": "celsius",
        "fallback": ["float128", "int31"],
    },
)

# ---- fill values (V3DRAFT-META-011) ----------------------------------------------------------------------

FILL_FAULTS = [
    (
        "fill-null",
        "int32",
        None,
        "null (required and 'not permitted'; the spec's own example uses it)",
    ),
    (
        "fill-missing-float-infinity",
        "float32",
        "Infinity",
        "'Infinity' (the final spelling; this draft lists '+Infinity'): record behaviour",
    ),
    ("fill-int-fraction", "int32", 1.5, "1.5 for int32 (a fraction)"),
    ("fill-uint8-out-of-range", "uint8", 256, "256 for uint8 (out of range)"),
    ("fill-hex-short", "float32", "0x3f80", "'0x3f80' for float32 (not padded to 8 hex digits)"),
    ("fill-bool-number", "bool", 1, "1 for bool (only true/false)"),
    ("fill-nan-for-int", "int16", "NaN", "'NaN' for int16"),
]
for _slug, _dt, _fill, _what in FILL_FAULTS:
    bad_array(
        f"v3-draft/reject/{_slug}",
        "invalid-fill-value",
        ["V3DRAFT-META-011"],
        needs=[f"dtype:{_dt}"],
        description=f"draft fill_value {_what} is rejected",
        data_type=_dt,
        fill_value=_fill,
    )

# ---- codecs (V3DRAFT-META-012/013) -----------------------------------------------------------------------

bad_array(
    "v3-draft/reject/codec-unknown-uri",
    "unknown-codec",
    ["V3DRAFT-META-013"],
    "draft codec with an unknown URI is rejected",
    codecs=[{"type": "https://purl.org/zarr/spec/codecs/lzjb/1.0", "configuration": {}}],
)
bad_array(
    "v3-draft/reject/codec-gzip-example-uri",
    "unknown-codec",
    ["V3DRAFT-META-013"],
    needs=I4 + ["codec:gzip"],
    description="draft gzip codec under its spec example's URI https://purl.org/zarr/spec/codec/gzip is rejected",
    codecs=[{"type": "https://purl.org/zarr/spec/codec/gzip", "configuration": {"level": 1}}],
)
bad_array(
    "v3-draft/reject/codec-final-name",
    "invalid-codec",
    ["V3DRAFT-META-012"],
    needs=I4 + ["codec:gzip"],
    description="draft codec in the final form {'name': 'gzip', ...} (no 'type' URI) is rejected",
    codecs=[{"name": "gzip", "configuration": {"level": 1}}],
)
bad_array(
    "v3-draft/reject/blosc-string-shuffle",
    "invalid-codec",
    ["V3DRAFT-META-013"],
    needs=I4 + ["codec:blosc"],
    description="draft blosc with the final spelling shuffle 'shuffle' (this draft uses integers) is rejected",
    codecs=[
        {
            "type": BLOSC_URI,
            "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "blocksize": 0},
        }
    ],
)
bad_array(
    "v3-draft/reject/blosc-shuffle-3",
    "invalid-codec",
    ["V3DRAFT-META-013"],
    needs=I4 + ["codec:blosc"],
    description="draft blosc shuffle 3 (not in {0, 1, 2, -1}) is rejected",
    codecs=[blosc_codec(shuffle=3)],
)
bad_array(
    "v3-draft/reject/endian-missing-config",
    "invalid-codec",
    ["V3DRAFT-META-013"],
    needs=I4 + ["codec:endian"],
    description="draft endian codec without its required 'endian' is rejected",
    codecs=[{"type": endian_codec()["type"], "configuration": {}}],
)
bad_array(
    "v3-draft/reject/gzip-level-10",
    "invalid-codec",
    ["V3DRAFT-META-013"],
    needs=I4 + ["codec:gzip"],
    description="draft gzip level 10 is rejected",
    codecs=[{"type": GZIP_URI, "configuration": {"level": 10}}],
)

# ---- storage transformers and sharding (V3DRAFT-META-014/015) --------------------------------------------

bad_array(
    "v3-draft/reject/transformer-unknown",
    "must-understand",
    ["V3DRAFT-META-014"],
    "draft storage transformer with an unknown extension URI cannot be processed",
    storage_transformers=[
        {"extension": "https://example.org/zarr/transformers/cache/1.0", "type": "lru"}
    ],
)
bad_array(
    "v3-draft/reject/transformers-not-list",
    "invalid-storage-transformer",
    ["V3DRAFT-META-014"],
    "draft storage_transformers that is an object, not a list, is rejected",
    storage_transformers={},
)
bad_array(
    "v3-draft/reject/sharding-zp2-uri",
    "must-understand",
    ["V3DRAFT-META-015"],
    "draft sharding under zarr-python 2's URI (no /extensions/) is not the seed-002 transformer",
    storage_transformers=[
        sharding([1, 1], "https://purl.org/zarr/spec/storage_transformers/sharding/1.0")
    ],
)
bad_array(
    "v3-draft/reject/sharding-rank",
    "invalid-storage-transformer",
    ["V3DRAFT-META-015"],
    "draft sharding chunks_per_shard [2] for a 2-d array is rejected",
    storage_transformers=[sharding([2])],
)
bad_array(
    "v3-draft/reject/sharding-type",
    "invalid-storage-transformer",
    ["V3DRAFT-META-015"],
    "draft sharding type 'hashed' (only 'indexed' exists) is rejected",
    storage_transformers=[{**sharding([2, 2]), "type": "hashed"}],
)


def _sharded_store(w, shard: bytes) -> None:
    put_entry(w)
    w.put_json(
        meta_key("x"), array_doc((4, 4), (2, 2), "int32", 0, transformers=[sharding([2, 2])])
    )
    w.put("data/x/c0/0", shard)
    w.node = "x"


@case(
    "v3-draft/reject/shard-index-truncated",
    kind="reject",
    needs=I4 + ["feature:storage-transformers"],
    requirements=["V3DRAFT-META-015"],
    description="draft shard shorter than its 64-byte index (4 chunks per shard) fails on read",
)
def _(w):
    _sharded_store(w, b"\x00" * 40)
    w.expect_reject("corrupt-shard-index", "read")


@case(
    "v3-draft/reject/shard-index-out-of-bounds",
    kind="reject",
    needs=I4 + ["feature:storage-transformers"],
    requirements=["V3DRAFT-META-015"],
    description="draft shard index entry pointing past the end of the shard fails on read",
)
def _(w):
    body = np.arange(4, dtype="<i4").tobytes()
    index = np.full((4, 2), 2**64 - 1, "<u8")
    index[0] = (0, 16)
    index[3] = (40, 64)  # ends at byte 104 of an 80-byte shard
    _sharded_store(w, body + index.tobytes())
    w.expect_reject("corrupt-shard-index", "read")


# ---- group documents (V3DRAFT-META-016) ------------------------------------------------------------------

reject_case(
    "v3-draft/reject/group-with-extensions",
    "unknown-field",
    ["V3DRAFT-META-016"],
    "draft group document {'attributes': {}, 'extensions': []} is rejected: groups cannot have extensions",
    docs={meta_key("g", "group"): {"attributes": {}, "extensions": []}},
    node="g",
    needs=["node:group"],
)
reject_case(
    "v3-draft/reject/group-without-attributes",
    "missing-field",
    ["V3DRAFT-META-016"],
    "draft group document {} without the mandatory attributes is rejected",
    docs={meta_key("g", "group"): {}},
    node="g",
    needs=["node:group"],
)
reject_case(
    "v3-draft/reject/array-doc-not-json",
    "invalid-json",
    ["V3DRAFT-META-018"],
    "draft array document meta/x.array.json that is not JSON (single quotes) is rejected",
    docs={meta_key("x"): b"{'shape': [4, 6]}"},
    needs=I4,
)

# ---- corrupt chunks ----------------------------------------------------------------------------------------


@case(
    "v3-draft/reject/gzip-truncated-chunk",
    kind="reject",
    needs=I4 + ["codec:gzip"],
    requirements=["V3DRAFT-META-013"],
    description="draft gzip chunk whose stream is truncated fails on read",
)
def _(w):
    put_entry(w)
    w.put_json(
        meta_key("x"),
        array_doc(
            (4,), (4,), "int32", 0, codecs=[{"type": GZIP_URI, "configuration": {"level": 1}}]
        ),
    )
    w.put("data/x/c0", gzip.compress(np.arange(4, dtype="<i4").tobytes(), mtime=0)[:-6])
    w.node = "x"
    w.expect_reject("corrupt-chunk", "read")


@case(
    "v3-draft/reject/truncated-edge-chunk",
    kind="reject",
    needs=I4,
    requirements=["V3DRAFT-META-019", "V3DRAFT-META-012"],
    description="draft (5,) int32 in (4,) chunks whose edge chunk c1 is stored truncated to 4 bytes (N5-style) fails on read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("x"), array_doc((5,), (4,), "int32", 0))
    w.put("data/x/c0", np.arange(4, dtype="<i4").tobytes())
    w.put("data/x/c1", np.array([4], "<i4").tobytes())
    w.node = "x"
    w.expect_reject("corrupt-chunk", "read")
