"""Zarr v3 (final 3.0, with lenient reading of 3.1 extension-object forms).

from conformance.reference.formats.v3 import FORMAT, parse_fill_value, encode_fill_value
"""

from __future__ import annotations

from .chunks import ChunkKeyEncoding, parse_chunk_grid, parse_chunk_key_encoding
from .data_types import DataType, data_type_from_numpy, parse_data_type, resolve_data_type
from .fill_value import encode_fill_value, fill_value_array, parse_fill_value
from .format import FORMAT, V3Format, read_consolidated
from .metadata import (
    ArrayMetadata,
    GroupMetadata,
    load_document,
    parse_array_metadata,
    parse_group_metadata,
)
from .names import metadata_key, normalize_path
from .nodes import V3Array, V3Group
from .upgrade import upgrade_v2_metadata

__all__ = [
    "FORMAT",
    "ArrayMetadata",
    "ChunkKeyEncoding",
    "DataType",
    "GroupMetadata",
    "V3Array",
    "V3Format",
    "V3Group",
    "data_type_from_numpy",
    "encode_fill_value",
    "fill_value_array",
    "load_document",
    "metadata_key",
    "normalize_path",
    "parse_array_metadata",
    "parse_chunk_grid",
    "parse_chunk_key_encoding",
    "parse_data_type",
    "parse_fill_value",
    "parse_group_metadata",
    "read_consolidated",
    "resolve_data_type",
    "upgrade_v2_metadata",
]
