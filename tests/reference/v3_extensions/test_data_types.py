"""The data types of the zarr-extensions registry (and the unregistered names zarr-python 3 writes
by default): every one reads and writes exactly, fill values follow each README, and arrays
written by zarr-python 3 and tensorstore read back bit for bit."""

from __future__ import annotations

import base64
import math
import warnings
from decimal import Decimal
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from conformance import reference as ref
from conformance.reference.errors import MetadataError, ZarrError
from conformance.reference.formats.v3 import (
    encode_fill_value,
    parse_data_type,
    parse_fill_value,
    registry,
    small_types,
)

from .helpers import BE, LE, doc, other_python, roundtrip, run_python, same_bits

SMALL_FLOATS = sorted(small_types.FLOATS)
SMALL_INTS = sorted(small_types.INTS)
COMPLEX = sorted(n for n in registry.DATA_TYPES if n.startswith("complex_"))


def test_every_registered_data_type_is_implemented():
    for name in sorted(registry.DATA_TYPES):
        value = name
        if name in ("numpy.datetime64", "numpy.timedelta64"):
            value = {"name": name, "configuration": {"unit": "s", "scale_factor": 1}}
        elif name == "fixed_length_utf32":
            value = {"name": name, "configuration": {"length_bytes": 8}}
        elif name in ("struct", "structured"):
            value = {
                "name": name,
                "configuration": {"fields": [{"name": "x", "data_type": "int8"}]},
            }
        assert parse_data_type(value).name in (name, "bytes"), name


# ---- small floats and integers ----------------------------------------------------------------
@pytest.mark.parametrize("name", SMALL_FLOATS + SMALL_INTS)
def test_every_bit_pattern_round_trips_and_matches_ml_dtypes(name):
    dt = parse_data_type(name)
    bits = dt.bits or dt.itemsize * 8
    patterns = np.arange(1 << bits, dtype=dt.raw)
    values = dt.from_raw(patterns)
    fill = 1.0 if name == "float8_e8m0fnu" else 0
    back, store = roundtrip(doc([len(values)], [64], name, fill, [LE]), values)
    assert same_bits(back.view(dt.raw), patterns)
    # the stored bytes are the patterns themselves (little-endian for bfloat16)
    stored = b"".join(store.get(f"a/c/{i}") for i in range(math.ceil(len(values) / 64)))
    assert stored[: patterns.nbytes] == patterns.astype(dt.raw.newbyteorder("<")).tobytes()
    # and mean what ml_dtypes (the second implementation) says they mean
    expected = patterns.view(np.dtype(getattr(ml_dtypes, name)))
    with np.errstate(invalid="ignore"):
        assert np.array_equal(back.astype(np.float64), expected.astype(np.float64), equal_nan=True)


@pytest.mark.parametrize(
    "name", ["int2", "int4", "uint2", "uint4", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn"]
)
def test_upper_bits_of_sub_byte_types_are_ignored_on_read(name):
    dt = parse_data_type(name)
    low = np.arange(1 << dt.bits, dtype=np.uint8)
    dirty = low | np.uint8(0xFF ^ ((1 << dt.bits) - 1))  # every ignored bit set
    store = ref.MemoryStore(
        {
            "zarr.json": _json(doc([len(low)], [len(low)], name, 0, [{"name": "bytes"}])),
            "c/0": dirty.tobytes(),
        }
    )
    assert same_bits(ref.open_node(store)[:].view(np.uint8), low)


def _json(document: dict) -> bytes:
    import json

    return json.dumps(document).encode()


def _exact_nearest(value: Fraction, name: str) -> int | None:
    """Brute force: the pattern nearest to `value` over the table of every pattern (ties to even)."""
    fmt = small_types.float_format(name)
    best = None
    for pattern in range(1 << fmt.bits):
        v = float(fmt.values[pattern])
        if not math.isfinite(v) or (v == 0 and math.copysign(1, v) < 0):
            continue
        distance = abs(Fraction(v) - value)
        key = (distance, pattern % 2)
        if best is None or key < best[0]:
            best = (key, pattern)
    return best[1]


@pytest.mark.parametrize("name", SMALL_FLOATS)
def test_fill_values_round_correctly_from_the_exact_decimal(name):
    fmt = small_types.float_format(name)
    finite = fmt.finite_values
    rng = np.random.default_rng(7)
    picks = rng.integers(1, len(finite) - 1, 12)
    for i in picks:
        lower, upper = Fraction(float(finite[i - 1])), Fraction(float(finite[i]))
        middle = (lower + upper) / 2
        for value in (
            middle,
            middle + Fraction(1, 10**30),
            middle - Fraction(1, 10**30),
            lower + (upper - lower) / 3,
        ):
            text = Decimal(value.numerator) / Decimal(value.denominator)
            if Fraction(text) != value:  # not exactly representable as a short decimal: skip
                continue
            got = fmt.to_bits(parse_fill_value(text, name))
            assert got == _exact_nearest(value, name), (name, value)


@pytest.mark.parametrize("name", SMALL_FLOATS)
def test_nan_and_infinity_fills_follow_the_readme(name):
    fmt = small_types.float_format(name)
    if fmt.nan is None:
        with pytest.raises(MetadataError):
            parse_fill_value("NaN", name)
    else:
        assert fmt.to_bits(parse_fill_value("NaN", name)) == fmt.nan
        assert encode_fill_value(parse_fill_value("NaN", name), name) == "NaN"
    expected_nan = {
        "bfloat16": 0x7FC0,
        "float8_e3m4": 0x78,
        "float8_e4m3": 0x7C,
        "float8_e5m2": 0x7E,
        "float8_e4m3fnuz": 0x80,
        "float8_e5m2fnuz": 0x80,
        "float8_e4m3b11fnuz": 0x80,
        "float8_e8m0fnu": 0xFF,
    }
    assert fmt.nan == expected_nan.get(name)
    if fmt.pos_inf is None:
        with pytest.raises(MetadataError):
            parse_fill_value("Infinity", name)
        with pytest.raises(MetadataError):  # beyond the range of a type without infinity: an error
            parse_fill_value(1e300, name)
    else:
        assert parse_fill_value(1e300, name).astype(np.float64) == np.inf  # IEEE overflow


@pytest.mark.parametrize("name", SMALL_FLOATS + SMALL_INTS + COMPLEX)
def test_fill_value_json_round_trips(name):
    dt = parse_data_type(name)
    rng = np.random.default_rng(3)
    for _ in range(20):
        if dt.kind == "complex":
            part = dt.component or parse_data_type(
                {"c8": "float32", "c16": "float64"}[dt.dtype.str[1:]]
            )
            raw = rng.integers(0, 1 << (part.bits or part.itemsize * 8), 2, dtype=np.uint64).astype(
                part.raw
            )
            parts = part.from_raw(raw)
            fill = np.empty((), dt.dtype)
            if dt.component is None:
                fill.real, fill.imag = parts[0], parts[1]
            else:
                fill["real"], fill["imag"] = parts[0], parts[1]
        else:
            raw = rng.integers(0, 1 << (dt.bits or dt.itemsize * 8), 1, dtype=np.uint64).astype(
                dt.raw
            )
            fill = dt.from_raw(raw).reshape(())
        text = encode_fill_value(fill, dt)
        again = parse_fill_value(text, dt)
        if dt.kind == "float" and math.isnan(float(fill.astype(np.float64))):
            assert math.isnan(
                float(again.astype(np.float64))
            )  # NaN payloads are written as hex: same bits
        assert encode_fill_value(again, dt) == text


def test_small_integer_fill_ranges():
    assert int(parse_fill_value(-8, "int4")) == -8 and int(parse_fill_value(3, "uint2")) == 3
    for name, bad in (("int4", 8), ("int4", -9), ("uint2", 4), ("int2", -3), ("uint4", -1)):
        with pytest.raises(MetadataError):
            parse_fill_value(bad, name)


@pytest.mark.parametrize("name", COMPLEX)
def test_complex_types_round_trip(name):
    dt = parse_data_type(name)
    part = dt.component or parse_data_type({"c8": "float32", "c16": "float64"}[dt.dtype.str[1:]])
    rng = np.random.default_rng(5)
    raw = rng.integers(0, 1 << (part.bits or part.itemsize * 8), 40, dtype=np.uint64).astype(
        part.raw
    )
    parts = part.from_raw(raw).reshape(20, 2)
    values = np.empty(20, dt.dtype)
    if dt.component is None:
        values.real, values.imag = parts[:, 0], parts[:, 1]
    else:
        values["real"], values["imag"] = parts[:, 0], parts[:, 1]
    for codec in (LE, BE):
        back, store = roundtrip(doc([20], [8], name, [1.0, 1.0], [codec]), values)
        assert same_bits(back, values)
        if part.itemsize > 1:  # the imaginary part follows the real one, each in the codec's order
            first = store.get("a/c/0")[: 2 * part.itemsize]
            order = "<" if codec is LE else ">"
            assert first == values[:1].view(part.raw).astype(part.raw.newbyteorder(order)).tobytes()


# ---- strings ----------------------------------------------------------------------------------
def test_fixed_length_utf32_matches_the_readme_example():
    values = np.array(["Hi", "", "abc"], dtype="U3")
    back, store = roundtrip(
        doc(
            [3],
            [3],
            {"name": "fixed_length_utf32", "configuration": {"length_bytes": 12}},
            "",
            [LE],
        ),
        values,
    )
    assert back.tolist() == ["Hi", "", "abc"]
    assert store.get("a/c/0")[:12] == bytes.fromhex("48000000 69000000 00000000".replace(" ", ""))
    _, big = roundtrip(
        doc(
            [3],
            [3],
            {"name": "fixed_length_utf32", "configuration": {"length_bytes": 12}},
            "",
            [BE],
        ),
        values,
    )
    assert big.get("a/c/0")[:8] == bytes.fromhex("0000004800000069")


def test_fixed_length_utf32_rules():
    dt = {"name": "fixed_length_utf32", "configuration": {"length_bytes": 8}}
    assert str(parse_fill_value("ab", dt)[()]) == "ab"
    with pytest.raises(MetadataError, match="code points"):
        parse_fill_value("abc", dt)  # more than length_bytes / 4 code points MUST be rejected
    with pytest.raises(MetadataError):
        parse_data_type({"name": "fixed_length_utf32", "configuration": {"length_bytes": 6}})
    with pytest.raises(MetadataError):
        parse_data_type({"name": "fixed_length_utf32"})
    with pytest.raises(ZarrError, match="endian"):  # the bytes codec MUST give the byte order
        roundtrip(doc([2], [2], dt, "", [{"name": "bytes"}]), np.array(["a", "b"]))


def test_unknown_name_is_reported_as_unknown_not_as_taking_no_configuration():
    with pytest.raises(MetadataError) as info:
        parse_data_type({"name": "my_new_type", "configuration": {"length_bytes": 4}})
    assert "unknown data type 'my_new_type'" in str(
        info.value
    ) and "takes no configuration" not in str(info.value)
    assert info.value.reason == "invalid-data-type" and info.value.requirement == "V3-DT-008"
    with pytest.raises(
        MetadataError, match="takes no configuration"
    ):  # a known type given one still says so
        parse_data_type({"name": "bfloat16", "configuration": {"x": 1}})


# ---- struct -----------------------------------------------------------------------------------
RECORD = {
    "name": "struct",
    "configuration": {
        "fields": [
            {"name": "id", "data_type": "int32"},
            {"name": "flags", "data_type": "uint8"},
            {"name": "value", "data_type": "float64"},
        ]
    },
}


def test_struct_is_packed_as_the_readme_shows():
    dt = parse_data_type(RECORD)
    assert dt.itemsize == 13 and [dt.dtype.fields[n][1] for n in ("id", "flags", "value")] == [
        0,
        4,
        5,
    ]
    values = np.zeros(2, dt.dtype)
    values["id"], values["flags"], values["value"] = [1, -2], [3, 4], [0.5, -1.25]
    back, store = roundtrip(
        doc([2], [2], RECORD, {"id": 0, "flags": 0, "value": 0.0}, [LE]), values
    )
    assert same_bits(back, values)
    expected = (1).to_bytes(4, "little", signed=True) + b"\x03" + np.float64(0.5).tobytes()
    assert store.get("a/c/0")[:13] == expected
    _, big = roundtrip(doc([2], [2], RECORD, {"id": 0, "flags": 0, "value": 0.0}, [BE]), values)
    assert (
        big.get("a/c/0")[:13] == (1).to_bytes(4, "big") + b"\x03" + np.array([0.5], ">f8").tobytes()
    )


def test_nested_struct_with_extension_fields():
    inner = {
        "name": "struct",
        "configuration": {
            "fields": [
                {"name": "x", "data_type": "bfloat16"},
                {
                    "name": "t",
                    "data_type": {
                        "name": "numpy.datetime64",
                        "configuration": {"unit": "s", "scale_factor": 1},
                    },
                },
            ]
        },
    }
    outer = {
        "name": "struct",
        "configuration": {
            "fields": [{"name": "p", "data_type": inner}, {"name": "n", "data_type": "int4"}]
        },
    }
    dt = parse_data_type(outer)
    assert dt.itemsize == 2 + 8 + 1
    fill = {"p": {"x": 1.5, "t": "NaT"}, "n": -3}
    values = np.zeros(3, dt.dtype)
    values["p"]["x"] = [1, 2, 3]
    values["n"] = [-8, 0, 7]
    back, _ = roundtrip(doc([3], [2], outer, fill, [LE]), values)
    assert same_bits(back, values)
    assert encode_fill_value(parse_fill_value(fill, dt), dt) == {
        "p": {"x": 1.5, "t": -(2**63)},
        "n": -3,
    }


def test_struct_rules():
    with pytest.raises(MetadataError, match="repeated"):
        parse_data_type(
            {
                "name": "struct",
                "configuration": {
                    "fields": [
                        {"name": "a", "data_type": "int8"},
                        {"name": "a", "data_type": "int8"},
                    ]
                },
            }
        )
    with pytest.raises(MetadataError, match="variable-length"):
        parse_data_type(
            {"name": "struct", "configuration": {"fields": [{"name": "s", "data_type": "string"}]}}
        )
    with pytest.raises(MetadataError, match="one entry per field"):
        parse_fill_value({"id": 0, "flags": 0}, RECORD)
    with pytest.raises(
        MetadataError
    ):  # struct fills are objects; only the legacy alias takes base64
        parse_fill_value("AAAAAAAAAAAAAAAAAA==", RECORD)
    with pytest.raises(
        ZarrError, match="endian"
    ):  # multi-byte fields: the bytes codec MUST say endian
        roundtrip(
            doc([1], [1], RECORD, {"id": 0, "flags": 0, "value": 0.0}, [{"name": "bytes"}]),
            np.zeros(1, parse_data_type(RECORD).dtype),
        )


def test_legacy_structured_reads_tuple_fields_base64_fill_and_missing_endian():
    legacy = {"name": "structured", "configuration": {"fields": [["a", "int16"], ["b", "float32"]]}}
    fill = base64.b64encode((7).to_bytes(2, "big") + np.array([2.5], ">f4").tobytes()).decode()
    dt = parse_data_type(legacy)
    got = parse_fill_value(fill, dt, endian="big")
    assert int(got["a"]) == 7 and float(got["b"]) == 2.5
    little = base64.b64encode((7).to_bytes(2, "little") + np.float32(2.5).tobytes()).decode()
    store = ref.MemoryStore(
        {"zarr.json": _json(doc([2], [2], legacy, little, [{"name": "bytes"}]))}
    )
    array = ref.open_node(store)
    assert int(array.fill_value["a"]) == 7 and any("little-endian" in n for n in array.notes)
    assert array[:]["b"].tolist() == [2.5, 2.5]


# ---- written by zarr-python 3 (the default dtypes it uses) -------------------------------------
@pytest.mark.second_opinion
def test_zarr_python_default_U_and_S_arrays_read_exactly(tmp_path):
    zarr = pytest.importorskip("zarr")
    strings = np.array(["", "a", "héllo", "\U0001f600xyz", "12345"], dtype="<U5")
    raw = np.array([b"", b"a\x00b", b"abcd", b"\xff\x00\x01\x02", b"z"], dtype="S4")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        u = zarr.create_array(tmp_path / "u.zarr", shape=(5,), chunks=(2,), dtype="<U5")
        u[:4] = strings[:4]
        s = zarr.create_array(tmp_path / "s.zarr", shape=(5,), chunks=(2,), dtype="S4")
        s[:] = raw
    u_doc = ref.open_node(tmp_path / "u.zarr")
    assert u_doc.metadata["data_type"] == {
        "name": "fixed_length_utf32",
        "configuration": {"length_bytes": 20},
    }
    assert u_doc[:].tolist() == [
        "",
        "a",
        "héllo",
        "\U0001f600xyz",
        "",
    ]  # the last element is the fill ""
    s_doc = ref.open_node(tmp_path / "s.zarr")
    assert s_doc.metadata["data_type"]["name"] == "null_terminated_bytes"
    assert same_bits(s_doc[:], raw) and s_doc[:].tolist() == [
        b"",
        b"a\x00b",
        b"abcd",
        b"\xff\x00\x01\x02",
        b"z",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert same_bits(s_doc[:], zarr.open_array(tmp_path / "s.zarr")[:])


@pytest.mark.second_opinion
def test_zarr_python_reads_what_the_reference_writes(tmp_path):
    zarr = pytest.importorskip("zarr")
    store = ref.DirectoryStore(tmp_path / "w.zarr")
    fmt = ref.get_format("v3")
    cases = {
        "u": (np.array(["ab", "ü", ""], dtype="U2"), {}),
        "s": (np.array([b"ab", b"", b"c"], dtype="S2"), {}),
        "dt": (np.array(["2020-01-01", "NaT", "1970-01-01"], dtype="M8[s]"), {}),
    }
    for name, (values, options) in cases.items():
        array = fmt.create_array(
            store, name, fmt.array_metadata(values.shape, (2,), values.dtype, **options)
        )
        array[:] = values
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (values, _) in cases.items():
            theirs = zarr.open_array(tmp_path / "w.zarr" / name)[:]
            assert theirs.tobytes() == values.tobytes(), name
    # zarr-python 3.1.6 knows only the legacy "structured" name, which the registry forbids writers
    # to use: it cannot open a registry-conformant "struct" array (an interoperability finding)
    records = np.array([(1, 2.5), (-3, 0.0)], dtype=[("i", "<i4"), ("f", "<f8")])
    fmt.create_array(store, "st", fmt.array_metadata(records.shape, (2,), records.dtype))[:] = (
        records
    )
    assert ref.open_node(tmp_path / "w.zarr" / "st").metadata["data_type"]["name"] == "struct"
    with warnings.catch_warnings(), pytest.raises(Exception, match="struct"):
        warnings.simplefilter("ignore")
        zarr.open_array(tmp_path / "w.zarr" / "st")


@pytest.mark.second_opinion
def test_tensorstore_small_float_arrays_read_exactly(tmp_path):
    python = other_python("tensorstore")
    if python is None:
        pytest.skip("no tensorstore environment here (.cache/envs/tensorstore-*)")
    code = """
import sys, numpy as np, tensorstore as ts, ml_dtypes
root = sys.argv[1]
for name in ("bfloat16", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz", "int4"):
    dtype = np.dtype(getattr(ml_dtypes, name))
    bits = 4 if name == "int4" else dtype.itemsize * 8
    values = np.arange(1 << bits, dtype="u2" if dtype.itemsize == 2 else "u1").view(dtype)
    t = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": f"{root}/{name}"},
                 "metadata": {"shape": [len(values)], "data_type": name,
                              "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [100]}}}},
                create=True).result()
    t.write(values).result()
"""
    run_python(python, code, str(tmp_path))
    for name in (
        "bfloat16",
        "float8_e5m2",
        "float8_e4m3fnuz",
        "float8_e5m2fnuz",
        "float8_e4m3b11fnuz",
        "int4",
    ):
        dt = parse_data_type(name)
        bits = dt.bits or dt.itemsize * 8
        got = ref.open_node(tmp_path / name)[:]
        assert same_bits(got.view(dt.raw), np.arange(1 << bits, dtype=dt.raw)), name
