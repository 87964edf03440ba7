"""Exact parsing and canonical writing of v3 `fill_value` (V3-FILL-001..010).

Parsing returns a 0-d ndarray of the data type's native NumPy dtype holding the exact bits.
JSON numbers may arrive as int, float or decimal.Decimal; Decimal (the exact text of the number)
lets float16/float32 fills round once, from the decimal value to the nearest representable value
(ties to even), instead of twice through float64.

Choices the spec leaves open, made here:
* hex fills ("0x...") must have exactly 2 * itemsize hex digits after a lowercase "0x"; either
  case of digits is read, lowercase is written;
* `r<N>` fills are lists of N/8 integers (the spec's "length N" is read as bytes, V3-FILL-008);
* numpy.datetime64/timedelta64 fills are an int64 or "NaT"; NaT is written as -2^63, the form
  zarr-python writes and every reader of the extension accepts;
* `bytes` fills are standard base64 strings or lists of byte values, `string` fills are JSON strings;
* zarr-extensions types: bfloat16/float8/float6/float4 as IEEE floats, "NaN" being the pattern
  each README names and numbers correctly rounded from their decimal value (small_types.py);
  complex variants as [re, im]; fixed_length_utf32 as a string of at most length_bytes/4 code
  points; struct as an object with one entry per field (legacy `structured` also as base64 of the
  packed bytes in the bytes codec's byte order, little-endian when it has none);
  null_terminated_bytes and raw_bytes (zarr-python 3) as base64 strings.
"""

from __future__ import annotations

import base64
import binascii
import math
from decimal import Decimal
from typing import Any, Literal

import numpy as np

from ...errors import MetadataError
from . import small_types
from .data_types import DataType, resolve_data_type

_UINT: dict[int, np.dtype[np.unsignedinteger[Any]]] = {
    2: np.dtype("u2"),
    4: np.dtype("u4"),
    8: np.dtype("u8"),
}
_CANONICAL_NAN = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}  # V3-FILL-005
_COMPONENT: dict[str, np.dtype] = {"c8": np.dtype("f4"), "c16": np.dtype("f8")}
NAT = -(2**63)


def _invalid(message: str, requirement: str | None = None) -> MetadataError:
    return MetadataError("invalid-fill-value", message, requirement)


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


# ---- parsing ------------------------------------------------------------------------------


def parse_fill_value(value: Any, data_type: Any, endian: str | None = None) -> np.ndarray:
    """The fill value for `data_type` (a DataType, v3 name or JSON value) as a 0-d ndarray.
    `endian` is the bytes codec's byte order, needed only for legacy `structured` base64 fills."""
    dt = resolve_data_type(data_type)
    kind = dt.kind
    if value is None:
        raise _invalid(f"fill_value null is not valid for {dt.name}", "V3-FILL-010")
    if kind == "bool":
        if not isinstance(value, bool):
            raise _invalid(f"a bool fill_value must be true or false, got {value!r}", "V3-FILL-001")
        return np.array(value, dtype=dt.dtype)
    if kind in ("int", "uint"):
        if dt.small:
            low, high = small_types.int_range(dt.name)
            return np.array(
                _json_integer(value, None, dt.name, "V3-DT-009", (low, high)), dtype=dt.dtype
            )
        return np.array(_json_integer(value, dt.dtype, dt.name), dtype=dt.dtype)
    if kind == "float":
        if dt.float_format is not None:
            return _parse_small_float(value, dt.float_format)
        return _parse_float(value, dt.dtype, dt.name)
    if kind == "complex":
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise _invalid(
                f"a {dt.name} fill_value must be a [real, imaginary] pair, got {value!r}",
                "V3-FILL-007",
            )
        out = np.empty((), dtype=dt.dtype)
        if dt.component is not None:
            part = dt.component
            out["real"] = parse_fill_value(value[0], part)
            out["imag"] = parse_fill_value(value[1], part)
            return out
        part_dtype = _COMPONENT[dt.dtype.str[1:]]
        out.real = _parse_float(value[0], part_dtype, dt.name)
        out.imag = _parse_float(value[1], part_dtype, dt.name)
        return out
    if kind == "raw":
        if dt.configuration is not None:  # raw_bytes (zarr-python 3): base64 of exactly the item
            data = _base64(value, dt.name)
            if len(data) != dt.itemsize:
                raise _invalid(
                    f"{dt.name} fill_value decodes to {len(data)} bytes, expected {dt.itemsize}",
                    "V3-DT-009",
                )
            return np.frombuffer(data, dtype=dt.dtype).reshape(()).copy()
        return _parse_raw(value, dt)
    if kind == "utf32":
        if not isinstance(value, str):
            raise _invalid(
                f"a fixed_length_utf32 fill_value must be a JSON string, got {_kind(value)}",
                "V3-DT-009",
            )
        capacity = dt.itemsize // 4
        if len(value) > capacity:
            raise _invalid(
                f"fill_value {value!r} has {len(value)} code points, more than the {capacity} of "
                f"length_bytes {dt.itemsize} (it must be rejected)",
                "V3-DT-009",
            )
        return np.array(value, dtype=dt.dtype)
    if kind == "nulbytes":
        data = _base64(value, dt.name)
        if len(data) > dt.itemsize:
            raise _invalid(
                f"{dt.name} fill_value decodes to {len(data)} bytes, more than {dt.itemsize}",
                "V3-DT-009",
            )
        return np.array(data, dtype=dt.dtype)
    if kind == "struct":
        return _parse_struct(value, dt, endian)
    if kind == "string":
        if not isinstance(value, str):
            raise _invalid(
                f"a string fill_value must be a JSON string, got {_kind(value)}", "V3-DT-009"
            )
        return _object_scalar(value)
    if kind == "bytes":
        # The registry's bytes README: "an array of integers from the closed interval [0, 255]"
        # (one per byte) or a base64 string.
        if isinstance(value, list):
            if not all(type(b) is int and 0 <= b <= 255 for b in value):
                raise _invalid(
                    f"a bytes fill_value list must hold integers in [0, 255], got {value!r}",
                    "V3-DT-009",
                )
            return _object_scalar(bytes(value))
        if not isinstance(value, str):
            raise _invalid(
                f"a bytes fill_value must be a base64 string or a list of byte values, "
                f"got {_kind(value)}",
                "V3-DT-009",
            )
        try:
            return _object_scalar(base64.b64decode(value.encode("ascii"), validate=True))
        except (binascii.Error, UnicodeEncodeError):
            raise _invalid(f"bytes fill_value {value!r} is not valid base64", "V3-DT-009") from None
    if kind in ("datetime", "timedelta"):
        if value == "NaT" and isinstance(value, str):
            ticks = NAT
        else:
            ticks = _json_integer(value, np.dtype("i8"), dt.name, "V3-DT-009")
        return np.array(ticks, dtype="i8").view(dt.dtype)
    raise _invalid(f"no fill value rules for data type {dt.name!r}")


def _base64(value: Any, name: str) -> bytes:
    if not isinstance(value, str):
        raise _invalid(
            f"a {name} fill_value must be a base64 string, got {_kind(value)}", "V3-DT-009"
        )
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise _invalid(f"{name} fill_value {value!r} is not valid base64", "V3-DT-009") from None


def _parse_struct(value: Any, dt: DataType, endian: str | None) -> np.ndarray:
    """An object with exactly one valid fill per field; legacy `structured` also base64 of the
    packed bytes in the bytes codec's byte order (little-endian when it gives none)."""
    if isinstance(value, str) and dt.legacy:
        data = _base64(value, dt.name)
        if len(data) != dt.itemsize:
            raise _invalid(
                f"structured fill_value decodes to {len(data)} bytes, expected {dt.itemsize}",
                "V3-DT-009",
            )
        order: Literal["<", ">"] = ">" if endian == "big" else "<"
        raw = np.frombuffer(data, dtype=dt.raw.newbyteorder(order)).astype(dt.raw)
        return dt.from_raw(raw.reshape(()))
    if not isinstance(value, dict):
        what = "an object of field values" + (" or a base64 string" if dt.legacy else "")
        raise _invalid(f"a {dt.name} fill_value must be {what}, got {_kind(value)}", "V3-DT-009")
    names = [name for name, _ in dt.fields]
    if set(value) != set(names):
        missing, extra = sorted(set(names) - set(value)), sorted(set(value) - set(names))
        raise _invalid(
            f"a {dt.name} fill_value needs exactly one entry per field (missing {missing}, "
            f"unknown {extra})",
            "V3-DT-009",
        )
    out = np.zeros((), dtype=dt.dtype)
    for name, field_type in dt.fields:
        out[name] = parse_fill_value(value[name], field_type, endian)
    return out


def _parse_small_float(value: Any, fmt: small_types.FloatFormat) -> np.ndarray:
    """A bfloat16/float8/float6/float4 fill: a number (correctly rounded), "NaN" (the README's
    pattern), "Infinity"/"-Infinity" where the type has them, or "0x" + 2 hex digits per byte."""
    name = fmt.name
    if isinstance(value, str):
        if value == "NaN":
            if fmt.nan is None:
                raise _invalid(
                    f"{name} has no NaN, so 'NaN' is not a valid fill_value", "V3-DT-009"
                )
            return fmt.from_bits(fmt.nan)
        if value in ("Infinity", "-Infinity"):
            bits = fmt.pos_inf if value == "Infinity" else fmt.neg_inf
            if bits is None:
                raise _invalid(
                    f"{name} has no infinity, so {value!r} is not a valid fill_value", "V3-DT-009"
                )
            return fmt.from_bits(bits)
        if value.startswith("0x"):
            digits = value[2:]
            size = fmt.dtype.itemsize
            if len(digits) != 2 * size or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise _invalid(
                    f"hex fill_value {value!r} for {name} needs exactly {2 * size} hex digits",
                    "V3-FILL-006",
                )
            bits = int(digits, 16)
            if bits >> fmt.bits:
                raise _invalid(
                    f"hex fill_value {value!r} sets bits above the {fmt.bits} bits of {name}",
                    "V3-DT-009",
                )
            return fmt.from_bits(bits)
        raise _invalid(f"{value!r} is not a valid {name} fill_value", "V3-FILL-004")
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise _invalid(
            f"a {name} fill_value must be a number or a special string, got {_kind(value)}",
            "V3-FILL-003",
        )
    if (isinstance(value, Decimal) and not value.is_finite()) or (
        isinstance(value, float) and not math.isfinite(value)
    ):
        raise _invalid(
            "non-finite floats must use the strings 'NaN', 'Infinity' or '-Infinity'", "V3-FILL-004"
        )
    try:
        return fmt.from_bits(fmt.round_exact(value))
    except small_types.NotRepresentable as exc:
        raise _invalid(f"fill_value {value}: {exc}", "V3-DT-009") from None


def _object_scalar(value: Any) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def _json_integer(
    value: Any,
    dtype: np.dtype | None,
    name: str,
    requirement: str = "V3-FILL-002",
    bounds: tuple[int, int] | None = None,
) -> int:
    """A JSON number with no fraction or exponent, inside the type's range (V3-FILL-002)."""
    if isinstance(value, Decimal) and value.is_finite() and value.as_tuple().exponent == 0:
        value = int(value)
    if type(value) is not int:
        raise _invalid(
            f"a {name} fill_value must be an integer without fraction or exponent, got {value!r}",
            requirement,
        )
    low, high = (
        bounds if bounds is not None else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    )
    if not low <= value <= high:
        raise _invalid(f"fill_value {value} is out of range for {name}", requirement)
    return value


def _parse_float(value: Any, ftype: np.dtype, name: str) -> np.ndarray:
    """One IEEE float from its JSON form (V3-FILL-003, -004, -005, -006)."""
    size = ftype.itemsize
    if isinstance(value, str):
        if value == "NaN":
            return _from_bits(_CANONICAL_NAN[size], ftype)
        if value == "Infinity":
            return np.array(np.inf, dtype=ftype)
        if value == "-Infinity":
            return np.array(-np.inf, dtype=ftype)
        if value.startswith("0x"):
            digits = value[2:]
            if len(digits) != 2 * size or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise _invalid(
                    f"hex fill_value {value!r} for {name} needs exactly {2 * size} hex digits",
                    "V3-FILL-006",
                )
            return _from_bits(int(digits, 16), ftype)
        raise _invalid(
            f"{value!r} is not a valid float fill_value ('NaN', 'Infinity', '-Infinity' or '0x...')",
            "V3-FILL-004",
        )
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise _invalid(
            f"a {name} fill_value must be a number or a special string, got {_kind(value)}",
            "V3-FILL-003",
        )
    if isinstance(value, Decimal) and not value.is_finite():
        raise _invalid(f"{value!r} is not a JSON number", "V3-FILL-003")
    if isinstance(value, float) and not math.isfinite(value):
        raise _invalid(
            "non-finite floats must use the strings 'NaN', 'Infinity' or '-Infinity'", "V3-FILL-004"
        )
    return round_to_float(value, ftype)


def _from_bits(bits: int, ftype: np.dtype) -> np.ndarray:
    return np.array(bits, dtype=_UINT[ftype.itemsize]).view(ftype)


def _to_double(value: int | float | Decimal) -> float:
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            return math.copysign(math.inf, value)
    return float(value)  # float(Decimal) is correctly rounded, and signed zeros survive


def round_to_float(value: int | float | Decimal, ftype: np.dtype) -> np.ndarray:
    """The representable value of `ftype` nearest to the exact number `value` (ties to even).

    Rounding through float64 first is exact except when the double lands exactly on a midpoint
    between two neighbours of the narrower type; that case is settled by comparing the exact value
    with the midpoint."""
    ftype = np.dtype(ftype)
    with np.errstate(over="ignore"):
        return _round(value, _to_double(value), ftype)


def _round(value: int | float | Decimal, double: float, ftype: np.dtype) -> np.ndarray:
    near = np.array(double, dtype=ftype)
    if (
        ftype.itemsize == 8
        or isinstance(value, float)
        or not math.isfinite(double)
        or float(near) == double
    ):
        return near
    # the two neighbours of `double` in ftype (either may be an infinity)
    if float(near) > double:
        lower, upper = np.nextafter(near, np.array(-np.inf, dtype=ftype)), near
    else:
        lower, upper = near, np.nextafter(near, np.array(np.inf, dtype=ftype))
    if double != _midpoint(lower, upper):
        return near
    exact, mid = Decimal(value), Decimal(double)
    if exact == mid:
        return near  # a true tie: NumPy already chose the even neighbour
    return np.array(upper if exact > mid else lower, dtype=ftype)


def _midpoint(lower: np.ndarray, upper: np.ndarray) -> float:
    """The value halfway between two adjacent floats; next to an infinity, half an ulp past the
    largest finite value (the IEEE overflow threshold)."""
    lo, hi = float(lower), float(upper)
    if math.isinf(lo) or math.isinf(hi):
        finite = upper if math.isinf(lo) else lower
        ulp = abs(float(finite) - float(np.nextafter(finite, np.zeros((), dtype=finite.dtype))))
        return float(finite) + math.copysign(ulp / 2, float(finite))
    return (lo + hi) / 2


def _parse_raw(value: Any, dt: DataType) -> np.ndarray:
    size = dt.itemsize
    if not isinstance(value, (list, tuple)) or len(value) != size:
        raise _invalid(
            f"an {dt.name} fill_value must be a list of {size} byte values", "V3-FILL-008"
        )
    if not all(type(b) is int and 0 <= b <= 255 for b in value):
        raise _invalid(f"{dt.name} fill_value bytes must be integers in [0, 255]", "V3-FILL-008")
    return np.frombuffer(bytes(value), dtype=dt.dtype).reshape(()).copy()


# ---- writing ------------------------------------------------------------------------------


def encode_fill_value(value: Any, data_type: Any) -> Any:
    """The canonical JSON form of a fill value: JSON booleans and exact integers; floats as the
    shortest decimal that reads back to the same bits, "NaN" only for the canonical NaN, "0x..."
    for any other NaN, "Infinity"/"-Infinity"; complex as [re, im]; r<N> as a byte list."""
    dt = resolve_data_type(data_type)
    return _scalar_json(fill_value_array(value, dt), dt)


def fill_value_array(value: Any, data_type: Any) -> np.ndarray:
    """A user-supplied fill value (Python or NumPy scalar, 0-d array, or the JSON form) as a
    0-d ndarray of the data type; raises MetadataError('invalid-fill-value') if it does not fit."""
    dt = resolve_data_type(data_type)
    kind, dtype = dt.kind, dt.dtype
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype == dtype:
        return value.copy()
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]  # a 0-d array of another byte order or type: judge its scalar
    if isinstance(value, np.generic) and value.dtype == dtype:
        return np.array(value)
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise _invalid(f"a bool fill value must be True or False, got {value!r}", "V3-FILL-001")
        return np.array(bool(value), dtype=dtype)
    if dt.small or dt.component is not None:
        if isinstance(value, (list, tuple, str)):  # the JSON form
            return parse_fill_value(list(value) if isinstance(value, tuple) else value, dt)
        if isinstance(value, np.ndarray) and value.dtype == dtype:
            return np.array(value).reshape(())
        if isinstance(value, (np.ndarray, np.generic)):
            value = value.item() if dt.kind != "complex" else complex(value)
        if dt.kind == "complex":
            value = complex(value)
            return parse_fill_value(
                [_small_json_input(value.real), _small_json_input(value.imag)], dt
            )
        if dt.kind == "float":
            value = _small_json_input(float(value))
        return parse_fill_value(value, dt)
    if kind in ("int", "uint"):
        if isinstance(value, np.integer):
            value = int(value)
        return parse_fill_value(value, dt)
    if kind == "float":
        if isinstance(value, np.floating):
            with np.errstate(over="ignore"):
                return np.array(value, dtype=dtype)
        if isinstance(value, float) and not math.isfinite(value):
            return np.array(value, dtype=dtype)  # NaN becomes the canonical quiet NaN of dtype
        return parse_fill_value(value, dt)
    if kind == "complex":
        if isinstance(value, (complex, np.complexfloating)):
            return np.array(value, dtype=dtype)
        if isinstance(value, (list, tuple)):
            return parse_fill_value(value, dt)
        return np.array(complex(value), dtype=dtype)
    if kind == "raw":
        if isinstance(value, np.void):
            value = list(value.tobytes())
        elif isinstance(value, (bytes, bytearray)):
            value = list(value)
        return parse_fill_value(value, dt)
    if kind == "string":
        if not isinstance(value, str):
            raise _invalid(f"a string fill value must be str, got {_kind(value)}")
        return _object_scalar(value)
    if kind == "bytes":
        if isinstance(value, str):  # the JSON form: base64
            return parse_fill_value(value, dt)
        if not isinstance(value, (bytes, bytearray)):
            raise _invalid(f"a bytes fill value must be bytes, got {_kind(value)}")
        return _object_scalar(bytes(value))
    if kind in ("datetime", "timedelta"):
        if isinstance(value, (np.datetime64, np.timedelta64)):
            return np.array(value).astype(dtype)
        return parse_fill_value(value, dt)
    if kind == "utf32":
        if isinstance(value, np.str_):
            value = str(value)
        return parse_fill_value(value, dt)
    if kind == "nulbytes":
        if isinstance(value, (bytes, bytearray, np.bytes_)):
            if len(value) > dt.itemsize:
                raise _invalid(f"fill value {value!r} is longer than {dt.itemsize} bytes")
            return np.array(bytes(value), dtype=dtype)
        return parse_fill_value(value, dt)
    if kind == "struct":
        if isinstance(value, (np.void, np.ndarray)) and value.dtype.names == dtype.names:
            return np.array(value, dtype=dtype).reshape(())
        if isinstance(value, (tuple, list)) and len(value) == len(dt.fields):
            out = np.zeros((), dtype=dtype)
            for (name, field_type), item in zip(dt.fields, value):
                out[name] = fill_value_array(item, field_type)
            return out
        if isinstance(value, dict):
            out = np.zeros((), dtype=dtype)
            if set(value) != {name for name, _ in dt.fields}:
                raise _invalid(
                    f"a struct fill value needs one entry per field {[n for n, _ in dt.fields]}"
                )
            for name, field_type in dt.fields:
                out[name] = fill_value_array(value[name], field_type)
            return out
        raise _invalid(f"a struct fill value must be a record, tuple or dict, got {_kind(value)}")
    raise _invalid(f"no fill value rules for data type {dt.name!r}")


def _small_json_input(value: float) -> Any:
    """A Python float as the JSON form the small-float parser takes (special strings for NaN/inf)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _scalar_json(arr: np.ndarray, dt: DataType) -> Any:
    kind = dt.kind
    if kind == "bool":
        return bool(arr)
    if kind in ("int", "uint"):
        return int(arr[()]) if dt.small else int(arr)
    if kind == "float":
        if dt.float_format is not None:
            return _small_float_json(arr, dt.float_format)
        return _float_json(arr)
    if kind == "complex":
        if dt.component is not None:
            return [
                _scalar_json(np.asarray(arr["real"]), dt.component),
                _scalar_json(np.asarray(arr["imag"]), dt.component),
            ]
        return [_float_json(arr.real), _float_json(arr.imag)]
    if kind == "raw":
        if dt.configuration is not None:
            return base64.standard_b64encode(arr.tobytes()).decode("ascii")
        return list(arr.tobytes())
    if kind == "utf32":
        return str(arr[()])
    if kind == "nulbytes":
        return base64.standard_b64encode(bytes(arr[()])).decode("ascii")
    if kind == "struct":
        return {
            name: _scalar_json(np.asarray(arr[name]), field_type) for name, field_type in dt.fields
        }
    if kind == "string":
        return str(arr[()])
    if kind == "bytes":
        return base64.standard_b64encode(bytes(arr[()])).decode("ascii")
    if kind in ("datetime", "timedelta"):
        return int(arr.view("i8"))
    raise _invalid(f"no fill value rules for data type {dt.name!r}")


def _small_float_json(arr: np.ndarray, fmt: small_types.FloatFormat) -> float | str:
    bits = fmt.to_bits(arr)
    value = float(fmt.values[bits])
    if math.isnan(value):
        return "NaN" if bits == fmt.nan else f"0x{bits:0{2 * fmt.dtype.itemsize}x}"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return fmt.shortest_json(bits)


def _float_json(arr: np.ndarray) -> float | str:
    arr = np.asarray(arr)
    size = arr.dtype.itemsize
    bits = int(arr.view(_UINT[size]))
    value = float(arr)
    if math.isnan(value):
        return "NaN" if bits == _CANONICAL_NAN[size] else f"0x{bits:0{2 * size}x}"  # V3-FILL-006
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if size == 8:
        return value  # repr(float) is the shortest round-tripping decimal
    shortest = float(str(arr[()]))  # NumPy prints the shortest decimal for the narrow type
    written = Decimal(repr(shortest))  # what a reader will see in the JSON text
    if int(round_to_float(written, arr.dtype).view(_UINT[size])) == bits:
        return shortest
    return value  # the exact value as a double always reads back to the same bits
