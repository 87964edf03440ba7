"""Exact numeric conversion between the real-number data types (cast_value, scale_offset).

Every value of every supported type is exact as a float64 except int64/uint64 values beyond
2**53; those few elements go through Python integers, which compare exactly with floats. Rounding
to a float type is decided by comparing the exact source value with the two neighbouring values
of the target (and their midpoint, exact in float64 for targets of at most 32 bits), so all five
rounding modes of cast_value are exact, never NumPy's or ml_dtypes' own cast.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import small_types
from . import base  # noqa: F401  (keeps the package import order)

if TYPE_CHECKING:
    from ..data_types import DataType

ROUNDINGS = ("nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away")
EXACT_INT = 2**53


class CastError(ValueError):
    """A value the cast cannot produce (out of range without out_of_range, NaN into an integer)."""


def real_kind(info: DataType | None) -> str | None:
    """'int' or 'float' for the data types cast_value and scale_offset accept, else None."""
    if info is None:
        return None
    if info.kind in ("int", "uint"):
        return "int"
    if info.kind == "float":
        return "float"
    return None


def int_bounds(info: DataType) -> tuple[int, int]:
    if info.small:
        return small_types.int_range(info.name)
    limits = np.iinfo(info.dtype)
    return int(limits.min), int(limits.max)


def int_bits(info: DataType) -> int:
    return info.bits if info.bits is not None else info.dtype.itemsize * 8


class FloatTarget:
    """The value grid of a float type, with the neighbours of any float64 value."""

    def __init__(self, info: DataType) -> None:
        self.info = info
        self.dtype = info.dtype
        fmt = info.float_format
        self.fmt = fmt
        if fmt is not None:
            self.table: np.ndarray | None = fmt.finite_values
            self.max = float(self.table[-1])
            self.min = float(self.table[0])
            self.has_inf = fmt.pos_inf is not None
            self.has_nan = fmt.nan is not None
        else:
            finfo = np.finfo(self.dtype)
            self.table = None
            self.max, self.min = float(finfo.max), -float(finfo.max)
            self.has_inf = self.has_nan = True

    def nearest_even(self, x: np.ndarray) -> np.ndarray:
        """float64 -> the nearest target value as float64 (ties to even), ignoring the range."""
        if self.fmt is None:
            with np.errstate(over="ignore"):
                return x.astype(self.dtype).astype(np.float64)
        return self._table_round(x, self.fmt)

    @staticmethod
    def _table_round(x: np.ndarray, fmt: small_types.FloatFormat) -> np.ndarray:
        table, patterns = fmt.finite_values, fmt.finite_patterns
        i = np.clip(np.searchsorted(table, x), 1, len(table) - 1)
        lower, upper = table[i - 1], table[i]
        middle = (lower + upper) / 2
        even_lower = patterns[i - 1] % 2 == 0
        pick_upper = (x > middle) | ((x == middle) & ~even_lower)
        out = np.where(pick_upper, upper, lower)
        out = np.where(x <= table[0], table[0], out)
        return np.where(x >= table[-1], table[-1], out)

    def step(self, t: np.ndarray, up: bool) -> np.ndarray:
        """The next target value above (or below) each target value t (finite, in range)."""
        if self.table is None:
            toward = np.array(np.inf if up else -np.inf, dtype=self.dtype)
            return np.nextafter(t.astype(self.dtype), toward).astype(np.float64)
        table = self.table
        i = np.searchsorted(table, t)
        j = np.clip(i + (1 if up else -1), 0, len(table) - 1)
        return table[j]

    def to_array(self, values: np.ndarray) -> np.ndarray:
        """Exact target values (float64, ±inf, NaN) as an array of the target dtype."""
        if self.fmt is None:
            with np.errstate(over="ignore", invalid="ignore"):
                return values.astype(self.dtype)
        fmt = self.fmt
        out = np.empty(values.shape, dtype=fmt.raw)
        finite = np.isfinite(values)
        index = np.searchsorted(fmt.finite_values, values[finite])
        out[finite] = fmt.finite_patterns[index]
        negative_zero = finite & (values == 0) & np.signbit(values)
        if fmt.neg_zero is not None:
            out[negative_zero] = fmt.neg_zero
        if fmt.nan is not None:
            out[np.isnan(values)] = fmt.nan
        if fmt.pos_inf is not None:
            out[np.isposinf(values)] = fmt.pos_inf
            out[np.isneginf(values)] = fmt.neg_inf
        return out.view(fmt.dtype)


def as_exact(array: np.ndarray, info: DataType) -> tuple[np.ndarray, np.ndarray | None]:
    """(float64 values, Python ints for the elements float64 cannot hold exactly, or None)."""
    if real_kind(info) == "float":
        with np.errstate(invalid="ignore"):
            return np.asarray(array).astype(np.float64), None
    wide = np.asarray(array).astype(np.int64 if info.kind == "int" else np.uint64)
    values = wide.astype(np.float64)
    big = np.abs(values) > EXACT_INT
    if not big.any():
        return values, None
    exact = np.empty(wide.shape, dtype=object)
    exact[big] = [int(v) for v in wide[big]]
    return values, exact


def _decide(x: Any, lower: Any, upper: Any, rounding: str, nearest: Any) -> Any:
    """Pick lower or upper (the two neighbours of x) by the rounding mode; `nearest` is the
    nearest-even choice. Works on arrays or on Python scalars (Fraction / int / float)."""
    if rounding == "nearest-even":
        return nearest
    if rounding == "towards-positive":
        return upper
    if rounding == "towards-negative":
        return lower
    if rounding == "towards-zero":
        return (
            np.where(x > 0, lower, upper)
            if isinstance(x, np.ndarray)
            else (lower if x > 0 else upper)
        )
    # nearest-away: like nearest-even except at an exact tie
    if isinstance(x, np.ndarray):
        tie = x * 2 == lower + upper
        return np.where(tie, np.where(x > 0, upper, lower), nearest)
    if Fraction(x) * 2 == Fraction(lower) + Fraction(upper):
        return upper if x > 0 else lower
    return nearest


def round_to_integer(x: np.ndarray, rounding: str) -> np.ndarray:
    """Finite float64 -> integral float64 by the rounding mode (exact)."""
    if rounding == "nearest-even":
        return np.rint(x)
    if rounding == "towards-zero":
        return np.trunc(x)
    if rounding == "towards-positive":
        return np.ceil(x)
    if rounding == "towards-negative":
        return np.floor(x)
    whole = np.trunc(x)
    frac = x - whole  # exact
    return np.where(np.abs(frac) >= 0.5, whole + np.sign(x), whole)


def cast(
    array: np.ndarray,
    source: DataType,
    target: DataType,
    rounding: str = "nearest-even",
    out_of_range: str | None = None,
    scalar_map: list[Any] | None = None,
) -> np.ndarray:
    """Cast the values of `array` (data type `source`) to data type `target`, exactly as the
    cast_value codec defines it; raises CastError where the definition says the codec fails."""
    array = np.asarray(array)
    out = np.empty(array.shape, dtype=target.dtype)
    mapped = np.zeros(array.shape, dtype=bool)
    for key, value in scalar_map or ():
        hit = _matches(array, key, source) & ~mapped
        out[hit] = value[()]
        mapped |= hit
    todo = ~mapped
    if not todo.any():
        return out
    values, exact = as_exact(array[todo], source)
    if real_kind(target) == "int":
        result = _to_int(values, exact, source, target, rounding, out_of_range)
    else:
        result = _to_float(values, exact, source, target, rounding, out_of_range)
    out[todo] = result
    return out


def _matches(array: np.ndarray, key: np.ndarray, info: DataType) -> np.ndarray:
    """Elements equal to a scalar_map key: NaN keys match every NaN, other keys by value."""
    if real_kind(info) == "float":
        key_value = float(np.asarray(key).astype(np.float64))
        with np.errstate(invalid="ignore"):
            values = array.astype(np.float64)
        if math.isnan(key_value):
            return np.isnan(values)
        return values == key_value
    return array == key[()]


def _to_int(
    values: np.ndarray,
    exact: np.ndarray | None,
    source: DataType,
    target: DataType,
    rounding: str,
    out_of_range: str | None,
) -> np.ndarray:
    low, high = int_bounds(target)
    if real_kind(source) == "float":
        if not np.isfinite(values).all():
            raise CastError(
                f"NaN or infinity cannot be cast to {target.name} (map it with scalar_map)"
            )
        values = round_to_integer(values, rounding)
    if exact is None and (np.abs(values) <= EXACT_INT).all():
        inside = (values >= low) & (values <= high)
        if inside.all():
            return values.astype(np.int64).astype(target.dtype)
    ints = [int(v) if exact is None or exact[i] is None else exact[i] for i, v in enumerate(values)]
    bits = int_bits(target)
    fixed = []
    for v in ints:
        if low <= v <= high:
            fixed.append(v)
        elif out_of_range is None:
            raise CastError(
                f"{v} is outside the range [{low}, {high}] of {target.name} and out_of_range is not set"
            )
        elif out_of_range == "clamp":
            fixed.append(low if v < low else high)
        else:  # wrap: the value congruent modulo 2**bits inside the type's range
            fixed.append((v - low) % (1 << bits) + low)
    wide = np.array(fixed, dtype=np.int64 if low < 0 or target.small else np.uint64).reshape(
        values.shape
    )
    return wide.astype(target.dtype)


def _to_float(
    values: np.ndarray,
    exact: np.ndarray | None,
    source: DataType,
    target: DataType,
    rounding: str,
    out_of_range: str | None,
) -> np.ndarray:
    grid = FloatTarget(target)
    result = np.empty(values.shape, dtype=np.float64)
    nan = np.isnan(values)
    inf = np.isinf(values)
    if (nan.any() and not grid.has_nan) or (inf.any() and not grid.has_inf):
        raise CastError(
            f"NaN or infinity cannot be cast to {target.name}, which lacks it (map it with scalar_map)"
        )
    result[nan] = np.nan
    result[inf] = values[inf]
    finite = ~(nan | inf)
    x = values[finite]
    over = x > grid.max
    under = x < grid.min
    near = grid.nearest_even(np.clip(x, grid.min, grid.max))
    lower = np.where(near <= x, near, grid.step(near, up=False))
    upper = np.where(near >= x, near, grid.step(near, up=True))
    chosen = np.where(x == near, near, _decide(x, lower, upper, rounding, near))
    # beyond the largest finite value: in range only if the mode rounds back onto it
    half = (grid.max - float(grid.step(np.array([grid.max]), up=False)[0])) / 2
    out_high = over & _leaves(x, grid.max, half, rounding, positive=True)
    out_low = under & _leaves(-x, -grid.min, half, rounding, positive=False)
    chosen = np.where(over & ~out_high, grid.max, chosen)
    chosen = np.where(under & ~out_low, grid.min, chosen)
    escaped = out_high | out_low
    if escaped.any():
        if out_of_range != "clamp":
            raise CastError(
                f"a value is outside the finite range of {target.name} and out_of_range is not 'clamp'"
            )
        chosen = np.where(out_high, np.inf if grid.has_inf else grid.max, chosen)
        chosen = np.where(out_low, -np.inf if grid.has_inf else grid.min, chosen)
    # signed zero is preserved
    chosen = np.where((chosen == 0) & np.signbit(x), -0.0, chosen)
    result[finite] = chosen
    if exact is not None:
        for i, value in enumerate(exact):
            if value is not None:
                result[i] = _exact_one(value, grid, rounding, out_of_range, target)
    return grid.to_array(result)


def _leaves(x: np.ndarray, edge: float, half: float, rounding: str, positive: bool) -> np.ndarray:
    """For |x| past the largest finite value `edge` (x given as a magnitude): does the mode round
    it beyond the finite range? `half` is half the spacing just below `edge`."""
    towards_edge = "towards-negative" if positive else "towards-positive"
    if rounding in ("towards-zero", towards_edge):
        return np.zeros(x.shape, dtype=bool)
    if rounding in ("towards-positive", "towards-negative"):
        return np.ones(x.shape, dtype=bool)
    threshold = edge + half  # the IEEE overflow threshold: ties go past the edge
    return x >= threshold


def _exact_one(
    value: int, grid: FloatTarget, rounding: str, out_of_range: str | None, target: DataType
) -> float:
    """One integer beyond 2**53 cast to the float grid, exactly (Python ints compare exactly)."""
    d = float(value)
    near = float(grid.nearest_even(np.array([min(max(d, grid.min), grid.max)]))[0])
    lower = near if near <= value else float(grid.step(np.array([near]), up=False)[0])
    upper = near if near >= value else float(grid.step(np.array([near]), up=True)[0])
    if value > grid.max or value < grid.min:
        if out_of_range != "clamp":
            raise CastError(f"{value} is outside the finite range of {target.name}")
        return math.copysign(math.inf if grid.has_inf else grid.max, value)
    if lower == upper:
        return lower
    twice = 2 * Fraction(value)
    if rounding == "nearest-even" or rounding == "nearest-away":
        mid = Fraction(lower) + Fraction(upper)
        if twice < mid:
            return lower
        if twice > mid:
            return upper
        if rounding == "nearest-away":
            return upper if value > 0 else lower
        return near if near in (lower, upper) else lower
    return _decide(value, lower, upper, rounding, near)
