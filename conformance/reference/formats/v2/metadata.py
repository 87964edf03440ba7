"""Parsing, validating and building v2 metadata documents: `.zarray` (V2-META-*) and `.zgroup`
(V2-GROUP-002)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numcodecs.abc import Codec

from ...errors import LimitError, MetadataError, UnsupportedError
from .codecs import OBJECT_CODECS, UNSUPPORTED_OBJECT_CODECS, build_codec
from .dtypes import dtype_to_json, parse_dtype
from .fill import NUMERIC_STRING_FILL, encode_fill_value, parse_fill_value

REQUIRED_ARRAY_KEYS = (
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compressor",
    "fill_value",
    "order",
    "filters",
)
OPTIONAL_ARRAY_KEYS = ("dimension_separator",)
MAX_RANK = 64  # NumPy's own limit on dimensions
MAX_EXTENT = 2**63 - 1


@dataclass(frozen=True)
class ArrayMeta:
    """A validated `.zarray` document in the form the array engine needs."""

    shape: tuple[int, ...]
    chunks: tuple[int, ...]
    dtype: np.dtype
    fill_value: np.ndarray | None
    order: str
    dimension_separator: str
    compressor: Codec | None
    filters: tuple[Codec, ...]
    object_codec: str | None = None
    notes: tuple[str, ...] = field(default=())  # tolerated deviations a validator may warn about


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_zarr_format(doc: dict[str, Any], expected: int, requirement: str) -> None:
    value = doc["zarr_format"]
    if not _is_int(value) or value != expected:
        raise MetadataError(
            "invalid-zarr-format",
            f"zarr_format must be the integer {expected}, got {value!r}",
            requirement,
        )


def parse_shape(value: Any, requirement: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(n) and 0 <= n <= MAX_EXTENT for n in value):
        raise MetadataError(
            "invalid-shape",
            f"shape must be a list of non-negative integers, got {value!r}",
            requirement,
        )
    if len(value) > MAX_RANK:
        raise LimitError(f"rank {len(value)} exceeds {MAX_RANK}", requirement)
    return tuple(value)


def parse_chunks(value: Any, rank: int, requirement: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(n) and 0 < n <= MAX_EXTENT for n in value):
        raise MetadataError(
            "invalid-chunk-shape",
            f"chunks must be a list of positive integers, got {value!r}",
            requirement,
        )
    if len(value) != rank:
        raise MetadataError(
            "invalid-chunk-shape", f"chunks {value} and shape have different lengths", requirement
        )
    return tuple(value)


def parse_order(value: Any, requirement: str) -> str:
    if value not in ("C", "F") or not isinstance(value, str):
        raise MetadataError(
            "invalid-order", f'order must be "C" or "F", got {value!r}', requirement
        )
    return value


def _parse_codecs(
    doc: dict[str, Any], notes: list[str]
) -> tuple[Codec | None, tuple[Codec, ...], list[str]]:
    compressor_doc = doc["compressor"]
    compressor = (
        None if compressor_doc is None else build_codec(compressor_doc, "compressor", "V2-META-004")
    )
    filters_doc = doc["filters"]
    if filters_doc is None:
        filter_docs: list[Any] = []
    elif isinstance(filters_doc, list):
        filter_docs = filters_doc
        if not filters_doc:
            notes.append(
                "filters is [] (read as no filters); writers should use null (V2-META-005)"
            )
    else:
        raise MetadataError(
            "invalid-codec", f"filters must be null or a list, got {filters_doc!r}", "V2-META-005"
        )
    filters = tuple(build_codec(f, "filter", "V2-META-005") for f in filter_docs)
    ids = [f.get("id") for f in filter_docs]
    return compressor, filters, ids


def _object_codec(dtype: np.dtype, filter_ids: list[str], compressor: Codec | None) -> str | None:
    """'|O' arrays need an object codec as their first filter; fixed-size arrays must have none."""
    all_ids = list(filter_ids) + ([compressor.codec_id] if compressor is not None else [])
    object_ids = [i for i in all_ids if i in OBJECT_CODECS | UNSUPPORTED_OBJECT_CODECS]
    if not dtype.hasobject:
        if object_ids:
            raise MetadataError(
                "invalid-codec", f"object codec {object_ids[0]!r} on non-object data type {dtype}"
            )
        return None
    if not filter_ids or filter_ids[0] not in OBJECT_CODECS | UNSUPPORTED_OBJECT_CODECS:
        raise MetadataError(
            "invalid-codec", "an object ('|O') array needs an object codec as its first filter"
        )
    if filter_ids[0] in UNSUPPORTED_OBJECT_CODECS:
        raise UnsupportedError(
            f"object codec {filter_ids[0]!r} is not implemented by the reference"
        )
    if len(object_ids) > 1:
        raise MetadataError("invalid-codec", f"more than one object codec: {object_ids}")
    return filter_ids[0]


def parse_array_metadata(doc: Any) -> ArrayMeta:
    """Validate a parsed `.zarray` document (V2-META-001..008, V2-DTYPE-*, V2-FILL-*)."""
    if not isinstance(doc, dict):
        raise MetadataError("invalid-metadata", ".zarray must be a JSON object", "V2-META-001")
    for key in REQUIRED_ARRAY_KEYS:
        if key not in doc:
            raise MetadataError("missing-field", f".zarray has no {key!r}", "V2-META-001")
    notes: list[str] = []
    extra = sorted(set(doc) - set(REQUIRED_ARRAY_KEYS) - set(OPTIONAL_ARRAY_KEYS))
    if extra:
        notes.append(
            f".zarray has keys the format does not define (ignored): {extra} (V2-META-008)"
        )
    check_zarr_format(doc, 2, "V2-META-002")
    shape = parse_shape(doc["shape"], "V2-META-003")
    chunks = parse_chunks(doc["chunks"], len(shape), "V2-META-003")
    dtype = parse_dtype(doc["dtype"])
    order = parse_order(doc["order"], "V2-META-006")
    separator = doc.get("dimension_separator", ".")
    if separator not in (".", "/") or not isinstance(separator, str):
        raise MetadataError(
            "invalid-chunk-key-encoding",
            f'dimension_separator must be "." or "/", got {separator!r}',
            "V2-META-007",
        )
    compressor, filters, filter_ids = _parse_codecs(doc, notes)
    object_codec = _object_codec(dtype, filter_ids, compressor)
    fill_value = parse_fill_value(doc["fill_value"], dtype, object_codec)
    fill_doc = doc["fill_value"]
    if (
        object_codec == "vlen-utf8"
        and isinstance(fill_doc, (int, float))
        and not isinstance(fill_doc, bool)
    ):
        notes.append(NUMERIC_STRING_FILL.format(fill=fill_doc))
    return ArrayMeta(
        shape,
        chunks,
        dtype,
        fill_value,
        order,
        separator,
        compressor,
        filters,
        object_codec,
        tuple(notes),
    )


def parse_group_metadata(doc: Any) -> tuple[str, ...]:
    """Validate a parsed `.zgroup` document; returns notes on tolerated extra keys (V2-GROUP-002)."""
    if not isinstance(doc, dict):
        raise MetadataError("invalid-metadata", ".zgroup must be a JSON object", "V2-GROUP-002")
    if "zarr_format" not in doc:
        raise MetadataError("missing-field", ".zgroup has no 'zarr_format'", "V2-GROUP-002")
    check_zarr_format(doc, 2, "V2-GROUP-002")
    extra = sorted(set(doc) - {"zarr_format"})
    return (f".zgroup must not have other keys, found {extra} (V2-GROUP-002)",) if extra else ()


GROUP_DOCUMENT = {"zarr_format": 2}


def _codec_config(codec: Any) -> dict[str, Any]:
    return codec.get_config() if isinstance(codec, Codec) else codec


def _default_fill(dtype: np.dtype, object_codec: str | None) -> Any:
    """What the default fill_value=0 means for types where 0 is not a value: the all-zero item."""
    if dtype.names is not None or dtype.kind == "V":
        return bytes(dtype.itemsize)
    if dtype.kind == "S":
        return b""
    if dtype.kind == "U":
        return ""
    if dtype.kind == "O":
        return b"" if object_codec == "vlen-bytes" else ""
    return 0


def array_metadata(
    shape: Sequence[int],
    chunks: Sequence[int],
    dtype: Any,
    fill_value: Any = 0,
    order: str = "C",
    compressor: Any = None,
    filters: Any = None,
    dimension_separator: str | None = None,
) -> dict[str, Any]:
    """A canonical `.zarray` document, keys sorted as zarr-python writes them.

    `dtype` is anything NumPy accepts, or a v2 dtype document (typestr or field list); compressor
    and filters are numcodecs codecs or their JSON configs; an empty filter list is written null
    (V2-META-005). The default fill 0 means the all-zero item for bytes, string and structured types."""
    try:
        shape_list = [operator.index(n) for n in shape]
        chunks_list = [operator.index(n) for n in chunks]
    except TypeError:
        raise MetadataError(
            "invalid-shape", f"shape {shape!r} and chunks {chunks!r} must be integer sequences"
        ) from None
    if isinstance(dtype, list) or (isinstance(dtype, str) and dtype and dtype[0] in "<>|"):
        dtype_doc = dtype_to_json(parse_dtype(dtype))
    else:
        try:
            dtype_doc = dtype_to_json(np.dtype(dtype))
        except TypeError:
            raise MetadataError("invalid-data-type", f"{dtype!r} is not a data type") from None
    np_dtype = parse_dtype(dtype_doc)
    filter_list = [_codec_config(f) for f in filters] if filters else None
    compressor_doc = None if compressor is None else _codec_config(compressor)
    object_codec = (
        filter_list[0].get("id") if filter_list and isinstance(filter_list[0], dict) else None
    )
    if isinstance(fill_value, int) and not isinstance(fill_value, bool) and fill_value == 0:
        fill_value = _default_fill(np_dtype, object_codec)
    doc: dict[str, Any] = {"chunks": chunks_list, "compressor": compressor_doc}
    if dimension_separator is not None:
        doc["dimension_separator"] = dimension_separator
    doc.update(
        {
            "dtype": dtype_doc,
            "fill_value": encode_fill_value(fill_value, np_dtype, object_codec),
            "filters": filter_list,
            "order": order,
            "shape": shape_list,
            "zarr_format": 2,
        }
    )
    parse_array_metadata(doc)  # what we build must pass our own reader
    return doc
