"""v3 `bytes` and `transpose` codecs (V3-BYTES-*, V3-TRANS-*, V3-PIPE-003/004): the spec's byte
vectors, the non-involutive permutations, endian rules and configurations that must not open.
Chunk bytes are written by hand with NumPy."""

from __future__ import annotations

import numpy as np

from ..data import sample
from .table_kit import each
from .v3_codecs_kit import (
    BE,
    LE,
    RAW,
    fill_bits,
    needs_for,
    one_chunk_doc,
    put_chunks,
    read_case,
    transpose,
)
from .v3_kit import array_doc, bytes_codec, dtype_needs, reject_case

A24 = np.arange(24, dtype="u1").reshape(2, 3, 4)
V2_F_HEX = "000000000300000001000000040000000200000005000000"  # V2-CHUNK-006


def _vector(
    slug, requirements, description, value, data_type, codecs, raw: bytes, tier=None, extra_needs=()
):
    """One chunk holding exactly `raw`, which must read as `value`."""

    def build(w):
        w.put_json("zarr.json", one_chunk_doc(value, data_type, codecs))
        w.put("c/" + "/".join("0" * value.ndim), raw)
        w.expect_array(value)

    read_case(
        f"v3/codecs/{slug}",
        requirements,
        description,
        build,
        tier=tier,
        needs=[*dtype_needs(data_type), *needs_for(codecs), *extra_needs],
    )


# ---- bytes: C order and byte order (V3-BYTES-001..003, V3-PIPE-003) -------------------------------

_A4 = (np.arange(24, dtype=">i2") * 7 - 50).reshape(2, 3, 2, 2)
# fmt: off
VECTORS = [
    # slug, requirements, description, value, data_type, codecs, raw[, options]
    ("bytes-c-order-int32", ["V3-BYTES-003", "V3-PIPE-003"], "v3 (2,3) int32 little-endian chunk holding 0..5 in order reads as arange(6).reshape(2,3) (C order)", np.arange(6, dtype="<i4").reshape(2, 3), "int32", [LE], np.arange(6, dtype="<i4").tobytes(), {"question": "spec-read"}),
    ("bytes-c-order-rank3-uint16-be", ["V3-BYTES-003", "V3-PIPE-003"], "v3 (2,3,4) uint16 big-endian chunk holding 0..23 in order reads as arange(24).reshape(2,3,4)", np.arange(24, dtype=">u2").reshape(2, 3, 4), "uint16", [BE], np.arange(24, dtype=">u2").tobytes(), {"question": "spec-read"}),
    ("bytes-uint32-le-vector", ["V3-BYTES-001"], "v3 uint32 with endian little: bytes 01 02 03 04 read as 0x04030201", np.array([0x04030201], "u4"), "uint32", [LE], bytes.fromhex("01020304"), {"question": "spec-read"}),
    ("bytes-uint32-be-vector", ["V3-BYTES-001"], "v3 uint32 with endian big: bytes 01 02 03 04 read as 0x01020304", np.array([0x01020304], "u4"), "uint32", [BE], bytes.fromhex("01020304"), {"question": "spec-read"}),
    ("bytes-complex128-be-vector", ["V3-BYTES-001"], "v3 complex128 with endian big: two big-endian float64 (1.5 then -2.0) read as 1.5-2j", np.array([1.5 - 2j], "c16"), "complex128", [BE], np.array([1.5, -2.0], ">f8").tobytes(), {"question": "spec-read"}),
    ("bytes-uint8-no-configuration", ["V3-BYTES-002"], "v3 uint8 with {'name': 'bytes'} and no configuration opens and reads its bytes unchanged", np.array([[0, 1, 254], [255, 128, 7]], "u1"), "uint8", [RAW], bytes([0, 1, 254, 255, 128, 7]), {"question": "spec-read"}),
    ("bytes-uint8-empty-configuration", ["V3-BYTES-002"], "v3 uint8 with bytes configuration {} (endian absent) opens and reads its bytes unchanged", np.array([9, 0, 255], "u1"), "uint8", [{"name": "bytes", "configuration": {}}], bytes([9, 0, 255]), {"question": "spec-read"}),
    ("bytes-int8-no-endian", ["V3-BYTES-002"], "v3 int8 with bytes and no endian reads bytes 80 FF 7F as -128, -1, 127", np.array([-128, -1, 127], "i1"), "int8", [RAW], bytes.fromhex("80ff7f"), {"question": "spec-read"}),
    ("bytes-bool-no-endian", ["V3-BYTES-002", "V3-DT-002"], "v3 bool with bytes and no endian reads bytes 01 00 01 as true, false, true", np.array([True, False, True]), "bool", [RAW], bytes.fromhex("010001"), {"question": "spec-read"}),
    ("bytes-int8-endian-big-ignored", ["V3-BYTES-002"], "v3 int8 with endian big (allowed, without effect on one-byte types) reads bytes 80 01 as -128, 1", np.array([-128, 1], "i1"), "int8", [BE], bytes.fromhex("8001"), {"question": "spec-read"}),
    ("bytes-r16-no-endian", ["V3-BYTES-002", "V3-DT-007"], "v3 r16 with bytes and no endian (raw bits have no byte order) reads its bytes unchanged", np.frombuffer(bytes.fromhex("0102a0b0"), "V2"), "r16", [RAW], bytes.fromhex("0102a0b0"), {"question": "optional-data-type", "tier": "optional"}),
    # ---- transpose: permutations and their inverses (V3-TRANS-002/003) ---------------------------------
    ("transpose-120", ["V3-TRANS-002"], "v3 transpose [1,2,0] on uint8 arange(24).reshape(2,3,4): the stored (3,4,2) chunk decodes to the original", A24, "uint8", [transpose([1, 2, 0]), RAW], np.transpose(A24, (1, 2, 0)).tobytes(), {"question": "spec-read"}),
    ("transpose-201", ["V3-TRANS-002"], "v3 transpose [2,0,1] on uint8 arange(24).reshape(2,3,4): the stored (4,2,3) chunk decodes to the original", A24, "uint8", [transpose([2, 0, 1]), RAW], np.transpose(A24, (2, 0, 1)).tobytes(), {"question": "spec-read"}),
    ("transpose-10-equals-v2-order-F", ["V3-TRANS-003", "V3-TRANS-002"], "v3 transpose [1,0] + bytes little on (2,3) int32: the v2 order-F hex 00 03 01 04 02 05 reads as arange(6)", np.arange(6, dtype="<i4").reshape(2, 3), "int32", [transpose([1, 0]), LE], bytes.fromhex(V2_F_HEX), {"question": "spec-read"}),
    ("transpose-identity", ["V3-TRANS-002"], "v3 transpose [0,1,2] (identity) on uint8 arange(24).reshape(2,3,4) stores C order", A24, "uint8", [transpose([0, 1, 2]), RAW], A24.tobytes(), {"question": "spec-read"}),
    ("transpose-rank1", ["V3-TRANS-001", "V3-TRANS-002"], "v3 transpose [0] on a 1-d int16 array is valid and changes nothing", np.array([1, -2, 300], "i2"), "int16", [transpose([0]), LE], np.array([1, -2, 300], "<i2").tobytes(), {"question": "spec-read"}),
    ("transpose-3102-int16-be", ["V3-TRANS-002", "V3-BYTES-001"], "v3 transpose [3,1,0,2] + big-endian bytes on a (2,3,2,2) int16 chunk decodes to the original", _A4, "int16", [transpose([3, 1, 0, 2]), BE], np.transpose(_A4, (3, 1, 0, 2)).astype(">i2").tobytes(), {"question": "spec-read"}),
    ("transpose-twice-120", ["V3-TRANS-002", "V3-PIPE-002"], "v3 two transpose [1,2,0] codecs in a row: the stored chunk is the original permuted twice, shape (4,2,3)", A24, "uint8", [transpose([1, 2, 0]), transpose([1, 2, 0]), RAW], np.transpose(np.transpose(A24, (1, 2, 0)), (1, 2, 0)).tobytes(), {"question": "spec-read"}),
    ("transpose-201-then-120-cancel", ["V3-TRANS-002", "V3-PIPE-002"], "v3 transpose [2,0,1] then [1,2,0] (inverse permutations) stores plain C order", A24, "uint8", [transpose([2, 0, 1]), transpose([1, 2, 0]), RAW], A24.tobytes(), {"question": "spec-read"}),
]
# fmt: on

each(_vector, VECTORS)


def _edge_case(slug, requirements, description, data_type, shape, chunks, codecs, skip, tier=None):
    def build(w):
        dtype = np.dtype(data_type)
        fill = 0.5 if dtype.kind == "f" else -7
        fb = fill_bits(fill, dtype)
        data = sample(w.rng, shape, dtype, avoid=fb)
        doc = array_doc(shape, chunks, data_type, fill, codecs=codecs)
        w.expect_array(put_chunks(w, doc, data, fb, skip=skip))

    read_case(
        f"v3/codecs/{slug}",
        requirements,
        description,
        build,
        tier=tier,
        needs=[*dtype_needs(data_type), *needs_for(codecs)],
    )


# fmt: off
EDGES = [
    # slug, requirements, description, data_type, shape, chunks, codecs, skip[, options]
    ("transpose-120-edge-chunks", ["V3-TRANS-002", "V3-GRID-006"], "v3 int32 (3,5,4) in (2,2,3) chunks with transpose [1,2,0]: edge chunks are transposed whole (junk overhang), a missing chunk reads as fill -7", "int32", (3, 5, 4), (2, 2, 3), [transpose([1, 2, 0]), LE], {(0, 1, 1)}),
    ("transpose-01-edge-float32-be", ["V3-TRANS-002", "V3-BYTES-001"], "v3 float32 (5,7) in (2,3) chunks with transpose [0,1] and big-endian bytes: junk overhang, NaN payload and -0.0 exact, a missing chunk reads as 0.5", "float32", (5, 7), (2, 3), [transpose([0, 1]), BE], {(1, 2)}),
]
# fmt: on

each(_edge_case, EDGES, question="spec-read")


# ---- configurations that must not open (V3-BYTES-001/002, V3-TRANS-001, V3-PIPE-004) ---------------


def _bad(
    slug,
    codecs,
    reason,
    requirements,
    description,
    data_type="int32",
    fill=0,
    tier=None,
    needs=(),
    shape=(4, 6),
    chunks=(2, 3),
):
    doc = array_doc(shape, chunks, data_type, fill, codecs=codecs)
    reject_case(
        f"v3/codecs/{slug}",
        doc,
        reason,
        requirements,
        f"v3 {data_type} array {description} is rejected on open",
        needs=[*dtype_needs(data_type), *needs_for(codecs), *needs],
        tier=tier,
    )


# fmt: off
REJECTS = [
    # slug, codecs, reason, requirements, description[, options]
    ("reject-bytes-endian-native", [bytes_codec("native")], "invalid-codec", ["V3-BYTES-001"], "with bytes endian 'native'", {"tests": "endian", "question": "invalid-value"}),
    ("reject-bytes-endian-uppercase", [bytes_codec("LITTLE")], "invalid-codec", ["V3-BYTES-001"], "with bytes endian 'LITTLE' (values are case-sensitive)", {"tests": "endian", "question": "case-variant"}),
    ("reject-bytes-endian-null", [{"name": "bytes", "configuration": {"endian": None}}], "invalid-codec", ["V3-BYTES-001"], "with bytes endian null", {"tests": "endian", "question": "null-mandatory"}),
    ("reject-bytes-endian-number", [{"name": "bytes", "configuration": {"endian": 1}}], "invalid-codec", ["V3-BYTES-001"], "with bytes endian 1", {"tests": "endian", "question": "invalid-value"}),
    ("reject-bytes-endian-short", [bytes_codec("le")], "invalid-codec", ["V3-BYTES-001"], "with bytes endian 'le'", {"tests": "endian", "question": "invalid-value"}),
    ("reject-bytes-int16-no-endian", [RAW], "invalid-codec", ["V3-BYTES-002"], "with {'name': 'bytes'} for the multi-byte type int16", {"tests": "endian", "question": "byte-order-unspecified", "data_type": "int16"}),
    ("reject-bytes-float64-empty-configuration", [{"name": "bytes", "configuration": {}}], "invalid-codec", ["V3-BYTES-002"], "with bytes configuration {} for the multi-byte type float64", {"tests": "endian", "question": "byte-order-unspecified", "data_type": "float64"}),
    ("reject-bytes-complex64-no-endian", [RAW], "invalid-codec", ["V3-BYTES-002"], "with bytes and no endian for complex64", {"tests": "endian", "question": "byte-order-unspecified", "data_type": "complex64", "fill": [0.0, 0.0]}),
    ("reject-bytes-uint64-no-endian", [RAW], "invalid-codec", ["V3-BYTES-002"], "with bytes and no endian for uint64", {"tests": "endian", "question": "byte-order-unspecified", "data_type": "uint64"}),
    ("reject-bytes-unknown-member", [{"name": "bytes", "configuration": {"endian": "little", "order": "C"}}], "invalid-codec", ["V3-BYTES-001"], "with an unknown bytes configuration member 'order'", {"tests": "configuration", "question": "unknown-configuration-member"}),
    ("reject-bytes-on-string", [bytes_codec("little")], "invalid-codec", ["V3-PIPE-004"], "of the variable-length type 'string' with the fixed-size bytes codec", {"question": "codec-input", "data_type": "string", "fill": "", "tier": "extension"}),
    ("reject-transpose-order-F", [{"name": "transpose", "configuration": {"order": "F"}}, LE], "invalid-order", ["V3-TRANS-001"], "with transpose order 'F' (the removed pre-3.0 constant)", {"tests": "order", "question": "other-version-form"}),
    ("reject-transpose-order-C", [{"name": "transpose", "configuration": {"order": "C"}}, LE], "invalid-order", ["V3-TRANS-001"], "with transpose order 'C' (the removed pre-3.0 constant)", {"tests": "order", "question": "other-version-form"}),
    ("reject-transpose-order-duplicate", [transpose([0, 0]), LE], "invalid-order", ["V3-TRANS-001"], "with transpose order [0,0] (not a permutation)", {"tests": "order", "question": "invalid-value"}),
    ("reject-transpose-order-out-of-range", [transpose([0, 2]), LE], "invalid-order", ["V3-TRANS-001"], "with transpose order [0,2] for rank 2", {"tests": "order", "question": "invalid-value"}),
    ("reject-transpose-order-negative", [transpose([-1, 0]), LE], "invalid-order", ["V3-TRANS-001"], "with transpose order [-1,0] (no negative axes)", {"tests": "order", "question": "invalid-value"}),
    ("reject-transpose-order-floats", [transpose([1.0, 0.0]), LE], "invalid-order", ["V3-TRANS-001"], "with transpose order [1.0,0.0] (not integers; JSON readers without an integer type may accept it)", {"tests": "order", "question": "integer-as-float"}),
    ("reject-transpose-order-booleans", [transpose([True, False]), LE], "invalid-order", ["V3-TRANS-001"], "with transpose order [true,false] (booleans are not integers)", {"tests": "order", "question": "scalar-spelling"}),
    ("reject-transpose-order-missing", [{"name": "transpose", "configuration": {}}, LE], "invalid-codec", ["V3-TRANS-001"], "with a transpose configuration without order", {"tests": "order", "question": "missing-member"}),
    ("reject-transpose-no-configuration", [{"name": "transpose"}, LE], "invalid-codec", ["V3-TRANS-001"], "with a transpose codec without configuration (order is required)", {"tests": "order", "question": "missing-member"}),
    ("reject-transpose-rank3-order-on-rank2", [transpose([2, 1, 0]), LE], "invalid-order", ["V3-PIPE-004", "V3-TRANS-001"], "with transpose order [2,1,0] of length 3 on rank-2 chunks", {"tests": "order", "question": "codec-input"}),
    ("reject-transpose-rank1-order-on-rank2", [transpose([0]), LE], "invalid-order", ["V3-PIPE-004", "V3-TRANS-001"], "with transpose order [0] of length 1 on rank-2 chunks", {"tests": "order", "question": "codec-input"}),
    ("reject-transpose-unknown-member", [{"name": "transpose", "configuration": {"order": [1, 0], "axes": [1, 0]}}, LE], "invalid-codec", ["V3-TRANS-001"], "with an unknown transpose configuration member 'axes'", {"tests": "order", "question": "unknown-configuration-member"}),
]
# fmt: on

each(_bad, REJECTS)


# ---- chunks of the wrong size (V3-BYTES-004) ----------------------------------------------------


def _bad_chunk(slug, raw: bytes, description, tier=None, requirements=("V3-BYTES-004",)):
    doc = array_doc((2,), (2,), "int32", 0, codecs=[LE])
    reject_case(
        f"v3/codecs/{slug}",
        doc,
        "corrupt-chunk",
        list(requirements),
        description,
        stage="read",
        needs=["dtype:int32", "codec:bytes"],
        tier=tier,
        extra={"c/0": raw},
    )


# fmt: off
CORRUPT = [
    # slug, raw, description[, options]
    ("reject-bytes-chunk-5-bytes", bytes(range(1, 6)), "v3 (2,) int32 with a 5-byte chunk (8 expected) fails on read: no padding or truncation"),
    ("reject-bytes-chunk-9-bytes", bytes(range(1, 10)), "v3 (2,) int32 with a 9-byte chunk (8 expected) fails on read"),
    ("reject-bytes-chunk-empty", b"", "v3 (2,) int32 with an empty (0-byte) chunk value fails on read"),
]
# fmt: on

each(_bad_chunk, CORRUPT, question="corrupt-chunk", tests="fixed size")
