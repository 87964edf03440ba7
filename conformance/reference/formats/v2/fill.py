"""v2 fill_value encoding (V2-FILL-001..005, V2-META-009, §9 conventions).

    float            number, or "NaN" / "Infinity" / "-Infinity" (never bare NaN tokens)
    complex          [real, imag], each as a float (a plain float is read as the real part)
    int, bool        a plain JSON number / boolean
    datetime64 etc.  the int64 count (NaT = -2**63)
    |S<n>            Base64 of the bytes (trailing NULs may be left out)
    |V<n>, struct    Base64 of exactly the packed item bytes
    <U<n>            a plain string of at most n code points
    |O               vlen-utf8: a plain string; vlen-bytes: Base64 (zarr-python convention)
    null             undefined fill, for any data type (V2-FILL-004)

`parse_fill_value` gives a 0-d ndarray holding the exact bits, or None for null.
"""

from __future__ import annotations

import base64
import binascii
import math
from typing import Any

import numpy as np

from ...errors import MetadataError

_FLOAT_WORDS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
NAT = -(2**63)


def _bad(message: str, requirement: str | None = None) -> MetadataError:
    return MetadataError("invalid-fill-value", message, requirement)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _parse_float(doc: Any, dtype: np.dtype) -> float:
    if isinstance(doc, str):
        if doc not in _FLOAT_WORDS:
            raise _bad(
                f"float fill {doc!r} must be a number, 'NaN', 'Infinity' or '-Infinity'",
                "V2-FILL-001",
            )
        return _FLOAT_WORDS[doc]
    if not _is_number(doc):
        raise _bad(f"float fill {doc!r} must be a number", "V2-FILL-005")
    if isinstance(doc, float) and not math.isfinite(doc):
        raise _bad(
            "a non-finite float fill must be written as a string, not a bare token", "V2-META-009"
        )
    try:
        value = float(doc)
    except OverflowError:
        raise _bad(f"float fill {doc!r} is too large", "V2-FILL-005") from None
    # A finite JSON number that overflows the type is not a value of that type.
    with np.errstate(over="ignore"):
        if not np.isfinite(np.array(value, dtype=dtype.newbyteorder("="))):
            raise _bad(f"float fill {doc!r} overflows {dtype}", "V2-FILL-005")
    return value


def _decode_base64(doc: Any, what: str, requirement: str) -> bytes:
    if not isinstance(doc, str):
        raise _bad(f"{what} fill must be a Base64 string, got {doc!r}", requirement)
    try:
        return base64.b64decode(doc.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        raise _bad(f"{what} fill {doc!r} is not standard Base64", requirement) from None


def parse_fill_value(
    doc: Any, dtype: np.dtype, object_codec: str | None = None
) -> np.ndarray | None:
    """The fill value a `.zarray` `fill_value` member denotes, as a 0-d array of `dtype` (or None)."""
    dtype = np.dtype(dtype)
    if doc is None:
        return None
    kind = dtype.kind
    if dtype.names is not None or kind == "V":
        raw = _decode_base64(doc, "structured" if dtype.names else "void", "V2-FILL-003")
        if len(raw) != dtype.itemsize:
            raise _bad(
                f"fill decodes to {len(raw)} bytes, the item size is {dtype.itemsize}",
                "V2-FILL-003",
            )
        return np.frombuffer(raw, dtype=dtype).reshape(()).copy()
    if kind == "b":
        if isinstance(doc, bool) or (isinstance(doc, int) and doc in (0, 1)):
            return np.array(bool(doc), dtype=dtype)
        raise _bad(f"bool fill must be true or false, got {doc!r}", "V2-FILL-005")
    if kind in "iu":
        if isinstance(doc, float) and doc.is_integer():
            doc = int(doc)  # JSON has one number type: 3.0 is the number 3
        if not isinstance(doc, int) or isinstance(doc, bool):
            raise _bad(f"integer fill must be an integer, got {doc!r}", "V2-FILL-005")
        info = np.iinfo(dtype)
        if not info.min <= doc <= info.max:
            raise _bad(f"integer fill {doc} is out of range for {dtype}", "V2-FILL-005")
        return np.array(doc, dtype=dtype)
    if kind == "f":
        return np.array(_parse_float(doc, dtype), dtype=dtype)
    if kind == "c":
        part = np.dtype(f"{dtype.str[0]}f{dtype.itemsize // 2}")
        if isinstance(doc, list):
            if len(doc) != 2:
                raise _bad(f"complex fill must be [real, imag], got {doc!r}")
            real, imag = _parse_float(doc[0], part), _parse_float(doc[1], part)
        else:
            real, imag = _parse_float(doc, part), 0.0
        out = np.zeros((), dtype=dtype)
        # Assign the parts separately: complex(nan, x) arithmetic could disturb the other part.
        out.real, out.imag = real, imag
        return out
    if kind in "mM":
        if isinstance(doc, float) and doc.is_integer():
            doc = int(doc)
        if not isinstance(doc, int) or isinstance(doc, bool) or not NAT <= doc < 2**63:
            raise _bad(
                f"datetime/timedelta fill must be an int64 count, got {doc!r}", "V2-DTYPE-004"
            )
        return np.array(doc, dtype=f"{dtype.str[0]}i8").view(dtype)
    if kind == "S":
        raw = _decode_base64(doc, "bytes", "V2-FILL-002")
        if len(raw) > dtype.itemsize:
            raise _bad(f"bytes fill of {len(raw)} bytes does not fit {dtype}", "V2-FILL-002")
        return np.array(raw, dtype=dtype)
    if kind == "U":
        if not isinstance(doc, str):
            raise _bad(f"unicode fill must be a string, got {doc!r}")
        if len(doc) > dtype.itemsize // 4:
            raise _bad(f"unicode fill {doc!r} is longer than {dtype}")
        return np.array(doc, dtype=dtype)
    if kind == "O":
        if object_codec == "vlen-utf8" and isinstance(doc, str):
            value: Any = doc
        elif object_codec == "vlen-utf8" and _is_number(doc) and doc == 0:
            # zarr-python 2 writes its default fill 0 for object string arrays; the v2 spec
            # (§Metadata, fill_value) asks only for a scalar. 0 is zarr's "zero-initialised": for a
            # string that is "" (as zarr 2 itself makes of fill 0 for '<U' arrays, and zarrs reads
            # these arrays); the metadata notes the disagreement (NUMERIC_STRING_FILL).
            value = ""
        elif object_codec == "vlen-bytes":
            value = _decode_base64(doc, "vlen-bytes", "V2-FILL-002")
        else:
            raise _bad(f"object fill {doc!r} is not valid for object codec {object_codec!r}")
        out = np.empty((), dtype=object)
        out[()] = value
        return out
    raise _bad(f"no fill encoding for data type {dtype}")


NUMERIC_STRING_FILL = (
    "fill_value {fill!r} is the number zero for a vlen-utf8 (string) array, as zarr-python 2 writes by "
    "default for object arrays: the v2 spec (§Metadata, fill_value) asks only for a scalar, so it is "
    "allowed, but it does not say which string zero means; the reference reads missing elements as '' "
    "(the zero string, as zarrs does and as zarr-python 2 makes of fill 0 for '<U' arrays), while "
    "zarr-python 2 returns the integer 0 and zarr-python 3 the string '0'; writers should write the string itself"
)


def _encode_float(value: float) -> Any:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _as_fill_array(value: Any, dtype: np.dtype) -> np.ndarray:
    """A user fill value as a 0-d array of `dtype`, refusing lossy conversions."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype == dtype:
        return value
    kind = dtype.kind
    try:
        if dtype.names is not None or kind == "V":
            if isinstance(value, (bytes, bytearray)):
                if len(value) != dtype.itemsize:
                    raise _bad(
                        f"fill of {len(value)} bytes for an item of {dtype.itemsize} bytes",
                        "V2-FILL-003",
                    )
                return np.frombuffer(bytes(value), dtype=dtype).reshape(()).copy()
            return np.array(value, dtype=dtype)
        if kind == "S":
            if not isinstance(value, (bytes, np.bytes_)):
                raise _bad(f"bytes fill must be bytes, got {value!r}", "V2-FILL-002")
            if len(value) > dtype.itemsize:
                raise _bad(f"bytes fill {value!r} does not fit {dtype}", "V2-FILL-002")
            return np.array(value, dtype=dtype)
        if kind == "U":
            if not isinstance(value, str) or len(value) > dtype.itemsize // 4:
                raise _bad(f"unicode fill {value!r} is not a string that fits {dtype}")
            return np.array(value, dtype=dtype)
        if kind == "O":
            out = np.empty((), dtype=object)
            out[()] = value
            return out
        if (
            kind in "iub"
            and isinstance(value, (float, np.floating))
            and not float(value).is_integer()
        ):
            raise _bad(f"fill {value!r} is not a value of {dtype}")
        if kind in "iu":
            info = np.iinfo(dtype)
            if not info.min <= int(value) <= info.max:
                raise _bad(f"fill {value!r} is out of range for {dtype}")
        if kind == "b" and value not in (0, 1, True, False):
            raise _bad(f"bool fill must be true or false, got {value!r}")
        if kind == "f" and not isinstance(value, (int, float, np.number, np.bool_)):
            raise _bad(f"float fill must be a number, got {value!r}")
        return np.array(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        raise _bad(f"fill {value!r} is not a value of {dtype}: {exc}") from None


def encode_fill_value(value: Any, dtype: Any, object_codec: str | None = None) -> Any:
    """The canonical JSON form of a fill value (V2-FILL-*, V2-META-009): never a bare NaN token."""
    dtype = np.dtype(dtype)
    if value is None:
        return None
    arr = _as_fill_array(value, dtype)
    kind = dtype.kind
    if dtype.names is not None or kind == "V":
        return base64.standard_b64encode(arr.tobytes()).decode("ascii")
    if kind == "b":
        return bool(arr[()])
    if kind in "iu":
        return int(arr[()])
    if kind == "f":
        return _encode_float(float(arr[()]))
    if kind == "c":
        return [_encode_float(float(arr.real)), _encode_float(float(arr.imag))]
    if kind in "mM":
        return int(arr.view(f"{dtype.str[0]}i8")[()])
    if kind == "S":
        return base64.standard_b64encode(bytes(arr[()])).decode("ascii")
    if kind == "U":
        return str(arr[()])
    if kind == "O":
        item = arr[()]
        if object_codec == "vlen-utf8" and isinstance(item, str):
            return item
        if object_codec == "vlen-bytes" and isinstance(item, (bytes, bytearray)):
            return base64.standard_b64encode(bytes(item)).decode("ascii")
        raise _bad(f"object fill {item!r} cannot be encoded for object codec {object_codec!r}")
    raise _bad(f"no fill encoding for data type {dtype}")
