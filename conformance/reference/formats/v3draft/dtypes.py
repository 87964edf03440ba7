"""Draft data types (V3DRAFT-META-006/007/008, V3DRAFT-ZP2-003).

seed-002 names: bool, int8, int16, int32, uint8, uint16, uint32, float16, float32, float64,
complex64, complex128 and r<N> (N a positive multiple of 8). Decoded arrays use the little-endian
NumPy dtype, the draft's default binary representation; the `endian` codec changes storage only.

Documented choices where the draft is ambiguous (V3DRAFT-META-006 says "record behaviour"):
* `int64`/`uint64` are rejected: they were added to the core table after this draft (Feb 2023).
* NumPy typestrs such as `"<f8"` are rejected, although the draft's own examples use them: the
  core table defines `float64`, and a typestr carries a byte order the draft moved into codecs.
* An extension data type the reference does not know is read as its first known `fallback`
  (with a `FallbackDataTypeWarning`); without a usable fallback it is 'must-understand'.

zarr-python 2 names are NumPy typestrs (`"<f8"`, `">i4"`, `"u1"`, `"bool"`) whose byte order is
kept in the decoded dtype, plus its complex and datetime extension objects.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import LimitError, MetadataError

CORE_TYPES: dict[str, str] = {
    "bool": "|b1",
    "int8": "|i1",
    "int16": "<i2",
    "int32": "<i4",
    "uint8": "|u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "complex64": "<c8",
    "complex128": "<c16",
}
_RAW = re.compile(r"r([1-9][0-9]{0,9})")
MAX_RAW_BYTES = 1 << 16  # r<N> elements larger than 64 KiB are refused as 'too-large'
_MAX_FALLBACK_DEPTH = 8

ZP2_COMPLEX_URI = "https://zarr-specs.readthedocs.io/en/core-protocol-v3.0-dev/protocol/extensions/complex-dtypes/v1.0.html"
ZP2_DATETIME_URI = (
    "https://zarr-specs.readthedocs.io/en/latest/extensions/data-types/datetime/v1.0.html"
)
_ZP2_CORE = re.compile(r"bool|i1|u1|[<>][uif][248]")
_ZP2_COMPLEX = re.compile(r"[<>]c(8|16)")
_ZP2_DATETIME = re.compile(r"[<>][mM]8\[(Y|M|W|D|h|m|s|ms|us|μs|ns|ps|fs|as)\]")


class FallbackDataTypeWarning(UserWarning):
    """An unknown extension data type is being read as its fallback (V3DRAFT-META-007)."""


@dataclass(frozen=True)
class DataType:
    name: str  # the identifier the array is processed as (a core name or a zarr-python 2 typestr)
    dtype: np.dtype  # dtype of decoded chunks
    extension: str | None = (
        None  # the extension URI when a fallback or zarr-python 2 extension is used
    )


def _invalid(message: str, requirement: str = "V3DRAFT-META-006") -> MetadataError:
    return MetadataError("invalid-data-type", message, requirement)


def parse_data_type(value: Any, depth: int = 0) -> DataType:
    """A seed-002 `data_type` value: a core name, r<N>, or an extension object."""
    if isinstance(value, str):
        if value in CORE_TYPES:
            return DataType(value, np.dtype(CORE_TYPES[value]))
        if match := _RAW.fullmatch(value):
            bits = int(match.group(1))
            if bits % 8:
                raise _invalid(f"raw type {value!r}: the bit count must be a multiple of 8")
            if bits // 8 > MAX_RAW_BYTES:
                raise LimitError(
                    f"raw type {value!r} is larger than {MAX_RAW_BYTES} bytes", "V3DRAFT-META-006"
                )
            return DataType(value, np.dtype(f"V{bits // 8}"))
        if value in ("int64", "uint64"):
            raise _invalid(
                f"{value!r} is not a core data type of this draft (64-bit integers came later)"
            )
        raise _invalid(
            f"unknown data type {value!r} (this draft names types like 'float64', not '<f8')"
        )
    if isinstance(value, dict):
        return _parse_extension(value, depth)
    raise _invalid(f"data_type must be a string or an extension object, got {type(value).__name__}")


def _parse_extension(value: dict[str, Any], depth: int) -> DataType:
    uri = value.get("extension")
    if not isinstance(uri, str) or "type" not in value:
        raise _invalid(
            "an extension data_type needs 'extension' (a URI) and 'type'", "V3DRAFT-META-007"
        )
    extra = set(value) - {"extension", "type", "fallback"}
    if extra:
        raise _invalid(
            f"extension data_type has undefined members {sorted(extra)}", "V3DRAFT-META-007"
        )
    if depth >= _MAX_FALLBACK_DEPTH:
        raise LimitError("extension data_type fallbacks are nested too deeply", "V3DRAFT-META-007")
    fallback = value.get("fallback")
    if fallback is None:
        raise MetadataError(
            "must-understand",
            f"data type extension {uri!r} is unknown and has no fallback",
            "V3DRAFT-META-007",
        )
    candidates = fallback if isinstance(fallback, list) else [fallback]
    for candidate in candidates:
        if not isinstance(candidate, (str, dict)):
            raise _invalid(
                f"fallback entries are data type identifiers, got {candidate!r}", "V3DRAFT-META-007"
            )
        try:
            chosen = parse_data_type(candidate, depth + 1)
        except MetadataError as exc:
            if exc.reason in ("invalid-data-type", "must-understand"):
                continue  # not known here: try the next fallback
            raise
        warnings.warn(
            f"data type extension {uri!r} is not supported; reading it as its fallback {chosen.name!r}",
            FallbackDataTypeWarning,
            stacklevel=3,
        )
        return DataType(chosen.name, chosen.dtype, extension=uri)
    raise MetadataError(
        "must-understand",
        f"data type extension {uri!r} has no fallback the reference knows",
        "V3DRAFT-META-007",
    )


def parse_zp2_data_type(value: Any) -> DataType:
    """A zarr-python 2 `data_type`: a typestr, or its complex/datetime extension objects."""
    if isinstance(value, str) and _ZP2_CORE.fullmatch(value):
        return DataType(value, np.dtype("|b1" if value == "bool" else value))
    if isinstance(value, dict) and set(value) == {"extension", "type", "fallback"}:
        uri, typestr = value["extension"], value["type"]
        known = (uri == ZP2_COMPLEX_URI and _ZP2_COMPLEX) or (
            uri == ZP2_DATETIME_URI and _ZP2_DATETIME
        )
        if known and isinstance(typestr, str) and known.fullmatch(typestr):
            return DataType(typestr, np.dtype(typestr), extension=uri)
        raise MetadataError(
            "must-understand", f"unsupported zarr-python 2 data type {value!r}", "V3DRAFT-ZP2-003"
        )
    raise _invalid(f"unknown zarr-python 2 data type {value!r}", "V3DRAFT-ZP2-003")


def core_name_for(dtype: Any) -> str:
    """The seed-002 name of a NumPy-style dtype (byte order is ignored: storage order is a codec)."""
    if isinstance(dtype, str) and (dtype in CORE_TYPES or _RAW.fullmatch(dtype)):
        return dtype
    dt = np.dtype(dtype)
    if dt.kind == "V" and dt.fields is None and dt.subdtype is None:
        return f"r{dt.itemsize * 8}"
    for name, typestr in CORE_TYPES.items():
        if np.dtype(typestr).newbyteorder("=") == dt.newbyteorder("="):
            return name
    raise _invalid(f"{dt} has no core data type in this draft")
