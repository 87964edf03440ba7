"""The codecs of the zarr-extensions registry and zarr-python 3's numcodecs.* codecs: exact round
trips, lossy codecs checked against their definitions, and second implementations (numcodecs,
zarr-python, the registry's own sample data) where they exist here."""

from __future__ import annotations

import gzip
import warnings
from fractions import Fraction

import crc32c
import numcodecs
import numpy as np
import pytest

from conformance import reference as ref
from conformance.reference.errors import ExtensionNotImplemented, MetadataError, ZarrError
from conformance.reference.formats.v3 import parse_data_type
from conformance.reference.formats.v3.codecs import build_pipeline
from conformance.reference.formats.v3.codecs.numeric import ROUNDINGS

from .helpers import LE, REGISTRY, doc, roundtrip, same_bits


def pipe(codecs, shape, data_type, fill=None):
    info = parse_data_type(data_type)
    return build_pipeline(codecs, shape, info.dtype, fill, info)


# ---- bitround ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "dtype,keep", [("float16", 3), ("float32", 1), ("float32", 9), ("float64", 30), ("float64", 52)]
)
def test_bitround_matches_numcodecs_for_floats(dtype, keep):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(4000) * 10.0 ** rng.integers(-5, 5, 4000)).astype(dtype)
    x[:4] = [np.nan, np.inf, -np.inf, 0]
    for name in ("bitround", "numcodecs.bitround"):
        p = pipe([{"name": name, "configuration": {"keepbits": keep}}, LE], (4000,), dtype)
        assert same_bits(p.decode(p.encode(x)), np.asarray(numcodecs.BitRound(keep).encode(x)))


def test_bitround_integers_round_from_the_most_significant_set_bit():
    x = np.array([0, 1, 7, 9, 10, 11, 12, 100, 255, 254], dtype=np.uint8)
    p = pipe([{"name": "bitround", "configuration": {"keepbits": 3}}, "bytes"], (10,), "uint8")
    out = p.array_codecs[0].encode(x)
    # definition: keep 3 bits below the top set bit, round the rest half to even, saturate at 255
    expected = []
    for v in x.tolist():
        top = v.bit_length()
        if top <= 3:
            expected.append(v)
            continue
        drop = top - 3
        q, r = divmod(v, 1 << drop)
        half = 1 << (drop - 1)
        q += 1 if (r > half or (r == half and q % 2)) else 0
        expected.append(min(q << drop, 255 >> drop << drop))
    assert out.tolist() == expected
    assert same_bits(p.array_codecs[0].encode(out), out)  # idempotent


def test_bitround_registry_sample_data_reads_and_reencodes_byte_for_byte():
    root = REGISTRY / "codecs" / "bitround" / "sample_data"
    if not root.is_dir():
        pytest.skip("no zarr-extensions copy here")
    for name in ("bitround_float32.zarr", "bitround_uint8.zarr"):
        array = ref.open_node(root / name)
        values = array[:]
        stored = (root / name / "c" / "0").read_bytes()
        assert array.layout.codec.encode(values) == stored


# ---- cast_value -------------------------------------------------------------------------------
def test_cast_value_numpy_compatible_example_of_the_readme():
    codec = {
        "name": "cast_value",
        "configuration": {
            "data_type": "uint8",
            "rounding": "towards-zero",
            "out_of_range": "wrap",
            # (the README writes "+Infinity"; the fill value encoding of float64 spells it "Infinity")
            "scalar_map": {"encode": [["NaN", 0], ["Infinity", 0], ["-Infinity", 0]]},
        },
    }
    x = np.array([1.9, -1.5, 300.7, np.nan, np.inf, -np.inf, 255.99, -0.5])
    p = pipe([codec, "bytes"], (8,), "float64", np.float64(0))
    encoded = p.array_codecs[0].encode(x)
    assert encoded.tolist() == [1, 255, 44, 0, 0, 0, 255, 0]
    finite = np.isfinite(x)
    with np.errstate(invalid="ignore"):
        assert (
            encoded[finite].tolist()
            == np.trunc(x[finite]).astype(np.int64).astype(np.uint8).tolist()
        )


@pytest.mark.parametrize("mode", [None, "clamp", "wrap"])
def test_cast_value_out_of_range_examples(mode):
    config = {"data_type": "int8"} if mode is None else {"data_type": "int8", "out_of_range": mode}
    p = pipe(
        [{"name": "cast_value", "configuration": config}, "bytes"], (1,), "float64", np.float64(0)
    )
    if mode is None:
        with pytest.raises(ValueError):
            p.array_codecs[0].encode(np.array([128.0]))
    elif mode == "clamp":
        assert p.array_codecs[0].encode(np.array([128.0])).tolist() == [127]
    else:
        assert p.array_codecs[0].encode(np.array([128.0])).tolist() == [-128]
    wrap16 = pipe(
        [
            {"name": "cast_value", "configuration": {"data_type": "int16", "out_of_range": "wrap"}},
            LE,
        ],
        (3,),
        "int64",
        np.int64(0),
    )
    assert wrap16.array_codecs[0].encode(np.array([32768, 32769, -32769])).tolist() == [
        -32768,
        -32767,
        32767,
    ]


def _exact_round(value: Fraction, grid: list[float], rounding: str) -> float:
    import bisect

    i = bisect.bisect_left(grid, float(value))
    window = grid[max(0, i - 2) : i + 2]
    below = max((g for g in window if Fraction(g) <= value), default=None)
    above = min((g for g in window if Fraction(g) >= value), default=None)
    if below is not None and Fraction(below) == value:
        return below
    if rounding == "towards-positive":
        return above
    if rounding == "towards-negative":
        return below
    if rounding == "towards-zero":
        return below if value > 0 else above
    mid = (Fraction(below) + Fraction(above)) / 2
    if value != mid:
        return below if value < mid else above
    if rounding == "nearest-away":
        return above if value > 0 else below
    return None  # nearest-even ties: checked by pattern parity below


@pytest.mark.parametrize("rounding", ROUNDINGS)
@pytest.mark.parametrize("target", ["bfloat16", "float8_e4m3", "float16", "float32"])
def test_cast_value_rounding_modes_are_exact(rounding, target):
    rng = np.random.default_rng(11)
    info = parse_data_type(target)
    x = (rng.standard_normal(300) * 4.0).astype(np.float64)
    if info.float_format is not None:
        finite = info.float_format.finite_values
        picks = finite[rng.integers(1, len(finite) - 1, 60)]
        x[:60] = picks  # exactly representable
        x[60:120] = (picks + finite[np.searchsorted(finite, picks) + 1]) / 2  # exact ties
    p = pipe(
        [
            {
                "name": "cast_value",
                "configuration": {
                    "data_type": target,
                    "rounding": rounding,
                    "out_of_range": "clamp",
                },
            },
            LE,
        ],
        (300,),
        "float64",
        np.float64(0),
    )
    out = p.array_codecs[0].encode(x).astype(np.float64)
    if info.float_format is not None:
        grid = info.float_format.finite_values.tolist()
    for value, got in zip(x.tolist(), out.tolist()):
        if info.float_format is None:
            t = np.dtype(target).type
            near = float(t(value))
            lower = near if near <= value else float(np.nextafter(t(near), t(-np.inf)))
            upper = near if near >= value else float(np.nextafter(t(near), t(np.inf)))
            grid = [lower, upper]
        want = _exact_round(Fraction(value), grid, rounding)
        if want is None:  # an exact tie under nearest-even: the neighbour with the even pattern
            if info.float_format is not None:
                fmt = info.float_format
                pattern = int(fmt.finite_patterns[np.searchsorted(fmt.finite_values, got)])
            else:
                pattern = int(np.array(got, dtype=target).view(f"u{info.itemsize}"))
            assert pattern % 2 == 0, (value, got)
            continue
        assert got == want, (value, got, want, rounding)


def test_cast_value_rules():
    base = {"name": "cast_value", "configuration": {"data_type": "uint8"}}
    with pytest.raises(MetadataError, match="unknown configuration"):
        pipe(
            [{"name": "cast_value", "configuration": {"data_type": "uint8", "extra": 1}}, "bytes"],
            (2,),
            "float32",
            np.float32(0),
        )
    with pytest.raises(MetadataError, match="wrap"):
        pipe(
            [
                {
                    "name": "cast_value",
                    "configuration": {"data_type": "float16", "out_of_range": "wrap"},
                },
                LE,
            ],
            (2,),
            "float32",
            np.float32(0),
        )
    with pytest.raises(
        MetadataError, match="round trip"
    ):  # a fill that cannot survive the round trip
        pipe([base, "bytes"], (2,), "float32", np.float32(0.5))
    with pytest.raises(MetadataError):  # NaN fill into an integer type without scalar_map
        pipe([base, "bytes"], (2,), "float32", np.float32("nan"))
    p = pipe(
        [
            {
                "name": "cast_value",
                "configuration": {
                    "data_type": "uint8",
                    "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]},
                },
            },
            "bytes",
        ],
        (2,),
        "float32",
        np.float32("nan"),
    )
    assert p.array_codecs[0].encoded_spec.fill_value[()] == 0


# ---- scale_offset -----------------------------------------------------------------------------
def test_scale_offset_uint16_example_and_integer_arithmetic():
    codecs = [
        {"name": "scale_offset", "configuration": {"offset": 1000}},
        {"name": "cast_value", "configuration": {"data_type": "uint8"}},
        "bytes",
    ]
    values = np.arange(1000, 1256, dtype=np.uint16)
    back, store = roundtrip(doc([256], [256], "uint16", 1000, codecs), values)
    assert same_bits(back, values) and store.get("a/c/0") == bytes(range(256))
    with pytest.raises(ValueError):  # 999 - 1000 is not a uint16: the codec MUST fail
        roundtrip(doc([1], [1], "uint16", 1000, codecs), np.array([999], np.uint16))
    p = pipe(
        [{"name": "scale_offset", "configuration": {"scale": 3}}, LE], (2,), "int32", np.int32(0)
    )
    with pytest.raises(ZarrError):  # 7 / 3 is not an integer
        p.array_codecs[0].decode(np.array([6, 7], np.int32))


def test_scale_offset_float_arithmetic_is_the_input_types():
    rng = np.random.default_rng(4)
    x = rng.standard_normal(500).astype(np.float32)
    p = pipe(
        [{"name": "scale_offset", "configuration": {"offset": 0.25, "scale": 0.1}}, LE],
        (500,),
        "float32",
        np.float32(0.25),
    )
    enc = p.array_codecs[0].encode(x)
    assert same_bits(enc, (x - np.float32(0.25)) * np.float32(0.1))
    assert same_bits(p.array_codecs[0].decode(enc), enc / np.float32(0.1) + np.float32(0.25))
    assert p.array_codecs[0].encoded_spec.fill_value[()] == 0


def test_scale_offset_readme_nan_example():
    document = doc(
        [5],
        [5],
        "float64",
        "NaN",
        [
            {"name": "scale_offset", "configuration": {"offset": -10, "scale": 0.1}},
            {
                "name": "cast_value",
                "configuration": {
                    "data_type": "uint8",
                    "rounding": "nearest-even",
                    "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]},
                },
            },
            "bytes",
        ],
    )
    back, store = roundtrip(document, np.array([0.0, 100.0, 2540.0, np.nan, 60.0]))
    assert store.get("a/c/0") == bytes([1, 11, 255, 0, 7])
    assert np.array_equal(back, [0.0, 100.0, 2540.0, np.nan, 60.0], equal_nan=True)


# ---- reshape ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "shape_json,expected",
    [([[0, 1], [2], 3], (5000, 64, 3)), ([-1], (960000,)), ([100, -1, 3], (100, 3200, 3))],
)
def test_reshape_output_shapes(shape_json, expected):
    p = pipe(
        [{"name": "reshape", "configuration": {"shape": shape_json}}, LE], (100, 50, 64, 3), "uint8"
    )
    assert p.array_codecs[0].output_shape == expected


def test_reshape_round_trips_and_rejects_bad_shapes():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    p = pipe(
        [{"name": "reshape", "configuration": {"shape": [[0, 1], -1]}}, LE], (2, 3, 4), "int32"
    )
    assert same_bits(p.decode(p.encode(x)), x) and p.encode(x) == x.tobytes()
    for bad in ([[1], [0]], [[1, 0], 4], [5, -1], [-1, -1], [[0], [2], 3], [0, 24]):
        with pytest.raises(MetadataError):
            pipe([{"name": "reshape", "configuration": {"shape": bad}}, LE], (2, 3, 4), "int32")


# ---- packbits ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "bool",
        "int2",
        "uint2",
        "int4",
        "uint4",
        "float4_e2m1fn",
        "float6_e2m3fn",
        "float6_e3m2fn",
        "complex_float4_e2m1fn",
        "int8",
        "int16",
        "uint64",
        "float32",
        "bfloat16",
        "complex_bfloat16",
        "complex_float64",
    ],
)
@pytest.mark.parametrize("padding", ["none", "first_byte", "last_byte", "start_byte"])
def test_packbits_round_trips(name, padding):
    info = parse_data_type(name)
    rng = np.random.default_rng(2)
    raw = rng.integers(0, 256, info.itemsize * 13, dtype=np.uint8)
    if name == "bool":
        values = (raw % 2).astype(bool)
    else:
        values = info.from_raw(np.frombuffer(raw.tobytes(), dtype=info.raw).copy())
    p = pipe([{"name": "packbits", "configuration": {"padding_encoding": padding}}], (13,), name)
    encoded = p.encode(values)
    assert len(encoded) == p.array_bytes.encoded_size
    assert same_bits(p.decode(encoded), values)


def test_packbits_bit_layout_and_partial_bits():
    p = pipe(
        [{"name": "packbits", "configuration": {"padding_encoding": "first_byte"}}], (3,), "uint4"
    )
    values = parse_data_type("uint4").from_raw(np.array([0x1, 0x2, 0xF], np.uint8))
    # 12 bits, least significant first: 0x1, 0x2 in byte 0, 0xF in the low half of byte 1; 4 padding bits
    assert p.encode(values) == bytes([4, 0x21, 0x0F])
    q = pipe([{"name": "packbits", "configuration": {"first_bit": 0, "last_bit": 2}}], (4,), "int8")
    x = np.array([-4, -1, 3, 0], np.int8)  # fit in 3 signed bits: sign-extended on decode
    assert same_bits(q.decode(q.encode(x)), x) and len(q.encode(x)) == 2
    with pytest.raises(MetadataError):
        pipe([{"name": "packbits", "configuration": {"first_bit": 5, "last_bit": 2}}], (4,), "int8")
    with pytest.raises(MetadataError):  # float16 is not among its supported types
        pipe([{"name": "packbits"}], (4,), "float16")


# ---- zfp --------------------------------------------------------------------------------------
def _zfp(mode, dtype, shape=(8, 12)):
    return pipe([{"name": "zfp", "configuration": mode}], shape, dtype)


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "int32", "int64", "int8", "int16", "uint8", "uint16"]
)
def test_zfp_reversible_is_lossless(dtype):
    rng = np.random.default_rng(5)
    info = np.dtype(dtype)
    x = (
        (rng.standard_normal((8, 12)) * 1e3).astype(dtype)
        if info.kind == "f"
        else rng.integers(np.iinfo(info).min, np.iinfo(info).max, (8, 12), dtype=np.int64).astype(
            dtype
        )
    )
    p = _zfp({"mode": "reversible"}, dtype)
    assert same_bits(p.decode(p.encode(x)), x)


@pytest.mark.parametrize("tolerance", [1.0, 0.01, 1e-6])
def test_zfp_fixed_accuracy_stays_within_the_tolerance(tolerance):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((16, 16, 4)) * 100
    p = _zfp({"mode": "fixed_accuracy", "tolerance": tolerance}, "float64", (16, 16, 4))
    assert np.abs(p.decode(p.encode(x)) - x).max() <= tolerance


@pytest.mark.parametrize("rate", [4, 8, 16])
def test_zfp_fixed_rate_uses_exactly_rate_bits_per_value(rate):
    x = np.random.default_rng(7).standard_normal((16, 16)).astype(np.float32)
    p = _zfp({"mode": "fixed_rate", "rate": rate}, "float32", (16, 16))
    encoded = p.encode(x)
    assert len(encoded) * 8 == rate * x.size  # 16 blocks of 4x4 values, rate bits each
    assert np.abs(p.decode(encoded) - x).max() < (1.0 if rate >= 8 else 4.0)


def test_zfp_integer_promotion_follows_the_readme():
    codec = _zfp({"mode": "reversible"}, "uint8", (4, 4)).array_bytes
    x = np.array([0, 1, 128, 255] * 4, np.uint8).reshape(4, 4)
    promoted = codec._promote(x)
    assert promoted.tolist() == [[((int(v) - 128) << 23) for v in row] for row in x.tolist()]
    assert same_bits(codec._demote(promoted), x)


def test_zfp_expert_mode_and_other_types_cannot_be_checked():
    expert = {"mode": "expert", "minbits": 1, "maxbits": 13, "maxprec": 19, "minexp": -2}
    with pytest.raises(ExtensionNotImplemented) as info:
        _zfp(expert, "float32")
    assert info.value.reason == "unknown-codec"
    with pytest.raises(ExtensionNotImplemented):
        _zfp({"mode": "reversible"}, "uint32")
    with pytest.raises(MetadataError):
        _zfp({"mode": "fixed_rate"}, "float32")  # rate is required


# ---- n5_default -------------------------------------------------------------------------------
def test_n5_default_registry_example_and_round_trip():
    example = REGISTRY / "codecs" / "n5_default" / "examples" / "zstd_array"
    if example.is_dir():
        assert ref.open_node(example)[:5, :3].tolist() == [[0.0] * 3] * 5
    codecs = [
        {
            "name": "n5_default",
            "configuration": {
                "codecs": [
                    {"name": "transpose", "configuration": {"order": [1, 0]}},
                    {"name": "bytes", "configuration": {"endian": "big"}},
                    {"name": "gzip", "configuration": {"level": 1}},
                ]
            },
        }
    ]
    values = np.arange(35, dtype=np.float32).reshape(5, 7)
    back, store = roundtrip(
        doc(
            [5, 7],
            [4, 3],
            "float32",
            0.0,
            codecs,
            cke={"name": "v2", "configuration": {"separator": "/"}},
        ),
        values,
    )
    assert same_bits(back, values)
    block = store.get("a/0/0")
    assert block[:12] == bytes.fromhex("000000020000000300000004")  # mode, rank, dims fastest first
    assert gzip.decompress(block[12:]) == values[:4, :3].T.astype(">f4").tobytes()


def test_n5_default_reads_truncated_boundary_blocks():
    codecs = [
        {
            "name": "n5_default",
            "configuration": {
                "codecs": [
                    {"name": "transpose", "configuration": {"order": [1, 0]}},
                    {"name": "bytes", "configuration": {"endian": "big"}},
                ]
            },
        }
    ]
    document = doc(
        [5, 7], [4, 4], "int16", -1, codecs, cke={"name": "v2", "configuration": {"separator": "/"}}
    )
    edge = np.array(
        [[1, 2, 3], [4, 5, 6]], np.int16
    )  # the (1, 1) block truncated to 1 x 3 ... here 2 x 3
    header = bytes.fromhex("00000002") + (3).to_bytes(4, "big") + (2).to_bytes(4, "big")
    store = ref.MemoryStore(
        {
            "zarr.json": __import__("json").dumps(document).encode(),
            "1/1": header + edge.T.astype(">i2").tobytes(),
        }
    )
    out = ref.open_node(store)[4:5, 4:7]
    assert out.tolist() == [[1, 2, 3]]


# ---- conditional ------------------------------------------------------------------------------
def test_conditional_applies_the_codecs_its_header_selects():
    codecs = [
        LE,
        {
            "name": "conditional",
            "configuration": {
                "codecs": [{"name": "gzip", "configuration": {"level": 1}}, {"name": "crc32c"}]
            },
        },
    ]
    p = pipe(codecs, (4,), "int32")
    values = np.arange(4, dtype=np.int32)
    payload = values.astype("<i4").tobytes()
    zipped = gzip.compress(payload)
    both = zipped + crc32c.crc32c(zipped).to_bytes(4, "little")
    for mask, body in (
        (0, payload),
        (1, zipped),
        (2, payload + crc32c.crc32c(payload).to_bytes(4, "little")),
        (3, both),
    ):
        assert same_bits(p.decode(bytes([mask]) + body), values)
    assert p.encode(values) == b"\x00" + payload  # the default mask skips every nested codec
    with pytest.raises(ZarrError):
        p.decode(bytes([4]) + payload)  # a reserved bit set


# ---- zarr-python 3's numcodecs.* codecs ---------------------------------------------------------
# codec id -> (dtype, role, class name in zarr.codecs.numcodecs, its arguments)
NUMCODECS_CASES = {
    "zlib": ("u2", "compressors", "Zlib", {"level": 3}),
    "bz2": ("u2", "compressors", "BZ2", {"level": 5}),
    "lzma": ("u2", "compressors", "LZMA", {}),
    "lz4": ("u2", "compressors", "LZ4", {}),
    "adler32": ("u2", "compressors", "Adler32", {}),
    "fletcher32": ("u2", "compressors", "Fletcher32", {}),
    "crc32": ("u2", "compressors", "CRC32", {}),
    "jenkins_lookup3": ("u2", "compressors", "JenkinsLookup3", {}),
    "shuffle": ("u2", "compressors", "Shuffle", {"elementsize": 2}),
    "blosc": ("u2", "compressors", "Blosc", {"cname": "zstd", "clevel": 3, "shuffle": 1}),
    "delta": ("u2", "filters", "Delta", {"dtype": "u2"}),
    "fixedscaleoffset": (
        "f8",
        "filters",
        "FixedScaleOffset",
        {"offset": 1, "scale": 100, "dtype": "f8", "astype": "i4"},
    ),
    "quantize": ("f8", "filters", "Quantize", {"digits": 2, "dtype": "f8"}),
    "bitround": ("f8", "filters", "BitRound", {"keepbits": 10}),
    "astype": ("f8", "filters", "AsType", {"encode_dtype": "f4", "decode_dtype": "f8"}),
    "pcodec": ("f8", "serializer", "PCodec", {"level": 8}),
    "zfpy": ("f8", "serializer", "ZFPY", {"mode": 4, "tolerance": 0.01}),
}


@pytest.mark.second_opinion
@pytest.mark.parametrize("codec_id", sorted(NUMCODECS_CASES))
def test_numcodecs_codecs_written_by_zarr_python_read_exactly(tmp_path, codec_id):
    zarr = pytest.importorskip("zarr")
    import zarr.codecs.numcodecs as nc

    dtype, role, class_name, arguments = NUMCODECS_CASES[codec_id]
    rng = np.random.default_rng(8)
    data = (
        rng.integers(0, 1000, (20, 30)).astype(dtype)
        if dtype == "u2"
        else rng.standard_normal((20, 30)) * 10
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        codec = getattr(nc, class_name)(**arguments)
        kwargs = (
            {"serializer": codec, "compressors": None} if role == "serializer" else {role: [codec]}
        )
        a = zarr.create_array(
            tmp_path / "a.zarr", shape=data.shape, chunks=(7, 11), dtype=dtype, **kwargs
        )
        a[:] = data
        theirs = a[:]
    names = [c["name"] for c in ref.open_node(tmp_path / "a.zarr").metadata["codecs"]]
    assert f"numcodecs.{codec_id}" in names
    assert same_bits(ref.open_node(tmp_path / "a.zarr")[:], theirs)
    # and zarr-python reads what the reference writes with the same metadata
    fmt = ref.get_format("v3")
    store = ref.DirectoryStore(tmp_path / "b.zarr")
    mine = fmt.create_array(store, "", ref.open_node(tmp_path / "a.zarr").metadata)
    mine[:] = theirs
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # (lossy codecs need not give `theirs` back: compare readers)
        assert same_bits(
            zarr.open_array(tmp_path / "b.zarr")[:], ref.open_node(tmp_path / "b.zarr")[:]
        )


def test_numcodecs_checksum_mismatch_is_reported_as_such():
    p = pipe([LE, {"name": "numcodecs.crc32"}], (4,), "int32")
    data = bytearray(p.encode(np.arange(4, dtype=np.int32)))
    data[0] ^= 1
    with pytest.raises(ZarrError) as info:
        p.decode(bytes(data))
    assert info.value.reason == "checksum-mismatch"
