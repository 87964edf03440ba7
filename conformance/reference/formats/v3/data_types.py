"""Zarr v3 data types (V3-DT-*): the core identifiers, raw `r<N>` types and every data type of the
zarr-extensions registry (REGISTRY_COMMIT in registry.py), plus the names zarr-python 3 writes by
default that the registry does not list (`null_terminated_bytes`, `raw_bytes`,
`variable_length_bytes`).

Each data type maps to a native-endian NumPy dtype of decoded chunks; byte order on disk is the
bytes codec's job. `DataType.raw` is a plain NumPy layout of the same bytes (unsigned integers in
place of the ml_dtypes floats, recursively for struct fields) that byte-level codecs swap and
copy; `bits` marks the sub-byte types whose upper bits are ignored on read.

Extension types and their NumPy form:
  bfloat16, float8_*, float6_*, float4_e2m1fn   ml_dtypes floats (small_types.py)
  int2, int4, uint2, uint4                      ml_dtypes integers
  complex_float32 / complex_float64             complex64 / complex128
  complex_<other float>                         a packed structured dtype ('real', 'imag')
  fixed_length_utf32 {length_bytes}             '<U{length_bytes/4}'
  null_terminated_bytes {length_bytes}          'S{length_bytes}' (zarr-python 3; unregistered)
  raw_bytes {length_bytes}                      'V{length_bytes}' (zarr-python 3; unregistered)
  struct / structured (legacy)                  a packed structured dtype, fields in order
  string / bytes                                object arrays (vlen-utf8 / vlen-bytes)
  numpy.datetime64 / numpy.timedelta64          'M8[..]' / 'm8[..]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import LimitError, MetadataError
from . import registry, small_types
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
# registered names that are the same NumPy type as a core complex type
COMPLEX_ALIASES = {"complex_float32": "c8", "complex_float64": "c16"}

STRING_NAMES = ("string",)
BYTES_NAMES = ("bytes", "variable_length_bytes")  # zarr-python 3.1 writes the second spelling
TIME_TYPES = {"numpy.datetime64": ("datetime", "M8"), "numpy.timedelta64": ("timedelta", "m8")}
TIME_UNITS = (
    "Y",
    "M",
    "W",
    "D",
    "h",
    "m",
    "s",
    "ms",
    "us",
    "μs",
    "ns",
    "ps",
    "fs",
    "as",
    "generic",
)
LENGTH_TYPES = ("fixed_length_utf32", "null_terminated_bytes", "raw_bytes")
STRUCT_NAMES = ("struct", "structured")
CONFIGURED = (*TIME_TYPES, *LENGTH_TYPES, *STRUCT_NAMES)
MAX_SCALE_FACTOR = 2**31 - 1
MAX_RAW_BYTES = 1 << 24  # r<N> wider than 16 MiB per element is refused as too large
MAX_STRUCT_DEPTH = 16
MAX_STRUCT_FIELDS = 4096

_RAW_NAME = re.compile(r"r([1-9][0-9]{0,9})\Z")


@dataclass(frozen=True)
class DataType:
    name: str  # the v3 identifier, e.g. 'int32', 'r16', 'string', 'numpy.datetime64'
    # bool, int, uint, float, complex, raw, string, bytes, datetime, timedelta, utf32, nulbytes, struct
    kind: str
    dtype: np.dtype = field(compare=False)  # native-endian NumPy dtype of decoded chunks
    configuration: dict[str, Any] | None = None
    extension: bool = False  # defined by zarr-extensions (or a writer) rather than the core spec
    raw_dtype: np.dtype | None = field(default=None, compare=False)  # plain layout; None: dtype
    bits: int | None = field(default=None, compare=False)  # sub-byte types: significant low bits
    component: DataType | None = field(default=None, compare=False)  # complex_<small float>: a part
    fields: tuple[Any, ...] = field(default=(), compare=False)  # struct: ((name, DataType), ...)
    legacy: bool = field(default=False, compare=False)  # the read-only "structured" alias

    @property
    def raw(self) -> np.dtype:
        """The plain NumPy layout byte-level codecs work on (same size as dtype)."""
        return self.dtype if self.raw_dtype is None else self.raw_dtype

    @property
    def has_endianness(self) -> bool:
        """Whether the bytes codec needs `endian` for this type (V3-BYTES-002)."""
        raw = self.raw
        return not raw.hasobject and raw.newbyteorder("<") != raw.newbyteorder(">")

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def small(self) -> bool:
        """An ml_dtypes type (bfloat16, float8/6/4, int2/int4/uint2/uint4)."""
        return self.name in small_types.FLOATS or self.name in small_types.INTS

    @property
    def float_format(self) -> small_types.FloatFormat | None:
        return small_types.float_format(self.name) if self.name in small_types.FLOATS else None

    def to_json(self) -> str | dict[str, Any]:
        """The canonical `data_type` value (3.0 form: core names as plain strings)."""
        if self.configuration is not None:
            return {"name": self.name, "configuration": _copy(self.configuration)}
        return self.name

    # ---- decoded values <-> plain bytes ------------------------------------------------------
    def to_raw(self, array: np.ndarray) -> np.ndarray:
        """The same bytes viewed as the plain layout (no copy for C-contiguous input)."""
        array = np.ascontiguousarray(array, dtype=self.dtype)
        return array if self.raw_dtype is None else array.view(self.raw_dtype)

    def from_raw(self, raw: np.ndarray) -> np.ndarray:
        """Plain-layout values (native byte order) as the data type, ignoring the bits the type
        does not use (the upper bits of int2/int4/uint2/uint4/float6/float4)."""
        if self.raw_dtype is None:
            return raw.astype(self.dtype, copy=False)
        if self.bits is not None:
            return small_types.canonical_from_low_bits(raw, self.name, self.bits)
        if self.fields and any(ft.bits is not None or ft.fields for _, ft in self.fields):
            out = np.empty(raw.shape, dtype=self.dtype)
            for name, ft in self.fields:
                out[name] = ft.from_raw(np.ascontiguousarray(raw[name]))
            return out
        if self.component is not None and self.component.bits is not None:
            out = np.empty(raw.shape, dtype=self.dtype)
            for part in ("real", "imag"):
                out[part] = self.component.from_raw(np.ascontiguousarray(raw[part]))
            return out
        return np.ascontiguousarray(raw).view(self.dtype)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _invalid(message: str, requirement: str = "V3-DT-008") -> MetadataError:
    return MetadataError("invalid-data-type", message, requirement)


def _unknown(name: str) -> MetadataError:
    """An unknown name. Registered but unimplemented: 'unknown-data-type'; unregistered:
    'invalid-data-type' (what V3-DT-008 asks a reader to refuse)."""
    if re.fullmatch(r"r[0-9]+", name):
        return _invalid(
            f"raw data type {name!r}: the bit count is not a positive multiple of 8 the reference accepts",
            "V3-DT-007",
        )
    if registry.is_registered("data type", name):
        why = registry.REFUSED.get(("data type", name), "the reference does not implement it")
        return MetadataError(
            "unknown-data-type",
            f"data type {name!r} is registered in {registry.REGISTRY_COMMIT} but {why}",
            "V3-DT-008",
        )
    problem = registry.name_problem(name)
    if problem:
        return _invalid(f"unknown data type {name!r}: {problem}")
    return _invalid(
        f"unknown data type {name!r}: it is not registered in {registry.REGISTRY_COMMIT} and the "
        "reference does not implement it, so a reader must refuse to open the array"
    )


def core_data_type(name: str) -> DataType | None:
    """The core or raw data type called `name`, or None."""
    if name in CORE_TYPES:
        kind, code = CORE_TYPES[name]
        return DataType(name, kind, np.dtype(code))
    match = _RAW_NAME.match(name)
    if match:
        bits = int(match.group(1))
        if bits % 8:
            raise _invalid(
                f"raw data type {name!r}: the bit count must be a multiple of 8", "V3-DT-007"
            )
        if bits // 8 > MAX_RAW_BYTES:
            raise LimitError(f"raw data type {name!r} is wider than the reference supports")
        return DataType(name, "raw", np.dtype(f"V{bits // 8}"))
    return None


def _defined(dt: DataType | None, name: str) -> DataType:
    """A data type this module names itself: it exists by construction."""
    if dt is None:
        raise _invalid(f"no data type {name!r}")
    return dt


def _record(spec: dict[str, Any]) -> np.dtype:
    """A structured dtype from numpy's dict form (names, formats, offsets, itemsize)."""
    return np.dtype(spec)  # type: ignore[call-overload]  # numpy's stubs type only literal dicts


def simple_extension_type(name: str) -> DataType | None:
    """A configuration-free extension type called `name`, or None."""
    if name in STRING_NAMES:
        return DataType("string", "string", np.dtype(object), extension=True)
    if name in BYTES_NAMES:
        return DataType("bytes", "bytes", np.dtype(object), extension=True)
    if name in small_types.FLOATS:
        fmt = small_types.float_format(name)
        bits = fmt.bits if fmt.bits < 8 else None
        return DataType(name, "float", fmt.dtype, extension=True, raw_dtype=fmt.raw, bits=bits)
    if name in small_types.INTS:
        kind_type, bits, signed = small_types.INTS[name]
        return DataType(
            name,
            "int" if signed else "uint",
            np.dtype(kind_type),
            extension=True,
            raw_dtype=np.dtype("u1"),
            bits=bits,
        )
    if name in COMPLEX_ALIASES:
        return DataType(name, "complex", np.dtype(COMPLEX_ALIASES[name]), extension=True)
    if name.startswith("complex_") and name[len("complex_") :] in (*small_types.FLOATS, "float16"):
        part_name = name[len("complex_") :]
        part = _defined(core_data_type(part_name) or simple_extension_type(part_name), part_name)
        dtype = _record(
            {
                "names": ["real", "imag"],
                "formats": [part.dtype, part.dtype],
                "offsets": [0, part.itemsize],
                "itemsize": 2 * part.itemsize,
            }
        )
        raw = _record(
            {
                "names": ["real", "imag"],
                "formats": [part.raw, part.raw],
                "offsets": [0, part.itemsize],
                "itemsize": 2 * part.itemsize,
            }
        )
        return DataType(name, "complex", dtype, extension=True, raw_dtype=raw, component=part)
    return None


def parse_data_type(value: Any, _depth: int = 0) -> DataType:
    """Parse the `data_type` member; raise MetadataError('invalid-data-type') for anything
    malformed or unknown, including v2 spellings such as '<f8' (V3-DT-001, V3-DT-008, V3-EXT-003),
    and 'unknown-data-type' for a registered type the reference does not implement."""
    if isinstance(value, str):
        dt = core_data_type(value) or simple_extension_type(value)
        if dt is not None:
            return dt
        if value in CONFIGURED:
            raise _invalid(f"data type {value!r} needs a configuration", "V3-DT-009")
        raise _unknown(value)
    ext = parse_extension(
        value, "data_type", "invalid-data-type", "V3-DT-008", must_be_understood=True
    )
    if ext.name in TIME_TYPES:
        return _time_type(ext.name, ext.configuration)
    if ext.name in LENGTH_TYPES:
        return _length_type(ext.name, ext.configuration)
    if ext.name in STRUCT_NAMES:
        return _struct_type(ext.name, ext.configuration, _depth)
    known = core_data_type(ext.name) or simple_extension_type(ext.name)
    if known is None:
        raise _unknown(ext.name)
    if ext.configuration:  # 3.1 object form of a configuration-free type: {"name": "int32"}
        raise _invalid(
            f"data type {ext.name!r} takes no configuration, got {sorted(ext.configuration)}",
            "V3-DT-009" if known.extension else "V3-DT-008",
        )
    return known


def _time_type(name: str, configuration: dict[str, Any] | None) -> DataType:
    kind, code = TIME_TYPES[name]
    if configuration is None or set(configuration) != {"unit", "scale_factor"}:
        raise _invalid(
            f"{name}: configuration must have exactly 'unit' and 'scale_factor'", "V3-DT-009"
        )
    unit, scale = configuration["unit"], configuration["scale_factor"]
    if not isinstance(unit, str) or unit not in TIME_UNITS:
        raise _invalid(f"{name}: unknown unit {unit!r}", "V3-DT-009")
    if type(scale) is not int or not 1 <= scale <= MAX_SCALE_FACTOR:
        raise _invalid(
            f"{name}: scale_factor must be an integer in [1, 2^31-1], got {scale!r}", "V3-DT-009"
        )
    if unit == "generic" and scale != 1:
        raise _invalid(f"{name}: the generic unit takes no scale factor other than 1", "V3-DT-009")
    numpy_unit = "us" if unit == "μs" else unit
    dtype = np.dtype(code) if unit == "generic" else np.dtype(f"{code}[{scale}{numpy_unit}]")
    return DataType(name, kind, dtype, {"unit": unit, "scale_factor": scale}, extension=True)


def _length_type(name: str, configuration: dict[str, Any] | None) -> DataType:
    if configuration is None or set(configuration) != {"length_bytes"}:
        raise _invalid(f"{name}: configuration must have exactly 'length_bytes'", "V3-DT-009")
    length = configuration["length_bytes"]
    if type(length) is not int or length < 1:
        raise _invalid(
            f"{name}: length_bytes must be a positive integer, got {length!r}", "V3-DT-009"
        )
    if length > MAX_RAW_BYTES:
        raise LimitError(
            f"{name} of {length} bytes per element is wider than the reference supports"
        )
    config = {"length_bytes": length}
    if name == "fixed_length_utf32":
        if length % 4:
            raise _invalid(
                f"fixed_length_utf32: length_bytes must be a multiple of 4, got {length}",
                "V3-DT-009",
            )
        return DataType(name, "utf32", np.dtype(f"U{length // 4}"), config, extension=True)
    if name == "null_terminated_bytes":
        return DataType(name, "nulbytes", np.dtype(f"S{length}"), config, extension=True)
    return DataType(name, "raw", np.dtype(f"V{length}"), config, extension=True)


def _struct_type(name: str, configuration: dict[str, Any] | None, depth: int) -> DataType:
    """`struct` (fields as objects) or the legacy `structured` (objects or [name, type] pairs)."""
    legacy = name == "structured"
    if depth >= MAX_STRUCT_DEPTH:
        raise LimitError(f"struct data types nested deeper than {MAX_STRUCT_DEPTH}")
    if configuration is None or set(configuration) != {"fields"}:
        raise _invalid(f"{name}: configuration must have exactly 'fields'", "V3-DT-009")
    fields_json = configuration["fields"]
    if not isinstance(fields_json, list) or not fields_json:
        raise _invalid(f"{name}: 'fields' must be a non-empty list", "V3-DT-009")
    if len(fields_json) > MAX_STRUCT_FIELDS:
        raise LimitError(f"{name} with {len(fields_json)} fields")
    fields: list[tuple[str, DataType]] = []
    for entry in fields_json:
        if isinstance(entry, dict) and set(entry) == {"name", "data_type"}:
            field_name, field_type = entry["name"], entry["data_type"]
        elif legacy and isinstance(entry, list) and len(entry) == 2:
            field_name, field_type = entry
        else:
            form = '{"name", "data_type"} objects' + (
                " or [name, data_type] pairs" if legacy else ""
            )
            raise _invalid(f"{name}: each field must be one of {form}, got {entry!r}", "V3-DT-009")
        if not isinstance(field_name, str) or not field_name:
            raise _invalid(
                f"{name}: a field name must be a non-empty string, got {field_name!r}", "V3-DT-009"
            )
        if any(field_name == seen for seen, _ in fields):
            raise _invalid(
                f"{name}: field name {field_name!r} is repeated (names must be unique)", "V3-DT-009"
            )
        dt = parse_data_type(field_type, depth + 1)
        if dt.dtype.hasobject:
            raise _invalid(
                f"{name}: field {field_name!r} has the variable-length type {dt.name!r}",
                "V3-DT-009",
            )
        fields.append((field_name, dt))
    offsets, offset = [], 0
    for _, dt in fields:
        offsets.append(offset)
        offset += dt.itemsize
    names = [n for n, _ in fields]
    dtype = np.dtype(
        {
            "names": names,
            "formats": [dt.dtype for _, dt in fields],
            "offsets": offsets,
            "itemsize": offset,
        }
    )
    raw = np.dtype(
        {
            "names": names,
            "formats": [dt.raw for _, dt in fields],
            "offsets": offsets,
            "itemsize": offset,
        }
    )
    if legacy:
        config = _copy(configuration)
    else:
        config = {"fields": [{"name": n, "data_type": dt.to_json()} for n, dt in fields]}
    return DataType(
        name,
        "struct",
        dtype,
        config,
        extension=True,
        raw_dtype=raw if raw != dtype else None,
        fields=tuple(fields),
        legacy=legacy,
    )


_SMALL_BY_DTYPE = {
    **{np.dtype(t): n for n, (t, *_) in small_types.FLOATS.items()},
    **{np.dtype(t): n for n, (t, *_) in small_types.INTS.items()},
}


def data_type_from_numpy(dtype: Any) -> DataType:
    """The v3 data type for a NumPy dtype (byte order is ignored: it belongs to the bytes codec).
    'U' is fixed_length_utf32, 'S' null_terminated_bytes, packed structured dtypes struct."""
    dtype = np.dtype(dtype)
    if dtype in _SMALL_BY_DTYPE:
        name = _SMALL_BY_DTYPE[dtype]
        return _defined(simple_extension_type(name), name)
    if dtype.fields is not None:
        fields = []
        for name in dtype.names:
            field_dtype = dtype.fields[name][0]
            fields.append({"name": name, "data_type": data_type_from_numpy(field_dtype).to_json()})
        dt = _struct_type("struct", {"fields": fields}, 0)
        if dt.itemsize != dtype.itemsize or dt.dtype.newbyteorder("=") != dtype.newbyteorder("="):
            raise _invalid(
                f"NumPy dtype {dtype} has padding or out-of-order fields; struct fields are packed"
            )
        return dt
    if dtype.kind == "V" and dtype.subdtype is None:
        return _defined(core_data_type(f"r{dtype.itemsize * 8}"), f"r{dtype.itemsize * 8}")
    if dtype.kind in "Mm":
        unit, scale = np.datetime_data(dtype)
        name = "numpy.datetime64" if dtype.kind == "M" else "numpy.timedelta64"
        return _time_type(name, {"unit": unit, "scale_factor": scale})
    if dtype.kind == "T":
        return parse_data_type("string")
    if dtype.kind == "U" and dtype.itemsize:
        return _length_type("fixed_length_utf32", {"length_bytes": dtype.itemsize})
    if dtype.kind == "S" and dtype.itemsize:
        return _length_type("null_terminated_bytes", {"length_bytes": dtype.itemsize})
    for name, (_, code) in CORE_TYPES.items():
        if dtype.newbyteorder("=") == np.dtype(code):
            return _defined(core_data_type(name), name)
    raise _invalid(
        f"NumPy dtype {dtype} has no Zarr v3 data type here (object arrays: name 'string' or 'bytes')"
    )


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
