"""The question each case asks, and the tier policy that answers it (fixtures/README.md, "Tiers").

Cases that ask the same question get the same tier. A case names its question with the `question`
argument of its builder, or through RULES below (the first glob that matches its id). A QUESTION
carries the tier every case asking it gets and the written reason for that tier, which the
generator copies into case.json as `tier_reason`; a builder may give a case another tier only
with a `tier_reason` of its own, and `corpus check` refuses a question whose cases differ in tier
otherwise.

The policy for documents a reader is asked to refuse:
- required: a spec sentence demands that the implementation fail (unknown members, unknown
  extensions, codecs that cannot take their input, `.`/`..` path segments), or the fault leaves the
  data undetermined (a missing or null mandatory member, a value with no reading, a document that
  is not JSON, a chunk its codecs cannot decode to exactly the chunk);
- strict: the document breaks a document-level MUST but exactly one reading remains (an integer
  written as 2.0, a number in a string, another letter case, null for a member with a default, a
  fault in an encoder-only parameter, lenient JSON, an implicit group, a forbidden node name):
  refusing is right, accepting is leniency;
- optional: the spec only says SHOULD, says nothing, or its versions disagree.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

V3_CORE = "zarr-specs-v3.0/docs/v3/core/v3.0.rst"


@dataclass(frozen=True)
class Question:
    tier: str
    reason: str
    citation: tuple[dict, ...] = ()  # sentences the tier rests on beyond the case's requirements


def _cite(section: str, quote: str, spec: str = V3_CORE) -> dict:
    return {"spec": spec, "section": section, "quote": quote}


MUST_FAIL = _cite(
    "Codecs",
    "If the ``decoded_representation_type`` is not supported, this algorithm must fail with an error.",
)

QUESTIONS: dict[str, Question] = {
    # ---- required: the implementation must refuse ------------------------------------------------
    "unknown-member": Question(
        "required",
        "an unknown member of a metadata document: the spec says an implementation must fail to open "
        "it (unless its value is an object saying must_understand false)",
    ),
    "unknown-extension": Question(
        "required",
        "a name at an extension point (codec, data type, chunk grid, chunk key encoding, storage "
        "transformer) that no version of the v3 spec defines, including case variants (names are "
        "identifiers), v2 type strings and codec ids, and objects without a name: extension points in "
        "use are required, so the implementation must fail rather than guess",
        (
            _cite(
                "Extension points",
                "If such extension points are used by groups or arrays, they are required.",
            ),
        ),
    ),
    "must-understand": Question(
        "required",
        "an unrecognised draft extension marked must_understand true: the draft says processing must terminate",
    ),
    "codec-order": Question(
        "required",
        "a codec list that is not array->array*, array->bytes, bytes->bytes*: some codec receives a "
        "representation it does not support, and the spec says that must fail with an error",
        (MUST_FAIL,),
    ),
    "codec-input": Question(
        "required",
        "a codec configured for an input it cannot take (a transpose order of the wrong rank, an inner "
        "chunk shape that does not divide the shard, a variable-size index codec, a fixed-size codec on "
        "a variable-length type, no object codec for objects): the spec says that must fail with an error",
        (MUST_FAIL,),
    ),
    "byte-order-unspecified": Question(
        "required",
        "a multi-byte type whose byte order the document does not give ('i4', '|i4', a bytes codec "
        "without endian): the stored bytes have two readings",
    ),
    "missing-member": Question(
        "required",
        "a mandatory member is absent: a reader that supplies it invents metadata the writer did not "
        "state, so the data cannot be read unambiguously",
    ),
    "null-mandatory": Question(
        "required",
        "null where the spec requires a value and gives no default: the data cannot be read unambiguously",
    ),
    "invalid-value": Question(
        "required",
        "a value the member cannot take and that has no reading (a fraction or an out-of-range number "
        "for an integer, a negative or zero extent, ranks or lengths that disagree, an undefined "
        "enumeration value such as endian 'native' or order 'A', bytes that are not Base64, a NaN "
        "fill for an integer type): the document does not say what the data are",
    ),
    "wrong-structure": Question(
        "required",
        "a list, object or string where another structure is required, or a list of the wrong "
        "length: there is no unique reading",
    ),
    "other-format": Question(
        "required",
        "a document declaring another format version: it asks for rules the reader does not apply",
    ),
    "unreadable-document": Question(
        "required",
        "a metadata document that is not JSON at all (empty, truncated, unbalanced, a missing comma) or "
        "not a JSON object: there is nothing to read",
    ),
    "corrupt-chunk": Question(
        "required",
        "a stored value its codecs cannot decode to exactly the chunk (truncated or over-long streams, "
        "wrong sizes, headers that disagree with the value, N5-style short edge chunks, a bool byte "
        "other than 00/01, shard index entries outside the shard): the data cannot be read unambiguously",
    ),
    "invalid-path": Question(
        "required", "a v2 path with a '.' or '..' segment: the spec says an error MUST be raised"
    ),
    "no-node": Question("required", "nothing is stored at the path: there is no node to open"),
    "writer-records-fill": Question(
        "required",
        "a writer records the fill value it was asked for: fill values are compared as bytes of the data "
        "type, so any spelling the spec allows passes and a changed value (a sign, a NaN payload, a "
        "rounding) does not",
        (
            _cite(
                "fill_value",
                "Provides an element value to use for uninitialised portions of the Zarr array.",
            ),
        ),
    ),
    "region-write": Question(
        "required",
        "a region or a single element written into an existing array (partial chunks, edge chunks, "
        "overwrites, values equal to the fill): the chunk grid fixes where every element is stored "
        "and a missing chunk reads as the fill value, so the array read back is determined (the "
        "values written, the earlier values elsewhere, the fill value where nothing was written), "
        "and so are the keys: a chunk the writes do not touch is not the writer's to store",
        (
            _cite(
                "fill_value",
                "Provides an element value to use for uninitialised portions of the Zarr array.",
            ),
        ),
    ),
    # ---- strict: one reading remains; refusing is right, accepting is leniency --------------------
    "integer-as-float": Question(
        "strict",
        "an integer written as a float with a zero fraction (2.0): the member is an integer, but one "
        "reading remains",
    ),
    "scalar-spelling": Question(
        "strict",
        "a scalar of the wrong JSON type with exactly one reading: a number or boolean inside a string "
        "('3', 'true', '1.5', '0x00000001'), a boolean as 0/1 or a number as a boolean, a number as a "
        "name",
    ),
    "case-variant": Question(
        "strict",
        "an enumerated value in another letter case ('Array', 'LITTLE', 'END', order 'c'): one reading remains",
    ),
    "null-optional": Question(
        "strict",
        "null for an optional member the spec gives a default (attributes, storage_transformers, a "
        "codec configuration, the key separator, index_location): one reading remains",
    ),
    "float-special-spelling": Question(
        "strict",
        "a special float value spelled other than the spec's strings ('inf', 'nan', '+Infinity', "
        "'INFINITY', '-NaN', '[1, \"inf\"]'): one reading remains",
    ),
    "hex-digits": Question(
        "strict",
        "a hexadecimal float fill with fewer digits than the type has bytes: read as the unsigned "
        "integer the spec says it is, it has one value",
    ),
    "encoder-parameter": Question(
        "strict",
        "a fault in a parameter that only steers the encoder (blosc cname/clevel/shuffle/typesize/"
        "blocksize, gzip and zstd level, zstd checksum): decoding does not use it, so the data read one way",
    ),
    "unknown-configuration-member": Question(
        "strict",
        "an unknown member inside an extension object or its configuration (beside name/configuration, "
        "in a codec's or the chunk key encoding's configuration, a write-strategy member): the codec "
        "specs define their parameters, but the core's refusal sentence names the metadata document's "
        "own members, and the data read one way without it",
    ),
    "other-version-form": Question(
        "strict",
        "a form from another version of the spec that has one meaning there (the pre-2024 'endian' "
        "codec, a draft codec URI, transpose order 'C'/'F', a binary float fill, the draft's chunk grid "
        "form, the final codec form inside a draft document): the "
        "version at hand does not allow it, but one reading remains",
    ),
    "json-lenient": Question(
        "strict",
        "a document lenient JSON parsers accept but RFC 8259 does not (trailing commas, comments, "
        "single quotes, a bare NaN token, bytes that are not UTF-8): metadata documents are JSON, but "
        "one reading remains",
    ),
    "no-metadata-document": Question(
        "strict",
        "a path that holds descendants but no metadata document of its own (an implicit group): the "
        "format defines a node by its document, so a reader that reports a group there is lenient",
    ),
    "invalid-node-name": Question(
        "strict",
        "a stored node whose name the spec forbids (empty, only periods, the '__' prefix, characters "
        "outside the draft's set): names are constrained, but the node reads one way",
    ),
    "must-understand-misuse": Question(
        "strict",
        "must_understand on a known data type, chunk grid or chunk key encoding, where 3.1 forbids "
        "false, or must_understand that is not a boolean: the extension itself is known, so one reading "
        "remains",
    ),
    "core-type-object-form": Question(
        "strict",
        "a core data type given as an object ({'name': 'int32'}): 3.0 and 3.1 say a core type must be "
        "given as its identifier string, but one reading remains",
    ),
    # ---- optional: SHOULD, silence, or versions that disagree ------------------------------------
    "duplicate-member": Question(
        "optional", "a JSON object with a repeated name: RFC 8259 only says names SHOULD be unique"
    ),
    "checksum-mismatch": Question(
        "optional",
        "a checksum that does not match its data (crc32c, crc32, a gzip trailer, a shard index checksum): "
        "no spec sentence requires readers to verify checksums; verifying is what they are for",
    ),
    "foreign-container": Question(
        "optional",
        "a valid stream of another container format (raw deflate or zlib for gzip, gzip for zlib): "
        "readers that recognise it read the data one way, and no sentence forbids that",
    ),
    "trailing-junk": Question(
        "optional",
        "bytes after a complete compressed stream: the data decode one way, and no sentence says "
        "readers must look past the stream's end",
    ),
    "spec-silent": Question(
        "optional",
        "a store the spec says nothing about (a node with both .zarray and .zgroup, a float fill beyond "
        "the type's range in v2, inner chunks overlapping the shard index, undefined members of a draft "
        "entry point): the reference's choice is recorded",
    ),
    "v3-create-ancestors": Question(
        "optional",
        "creating the ancestor groups of a new node is described only by the 3.0 'Operations' section, which "
        "is 'a non-normative guide-line': a writer that leaves them out still writes a valid node (v2, whose "
        "text says groups MUST be created at all ancestor paths, keeps its ancestor cases required)",
    ),
    "should": Question(
        "optional",
        "what the spec says an implementation SHOULD, MAY or is RECOMMENDED to do (gzip containers, fill "
        "in edge chunk overhang, the recommended index codecs, v2 readers ignoring extra keys, the draft's "
        "fallback data types and minor versions, decoding by the self-describing blosc header)",
    ),
    "v3.1-addition": Question(
        "optional",
        "3.1 adds it (short-hand names, an explicit must_understand): a reader that implements 3.0 may "
        "refuse it; the versions disagree",
    ),
    "convention": Question(
        "optional",
        "a convention that writers follow where the spec is silent (v2 fill encodings of complex, "
        "datetime, unicode and void types, v2 0-d arrays, consolidated metadata, filters []) or a data "
        "type whose API form the spec leaves open (v2 'V', NumPy unit multipliers): the reference reads "
        "it as its writers mean it",
    ),
    "lenient-read": Question(
        "optional",
        "a document that bends a rule but has one reading, which the reference reads: a reader that "
        "refuses it is not wrong",
    ),
    "json-number-precision": Question(
        "optional",
        "RFC 8259 lets JSON parsers limit the range and precision of numbers, so exact decimal rounding "
        "of float fills and integers beyond 2^53 in attributes are recorded, not required",
    ),
    "resize": Question(
        "optional",
        "resizing is described only in 3.0's informative 'Implementation Notes' (v2 does not mention "
        "it), so a writer may offer no resize; one that resizes must leave an array of the new shape "
        "whose kept elements keep their values and whose new elements read as the fill value where "
        "no chunk data existed; elements where a shrink left chunk data (or an edge chunk's "
        "overhang) may show it again after growing ('this data will be shown by default'): the "
        "case marks them undefined",
        (
            _cite(
                "Resizing",
                "For areas where no chunks existed previously, they implicitly have the fill value "
                "after updating the metadata, no new chunks need to be written in this case.",
            ),
            _cite(
                "Resizing",
                "When shrinking, implementations can consider whether to delete chunks if the store "
                "allows this, or keep them.",
            ),
        ),
    ),
    "writer-choice": Question(
        "optional",
        "a valid request that the spec does not oblige a writer's API to accept (an array without a fill value)",
    ),
    "zep6-original-schema": Question(
        "optional",
        "ZEP 6 is a draft whose own JSON Schemas have known defects: how a model fares against the "
        "original schema, and the draft's claim that chunk data do not change a hierarchy's model, are recorded",
    ),
    "versions-disagree": Question(
        "optional",
        "the spec's versions or its errata disagree (chunk size 0 for an empty dimension, r<N> fill "
        "length, leading zeros in r<N>, an unknown codec marked must_understand false, the draft's own "
        "example spellings): the reference's choice is recorded",
    ),
}

# (glob over case ids, question): the first match wins.
RULES: tuple[tuple[str, str], ...] = (
    # -- v1 --
    ("v1/reject/corrupt-chunk", "corrupt-chunk"),
    ("v1/reject/dtype-no-byte-order", "byte-order-unspecified"),
    ("v1/reject/meta-not-json", "json-lenient"),
    ("v1/reject/missing-*", "missing-member"),
    ("v1/reject/order-A", "invalid-value"),
    ("v1/reject/shape-chunks-rank", "invalid-value"),
    ("v1/reject/zarr-format-2", "other-format"),
    ("v1/reject/zarr-format-string", "scalar-spelling"),
    # -- v2 --
    ("v2/attributes/reject-list", "wrong-structure"),
    ("v2/attributes/reject-not-json", "json-lenient"),
    ("v2/chunks/reject-blosc-trailing-byte", "trailing-junk"),
    ("v2/chunks/reject-crc32-mismatch", "checksum-mismatch"),
    ("v2/chunks/reject-gzip-under-zlib", "foreign-container"),
    ("v2/chunks/reject-unknown-*", "unknown-extension"),
    ("v2/chunks/reject-*", "corrupt-chunk"),
    ("v2/fill/reject-bool-string", "scalar-spelling"),
    ("v2/fill/reject-float-number-string", "scalar-spelling"),
    ("v2/fill/reject-float-true", "scalar-spelling"),
    ("v2/fill/reject-int-string", "scalar-spelling"),
    ("v2/fill/reject-float-inf-short", "float-special-spelling"),
    ("v2/fill/reject-float-nan-lowercase", "float-special-spelling"),
    ("v2/fill/reject-float-plus-infinity", "float-special-spelling"),
    ("v2/fill/reject-float-overflow", "spec-silent"),
    ("v2/fill/reject-structured-list", "wrong-structure"),
    ("v2/fill/reject-*", "invalid-value"),
    ("v2/groups/reject-array-and-group", "spec-silent"),
    ("v2/groups/reject-path-without-zgroup", "no-metadata-document"),
    ("v2/groups/reject-zgroup-empty-object", "missing-member"),
    ("v2/groups/reject-zgroup-list", "unreadable-document"),
    ("v2/groups/reject-zgroup-not-json", "unreadable-document"),
    ("v2/groups/reject-zgroup-zarr-format-3", "other-format"),
    ("v2/keys/reject-*", "invalid-path"),
    ("v2/metadata/reject-bare-nan-token", "json-lenient"),
    ("v2/metadata/reject-not-json", "json-lenient"),
    ("v2/metadata/reject-invalid-utf8", "json-lenient"),
    ("v2/metadata/reject-duplicate-key", "duplicate-member"),
    ("v2/metadata/reject-json-array", "unreadable-document"),
    ("v2/metadata/reject-missing-*", "missing-member"),
    ("v2/metadata/reject-chunks-null", "null-mandatory"),
    ("v2/metadata/reject-order-null", "null-mandatory"),
    ("v2/metadata/reject-order-lowercase", "case-variant"),
    ("v2/metadata/reject-compressor-string", "wrong-structure"),
    ("v2/metadata/reject-filters-object", "wrong-structure"),
    ("v2/metadata/reject-filters-string-entry", "wrong-structure"),
    ("v2/metadata/reject-shape-string", "wrong-structure"),
    ("v2/metadata/reject-dtype-field-four-members", "wrong-structure"),
    ("v2/metadata/reject-compressor-without-id", "unknown-extension"),
    ("v2/metadata/reject-filters-entry-without-id", "unknown-extension"),
    ("v2/metadata/reject-dtype-field-name-number", "scalar-spelling"),
    ("v2/metadata/reject-dtype-no-byte-order", "byte-order-unspecified"),
    (
        "v2/metadata/reject-dtype-pipe-multibyte",
        "spec-silent",
    ),  # v2 lists "|" as a byte-order character without limiting it to one-byte types
    ("v2/metadata/reject-zarr-format-float", "integer-as-float"),
    ("v2/metadata/reject-zarr-format-string", "scalar-spelling"),
    ("v2/metadata/reject-zarr-format-*", "other-format"),
    ("v2/metadata/reject-*", "invalid-value"),
    ("v2/objects/reject-no-object-codec", "codec-input"),
    ("v2/zom/zep6-example-v2-array-unbalanced", "unreadable-document"),
    ("v2/zom/zep6-example-v2-hierarchy-filters", "wrong-structure"),
    # -- v3 codecs --
    ("v3/codecs/reject-blosc-typesize-float", "integer-as-float"),
    ("v3/codecs/reject-blosc-short-header", "corrupt-chunk"),
    ("v3/codecs/reject-blosc-truncated", "corrupt-chunk"),
    ("v3/codecs/reject-blosc-wrong-nbytes", "corrupt-chunk"),
    ("v3/codecs/reject-blosc-zlib-chunk", "corrupt-chunk"),
    ("v3/codecs/reject-blosc-*", "encoder-parameter"),
    ("v3/codecs/reject-bytes-chunk-*", "corrupt-chunk"),
    ("v3/codecs/reject-bytes-*-no-endian", "byte-order-unspecified"),
    ("v3/codecs/reject-bytes-float64-empty-configuration", "byte-order-unspecified"),
    ("v3/codecs/reject-bytes-endian-null", "null-mandatory"),
    ("v3/codecs/reject-bytes-endian-uppercase", "case-variant"),
    ("v3/codecs/reject-bytes-endian-*", "invalid-value"),
    ("v3/codecs/reject-bytes-on-string", "codec-input"),
    ("v3/codecs/reject-*-unknown-member", "unknown-configuration-member"),
    ("v3/codecs/reject-crc32c-configuration-*", "unknown-configuration-member"),
    ("v3/codecs/reject-crc32c-3-bytes", "corrupt-chunk"),
    ("v3/codecs/reject-crc32c-missing-checksum", "corrupt-chunk"),
    ("v3/codecs/reject-crc32c-*", "checksum-mismatch"),
    ("v3/codecs/reject-gzip-bad-trailer-crc", "checksum-mismatch"),
    ("v3/codecs/reject-gzip-junk-after-member", "trailing-junk"),
    ("v3/codecs/reject-gzip-level-*", "encoder-parameter"),
    ("v3/codecs/reject-gzip-raw-deflate", "foreign-container"),
    ("v3/codecs/reject-gzip-zlib-stream", "foreign-container"),
    ("v3/codecs/reject-gzip-*", "corrupt-chunk"),
    ("v3/codecs/reject-transpose-no-configuration", "missing-member"),
    ("v3/codecs/reject-transpose-order-missing", "missing-member"),
    ("v3/codecs/reject-transpose-order-C", "other-version-form"),
    ("v3/codecs/reject-transpose-order-F", "other-version-form"),
    ("v3/codecs/reject-transpose-order-booleans", "scalar-spelling"),
    ("v3/codecs/reject-transpose-order-floats", "integer-as-float"),
    ("v3/codecs/reject-transpose-rank*", "codec-input"),
    ("v3/codecs/reject-transpose-order-*", "invalid-value"),
    ("v3/codecs/reject-zstd-bad-content-checksum", "checksum-mismatch"),
    ("v3/codecs/reject-zstd-not-a-frame", "corrupt-chunk"),
    ("v3/codecs/reject-zstd-truncated", "corrupt-chunk"),
    ("v3/codecs/reject-zstd-*", "encoder-parameter"),
    # -- v3 data types --
    (
        "v3/dtypes/reject-bool-byte-02",
        "spec-silent",
    ),  # the bytes codec defines how true and false are encoded, not how other bytes decode
    ("v3/dtypes/reject-list", "wrong-structure"),
    ("v3/dtypes/reject-null", "null-mandatory"),
    ("v3/dtypes/reject-r-leading-zero", "versions-disagree"),
    ("v3/dtypes/reject-*", "unknown-extension"),
    # -- v3 extension points --
    ("v3/extensions/reject-cke-configuration-number", "wrong-structure"),
    ("v3/extensions/reject-codec-configuration-string", "wrong-structure"),
    ("v3/extensions/reject-grid-configuration-list", "wrong-structure"),
    ("v3/extensions/reject-codec-unknown-must-understand-false", "versions-disagree"),
    ("v3/extensions/reject-*-known-must-understand-false", "must-understand-misuse"),
    ("v3/extensions/reject-must-understand-not-boolean", "must-understand-misuse"),
    ("v3/extensions/reject-data-type-object-form", "core-type-object-form"),
    ("v3/extensions/reject-codec-uri-name", "other-version-form"),
    ("v3/extensions/reject-*", "unknown-extension"),
    # -- v3 fill values --
    ("v3/fill/reject-*-null", "null-mandatory"),
    ("v3/fill/reject-bool-0", "scalar-spelling"),
    ("v3/fill/reject-bool-1", "scalar-spelling"),
    ("v3/fill/reject-bool-string-true", "scalar-spelling"),
    ("v3/fill/reject-*-true", "scalar-spelling"),
    ("v3/fill/reject-*-string", "scalar-spelling"),
    ("v3/fill/reject-int32-hex", "scalar-spelling"),
    ("v3/fill/reject-float64-number-string", "scalar-spelling"),
    ("v3/fill/reject-complex128-bad-part", "float-special-spelling"),
    ("v3/fill/reject-float32-inf", "float-special-spelling"),
    ("v3/fill/reject-float32-nan-lowercase", "float-special-spelling"),
    ("v3/fill/reject-float32-plus-infinity", "float-special-spelling"),
    ("v3/fill/reject-float64-infinity-uppercase", "float-special-spelling"),
    ("v3/fill/reject-float64-minus-nan", "float-special-spelling"),
    ("v3/fill/reject-float32-hex-short", "hex-digits"),
    ("v3/fill/reject-complex64-*", "wrong-structure"),
    ("v3/fill/reject-*-list", "wrong-structure"),
    ("v3/fill/reject-r16-base64", "wrong-structure"),
    ("v3/fill/reject-r16-sixteen-items", "versions-disagree"),
    ("v3/fill/reject-nan-token", "json-lenient"),
    ("v3/fill/reject-uint8-1.0", "integer-as-float"),
    ("v3/fill/reject-uint8-1e2", "integer-as-float"),
    ("v3/fill/reject-*", "invalid-value"),
    # -- v3 grid, groups, keys, names --
    ("v3/grid/reject-chunk-float", "integer-as-float"),
    ("v3/grid/reject-chunk-shape-missing", "missing-member"),
    ("v3/grid/reject-no-configuration", "missing-member"),
    ("v3/grid/reject-chunk-string", "wrong-structure"),
    ("v3/grid/reject-chunk-zero-empty-dim", "versions-disagree"),
    ("v3/grid/reject-draft-form", "other-version-form"),
    ("v3/grid/reject-truncated-edge-chunk", "corrupt-chunk"),
    ("v3/grid/reject-*", "invalid-value"),
    ("v3/groups/reject-array-member-in-group", "unknown-member"),
    ("v3/groups/reject-unknown-member*", "unknown-member"),
    ("v3/groups/reject-consolidated-metadata-number", "unknown-member"),
    ("v3/groups/reject-attributes-list", "wrong-structure"),
    ("v3/groups/reject-implicit-group", "no-metadata-document"),
    ("v3/groups/reject-no-root-document", "no-metadata-document"),
    ("v3/groups/reject-prefix-without-metadata", "no-metadata-document"),
    ("v3/groups/reject-missing-node", "no-node"),
    ("v3/groups/reject-missing-*", "missing-member"),
    ("v3/groups/reject-node-type-capitalised", "case-variant"),
    ("v3/groups/reject-zarr-format-2", "other-format"),
    ("v3/keys/reject-separator-null", "null-optional"),
    ("v3/keys/reject-unknown-configuration-member", "unknown-configuration-member"),
    ("v3/keys/reject-*", "invalid-value"),
    ("v3/names/reject-*", "invalid-node-name"),
    # -- v3 legacy forms (pre-3.0 drafts) --
    ("v3/legacy/blosc-integer-shuffle", "encoder-parameter"),
    ("v3/legacy/endian-codec", "other-version-form"),
    ("v3/legacy/fill-binary-string", "other-version-form"),
    ("v3/legacy/fill-plus-infinity", "float-special-spelling"),
    ("v3/legacy/gzip-without-bytes-data", "codec-order"),
    ("v3/legacy/implicit-group", "no-metadata-document"),
    ("v3/legacy/sharding-without-index-codecs", "missing-member"),
    ("v3/legacy/transpose-order-f", "other-version-form"),
    # -- v3 metadata documents --
    ("v3/metadata/reject-attributes-list", "wrong-structure"),
    ("v3/metadata/reject-attributes-null", "null-optional"),
    ("v3/metadata/reject-storage-transformers-null", "null-optional"),
    ("v3/metadata/reject-storage-transformer*", "unknown-extension"),
    ("v3/metadata/reject-codec-entry-number", "wrong-structure"),
    ("v3/metadata/reject-codec-entry-*", "unknown-extension"),
    ("v3/metadata/reject-codecs-empty", "codec-order"),
    ("v3/metadata/reject-codecs-null", "null-mandatory"),
    ("v3/metadata/reject-codecs-object", "wrong-structure"),
    ("v3/metadata/reject-dimension-names-numbers", "scalar-spelling"),
    ("v3/metadata/reject-dimension-names-string", "wrong-structure"),
    ("v3/metadata/reject-dimension-names-too-long", "invalid-value"),
    ("v3/metadata/reject-duplicate-member", "duplicate-member"),
    ("v3/metadata/reject-spec-example-sharding", "unreadable-document"),
    ("v3/metadata/reject-empty-file", "unreadable-document"),
    ("v3/metadata/reject-truncated", "unreadable-document"),
    ("v3/metadata/reject-json-array", "unreadable-document"),
    ("v3/metadata/reject-comment", "json-lenient"),
    ("v3/metadata/reject-invalid-utf8", "json-lenient"),
    ("v3/metadata/reject-single-quotes", "json-lenient"),
    ("v3/metadata/reject-spec-example-extension-dtype", "json-lenient"),
    ("v3/metadata/reject-trailing-comma", "json-lenient"),
    ("v3/metadata/reject-missing-*", "missing-member"),
    ("v3/metadata/reject-node-type-capitalised", "case-variant"),
    ("v3/metadata/reject-node-type-null", "null-mandatory"),
    ("v3/metadata/reject-node-type-dataset", "invalid-value"),
    ("v3/metadata/reject-shape-boolean", "scalar-spelling"),
    ("v3/metadata/reject-shape-null", "null-mandatory"),
    ("v3/metadata/reject-shape-nested", "wrong-structure"),
    ("v3/metadata/reject-shape-string", "wrong-structure"),
    ("v3/metadata/reject-shape-*", "invalid-value"),
    ("v3/metadata/reject-unknown-member-*", "unknown-member"),
    ("v3/metadata/reject-v2-member-*", "unknown-member"),
    ("v3/metadata/reject-draft-member-*", "unknown-member"),
    ("v3/metadata/reject-zarr-format-float", "integer-as-float"),
    ("v3/metadata/reject-zarr-format-string", "scalar-spelling"),
    ("v3/metadata/reject-zarr-format-*", "other-format"),
    # -- v3 pipeline and sharding --
    ("v3/pipeline/reject-codec-configuration-null", "null-optional"),
    ("v3/pipeline/reject-codec-entry-extra-member", "unknown-configuration-member"),
    ("v3/pipeline/reject-codec-entry-v2-style", "unknown-extension"),
    ("v3/pipeline/reject-inner-codecs-empty", "codec-order"),
    ("v3/pipeline/reject-order-*", "codec-order"),
    ("v3/pipeline/reject-unknown-*", "unknown-extension"),
    (
        "v3/pipeline/reject-v2-zlib-name",
        "other-version-form",
    ),  # "zlib" is the v2 (numcodecs) name: one reading remains
    ("v3/sharding/reject-*checksum*", "checksum-mismatch"),
    ("v3/sharding/reject-index-crc-bytes-wrong", "checksum-mismatch"),
    ("v3/sharding/reject-index-not-at-end", "checksum-mismatch"),
    ("v3/sharding/reject-inner-crc32c-bit-flip", "checksum-mismatch"),
    ("v3/sharding/reject-index-start-offset-into-index", "spec-silent"),
    ("v3/sharding/reject-index-codecs-bytes-no-endian", "byte-order-unspecified"),
    ("v3/sharding/reject-inner-bytes-no-endian", "byte-order-unspecified"),
    ("v3/sharding/reject-index-codecs-crc32c-*", "codec-order"),
    ("v3/sharding/reject-index-codecs-empty", "codec-order"),
    ("v3/sharding/reject-inner-codecs-*", "codec-order"),
    ("v3/sharding/reject-index-codecs-*", "codec-input"),
    ("v3/sharding/reject-index-location-null", "null-optional"),
    ("v3/sharding/reject-index-location-uppercase", "case-variant"),
    ("v3/sharding/reject-index-location-*", "invalid-value"),
    ("v3/sharding/reject-inner-shape-floats", "integer-as-float"),
    ("v3/sharding/reject-inner-shape-*", "codec-input"),
    ("v3/sharding/reject-transpose-*", "codec-input"),
    ("v3/sharding/reject-missing-*", "missing-member"),
    ("v3/sharding/reject-no-configuration", "missing-member"),
    ("v3/sharding/reject-write-order-member", "unknown-configuration-member"),
    ("v3/sharding/reject-*", "corrupt-chunk"),
    # -- ZEP 6 examples as stores --
    ("v3/zom/zep6-example-v3-no-array-to-bytes-codec", "codec-order"),
    ("v3/zom/zep6-example-v3-storage-transformers-null", "null-optional"),
    ("v3/zom/zep6-example-v3-*", "unknown-extension"),
    # -- the v3 draft (seed 002) and zarr-python 2's draft dialect --
    ("v3-draft/reject/array-doc-not-json", "json-lenient"),
    ("v3-draft/reject/entry-point-not-json", "json-lenient"),
    ("v3-draft/reject/*-must-understand", "must-understand"),
    ("v3-draft/reject/extension-dtype-*", "must-understand"),
    ("v3-draft/reject/layout-extension", "must-understand"),
    ("v3-draft/reject/metadata-encoding-extension", "must-understand"),
    ("v3-draft/reject/sharding-zp2-uri", "must-understand"),
    ("v3-draft/reject/transformer-unknown", "must-understand"),
    ("v3-draft/reject/attributes-list", "wrong-structure"),
    ("v3-draft/reject/metadata-encoding-string", "wrong-structure"),
    ("v3-draft/reject/transformers-not-list", "wrong-structure"),
    ("v3-draft/reject/blosc-*", "encoder-parameter"),
    ("v3-draft/reject/gzip-level-10", "encoder-parameter"),
    ("v3-draft/reject/codec-final-name", "other-version-form"),
    ("v3-draft/reject/final-style-chunk-grid", "other-version-form"),
    ("v3-draft/reject/final-format-entry-point", "other-format"),
    ("v3-draft/reject/zarr-format-major-4", "other-format"),
    ("v3-draft/reject/codec-*", "unknown-extension"),
    ("v3-draft/reject/data-type-unknown", "unknown-extension"),
    ("v3-draft/reject/sharding-type", "unknown-extension"),
    ("v3-draft/reject/dimension-names-member", "unknown-member"),
    ("v3-draft/reject/group-with-extensions", "unknown-member"),
    ("v3-draft/reject/zarr-format-in-array", "unknown-member"),
    ("v3-draft/reject/entry-unknown-member-3-0", "spec-silent"),
    ("v3-draft/reject/endian-missing-config", "byte-order-unspecified"),
    ("v3-draft/reject/fill-bool-number", "scalar-spelling"),
    ("v3-draft/reject/fill-hex-short", "hex-digits"),
    ("v3-draft/reject/fill-missing-float-infinity", "float-special-spelling"),
    ("v3-draft/reject/fill-null", "null-mandatory"),
    ("v3-draft/reject/fill-*", "invalid-value"),
    ("v3-draft/reject/group-without-attributes", "missing-member"),
    ("v3-draft/reject/metadata-encoding-missing", "missing-member"),
    ("v3-draft/reject/missing-*", "missing-member"),
    ("v3-draft/reject/gzip-truncated-chunk", "corrupt-chunk"),
    ("v3-draft/reject/shard-index-*", "corrupt-chunk"),
    ("v3-draft/reject/truncated-edge-chunk", "corrupt-chunk"),
    ("v3-draft/reject/no-entry-point", "no-node"),
    ("v3-draft/reject/node-name-*", "invalid-node-name"),
    ("v3-draft/reject/int64", "versions-disagree"),
    ("v3-draft/reject/typestr-f8", "versions-disagree"),
    ("v3-draft/reject/*", "invalid-value"),
    ("v3-draft/zp2-reject/codecs-member", "unknown-member"),
    ("v3-draft/zp2-reject/entry-point-extra-member", "unknown-member"),
    ("v3-draft/zp2-reject/compressor-seed002-uri", "unknown-extension"),
    ("v3-draft/zp2-reject/seed002-sharding-uri", "must-understand"),
    ("v3-draft/zp2-reject/dimension-separator-disagrees", "invalid-value"),
    ("v3-draft/zp2-reject/entry-point-no-suffix", "missing-member"),
    ("v3-draft/zp2-reject/entry-point-object-encoding", "wrong-structure"),
    ("v3-draft/zp2-reject/seed002-data-type", "other-version-form"),
    ("v3-draft/zp2-reject/seed002-keys", "no-node"),
)


# Read, write and ZEP 6 cases whose tier is not the default (required).
RULES += (
    ("v2/dtypes/datetime64-10us-multiplier", "convention"),
    ("v2/dtypes/void-V3-opaque", "convention"),
    ("v2/matrix/void-*", "convention"),
    ("v2/fill/complex*", "convention"),
    ("v2/fill/datetime64-int", "convention"),
    ("v2/fill/unicode-string", "convention"),
    ("v2/fill/void-base64", "convention"),
    ("v2/fill/bytes-S3-base64-short", "convention"),
    ("v2/groups/consolidated-*", "convention"),
    ("v2/metadata/zero-dimensional", "convention"),
    ("v2/metadata/filters-empty-list", "convention"),
    ("v3/groups/consolidated-metadata-null", "convention"),
    ("v2/fill/bool-from-1", "lenient-read"),
    ("v2/fill/int32-from-whole-float", "lenient-read"),
    ("v2/groups/zgroup-extra-key", "lenient-read"),
    ("v2/fill/write-null", "writer-choice"),
    ("v2/metadata/extra-key-*", "should"),
    ("v2/metadata/write-exact-document", "should"),
    ("v2/metadata/write-filters-null", "should"),
    ("v3/codecs/blosc-*-differs-from-header", "should"),
    ("v3/codecs/gzip-two-members", "should"),
    ("v3/codecs/write-gzip-container", "should"),
    ("v3/grid/write-edge-overhang-is-fill", "should"),
    ("v3/sharding/write-recommended-index-codecs", "should"),
    ("v3-draft/codecs/gzip-zlib-container", "should"),
    ("v3-draft/dtypes/extension-fallback-*", "should"),
    ("v3-draft/entry/minor-version-*", "should"),
    ("v3/extensions/cke-shorthand-default", "v3.1-addition"),
    ("v3/extensions/cke-must-understand-true", "v3.1-addition"),
    ("v3/metadata/codecs-shorthand-*", "v3.1-addition"),
    ("v3/pipeline/shorthand-*", "v3.1-addition"),
    ("v3/attributes/big-integers", "json-number-precision"),
    ("v3/fill/float32-double-rounding", "json-number-precision"),
    ("v3/fill/float32-16777217-ties-even", "versions-disagree"),
    ("v3/fill/float32-midpoint-ties-even", "versions-disagree"),
    ("v3-draft/fill/hex-int16", "versions-disagree"),
    ("v3-draft/fill/hex-complex64", "versions-disagree"),
    ("v3-draft/fill/hex-r16", "versions-disagree"),
    ("v3-draft/sharding/declared-uri", "versions-disagree"),
    ("v3/fill/float32-hex-uppercase", "spec-silent"),
    ("v3/sharding/two-entries-one-blob", "spec-silent"),
    ("v3/sharding/index-codecs-transpose", "spec-silent"),
    ("v3/grid/stale-chunk-beyond-shape", "spec-silent"),
    ("v2/metadata/zero-length-dimension", "spec-silent"),
    ("v3/groups/write-array-ancestors", "v3-create-ancestors"),
    ("v3/groups/write-nested-group", "v3-create-ancestors"),
    ("*/zom/doc-*-zep6", "zep6-original-schema"),
    ("v3/zom/doc-group-without-members-fixed", "versions-disagree"),
    ("*/zom/store-*-other-chunks", "zep6-original-schema"),
)

# Data types the v3 core spec marks "optionally supported" (float16) or "Optional" (r<N>): every v3 and
# v3-draft read, reject or write case that needs one is optional, whatever its question (v1 and v2
# have no such marking: their float16 cases stay required).
OPTIONAL_DATA_TYPES = frozenset({"dtype:float16", "dtype:r*"})
OPTIONAL_DATA_TYPE_REASON = (
    "the case needs a data type the core spec marks optional (float16 'optionally "
    "supported', r<N> 'Optional'): only implementations that support it are held to it"
)


def question_for(case_id: str) -> str | None:
    for pattern, question in RULES:
        if fnmatch.fnmatchcase(case_id, pattern):
            return question
    return None
