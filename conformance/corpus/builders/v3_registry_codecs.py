"""The codecs and the chunk grid of the zarr-extensions registry (v3_registry_kit): read cases
with exact expected data, and the documents each README or JSON schema forbids.

Lossy codecs are read, not written: a stored bitround, cast_value or scale_offset chunk decodes by
a rule the README fixes (bitround decodes as it is stored, cast_value converts exactly where the
target holds the value, scale_offset divides and adds in the array's own type), so the expected
data is computed here with NumPy from the stored values. zfp is read in its reversible mode only.

The core codecs, grid and key encodings the registry lists (blosc, bytes, crc32c, gzip,
sharding_indexed, transpose, regular, default, v2) point to the core spec; their cases are the
core corpus. zstd, vlen-utf8 and vlen-bytes have cases in v3/codecs and v3/dtypes.
"""

from __future__ import annotations

import gzip

import numpy as np

from ..generator import verdict
from .v3_registry_kit import doc, hand_store, le_bytes, reference_store, registry_case, reject
from .v3_registry_kit import with_fill as filled

LITTLE = {"name": "bytes", "configuration": {"endian": "little"}}
BIG = {"name": "bytes", "configuration": {"endian": "big"}}
NAME_RULE = "The value of the `name` member in the codec object MUST be `{name}`."
FIELD_RULE = 'The value of the `name` field MUST be the string `"{name}"`.'
EXTRA_KEYS = "Metadata with additional keys MUST be treated as invalid by readers."


def _read(slug, name, quote, section, description, build, needs, point="codec"):
    registry_case(
        slug,
        point=point,
        name=name,
        quote=quote,
        section=section,
        kind="read",
        question="registered-extension",
        description=description,
        build=build,
        needs=needs,
    )


def _bad(slug, name, document, question, what, quote, section, needs, reason="invalid-codec"):
    reject(
        slug,
        document,
        reason,
        question,
        what,
        point="codec",
        name=name,
        quote=quote,
        section=section,
        needs=needs,
    )


# ---- bitround: decoding is the identity on the stored, already rounded values ----------------------
def _bitround(name, keepbits):
    def build(w):
        import numcodecs

        raw = (w.rng.standard_normal((6,)) * 100).astype("<f4")
        data = numcodecs.BitRound(keepbits=keepbits).encode(raw).view("<f4").reshape(6)
        codecs = [{"name": name, "configuration": {"keepbits": keepbits}}, LITTLE]
        hand_store(w, doc((6,), (4,), "float32", 0.0, codecs), data, le_bytes)
        w.expect_array(data)

    return build


BR = ["dtype:float32", "codec:bitround", "codec:bytes"]
_read(
    "bitround-float32",
    "bitround",
    "For floating-point values, the codec rounds the mantissa to the specified number of bits "
    "(`keepbits`).",
    "Floating-point data types",
    "v3 float32 through bitround (keepbits 10) and bytes: the stored values, rounded by numcodecs "
    "BitRound, read back unchanged",
    _bitround("bitround", 10),
    BR,
)
_read(
    "bitround-alias-numcodecs",
    "bitround",
    "Implementations may accept `numcodecs.bitround` as an alias for this codec.",
    "Aliases",
    "v3 float32 through the deprecated alias numcodecs.bitround (keepbits 6): read as bitround",
    _bitround("numcodecs.bitround", 6),
    BR,
)
for _slug, _config, _question, _what, _verdict in (
    ("keepbits-missing", {}, "missing-member", "without keepbits", {"tests": "keepbits"}),
    (
        "keepbits-negative",
        {"keepbits": -1},
        "invalid-value",
        "with keepbits -1",
        {"tests": "keepbits"},
    ),
    (
        "keepbits-string",
        {"keepbits": "10"},
        "scalar-spelling",
        "with keepbits '10'",
        {"tests": "keepbits"},
    ),
    (
        "unknown-member",
        {"keepbits": 10, "mode": "up"},
        "unknown-configuration-member",
        "with a member 'mode'",
        {
            "tests": "configuration",
            "citation_note": "the README defines keepbits as the only configuration parameter; "
            "its schema.json (additionalProperties false) forbids others, and no README sentence "
            "names them",
        },
    ),
):
    with verdict(**_verdict):
        _bad(
            f"bitround-reject-{_slug}",
            "bitround",
            doc(
                (6,), (4,), "float32", 0.0, [{"name": "bitround", "configuration": _config}, LITTLE]
            ),
            _question,
            f"whose bitround codec is {_what}",
            "An integer specifying the number of bits to keep after rounding.",
            "keepbits (Required)",
            BR,
        )


# ---- cast_value and scale_offset ------------------------------------------------------------------
CV = "cast_value"
SO = "scale_offset"


def _cast_int16(w):
    data = w.rng.integers(-3000, 3000, (6,)).astype("f4")
    data[data == 3.0] = 4.0
    codecs = [{"name": CV, "configuration": {"data_type": "int16"}}, LITTLE]
    hand_store(
        w,
        doc((6,), (2,), "float32", 3.0, codecs),
        data,
        lambda b: b.astype("<i2").tobytes(),
        {(1,)},
    )
    w.expect_array(filled(data, (2,), {(1,)}, np.array(3.0, "f4")))


_read(
    "cast_value-float32-int16",
    CV,
    "An input scalar represents a value exactly representable in the output data type.",
    "Procedure",
    "v3 float32 stored as int16 through cast_value: integral values convert exactly; a missing "
    "chunk reads as the fill 3.0",
    _cast_int16,
    ["dtype:float32", "dtype:int16", f"codec:{CV}", "codec:bytes"],
)


def _nan_uint8(w):
    stored = w.rng.integers(0, 256, (6,)).astype("u1")
    stored[1] = 0
    values = stored.astype("f8") / 0.1 + -10.0  # the README's decoding, in float64 arithmetic
    values[stored == 0] = np.nan
    codecs = [
        {"name": SO, "configuration": {"offset": -10, "scale": 0.1}},
        {
            "name": CV,
            "configuration": {
                "data_type": "uint8",
                "rounding": "nearest-even",
                "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]},
            },
        },
        LITTLE,
    ]
    w.put_json("zarr.json", doc((6,), (2,), "float64", "NaN", codecs))
    w.put("c/0", stored[:2].tobytes())
    w.put("c/2", stored[4:].tobytes())  # chunk 1 is missing
    w.expect_array(filled(values, (2,), {(1,)}, np.array(np.nan)))


_read(
    "cast_value-scale_offset-float64-nan",
    CV,
    "When encoding, if a value matches a key in `scalar_map.encode`, the corresponding mapped "
    "value is used instead of the normal casting rules defined by `rounding` and `out_of_range`.",
    "scalar_map",
    "v3 float64 through scale_offset (offset -10, scale 0.1) and cast_value to uint8 with the "
    "scalar_map 0 <-> NaN (the README's example): stored u reads as u / 0.1 + -10 in float64, 0 "
    "as NaN, a missing chunk as the fill NaN",
    _nan_uint8,
    ["dtype:float64", "dtype:uint8", f"codec:{CV}", f"codec:{SO}", "codec:bytes"],
)


def _offset_uint16(w):
    stored = w.rng.integers(0, 256, (6,)).astype("u1")
    values = stored.astype("u2") + np.uint16(1000)
    codecs = [
        {"name": SO, "configuration": {"offset": 1000}},
        {"name": CV, "configuration": {"data_type": "uint8"}},
        LITTLE,
    ]
    w.put_json("zarr.json", doc((6,), (3,), "uint16", 1000, codecs))
    w.put("c/0", stored[:3].tobytes())
    w.put("c/1", stored[3:].tobytes())
    w.expect_array(values)


_read(
    "scale_offset-uint16-offset",
    SO,
    "The decoding routine inverts the encoding routine, i.e.:",
    "Decoding",
    "v3 uint16 through scale_offset (offset 1000) and cast_value to uint8 (the README's range "
    "reduction example): stored u reads as u + 1000",
    _offset_uint16,
    ["dtype:uint16", "dtype:uint8", f"codec:{CV}", f"codec:{SO}", "codec:bytes"],
)


def _scale_float32(w):
    stored = (w.rng.integers(-200, 200, (6,)) / 4).astype("<f4")
    values = stored / np.float32(0.1) + np.float32(5)  # float32 arithmetic, as the README says
    codecs = [{"name": SO, "configuration": {"offset": 5, "scale": 0.1}}, LITTLE]
    w.put_json("zarr.json", doc((6,), (6,), "float32", 5.0, codecs))
    w.put("c/0", stored.tobytes())
    w.expect_array(values.astype("f4"))


_read(
    "scale_offset-float32",
    SO,
    "The encoding and decoding transformations MUST be performed using the arithmetic semantics "
    "of the input array's data type.",
    "Algorithm",
    "v3 float32 through scale_offset (offset 5, scale 0.1): stored s reads as s / 0.1 + 5 computed "
    "in float32",
    _scale_float32,
    ["dtype:float32", f"codec:{SO}", "codec:bytes"],
)
CV_NEEDS = ["dtype:float32", f"codec:{CV}", "codec:bytes"]
for _slug, _config, _question, _what, _quote, _section, _tests in (
    (
        "data-type-missing",
        {},
        "missing-member",
        "without data_type",
        "| data_type | Zarr V3 data type metadata | yes |",
        "Configuration",
        "data_type",
    ),
    (
        "rounding-unknown",
        {"data_type": "int16", "rounding": "up"},
        "invalid-value",
        "with rounding 'up'",
        "The following values are permitted:",
        "rounding",
        "rounding",
    ),
    (
        "out-of-range-unknown",
        {"data_type": "int16", "out_of_range": "saturate"},
        "invalid-value",
        "with out_of_range 'saturate'",
        "The following values are permitted:",
        "out_of_range",
        "out_of_range",
    ),
    (
        "unknown-member",
        {"data_type": "int16", "mode": "fast"},
        "unknown-configuration-member",
        "with an additional key 'mode'",
        EXTRA_KEYS,
        "Configuration",
        "additional keys",
    ),
):
    with verdict(tests=_tests):
        _bad(
            f"cast_value-reject-{_slug}",
            CV,
            doc((6,), (2,), "float32", 3.0, [{"name": CV, "configuration": _config}, LITTLE]),
            _question,
            f"whose cast_value codec is {_what}",
            _quote,
            _section,
            CV_NEEDS,
        )
with verdict(tests="fill value"):
    _bad(
        "cast_value-reject-fill-not-round-trip",
        CV,
        doc(
            (6,),
            (2,),
            "float32",
            0.5,
            [{"name": CV, "configuration": {"data_type": "int16"}}, LITTLE],
        ),
        "invalid-value",
        "whose float32 fill 0.5 cannot survive the cast to int16 and back",
        "If the fill value cannot survive a round-trip cast, implementations MUST treat this as an error.",
        "data_type",
        CV_NEEDS,
    )
with verdict(tests="additional keys"):
    _bad(
        "scale_offset-reject-unknown-member",
        SO,
        doc(
            (6,),
            (6,),
            "float32",
            5.0,
            [{"name": SO, "configuration": {"offset": 5, "factor": 2}}, LITTLE],
        ),
        "unknown-configuration-member",
        "whose scale_offset configuration has the additional key 'factor'",
        EXTRA_KEYS,
        "Configuration",
        ["dtype:float32", f"codec:{SO}", "codec:bytes"],
    )


# ---- reshape: the lexicographical order of a chunk is kept ------------------------------------------
def _reshape(shape_config, transpose=False):
    def build(w):
        data = w.rng.integers(-30000, 30000, (4, 6)).astype("i2")
        codecs = [{"name": "reshape", "configuration": {"shape": shape_config}}, LITTLE]
        if transpose:
            codecs.insert(0, {"name": "transpose", "configuration": {"order": [1, 0]}})
        encode = (lambda b: b.T.astype("<i2").tobytes()) if transpose else le_bytes
        hand_store(w, doc((4, 6), (2, 3), "int16", 0, codecs), data, encode)
        w.expect_array(data)

    return build


RS_NEEDS = ["dtype:int16", "codec:reshape", "codec:bytes"]
RS_ORDER = "As this codec does NOT alter the lexicographical order of elements, the contents of the output array `B` are related to the contents of the input array `A` by: `ravel(B) == ravel(A)`."
for _slug, _config, _transpose, _what in (
    ("input-dims", [[0, 1]], False, "[[0, 1]] (one dimension of 2*3)"),
    ("minus-one", [3, -1], False, "[3, -1] (the -1 becomes 2)"),
    ("after-transpose", [-1], True, "[-1] after transpose [1, 0]"),
):
    _read(
        f"reshape-{_slug}",
        "reshape",
        RS_ORDER,
        "Format and algorithm",
        f"v3 int16 (4, 6) in (2, 3) chunks through reshape {_what}: the chunk bytes keep the C "
        "order of the codec's input",
        _reshape(_config, _transpose),
        RS_NEEDS + (["codec:transpose"] if _transpose else []),
    )
for _slug, _config, _question, _what, _quote, _tests in (
    (
        "product-mismatch",
        {"shape": [4]},
        "codec-input",
        "[4] for chunks of 6 elements",
        "Implementations MUST return an error if the invariant",
        "invariant",
    ),
    (
        "dims-not-increasing",
        {"shape": [[1], [0]]},
        "invalid-value",
        "[[1], [0]]",
        "Additionally, when `shape[i]` is specified as an array of integers `input_dims`, implementations MUST return an error if the following constraints are not satisfied:",
        "input_dims",
    ),
    (
        "two-minus-one",
        {"shape": [-1, -1]},
        "invalid-value",
        "[-1, -1]",
        "the special value `-1`, which must occur at most once, specifying that",
        "-1",
    ),
    (
        "shape-missing",
        {},
        "missing-member",
        "without shape",
        "An array specifying the size `B_shape[i]` of each dimension `i` of the *output* array `B` "
        "as a function of the shape `A_shape` of the input array `A`.",
        "shape",
    ),
):
    with verdict(tests=_tests):
        _bad(
            f"reshape-reject-{_slug}",
            "reshape",
            doc(
                (4, 6), (2, 3), "int16", 0, [{"name": "reshape", "configuration": _config}, LITTLE]
            ),
            _question,
            f"whose reshape shape is {_what}",
            _quote,
            "Configuration parameters",
            RS_NEEDS,
        )


# ---- packbits (written by the reference) ----------------------------------------------------------
def _packbits(data_type, values, config, fill):
    def build(w):
        import ml_dtypes

        kinds = {"bool": "?", "int4": ml_dtypes.int4, "uint2": ml_dtypes.uint2, "uint8": "u1"}
        data = np.array(w.rng.choice(values, 11), dtype=kinds[data_type])
        codec = (
            {"name": "packbits"}
            if config is None
            else {"name": "packbits", "configuration": config}
        )
        reference_store(w, doc((11,), (4,), data_type, fill, [codec]), data, {(1,)})
        w.expect_array(filled(data, (4,), {(1,)}, np.array(fill, dtype=data.dtype)))

    return build


PB_ORDER = "Array elements are encoded in lexicographical order, to produce a bit sequence; element `i` corresponds to bits `[i * k, (i+1) * k)` within the sequence."
for _slug, _type, _values, _config, _fill, _what in (
    ("bool", "bool", [True, False], None, False, "bool as 1 bit each"),
    ("int4", "int4", list(range(-8, 8)), None, 0, "int4 as 4 bits each (sign-extended on decode)"),
    (
        "uint2-padding-first-byte",
        "uint2",
        [0, 1, 2, 3],
        {"padding_encoding": "first_byte"},
        0,
        "uint2 as 2 bits each after a padding-count byte",
    ),
    (
        "uint8-bits-2-to-5",
        "uint8",
        [v << 2 for v in range(16)],
        {"first_bit": 2, "last_bit": 5},
        0,
        "uint8 keeping bits 2..5 only",
    ),
):
    _read(
        f"packbits-{_slug}",
        "packbits",
        PB_ORDER,
        "Encoding and decoding multiple",
        f"v3 {_type} (11,) in (4,) chunks through packbits: {_what}; a missing chunk reads as "
        "the fill, the edge chunk's overhang is padding",
        _packbits(_type, _values, _config, _fill),
        [f"dtype:{_type}", "codec:packbits-v3"],
    )
for _slug, _config, _question, _what, _quote, _section, _tests in (
    (
        "padding-unknown",
        {"padding_encoding": "middle"},
        "invalid-value",
        "padding_encoding 'middle'",
        "Specifies how the number of padding bits is encoded, such that the number of decoded elements may be determined from the encoded representation alone.",
        "padding_encoding (Optional)",
        "padding_encoding",
    ),
    (
        "last-before-first",
        {"first_bit": 5, "last_bit": 2},
        "invalid-value",
        "last_bit 2 below first_bit 5",
        "It is invalid for `last_bit` to be less than `first_bit`.",
        "last_bit (Optional)",
        "last_bit",
    ),
):
    with verdict(tests=_tests):
        _bad(
            f"packbits-reject-{_slug}",
            "packbits",
            doc((11,), (4,), "uint8", 0, [{"name": "packbits", "configuration": _config}]),
            _question,
            f"whose packbits codec has {_what}",
            _quote,
            _section,
            ["dtype:uint8", "codec:packbits-v3"],
        )


# ---- zfp (reversible), n5_default, conditional -----------------------------------------------------
def _zfp(w):
    data = (w.rng.standard_normal((6, 5)) * 1000).astype("f8")
    reference_store(
        w,
        doc(
            (6, 5),
            (4, 4),
            "float64",
            0.0,
            [{"name": "zfp", "configuration": {"mode": "reversible"}}],
        ),
        data,
    )
    w.expect_array(data)


ZFP_NEEDS = ["dtype:float64", "codec:zfp"]
_read(
    "zfp-reversible-float64",
    "zfp",
    "The codec has one parameter which is always required:",
    "Configuration parameters",
    "v3 float64 (6, 5) in (4, 4) chunks through zfp in reversible mode: the values read back "
    "bit-exactly (chunks written by the zfp library through zfpy)",
    _zfp,
    ZFP_NEEDS,
)
for _slug, _config, _question, _what, _tests in (
    ("no-mode", {}, "missing-member", "without a mode", "mode"),
    ("mode-unknown", {"mode": "lossless"}, "invalid-value", "with mode 'lossless'", "mode"),
    (
        "accuracy-without-tolerance",
        {"mode": "fixed_accuracy"},
        "missing-member",
        "in fixed_accuracy mode without tolerance",
        "mode",
    ),
    (
        "expert-without-minexp",
        {"mode": "expert", "minbits": 0, "maxbits": 64, "maxprec": 32},
        "missing-member",
        "in expert mode without minexp",
        "mode",
    ),
):
    with verdict(tests=_tests):
        _bad(
            f"zfp-reject-{_slug}",
            "zfp",
            doc((6, 5), (4, 4), "float64", 0.0, [{"name": "zfp", "configuration": _config}]),
            _question,
            f"whose zfp codec is {_what}",
            "The other required parameters are dependent on the `mode`:",
            "Configuration parameters",
            ZFP_NEEDS,
        )

N5 = "n5_default"
N5_NEEDS = ["dtype:int16", f"codec:{N5}", "feature:chunk-key-encoding-v2"]
N5_CKE = {"name": "v2", "configuration": {"separator": "/"}}


def _n5(extra):
    def build(w):
        data = w.rng.integers(-30000, 30000, (5, 7)).astype("i2")
        codecs = [{"name": "transpose", "configuration": {"order": [1, 0]}}, BIG, *extra]
        document = doc(
            (5, 7), (2, 3), "int16", 0, [{"name": N5, "configuration": {"codecs": codecs}}]
        )
        document["chunk_key_encoding"] = N5_CKE
        reference_store(w, document, data)
        w.expect_array(data)

    return build


for _slug, _extra in (("", []), ("-gzip", [{"name": "gzip", "configuration": {"level": 5}}])):
    _read(
        f"n5_default{_slug}",
        N5,
        "The first codec MUST be a transpose codec which performs a full transposition;",
        "Configuration parameters",
        f"v3 int16 (5, 7) in (2, 3) chunks through n5_default [transpose [1, 0], bytes big"
        f"{', gzip' if _extra else ''}] with v2 '/' keys: N5 block headers, exact values",
        _n5(_extra),
        N5_NEEDS + (["codec:gzip"] if _extra else []),
    )
for _slug, _codecs, _what, _quote, _tests in (
    (
        "no-transpose",
        [BIG],
        "[bytes big] (no transpose first)",
        "The first codec MUST be a transpose codec which performs a full transposition;",
        "transpose",
    ),
    (
        "little-endian",
        [{"name": "transpose", "configuration": {"order": [1, 0]}}, LITTLE],
        "a little-endian bytes codec",
        "The codec's `configuration.endian` MAY be omitted for single-byte data types such as "
        '`int8` and `uint8`. Otherwise, it MUST have the value `"big"`.',
        "endian",
    ),
    (
        "partial-transpose",
        [{"name": "transpose", "configuration": {"order": [0, 1]}}, BIG],
        "transpose [0, 1] (not a full transposition)",
        "The first codec MUST be a transpose codec which performs a full transposition;",
        "transpose",
    ),
):
    with verdict(tests=_tests):
        _document = doc(
            (5, 7), (2, 3), "int16", 0, [{"name": N5, "configuration": {"codecs": _codecs}}]
        )
        _document["chunk_key_encoding"] = N5_CKE
        _bad(
            f"n5_default-reject-{_slug}",
            N5,
            _document,
            "invalid-value",
            f"whose n5_default codecs are {_what}",
            _quote,
            "Configuration parameters",
            N5_NEEDS,
        )

COND = "conditional"
COND_NEEDS = ["dtype:int32", f"codec:{COND}", "codec:gzip", "codec:bytes"]


def _conditional(w):
    data = w.rng.integers(-(2**31), 2**31 - 1, (6,)).astype("i4")
    codecs = [
        LITTLE,
        {
            "name": COND,
            "configuration": {"codecs": [{"name": "gzip", "configuration": {"level": 5}}]},
        },
    ]
    w.put_json("zarr.json", doc((6,), (3,), "int32", 0, codecs))
    w.put("c/0", b"\x01" + gzip.compress(data[:3].astype("<i4").tobytes(), mtime=0))  # gzip applied
    w.put("c/1", b"\x00" + data[3:].astype("<i4").tobytes())  # gzip skipped
    w.expect_array(data)


_read(
    "conditional-gzip",
    COND,
    "Bit `0` of the mask corresponds to the first codec in the `codecs` list, bit `1` to the "
    "second, and so on (using a little-endian bit order).",
    "Encoding Procedure",
    "v3 int32 through bytes and conditional [gzip]: chunk 0 has header bit 0 set (gzip applied), "
    "chunk 1 has it clear (stored raw)",
    _conditional,
    COND_NEEDS,
)
for _slug, _config, _what, _quote, _tests in (
    (
        "header-bits-4",
        {"codecs": [{"name": "gzip", "configuration": {"level": 5}}], "header_bits": 4},
        "header_bits 4",
        "This value must be a multiple of 8.",
        "multiple of 8",
    ),
    (
        "nested-array-codec",
        {"codecs": [{"name": "transpose", "configuration": {"order": [0]}}]},
        "a nested transpose (not bytes->bytes)",
        "They MUST all be `bytes -> bytes` codecs.",
        "bytes -> bytes",
    ),
):
    with verdict(tests=_tests):
        _bad(
            f"conditional-reject-{_slug}",
            COND,
            doc((6,), (3,), "int32", 0, [LITTLE, {"name": COND, "configuration": _config}]),
            "invalid-value",
            f"whose conditional codec has {_what}",
            _quote,
            "Configuration",
            COND_NEEDS,
        )

# ---- vlen codecs take no configuration members -------------------------------------------------------
with verdict(tests="configuration"):
    for _codec, _type in (("vlen-utf8", "string"), ("vlen-bytes", "bytes")):
        _bad(
            f"{_codec}-reject-configuration-member",
            _codec,
            doc(
                (6,),
                (3,),
                _type,
                "",
                [{"name": _codec, "configuration": {"encoding": "x"}}],
            ),
            "unknown-configuration-member",
            f"whose {_codec} codec has the configuration member 'encoding'",
            "None.",
            "Configuration parameters",
            [f"dtype:{_type}", f"codec:{_codec}"],
        )


# ---- the rectilinear chunk grid ----------------------------------------------------------------------
RECT = {
    "name": "rectilinear",
    "configuration": {"kind": "inline", "chunk_shapes": [[2, 3], [3, [2, 2]]]},
}
RECT_NEEDS = ["dtype:int32", "grid:rectilinear", "codec:bytes"]


def _rectilinear(w):
    data = w.rng.integers(-1000, 1000, (5, 7)).astype("i4")
    document = doc((5, 7), (1, 1), "int32", -1, [LITTLE], chunk_grid=RECT)
    reference_store(w, document, data, {(1, 1)})
    expected = data.copy()
    expected[
        2:5, 3:5
    ] = -1  # chunk (1, 1): rows 2..4 (edge 3), columns 3..4 (the first 2 of [2, 2])
    w.expect_array(expected)


registry_case(
    "rectilinear-inline",
    point="grid",
    name="rectilinear",
    quote="The chunk grid index for `idx[n]` is given by the index of the first element of `C` "
    "that exceeds `idx[n]`.",
    section="Indexing",
    kind="read",
    question="registered-extension",
    description="v3 int32 (5, 7) on the rectilinear grid [[2, 3], [3, [2, 2]]] (an integer edge "
    "and a run-length pair): exact values; the missing chunk (1, 1) covers rows 2-4, columns 3-4",
    build=_rectilinear,
    needs=RECT_NEEDS,
)
for _slug, _config, _question, _what, _quote, _tests in (
    (
        "kind-missing",
        {"chunk_shapes": [[2, 3], 3]},
        "missing-member",
        "without kind",
        '| kind | Literal "inline" | yes |',
        "kind",
    ),
    (
        "edge-zero",
        {"kind": "inline", "chunk_shapes": [[2, 0, 3], 3]},
        "invalid-value",
        "with an edge length 0",
        "All edge lengths MUST be positive integers (i.e., at least 1).",
        "edge lengths",
    ),
    (
        "sum-short",
        {"kind": "inline", "chunk_shapes": [[2, 2], 3]},
        "invalid-value",
        "whose edges [2, 2] do not reach the length 5",
        "The sum of the edge lengths MUST equal or exceed `L`.",
        "edge lengths",
    ),
    (
        # zarr-python 3.2 stored integral edges as JSON floats; 3.4.1 reads them as integers
        "edge-float",
        {"kind": "inline", "chunk_shapes": [[2.0, 3], 7]},
        "integer-as-float",
        "with the edge length 2.0 (a float)",
        "All edge lengths MUST be positive integers (i.e., at least 1).",
        "edge lengths",
    ),
    (
        "rank-mismatch",
        {"kind": "inline", "chunk_shapes": [[2, 3]]},
        "invalid-value",
        "with one edge list for two dimensions",
        "The length of `chunk_shapes` MUST match the number of dimensions of the array.",
        "chunk_shapes",
    ),
):
    with verdict(tests=_tests):
        reject(
            f"rectilinear-reject-{_slug}",
            doc(
                (5, 7),
                (1, 1),
                "int32",
                -1,
                [LITTLE],
                chunk_grid={"name": "rectilinear", "configuration": _config},
            ),
            "invalid-chunk-shape" if _slug == "rank-mismatch" else "invalid-chunk-grid",
            _question,
            f"whose rectilinear chunk grid is {_what}",
            point="grid",
            name="rectilinear",
            quote=_quote,
            section="Configuration",
            needs=RECT_NEEDS,
        )


# ---- writes: a writer that supports the entry writes it so that it reads back exactly ------------------
def _write_case(slug, point, name, quote, section, data_type, fill, codecs, make, needs, **extra):
    def build(w):
        data = make(w.rng)
        document = doc(data.shape, (2,) * data.ndim, data_type, fill, codecs, **extra)
        w.expect_write(metadata=document, data=data)

    registry_case(
        f"write-{slug}",
        point=point,
        name=name,
        quote=quote,
        section=section,
        kind="write",
        question="registered-extension",
        description=f"v3 write of {slug.replace('-', ' ')}: the written store reads back exactly "
        "and means the requested array",
        build=build,
        needs=[*needs, "op:write"],
    )


# No write cases of the ml_dtypes types (bfloat16, float8, int4, ...): a write request's input
# travels as .npy, which cannot name those types (their read cases hold the bits as V<n>).
_WRITES = (
    (
        "uint16-reshape",
        "codec",
        "reshape",
        RS_ORDER,
        "Format and algorithm",
        "uint16",
        0,
        [{"name": "reshape", "configuration": {"shape": [-1]}}, LITTLE],
        lambda rng: rng.integers(0, 65535, (3, 5)).astype("u2"),
        ["dtype:uint16", "codec:reshape", "codec:bytes"],
    ),
    (
        "float64-zfp-reversible",
        "codec",
        "zfp",
        "The codec has one parameter which is always required:",
        "Configuration parameters",
        "float64",
        0.0,
        [{"name": "zfp", "configuration": {"mode": "reversible"}}],
        lambda rng: rng.standard_normal((3, 5)),
        ["dtype:float64", "codec:zfp"],
    ),
    (
        "fixed_length_utf32",
        "dtype",
        "fixed_length_utf32",
        "Each code point is encoded as a 4-byte UTF-32 code unit.",
        "Bytes codec encoding",
        {"name": "fixed_length_utf32", "configuration": {"length_bytes": 8}},
        "",
        [LITTLE],
        lambda rng: np.array(rng.choice(["", "a", "\u00e9z", "\U0001f600"], (3, 5)), "<U2"),
        ["dtype:fixed_length_utf32", "codec:bytes"],
    ),
)
for _slug, _point, _name, _quote, _section, _type, _fill, _codecs, _make, _needs in _WRITES:
    _write_case(_slug, _point, _name, _quote, _section, _type, _fill, _codecs, _make, _needs)


def _struct_data(rng):
    data = np.zeros((3, 5), [("x", "<i2"), ("y", "<f4")])
    data["x"] = rng.integers(-300, 300, (3, 5))
    data["y"] = rng.integers(-64, 64, (3, 5)) / 8
    return data


_write_case(
    "struct",
    "dtype",
    "struct",
    "The `fill_value` for arrays with the `struct` data type MUST be a JSON object mapping each "
    "field name to its fill value.",
    "Fill value representation",
    {
        "name": "struct",
        "configuration": {
            "fields": [{"name": "x", "data_type": "int16"}, {"name": "y", "data_type": "float32"}]
        },
    },
    {"x": 0, "y": 0.0},
    [LITTLE],
    _struct_data,
    ["dtype:struct", "codec:bytes"],
)
# big-endian fields swapped one by one (zarr-python before 3.3 stored structured fields unswapped)
_write_case(
    "struct-big-endian",
    "dtype",
    "struct",
    "All multi-byte fields MUST use the byte order specified by the `endian` parameter.",
    "Endianness",
    {
        "name": "struct",
        "configuration": {
            "fields": [{"name": "x", "data_type": "int16"}, {"name": "y", "data_type": "float32"}]
        },
    },
    {"x": 0, "y": 0.0},
    [BIG],
    _struct_data,
    ["dtype:struct", "codec:bytes", "dtype:big-endian"],
)
_write_case(
    "rectilinear",
    "grid",
    "rectilinear",
    "The chunk grid index for `idx[n]` is given by the index of the first element of `C` that "
    "exceeds `idx[n]`.",
    "Indexing",
    "int32",
    0,
    [LITTLE],
    lambda rng: rng.integers(-1000, 1000, (3, 5)).astype("i4"),
    RECT_NEEDS,
    chunk_grid={
        "name": "rectilinear",
        "configuration": {"kind": "inline", "chunk_shapes": [[1, 2], [2, [1, 3]]]},
    },
)


# ---- what zarr-python 3.2 to 3.4 fixed, for every other implementation too --------------------------
# cast_value to a wider type: the bytes codec after it encodes the cast type (int16 needs an endian
# even though the array is int8; zarr-python 3.2.0 checked the array's type and refused the array).
def _int8_as_int16(w):
    data = w.rng.integers(-128, 128, (6,)).astype("i1")
    data[data == 5] = 6
    codecs = [{"name": CV, "configuration": {"data_type": "int16"}}, LITTLE]
    hand_store(
        w, doc((6,), (2,), "int8", 5, codecs), data, lambda b: b.astype("<i2").tobytes(), {(2,)}
    )
    w.expect_array(filled(data, (2,), {(2,)}, np.array(5, "i1")))


_read(
    "cast_value-int8-int16",
    CV,
    "It also defines the data type of the input to the decoding routine.",
    "data_type",
    "v3 int8 stored as little-endian int16 through cast_value: the bytes codec encodes the cast type; "
    "a missing chunk reads as the fill 5",
    _int8_as_int16,
    ["dtype:int8", "dtype:int16", f"codec:{CV}", "codec:bytes"],
)


def _int16_without_endian(w):
    codecs = [{"name": CV, "configuration": {"data_type": "int16"}}, {"name": "bytes"}]
    w.put_json("zarr.json", doc((6,), (2,), "int8", 0, codecs))
    w.expect_reject("invalid-codec")


with verdict(tests="endian"):
    registry_case(
        "cast_value-reject-int16-bytes-no-endian",
        point="codec",
        name=CV,
        quote="It also defines the data type of the input to the decoding routine.",
        section="data_type",
        kind="reject",
        question="byte-order-unspecified",
        description="v3 int8 array cast to int16 by cast_value and then a bytes codec without endian "
        "is rejected on open: the bytes codec encodes int16, whose byte order is not given",
        build=_int16_without_endian,
        needs=["dtype:int8", "dtype:int16", f"codec:{CV}", "codec:bytes"],
        also_cite=[
            {
                "requirement": "V3-BYTES-002",
                "spec": "zarr-specs-v3.0/docs/v3/codecs/bytes/v1.0.rst",
                "section": "Configuration parameters",
                "quote": "endian: Required for data types for which endianness is applicable.",
            }
        ],
    )


# cast_value beside transpose: the codec gets a transposed (not C-contiguous) chunk; cast-value-rs
# before 0.4.2 under zarr-python 3.2 and 3.3 wrote its values transposed without an error.
def _transpose_cast(w):
    data = w.rng.integers(-3000, 3000, (4, 6)).astype("f4")
    data[data == 1.0] = 2.0
    codecs = [
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        {"name": CV, "configuration": {"data_type": "int16"}},
        LITTLE,
    ]
    hand_store(
        w,
        doc((4, 6), (2, 3), "float32", 1.0, codecs),
        data,
        lambda b: np.ascontiguousarray(b.T).astype("<i2").tobytes(),
        {(1, 1)},
    )
    w.expect_array(filled(data, (2, 3), {(1, 1)}, np.array(1.0, "f4")))


_read(
    "cast_value-transpose",
    CV,
    "This codec does not re-interpret binary representations, and it leaves all other array "
    "properties intact.",
    "Cast_value codec",
    "v3 float32 (4,6) in (2,3) chunks through [transpose [1,0], cast_value int16, bytes]: each chunk "
    "is stored as its transpose in int16, values exact; chunk (1,1) missing reads as the fill 1.0",
    _transpose_cast,
    ["dtype:float32", "dtype:int16", f"codec:{CV}", "codec:transpose", "codec:bytes"],
)
_write_case(
    "cast_value-transpose",
    "codec",
    CV,
    "This codec does not re-interpret binary representations, and it leaves all other array "
    "properties intact.",
    "Cast_value codec",
    "float32",
    0.0,
    [
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        {"name": CV, "configuration": {"data_type": "int16"}},
        LITTLE,
    ],
    lambda rng: rng.integers(-3000, 3000, (3, 5)).astype("f4"),
    ["dtype:float32", "dtype:int16", f"codec:{CV}", "codec:transpose", "codec:bytes"],
)
_write_case(
    "int8-cast_value-int16",
    "codec",
    CV,
    "It also defines the data type of the input to the decoding routine.",
    "data_type",
    "int8",
    0,
    [{"name": CV, "configuration": {"data_type": "int16"}}, LITTLE],
    lambda rng: rng.integers(-128, 128, (3, 5)).astype("i1"),
    ["dtype:int8", "dtype:int16", f"codec:{CV}", "codec:bytes"],
)

# scale_offset and cast_value inside sharding, as EOPF Sentinel-2 L2A reflectances are stored:
# uint16 digital numbers n read as n / 10000 - 0.1 (float32), 0 as NaN, sharded with zstd.
EOPF_CODECS = [
    {"name": SO, "configuration": {"offset": -0.1, "scale": 10000}},
    {
        "name": CV,
        "configuration": {
            "data_type": "uint16",
            "rounding": "nearest-even",
            "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]},
        },
    },
    LITTLE,
    {"name": "zstd", "configuration": {"level": 3, "checksum": False}},
]
EOPF_SHARDING = {
    "name": "sharding_indexed",
    "configuration": {
        "chunk_shape": [2, 2],
        "codecs": EOPF_CODECS,
        "index_codecs": [LITTLE, {"name": "crc32c"}],
        "index_location": "end",
    },
}
EOPF_NEEDS = [
    "dtype:float32",
    "dtype:uint16",
    f"codec:{CV}",
    f"codec:{SO}",
    "codec:bytes",
    "codec:zstd",
    "codec:crc32c",
    "codec:sharding_indexed",
]


def _reflectance(numbers: np.ndarray) -> np.ndarray:
    """The README's decoding in float32: n / scale + offset, the number 0 as NaN."""
    values = numbers.astype("f4") / np.float32(10000) + np.float32(-0.1)
    values[numbers == 0] = np.float32("nan")
    return values


def _eopf(w):
    from .v3_codecs_kit import assemble_shard, inner_blocks, zstd_bytes

    numbers = w.rng.integers(0, 12000, (8, 8)).astype("<u2")
    numbers[0, 1] = numbers[5, 6] = 0  # NaN in two places
    w.put_json("zarr.json", doc((8, 8), (4, 4), "float32", "NaN", [EOPF_SHARDING]))
    expected = _reflectance(numbers)
    conf = EOPF_SHARDING["configuration"]
    for index in ((0, 0), (0, 1), (1, 0)):  # shard (1, 1) is missing
        block = numbers[index[0] * 4 : index[0] * 4 + 4, index[1] * 4 : index[1] * 4 + 4]
        blobs = {
            pos: zstd_bytes(inner.astype("<u2").tobytes(), 3)
            for pos, inner in inner_blocks(block, (2, 2)).items()
            if not (index == (1, 0) and pos == (0, 1))  # one inner chunk is empty
        }
        w.put(f"c/{index[0]}/{index[1]}", assemble_shard(blobs, conf, (2, 2)))
    expected[4:8, 4:8] = np.float32("nan")
    expected[4:6, 2:4] = np.float32("nan")
    w.expect_array(expected)


_read(
    "sharding-scale_offset-cast_value",
    SO,
    "In conjunction with the `cast_value` codec, the `scale_offset` codec supersedes the "
    "`numcodecs.fixedscaleoffset` codec.",
    "Legacy `numcodecs.fixedscaleoffset` codec",
    "v3 float32 (8,8) in (4,4) shards of (2,2) inner chunks coded [scale_offset (offset -0.1, scale "
    "10000), cast_value uint16 with 0 <-> NaN, bytes, zstd], as EOPF Sentinel-2 stores reflectances: "
    "n reads as n / 10000 - 0.1, 0 and a missing shard or inner chunk as NaN",
    _eopf,
    EOPF_NEEDS,
)
_write_case(
    "sharding-scale_offset-cast_value",
    "codec",
    SO,
    "In conjunction with the `cast_value` codec, the `scale_offset` codec supersedes the "
    "`numcodecs.fixedscaleoffset` codec.",
    "Legacy `numcodecs.fixedscaleoffset` codec",
    "float32",
    "NaN",
    [{**EOPF_SHARDING, "configuration": {**EOPF_SHARDING["configuration"], "chunk_shape": [1, 1]}}],
    lambda rng: _reflectance(rng.integers(0, 12000, (3, 5)).astype("<u2")),
    EOPF_NEEDS,
)

# A zero scale has no inverse: float data written with it read back as NaN (zarr-python before 3.4
# let a string zero through its check). "0" is no fill-value encoding of a float; the hex zero is.
for _slug, _scale, _question, _what, _reason, _stage in (
    ("scale-zero-string", "0", "scalar-spelling", "scale '0' (a string)", "invalid-codec", "open"),
    (
        "scale-zero-hex",
        "0x00000000",
        "invalid-value",
        "scale 0x00000000 (zero: a stored chunk cannot be decoded)",
        "corrupt-chunk",
        "read",
    ),
):
    _bad_chunked = {"c/0": np.array([1, 2, 3], "<f4").tobytes()} if _stage == "read" else None
    with verdict(tests="scale"):
        reject(
            f"scale_offset-reject-{_slug}",
            doc(
                (3,),
                (3,),
                "float32",
                0.0,
                [{"name": SO, "configuration": {"scale": _scale}}, LITTLE],
            ),
            _reason,
            _question,
            f"whose scale_offset codec has {_what}",
            chunks=_bad_chunked,
            stage=_stage,
            point="codec",
            name=SO,
            quote="If present, this value MUST be encoded to JSON using the Zarr V3 fill value "
            "encoding for the input array's data type."
            if _stage == "open"
            else "out = (in / scale) + offset",
            section="scale" if _stage == "open" else "Decoding",
            needs=["dtype:float32", f"codec:{SO}", "codec:bytes"],
        )
