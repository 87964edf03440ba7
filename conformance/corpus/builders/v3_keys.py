"""v3 chunk keys and key encodings (V3-KEY-*, V3-CKE-*): canonical decimal keys with decoys, the
`default` and `v2` encodings with and without configuration, node prefixes, and the exact keys a
writer must produce."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import case
from .table_kit import array, each, hand_case
from .v3_kit import (
    all_keys,
    array_doc,
    default_key,
    group_doc,
    put_array,
    put_hierarchy,
    reject_case,
    v2_key,
    write_case,
)

I4 = ["dtype:int32", "codec:bytes"]
U1 = ["dtype:uint8", "codec:bytes"]


# ---- reads: key encodings and canonical keys (V3-CKE-*, V3-KEY-003) -------------------------------


# fmt: off
HAND_BUILT = [
    # case id, needs, requirements, description, the store key by key, what it must do[, options]
    ("v3/keys/default-no-configuration", I4, ["V3-CKE-002", "V3-CKE-001"], "v3 chunk_key_encoding {'name': 'default'} uses '/': chunk c/0/0 is read and a decoy at c.0.0 ignored", {"zarr.json": array_doc((2, 2), (2, 2), "int32", 0, separator=None), "c/0/0": np.array([1, 2, 3, 4], "<i4").tobytes(), "c.0.0": np.array([-1, -2, -3, -4], "<i4").tobytes()}, array(np.array([[1, 2], [3, 4]], "i4"))),
    ("v3/keys/leading-zero-decoy-only", I4, ["V3-CKE-007"], "v3 int32 (4,) in (2,) chunks whose only stored keys are c/01 and c/00: both are decoys, the array reads entirely as the fill 8", {"zarr.json": array_doc((4,), (2,), "int32", 8), "c/01": np.array([1, 2], "<i4").tobytes(), "c/00": np.array([3, 4], "<i4").tobytes()}, array(np.full(4, 8, "i4"))),
    ("v3/keys/leading-zero-decoy-beside-chunk", I4, ["V3-CKE-007"], "v3 int32 (4,) in (2,): chunk c/0 is real, c/01 is not an alias of c/1 (which reads as fill)", {"zarr.json": array_doc((4,), (2,), "int32", 8), "c/0": np.array([10, 20], "<i4").tobytes(), "c/01": np.array([30, 40], "<i4").tobytes(), "c/+1": np.array([50, 60], "<i4").tobytes()}, array(np.array([10, 20, 8, 8], "i4"))),
]
# fmt: on

each(hand_case, HAND_BUILT, question="spec-read")


@case(
    "v3/keys/default-dot-separator",
    kind="read",
    needs=I4,
    requirements=["V3-CKE-001"],
    description="v3 default encoding with separator '.': chunks at c.i.j are read, decoys at c/i/j ignored",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (4, 3), "i4", avoid=np.int32(5))
    doc = array_doc((4, 3), (2, 2), "int32", 5, separator=".")
    w.expect_array(
        put_array(
            w,
            "",
            doc,
            data,
            fill_bits=np.array(5, "i4"),
            skip={(1, 1)},
            endian="little",
            key=lambda i: default_key(i, "."),
        )
    )
    for index in np.ndindex(2, 2):
        w.put(default_key(index, "/"), np.full(4, 666, "<i4").tobytes())


@case(
    "v3/keys/multi-digit-indices",
    kind="read",
    needs=U1,
    requirements=["V3-CKE-001", "V3-KEY-003"],
    description="v3 uint8 (25,) in (2,) chunks: 13 chunks up to c/12 with multi-digit decimal keys",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (25,), "u1", avoid=np.uint8(0))
    doc = array_doc((25,), (2,), "uint8", 0)
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(0, "u1"), skip={(10,)}))


@case(
    "v3/keys/v2-encoding-default-dot",
    kind="read",
    needs=U1 + ["feature:chunk-key-encoding-v2"],
    requirements=["V3-CKE-005"],
    description="v3 {'name': 'v2'} with no configuration: the only chunk is at 1.23.45; decoys at c/1/23/45 "
    "and 1/23/45 are ignored",
    question="spec-read",
)
def _(w):
    shape = (2, 24, 46)
    w.put_json("zarr.json", array_doc(shape, (1, 1, 1), "uint8", 9, encoding="v2", separator=None))
    w.put("1.23.45", bytes([201]))
    w.put("c/1/23/45", bytes([202]))
    w.put("1/23/45", bytes([203]))
    expected = np.full(shape, 9, "u1")
    expected[1, 23, 45] = 201
    w.expect_array(expected)


@case(
    "v3/keys/default-index-1-23-45",
    kind="read",
    needs=U1,
    requirements=["V3-CKE-001", "V3-CKE-007"],
    description="v3 default encoding: uint8 (2,24,46) in (1,1,1) chunks whose only chunk is c/1/23/45; decoys at "
    "c.1.23.45, c/1/23/045 and 1/23/45 are ignored",
    question="spec-read",
)
def _(w):
    shape = (2, 24, 46)
    w.put_json("zarr.json", array_doc(shape, (1, 1, 1), "uint8", 9))
    w.put("c/1/23/45", bytes([201]))
    for decoy, value in (("c.1.23.45", 202), ("c/1/23/045", 203), ("1/23/45", 204)):
        w.put(decoy, bytes([value]))
    expected = np.full(shape, 9, "u1")
    expected[1, 23, 45] = 201
    w.expect_array(expected)


@case(
    "v3/keys/v2-encoding-slash",
    kind="read",
    needs=I4 + ["feature:chunk-key-encoding-v2"],
    requirements=["V3-CKE-005"],
    description="v3 v2 encoding with separator '/': chunks at i/j (no 'c' prefix), one missing, decoys at i.j",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (3, 4), "i4", avoid=np.int32(-3))
    doc = array_doc((3, 4), (2, 2), "int32", -3, encoding="v2", separator="/")
    w.expect_array(
        put_array(
            w,
            "",
            doc,
            data,
            fill_bits=np.array(-3, "i4"),
            skip={(1, 1)},
            endian="little",
            key=lambda i: v2_key(i, "/"),
        )
    )
    w.put("1.1", np.full(4, 1234, "<i4").tobytes())


@case(
    "v3/keys/v2-encoding-multi-digit",
    kind="read",
    needs=I4 + ["feature:chunk-key-encoding-v2"],
    requirements=["V3-CKE-005"],
    description="v3 v2 encoding with explicit separator '.': int32 (2,23) in (1,2) chunks, keys up to 1.11",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (2, 23), "i4", avoid=np.int32(0))
    doc = array_doc((2, 23), (1, 2), "int32", 0, encoding="v2", separator=".")
    w.expect_array(
        put_array(
            w,
            "",
            doc,
            data,
            fill_bits=np.array(0, "i4"),
            skip={(0, 10)},
            endian="little",
            key=lambda i: v2_key(i, "."),
        )
    )


@case(
    "v3/keys/nested-array-prefix",
    kind="read",
    needs=I4 + ["node:group"],
    requirements=["V3-KEY-003", "V3-KEY-002"],
    description="v3 array foo/baz: chunk (1,0) is at foo/baz/c/1/0; look-alike keys at c/1/0 and foo/c/1/0 are ignored",
    question="spec-read",
)
def _(w):
    put_hierarchy(w, "foo/baz")
    data = sample(w.rng, (4, 2), "i4", avoid=np.int32(0))
    doc = array_doc((4, 2), (2, 2), "int32", 0)
    expected = put_array(w, "foo/baz/", doc, data, fill_bits=np.array(0, "i4"), endian="little")
    w.put("c/1/0", np.full(4, 99, "<i4").tobytes())
    w.put("foo/c/1/0", np.full(4, 98, "<i4").tobytes())
    w.node = "foo/baz"
    w.expect_array(expected)


@case(
    "v3/keys/leading-slash-path",
    kind="read",
    needs=I4 + ["node:group"],
    requirements=["V3-KEY-002"],
    description="v3 node path '/foo/bar' (with a leading slash) opens the array whose metadata is foo/bar/zarr.json",
    question="spec-read",
)
def _(w):
    put_hierarchy(w, "foo/bar")
    data = sample(w.rng, (3,), "i4", avoid=np.int32(0))
    w.expect_array(
        put_array(
            w,
            "foo/bar/",
            array_doc((3,), (2,), "int32", 0),
            data,
            fill_bits=np.array(0, "i4"),
            endian="little",
        )
    )
    w.node = "/foo/bar"


@case(
    "v3/keys/deep-path",
    kind="read",
    needs=["dtype:float64", "codec:bytes", "node:group"],
    requirements=["V3-KEY-002", "V3-KEY-003"],
    description="v3 array four levels deep at a/b/c/d with explicit groups above it",
    question="spec-read",
)
def _(w):
    put_hierarchy(w, "a/b/c/d")
    data = sample(w.rng, (5,), "f8", avoid=np.float64(0))
    w.expect_array(
        put_array(
            w,
            "a/b/c/d/",
            array_doc((5,), (3,), "float64", 0.0),
            data,
            fill_bits=np.array(0, "f8"),
            endian="little",
        )
    )
    w.node = "a/b/c/d"


@case(
    "v3/keys/unicode-array-path",
    kind="read",
    needs=I4 + ["node:group", "feature:unicode-names"],
    requirements=["V3-KEY-004", "V3-NAME-007"],
    description="v3 array named 'café' (NFC): metadata at café/zarr.json and chunks at café/c/i in UTF-8",
    question="spec-read",
)
def _(w):
    name = "caf\u00e9"
    w.put_json("zarr.json", group_doc())
    data = sample(w.rng, (5,), "i4", avoid=np.int32(0))
    w.expect_array(
        put_array(
            w,
            f"{name}/",
            array_doc((5,), (2,), "int32", 0),
            data,
            fill_bits=np.array(0, "i4"),
            endian="little",
        )
    )
    w.node = name


@case(
    "v3/keys/root-array",
    kind="read",
    needs=["dtype:int16", "codec:bytes"],
    requirements=["V3-KEY-001", "V3-GRP-007", "V3-FS-001", "V3-KEY-003"],
    description="v3 root array: zarr.json at the store root and chunks at c/i/j open with no node path",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (7, 5), "i2", avoid=np.int16(-1))
    doc = array_doc((7, 5), (4, 3), "int16", -1)
    w.expect_array(
        put_array(w, "", doc, data, fill_bits=np.array(-1, "i2"), skip={(0, 1)}, endian="little")
    )


# ---- rejects ---------------------------------------------------------------------------------------


def _bad_encoding(slug, encoding, requirements, what, tier=None):
    doc = array_doc((4,), (2,), "int32", 0)
    doc["chunk_key_encoding"] = encoding
    reject_case(
        f"v3/keys/reject-{slug}",
        doc,
        "invalid-chunk-key-encoding",
        requirements,
        f"v3 chunk_key_encoding {what} is rejected on open",
        needs=I4,
        tier=tier,
    )


# fmt: off
ENCODING_FAULTS = [
    # slug, encoding, requirements, what[, options]
    ("separator-dash", {"name": "default", "configuration": {"separator": "-"}}, ["V3-CKE-003"], "with separator '-'", {"tests": "separator", "question": "invalid-value"}),
    ("separator-empty", {"name": "default", "configuration": {"separator": ""}}, ["V3-CKE-003"], "with separator ''", {"tests": "separator", "question": "invalid-value"}),
    ("separator-two-chars", {"name": "default", "configuration": {"separator": "/."}}, ["V3-CKE-003"], "with separator '/.'", {"tests": "separator", "question": "invalid-value"}),
    ("separator-null", {"name": "default", "configuration": {"separator": None}}, ["V3-CKE-003"], "with separator null", {"tests": "separator", "question": "null-optional"}),
    ("v2-separator-underscore", {"name": "v2", "configuration": {"separator": "_"}}, ["V3-CKE-003", "V3-CKE-005"], "v2 with separator '_'", {"tests": "separator", "question": "invalid-value"}),
    ("unknown-configuration-member", {"name": "default", "configuration": {"separator": "/", "pad": 3}}, ["V3-CKE-001"], "default with an unknown configuration member 'pad'", {"tests": "configuration", "question": "unknown-configuration-member"}),
]
# fmt: on

each(_bad_encoding, ENCODING_FAULTS)


# ---- writes ----------------------------------------------------------------------------------------

# fmt: off
WRITES = [
    # case_id, description, requirements, metadata, data, needs[, options]
    ("v3/keys/write-root-array", "v3 write of a root int32 (4,4) array in (2,2) chunks gives zarr.json and c/0/0..c/1/1", ["V3-KEY-001", "V3-KEY-003"], array_doc((4, 4), (2, 2), "int32", 0), lambda w: sample(w.rng, (4, 4), "i4", avoid=np.int32(0)), I4, {"keys": all_keys((4, 4), (2, 2))}),
    ("v3/keys/write-nested-array", "v3 write of array foo/baz (2,1) in (1,1) chunks: metadata at foo/baz/zarr.json and chunk (1,0) at foo/baz/c/1/0 (the ancestor groups zarr.json and foo/zarr.json may be written)", ["V3-KEY-002", "V3-KEY-003"], array_doc((2, 1), (1, 1), "int32", 0), lambda w: sample(w.rng, (2, 1), "i4", avoid=np.int32(0)), I4, {"path": "foo/baz", "keys": ["zarr.json", "foo/zarr.json"] + all_keys((2, 1), (1, 1), prefix="foo/baz/")}),
    ("v3/keys/write-unicode-name", "v3 write of array 'café' (NFC) under the root: keys café/zarr.json and café/c/0 in NFC UTF-8, not normalised otherwise (the root group may be written)", ["V3-KEY-004", "V3-NAME-008"], array_doc((3,), (3,), "int32", 0), lambda w: sample(w.rng, (3,), "i4", avoid=np.int32(0)), I4 + ["feature:unicode-names"], {"path": "caf\u00e9", "keys": ["zarr.json", "caf\u00e9/zarr.json", "caf\u00e9/c/0"]}),
    ("v3/keys/write-unicode-name-nfd", "v3 write of array 'café' spelled in NFD (e + U+0301): the keys keep the NFD bytes exactly as given", ["V3-KEY-004", "V3-NAME-008"], array_doc((3,), (3,), "int32", 0), lambda w: sample(w.rng, (3,), "i4", avoid=np.int32(0)), I4 + ["feature:unicode-names"], {"path": "cafe\u0301", "keys": ["zarr.json", "cafe\u0301/zarr.json", "cafe\u0301/c/0"], "forbidden_keys": ["caf\u00e9/zarr.json"]}),
    ("v3/keys/write-dot-separator", "v3 write with the default encoding and separator '.': int32 (2,12) in (1,1) chunks gives keys c.0.0 .. c.1.11", ["V3-CKE-001"], array_doc((2, 12), (1, 1), "int32", 0, separator="."), lambda w: sample(w.rng, (2, 12), "i4", avoid=np.int32(0)), I4, {"keys": all_keys((2, 12), (1, 1), key=lambda i: default_key(i, "."))}),
    ("v3/keys/write-default-no-configuration", "v3 write with chunk_key_encoding {'name': 'default'} and no configuration stores chunks under c/ with '/' (the default separator)", ["V3-CKE-002", "V3-CKE-006"], array_doc((3, 3), (2, 2), "int32", 0, separator=None), lambda w: sample(w.rng, (3, 3), "i4", avoid=np.int32(0)), I4, {"keys": all_keys((3, 3), (2, 2))}),
    ("v3/keys/write-v2-slash", "v3 write with the v2 encoding and separator '/': int32 (2,12) in (1,1) gives keys 0/0 .. 1/11 with no 'c' prefix", ["V3-CKE-005"], array_doc((2, 12), (1, 1), "int32", 0, encoding="v2", separator="/"), lambda w: sample(w.rng, (2, 12), "i4", avoid=np.int32(0)), I4 + ["feature:chunk-key-encoding-v2"], {"keys": all_keys((2, 12), (1, 1), key=lambda i: v2_key(i, "/"))}),
    ("v3/keys/write-v2-no-configuration", "v3 write with {'name': 'v2'} and no configuration uses '.': keys 0.0 .. 2.1", ["V3-CKE-005"], array_doc((5, 3), (2, 2), "int32", 0, encoding="v2", separator=None), lambda w: sample(w.rng, (5, 3), "i4", avoid=np.int32(0)), I4 + ["feature:chunk-key-encoding-v2"], {"keys": all_keys((5, 3), (2, 2), key=lambda i: v2_key(i, "."))}),
]
# fmt: on

each(write_case, WRITES, question="spec-write")
