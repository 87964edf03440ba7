"""Array and group documents of both draft flavours, checked member by member.

seed-002 (V3DRAFT-META-004..017): an array document has exactly shape, data_type, chunk_grid,
chunk_memory_layout, fill_value, extensions and attributes, plus optional codecs and
storage_transformers; a group document has exactly attributes. Any other member is
'unknown-field' (V3DRAFT-META-005/016), except under a 3.x minor version > 0, whose stability
policy lets readers ignore names they do not know.

zarr-python 2 (V3DRAFT-ZP2-003/004) replaces codecs with `compressor`, may add
`dimension_separator`, and uses typestr data types and v2-style fill values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import MetadataError
from .codecs import DraftChunkCodec, parse_codecs, parse_zp2_compressor
from .dtypes import DataType, parse_data_type, parse_zp2_data_type
from .extensions import check_extension_list, refuse_extension_point
from .fill import parse_fill, parse_zp2_fill
from .flavours import ZP2, Flavour
from .sharding import parse_sharding

MAX_RANK = 64

_REQUIRED = (
    "shape",
    "data_type",
    "chunk_grid",
    "chunk_memory_layout",
    "fill_value",
    "extensions",
    "attributes",
)
_OPTIONAL = {
    "seed-002": ("codecs", "storage_transformers"),
    ZP2: ("compressor", "dimension_separator", "storage_transformers"),
}


@dataclass
class ArraySpec:
    """What the format needs from a valid array document."""

    shape: tuple[int, ...]
    chunk_shape: tuple[int, ...]
    separator: str
    data_type: DataType
    order: str
    fill: np.ndarray | None
    codec: DraftChunkCodec
    shards: list[tuple[int, ...]]  # chunks_per_shard of each sharding transformer, outermost first
    attributes: dict[str, Any]


def _members(
    doc: dict[str, Any],
    required: tuple[Any, ...],
    optional: tuple[Any, ...],
    flavour: Flavour,
    what: str,
    req: tuple[str, str],
) -> None:
    missing = [name for name in required if name not in doc]
    if missing:
        raise MetadataError("missing-field", f"{what} lacks {missing}", req[0])
    extra = sorted(set(doc) - set(required) - set(optional))
    if extra and flavour.strict_members:
        raise MetadataError(
            "unknown-field", f"{what} has members this draft does not define: {extra}", req[1]
        )


def check_attributes(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MetadataError(
            "invalid-attributes", "attributes must be a JSON object", "V3DRAFT-META-017"
        )
    return value


def parse_group(doc: dict[str, Any], flavour: Flavour) -> dict[str, Any]:
    """The attributes of a group document (V3DRAFT-META-016, V3DRAFT-ZP2-004)."""
    req = ("V3DRAFT-ZP2-004",) * 2 if flavour.name == ZP2 else ("V3DRAFT-META-016",) * 2
    _members(doc, ("attributes",), (), flavour, "group metadata", req)
    return check_attributes(doc["attributes"])


def _shape(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value
    ):
        raise MetadataError(
            "invalid-shape",
            f"shape must be a list of non-negative integers, got {value!r}",
            "V3DRAFT-META-004",
        )
    if len(value) > MAX_RANK:
        raise MetadataError(
            "invalid-shape", f"rank {len(value)} exceeds {MAX_RANK}", "V3DRAFT-META-004"
        )
    return tuple(value)


def _chunk_grid(value: Any, shape: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    requirement = "V3DRAFT-META-009"
    if isinstance(value, dict) and "extension" in value:
        refuse_extension_point(value, "chunk_grid", requirement)
    if not isinstance(value, dict) or value.get("type") != "regular":
        raise MetadataError(
            "invalid-chunk-grid",
            f'chunk_grid must be {{"type": "regular", ...}}, got {value!r}',
            requirement,
        )
    extra = set(value) - {"type", "chunk_shape", "separator"}
    if extra:
        raise MetadataError(
            "invalid-chunk-grid", f"chunk_grid has undefined members {sorted(extra)}", requirement
        )
    # The grid section gives '/' as the separator's default, so an absent one reads as '/'.
    separator = value.get("separator", "/")
    if separator not in ("/", "."):
        raise MetadataError(
            "invalid-chunk-key-encoding",
            f"separator must be '/' or '.', got {separator!r}",
            requirement,
        )
    chunks = value.get("chunk_shape")
    if (
        not isinstance(chunks, list)
        or len(chunks) != len(shape)
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in chunks)
        # a chunk length may be 0 only along a dimension of length 0 (§Chunk)
        or not all(c >= 1 or (c == 0 and s == 0) for c, s in zip(chunks, shape))
    ):
        raise MetadataError(
            "invalid-chunk-shape",
            f"chunk_shape must list {len(shape)} positive integers, got {chunks!r}",
            requirement,
        )
    return tuple(chunks), separator


def _order(value: Any) -> str:
    if isinstance(value, dict) and "extension" in value:
        refuse_extension_point(value, "chunk_memory_layout", "V3DRAFT-META-010")
    if value not in ("C", "F"):
        raise MetadataError(
            "invalid-order",
            f"chunk_memory_layout must be 'C' or 'F', got {value!r}",
            "V3DRAFT-META-010",
        )
    return value


def parse_array(doc: dict[str, Any], flavour: Flavour) -> ArraySpec:
    zp2 = flavour.name == ZP2
    req = ("V3DRAFT-ZP2-003",) * 2 if zp2 else ("V3DRAFT-META-004", "V3DRAFT-META-005")
    _members(doc, _REQUIRED, _OPTIONAL[flavour.name], flavour, "array metadata", req)
    shape = _shape(doc["shape"])
    chunk_shape, separator = _chunk_grid(doc["chunk_grid"], shape)
    order = _order(doc["chunk_memory_layout"])
    check_extension_list(doc["extensions"], "array metadata")
    attributes = check_attributes(doc["attributes"])
    if zp2:
        data_type = parse_zp2_data_type(doc["data_type"])
        fill = parse_zp2_fill(doc["fill_value"], data_type)
        steps = (
            [parse_zp2_compressor(doc["compressor"])] if doc.get("compressor") is not None else []
        )
        if "dimension_separator" in doc and doc["dimension_separator"] != separator:
            raise MetadataError(
                "invalid-chunk-key-encoding",
                "dimension_separator disagrees with chunk_grid.separator",
                "V3DRAFT-ZP2-003",
            )
    else:
        data_type = parse_data_type(doc["data_type"])
        fill = parse_fill(doc["fill_value"], data_type)
        steps = parse_codecs(doc.get("codecs", []))
    transformers = doc.get("storage_transformers", [])
    if not isinstance(transformers, list):
        raise MetadataError(
            "invalid-storage-transformer", "storage_transformers must be a list", "V3DRAFT-META-014"
        )
    shards = [parse_sharding(entry, flavour, len(shape)) for entry in transformers]
    codec = DraftChunkCodec(chunk_shape, data_type.dtype, order, steps)
    return ArraySpec(
        shape, chunk_shape, separator, data_type, order, fill, codec, shards, attributes
    )
