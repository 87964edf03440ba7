"""Parsing and validating v3 `zarr.json` documents (V3-ARR-*, V3-GRP-001..004, V3-ATTR-*).

Codecs are validated by the codec package when the array is opened (`build_pipeline`); here the
`codecs` member is only checked to be a non-empty list, so metadata can be judged on its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from ... import jsonio
from ...errors import LimitError, MetadataError
from ...grid import RectilinearGrid
from .chunks import ChunkKeyEncoding, check_covers, parse_chunk_grid, parse_chunk_key_encoding
from .data_types import DataType, parse_data_type
from .extension import is_ignorable
from .fill_value import parse_fill_value

ARRAY_REQUIRED = ("shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs")
ARRAY_OPTIONAL = ("attributes", "storage_transformers", "dimension_names")
ARRAY_MEMBERS = ("zarr_format", "node_type", *ARRAY_REQUIRED, *ARRAY_OPTIONAL)
GROUP_MEMBERS = ("zarr_format", "node_type", "attributes")
CONSOLIDATED = "consolidated_metadata"  # zarr-python's inline consolidated metadata (groups only)
MAX_RANK = 64  # NumPy's limit on dimensions
MAX_EXTENT = 2**63 - 1


@dataclass
class ArrayMetadata:
    shape: tuple[int, ...]
    data_type: DataType
    chunk_shape: tuple[int, ...]
    chunk_key_encoding: ChunkKeyEncoding
    fill_value: np.ndarray  # 0-d, exact bits, native dtype
    codecs: list[Any]
    attributes: dict[str, Any]
    dimension_names: tuple[str | None, ...] | None
    document: dict[str, Any]
    notes: list[str] = field(default_factory=list)  # tolerated oddities worth reporting


@dataclass
class GroupMetadata:
    attributes: dict[str, Any]
    document: dict[str, Any]
    consolidated: dict[str, Any] | None = None  # the consolidated_metadata member, if an object
    notes: list[str] = field(default_factory=list)


# ---- loading ------------------------------------------------------------------------------


def load_document(data: bytes, key: str = "zarr.json") -> tuple[dict[str, Any], Any]:
    """Strictly parse a zarr.json (V3-ARR-013). Returns (document, exact fill value): the second is
    `fill_value` re-read with numbers as decimal.Decimal, so float fills round exactly once."""
    doc = jsonio.load_object(data, key, "V3-ARR-013")
    fill = doc.get("fill_value")
    if isinstance(fill, (int, float, list, dict)) and not isinstance(fill, bool):
        exact = json.loads(data, parse_float=Decimal, parse_int=Decimal)
        return doc, exact.get("fill_value")
    return doc, None


def node_type_of(doc: dict[str, Any], key: str = "zarr.json") -> str:
    """Check `zarr_format` and `node_type` and return 'array' or 'group' (V3-ARR-001/002, V3-GRP-001)."""
    if "zarr_format" not in doc:
        raise MetadataError("missing-field", f"{key} has no 'zarr_format'", "V3-ARR-003")
    fmt = doc["zarr_format"]
    if type(fmt) is not int or fmt != 3:
        raise MetadataError(
            "invalid-zarr-format",
            f"{key}: zarr_format must be the integer 3, got {fmt!r}",
            "V3-ARR-001",
        )
    node_type = doc.get("node_type")
    if node_type not in ("array", "group") or not isinstance(node_type, str):
        what = "has no 'node_type'" if "node_type" not in doc else f"has node_type {node_type!r}"
        raise MetadataError(
            "invalid-node-type", f"{key} {what}; expected 'array' or 'group'", "V3-ARR-002"
        )
    return node_type


def _check_members(
    doc: dict[str, Any], known: tuple[str, ...], notes: list[str], requirement: str
) -> None:
    """Unknown members are errors unless they are objects with must_understand=false."""
    for name, value in doc.items():
        if name in known:
            continue
        if is_ignorable(value):
            notes.append(f"ignored member {name!r} (must_understand: false)")
            continue
        raise MetadataError("unknown-field", f"unknown metadata member {name!r}", requirement)


def parse_attributes(doc: dict[str, Any]) -> dict[str, Any]:
    """`attributes` is optional (default {}) and, if present, an object (V3-ARR-006, V3-GRP-002);
    its contents are user data and never checked (V3-ATTR-003)."""
    attributes = doc.get("attributes", {})
    if not isinstance(attributes, dict):
        raise MetadataError("invalid-attributes", "attributes must be a JSON object", "V3-ATTR-001")
    return attributes


# ---- arrays -------------------------------------------------------------------------------


def parse_array_metadata(doc: Any, exact_fill: Any = None, key: str = "zarr.json") -> ArrayMetadata:
    """Validate an array document; raise MetadataError / LimitError with a reason code."""
    if not isinstance(doc, dict):
        raise MetadataError("invalid-metadata", f"{key} must be a JSON object", "V3-ARR-013")
    if node_type_of(doc, key) != "array":
        raise MetadataError(
            "invalid-node-type", f"{key} describes a group, not an array", "V3-ARR-002"
        )
    missing = [name for name in ARRAY_REQUIRED if name not in doc]
    if missing:
        raise MetadataError(
            "missing-field", f"{key} lacks required members {missing}", "V3-ARR-003"
        )
    notes: list[str] = []
    _check_members(doc, ARRAY_MEMBERS, notes, "V3-ARR-010")
    shape = _parse_shape(doc["shape"])
    data_type = parse_data_type(doc["data_type"])
    chunk_shape = parse_chunk_grid(doc["chunk_grid"], len(shape))
    if isinstance(chunk_shape, RectilinearGrid):
        chunk_shape = check_covers(
            chunk_shape, doc["chunk_grid"]["configuration"]["chunk_shapes"], shape
        )
    encoding = parse_chunk_key_encoding(doc["chunk_key_encoding"])
    exact_kinds = ("float", "complex", "struct")
    fill_json = (
        exact_fill
        if exact_fill is not None and data_type.kind in exact_kinds
        else doc["fill_value"]
    )
    fill_value = parse_fill_value(fill_json, data_type, _bytes_endian(doc.get("codecs")))
    codecs = doc["codecs"]
    if not isinstance(codecs, list):
        raise MetadataError("invalid-codec", "codecs must be a list", "V3-ARR-005")
    if not codecs:
        raise MetadataError(
            "codec-order",
            "codecs must not be empty: an array -> bytes codec is required",
            "V3-ARR-005",
        )
    _check_storage_transformers(doc.get("storage_transformers", []))
    return ArrayMetadata(
        shape=shape,
        data_type=data_type,
        chunk_shape=chunk_shape,
        chunk_key_encoding=encoding,
        fill_value=fill_value,
        codecs=codecs,
        attributes=parse_attributes(doc),
        dimension_names=_parse_dimension_names(doc.get("dimension_names"), len(shape)),
        document=doc,
        notes=notes,
    )


def _bytes_endian(codecs: Any) -> str | None:
    """The `endian` of the array's bytes codec, if it has one (legacy `structured` base64 fills are
    packed in that byte order)."""
    if not isinstance(codecs, list):
        return None
    for codec in codecs:
        if isinstance(codec, dict) and codec.get("name") == "bytes":
            config = codec.get("configuration")
            return config.get("endian") if isinstance(config, dict) else None
    return None


def _parse_shape(shape: Any) -> tuple[int, ...]:
    if not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape):
        raise MetadataError(
            "invalid-shape",
            f"shape must be a list of non-negative integers, got {shape!r}",
            "V3-ARR-004",
        )
    if len(shape) > MAX_RANK or any(n > MAX_EXTENT for n in shape):
        raise LimitError(
            f"shape {shape} exceeds the reference's limits (rank {MAX_RANK}, extent 2^63-1)"
        )
    return tuple(shape)


def _check_storage_transformers(value: Any) -> None:
    """No storage transformer is defined by the core spec, so only an absent or empty list can be
    honoured; any entry is unknown and must stop the open (V3-ARR-007)."""
    if not isinstance(value, list):
        raise MetadataError(
            "invalid-storage-transformer", "storage_transformers must be a list", "V3-ARR-007"
        )
    if value:
        names = [t.get("name") if isinstance(t, dict) else t for t in value]
        raise MetadataError(
            "invalid-storage-transformer",
            f"unsupported storage transformers {names!r}",
            "V3-ARR-007",
        )


def _parse_dimension_names(value: Any, rank: int) -> tuple[str | None, ...] | None:
    """Strings or nulls, one per dimension; duplicates are allowed (V3-ARR-008, V3-ARR-009)."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != rank
        or not all(v is None or isinstance(v, str) for v in value)
    ):
        raise MetadataError(
            "invalid-dimension-names",
            f"dimension_names must be {rank} strings or nulls, got {value!r}",
            "V3-ARR-008",
        )
    return tuple(value)


# ---- groups -------------------------------------------------------------------------------


def parse_group_metadata(doc: Any, key: str = "zarr.json") -> GroupMetadata:
    """Validate a group document (V3-GRP-001..003). zarr-python's `consolidated_metadata` is
    accepted as an object and, as zarr-python 3.0 wrote it, as null (recorded as a note)."""
    if not isinstance(doc, dict):
        raise MetadataError("invalid-metadata", f"{key} must be a JSON object", "V3-ARR-013")
    if node_type_of(doc, key) != "group":
        raise MetadataError(
            "invalid-node-type", f"{key} describes an array, not a group", "V3-GRP-001"
        )
    notes: list[str] = []
    consolidated = None
    if CONSOLIDATED in doc:
        value = doc[CONSOLIDATED]
        if value is None:
            notes.append(
                "V3-GRP-004: 'consolidated_metadata': null (as zarr-python 3.0 wrote it) tolerated"
            )
        elif isinstance(value, dict):
            consolidated = value
        else:
            raise MetadataError(
                "invalid-metadata", "consolidated_metadata must be an object", "V3-GRP-004"
            )
    _check_members(doc, (*GROUP_MEMBERS, CONSOLIDATED), notes, "V3-GRP-003")
    return GroupMetadata(parse_attributes(doc), doc, consolidated, notes)
