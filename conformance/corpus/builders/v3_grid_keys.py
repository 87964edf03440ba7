"""v3 regular chunk grid and chunk keys (V3-GRID-*, V3-CKE-*, V3-KEY-*): edge chunks, 0-d and
zero-length arrays, canonical decimal keys with decoys, both key encodings, and the exact keys a
writer must produce."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import add_case, case
from .v3_kit import (JUNK, array_doc, bytes_codec, default_key, grid, group_doc, keep_zero_d, put_array, reject_case,
                     v2_key)

I4 = ["dtype:int32", "codec:bytes"]
U1 = ["dtype:uint8", "codec:bytes"]


# ---- reads: edge chunks and index arithmetic (V3-GRID-003, V3-GRID-006) ---------------------------

@case("v3/grid/edge-sentinel-1d", kind="read", needs=["dtype:int8", "codec:bytes"], requirements=["V3-GRID-006"],
      description="v3 int8 shape (5,) chunks (4,): chunk 1 holds [7, 7f, 7f, 7f] and the array ends in 7")
def _(w):
    w.put_json("zarr.json", array_doc((5,), (4,), "int8", 0))
    w.put("c/0", bytes([1, 2, 3, 4]))
    w.put("c/1", bytes([7, JUNK, JUNK, JUNK]))
    w.expect_array(np.array([1, 2, 3, 4, 7], "i1"))


@case("v3/grid/edge-junk-3d", kind="read", needs=["dtype:uint16", "codec:bytes"],
      requirements=["V3-GRID-003", "V3-GRID-006", "V3-FILL-009"],
      description="v3 uint16 (5,7,3) in (2,3,2) chunks: 7f7f junk in every overhang, one chunk missing")
def _(w):
    data = sample(w.rng, (5, 7, 3), "u2", avoid=np.uint16(9))
    doc = array_doc((5, 7, 3), (2, 3, 2), "uint16", 9)
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(9, "u2"), skip={(1, 2, 0)}, endian="little"))


@case("v3/grid/single-element-3d", kind="read", needs=U1, requirements=["V3-GRID-003", "V3-GRID-006", "V3-FILL-009"],
      description="v3 uint8 (8,31,14) in (3,4,5) chunks, only chunk (1,7,2) stored: its element at local "
                  "(2,2,3) is the array element (5,30,13); everything else reads as the fill 3")
def _(w):
    # V3-GRID-003 scaled down from the catalogue's (10,200,3000) example: the same chunk index
    # (1,7,2), reached through an edge chunk in two dimensions so the overhang is junk too.
    shape, chunks = (8, 31, 14), (3, 4, 5)
    w.put_json("zarr.json", array_doc(shape, chunks, "uint8", 3))
    block = np.full(chunks, 3, "u1")
    block[:, 3, :] = JUNK  # rows 31.. of the array do not exist
    block[:, :, 4] = JUNK  # columns 14.. do not exist
    block[2, 2, 3] = 200
    w.put("c/1/7/2", block.tobytes())
    expected = np.full(shape, 3, "u1")
    expected[5, 30, 13] = 200
    w.expect_array(expected)


@case("v3/grid/element-placement-2d", kind="read", needs=I4, requirements=["V3-GRID-003"],
      description="v3 int32 (9,20) in (4,7) chunks: values in chunks (2,1) and (0,2) land at (8,13) and "
                  "(3,19), catching swapped or transposed chunk arithmetic")
def _(w):
    shape, chunks = (9, 20), (4, 7)
    w.put_json("zarr.json", array_doc(shape, chunks, "int32", -1))
    a = np.full(chunks, -1, "<i4")
    a[1:, :] = 0x7F7F7F7F  # rows 9.. of chunk row 2 do not exist
    a[0, 6] = 1111
    w.put("c/2/1", a.tobytes())
    b = np.full(chunks, -1, "<i4")
    b[:, 6:] = 0x7F7F7F7F  # columns 20.. of chunk column 2 do not exist
    b[3, 5] = 2222
    w.put("c/0/2", b.tobytes())
    expected = np.full(shape, -1, "i4")
    expected[8, 13], expected[3, 19] = 1111, 2222
    w.expect_array(expected)


@case("v3/grid/chunk-larger-than-array", kind="read", needs=["dtype:float32", "codec:bytes"],
      requirements=["V3-GRID-002", "V3-GRID-006"],
      description="v3 float32 (3,2) in one (10,10) chunk: the 94 overhang elements are junk and never read")
def _(w):
    data = sample(w.rng, (3, 2), "f4", avoid=np.float32(0))
    doc = array_doc((3, 2), (10, 10), "float32", 0.0)
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(0, "f4"), endian="little"))


@case("v3/grid/stale-chunk-beyond-shape", kind="read", needs=I4, tier="optional",
      requirements=["V3-GRID-010", "V3-GRID-006"],
      description="v3 int32 (6,) in (4,) chunks after a shrink: stale values in chunk 1's overhang and a "
                  "stale chunk c/2 beyond the grid are not part of the array")
def _(w):
    data = sample(w.rng, (6,), "i4", avoid=np.int32(0))
    w.put_json("zarr.json", array_doc((6,), (4,), "int32", 0))
    w.put("c/0", data[:4].astype("<i4").tobytes())
    w.put("c/1", np.array([data[4], data[5], 55, 66], "<i4").tobytes())
    w.put("c/2", np.array([77, 88, 99, 11], "<i4").tobytes())
    w.expect_array(data)


# ---- reads: 0-d and zero-length arrays (V3-GRID-007, V3-GRID-008, V3-CKE-004/005) ------------------

@case("v3/grid/0d-default-key-c", kind="read", needs=["dtype:float64", "codec:bytes", "feature:0d"],
      requirements=["V3-GRID-007", "V3-CKE-004", "V3-ARR-004"],
      description="v3 0-d float64 (shape [], chunk_shape []): the one chunk is at key 'c' and reads as -2.5")
def _(w):
    w.put_json("zarr.json", array_doc((), (), "float64", 0.0))
    w.put("c", np.array(-2.5, "<f8").tobytes())
    w.expect_array(np.array(-2.5))
    keep_zero_d(w, np.array(-2.5))


@case("v3/grid/0d-dot-separator-key-c", kind="read", needs=["dtype:int16", "codec:bytes", "feature:0d"],
      requirements=["V3-GRID-007", "V3-CKE-004"],
      description="v3 0-d int16 with the default encoding and separator '.': the chunk key is still 'c'")
def _(w):
    w.put_json("zarr.json", array_doc((), (), "int16", 0, separator=".", codecs=[bytes_codec("big")]))
    w.put("c", np.array(-300, ">i2").tobytes())
    w.expect_array(np.array(-300, "i2"))
    keep_zero_d(w, np.array(-300, "i2"))


@case("v3/grid/0d-v2-key-0", kind="read", needs=["dtype:uint32", "codec:bytes", "feature:0d", "feature:chunk-key-encoding-v2"],
      requirements=["V3-GRID-007", "V3-CKE-005"],
      description="v3 0-d uint32 with the v2 key encoding: the one chunk is at key '0' (a decoy at 'c')")
def _(w):
    w.put_json("zarr.json", array_doc((), (), "uint32", 0, encoding="v2", separator="."))
    w.put("0", np.array(4000000000, "<u4").tobytes())
    w.put("c", np.array(13, "<u4").tobytes())
    w.expect_array(np.array(4000000000, "u4"))
    keep_zero_d(w, np.array(4000000000, "u4"))


@case("v3/grid/0d-missing-chunk", kind="read", needs=["dtype:int64", "codec:bytes", "feature:0d"],
      requirements=["V3-GRID-007", "V3-FILL-009"],
      description="v3 0-d int64 with no chunk key reads as its fill -9223372036854775808")
def _(w):
    w.put_json("zarr.json", array_doc((), (), "int64", -(2**63)))
    w.expect_array(np.array(-(2**63), "i8"))
    keep_zero_d(w, np.array(-(2**63), "i8"))


@case("v3/grid/zero-length-2d", kind="read", needs=["dtype:float32", "codec:bytes", "feature:zero-length"],
      requirements=["V3-GRID-008", "V3-ARR-004"],
      description="v3 float32 shape [0, 5] chunks [1, 5]: reads an empty (0, 5) array; the store holds only zarr.json")
def _(w):
    w.put_json("zarr.json", array_doc((0, 5), (1, 5), "float32", 0.0))
    w.expect_array(np.zeros((0, 5), "f4"))


@case("v3/grid/zero-length-stray-chunk", kind="read", needs=I4 + ["feature:zero-length"], requirements=["V3-GRID-008"],
      description="v3 int32 shape [4, 0] chunks [2, 3]: a stray key c/0/0 is not a chunk of the empty grid")
def _(w):
    w.put_json("zarr.json", array_doc((4, 0), (2, 3), "int32", 0))
    w.put("c/0/0", np.arange(6, dtype="<i4").tobytes())
    w.expect_array(np.zeros((4, 0), "i4"))


@case("v3/grid/zero-length-1d", kind="read", needs=U1 + ["feature:zero-length"], requirements=["V3-GRID-008"],
      description="v3 uint8 shape [0] chunks [4] reads an empty 1-d array")
def _(w):
    w.put_json("zarr.json", array_doc((0,), (4,), "uint8", 1))
    w.expect_array(np.zeros((0,), "u1"))


# ---- reads: key encodings and canonical keys (V3-CKE-*, V3-KEY-003) -------------------------------

@case("v3/keys/default-no-configuration", kind="read", needs=I4, requirements=["V3-CKE-002", "V3-CKE-001"],
      description="v3 chunk_key_encoding {'name': 'default'} uses '/': chunk c/0/0 is read and a decoy at c.0.0 ignored")
def _(w):
    w.put_json("zarr.json", array_doc((2, 2), (2, 2), "int32", 0, separator=None))
    w.put("c/0/0", np.array([1, 2, 3, 4], "<i4").tobytes())
    w.put("c.0.0", np.array([-1, -2, -3, -4], "<i4").tobytes())
    w.expect_array(np.array([[1, 2], [3, 4]], "i4"))


@case("v3/keys/default-dot-separator", kind="read", needs=I4, requirements=["V3-CKE-001"],
      description="v3 default encoding with separator '.': chunks at c.i.j are read, decoys at c/i/j ignored")
def _(w):
    data = sample(w.rng, (4, 3), "i4", avoid=np.int32(5))
    doc = array_doc((4, 3), (2, 2), "int32", 5, separator=".")
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(5, "i4"), skip={(1, 1)}, endian="little",
                             key=lambda i: default_key(i, ".")))
    for index in np.ndindex(2, 2):
        w.put(default_key(index, "/"), np.full(4, 666, "<i4").tobytes())


@case("v3/keys/multi-digit-indices", kind="read", needs=U1, requirements=["V3-CKE-001", "V3-KEY-003"],
      description="v3 uint8 (25,) in (2,) chunks: 13 chunks up to c/12 with multi-digit decimal keys")
def _(w):
    data = sample(w.rng, (25,), "u1", avoid=np.uint8(0))
    doc = array_doc((25,), (2,), "uint8", 0)
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(0, "u1"), skip={(10,)}))


@case("v3/keys/v2-encoding-default-dot", kind="read", needs=U1 + ["feature:chunk-key-encoding-v2"],
      requirements=["V3-CKE-005"],
      description="v3 {'name': 'v2'} with no configuration: the only chunk is at 1.23.45; decoys at c/1/23/45 "
                  "and 1/23/45 are ignored")
def _(w):
    shape = (2, 24, 46)
    w.put_json("zarr.json", array_doc(shape, (1, 1, 1), "uint8", 9, encoding="v2", separator=None))
    w.put("1.23.45", bytes([201]))
    w.put("c/1/23/45", bytes([202]))
    w.put("1/23/45", bytes([203]))
    expected = np.full(shape, 9, "u1")
    expected[1, 23, 45] = 201
    w.expect_array(expected)


@case("v3/keys/v2-encoding-slash", kind="read", needs=I4 + ["feature:chunk-key-encoding-v2"],
      requirements=["V3-CKE-005"],
      description="v3 v2 encoding with separator '/': chunks at i/j (no 'c' prefix), one missing, decoys at i.j")
def _(w):
    data = sample(w.rng, (3, 4), "i4", avoid=np.int32(-3))
    doc = array_doc((3, 4), (2, 2), "int32", -3, encoding="v2", separator="/")
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(-3, "i4"), skip={(1, 1)}, endian="little",
                             key=lambda i: v2_key(i, "/")))
    w.put("1.1", np.full(4, 1234, "<i4").tobytes())


@case("v3/keys/v2-encoding-multi-digit", kind="read", needs=I4 + ["feature:chunk-key-encoding-v2"],
      requirements=["V3-CKE-005"],
      description="v3 v2 encoding with explicit separator '.': int32 (2,23) in (1,2) chunks, keys up to 1.11")
def _(w):
    data = sample(w.rng, (2, 23), "i4", avoid=np.int32(0))
    doc = array_doc((2, 23), (1, 2), "int32", 0, encoding="v2", separator=".")
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(0, "i4"), skip={(0, 10)}, endian="little",
                             key=lambda i: v2_key(i, ".")))


@case("v3/keys/leading-zero-decoy-only", kind="read", needs=I4, requirements=["V3-CKE-007"],
      description="v3 int32 (4,) in (2,) chunks whose only stored keys are c/01 and c/00: both are decoys, "
                  "the array reads entirely as the fill 8")
def _(w):
    w.put_json("zarr.json", array_doc((4,), (2,), "int32", 8))
    w.put("c/01", np.array([1, 2], "<i4").tobytes())
    w.put("c/00", np.array([3, 4], "<i4").tobytes())
    w.expect_array(np.full(4, 8, "i4"))


@case("v3/keys/leading-zero-decoy-beside-chunk", kind="read", needs=I4, requirements=["V3-CKE-007"],
      description="v3 int32 (4,) in (2,): chunk c/0 is real, c/01 is not an alias of c/1 (which reads as fill)")
def _(w):
    w.put_json("zarr.json", array_doc((4,), (2,), "int32", 8))
    w.put("c/0", np.array([10, 20], "<i4").tobytes())
    w.put("c/01", np.array([30, 40], "<i4").tobytes())
    w.put("c/+1", np.array([50, 60], "<i4").tobytes())
    w.expect_array(np.array([10, 20, 8, 8], "i4"))


def _hierarchy(w, path: str) -> None:
    """Explicit group documents for every ancestor of `path`."""
    parts = path.split("/")
    for i in range(len(parts)):
        w.put_json("/".join(parts[:i] + ["zarr.json"]), group_doc())


@case("v3/keys/nested-array-prefix", kind="read", needs=I4 + ["node:group"], requirements=["V3-KEY-003", "V3-KEY-002"],
      description="v3 array foo/baz: chunk (1,0) is at foo/baz/c/1/0; look-alike keys at c/1/0 and foo/c/1/0 are ignored")
def _(w):
    _hierarchy(w, "foo/baz")
    data = sample(w.rng, (4, 2), "i4", avoid=np.int32(0))
    doc = array_doc((4, 2), (2, 2), "int32", 0)
    expected = put_array(w, "foo/baz/", doc, data, fill_bits=np.array(0, "i4"), endian="little")
    w.put("c/1/0", np.full(4, 99, "<i4").tobytes())
    w.put("foo/c/1/0", np.full(4, 98, "<i4").tobytes())
    w.node = "foo/baz"
    w.expect_array(expected)


@case("v3/keys/leading-slash-path", kind="read", needs=I4 + ["node:group"], requirements=["V3-KEY-002"],
      description="v3 node path '/foo/bar' (with a leading slash) opens the array whose metadata is foo/bar/zarr.json")
def _(w):
    _hierarchy(w, "foo/bar")
    data = sample(w.rng, (3,), "i4", avoid=np.int32(0))
    w.expect_array(put_array(w, "foo/bar/", array_doc((3,), (2,), "int32", 0), data, fill_bits=np.array(0, "i4"),
                             endian="little"))
    w.node = "/foo/bar"


@case("v3/keys/deep-path", kind="read", needs=["dtype:float64", "codec:bytes", "node:group"],
      requirements=["V3-KEY-002", "V3-KEY-003"],
      description="v3 array four levels deep at a/b/c/d with explicit groups above it")
def _(w):
    _hierarchy(w, "a/b/c/d")
    data = sample(w.rng, (5,), "f8", avoid=np.float64(0))
    w.expect_array(put_array(w, "a/b/c/d/", array_doc((5,), (3,), "float64", 0.0), data,
                             fill_bits=np.array(0, "f8"), endian="little"))
    w.node = "a/b/c/d"


@case("v3/keys/unicode-array-path", kind="read", needs=I4 + ["node:group", "feature:unicode-names"],
      requirements=["V3-KEY-004", "V3-NAME-007"],
      description="v3 array named 'café' (NFC): metadata at café/zarr.json and chunks at café/c/i in UTF-8")
def _(w):
    name = "caf\u00e9"
    w.put_json("zarr.json", group_doc())
    data = sample(w.rng, (5,), "i4", avoid=np.int32(0))
    w.expect_array(put_array(w, f"{name}/", array_doc((5,), (2,), "int32", 0), data, fill_bits=np.array(0, "i4"),
                             endian="little"))
    w.node = name


@case("v3/keys/root-array", kind="read", needs=["dtype:int16", "codec:bytes"],
      requirements=["V3-KEY-001", "V3-GRP-007", "V3-FS-001", "V3-KEY-003"],
      description="v3 root array: zarr.json at the store root and chunks at c/i/j open with no node path")
def _(w):
    data = sample(w.rng, (7, 5), "i2", avoid=np.int16(-1))
    doc = array_doc((7, 5), (4, 3), "int16", -1)
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(-1, "i2"), skip={(0, 1)}, endian="little"))


# ---- rejects ---------------------------------------------------------------------------------------

def _bad_grid(slug, shape, chunk_grid, reason, requirements, what, tier="required", **kw):
    doc = array_doc(shape, (1,) * len(shape), "int32", 0)
    doc["chunk_grid"] = chunk_grid
    reject_case(f"v3/grid/reject-{slug}", doc, reason, requirements, f"v3 chunk_grid {what} is rejected on open",
                needs=I4, tier=tier, **kw)


def _regular(chunk_shape):
    return {"name": "regular", "configuration": {"chunk_shape": chunk_shape}}


_bad_grid("draft-form", [4], {"name": "regular", "chunk_shape": [2]}, "invalid-chunk-grid", ["V3-GRID-001"],
          "in the draft form {'name': 'regular', 'chunk_shape': [2]} (no configuration)")
_bad_grid("no-configuration", [4], {"name": "regular"}, "invalid-chunk-grid", ["V3-GRID-001"],
          "{'name': 'regular'} without a configuration")
_bad_grid("chunk-shape-missing", [4], {"name": "regular", "configuration": {}}, "invalid-chunk-grid", ["V3-GRID-001"],
          "whose configuration lacks chunk_shape")
_bad_grid("chunk-zero", [10], _regular([0]), "invalid-chunk-shape", ["V3-GRID-009"], "chunk_shape [0] for shape [10]")
_bad_grid("chunk-zero-empty-dim", [0], _regular([0]), "invalid-chunk-shape", ["V3-GRID-009"],
          "chunk_shape [0] for shape [0] (3.0 allows it, HEAD-2026 does not; the reference takes the stricter reading)",
          tier="optional")
_bad_grid("chunk-negative", [4], _regular([-2]), "invalid-chunk-shape", ["V3-GRID-009"], "chunk_shape [-2]")
_bad_grid("chunk-float", [4], _regular([2.0]), "invalid-chunk-shape", ["V3-GRID-001"], "chunk_shape [2.0]")
_bad_grid("chunk-string", [4], _regular("2"), "invalid-chunk-shape", ["V3-GRID-001"], "chunk_shape '2'")
_bad_grid("rank-too-small", [10, 10], _regular([5]), "invalid-chunk-shape", ["V3-ARR-012"],
          "chunk_shape [5] for the 2-d shape [10, 10]")
_bad_grid("rank-too-large", [10], _regular([5, 5]), "invalid-chunk-shape", ["V3-ARR-012"],
          "chunk_shape [5, 5] for the 1-d shape [10]")
_bad_grid("0d-with-chunk", [], _regular([1]), "invalid-chunk-shape", ["V3-ARR-012", "V3-GRID-007"],
          "chunk_shape [1] for a 0-d array")


def _bad_encoding(slug, encoding, requirements, what, tier="required"):
    doc = array_doc((4,), (2,), "int32", 0)
    doc["chunk_key_encoding"] = encoding
    reject_case(f"v3/keys/reject-{slug}", doc, "invalid-chunk-key-encoding", requirements,
                f"v3 chunk_key_encoding {what} is rejected on open", needs=I4, tier=tier)


_bad_encoding("separator-dash", {"name": "default", "configuration": {"separator": "-"}}, ["V3-CKE-003"], "with separator '-'")
_bad_encoding("separator-empty", {"name": "default", "configuration": {"separator": ""}}, ["V3-CKE-003"], "with separator ''")
_bad_encoding("separator-two-chars", {"name": "default", "configuration": {"separator": "/."}}, ["V3-CKE-003"],
              "with separator '/.'")
_bad_encoding("separator-null", {"name": "default", "configuration": {"separator": None}}, ["V3-CKE-003"],
              "with separator null")
_bad_encoding("v2-separator-underscore", {"name": "v2", "configuration": {"separator": "_"}}, ["V3-CKE-003", "V3-CKE-005"],
              "v2 with separator '_'")
_bad_encoding("unknown-configuration-member", {"name": "default", "configuration": {"separator": "/", "pad": 3}},
              ["V3-CKE-001"], "default with an unknown configuration member 'pad'", tier="optional")


@case("v3/grid/reject-truncated-edge-chunk", kind="reject", needs=I4, tier="optional", requirements=["V3-GRID-004"],
      description="v3 int32 (5,) in (4,) whose edge chunk is stored truncated to its 1 in-bounds element "
                  "(N5 style) fails on read")
def _(w):
    w.put_json("zarr.json", array_doc((5,), (4,), "int32", 0))
    w.put("c/0", np.arange(4, dtype="<i4").tobytes())
    w.put("c/1", np.array([4], "<i4").tobytes())
    w.expect_reject("corrupt-chunk", stage="read")


# ---- writes ----------------------------------------------------------------------------------------

def _write(case_id, description, requirements, metadata, data, needs, tier="required", path="", **expect):
    def build(w):
        arr = data(w) if callable(data) else data
        w.expect_write(metadata=metadata, data=arr, path=path, **expect)
        if arr is not None and np.ndim(arr) == 0:
            keep_zero_d(w, arr, "input")

    add_case(case_id, kind="write", build=build, needs=[*needs, "op:write"], tier=tier, requirements=requirements,
             description=description)


def _keys(shape, chunks, key=default_key, prefix=""):
    return [prefix + "zarr.json"] + [prefix + key(i) for i in np.ndindex(*grid(shape, chunks))]


_write("v3/grid/write-160-chunk-keys",
       "v3 write of uint8 (10,19,23) in (5,2,3) chunks gives exactly 160 chunk keys, the highest c/1/9/7",
       ["V3-GRID-002", "V3-CKE-001", "V3-KEY-003"], array_doc((10, 19, 23), (5, 2, 3), "uint8", 0),
       lambda w: sample(w.rng, (10, 19, 23), "u1", avoid=np.uint8(0)), U1,
       keys=_keys((10, 19, 23), (5, 2, 3)), required_keys=["c/1/9/7"], forbidden_keys=["c/2/0/0", "c/1/10/7", "c/1/9/8"])
_write("v3/grid/write-edge-chunks-full-size",
       "v3 write of int32 (30,30) in (16,16) chunks, bytes codec only: four keys, every chunk value exactly "
       "1024 bytes (the reader's strict bytes decoding refuses any other size)",
       ["V3-GRID-004", "V3-BYTES-004"], array_doc((30, 30), (16, 16), "int32", 0),
       lambda w: sample(w.rng, (30, 30), "i4", avoid=np.int32(0)), I4, keys=_keys((30, 30), (16, 16)))
_write("v3/grid/write-0d-default", "v3 write of the 0-d int32 scalar 5 stores exactly zarr.json and the chunk key 'c'",
       ["V3-GRID-007", "V3-CKE-004"], array_doc((), (), "int32", 0), np.array(5, "i4"), I4 + ["feature:0d"],
       keys=["zarr.json", "c"])
_write("v3/grid/write-0d-v2-encoding", "v3 write of a 0-d int32 with the v2 key encoding stores the chunk at '0'",
       ["V3-GRID-007", "V3-CKE-005"], array_doc((), (), "int32", 0, encoding="v2", separator="."), np.array(5, "i4"),
       I4 + ["feature:0d", "feature:chunk-key-encoding-v2"], keys=["zarr.json", "0"])
_write("v3/grid/write-zero-length", "v3 write of float32 shape [0, 5] chunks [1, 5] stores only zarr.json",
       ["V3-GRID-008"], array_doc((0, 5), (1, 5), "float32", 0.0), np.zeros((0, 5), "f4"),
       ["dtype:float32", "codec:bytes", "feature:zero-length"], keys=["zarr.json"])
_write("v3/keys/write-root-array", "v3 write of a root int32 (4,4) array in (2,2) chunks gives zarr.json and c/0/0..c/1/1",
       ["V3-KEY-001", "V3-KEY-003"], array_doc((4, 4), (2, 2), "int32", 0),
       lambda w: sample(w.rng, (4, 4), "i4", avoid=np.int32(0)), I4, keys=_keys((4, 4), (2, 2)),
       document_members={"zarr.json": {"zarr_format": 3, "node_type": "array", "shape": [4, 4]}})
_write("v3/keys/write-nested-array", "v3 write of array foo/baz (2,1) in (1,1) chunks: chunk (1,0) at foo/baz/c/1/0, "
       "groups at zarr.json and foo/zarr.json", ["V3-KEY-002", "V3-KEY-003", "V3-GRP-006"],
       array_doc((2, 1), (1, 1), "int32", 0), lambda w: sample(w.rng, (2, 1), "i4", avoid=np.int32(0)), I4,
       path="foo/baz", keys=["zarr.json", "foo/zarr.json"] + _keys((2, 1), (1, 1), prefix="foo/baz/"),
       document_members={"zarr.json": {"node_type": "group"}, "foo/zarr.json": {"node_type": "group"}})
_write("v3/keys/write-unicode-name", "v3 write of array 'café' (NFC) under the root: keys café/zarr.json and café/c/0 in "
       "NFC UTF-8, not normalised otherwise", ["V3-KEY-004", "V3-NAME-008"], array_doc((3,), (3,), "int32", 0),
       lambda w: sample(w.rng, (3,), "i4", avoid=np.int32(0)), I4 + ["feature:unicode-names"], path="caf\u00e9",
       keys=["zarr.json", "caf\u00e9/zarr.json", "caf\u00e9/c/0"])
_write("v3/keys/write-dot-separator", "v3 write with the default encoding and separator '.': int32 (2,12) in (1,1) chunks "
       "gives keys c.0.0 .. c.1.11", ["V3-CKE-001"], array_doc((2, 12), (1, 1), "int32", 0, separator="."),
       lambda w: sample(w.rng, (2, 12), "i4", avoid=np.int32(0)), I4,
       keys=_keys((2, 12), (1, 1), key=lambda i: default_key(i, ".")))
_write("v3/keys/write-index-1-23-45", "v3 write of uint8 (2,24,46) in (1,1,1) chunks: chunk (1,23,45) is at c/1/23/45 "
       "(and never c.1.23.45)", ["V3-CKE-001"], array_doc((2, 24, 46), (1, 1, 1), "uint8", 0),
       lambda w: sample(w.rng, (2, 24, 46), "u1", avoid=np.uint8(0)), U1,
       required_keys=["c/1/23/45", "c/0/0/0", "c/1/0/9"], forbidden_keys=["c.1.23.45", "c/1/23/045", "1/23/45"])
_write("v3/keys/write-default-no-configuration", "v3 write with chunk_key_encoding {'name': 'default'} and no "
       "configuration stores chunks under c/ with '/' (the default separator)", ["V3-CKE-002", "V3-CKE-006"],
       array_doc((3, 3), (2, 2), "int32", 0, separator=None), lambda w: sample(w.rng, (3, 3), "i4", avoid=np.int32(0)),
       I4, keys=_keys((3, 3), (2, 2)))
_write("v3/keys/write-v2-slash", "v3 write with the v2 encoding and separator '/': int32 (2,12) in (1,1) gives keys "
       "0/0 .. 1/11 with no 'c' prefix", ["V3-CKE-005"], array_doc((2, 12), (1, 1), "int32", 0, encoding="v2", separator="/"),
       lambda w: sample(w.rng, (2, 12), "i4", avoid=np.int32(0)), I4 + ["feature:chunk-key-encoding-v2"],
       keys=_keys((2, 12), (1, 1), key=lambda i: v2_key(i, "/")))
_write("v3/keys/write-v2-no-configuration", "v3 write with {'name': 'v2'} and no configuration uses '.': keys 0.0 .. 2.1",
       ["V3-CKE-005"], array_doc((5, 3), (2, 2), "int32", 0, encoding="v2", separator=None),
       lambda w: sample(w.rng, (5, 3), "i4", avoid=np.int32(0)), I4 + ["feature:chunk-key-encoding-v2"],
       keys=_keys((5, 3), (2, 2), key=lambda i: v2_key(i, ".")))


@case("v3/grid/write-edge-overhang-is-fill", kind="write", needs=I4 + ["op:write"], tier="optional",
      requirements=["V3-GRID-005", "V3-GRID-004"],
      description="v3 write of int32 (30,30) in (16,16) with fill 0x20202020: the overhang of every edge chunk "
                  "holds the fill, so each chunk value is the JSON text '0' padded with whitespace")
def _(w):
    # The write expectation can only compare JSON documents, so the values are chosen to make every
    # chunk a JSON document: each chunk's first element is the bytes "0   " and all other elements are
    # made of JSON whitespace bytes. The fill 0x20202020 is four spaces; an overhang filled with
    # anything but whitespace (zeros, junk) makes the chunk invalid JSON and fails the case.
    whitespace = np.array([0x09, 0x0A, 0x0D, 0x20], "u1")
    raw = whitespace[w.rng.integers(0, 4, (30, 30, 4))]
    data = raw.reshape(-1).view("<i4").reshape(30, 30).copy()
    data[data == 0x20202020] = 0x0A202020
    for r in (0, 16):
        for c in (0, 16):
            data[r, c] = 0x20202030  # b"0   "
    doc = array_doc((30, 30), (16, 16), "int32", 0x20202020)
    w.expect_write(metadata=doc, data=data.astype("i4"), keys=_keys((30, 30), (16, 16)),
                   documents={k: 0 for k in _keys((30, 30), (16, 16))[1:]})
