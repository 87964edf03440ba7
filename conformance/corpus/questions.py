"""The question each case asks, and the tier policy that answers it (fixtures/README.md, "Tiers").

Every case names its question: the builder row or table that makes it says so (`question=`, or
`generator.verdict`), never a pattern over case ids, so renaming a case cannot move it to another
tier. Gold stores (cases with `provenance`) get theirs from gold_verdicts.py. A QUESTION carries the
tier every case asking it gets and the written reason for that tier, which the generator copies into
case.json as `tier_reason`; a builder may give a case another tier only with a `tier_reason` of its
own, and `corpus check` refuses a case without a question (or its own tier and reason), and a
question whose cases differ in tier otherwise.

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

The policy for stores a reader is asked to read (and requests a writer is asked to write): required
when everything in them is defined by the spec of their format (`spec-read`, `spec-write`,
`writer-store`, `zom-model`); extension when they use a registered extension; optional when they rely
on anything a reader may refuse: an optional data type, a convention, a SHOULD, a point the spec's
versions disagree on, or a fault a strict reject case lets readers refuse (`accepting`).
conventions.py finds what a store relies on, and `corpus check` refuses a case that relies on one
without asking its question.
"""

from __future__ import annotations

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
    "code-execution": Question(
        "required",
        "a codec whose decoding runs code the store carries (numcodecs' pickle): what it decodes to "
        "is whatever that code returns in the reader's process, not data the store determines, and "
        "running it hands the store's author the reader's process; no spec defines it (v2 leaves "
        "codecs to their ids), so a reader must refuse it unless its user opts in (zarr-python "
        "3.4.2 and numcodecs 0.17.1 do so by default)",
    ),
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
    # ---- required: what every reader or writer of the format must do ----------------------------
    "spec-read": Question(
        "required",
        "a valid store using only what the spec of its format defines (its data types, codecs or "
        "compressors, chunk grid, key encoding and hierarchy rules): every reader of the format must "
        "open it and return exactly the stored values and metadata",
    ),
    "writer-store": Question(
        "required",
        "a store a released implementation wrote (its provenance names the writer and version), using "
        "only what the spec of its format defines: every reader of the format must read what real "
        "writers write, exactly",
    ),
    "spec-write": Question(
        "required",
        "a valid request using only what the spec of its format defines: the writer must store a node "
        "that means the request (metadata, fill value bit for bit, keys) and data that read back exactly",
    ),
    "zom-model": Question(
        "required",
        "ZEP 6 defines the model of a hierarchy and the schema a model document must satisfy: building "
        "the model of a valid store, or validating a model document, has one answer",
    ),
    # ---- extension: what a registered extension defines ---------------------------------------------
    "registered-extension": Question(
        "extension",
        "the case uses a feature the core spec does not define: a zarr-extensions registration (a "
        "codec such as zstd, a data type such as string or bfloat16, a chunk grid, a key encoding) or, "
        "for v2 object arrays, a numcodecs object codec; only implementations of that extension are "
        "held to it",
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
    "chunk-size-zero": Question(
        "strict",
        "a stored chunk size of 0 (or false) on a dimension that is not empty: the chunk shape "
        "elements must be non-zero, but such a grid has no chunks, so the array holds only its fill "
        "value and one reading remains; zarr-python 3.4.1 reads it, on purpose and with a warning, "
        "as chunk size 1, because its releases 2.18.7 to 3.2.1 wrote such metadata for arrays that "
        "hold no data: refusing is right, reading the fill is leniency",
    ),
    "rectilinear-in-regular": Question(
        "strict",
        "a regular chunk_shape that gives one dimension as a list of edge lengths ([2, [5, 10, 5]], "
        "as zarr-python 3.2.0 and 3.2.1 wrote for chunks=(2, (5, 10, 5))): the regular grid takes "
        "one integer per dimension, but the list describes one rectilinear grid, which zarr-python "
        "3.4.1 reads, on purpose and with a warning: refusing is right, reading it is leniency",
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
    "optional-data-type": Question(
        "optional",
        "the case needs a data type the core spec marks optional (float16 'optionally supported', "
        "r<N> 'Optional'): only implementations that support it are held to it",
    ),
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

# Data types the v3 core spec marks "optionally supported" (float16) or "Optional" (r<N>): every v3 and
# v3-draft read, reject or write case that needs one is optional, whatever its question (v1 and v2
# have no such marking: their float16 cases stay required).
OPTIONAL_DATA_TYPES = frozenset({"dtype:float16", "dtype:r*"})
OPTIONAL_DATA_TYPE_REASON = QUESTIONS["optional-data-type"].reason

# A read, write or zom case is asked to accept what it holds. Where that is a fault a strict reject
# case lets readers refuse (a reserved node name, an implicit group), the accepting case cannot be
# required: refusing it is allowed, so it is optional, and its answer (when it does not refuse) is
# still judged exactly.
ACCEPTING_STRICT = (
    "; this case asks a reader to accept such a store (or a writer such a request), which a strict "
    "reject case lets it refuse: optional, and an answer is still judged exactly"
)


def accepting(question: str) -> tuple[str, str]:
    """The tier and reason of a read, write or zom case asking `question`."""
    policy = QUESTIONS[question]
    if policy.tier == "strict":
        return "optional", policy.reason + ACCEPTING_STRICT
    return policy.tier, policy.reason
