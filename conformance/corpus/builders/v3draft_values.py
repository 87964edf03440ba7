"""v3-draft read cases about values: core data types and fallbacks, the default little-endian
representation, chunk memory layouts, fill values, codec URIs and the sharding storage transformer
(V3DRAFT-META-006..015)."""

from __future__ import annotations

import zlib

import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .v3draft_kit import (
    SHARDING_URI_DECLARED,
    array_doc,
    blosc_codec,
    chunk_bytes,
    dtype_need,
    endian_codec,
    fill_array,
    gzip_codec,
    meta_key,
    numpy_dtype,
    put_array,
    put_entry,
    put_sharded,
    sharding,
)

# ---- core data types, no codecs: the default little-endian representation (V3DRAFT-META-006/008/012) ----

# complex and r* have only the bit-string fill forms in this draft (all zero bits: no ordering question)
_ZERO = {
    "bool": False,
    "r24": "0x000000",
    "complex64": "0x" + "0" * 16,
    "complex128": "0x" + "0" * 32,
}
for _name in (
    "bool",
    "int8",
    "int16",
    "int32",
    "uint8",
    "uint16",
    "uint32",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "r24",
):

    def _build(w, name=_name):
        dtype = numpy_dtype(name)
        fill = _ZERO.get(name, 0)
        fill_bits = np.zeros((), dtype)
        data = sample(w.rng, (5, 3), dtype, avoid=fill_bits)
        doc = array_doc((5, 3), (2, 2), name, fill)
        w.node = "a"
        w.expect_array(put_array(w, "a", doc, data, fill_bits, skip={(2, 1)}))

    # float16 and r* are optional in this draft's type table
    add_case(
        f"v3-draft/dtypes/{_name}",
        kind="read",
        build=_build,
        needs=[dtype_need(_name)],
        question="optional-data-type" if _name in ("float16", "r24") else "spec-read",
        requirements=["V3DRAFT-META-006", "V3DRAFT-META-008", "V3DRAFT-META-012"],
        description=f"draft {_name} (5,3) in (2,2) chunks with no codecs: raw little-endian bytes, chunk (2,1) absent",
    )


@case(
    "v3-draft/dtypes/int16-little-endian-bytes",
    kind="read",
    needs=["dtype:int16"],
    requirements=["V3DRAFT-META-008", "V3DRAFT-META-012"],
    description="draft int16 chunk bytes 01 00 ff 7f 00 80 with no codecs read as [1, 32767, -32768]",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("a"), array_doc((3,), (3,), "int16", 0))
    w.put("data/a/c0", bytes.fromhex("0100ff7f0080"))
    w.node = "a"
    w.expect_array(np.array([1, 32767, -32768], "<i2"))


def _fallback_case(case_id, fallback, dtype, need, description):
    def build(w):
        data_type = {
            "extension": "https://example.org/zarr/data-types/celsius/1.0",
            "type": "celsius",
            "fallback": fallback,
        }
        data = sample(w.rng, (6,), dtype, avoid=np.zeros((), dtype))
        w.node = "a"
        w.expect_array(
            put_array(
                w, "a", array_doc((6,), (4,), data_type, 0), data, np.zeros((), dtype), skip={(1,)}
            )
        )

    add_case(
        case_id,
        kind="read",
        build=build,
        tier="optional",
        needs=[f"dtype:{need}", "feature:extension-data-type-fallback"],
        requirements=["V3DRAFT-META-007"],
        description=description,
    )


with verdict(question="should"):
    _fallback_case(
        "v3-draft/dtypes/extension-fallback-int32",
        "int32",
        "<i4",
        "int32",
        "draft unknown extension data type with fallback 'int32' reads as int32",
    )
with verdict(question="should"):
    _fallback_case(
        "v3-draft/dtypes/extension-fallback-list",
        ["float128", "uint16", "int32"],
        "<u2",
        "uint16",
        "draft unknown extension data type with fallbacks [float128, uint16, int32] reads as the first known, uint16",
    )


# ---- chunk memory layout (V3DRAFT-META-010) --------------------------------------------------------------


@case(
    "v3-draft/layout/F-v2-chunk-006-bytes",
    kind="read",
    needs=["dtype:int32", "feature:order-F"],
    requirements=["V3DRAFT-META-010", "V3DRAFT-META-012"],
    description="draft chunk_memory_layout F int32 (2,3): chunk hex 00000000 03000000 01000000 04000000 "
    "02000000 05000000 reads as arange(6).reshape(2,3)",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("a"), array_doc((2, 3), (2, 3), "int32", 0, layout="F"))
    w.put("data/a/c0/0", np.array([0, 3, 1, 4, 2, 5], "<i4").tobytes())
    w.node = "a"
    w.expect_array(np.arange(6, dtype="<i4").reshape(2, 3))


@case(
    "v3-draft/layout/F-gzip-edges",
    kind="read",
    needs=["dtype:int16", "feature:order-F", "codec:gzip"],
    requirements=["V3DRAFT-META-010", "V3DRAFT-META-013"],
    description="draft F layout int16 (5,7) in (2,3) gzip chunks with junk overhang and chunk (0,2) absent",
    question="spec-read",
)
def _(w):
    doc = array_doc((5, 7), (2, 3), "int16", -1, layout="F", codecs=[gzip_codec(5)])
    data = sample(w.rng, (5, 7), "<i2", avoid=np.int16(-1))
    w.node = "a"
    w.expect_array(put_array(w, "a", doc, data, np.array(-1, "<i2"), skip={(0, 2)}))


@case(
    "v3-draft/layout/F-3d-big-endian",
    kind="read",
    needs=["dtype:uint16", "feature:order-F", "codec:endian", "dtype:big-endian"],
    requirements=["V3DRAFT-META-010", "V3DRAFT-META-008"],
    description="draft F layout 3-d uint16 (3,4,5) in (2,3,4) chunks through the endian codec (big)",
    question="spec-read",
)
def _(w):
    doc = array_doc((3, 4, 5), (2, 3, 4), "uint16", 9, layout="F", codecs=[endian_codec("big")])
    data = sample(w.rng, (3, 4, 5), "<u2", avoid=np.uint16(9))
    w.node = "a"
    w.expect_array(put_array(w, "a", doc, data, np.array(9, "<u2"), skip={(1, 0, 1)}))


# ---- fill values (V3DRAFT-META-011) ----------------------------------------------------------------------


def _bits(dtype: str, value: int) -> np.ndarray:
    dt = np.dtype(dtype)
    return np.frombuffer(value.to_bytes(dt.itemsize, "little"), dtype=dt).reshape(()).copy()


# fmt: off
FILLS = [
    # (case, data_type, JSON fill, exact fill bits, question, description)
    ("plus-infinity-float32", "float32", "+Infinity", np.array(np.inf, "<f4"), "spec-read", "'+Infinity' is float32 +inf"),
    ("minus-infinity-float64", "float64", "-Infinity", np.array(-np.inf, "<f8"), "spec-read", "'-Infinity' is float64 -inf"),
    ("nan-float64", "float64", "NaN", _bits("<f8", 0x7FF8000000000000), "spec-read", "'NaN' is the quiet NaN 0x7ff8000000000000"),
    ("hex-float32-one", "float32", "0x3f800000", np.array(1.0, "<f4"), "spec-read", "'0x3f800000' is float32 1.0"),
    ("bin-float32-one", "float32", "0b00111111100000000000000000000000", np.array(1.0, "<f4"), "spec-read", "'0b00111111100000000000000000000000' is float32 1.0"),
    ("hex-nan-payload-float64", "float64", "0x7ff8000000000001", _bits("<f8", 0x7FF8000000000001), "spec-read", "'0x7ff8000000000001' keeps its NaN payload bit-exactly"),
    # For signed integers the draft does not say whether '0x...' is the bit pattern or the value
    # (0xfffe = 65534 would be out of range); the reference reads bits.
    ("hex-int16", "int16", "0xfffe", np.array(-2, "<i2"), "versions-disagree", "'0xfffe' is int16 -2 (two's complement bits)"),
    ("bin-uint8", "uint8", "0b10000001", np.array(129, "|u1"), "spec-read", "'0b10000001' is uint8 129"),
    ("bool-true", "bool", True, np.array(True), "spec-read", "true is the bool fill"),
    ("uint32-max", "uint32", 4294967295, np.array(4294967295, "<u4"), "spec-read", "4294967295 is the uint32 fill"),
    ("int32-min", "int32", -2147483648, np.array(-2147483648, "<i4"), "spec-read", "-2147483648 is the int32 fill"),
    # The draft does not say in which order the bits of complex and r* fills are written: the reference
    # reads complex as real bits then imaginary bits, r* as the bytes in storage order.
    ("hex-complex64", "complex64", "0x3f800000c0000000", np.array(1 - 2j, "<c8"), "versions-disagree", "'0x3f800000c0000000' is complex64 1-2j (real bits, then imaginary bits)"),
    ("hex-r16", "r16", "0xa1b2", np.frombuffer(b"\xa1\xb2", "V2").reshape(()).copy(), "versions-disagree", "'0xa1b2' is the r16 bytes a1 b2"),
]
# fmt: on

for _case, _dt, _json, _fill, _question, _what in FILLS:

    def _build(w, data_type=_dt, json_fill=_json, fill=_fill):
        dtype = numpy_dtype(data_type)
        data = sample(w.rng, (7,), dtype, avoid=fill)
        doc = array_doc((7,), (3,), data_type, json_fill)
        w.node = "a"
        w.expect_array(put_array(w, "a", doc, data, fill.astype(dtype), skip={(1,)}))

    add_case(
        f"v3-draft/fill/{_case}",
        kind="read",
        build=_build,
        question=_question,
        needs=[dtype_need(_dt)],
        requirements=["V3DRAFT-META-011"],
        description=f"draft fill_value {_what}: the absent middle chunk of a (7,) array in (3,) chunks reads as it",
    )


@case(
    "v3-draft/fill/all-chunks-missing",
    kind="read",
    needs=["dtype:float32"],
    requirements=["V3DRAFT-META-011"],
    description="draft float32 (4,6) with no chunks at all and fill '-Infinity' reads as all -inf",
    question="spec-read",
)
def _(w):
    put_entry(w)
    w.put_json(meta_key("a"), array_doc((4, 6), (3, 4), "float32", "-Infinity"))
    w.node = "a"
    w.expect_array(fill_array(np.array(-np.inf, "<f4"), (4, 6)))


# ---- codecs by URI (V3DRAFT-META-012/013) ----------------------------------------------------------------

# fmt: off
CODEC_CASES = [
    # (case, data_type, codecs, needs, question, description)
    ("gzip", "int32", [gzip_codec(1)], ["codec:gzip"], "spec-read", "gzip (https://purl.org/zarr/spec/codecs/gzip/1.0, level 1)"),
    ("gzip-level-9", "float64", [gzip_codec(9)], ["codec:gzip"], "spec-read", "gzip level 9"),
    ("blosc-lz4-byteshuffle", "float32", [blosc_codec("lz4", 5, 1)], ["codec:blosc"], "spec-read", "blosc lz4 with the integer shuffle 1"),
    ("blosc-zstd-bitshuffle", "uint16", [blosc_codec("zstd", 3, 2)], ["codec:blosc"], "spec-read", "blosc zstd with the integer shuffle 2"),
    ("blosc-autoshuffle", "int16", [blosc_codec("blosclz", 1, -1)], ["codec:blosc"], "spec-read", "blosc blosclz with shuffle -1 (default shuffling)"),
    ("endian-big", "int32", [endian_codec("big")], ["codec:endian", "dtype:big-endian"], "spec-read", "the endian codec (big): big-endian int32 bytes"),
    ("endian-little", "uint32", [endian_codec("little")], ["codec:endian"], "spec-read", "the endian codec (little), the same bytes as no codec"),
    ("endian-big-gzip", "complex128", [endian_codec("big"), gzip_codec(1)], ["codec:endian", "codec:gzip", "dtype:big-endian"], "spec-read", "endian (big) then gzip on complex128"),
]
# fmt: on

for _case, _dt, _codecs, _needs, _question, _what in CODEC_CASES:

    def _build(w, data_type=_dt, codecs=_codecs):
        dtype = numpy_dtype(data_type)
        data = sample(w.rng, (9, 5), dtype, avoid=np.zeros((), dtype))
        doc = array_doc((9, 5), (4, 3), data_type, _ZERO.get(data_type, 0), codecs=codecs)
        w.node = "a"
        w.expect_array(put_array(w, "a", doc, data, np.zeros((), dtype), skip={(1, 1)}))

    add_case(
        f"v3-draft/codecs/{_case}",
        kind="read",
        build=_build,
        question=_question,
        needs=[dtype_need(_dt), *_needs],
        requirements=["V3DRAFT-META-013", "V3DRAFT-META-012"],
        description=f"draft {_dt} (9,5) in (4,3) chunks with {_what}; chunk (1,1) absent",
    )


@case(
    "v3-draft/codecs/gzip-zlib-container",
    kind="read",
    needs=["dtype:int32", "codec:gzip"],
    tier="optional",
    requirements=["V3DRAFT-META-013"],
    description="draft gzip codec whose chunks are zlib (RFC 1950) streams: the container is only a SHOULD",
    question="should",
)
def _(w):
    doc = array_doc((5, 7), (2, 3), "int32", 42, codecs=[gzip_codec(1)])
    data = sample(w.rng, (5, 7), "<i4", avoid=np.int32(42))
    raw = lambda block: zlib.compress(np.ascontiguousarray(block, "<i4").tobytes(), 1)  # noqa: E731
    w.node = "a"
    w.expect_array(put_array(w, "a", doc, data, np.array(42, "<i4"), skip={(2, 0)}, encode=raw))


# ---- the sharding storage transformer (V3DRAFT-META-014/015) ---------------------------------------------


def _sharded(w, uri=None, codecs=None, skip=(), decoy=True) -> np.ndarray:
    put_entry(w)
    transformer = sharding([2, 2]) if uri is None else sharding([2, 2], uri)
    doc = array_doc((7, 5), (2, 2), "uint16", 7, codecs=codecs, transformers=[transformer])
    w.put_json(meta_key("a"), doc)
    data = sample(w.rng, (7, 5), "<u2", avoid=np.uint16(7))
    chunks, expected = chunk_bytes(doc, data, np.array(7, "<u2"), skip=skip)
    put_sharded(w, "a", doc, chunks, (2, 2))
    if decoy:  # an unsharded chunk key: a reader that ignores the transformer reads it
        w.put("data/a/c3/2", np.full(4, 1234, "<u2").tobytes())
    w.node = "a"
    return expected


@case(
    "v3-draft/sharding/chunk-3-2-in-shard-c1-1",
    kind="read",
    needs=["dtype:uint16", "feature:storage-transformers"],
    requirements=["V3DRAFT-META-015", "V3DRAFT-META-014"],
    description="draft sharding chunks_per_shard [2,2]: uint16 (7,5) in (2,2) chunks; chunk (3,2) lives in shard "
    "data/a/c1/1 (slot 2), chunks (0,1) and (2,2) are empty slots, bodies in reverse order with gaps",
    question="spec-read",
)
def _(w):
    w.expect_array(_sharded(w, skip={(0, 1), (2, 2)}))


@case(
    "v3-draft/sharding/declared-uri",
    kind="read",
    needs=["dtype:uint16", "feature:storage-transformers"],
    tier="optional",
    requirements=["V3DRAFT-META-015"],
    description="draft sharding under the URI the sharding spec declares (.../storage-transformers/sharding/1.0)",
    question="versions-disagree",
)
def _(w):
    w.expect_array(_sharded(w, uri=SHARDING_URI_DECLARED, skip={(1, 1)}))


@case(
    "v3-draft/sharding/gzip-chunks-missing-shard",
    kind="read",
    needs=["dtype:uint16", "feature:storage-transformers", "codec:gzip"],
    requirements=["V3DRAFT-META-015"],
    description="draft sharding with gzip chunks: shard c0/1 is absent (all its chunks read as fill 7)",
    question="spec-read",
)
def _(w):
    w.expect_array(_sharded(w, codecs=[gzip_codec(1)], skip={(0, 2), (1, 2)}, decoy=False))
