"""Draft fill values (V3DRAFT-META-011) and zarr-python 2's v2-style fill values (V3DRAFT-ZP2-003).

seed-002 rules, with the reference's documented choices:
* `null` is refused ("not permitted"), although the draft's own extension example uses it.
* bool: `true`/`false`; integers: a JSON integer in range (no fraction or exponent part).
* floats: a JSON number, or "NaN", "+Infinity", "-Infinity". The final format's "Infinity"
  is not in this draft's list and is refused. A finite number that overflows the type is refused.
* any core type: "0x..." / "0b..." with exactly the type's width in digits. For bool, integers and
  floats the digits are the value's bit pattern, most significant first ("0x3f800000" is float32
  1.0). The draft does not say how to order complex and raw bits; the reference reads complex as
  the real part's bits then the imaginary part's, and r<N> as the bytes in storage order.
* complex and r<N> have no other JSON form in this draft, so only the bit-string forms apply.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ...errors import MetadataError
from .dtypes import DataType

_HEX = re.compile(r"0x([0-9a-fA-F]+)")
_BIN = re.compile(r"0b([01]+)")
# Canonical quiet NaN bit patterns (the ones "NaN" means and the ones written back as "NaN").
_CANONICAL_NAN = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}
_SPECIAL = {"NaN": math.nan, "+Infinity": math.inf, "-Infinity": -math.inf}


def _invalid(message: str, requirement: str = "V3DRAFT-META-011") -> MetadataError:
    return MetadataError("invalid-fill-value", message, requirement)


def _scalar(data: bytes, dtype: np.dtype) -> np.ndarray:
    return np.frombuffer(data, dtype=dtype).reshape(()).copy()


def _from_bits(text: str, dt: DataType) -> np.ndarray | None:
    """The fill for a '0x'/'0b' string, or None when `text` is not one."""
    dtype = dt.dtype
    width = dtype.itemsize * 8
    if match := _HEX.fullmatch(text):
        digits, per_digit = match.group(1), 4
    elif match := _BIN.fullmatch(text):
        digits, per_digit = match.group(1), 1
    else:
        return None
    if len(digits) * per_digit != width:
        raise _invalid(
            f"fill_value {text!r} must have exactly {width // per_digit} digits for {dt.name}"
        )
    number = int(digits, 16 if per_digit == 4 else 2)
    size = dtype.itemsize
    if dtype.kind == "V":
        return _scalar(number.to_bytes(size, "big"), dtype)
    if dtype.kind == "c":
        half = size // 2
        real, imag = number >> (half * 8), number & ((1 << (half * 8)) - 1)
        data = real.to_bytes(half, "little") + imag.to_bytes(half, "little")
        return _scalar(data, dtype.newbyteorder("<"))
    if dtype.kind == "b" and number > 1:
        raise _invalid(f"fill_value {text!r} is not a bool bit pattern (0 or 1)")
    return _scalar(number.to_bytes(size, "little"), dtype.newbyteorder("<")).astype(dtype)


def parse_fill(value: Any, dt: DataType) -> np.ndarray:
    """A 0-d array of `dt.dtype` holding the exact fill bits."""
    dtype, kind = dt.dtype, dt.dtype.kind
    if value is None:
        raise _invalid(
            "fill_value is required and null is not permitted (strict reading of the draft)"
        )
    if isinstance(value, str):
        bits = _from_bits(value, dt)
        if bits is not None:
            return bits
        if kind == "f" and value in _SPECIAL:
            if value == "NaN":
                return _scalar(
                    _CANONICAL_NAN[dtype.itemsize].to_bytes(dtype.itemsize, "little"), dtype
                )
            return np.array(_SPECIAL[value], dtype=dtype)
        hint = " ('+Infinity' in this draft)" if value == "Infinity" else ""
        raise _invalid(f"fill_value {value!r} is not valid for {dt.name}{hint}")
    if kind == "b":
        if isinstance(value, bool):
            return np.array(value, dtype=dtype)
        raise _invalid(f"a bool fill_value must be true or false, got {value!r}")
    if isinstance(value, bool):
        raise _invalid(f"fill_value {value!r} is not valid for {dt.name}")
    if kind in "iu":
        if not isinstance(value, int):
            raise _invalid(
                f"an integer fill_value must have no fraction or exponent, got {value!r}"
            )
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise _invalid(f"fill_value {value} is out of range for {dt.name}")
        return np.array(value, dtype=dtype)
    if kind == "f" and isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise _invalid(f"fill_value {value} overflows {dt.name}") from None
        with np.errstate(over="ignore"):
            result = np.array(number, dtype=dtype)
        if not np.isfinite(result):
            raise _invalid(f"fill_value {value} overflows {dt.name}")
        return result
    raise _invalid(
        f"fill_value {value!r} is not valid for {dt.name} (complex and r* use the 0x/0b forms)"
    )


def encode_fill(fill: np.ndarray, dt: DataType) -> Any:
    """The JSON form the reference writes: literals where exact, otherwise a 0x bit string."""
    dtype, kind = dt.dtype, dt.dtype.kind
    raw = np.asarray(fill, dtype=dtype).reshape(()).tobytes()
    if kind == "b":
        return bool(fill)
    if kind in "iu":
        return int(fill)
    if kind == "f":
        bits = int.from_bytes(
            np.frombuffer(raw, dtype).astype(dtype.newbyteorder("<")).tobytes(), "little"
        )
        value = float(fill)
        if math.isinf(value):
            return "+Infinity" if value > 0 else "-Infinity"
        if math.isnan(value) and bits == _CANONICAL_NAN[dtype.itemsize]:
            return "NaN"
        if math.isnan(value):
            return "0x" + format(bits, f"0{dtype.itemsize * 2}x")  # keep the payload exact
        return value
    if kind == "c":
        le = np.frombuffer(raw, dtype).astype(dtype.newbyteorder("<")).tobytes()
        half = dtype.itemsize // 2
        real, imag = int.from_bytes(le[:half], "little"), int.from_bytes(le[half:], "little")
        return "0x" + format(real, f"0{half * 2}x") + format(imag, f"0{half * 2}x")
    return "0x" + raw.hex()


def parse_zp2_fill(value: Any, dt: DataType) -> np.ndarray | None:
    """zarr-python 2 writes v2-style fills: null, numbers, "NaN"/"Infinity"/"-Infinity",
    complex as [real, imag], datetimes as int64."""
    dtype, kind = dt.dtype, dt.dtype.kind
    if value is None:
        return None
    requirement = "V3DRAFT-ZP2-003"
    if kind == "c":
        if not (isinstance(value, list) and len(value) == 2):
            raise _invalid(f"a complex fill_value is [real, imag], got {value!r}", requirement)
        part = DataType(dt.name, np.dtype(f"{dtype.byteorder}f{dtype.itemsize // 2}"))
        real, imag = (parse_zp2_fill(v, part) for v in value)
        out = np.zeros((), dtype=dtype)
        out.real, out.imag = real, imag  # type: ignore[assignment]  # parts of a [real, imag] list are never null
        return out
    if kind == "f":
        specials = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
        if isinstance(value, str) and value in specials:
            return np.array(specials[value], dtype=dtype)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            with np.errstate(over="ignore"):
                return np.array(float(value), dtype=dtype)
    if kind == "b" and isinstance(value, bool):
        return np.array(value, dtype=dtype)
    if kind in "iumM" and isinstance(value, int) and not isinstance(value, bool):
        base = np.dtype(f"{dtype.byteorder}i8") if kind in "mM" else dtype
        info = np.iinfo(base)
        if info.min <= value <= info.max:
            return (
                np.array(value, dtype=base).view(dtype)
                if kind in "mM"
                else np.array(value, dtype=dtype)
            )
    raise _invalid(f"fill_value {value!r} is not valid for {dt.name}", requirement)
