"""V3-V2UP-001: turn a v2 `.zarray` into a v3 `zarr.json` over the same chunk keys and bytes.

Only the metadata changes: chunk_key_encoding `v2` with the v2 dimension_separator, the v2 byte
order as the bytes codec's `endian`, order F as transpose [n-1, ..., 0], and the compressor as its
v3 codec (blosc with a string shuffle and an explicit typesize, gzip, zstd). Anything without a
v3 equivalent here (filters, other compressors, structured or string dtypes) raises
UnsupportedError rather than producing a document that would read different values.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import numpy as np

from ...errors import MetadataError, UnsupportedError
from .build import DEFAULT_FILL
from .data_types import DataType, data_type_from_numpy
from .fill_value import encode_fill_value, parse_fill_value
from .metadata import parse_array_metadata

BLOSC_SHUFFLE = {0: "noshuffle", 1: "shuffle", 2: "bitshuffle"}


def upgrade_v2_metadata(
    zarray: dict[str, Any], attributes: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The v3 array document equivalent to a v2 `.zarray` (and optional `.zattrs`)."""
    if not isinstance(zarray, dict) or zarray.get("zarr_format") != 2:
        raise MetadataError(
            "invalid-zarr-format", "expected a v2 .zarray document with zarr_format 2"
        )
    try:
        shape, chunks = list(zarray["shape"]), list(zarray["chunks"])
        typestr, order = zarray["dtype"], zarray["order"]
    except (KeyError, TypeError):
        raise MetadataError(
            "missing-field", ".zarray lacks shape, chunks, dtype or order"
        ) from None
    if not isinstance(typestr, str):
        raise UnsupportedError(f"v2 dtype {typestr!r} (structured) has no core v3 data type")
    try:
        dtype = np.dtype(typestr)
    except TypeError:
        raise MetadataError("invalid-data-type", f"unknown v2 dtype {typestr!r}") from None
    if dtype.kind in "SUO" or dtype.fields is not None:
        raise UnsupportedError(f"v2 dtype {typestr!r} has no core v3 data type")
    data_type = data_type_from_numpy(dtype)
    if zarray.get("filters"):
        raise UnsupportedError("v2 filters have no v3 upgrade here")
    codecs: list[dict[str, Any]] = []
    if order == "F" and len(shape) >= 2:
        codecs.append(
            {"name": "transpose", "configuration": {"order": list(range(len(shape) - 1, -1, -1))}}
        )
    elif order not in ("C", "F"):
        raise MetadataError("invalid-order", f"v2 order must be 'C' or 'F', got {order!r}")
    if data_type.has_endianness:
        codecs.append(
            {
                "name": "bytes",
                "configuration": {"endian": "big" if dtype.byteorder == ">" else "little"},
            }
        )
    else:
        codecs.append({"name": "bytes"})
    compressor = zarray.get("compressor")
    if compressor is not None:
        codecs.append(_compressor(compressor, dtype.itemsize))
    doc: dict[str, Any] = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": shape,
        "data_type": data_type.to_json(),
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
        "chunk_key_encoding": {
            "name": "v2",
            "configuration": {"separator": zarray.get("dimension_separator", ".")},
        },
        "fill_value": _fill(zarray.get("fill_value"), data_type),
        "codecs": codecs,
    }
    if attributes:
        doc["attributes"] = dict(attributes)
    parse_array_metadata(doc)  # the result must be a valid v3 document
    return doc


def _compressor(config: Any, itemsize: int) -> dict[str, Any]:
    if not isinstance(config, dict):
        raise MetadataError("invalid-codec", f"v2 compressor must be an object, got {config!r}")
    cid = config.get("id")
    if cid == "blosc":
        shuffle = config.get("shuffle", 1)
        if (
            shuffle == -1
        ):  # numcodecs AUTOSHUFFLE: bit shuffle for one-byte items, byte shuffle otherwise
            shuffle = 2 if itemsize == 1 else 1
        if shuffle not in BLOSC_SHUFFLE:
            raise MetadataError("invalid-codec", f"unknown blosc shuffle {shuffle!r}")
        return {
            "name": "blosc",
            "configuration": {
                "cname": config.get("cname", "lz4"),
                "clevel": config.get("clevel", 5),
                "shuffle": BLOSC_SHUFFLE[shuffle],
                "typesize": itemsize,
                "blocksize": config.get("blocksize", 0),
            },
        }
    if cid == "gzip":
        return {"name": "gzip", "configuration": {"level": config.get("level", 1)}}
    if cid == "zstd":
        return {
            "name": "zstd",
            "configuration": {
                "level": config.get("level", 0),
                "checksum": bool(config.get("checksum", False)),
            },
        }
    raise UnsupportedError(f"v2 compressor {cid!r} has no v3 upgrade here")


def _fill(value: Any, data_type: DataType) -> Any:
    """The v3 fill for a v2 fill. v2 `null` (undefined) becomes the type's zero."""
    kind = data_type.kind
    if value is None:
        value = DEFAULT_FILL.get(kind, [0] * data_type.itemsize)
    elif kind == "bool" and value in (0, 1) and not isinstance(value, bool):
        value = bool(value)
    elif kind == "raw" and isinstance(value, str):
        try:
            value = list(base64.b64decode(value, validate=True))
        except (binascii.Error, ValueError):
            raise MetadataError("invalid-fill-value", f"v2 fill {value!r} is not base64") from None
    return encode_fill_value(parse_fill_value(value, data_type), data_type)
