"""v3 regular chunk grid (V3-GRID-*, V3-ARR-012): edge chunks and their overhang, index arithmetic,
0-d and zero-length arrays, malformed grids, and the chunk keys and sizes a writer must produce."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import case
from .table_kit import array, each, hand_case, reject
from .v3_kit import JUNK, all_keys, array_doc, bytes_codec, put_array, reject_case, write_case

I4 = ["dtype:int32", "codec:bytes"]
U1 = ["dtype:uint8", "codec:bytes"]


# ---- reads: edge chunks and index arithmetic (V3-GRID-003, V3-GRID-006) ---------------------------


# fmt: off
HAND_BUILT = [
    # case id, needs, requirements, description, the store key by key, what it must do[, options]
    ("v3/grid/edge-sentinel-1d", ["dtype:int8", "codec:bytes"], ["V3-GRID-006"], "v3 int8 shape (5,) chunks (4,): chunk 1 holds [7, 7f, 7f, 7f] and the array ends in 7", {"zarr.json": array_doc((5,), (4,), "int8", 0), "c/0": bytes([1, 2, 3, 4]), "c/1": bytes([7, JUNK, JUNK, JUNK])}, array(np.array([1, 2, 3, 4, 7], "i1")), {"question": "spec-read"}),
    ("v3/grid/0d-default-key-c", ["dtype:float64", "codec:bytes", "feature:0d"], ["V3-GRID-007", "V3-CKE-004", "V3-ARR-004"], "v3 0-d float64 (shape [], chunk_shape []): the one chunk is at key 'c' and reads as -2.5", {"zarr.json": array_doc((), (), "float64", 0.0), "c": np.array(-2.5, "<f8").tobytes()}, array(np.array(-2.5)), {"question": "spec-read"}),
    ("v3/grid/0d-dot-separator-key-c", ["dtype:int16", "codec:bytes", "feature:0d"], ["V3-GRID-007", "V3-CKE-004"], "v3 0-d int16 with the default encoding and separator '.': the chunk key is still 'c'", {"zarr.json": array_doc((), (), "int16", 0, separator=".", codecs=[bytes_codec("big")]), "c": np.array(-300, ">i2").tobytes()}, array(np.array(-300, "i2")), {"question": "spec-read"}),
    ("v3/grid/0d-v2-key-0", ["dtype:uint32", "codec:bytes", "feature:0d", "feature:chunk-key-encoding-v2"], ["V3-GRID-007", "V3-CKE-005"], "v3 0-d uint32 with the v2 key encoding: the one chunk is at key '0' (a decoy at 'c')", {"zarr.json": array_doc((), (), "uint32", 0, encoding="v2", separator="."), "0": np.array(4000000000, "<u4").tobytes(), "c": np.array(13, "<u4").tobytes()}, array(np.array(4000000000, "u4")), {"question": "spec-read"}),
    ("v3/grid/0d-missing-chunk", ["dtype:int64", "codec:bytes", "feature:0d"], ["V3-GRID-007", "V3-FILL-009"], "v3 0-d int64 with no chunk key reads as its fill -9223372036854775808", {"zarr.json": array_doc((), (), "int64", -(2**63))}, array(np.array(-(2**63), "i8")), {"question": "spec-read"}),
    ("v3/grid/zero-length-2d", ["dtype:float32", "codec:bytes", "feature:zero-length"], ["V3-GRID-008", "V3-ARR-004"], "v3 float32 shape [0, 5] chunks [1, 5]: reads an empty (0, 5) array; the store holds only zarr.json", {"zarr.json": array_doc((0, 5), (1, 5), "float32", 0.0)}, array(np.zeros((0, 5), "f4")), {"question": "spec-read"}),
    ("v3/grid/zero-length-stray-chunk", I4 + ["feature:zero-length"], ["V3-GRID-008"], "v3 int32 shape [4, 0] chunks [2, 3]: a stray key c/0/0 is not a chunk of the empty grid", {"zarr.json": array_doc((4, 0), (2, 3), "int32", 0), "c/0/0": np.arange(6, dtype="<i4").tobytes()}, array(np.zeros((4, 0), "i4")), {"question": "spec-silent"}),
    ("v3/grid/zero-length-1d", U1 + ["feature:zero-length"], ["V3-GRID-008"], "v3 uint8 shape [0] chunks [4] reads an empty 1-d array", {"zarr.json": array_doc((0,), (4,), "uint8", 1)}, array(np.zeros((0,), "u1")), {"question": "spec-read"}),
    ("v3/grid/reject-truncated-edge-chunk", I4, ["V3-GRID-004"], "v3 int32 (5,) in (4,) whose edge chunk is stored truncated to its 1 in-bounds element (N5 style) fails on read", {"zarr.json": array_doc((5,), (4,), "int32", 0), "c/0": np.arange(4, dtype="<i4").tobytes(), "c/1": np.array([4], "<i4").tobytes()}, reject("corrupt-chunk", stage="read"), {"question": "corrupt-chunk"}),
]
# fmt: on

each(hand_case, HAND_BUILT, tests="full chunk size")


@case(
    "v3/grid/edge-junk-3d",
    kind="read",
    needs=["dtype:uint16", "codec:bytes"],
    requirements=["V3-GRID-003", "V3-GRID-006", "V3-FILL-009"],
    description="v3 uint16 (5,7,3) in (2,3,2) chunks: 7f7f junk in every overhang, one chunk missing",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (5, 7, 3), "u2", avoid=np.uint16(9))
    doc = array_doc((5, 7, 3), (2, 3, 2), "uint16", 9)
    w.expect_array(
        put_array(w, "", doc, data, fill_bits=np.array(9, "u2"), skip={(1, 2, 0)}, endian="little")
    )


@case(
    "v3/grid/single-element-3d",
    kind="read",
    needs=U1,
    requirements=["V3-GRID-003", "V3-GRID-006", "V3-FILL-009"],
    description="v3 uint8 (8,31,14) in (3,4,5) chunks, only chunk (1,7,2) stored: its element at local "
    "(2,2,3) is the array element (5,30,13); everything else reads as the fill 3",
    question="spec-read",
)
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


@case(
    "v3/grid/element-placement-2d",
    kind="read",
    needs=I4,
    requirements=["V3-GRID-003"],
    description="v3 int32 (9,20) in (4,7) chunks: values in chunks (2,1) and (0,2) land at (8,13) and "
    "(3,19), catching swapped or transposed chunk arithmetic",
    question="spec-read",
)
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


@case(
    "v3/grid/chunk-larger-than-array",
    kind="read",
    needs=["dtype:float32", "codec:bytes"],
    requirements=["V3-GRID-002", "V3-GRID-006"],
    description="v3 float32 (3,2) in one (10,10) chunk: the 94 overhang elements are junk and never read",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (3, 2), "f4", avoid=np.float32(0))
    doc = array_doc((3, 2), (10, 10), "float32", 0.0)
    w.expect_array(put_array(w, "", doc, data, fill_bits=np.array(0, "f4"), endian="little"))


@case(
    "v3/grid/stale-chunk-beyond-shape",
    kind="read",
    needs=I4,
    tier="optional",
    requirements=["V3-GRID-010", "V3-GRID-006"],
    description="v3 int32 (6,) in (4,) chunks after a shrink: stale values in chunk 1's overhang and a "
    "stale chunk c/2 beyond the grid are not part of the array",
    question="spec-silent",
)
def _(w):
    data = sample(w.rng, (6,), "i4", avoid=np.int32(0))
    w.put_json("zarr.json", array_doc((6,), (4,), "int32", 0))
    w.put("c/0", data[:4].astype("<i4").tobytes())
    w.put("c/1", np.array([data[4], data[5], 55, 66], "<i4").tobytes())
    w.put("c/2", np.array([77, 88, 99, 11], "<i4").tobytes())
    w.expect_array(data)


# ---- reads: 0-d and zero-length arrays (V3-GRID-007, V3-GRID-008, V3-CKE-004/005) ------------------


# ---- rejects ---------------------------------------------------------------------------------------


def _bad_grid(slug, shape, chunk_grid, reason, requirements, what, tier=None, **kw):
    doc = array_doc(shape, (1,) * len(shape), "int32", 0)
    doc["chunk_grid"] = chunk_grid
    reject_case(
        f"v3/grid/reject-{slug}",
        doc,
        reason,
        requirements,
        f"v3 chunk_grid {what} is rejected on open",
        needs=I4,
        tier=tier,
        **kw,
    )


def _regular(chunk_shape):
    return {"name": "regular", "configuration": {"chunk_shape": chunk_shape}}


# fmt: off
GRID_FAULTS = [
    # slug, shape, chunk_grid, reason, requirements, what[, options]
    ("draft-form", [4], {"name": "regular", "chunk_shape": [2]}, "invalid-chunk-grid", ["V3-GRID-001"], "in the draft form {'name': 'regular', 'chunk_shape': [2]} (no configuration)", {"tests": "chunk_shape", "question": "other-version-form"}),
    ("no-configuration", [4], {"name": "regular"}, "invalid-chunk-grid", ["V3-GRID-001"], "{'name': 'regular'} without a configuration", {"tests": "chunk_shape", "question": "missing-member"}),
    ("chunk-shape-missing", [4], {"name": "regular", "configuration": {}}, "invalid-chunk-grid", ["V3-GRID-001"], "whose configuration lacks chunk_shape", {"tests": "chunk_shape", "question": "missing-member"}),
    ("chunk-zero", [10], _regular([0]), "invalid-chunk-shape", ["V3-GRID-009"], "chunk_shape [0] for shape [10]", {"tests": "chunk_shape", "question": "chunk-size-zero"}),
    # zarr-python 2.18.7 to 3.2.1 stored 0 or false for some chunk sizes; 3.4.1 reads both as 1 on purpose
    ("chunk-false", [10], _regular([False]), "invalid-chunk-shape", ["V3-GRID-009"], "chunk_shape [false] for shape [10] (a boolean for the size, as zarr-python wrote for chunks=False)", {"tests": "chunk_shape", "question": "chunk-size-zero"}),
    ("chunk-true", [4], _regular([True]), "invalid-chunk-shape", ["V3-GRID-001"], "chunk_shape [true] for shape [4] (zarr-python 3.0 and 3.2 wrote it for chunks=True)", {"tests": "chunk_shape", "question": "scalar-spelling"}),
    ("chunk-shape-mixed-list", [2, 20], _regular([2, [5, 10, 5]]), "invalid-chunk-shape", ["V3-GRID-001"], "chunk_shape [2, [5, 10, 5]] under the regular grid (zarr-python 3.2.0 and 3.2.1 wrote rectilinear edges there)", {"tests": "chunk_shape", "question": "rectilinear-in-regular"}),
    ("chunk-zero-empty-dim", [0], _regular([0]), "invalid-chunk-shape", ["V3-GRID-009"], "chunk_shape [0] for shape [0] (3.0 allows it, HEAD-2026 does not; the reference takes the stricter reading)", {"question": "versions-disagree"}),
    ("chunk-negative", [4], _regular([-2]), "invalid-chunk-shape", ["V3-GRID-009"], "chunk_shape [-2]", {"tests": "chunk_shape", "question": "invalid-value"}),
    ("chunk-float", [4], _regular([2.0]), "invalid-chunk-shape", ["V3-GRID-001"], "chunk_shape [2.0]", {"tests": "chunk_shape", "question": "integer-as-float"}),
    ("chunk-string", [4], _regular("2"), "invalid-chunk-shape", ["V3-GRID-001"], "chunk_shape '2'", {"tests": "chunk_shape", "question": "wrong-structure"}),
    ("rank-too-small", [10, 10], _regular([5]), "invalid-chunk-shape", ["V3-ARR-012"], "chunk_shape [5] for the 2-d shape [10, 10]", {"tests": "dimensionality", "question": "invalid-value"}),
    ("rank-too-large", [10], _regular([5, 5]), "invalid-chunk-shape", ["V3-ARR-012"], "chunk_shape [5, 5] for the 1-d shape [10]", {"tests": "dimensionality", "question": "invalid-value"}),
    ("0d-with-chunk", [], _regular([1]), "invalid-chunk-shape", ["V3-ARR-012", "V3-GRID-007"], "chunk_shape [1] for a 0-d array", {"tests": "dimensionality", "question": "invalid-value"}),
]
# fmt: on

each(_bad_grid, GRID_FAULTS)


# ---- writes ----------------------------------------------------------------------------------------

# fmt: off
WRITES = [
    # case_id, description, requirements, metadata, data, needs[, options]
    ("v3/grid/write-160-chunk-keys", "v3 write of uint8 (10,19,23) in (5,2,3) chunks gives exactly 160 chunk keys, the highest c/1/9/7", ["V3-GRID-002", "V3-CKE-001", "V3-KEY-003"], array_doc((10, 19, 23), (5, 2, 3), "uint8", 0), lambda w: sample(w.rng, (10, 19, 23), "u1", avoid=np.uint8(0)), U1, {"keys": all_keys((10, 19, 23), (5, 2, 3)), "required_keys": ["c/1/9/7"], "forbidden_keys": ["c/2/0/0", "c/1/10/7", "c/1/9/8"]}),
    ("v3/grid/write-edge-chunks-full-size", "v3 write of int32 (30,30) in (16,16) chunks, bytes codec only: four keys, every chunk value exactly 1024 bytes (the reader's strict bytes decoding refuses any other size)", ["V3-GRID-004", "V3-BYTES-004"], array_doc((30, 30), (16, 16), "int32", 0), lambda w: sample(w.rng, (30, 30), "i4", avoid=np.int32(0)), I4, {"keys": all_keys((30, 30), (16, 16))}),
    ("v3/grid/write-0d-default", "v3 write of the 0-d int32 scalar 5 stores exactly zarr.json and the chunk key 'c'", ["V3-GRID-007", "V3-CKE-004"], array_doc((), (), "int32", 0), np.array(5, "i4"), I4 + ["feature:0d"], {"keys": ["zarr.json", "c"]}),
    ("v3/grid/write-0d-v2-encoding", "v3 write of a 0-d int32 with the v2 key encoding stores the chunk at '0'", ["V3-GRID-007", "V3-CKE-005"], array_doc((), (), "int32", 0, encoding="v2", separator="."), np.array(5, "i4"), I4 + ["feature:0d", "feature:chunk-key-encoding-v2"], {"keys": ["zarr.json", "0"]}),
    ("v3/grid/write-zero-length", "v3 write of float32 shape [0, 5] chunks [1, 5] stores only zarr.json", ["V3-GRID-008"], array_doc((0, 5), (1, 5), "float32", 0.0), np.zeros((0, 5), "f4"), ["dtype:float32", "codec:bytes", "feature:zero-length"], {"keys": ["zarr.json"]}),
]
# fmt: on

each(write_case, WRITES, question="spec-write")


@case(
    "v3/grid/write-edge-overhang-is-fill",
    kind="write",
    needs=I4 + ["op:write"],
    tier="optional",
    requirements=["V3-GRID-005", "V3-GRID-004"],
    description="v3 write of int32 (30,30) in (16,16) with fill 0x20202020: the overhang of every edge chunk "
    "holds the fill, so each chunk value is the JSON text '0' padded with whitespace",
    question="should",
)
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
    keys = all_keys((30, 30), (16, 16))
    w.expect_write(
        metadata=doc,
        data=data.astype("i4"),
        keys=keys,
        documents={k: 0 for k in keys[1:]},
        exact_basis=["V3-GRID-005"],
    )  # a SHOULD: hence tier optional
