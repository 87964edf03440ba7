"""v3 extension objects, must_understand and short-hand names (V3-EXT-*), the spellings writers use,
and the 2023-24 legacy forms (V3HIST-*).

Legacy forms: the reference reads strict 3.0 by default and accepts none of the V3HIST spellings
(its codec pipeline has a `legacy=True` switch that opening never sets; implicit groups are always
refused). Each V3HIST case is a reject case whose tier follows its question (questions.py): a legacy
form with one historical reading (the `endian` codec, transpose 'F', integer shuffle) is strict, so an
implementation that reads it is lenient, not wrong; a legacy codec list that some codec cannot take
(gzip with no array->bytes codec) is required.
"""

from __future__ import annotations

import gzip

import numpy as np

from ..data import sample
from ..generator import add_case
from .table_kit import each, hand_case, reject
from .v3_kit import array_doc, bytes_codec, group_doc, put_array, reject_case

I4 = ["dtype:int32", "codec:bytes"]
_CHUNKS = {"c/0": np.arange(2, dtype="<i4").tobytes()}


def _doc(**changes) -> dict:
    doc = array_doc((4,), (2,), "int32", 0)
    doc.update(changes)
    return doc


def _bad(slug, reason, requirements, what, tier=None, needs=(), area="extensions", **changes):
    reject_case(
        f"v3/{area}/reject-{slug}",
        _doc(**changes),
        reason,
        requirements,
        f"v3 array {what} is rejected on open",
        needs=[*I4, *needs],
        tier=tier,
        extra=_CHUNKS,
    )


# ---- extension object shape (V3-EXT-001) --------------------------------------------------------------
# fmt: off
REJECTS = [
    # slug, reason, requirements, what[, options]
    ("cke-configuration-number", "invalid-chunk-key-encoding", ["V3-EXT-001"], "with chunk_key_encoding {'name': 'default', 'configuration': 5}", {"tests": "chunk_key_encoding", "question": "wrong-structure", "chunk_key_encoding": {"name": "default", "configuration": 5}}),
    ("cke-no-name", "invalid-chunk-key-encoding", ["V3-EXT-001"], "with a chunk_key_encoding object that has no name", {"tests": "chunk_key_encoding", "question": "unknown-extension", "chunk_key_encoding": {"configuration": {"separator": "/"}}}),
    ("grid-configuration-list", "invalid-chunk-grid", ["V3-EXT-001"], "with chunk_grid configuration [2] (not an object)", {"tests": "configuration", "question": "wrong-structure", "chunk_grid": {"name": "regular", "configuration": [2]}}),
    ("grid-name-number", "invalid-chunk-grid", ["V3-EXT-001"], "with chunk_grid name 1", {"tests": "name", "question": "unknown-extension", "chunk_grid": {"name": 1, "configuration": {"chunk_shape": [2]}}}),
    ("codec-configuration-string", "invalid-codec", ["V3-EXT-001"], "with a codec configuration 'little' (a string)", {"tests": "configuration", "question": "wrong-structure", "codecs": [{"name": "bytes", "configuration": "little"}]}),
    ("data-type-name-number", "invalid-data-type", ["V3-EXT-001"], "with data_type {'name': 5}", {"tests": "name", "question": "unknown-extension", "data_type": {"name": 5}}),
    # ---- must_understand (V3-EXT-003) and unknown extensions (V3-EXT-004, V3-EXT-005) -----------------------
    ("data-type-unknown-must-understand-false", "invalid-data-type", ["V3-EXT-003", "V3-DT-008"], "whose unknown data_type says must_understand false", {"tests": "must_understand", "question": "unknown-extension", "data_type": {"name": "my_unknown", "must_understand": False}}),
    ("grid-unknown-must-understand-false", "invalid-chunk-grid", ["V3-EXT-003", "V3-EXT-005"], "whose unknown chunk_grid says must_understand false", {"tests": "chunk_grid", "question": "unknown-extension", "chunk_grid": {"name": "rectilinear_x", "configuration": {"chunk_shape": [2]}, "must_understand": False}}),
    ("cke-unknown-must-understand-false", "invalid-chunk-key-encoding", ["V3-EXT-003", "V3-EXT-005"], "whose unknown chunk_key_encoding says must_understand false", {"tests": "chunk_key_encoding", "question": "unknown-extension", "chunk_key_encoding": {"name": "weird", "must_understand": False}}),
    ("data-type-known-must-understand-false", "invalid-data-type", ["V3-EXT-003"], "with data_type {'name': 'int32', 'must_understand': false} (3.1 forbids false for data types)", {"tests": "must_understand", "question": "must-understand-misuse", "data_type": {"name": "int32", "must_understand": False}}),
    ("grid-known-must-understand-false", "invalid-chunk-grid", ["V3-EXT-003"], "with a regular chunk_grid that says must_understand false (3.1 forbids it for chunk grids)", {"tests": "chunk_grid", "question": "must-understand-misuse", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}, "must_understand": False}}),
    ("must-understand-not-boolean", "invalid-chunk-key-encoding", ["V3-EXT-003"], "whose chunk_key_encoding has must_understand 0 (not a boolean)", {"tests": "must_understand", "question": "must-understand-misuse", "chunk_key_encoding": {"name": "default", "must_understand": 0}}),
    ("codec-unknown-after-bytes", "unknown-codec", ["V3-EXT-004"], "with codecs [bytes, no_such_codec]", {"tests": "extension points", "question": "unknown-extension", "codecs": [bytes_codec("little"), {"name": "no_such_codec"}]}),
    ("codec-unknown-must-understand-false", "unknown-codec", ["V3-EXT-004", "V3-EXT-003"], "with an unknown bytes->bytes codec marked must_understand false (skipping it would return undecoded data)", {"question": "versions-disagree", "codecs": [bytes_codec("little"), {"name": "no_such_codec", "must_understand": False}]}),
    ("codec-unknown-array-to-array", "unknown-codec", ["V3-EXT-004"], "with an unknown codec before bytes", {"tests": "extension points", "question": "unknown-extension", "codecs": [{"name": "no_such_filter", "configuration": {}}, bytes_codec("little")]}),
    ("grid-unknown", "invalid-chunk-grid", ["V3-EXT-005"], "with the unknown chunk_grid 'rectilinear_x'", {"tests": "extension points", "question": "unknown-extension", "chunk_grid": {"name": "rectilinear_x", "configuration": {"chunk_shape": [2]}}}),
    ("cke-unknown", "invalid-chunk-key-encoding", ["V3-EXT-005"], "with the unknown chunk_key_encoding 'weird'", {"tests": "extension points", "question": "unknown-extension", "chunk_key_encoding": {"name": "weird"}}),
    ("codec-gzip-capitalised", "unknown-codec", ["V3-EXT-004", "V3-EXT-006", "ZOM-019"], "with the codec spelled 'GZip' (as in the ZEP 6 example; names are case-sensitive)", {"tests": "lower case", "question": "unknown-extension", "needs": ["codec:gzip"], "codecs": [bytes_codec("little"), {"name": "GZip", "configuration": {"level": 1}}]}),
    ("codec-uri-name", "unknown-codec", ["V3-EXT-004", "V3-EXT-006"], "with the draft codec URI https://purl.org/zarr/spec/codec/gzip/1.0 as a name", {"tests": "registered names", "question": "other-version-form", "needs": ["codec:gzip"], "codecs": [bytes_codec("little"), {"name": "https://purl.org/zarr/spec/codec/gzip/1.0", "configuration": {"level": 1}}]}),
]
# fmt: on

each(_bad, REJECTS)


# ---- 3.1 short-hand names and explicit must_understand: true (V3-EXT-002, V3-EXT-003) ----------------------


def _read(slug, description, requirements, needs=(), tier="optional", key=None, **changes):
    def build(w):
        data = sample(w.rng, (3, 4), "i4", avoid=np.int32(0))
        doc = array_doc((3, 4), (2, 2), "int32", 0)
        doc.update(changes)
        expected = put_array(
            w, "", doc, data, fill_bits=np.array(0, "i4"), skip={(1, 0)}, endian="little", key=key
        )
        w.put("c.0.0", np.full(4, 77, "<i4").tobytes())  # decoy: the separator must be '/'
        w.expect_array(expected)

    add_case(
        f"v3/extensions/{slug}",
        kind="read",
        build=build,
        needs=[*I4, *needs],
        tier=tier,
        requirements=requirements,
        description=description,
    )


# fmt: off
READS = [
    # slug, description, requirements[, options]
    ("cke-shorthand-default", "v3.1 chunk_key_encoding given as the string 'default' uses separator '/' (a decoy at c.0.0 is ignored)", ["V3-EXT-002", "V3-CKE-002"], {"needs": ["feature:shorthand-names"], "chunk_key_encoding": "default"}),
    ("cke-must-understand-true", "v3.1 chunk_key_encoding with an explicit must_understand true opens normally", ["V3-EXT-003"], {"chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}, "must_understand": True}}),
]
# fmt: on

each(_read, READS, question="v3.1-addition")
# No read case for data_type {'name': 'int32'}: 3.0 and 3.1 both say a core data type "must be the data
# type identifier provided as a string", so the object form is a document fault (question
# core-type-object-form, tier strict), not a valid store.


# ---- writers use the registered spellings (V3-EXT-006) ---------------------------------------------------


def _write(slug, codecs, needs, description, tier=None):
    def build(w):
        data = sample(w.rng, (6,), "i4", avoid=np.int32(0))
        doc = array_doc((6,), (4,), "int32", 0, codecs=codecs)
        # the reference opens the written zarr.json strictly: 'endian', 'GZip' or URI names fail to open
        w.expect_write(metadata=doc, data=data, keys=["zarr.json", "c/0", "c/1"])

    add_case(
        f"v3/extensions/write-{slug}",
        kind="write",
        build=build,
        tier=tier,
        requirements=["V3-EXT-006", "V3-ARR-014"],
        needs=[*I4, *needs, "op:write"],
        description=description,
    )


# fmt: off
WRITES = [
    # slug, codecs, needs, description[, options]
    ("registered-bytes-gzip", [bytes_codec("little"), {"name": "gzip", "configuration": {"level": 5}}], ["codec:gzip"], "v3 write with codecs bytes + gzip writes the registered names of the same pipeline (never 'endian', 'GZip' or a URI)", {"question": "spec-write"}),
    ("registered-bytes-zstd-crc32c", [bytes_codec("little"), {"name": "zstd", "configuration": {"level": 3, "checksum": False}}, {"name": "crc32c"}], ["codec:zstd", "codec:crc32c"], "v3 write with codecs bytes + zstd + crc32c writes the registered names of the same pipeline", {"question": "registered-extension", "tier": "extension"}),
]
# fmt: on

each(_write, WRITES)


# ---- legacy 2023-24 forms (V3HIST-*): the reference refuses them all ------------------------------------------


def _legacy(slug, reason, requirement, what, needs=(), stage="open", **changes):
    reject_case(
        f"v3/legacy/{slug}",
        _doc(**changes),
        reason,
        [requirement],
        f"v3 legacy form: {what}; the reference reads strict 3.0 and refuses it",
        needs=[*I4, *needs],
        stage=stage,
        extra=_CHUNKS,
    )


# fmt: off
LEGACY = [
    # slug, reason, requirement, what[, options]
    ("endian-codec", "unknown-codec", "V3HIST-001", "the pre-2024 'endian' codec name in place of 'bytes'", {"tests": "endian", "question": "other-version-form", "codecs": [{"name": "endian", "configuration": {"endian": "little"}}]}),
    ("transpose-order-f", "invalid-order", "V3HIST-002", "transpose with the pre-Oct-2023 order 'F'", {"tests": "order", "question": "other-version-form", "needs": ["codec:transpose"], "shape": [4, 2], "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 2]}}, "codecs": [{"name": "transpose", "configuration": {"order": "F"}}, bytes_codec("little")]}),
    ("sharding-without-index-codecs", "invalid-codec", "V3HIST-005", "sharding_indexed without index_codecs (pre-July 2023)", {"tests": "index", "question": "missing-member", "needs": ["codec:sharding_indexed"], "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [1], "codecs": [bytes_codec("little")]}}]}),
    ("blosc-integer-shuffle", "invalid-codec", "V3HIST-006", "blosc with the integer shuffle 1 (pre-May 2023)", {"tests": "shuffle", "question": "encoder-parameter", "needs": ["codec:blosc"], "codecs": [bytes_codec("little"), {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5, "shuffle": 1, "typesize": 4, "blocksize": 0}}]}),
    ("fill-plus-infinity", "invalid-fill-value", "V3HIST-006", "float fill '+Infinity' (pre-May 2023)", {"tests": "fill values", "question": "float-special-spelling", "data_type": "float32", "fill_value": "+Infinity"}),
    ("fill-binary-string", "invalid-fill-value", "V3HIST-006", "float fill '0b0011111110000000...' (binary, pre-May 2023)", {"tests": "fill values", "question": "other-version-form", "data_type": "float32", "fill_value": "0b00111111100000000000000000000000"}),
]
# fmt: on

each(_legacy, LEGACY)


# fmt: off
HAND_BUILT = [
    # case id, needs, requirements, description, the store key by key, what it must do[, options]
    ("v3/legacy/implicit-group", I4 + ["node:group"], ["V3HIST-003"], "v3 legacy form: group 'a' implied by a/b/zarr.json but without its own zarr.json (May 2023 - Aug 2024); the reference has no implicit groups and refuses to open it", {"zarr.json": group_doc(), "a/b/zarr.json": array_doc((2,), (2,), "int32", 0), "a/b/c/0": np.array([1, 2], "<i4").tobytes()}, reject("implicit-group"), {"tests": "implicit groups", "question": "no-metadata-document", "node": "a"}),
    ("v3/legacy/gzip-without-bytes-data", I4 + ["codec:gzip"], ["V3HIST-004"], "v3 legacy form: codecs [gzip] over implied little-endian bytes, with a real gzip chunk; the reference refuses the codec list", {"zarr.json": _doc(codecs=[{"name": "gzip", "configuration": {"level": 1}}]), "c/0": gzip.compress(np.array([5, 6], "<i4").tobytes(), mtime=0), "c/1": gzip.compress(np.array([7, 8], "<i4").tobytes(), mtime=0)}, reject("codec-order"), {"tests": "array -> bytes", "question": "codec-order"}),
]
# fmt: on

each(hand_case, HAND_BUILT)
