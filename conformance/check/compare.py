"""What an implementation read, against the reference's decoding of the same region, bit for bit.

    compare(expected, observed, defined=None) -> Comparison

- the same data type (byte order aside): judge.compare_arrays decides, in blocks (its message
  for a whole large array would cost more memory than the array); `where` counts the elements
  that differ and names the first;
- another data type: the judge's rule (judge.lossless_widening): the expected values converted
  into the returned type, when that keeps their bits and values (int32 returned as int64, float32
  as float64, fixed strings as objects), are compared bit for bit; equal, it is `type-changed`,
  naming both types. A conversion that loses anything (int64 through float64 beyond 2**53, a
  sign) is wrong data;
- `defined`: a mask of the elements whose value the format defines (v2 chunks that are missing
  under a null fill value are not): the others are not compared.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.corpus.judge import compare_arrays, little_endian, lossless_widening

BLOCK = 1 << 18  # elements per compare_arrays call: bounds what its messages cost
WHERE_EXAMPLES = 3  # differing elements named


@dataclass
class Comparison:
    outcome: str  # exact | type-changed | wrong-data
    message: str = ""
    differing: int = 0  # elements that differ
    compared: int = 0  # elements compared
    first: list[tuple[int, ...]] = field(default_factory=list)  # where (array coordinates)
    types: dict[str, str] | None = None  # {"expected", "observed"} when the type changed

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.outcome}
        if self.message:
            out["message"] = self.message
        if self.outcome == "wrong-data" and self.compared:
            out["differing"], out["compared"] = self.differing, self.compared
            out["first"] = [list(i) for i in self.first]
        if self.types:
            out["types"] = self.types
        return out


def dtype_text(dtype: np.dtype) -> str:
    return str(dtype.descr if dtype.fields else dtype.str)


def compare(
    expected: np.ndarray,
    observed: Any,
    defined: np.ndarray | None = None,
    origin: tuple[int, ...] = (),
) -> Comparison:
    """`origin`: where the region starts in the array, so that coordinates name array elements."""
    observed = np.asarray(observed)
    if observed.shape != expected.shape:
        return Comparison(
            "wrong-data",
            f"returned shape {observed.shape} {dtype_text(observed.dtype)}, "
            f"the array's is {expected.shape} {dtype_text(expected.dtype)}",
            differing=expected.size,
            compared=expected.size,
        )
    if _same_type(expected.dtype, observed.dtype):
        return _exact(expected, observed, defined, origin, "")
    types = {"expected": dtype_text(expected.dtype), "observed": dtype_text(observed.dtype)}
    returned = f"returned as {types['observed']} instead of {types['expected']}"
    # the judge's rule (one home): the expected values in the returned type, if that keeps both
    # their bits and their values; equal there bit for bit, it is a type change
    widened = lossless_widening(expected, observed.dtype)
    if widened is None:  # which elements differ: the returned values, back in the array's type
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                back = observed.astype(expected.dtype)
            except (TypeError, ValueError):
                back = None
        result = (
            _exact(expected, back, defined, origin, f" ({returned})")
            if back is not None
            else Comparison("wrong-data", "", expected.size, expected.size)
        )
        if result.outcome == "exact":  # the bits come back but not the values (a sign, a wrap)
            result = Comparison("wrong-data", "", expected.size, expected.size)
        if not result.message:
            result.message = f"{returned}, which cannot hold the array's values"
        result.types = types
        return result
    result = _exact(widened, observed, defined, origin, f" ({returned})")
    if result.outcome == "exact":
        return Comparison("type-changed", f"every value exact, {returned}", types=types)
    result.types = types
    return result


def _same_type(a: np.dtype, b: np.dtype) -> bool:
    """The same data type for a bit-for-bit comparison: byte order aside, or raw bits of the same
    size on one side (ml_dtypes types such as bfloat16 and int4 travel as V<n> in .npy files)."""
    if little_endian(a) == little_endian(b) or (a.hasobject and b.hasobject):
        return True
    return opaque_pair(a, b)


def opaque_pair(a: np.dtype, b: np.dtype) -> bool:
    opaque = [d.kind == "V" and not d.fields for d in (a, b)]
    return any(opaque) and a.itemsize == b.itemsize and not (a.hasobject or b.hasobject)


def _exact(
    expected: np.ndarray,
    observed: np.ndarray,
    defined: np.ndarray | None,
    origin: tuple[int, ...],
    note: str,
) -> Comparison:
    flat_e, flat_o = expected.reshape(-1), observed.reshape(-1)
    mask = None if defined is None else np.asarray(defined, dtype=bool).reshape(-1)
    differing, first_message = 0, ""
    first: list[int] = []
    for start in range(0, flat_e.size, BLOCK):
        part = slice(start, start + BLOCK)
        e, o = flat_e[part], flat_o[part]
        keep = None if mask is None else mask[part]
        if keep is not None:
            e, o = e[keep], o[keep]
        problems = compare_arrays(e, o)
        if not problems:
            continue
        bad = _differing(e, o)
        positions = np.arange(start, min(start + BLOCK, flat_e.size))
        if keep is not None:
            positions = positions[keep]
        differing += int(bad.sum())
        first += positions[bad][: WHERE_EXAMPLES - len(first)].tolist()
        first_message = first_message or str(problems[0])
    compared = int(flat_e.size if mask is None else mask.sum())
    if not differing and not first_message:
        return Comparison("exact", compared=compared)
    where = [
        tuple(int(o + i) for o, i in zip(origin or (0,) * expected.ndim, idx))
        for idx in (np.unravel_index(f, expected.shape) for f in first)
    ]
    shown = ", ".join(str(w) for w in where)
    return Comparison(
        "wrong-data",
        f"{differing} of {compared} elements differ bit for bit, first at {shown}{note}",
        differing=differing,
        compared=compared,
        first=where,
    )


def _differing(expected: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """A mask of the elements that differ (as compare_arrays judges them: bits, little-endian)."""
    if expected.dtype.hasobject or observed.dtype.hasobject:
        return np.fromiter(
            (type(a) is not type(b) or a != b for a, b in zip(expected, observed)),
            dtype=bool,
            count=expected.size,
        )
    want = little_endian(expected.dtype)
    size = max(expected.dtype.itemsize, 1)
    exp = np.ascontiguousarray(expected.astype(want, copy=False)).view(np.uint8)
    got = np.ascontiguousarray(observed.astype(little_endian(observed.dtype), copy=False))
    got = got.view(np.uint8)
    if exp.size != got.size:
        return np.ones(expected.size, dtype=bool)
    return (exp.reshape(-1, size) != got.reshape(-1, size)).any(axis=1)
