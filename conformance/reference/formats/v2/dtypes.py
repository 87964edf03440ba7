"""v2 (and v1) data type encoding: NumPy typestr strings and structured field lists
(V2-DTYPE-001..010, V1-DTYPE-001/002).

The NumPy dtype built here keeps the byte order written in the metadata, so chunk bytes are
viewed exactly as stored. Structured dtypes are built with explicit offsets: fields are packed in
order with no padding (V2-DTYPE-007), whatever NumPy's own alignment rules would do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...errors import LimitError, MetadataError

# Nesting deeper than this, or items larger than this, are refused as hostile rather than built.
MAX_STRUCT_DEPTH = 32
MAX_ITEMSIZE = 1 << 30

_TYPESTR = re.compile(r"^([<>|])([biufcmMSUVO])(\d{0,12})(?:\[(\d{0,12})([A-Za-z]{1,2})\])?$")
_NUMERIC_SIZES = {"b": (1,), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "f": (2, 4, 8), "c": (8, 16)}
_TIME_UNITS = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"}


def _bad(message: str, requirement: str = "V2-DTYPE-001") -> MetadataError:
    return MetadataError("invalid-data-type", message, requirement)


def parse_typestr(
    text: Any, *, allow_object: bool = True, requirement: str = "V2-DTYPE-001"
) -> np.dtype:
    """A simple typestr such as '<f8', '>i4', '|b1', '|S12', '<U3', '<M8[ns]', '|V3' or '|O'."""
    if not isinstance(text, str):
        raise _bad(f"data type must be a string or a list, got {type(text).__name__}", requirement)
    match = _TYPESTR.match(text)
    if match is None:
        raise _bad(
            f"{text[:40]!r} is not a typestr with an explicit byte order ('<', '>' or '|')",
            requirement,
        )
    order, kind, size_text, multiplier, unit = match.groups()
    if kind == "O":
        if size_text not in ("", "8") or unit is not None or order != "|":
            raise _bad(f"object data type must be written '|O', got {text!r}", requirement)
        if not allow_object:
            raise _bad(f"object data type {text!r} is not allowed here", requirement)
        return np.dtype(object)
    if not size_text:
        raise _bad(f"{text!r} has no item size", requirement)
    size = int(size_text)
    if kind in "mM":
        if size != 8:
            raise _bad(f"{text!r}: datetime/timedelta types are 8 bytes", "V2-DTYPE-004")
        if unit is None or unit not in _TIME_UNITS:
            raise _bad(
                f"{text!r}: datetime/timedelta types need a unit in brackets, e.g. '<M8[ns]'",
                "V2-DTYPE-004",
            )
        if multiplier is not None and multiplier != "" and int(multiplier) == 0:
            raise _bad(f"{text!r}: the unit multiplier must be positive", "V2-DTYPE-004")
    elif unit is not None:
        raise _bad(f"{text!r}: only datetime/timedelta types take a unit", requirement)
    if kind in _NUMERIC_SIZES and size not in _NUMERIC_SIZES[kind]:
        raise _bad(f"{text!r}: unsupported item size for kind {kind!r}", requirement)
    if kind in "SV" and size < 1:
        raise _bad(f"{text!r}: the length must be at least 1", requirement)
    if kind == "U" and size < 1:
        raise _bad(f"{text!r}: the length must be at least 1", requirement)
    itemsize = size * 4 if kind == "U" else size
    if itemsize > MAX_ITEMSIZE:
        raise LimitError(f"data type {text!r} has an item size above {MAX_ITEMSIZE} bytes")
    # '|' on a multi-byte type would leave the byte order to the machine: refuse it.
    if order == "|" and (kind == "U" or (kind in "iufcmM" and size > 1)):
        raise _bad(f"{text!r}: a multi-byte type needs '<' or '>'", requirement)
    if kind in "SVb" or (kind in "iu" and size == 1):
        order = "|"
    try:
        return np.dtype(order + text[1:])
    except (
        TypeError,
        ValueError,
        OverflowError,
    ) as exc:  # e.g. a unit multiplier NumPy cannot hold
        raise _bad(f"{text!r} is not a valid data type: {exc}", requirement) from None


def parse_dtype(
    doc: Any,
    *,
    nested: bool = True,
    subarrays: bool = True,
    allow_object: bool = True,
    _depth: int = 0,
) -> np.dtype:
    """The NumPy dtype for a v2 `dtype` member (a typestr or a list of fields).

    v1 passes nested=False, subarrays=False (V1-DTYPE-002)."""
    if isinstance(doc, str):
        return parse_typestr(doc, allow_object=allow_object and _depth == 0)
    if not isinstance(doc, list):
        raise _bad(f"data type must be a string or a list, got {type(doc).__name__}")
    if _depth >= MAX_STRUCT_DEPTH:
        raise LimitError(f"structured data type nested deeper than {MAX_STRUCT_DEPTH}")
    if not doc:
        raise _bad("a structured data type needs at least one field", "V2-DTYPE-007")
    names, formats, offsets = [], [], []
    offset = 0
    for field in doc:
        if (
            not isinstance(field, list)
            or len(field) not in (2, 3)
            or (len(field) == 3 and not subarrays)
        ):
            allowed = "[name, dtype] or [name, dtype, shape]" if subarrays else "[name, dtype]"
            raise _bad(f"structured field {field!r} must be {allowed}", "V2-DTYPE-007")
        name, spec = field[0], field[1]
        if not isinstance(name, str) or not name:
            raise _bad(f"structured field name {name!r} must be a non-empty string", "V2-DTYPE-007")
        if name in names:
            raise _bad(f"structured field name {name!r} is repeated", "V2-DTYPE-007")
        if isinstance(spec, list) and not nested:
            raise _bad(
                f"field {name!r}: nested structured types are not allowed here", "V2-DTYPE-008"
            )
        base = parse_dtype(
            spec, nested=nested, subarrays=subarrays, allow_object=False, _depth=_depth + 1
        )
        fmt: Any = base
        size = base.itemsize
        if len(field) == 3:
            shape = field[2]
            if (
                not isinstance(shape, list)
                or len(shape) > 32
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
            ):
                raise _bad(
                    f"field {name!r}: subarray shape {shape!r} must be a list of non-negative integers",
                    "V2-DTYPE-007",
                )
            count = math.prod(shape)
            if count * size > MAX_ITEMSIZE:
                raise LimitError(
                    f"field {name!r}: subarray of {shape} exceeds {MAX_ITEMSIZE} bytes"
                )
            if shape:
                fmt = (base, tuple(shape))
                size *= count
        names.append(name)
        formats.append(fmt)
        offsets.append(offset)
        offset += size
        if offset > MAX_ITEMSIZE:
            raise LimitError(f"structured data type exceeds {MAX_ITEMSIZE} bytes")
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": offset})


def _is_packed(dtype: np.dtype) -> bool:
    offset = 0
    fields: Mapping[str, tuple[Any, ...]] = dtype.fields or {}
    for name in dtype.names or ():
        field_dtype, field_offset = fields[name][:2]
        if field_offset != offset:
            return False
        offset += field_dtype.itemsize
    return offset == dtype.itemsize


def dtype_to_json(dtype: Any) -> Any:
    """The v2 encoding of a NumPy dtype: a typestr, or a list of fields for structured types.

    Structured types must be packed (no padding), since v2 has no way to record gaps."""
    dtype = np.dtype(dtype)
    if dtype.names is None:
        if dtype.subdtype is not None:
            raise _bad(f"a subarray dtype {dtype} cannot be an array data type; use a larger shape")
        if dtype.kind not in "biufcmMSUVO":
            raise _bad(f"NumPy dtype {dtype} has no v2 encoding")
        text = dtype.str
        if dtype.kind in "mM" and "[" not in text:
            raise _bad(f"{dtype}: datetime/timedelta types need a unit", "V2-DTYPE-004")
        parse_typestr(text)  # refuse anything the reader would refuse (long double, S0, ...)
        return text
    if not _is_packed(dtype):
        raise _bad(
            f"structured dtype {dtype} has padding or out-of-order fields; v2 fields are packed",
            "V2-DTYPE-007",
        )
    fields = []
    for name in dtype.names:
        field_dtype = dtype.fields[name][0]
        if field_dtype.subdtype is not None:
            base, shape = field_dtype.subdtype
            fields.append([name, dtype_to_json(base), list(shape)])
        else:
            fields.append([name, dtype_to_json(field_dtype)])
    return fields
