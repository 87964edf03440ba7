"""v2 `.zarray` documents (V2-META-001..009, V2-DTYPE-001/004/007 negatives): what opens, what
must be rejected (one fault each, beside a valid chunk), and what a writer must put in `.zarray`."""

from __future__ import annotations

import zlib

import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .table_kit import array, each, hand_case
from .v2_kit import COMPRESSORS, dumps, put_array, reject_case, zarray

I4 = ["dtype:int32"]


def _valid(**changes) -> dict:
    """The document every reject case starts from: <i4 (4,) in one (4,) chunk, raw."""
    doc = zarray((4,), (4,), "<i4", 0)
    doc.update(changes)
    return doc


# ---- reads -----------------------------------------------------------------------------------
# fmt: off
HAND_BUILT = [
    # case id, needs, requirements, description, the store key by key, what it must do[, options]
    ("v2/metadata/compressor-null-raw", I4, ["V2-META-004", "V2-CHUNK-005"], "v2 <i4 (6,) in (4,) chunks, compressor null: chunk files are the raw little-endian values, the edge chunk's overhang holds junk", {".zarray": dumps(zarray((6,), (4,), "<i4", 0)), "0": np.array([1, -2, 3, 2**31 - 1], "<i4").tobytes(), "1": np.array([-(2**31), 6, 0x7F7F7F7F, 0x7F7F7F7F], "<i4").tobytes()}, array(np.array([1, -2, 3, 2**31 - 1, -(2**31), 6], "<i4")), {"question": "spec-read"}),
    ("v2/metadata/compact-json-reordered", I4, ["V2-META-001"], "v2 .zarray as compact one-line JSON with the keys in an unusual order reads the same", {".zarray": b'{"order":"C","filters":null,"fill_value":9,"zarr_format":2,"dtype":"<i4",' b'"compressor":null,"chunks":[3],"shape":[5]}', "0": np.array([1, 2, 3], "<i4").tobytes()}, array(np.array([1, 2, 3, 9, 9], "<i4")), {"question": "spec-read"}),
    ("v2/metadata/zero-dimensional", [*I4, "feature:0d"], ["V2-META-003", "V2-CHUNK-003"], "v2 0-d array: shape [] and chunks [] with its single chunk at key 0 (zarr-python's convention)", {".zarray": dumps(zarray((), (), "<i4", 0)), "0": np.array(-77, "<i4").tobytes()}, array(np.array(-77, "<i4")), {"question": "convention", "tier": "optional"}),
    ("v2/metadata/zero-length-dimension", [*I4, "feature:zero-length"], ["V2-META-003"], "v2 array of shape [0, 3] in (2, 2) chunks reads as an empty (0, 3) array; a stray chunk 0.0 is ignored", {".zarray": dumps(zarray((0, 3), (2, 2), "<i4", 0)), "0.0": np.arange(4, dtype="<i4").tobytes()}, array(np.zeros((0, 3), "<i4")), {"question": "spec-silent", "tier": "optional"}),
]
# fmt: on

each(hand_case, HAND_BUILT)


@case(
    "v2/metadata/filters-empty-list",
    kind="read",
    needs=[*I4, "codec:zlib"],
    tier="optional",
    requirements=["V2-META-005"],
    description="v2 .zarray with filters [] (written by zarr-python 3.0 and zarrs < 0.3.5) reads as no filters",
    question="convention",
)
def _(w):
    doc = zarray((5, 3), (2, 2), "<i4", 3, compressor=COMPRESSORS["zlib"], filters=[])
    data = sample(w.rng, (5, 3), "<i4", avoid=np.int32(3))
    expected, _ = put_array(w, "", doc, data, skip={(1, 0)}, encode=None)
    w.expect_array(expected)


def _separator_case(case_id, separator, description, tier=None, explicit=True):
    def build(w):
        extra = {"dimension_separator": separator} if explicit else {}
        doc = zarray((5, 4), (2, 3), "<i4", -1, compressor=COMPRESSORS["zlib"], **extra)
        data = sample(w.rng, (5, 4), "<i4", avoid=np.int32(-1))
        expected, _ = put_array(w, "", doc, data, skip={(1, 1)}, separator=separator)
        # Decoys under the other separator, holding different values: a reader that builds keys with
        # the wrong separator reads them (chunk 0,0) or finds a chunk where there is none (1,1).
        other = "." if separator == "/" else "/"
        decoy = np.full((2, 3), 12345, "<i4")
        for index in ((0, 0), (1, 1)):
            w.put(other.join(map(str, index)), zlib.compress(decoy.tobytes(), 1))
        w.expect_array(expected)

    needs = [*I4, "codec:zlib"] + (
        ["feature:dimension-separator-slash"] if separator == "/" else []
    )
    add_case(
        case_id,
        kind="read",
        build=build,
        needs=needs,
        tier=tier,
        requirements=["V2-META-007", "V2-CHUNK-003"],
        description=description,
    )


with verdict(question="spec-read"):
    _separator_case(
        "v2/metadata/dimension-separator-slash",
        "/",
        'v2 dimension_separator "/": chunks live at 0/0, 0/1...; decoy files 0.0 and 1.1 must be ignored '
        "(chunk 1/1 is missing and reads as fill -1)",
    )
with verdict(question="spec-read"):
    _separator_case(
        "v2/metadata/dimension-separator-absent",
        ".",
        "v2 .zarray without dimension_separator: chunk keys are 0.0, 0.1...; decoy files 0/0 and 1/1 must be "
        "ignored (chunk 1.1 is missing and reads as fill -1)",
        explicit=False,
    )
with verdict(question="spec-read"):
    _separator_case(
        "v2/metadata/dimension-separator-dot",
        ".",
        'v2 dimension_separator "." written explicitly: keys 0.0...; decoys 0/0 and 1/1 are ignored',
    )


@case(
    "v2/metadata/extra-key-foo",
    kind="read",
    needs=I4,
    tier="optional",
    requirements=["V2-META-008"],
    description='v2 .zarray with an extra key "foo": 1 still opens and reads (v2.0.rst: readers should ignore it)',
    question="should",
)
def _(w):
    doc = zarray((4,), (4,), "<i4", 0, foo=1)
    w.put(".zarray", dumps(doc))
    w.put("0", np.array([5, 6, 7, 8], "<i4").tobytes())
    w.expect_array(np.array([5, 6, 7, 8], "<i4"))


@case(
    "v2/metadata/extra-key-decoy-object",
    kind="read",
    needs=I4,
    tier="optional",
    requirements=["V2-META-008"],
    description='v2 .zarray with an extra object member {"order": "F", "dtype": ">i4"} that must not change the '
    "array's meaning",
    question="should",
)
def _(w):
    doc = zarray((2, 2), (2, 2), "<i4", 0, extra={"order": "F", "dtype": ">i4", "shape": [9]})
    w.put(".zarray", dumps(doc))
    w.put("0.0", np.array([1, 2, 3, 4], "<i4").tobytes())
    w.expect_array(np.array([[1, 2], [3, 4]], "<i4"))


# ---- rejects: one fault in .zarray, beside a valid chunk ------------------------------------
def _without(key: str) -> dict:
    doc = _valid()
    del doc[key]
    return doc


_TEXT = dumps(_valid()).decode("ascii")
_NAN_TOKEN = dumps(zarray((4,), (4,), "<f8", "NaN")).replace(b'"NaN"', b"NaN")

# fmt: off
REJECTS = [
    # slug, question, tests, reason, requirements, description, the document (a dict or raw bytes)[, needs]
    *[(f"missing-{key.replace('_', '-')}", "missing-member", key, "missing-field", "V2-META-001", f"v2 .zarray without the required key {key!r} is rejected", _without(key))
      for key in ("zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters")],
    # "v2 .zarray with <what> is rejected"
    *[(slug, question, tests, reason, req, f"v2 .zarray with {what} is rejected", _valid(**changes)) for slug, question, tests, changes, reason, req, what in [
        ("zarr-format-3", "other-format", "zarr_format", {"zarr_format": 3}, "invalid-zarr-format", "V2-META-002", "zarr_format 3"),
        ("zarr-format-string", "scalar-spelling", "zarr_format", {"zarr_format": "2"}, "invalid-zarr-format", "V2-META-002", 'zarr_format "2" (a string)'),
        ("zarr-format-1", "other-format", "zarr_format", {"zarr_format": 1}, "invalid-zarr-format", "V2-META-002", "zarr_format 1"),
        ("zarr-format-float", "integer-as-float", "zarr_format", {"zarr_format": 2.0}, "invalid-zarr-format", "V2-META-002", "zarr_format 2.0 (not an integer literal)"),
        ("shape-chunks-rank", "invalid-value", "chunks", {"shape": [10, 10], "chunks": [5]}, "invalid-chunk-shape", "V2-META-003", "shape [10, 10] with chunks [5]"),
        ("chunks-zero", "chunk-size-zero", "chunks", {"chunks": [0]}, "invalid-chunk-shape", "V2-META-003", "chunks [0]"),
        ("chunks-false", "chunk-size-zero", "chunks", {"chunks": [False]}, "invalid-chunk-shape", "V2-META-003", "chunks [false] (a boolean for the size)"),
        ("chunks-null", "null-mandatory", "chunks", {"chunks": None}, "invalid-chunk-shape", "V2-META-003", "chunks null"),
        ("shape-negative", "invalid-value", "shape", {"shape": [-4]}, "invalid-shape", "V2-META-003", "shape [-4]"),
        ("shape-string", "wrong-structure", "shape", {"shape": "4"}, "invalid-shape", "V2-META-003", 'shape "4" (not a list)'),
        ("shape-fraction", "invalid-value", "shape", {"shape": [4.5]}, "invalid-shape", "V2-META-003", "shape [4.5]"),
        ("compressor-without-id", "unknown-extension", "compressor", {"compressor": {"level": 1}}, "invalid-codec", "V2-META-004", 'compressor {"level": 1} (no "id")'),
        ("compressor-string", "wrong-structure", "compressor", {"compressor": "zlib"}, "invalid-codec", "V2-META-004", 'compressor "zlib" (a string, not an object)'),
        ("filters-entry-without-id", "unknown-extension", "filters", {"filters": [{"dtype": "<f8"}]}, "invalid-codec", "V2-META-005", 'filters [{"dtype": "<f8"}] (an entry without "id")'),
        ("filters-object", "wrong-structure", "filters", {"filters": {"id": "delta", "dtype": "<i4"}}, "invalid-codec", "V2-META-005", "filters as one object instead of a list"),
        ("filters-string-entry", "wrong-structure", "filters", {"filters": ["delta"]}, "invalid-codec", "V2-META-005", 'filters ["delta"] (an entry that is not an object)'),
        ("order-A", "invalid-value", "order", {"order": "A"}, "invalid-order", "V2-META-006", 'order "A"'),
        ("order-lowercase", "case-variant", "order", {"order": "c"}, "invalid-order", "V2-META-006", 'order "c" (lower case)'),
        ("order-null", "null-mandatory", "order", {"order": None}, "invalid-order", "V2-META-006", "order null"),
        ("dimension-separator-dash", "invalid-value", "dimension_separator", {"dimension_separator": "-"}, "invalid-chunk-key-encoding", "V2-META-007", 'dimension_separator "-"'),
        ("dimension-separator-empty", "invalid-value", "dimension_separator", {"dimension_separator": ""}, "invalid-chunk-key-encoding", "V2-META-007", 'dimension_separator "" (empty)'),
        # data types
        ("dtype-no-byte-order", "byte-order-unspecified", "byte order", {"dtype": "i4"}, "invalid-data-type", "V2-DTYPE-001", 'dtype "i4" without a byte-order character (lenient readers may accept it)'),
        ("dtype-pipe-multibyte", "spec-silent", "byte order", {"dtype": "|i4"}, "invalid-data-type", "V2-DTYPE-001", 'dtype "|i4" ("not relevant" byte order on a 4-byte integer)'),
        ("dtype-size-3", "invalid-value", "typestr", {"dtype": "<i3"}, "invalid-data-type", "V2-DTYPE-001", 'dtype "<i3" (no 3-byte integer)'),
        ("dtype-unknown-kind", "invalid-value", "typestr", {"dtype": "<x4"}, "invalid-data-type", "V2-DTYPE-001", 'dtype "<x4" (unknown kind x)'),
        ("dtype-number", "invalid-value", "typestr", {"dtype": 4}, "invalid-data-type", "V2-DTYPE-001", "dtype 4 (a number)"),
        ("dtype-empty", "invalid-value", "typestr", {"dtype": ""}, "invalid-data-type", "V2-DTYPE-001", 'dtype "" (empty)'),
        ("dtype-datetime-no-unit", "invalid-value", "units", {"dtype": "<M8", "fill_value": None}, "invalid-data-type", "V2-DTYPE-004", 'dtype "<M8" without a unit'),
        ("dtype-timedelta-bad-unit", "invalid-value", "units", {"dtype": "<m8[parsec]", "fill_value": None}, "invalid-data-type", "V2-DTYPE-004", 'dtype "<m8[parsec]" (not a NumPy time unit)'),
        ("dtype-field-negative-shape", "invalid-value", "fieldname", {"dtype": [["a", "<i2", [-1]]], "fill_value": None}, "invalid-data-type", "V2-DTYPE-007", 'structured dtype [["a","<i2",[-1]]] (negative subarray shape)'),
        ("dtype-field-name-number", "scalar-spelling", "fieldname", {"dtype": [[1, "<i4"]], "fill_value": None}, "invalid-data-type", "V2-DTYPE-007", 'structured dtype [[1, "<i4"]] (the field name is not a string)'),
        ("dtype-field-repeated", "invalid-value", "fieldname", {"dtype": [["a", "<i2"], ["a", "<i2"]], "fill_value": None}, "invalid-data-type", "V2-DTYPE-007", 'structured dtype with the field name "a" twice'),
        ("dtype-field-four-members", "wrong-structure", "fieldname", {"dtype": [["a", "<i2", [2], "x"]], "fill_value": None}, "invalid-data-type", "V2-DTYPE-007", 'structured field ["a","<i2",[2],"x"] with four members'),
    ]],
    # JSON-level faults
    ("not-json", "json-lenient", "JSON", "invalid-json", "V2-META-001", "v2 .zarray that is not JSON (a trailing comma) is rejected", _TEXT.replace('"order": "C"', '"order": "C",', 1).encode("ascii")),
    ("json-array", "unreadable-document", "JSON", "invalid-metadata", "V2-META-001", "v2 .zarray that is a JSON array, not an object, is rejected", b"[2, [4], [4]]"),
    ("invalid-utf8", "json-lenient", "JSON", "invalid-json", "V2-META-001", "v2 .zarray with a byte that is not UTF-8 (0xFF in a string) is rejected", _TEXT.replace('"order": "C"', '"order": "C", "x": "\xff"').encode("latin-1")),
    ("bare-nan-token", "json-lenient", "JSON", "invalid-json", "V2-META-009 V2-FILL-001", "v2 .zarray with a bare NaN token as fill_value (not JSON; lenient readers may accept it) is rejected", _NAN_TOKEN, ["dtype:float64"]),
    ("duplicate-key", "duplicate-member", "JSON", "invalid-json", "V2-META-001", "v2 .zarray with the key order twice (C then F) is rejected", _TEXT.replace('"order": "C"', '"order": "C", "order": "F"').encode()),
]
# fmt: on

for _slug, _question, _tests, _reason, _reqs, _description, _doc, *_needs in REJECTS:
    _id = f"v2/metadata/reject-{_slug}"
    with verdict(question=_question, tests=_tests):
        reject_case(
            _id, _doc, _reason, _reqs.split(), _description, needs=_needs[0] if _needs else I4
        )


# ---- writes ----------------------------------------------------------------------------------
@case(
    "v2/metadata/write-all-keys",
    kind="write",
    needs=[*I4, "op:write"],
    requirements=["V2-META-001", "V2-META-002", "V2-META-004", "V2-KEY-006", "V2-CHUNK-007"],
    description="v2 write of <i4 (5,4) in (2,3) chunks with compressor null: .zarray holds the required keys "
    "with the requested values, zarr_format the integer 2 and compressor null; chunk 0.0 is the raw values",
    question="spec-write",
)
def _(w):
    doc = zarray((5, 4), (2, 3), "<i4", 7)
    data = sample(w.rng, (5, 4), "<i4", avoid=np.int32(7))
    w.expect_write(
        metadata=doc,
        data=data,
        required_keys=[".zarray", "0.0", "0.1", "1.0", "1.1", "2.0", "2.1"],
        exact_basis=["V2-CHUNK-007"],  # the values of .zarray are judged by meaning
        stored={"0.0": {"equals": np.ascontiguousarray(data[0:2, 0:3]).tobytes()}},
    )  # raw: no compressor


@case(
    "v2/metadata/write-filters-listed",
    kind="write",
    needs=[*I4, "op:write", "codec:delta", "codec:zlib"],
    requirements=["V2-META-001", "V2-META-005"],
    description='v2 write with filters [{"id":"delta","dtype":"<i4","astype":"<i4"}] and zlib: .zarray lists '
    "that filter and compressor",
    question="spec-write",
)
def _(w):
    doc = zarray(
        (9,),
        (4,),
        "<i4",
        0,
        compressor=COMPRESSORS["zlib"],
        filters=[{"id": "delta", "dtype": "<i4", "astype": "<i4"}],
    )
    data = sample(w.rng, (9,), "<i4", avoid=np.int32(0))
    w.expect_write(metadata=doc, data=data, required_keys=[".zarray", "0", "1", "2"])


@case(
    "v2/metadata/write-filters-null",
    kind="write",
    needs=[*I4, "op:write"],
    tier="optional",
    requirements=["V2-META-005", "V2-META-001"],
    citation=[
        {
            "requirement": "V2-META-005",
            "spec": "zarr-specs-v3.0/docs/v2/v2.0.rst",
            "section": "Metadata",
            "quote": "A list of JSON objects providing codec configurations, or ``null`` if no filters are to be applied.",
        }
    ],
    description="v2 write with no filters emits filters null, not [] (zarr-python 3.0 issue #2842, zarrs < 0.3.5)",
    question="should",
)
def _(w):
    doc = zarray((6,), (4,), "<i4", 0)
    data = sample(w.rng, (6,), "<i4", avoid=np.int32(0))
    w.expect_write(
        metadata=doc,
        data=data,
        document_members={".zarray": {"filters": None, "compressor": None}},
        exact_basis=["V2-META-005"],
    )


@case(
    "v2/metadata/write-fill-nan-strict-json",
    kind="write",
    needs=["dtype:float64", "op:write"],
    requirements=["V2-META-009", "V2-FILL-001"],
    description='v2 write of <f8 with fill NaN: .zarray is strict JSON with fill_value "NaN" (no bare NaN token)',
    question="spec-write",
)
def _(w):
    doc = zarray((5,), (2,), "<f8", "NaN")
    data = sample(w.rng, (5,), "<f8", avoid=np.float64(np.nan), specials=False)
    w.expect_write(
        metadata=doc, data=data
    )  # the reference parses .zarray strictly: a bare NaN token fails


@case(
    "v2/metadata/write-exact-document",
    kind="write",
    needs=["dtype:float32", "codec:zlib", "op:write"],
    tier="optional",
    requirements=["V2-META-008", "V2-META-001"],
    description="v2 write: .zarray is exactly the requested document (the 8 keys plus dimension_separator, "
    "nothing else)",
    question="should",
)
def _(w):
    doc = zarray(
        (6, 4), (4, 4), "<f4", 0.5, compressor=COMPRESSORS["zlib"], dimension_separator="."
    )
    data = sample(w.rng, (6, 4), "<f4", avoid=np.float32(0.5))
    w.expect_write(
        metadata=doc, data=data, documents={".zarray": doc}, exact_basis=["V2-META-008"]
    )  # SHOULD NOT


@case(
    "v2/metadata/write-dimension-separator-slash",
    kind="write",
    needs=[*I4, "op:write", "feature:dimension-separator-slash"],
    requirements=["V2-META-007", "V2-CHUNK-003"],
    description='v2 write with dimension_separator "/": chunks are stored at 0/0, 0/1, 1/0, 1/1 and never at 0.0',
    question="spec-write",
)
def _(w):
    doc = zarray((3, 5), (2, 3), "<i4", 0, dimension_separator="/")
    data = sample(w.rng, (3, 5), "<i4", avoid=np.int32(0))
    w.expect_write(
        metadata=doc,
        data=data,
        required_keys=[".zarray", "0/0", "0/1", "1/0", "1/1"],
        forbidden_keys=["0.0", "0.1", "1.0", "1.1"],
    )
