"""Zarr storage format v2 (docs/v2/v2.0.rst; requirements V2-*)."""

from .consolidated import read_consolidated, write_consolidated
from .dtypes import dtype_to_json, parse_dtype
from .fill import encode_fill_value, parse_fill_value
from .format import FORMAT, V2Format
from .metadata import ArrayMeta, array_metadata, parse_array_metadata, parse_group_metadata
from .paths import normalize_path

__all__ = [
    "FORMAT",
    "ArrayMeta",
    "V2Format",
    "array_metadata",
    "dtype_to_json",
    "encode_fill_value",
    "normalize_path",
    "parse_array_metadata",
    "parse_dtype",
    "parse_fill_value",
    "parse_group_metadata",
    "read_consolidated",
    "write_consolidated",
]
