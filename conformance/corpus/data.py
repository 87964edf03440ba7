"""Seeded sample data designed against silent failure.

Values never equal the fill value, floats include the values readers get wrong (-0.0, a NaN with a
payload, +-inf, the largest and a subnormal number) and integers include their type's extremes, so
a reader that returns zeros, the fill, a byte-swapped or a canonicalised value is caught.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_FLOAT_SPECIALS = {
    2: [0x8000, 0x7E01, 0x7C00, 0xFC00, 0x7BFF, 0x0001],
    4: [0x80000000, 0x7FC00001, 0x7F800000, 0xFF800000, 0x7F7FFFFF, 0x00000001],
    8: [
        0x8000000000000000,
        0x7FF8000000000001,
        0x7FF0000000000000,
        0xFFF0000000000000,
        0x7FEFFFFFFFFFFFFF,
        0x0000000000000001,
    ],
}


def sample(
    rng: np.random.Generator, shape, dtype, avoid: Any = None, specials: bool = True
) -> np.ndarray:
    """Random values of `dtype` and `shape`; no element equals `avoid` (bit-wise); extremes and
    special floats at the first flat positions when `specials`."""
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    n = math.prod(shape)
    flat = _flat(rng, n, dtype, specials)
    if avoid is not None and n and not dtype.hasobject:
        fill = avoid if isinstance(avoid, np.ndarray) else np.asarray(avoid, dtype=dtype)
        fill_bytes = fill.tobytes()
        for i in range(n):
            if flat[i : i + 1].tobytes() == fill_bytes:
                flat[i] = _other(flat[i], dtype, rng)
    return flat.reshape(shape)


def _flat(rng, n: int, dtype: np.dtype, specials: bool) -> np.ndarray:
    kind, size = dtype.kind, dtype.itemsize
    if dtype.fields:
        out = np.zeros(n, dtype=dtype)
        for name, (ftype, _offset) in dtype.fields.items():
            sub = ftype.subdtype
            if sub:
                base, sshape = sub
                out[name] = _flat(rng, n * math.prod(sshape), base, specials).reshape((n, *sshape))
            else:
                out[name] = _flat(rng, n, ftype, specials)
        return out
    if kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if kind in "iu":
        info = np.iinfo(dtype)
        vals = rng.integers(info.min, info.max, n, dtype=dtype.newbyteorder("="), endpoint=True)
        if specials and n >= 2:
            vals[0], vals[1] = info.max, info.min
        return vals.astype(dtype)
    if kind == "f":
        vals = (rng.standard_normal(n) * 1000).astype(dtype)
        if specials:
            bits = np.array(_FLOAT_SPECIALS[size][:n], dtype=f"<u{size}")
            vals[: len(bits)] = bits.view(f"<f{size}").astype(dtype)
        return vals
    if kind == "c":
        half = np.dtype(f"<f{size // 2}")
        out = np.empty(n, dtype=f"<c{size}")
        out.view(half)[0::2] = _flat(
            rng, n, half, specials
        )  # through a view: -0.0 + 0j would lose the sign
        out.view(half)[1::2] = _flat(rng, n, half, False)
        return out.astype(dtype)
    if kind in "SV":
        raw = rng.integers(
            1 if kind == "S" else 0, 128 if kind == "S" else 256, n * size, dtype=np.uint8
        )
        return raw.view(f"|{kind}{size}")
    if kind == "U":
        chars = size // 4
        codes = rng.integers(0x61, 0x7B, n * chars, dtype=np.uint32)
        if specials and n * chars >= 2:
            codes[:2] = [0xE9, 0x65E5]  # é and 日 exercise non-ASCII code points
        return codes.astype("<u4").view(f"<U{chars}").astype(dtype)
    if kind in "mM":
        return rng.integers(-(2**40), 2**40, n, dtype=np.int64).view(f"<{kind}8").astype(dtype)
    raise ValueError(f"no sample data for {dtype}")


def _other(value, dtype: np.dtype, rng) -> Any:
    if dtype.kind == "b":
        return not bool(value)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return value - 1 if value == info.max else value + 1
    if dtype.kind in "fc":
        return value + 1 if np.isfinite(value) else 1
    if dtype.kind == "S" and dtype.itemsize:
        return b"z" * dtype.itemsize
    if dtype.kind == "U":
        return "z" * (dtype.itemsize // 4)
    return _flat(rng, 1, dtype, False)[0]


def strings(rng: np.random.Generator, shape, alphabet: str = "abcxyzé日本") -> np.ndarray:
    """An object array of variable-length str, including '' and non-ASCII text."""
    n = math.prod(shape)
    out = np.empty(n, dtype=object)
    for i in range(n):
        k = int(rng.integers(0, 6))
        out[i] = "".join(alphabet[int(j)] for j in rng.integers(0, len(alphabet), k))
    return out.reshape(shape)
