"""Building canonical v3 array documents from NumPy-style arguments (for tests, benchmarks and the
corpus generator). The result is validated when it is given to `create_array`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import MetadataError
from .chunks import DEFAULT_SEPARATOR, parse_chunk_key_encoding
from .data_types import DataType, resolve_data_type
from .fill_value import encode_fill_value

DEFAULT_FILL = {
    "bool": False,
    "int": 0,
    "uint": 0,
    "float": 0.0,
    "complex": [0.0, 0.0],
    "string": "",
    "bytes": b"",
    "datetime": 0,
    "timedelta": 0,
    "utf32": "",
    "nulbytes": b"",
}


def default_codecs(data_type: DataType, endian: str = "little") -> list[dict[str, Any]]:
    """`bytes` (with `endian` only where byte order exists, V3-BYTES-002); variable-length types use
    the zarr-python codecs vlen-utf8 / vlen-bytes."""
    if data_type.kind == "string":
        return [{"name": "vlen-utf8"}]
    if data_type.kind == "bytes":
        return [{"name": "vlen-bytes"}]
    if data_type.has_endianness:
        return [{"name": "bytes", "configuration": {"endian": endian}}]
    return [{"name": "bytes"}]


def array_document(
    shape: Sequence[int],
    chunks: Sequence[int],
    dtype: Any,
    *,
    fill_value: Any = None,
    codecs: list[Any] | None = None,
    chunk_key_encoding: Any = None,
    dimension_names: Sequence[str | None] | None = None,
    order: str = "C",
    endian: str | None = None,
    attributes: dict[str, Any] | None = None,
    storage_transformers: list[Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A canonical array document. `dtype` is a NumPy dtype, a v3 name or a v3 JSON value; a
    big-endian NumPy dtype selects `endian: big` unless `endian` is given. `fill_value=None` picks
    the type's zero and writes it down (V3-ARR-011). `order='F'` puts a transpose [n-1, ..., 0]
    in front of the codecs (for rank >= 2, where it changes anything). `chunk_key_encoding` is
    'default' (separator '/'), 'v2', a separator character for 'default', or a JSON value."""
    data_type = resolve_data_type(dtype)
    shape = _int_tuple(shape, "shape")
    if isinstance(chunks, (int, np.integer)):
        chunks = (int(chunks),) * len(shape)
    chunks = _int_tuple(chunks, "chunks")
    if endian is None:
        endian = "big" if _numpy_byteorder(dtype) == ">" else "little"
    if order not in ("C", "F"):
        raise MetadataError("invalid-order", f"order must be 'C' or 'F', got {order!r}")
    codecs = list(codecs) if codecs is not None else default_codecs(data_type, endian)
    if order == "F" and len(shape) >= 2:
        codecs = [
            {"name": "transpose", "configuration": {"order": list(range(len(shape) - 1, -1, -1))}},
            *codecs,
        ]
    fill = DEFAULT_FILL.get(data_type.kind) if fill_value is None else fill_value
    if fill_value is None and data_type.name == "float8_e8m0fnu":
        fill = 1.0  # the type has no zero
    if fill is None and data_type.kind == "struct":
        fill = np.zeros((), dtype=data_type.dtype)  # every field zero
    elif fill is None:  # raw types: all zero bytes
        fill = (
            [0] * data_type.itemsize
            if data_type.configuration is None
            else bytes(data_type.itemsize)
        )
    doc: dict[str, Any] = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type.to_json(),
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": _encoding_json(chunk_key_encoding),
        "fill_value": encode_fill_value(fill, data_type),
        "codecs": codecs,
    }
    if storage_transformers is not None:
        doc["storage_transformers"] = list(storage_transformers)
    if dimension_names is not None:
        doc["dimension_names"] = list(dimension_names)
    if attributes is not None:
        doc["attributes"] = dict(attributes)
    doc.update(extra or {})
    return doc


def _numpy_byteorder(dtype: Any) -> str:
    if isinstance(dtype, (DataType, dict)):
        return "="
    try:
        return np.dtype(dtype).byteorder
    except TypeError:
        return "="


def _encoding_json(value: Any) -> dict[str, Any]:
    if value is None:
        value = "default"
    if value in ("/", "."):
        return {"name": "default", "configuration": {"separator": value}}
    if isinstance(value, str) and value in DEFAULT_SEPARATOR:
        return {"name": value, "configuration": {"separator": DEFAULT_SEPARATOR[value]}}
    return parse_chunk_key_encoding(value).to_json()


def _int_tuple(value: Any, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(n) for n in value)
    except (TypeError, ValueError):
        raise MetadataError(
            "invalid-shape", f"{what} must be a sequence of integers, got {value!r}"
        ) from None
