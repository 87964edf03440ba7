"""Zarr v3 data types (V3-DT-*): the core identifiers, raw `r<N>` types and a small extension tier
(`string`, `bytes`, `numpy.datetime64`, `numpy.timedelta64` as zarr-python 3 writes them).

Each data type maps to a native-endian NumPy dtype; byte order on disk is the bytes codec's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import LimitError, MetadataError
from .extension import parse_extension

# core identifier -> (kind, NumPy type code)
CORE_TYPES: dict[str, tuple[str, str]] = {
    "bool": ("bool", "?"),
    "int8": ("int", "i1"),
    "int16": ("int", "i2"),
    "int32": ("int", "i4"),
    "int64": ("int", "i8"),
    "uint8": ("uint", "u1"),
    "uint16": ("uint", "u2"),
    "uint32": ("uint", "u4"),
    "uint64": ("uint", "u8"),
    "float16": ("float", "f2"),
    "float32": ("float", "f4"),
    "float64": ("float", "f8"),
    "complex64": ("complex", "c8"),
    "complex128": ("complex", "c16"),
}

# extension data types read and written by the reference (zarr-extensions registrations)
STRING_NAMES = ("string",)
BYTES_NAMES = ("bytes", "variable_length_bytes")  # zarr-python 3.1 writes the second spelling
TIME_TYPES = {"numpy.datetime64": ("datetime", "M8"), "numpy.timedelta64": ("timedelta", "m8")}
TIME_UNITS = ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic")
MAX_SCALE_FACTOR = 2**31 - 1
MAX_RAW_BYTES = 1 << 24  # r<N> wider than 16 MiB per element is refused as too large

_RAW_NAME = re.compile(r"r([1-9][0-9]{0,9})\Z")


@dataclass(frozen=True)
class DataType:
    name: str  # the v3 identifier, e.g. 'int32', 'r16', 'string', 'numpy.datetime64'
    kind: str  # bool, int, uint, float, complex, raw, string, bytes, datetime, timedelta
    dtype: np.dtype = field(compare=False)  # native-endian NumPy dtype of decoded chunks
    configuration: dict | None = None
    extension: bool = False  # defined by zarr-extensions rather than the core spec

    @property
    def has_endianness(self) -> bool:
        """Whether the bytes codec needs `endian` for this type (V3-BYTES-002)."""
        return self.kind in ("int", "uint", "float", "complex", "datetime", "timedelta") and self.dtype.itemsize > 1

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    def to_json(self) -> str | dict:
        """The canonical `data_type` value (3.0 form: core names as plain strings)."""
        if self.configuration is not None:
            return {"name": self.name, "configuration": dict(self.configuration)}
        return self.name


def _invalid(message: str, requirement: str = "V3-DT-008") -> MetadataError:
    return MetadataError("invalid-data-type", message, requirement)


def core_data_type(name: str) -> DataType | None:
    """The core or raw data type called `name`, or None."""
    if name in CORE_TYPES:
        kind, code = CORE_TYPES[name]
        return DataType(name, kind, np.dtype(code))
    match = _RAW_NAME.match(name)
    if match:
        bits = int(match.group(1))
        if bits % 8:
            raise _invalid(f"raw data type {name!r}: the bit count must be a multiple of 8", "V3-DT-007")
        if bits // 8 > MAX_RAW_BYTES:
            raise LimitError(f"raw data type {name!r} is wider than the reference supports")
        return DataType(name, "raw", np.dtype(f"V{bits // 8}"))
    return None


def parse_data_type(value: Any) -> DataType:
    """Parse the `data_type` member; raise MetadataError('invalid-data-type') for anything unknown
    or malformed, including v2 spellings such as '<f8' (V3-DT-001, V3-DT-008, V3-EXT-003)."""
    if isinstance(value, str):
        dt = core_data_type(value)
        if dt is not None:
            return dt
        if value in STRING_NAMES:
            return DataType("string", "string", np.dtype(object), extension=True)
        if value in BYTES_NAMES:
            return DataType("bytes", "bytes", np.dtype(object), extension=True)
        if value in TIME_TYPES:
            raise _invalid(f"data type {value!r} needs a configuration with 'unit' and 'scale_factor'", "V3-DT-009")
        raise _invalid(f"unknown data type {value!r}")
    ext = parse_extension(value, "data_type", "invalid-data-type", "V3-DT-008", must_be_understood=True)
    if ext.name in TIME_TYPES:
        return _time_type(ext.name, ext.configuration)
    if ext.configuration:  # 3.1 object form of a configuration-free type: {"name": "int32"}
        raise _invalid(f"data type {ext.name!r} takes no configuration")
    return parse_data_type(ext.name)


def _time_type(name: str, configuration: dict | None) -> DataType:
    kind, code = TIME_TYPES[name]
    if configuration is None or set(configuration) != {"unit", "scale_factor"}:
        raise _invalid(f"{name}: configuration must have exactly 'unit' and 'scale_factor'", "V3-DT-009")
    unit, scale = configuration["unit"], configuration["scale_factor"]
    if not isinstance(unit, str) or unit not in TIME_UNITS:
        raise _invalid(f"{name}: unknown unit {unit!r}", "V3-DT-009")
    if type(scale) is not int or not 1 <= scale <= MAX_SCALE_FACTOR:
        raise _invalid(f"{name}: scale_factor must be an integer in [1, 2^31-1], got {scale!r}", "V3-DT-009")
    if unit == "generic" and scale != 1:
        raise _invalid(f"{name}: the generic unit takes no scale factor other than 1", "V3-DT-009")
    dtype = np.dtype(code) if unit == "generic" else np.dtype(f"{code}[{scale}{unit}]")
    return DataType(name, kind, dtype, {"unit": unit, "scale_factor": scale}, extension=True)


def data_type_from_numpy(dtype: Any) -> DataType:
    """The v3 data type for a NumPy dtype (byte order is ignored: it belongs to the bytes codec)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "V" and dtype.fields is None and dtype.subdtype is None:
        return core_data_type(f"r{dtype.itemsize * 8}")
    if dtype.kind in "Mm":
        unit, scale = np.datetime_data(dtype)
        name = "numpy.datetime64" if dtype.kind == "M" else "numpy.timedelta64"
        return _time_type(name, {"unit": unit, "scale_factor": scale})
    if dtype.kind == "T":
        return parse_data_type("string")
    for name, (_, code) in CORE_TYPES.items():
        if dtype.newbyteorder("=") == np.dtype(code):
            return core_data_type(name)
    raise _invalid(f"NumPy dtype {dtype} has no Zarr v3 data type here (object arrays: name 'string' or 'bytes')")


def resolve_data_type(spec: Any) -> DataType:
    """A DataType from a DataType, a v3 name or JSON value, or anything NumPy accepts as a dtype."""
    if isinstance(spec, DataType):
        return spec
    if isinstance(spec, (str, dict)):
        try:
            return parse_data_type(spec)
        except MetadataError:
            if isinstance(spec, dict):
                raise
    try:
        dtype = np.dtype(spec)
    except TypeError:
        raise _invalid(f"cannot interpret {spec!r} as a data type") from None
    return data_type_from_numpy(dtype)
