"""The narrow numeric data types of zarr-extensions: bfloat16, the float8/float6/float4 families
and int2/int4/uint2/uint4, with ml_dtypes supplying the NumPy dtypes.

ml_dtypes is used for storage and arithmetic only. Everything the registry fixes exactly is done
here from a table of every bit pattern of the type (at most 2**16 of them):

* rounding a JSON number to the type is correctly rounded from the exact decimal value, ties to
  the even bit pattern, with IEEE overflow to infinity where the type has one and an error where
  it has none (ml_dtypes' own casts round through float32 and saturate or produce NaN
  differently per type, so they are not used for fill values);
* the constant "NaN" is the bit pattern each README names (ml_dtypes' NaN differs for float8_e4m3);
* sub-byte types occupy the low `bits` bits of their byte; the upper bits are ignored on read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

import ml_dtypes
import numpy as np

# name -> (ml_dtypes type, significant bits, canonical NaN pattern or None, mantissa bits)
FLOATS: dict[str, tuple[type, int, int | None, int]] = {
    "bfloat16": (ml_dtypes.bfloat16, 16, 0x7FC0, 7),
    "float8_e3m4": (ml_dtypes.float8_e3m4, 8, 0x78, 4),
    "float8_e4m3": (ml_dtypes.float8_e4m3, 8, 0x7C, 3),
    "float8_e4m3b11fnuz": (ml_dtypes.float8_e4m3b11fnuz, 8, 0x80, 3),
    "float8_e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, 8, 0x80, 3),
    "float8_e5m2": (ml_dtypes.float8_e5m2, 8, 0x7E, 2),
    "float8_e5m2fnuz": (ml_dtypes.float8_e5m2fnuz, 8, 0x80, 2),
    "float8_e8m0fnu": (ml_dtypes.float8_e8m0fnu, 8, 0xFF, 0),
    "float6_e2m3fn": (ml_dtypes.float6_e2m3fn, 6, None, 3),
    "float6_e3m2fn": (ml_dtypes.float6_e3m2fn, 6, None, 2),
    "float4_e2m1fn": (ml_dtypes.float4_e2m1fn, 4, None, 1),
}
# name -> (ml_dtypes type, bits, signed)
INTS: dict[str, tuple[type, int, bool]] = {
    "int2": (ml_dtypes.int2, 2, True),
    "int4": (ml_dtypes.int4, 4, True),
    "uint2": (ml_dtypes.uint2, 2, False),
    "uint4": (ml_dtypes.uint4, 4, False),
}
# Core float types by NumPy code, for codecs that treat all floats alike (mantissa bits).
CORE_MANTISSA = {"f2": 10, "f4": 23, "f8": 52}


class NotRepresentable(ValueError):
    """A number outside the range of a type that has no infinity."""


@dataclass(frozen=True)
class FloatFormat:
    name: str
    dtype: np.dtype
    bits: int
    nan: int | None  # canonical NaN pattern ("NaN" in JSON), None when the type has no NaN
    mantissa: int
    values: np.ndarray  # float64 value of every pattern 0 .. 2**bits - 1 (NaN where NaN)
    finite_values: np.ndarray  # ascending finite values, one pattern each (+0 for zero)
    finite_patterns: np.ndarray
    pos_inf: int | None
    neg_inf: int | None
    neg_zero: int | None

    @property
    def raw(self) -> np.dtype:
        return np.dtype("u2") if self.dtype.itemsize == 2 else np.dtype("u1")

    def from_bits(self, bits: int) -> np.ndarray:
        return np.array(bits, dtype=self.raw).view(self.dtype)

    def to_bits(self, value: np.ndarray) -> int:
        return int(np.asarray(value, dtype=self.dtype).view(self.raw)) & ((1 << self.bits) - 1)

    def round_exact(self, value: int | float | Decimal) -> int:
        """The pattern nearest the exact number `value` (ties to an even pattern)."""
        try:
            double = float(value)
        except OverflowError:
            double = math.copysign(math.inf, value)
        values, patterns = self.finite_values, self.finite_patterns
        if double == 0:
            negative = math.copysign(1.0, double) < 0
            if values[0] > 0:  # no zero at all (float8_e8m0fnu)
                raise NotRepresentable(
                    f"{value} is not representable in {self.name} (it has no zero)"
                )
            if negative and self.neg_zero is not None:
                return self.neg_zero
            return int(patterns[np.searchsorted(values, 0.0)])
        low, high = values[0], values[-1]
        if double > high or double < low:
            if double < low and low > 0:  # an unsigned type
                if double <= 0:
                    raise NotRepresentable(
                        f"{value} is not representable in {self.name} (it has no sign)"
                    )
                return int(patterns[0])
            edge = high if double > high else low
            neighbour = values[-2] if double > high else values[1]
            threshold = edge + (edge - neighbour) / 2  # half an ulp past the largest finite value
            beyond = (
                Decimal(value) >= Decimal(threshold)
                if double > 0
                else Decimal(value) <= Decimal(threshold)
            )
            if not beyond:
                return int(patterns[-1] if double > high else patterns[0])
            infinity = self.pos_inf if double > 0 else self.neg_inf
            if infinity is None:
                raise NotRepresentable(
                    f"{value} is outside the range of {self.name}, which has no infinity"
                )
            return infinity
        i = int(np.searchsorted(values, double))
        if values[i] == double:
            return int(patterns[i])
        lower, upper = values[i - 1], values[i]
        middle = (lower + upper) / 2  # exact: one bit more than the type's precision
        if double != middle:
            return int(patterns[i - 1] if double < middle else patterns[i])
        exact = Decimal(value) - Decimal(middle)
        if exact < 0:
            return int(patterns[i - 1])
        if exact > 0:
            return int(patterns[i])
        return int(patterns[i - 1] if patterns[i - 1] % 2 == 0 else patterns[i])

    def shortest_json(self, bits: int) -> float:
        """The shortest decimal that reads back to the finite pattern `bits`."""
        value = float(self.values[bits])
        if value == 0:
            return value
        for digits in range(1, 18):
            candidate = float(f"{value:.{digits}g}")
            try:
                if self.round_exact(Decimal(repr(candidate))) == bits:
                    return candidate
            except NotRepresentable:
                continue
        return value


@cache
def float_format(name: str) -> FloatFormat:
    kind, bits, nan, mantissa = FLOATS[name]
    dtype = np.dtype(kind)
    raw = np.dtype("u2") if dtype.itemsize == 2 else np.dtype("u1")
    patterns = np.arange(1 << bits, dtype=raw)
    with np.errstate(invalid="ignore"):
        values = patterns.view(dtype).astype(np.float64)
    finite = np.isfinite(values)
    pos_inf = [int(p) for p in patterns[np.isposinf(values)]]
    neg_inf = [int(p) for p in patterns[np.isneginf(values)]]
    neg_zero = [int(p) for p in patterns[(values == 0) & np.signbit(values)]]
    keep = finite & ~((values == 0) & np.signbit(values))  # one pattern per value: +0 for zero
    order = np.argsort(values[keep], kind="stable")
    finite_values, finite_patterns = values[keep][order], patterns[keep][order].astype(np.int64)
    assert len(np.unique(finite_values)) == len(finite_values), name
    if nan is not None:
        assert math.isnan(values[nan]), name
    return FloatFormat(
        name,
        dtype,
        bits,
        nan,
        mantissa,
        values,
        finite_values,
        finite_patterns,
        pos_inf[0] if pos_inf else None,
        neg_inf[0] if neg_inf else None,
        neg_zero[0] if neg_zero else None,
    )


def int_range(name: str) -> tuple[int, int]:
    _, bits, signed = INTS[name]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def canonical_from_low_bits(raw: np.ndarray, name: str, bits: int) -> np.ndarray:
    """Stored bytes of a sub-byte type -> the ml_dtypes array: only the low `bits` bits count."""
    low = raw & np.uint8((1 << bits) - 1)
    if name in INTS and INTS[name][2]:  # sign-extend
        sign = np.uint8(1 << (bits - 1))
        value = low.astype(np.int16) - ((low & sign) != 0).astype(np.int16) * (1 << bits)
        return value.astype(np.int8).astype(np.dtype(INTS[name][0]))
    return low.view(np.dtype(FLOATS[name][0] if name in FLOATS else INTS[name][0]))
