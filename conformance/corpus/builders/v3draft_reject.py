"""v3-draft must-reject cases: one fault each in an otherwise valid seed-002 store.

The entry point, the array and group documents, node names, data types, fill values, codecs, the
sharding transformer and corrupt chunks (V3DRAFT-KEY-*, V3DRAFT-META-*). Where the draft is
ambiguous (int64, "<f8", "Infinity", unknown entry-point members under 3.0, truncated edge chunks)
the case is optional and records the reference's documented choice."""

from __future__ import annotations

import gzip

import numpy as np

from ..generator import case, verdict
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
X = {meta_key("x"): array_doc((4, 6), (2, 3))}  # a valid array document at /x
G = meta_key("g", "group")
UNKNOWN_CBOR = {"extension": "https://example.org/zarr/encodings/cbor/1.0", "type": "cbor", "metadata_key_suffix": ".cbor"}  # fmt: skip
MUST_UNDERSTAND = [{"extension": "https://example.org/zarr/ext/unknown", "must_understand": True}]


def _store_fault(slug, reason, requirements, description, store):
    """A draft store given whole: `store` holds reject_case's entry, docs, node and needs."""
    store = {"needs": I4, **store}
    reject_case(f"v3-draft/reject/{slug}", reason, requirements.split(), description, **store)


def _array_fault(slug, reason, requirements, description, changes, needs=I4):
    """An array document at /x (with one chunk) that differs from a valid one only by `changes`."""
    doc = {**array_doc((4, 6), (2, 3), "int32", 0), **changes}
    docs = {meta_key("x"): doc, **CHUNK}
    reject_case(f"v3-draft/reject/{slug}", reason, requirements.split(), description, docs=docs, needs=needs)  # fmt: skip


def _without(member: str) -> dict:
    doc = array_doc((4, 6), (2, 3), "int32", 0)
    del doc[member]
    return doc


# fmt: off
STORE_FAULTS = [
    # slug, question, tests, reason, requirements, description, the store (entry point, documents, node, needs)
    # the entry point (V3DRAFT-KEY-001, V3DRAFT-META-001..003)
    ("no-entry-point", "no-node", "entry point", "node-not-found", "V3DRAFT-KEY-001", "draft store with meta/x.array.json and chunks but no zarr.json entry point cannot be opened", {"entry": None, "docs": {**X, **CHUNK}}),
    ("final-format-entry-point", "other-format", "entry point", "node-not-found", "V3DRAFT-KEY-001 V3DRAFT-META-001", "draft meta/ layout whose zarr.json is a final v3 group document (zarr_format 3) has no draft entry point", {"entry": {"zarr_format": 3, "node_type": "group"}, "docs": {**X, **CHUNK}}),
    ("zarr-format-major-4", "other-format", "zarr_format", "invalid-zarr-format", "V3DRAFT-META-001", "draft entry point zarr_format https://purl.org/zarr/spec/core/4.0 (another major version) is rejected", {"entry": entry_point(zarr_format=CORE_URI[:-3] + "4.0"), "docs": X}),
    ("entry-point-not-json", "json-lenient", "entry point", "invalid-json", "V3DRAFT-KEY-001 V3DRAFT-META-018", "draft entry point zarr.json that is not JSON (a trailing comma) is rejected", {"entry": b'{"zarr_format": "https://purl.org/zarr/spec/core/3.0", "extensions": [],}', "docs": X}),
    ("metadata-encoding-string", "wrong-structure", "metadata_encoding", "invalid-metadata", "V3DRAFT-META-002", 'draft entry point with metadata_encoding "json" (a string, not the object) is rejected', {"entry": entry_point(metadata_encoding="json"), "docs": X}),
    ("metadata-encoding-extension", "must-understand", "metadata_encoding", "must-understand", "V3DRAFT-META-002 V3DRAFT-META-003", "draft metadata_encoding defined by an unknown extension (extension, type, metadata_key_suffix) stops processing", {"entry": entry_point(metadata_encoding=UNKNOWN_CBOR), "docs": {"meta/x.array.cbor": b"\xa0"}}),
    ("metadata-encoding-missing", "missing-member", "metadata_encoding", "missing-field", "V3DRAFT-META-002", "draft entry point without metadata_encoding is rejected", {"entry": {"zarr_format": CORE_URI, "extensions": []}, "docs": X}),
    ("entry-extension-must-understand", "must-understand", "must_understand", "must-understand", "V3DRAFT-META-003", "draft entry point extension with an unknown URI and must_understand true stops processing", {"entry": entry_point(extensions=MUST_UNDERSTAND), "docs": {**X, **CHUNK}}),
    ("entry-unknown-member-3-0", "spec-silent", "zarr_format", "unknown-field", "V3DRAFT-META-001", "draft 3.0 entry point with an undefined member 'foo' is rejected by the reference (a reader may also ignore it: record behaviour)", {"entry": entry_point(foo="bar"), "docs": X}),
    # node names (V3DRAFT-KEY-006)
    *[(f"node-name-{slug}", "invalid-node-name", "characters", "invalid-node-name", "V3DRAFT-KEY-006 V3DRAFT-KEY-007", f"draft node name {name!r} (outside [A-Za-z0-9._-] or only periods) is refused even with its metadata present", {"docs": {meta_key(name): array_doc((4, 6), (2, 3))}, "node": name})
      for slug, name in [("non-ascii", "café"), ("space", "a b"), ("only-periods", "..")]],
    # mandatory array members (V3DRAFT-META-004)
    *[(f"missing-{member.replace('_', '-')}", "missing-member", member, "missing-field", "V3DRAFT-META-004", f"draft array document without the mandatory member {member!r} is rejected", {"docs": {meta_key("x"): _without(member), **CHUNK}})
      for member in ("attributes", "chunk_memory_layout", "fill_value", "extensions", "chunk_grid", "data_type", "shape")],
    # group documents (V3DRAFT-META-016) and documents that are not JSON (V3DRAFT-META-018)
    ("group-with-extensions", "unknown-member", "other names", "unknown-field", "V3DRAFT-META-016", "draft group document {'attributes': {}, 'extensions': []} is rejected: groups cannot have extensions", {"docs": {G: {"attributes": {}, "extensions": []}}, "node": "g", "needs": ["node:group"]}),
    ("group-without-attributes", "missing-member", "attributes", "missing-field", "V3DRAFT-META-016", "draft group document {} without the mandatory attributes is rejected", {"docs": {G: {}}, "node": "g", "needs": ["node:group"]}),
    ("array-doc-not-json", "json-lenient", "metadata_encoding", "invalid-json", "V3DRAFT-META-018", "draft array document meta/x.array.json that is not JSON (single quotes) is rejected", {"docs": {meta_key("x"): b"{'shape': [4, 6]}"}}),
]

ARRAY_FAULTS = [
    # slug, question, tests, reason, requirements, description, changed members[, needs]
    # array documents (V3DRAFT-META-005..017)
    ("dimension-names-member", "unknown-member", "unknown metadata fields", "unknown-field", "V3DRAFT-META-005", "draft array document with dimension_names (not defined by this draft) is rejected", {"dimension_names": ["y", "x"]}),
    ("zarr-format-in-array", "unknown-member", "unknown metadata fields", "unknown-field", "V3DRAFT-META-005", "draft array document carrying zarr_format (an entry-point member) is rejected", {"zarr_format": CORE_URI}),
    ("final-style-chunk-grid", "other-version-form", "chunk_grid", "invalid-chunk-grid", "V3DRAFT-META-009", "draft chunk_grid in the final form {'name': 'regular', 'configuration': {...}} is rejected", {"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}}}),
    ("separator-dash", "invalid-value", "separator", "invalid-chunk-key-encoding", "V3DRAFT-META-009", "draft chunk_grid separator '-' (only '/' and '.' are allowed) is rejected", {"chunk_grid": {"type": "regular", "chunk_shape": [2, 3], "separator": "-"}}),
    ("chunk-shape-rank", "invalid-value", "chunk_shape", "invalid-chunk-shape", "V3DRAFT-META-009", "draft chunk_shape [2] for a 2-d array is rejected", {"chunk_grid": {"type": "regular", "chunk_shape": [2], "separator": "/"}}),
    ("layout-A", "invalid-value", "chunk_memory_layout", "invalid-order", "V3DRAFT-META-010", "draft chunk_memory_layout 'A' is rejected", {"chunk_memory_layout": "A"}),
    ("layout-extension", "must-understand", "chunk_memory_layout", "must-understand", "V3DRAFT-META-010", "draft chunk_memory_layout defined by an unknown extension {extension, type} cannot be processed", {"chunk_memory_layout": {"extension": "https://example.org/zarr/layouts/morton/1.0", "type": "morton"}}),
    ("array-extension-must-understand", "must-understand", "must_understand", "must-understand", "V3DRAFT-META-003", "draft array extensions entry with an unknown URI and must_understand true stops processing", {"extensions": [{"extension": "https://example.org/zarr/ext/required", "must_understand": True}]}),
    ("attributes-list", "wrong-structure", "attributes", "invalid-attributes", "V3DRAFT-META-017", "draft array attributes that are a list, not an object, are rejected", {"attributes": [1, 2]}),
    # data types (V3DRAFT-META-006/007)
    ("int64", "versions-disagree", "data_type", "invalid-data-type", "V3DRAFT-META-006", "draft data_type 'int64' (not in this draft's core table) is rejected by the reference: record behaviour", {"data_type": "int64"}, ["dtype:int64"]),
    ("typestr-f8", "versions-disagree", "data_type", "invalid-data-type", "V3DRAFT-META-006", "draft data_type '<f8' (the spec's own example spelling) is rejected by the reference: record behaviour", {"data_type": "<f8"}, ["dtype:float64"]),
    ("data-type-unknown", "unknown-extension", "data_type", "invalid-data-type", "V3DRAFT-META-006", "draft data_type 'int31' is rejected", {"data_type": "int31"}),
    ("extension-dtype-no-fallback", "must-understand", "fallback", "must-understand", "V3DRAFT-META-007", "draft unknown extension data type without a fallback cannot be processed", {"data_type": {"extension": "https://example.org/zarr/data-types/celsius/1.0", "type": "celsius"}}),
    ("extension-dtype-unknown-fallbacks", "must-understand", "fallback", "must-understand", "V3DRAFT-META-007", "draft unknown extension data type whose fallbacks are all unknown cannot be processed", {"data_type": {"extension": "https://example.org/zarr/data-types/celsius/1.0", "type": "celsius", "fallback": ["float128", "int31"]}}),
    # fill values (V3DRAFT-META-011)
    *[(slug, question, tests, "invalid-fill-value", "V3DRAFT-META-011", f"draft fill_value {what} is rejected", {"data_type": dt, "fill_value": fill}, [f"dtype:{dt}"]) for slug, question, tests, dt, fill, what in [
        ("fill-null", "null-mandatory", "fill_value", "int32", None, "null (required and 'not permitted'; the spec's own example uses it)"),
        ("fill-missing-float-infinity", "float-special-spelling", "fill_value", "float32", "Infinity", "'Infinity' (the final spelling; this draft lists '+Infinity'): record behaviour"),
        ("fill-int-fraction", "invalid-value", "fill_value", "int32", 1.5, "1.5 for int32 (a fraction)"),
        ("fill-uint8-out-of-range", "invalid-value", "fill_value", "uint8", 256, "256 for uint8 (out of range)"),
        ("fill-hex-short", "hex-digits", "fill_value", "float32", "0x3f80", "'0x3f80' for float32 (not padded to 8 hex digits)"),
        ("fill-bool-number", "scalar-spelling", "fill_value", "bool", 1, "1 for bool (only true/false)"),
        ("fill-nan-for-int", "invalid-value", "fill_value", "int16", "NaN", "'NaN' for int16"),
    ]],
    # codecs (V3DRAFT-META-012/013)
    ("codec-unknown-uri", "unknown-extension", "codecs", "unknown-codec", "V3DRAFT-META-013", "draft codec with an unknown URI is rejected", {"codecs": [{"type": "https://purl.org/zarr/spec/codecs/lzjb/1.0", "configuration": {}}]}),
    ("codec-gzip-example-uri", "unknown-extension", "codecs", "unknown-codec", "V3DRAFT-META-013", "draft gzip codec under its spec example's URI https://purl.org/zarr/spec/codec/gzip is rejected", {"codecs": [{"type": "https://purl.org/zarr/spec/codec/gzip", "configuration": {"level": 1}}]}, [*I4, "codec:gzip"]),
    ("codec-final-name", "other-version-form", "codecs", "invalid-codec", "V3DRAFT-META-012", "draft codec in the final form {'name': 'gzip', ...} (no 'type' URI) is rejected", {"codecs": [{"name": "gzip", "configuration": {"level": 1}}]}, [*I4, "codec:gzip"]),
    ("blosc-string-shuffle", "encoder-parameter", "shuffle", "invalid-codec", "V3DRAFT-META-013", "draft blosc with the final spelling shuffle 'shuffle' (this draft uses integers) is rejected", {"codecs": [{"type": BLOSC_URI, "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "blocksize": 0}}]}, [*I4, "codec:blosc"]),
    ("blosc-shuffle-3", "encoder-parameter", "shuffle", "invalid-codec", "V3DRAFT-META-013", "draft blosc shuffle 3 (not in {0, 1, 2, -1}) is rejected", {"codecs": [blosc_codec(shuffle=3)]}, [*I4, "codec:blosc"]),
    ("endian-missing-config", "byte-order-unspecified", "endian", "invalid-codec", "V3DRAFT-META-013", "draft endian codec without its required 'endian' is rejected", {"codecs": [{"type": endian_codec()["type"], "configuration": {}}]}, [*I4, "codec:endian"]),
    ("gzip-level-10", "encoder-parameter", "level", "invalid-codec", "V3DRAFT-META-013", "draft gzip level 10 is rejected", {"codecs": [{"type": GZIP_URI, "configuration": {"level": 10}}]}, [*I4, "codec:gzip"]),
    # storage transformers and sharding (V3DRAFT-META-014/015)
    ("transformer-unknown", "must-understand", "storage_transformers", "must-understand", "V3DRAFT-META-014", "draft storage transformer with an unknown extension URI cannot be processed", {"storage_transformers": [{"extension": "https://example.org/zarr/transformers/cache/1.0", "type": "lru"}]}),
    ("transformers-not-list", "wrong-structure", "storage_transformers", "invalid-storage-transformer", "V3DRAFT-META-014", "draft storage_transformers that is an object, not a list, is rejected", {"storage_transformers": {}}),
    ("sharding-rank", "invalid-value", "chunks_per_shard", "invalid-storage-transformer", "V3DRAFT-META-015", "draft sharding chunks_per_shard [2] for a 2-d array is rejected", {"storage_transformers": [sharding([2])]}),
    ("sharding-type", "unknown-extension", "extension points", "invalid-storage-transformer", "V3DRAFT-META-015", "draft sharding type 'hashed' (only 'indexed' exists) is rejected", {"storage_transformers": [{**sharding([2, 2]), "type": "hashed"}]}),
]
# fmt: on

for _slug, _question, _tests, *_row in STORE_FAULTS:
    with verdict(question=_question, tests=_tests):
        _store_fault(_slug, *_row)
for _slug, _question, _tests, *_row in ARRAY_FAULTS:
    with verdict(question=_question, tests=_tests):
        _array_fault(_slug, *_row)
# zarr-python 2's sharding URI is no URI this draft defines: the URIs differ only in observed
# writers (citations.toml, V3DRAFT-ZP2-004), so no sentence names the transformer's URI
with verdict(
    question="must-understand",
    tests="sharding",
    citation_note="the draft names only its own sharding URI; zarr-python 2's URI is observed "
    "behaviour (the citations.toml note of V3DRAFT-ZP2-004), which no sentence names",
):
    _array_fault("sharding-zp2-uri", "must-understand", "V3DRAFT-META-015", "draft sharding under zarr-python 2's URI (no /extensions/) is not the seed-002 transformer", {"storage_transformers": [sharding([1, 1], "https://purl.org/zarr/spec/storage_transformers/sharding/1.0")]})  # fmt: skip


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
    question="corrupt-chunk",
    tests="index",
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
    question="corrupt-chunk",
    tests="index",
)
def _(w):
    body = np.arange(4, dtype="<i4").tobytes()
    index = np.full((4, 2), 2**64 - 1, "<u8")
    index[0] = (0, 16)
    index[3] = (40, 64)  # ends at byte 104 of an 80-byte shard
    _sharded_store(w, body + index.tobytes())
    w.expect_reject("corrupt-shard-index", "read")


# ---- corrupt chunks ----------------------------------------------------------------------------------------


@case(
    "v3-draft/reject/gzip-truncated-chunk",
    kind="reject",
    needs=I4 + ["codec:gzip"],
    requirements=["V3DRAFT-META-013"],
    description="draft gzip chunk whose stream is truncated fails on read",
    question="corrupt-chunk",
    tests="gzip",
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
    question="corrupt-chunk",
    tests="chunks",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("x"), array_doc((5,), (4,), "int32", 0))
    w.put("data/x/c0", np.arange(4, dtype="<i4").tobytes())
    w.put("data/x/c1", np.array([4], "<i4").tobytes())
    w.node = "x"
    w.expect_reject("corrupt-chunk", "read")
