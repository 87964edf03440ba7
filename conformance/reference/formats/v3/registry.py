"""The zarr-extensions registry as the reference knows it: which extension names are registered,
which other names real writers emit, and what the reference does with each.

The registry is the normative list of extension names of Zarr v3 (3.1 §Extension naming). The
names below are those of zarr-extensions at commit 4da7b37 (the copy under
shared/specs/zarr-extensions/); `REGISTRY_COMMIT` names it in messages. A name that is neither
registered nor implemented is simply unknown: a reader must refuse to open the array
(V3-DT-008, V3-EXT-004, V3-EXT-005, V3-ARR-007), but the store breaks no requirement a validator
can check merely by using it.

`REFUSED` lists the registered entries the reference does not implement, with the reason an exact
implementation is impossible here; opening an array that uses one raises the `unknown-*` reason
code of its extension point (`unknown-data-type`, `unknown-codec`, `unknown-chunk-grid`,
`unknown-chunk-key-encoding`, `invalid-storage-transformer`).
"""

from __future__ import annotations

import re

REGISTRY_COMMIT = "zarr-extensions@4da7b37"

DATA_TYPES: frozenset[str] = frozenset(
    {
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",  # and r<N> (the registry folder "r")
        "bfloat16",
        "float4_e2m1fn",
        "float6_e2m3fn",
        "float6_e3m2fn",
        "float8_e3m4",
        "float8_e4m3",
        "float8_e4m3b11fnuz",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e8m0fnu",
        "complex_bfloat16",
        "complex_float16",
        "complex_float32",
        "complex_float64",
        "complex_float4_e2m1fn",
        "complex_float6_e2m3fn",
        "complex_float6_e3m2fn",
        "complex_float8_e3m4",
        "complex_float8_e4m3",
        "complex_float8_e4m3b11fnuz",
        "complex_float8_e4m3fnuz",
        "complex_float8_e5m2",
        "complex_float8_e5m2fnuz",
        "complex_float8_e8m0fnu",
        "int2",
        "int4",
        "uint2",
        "uint4",
        "fixed_length_utf32",
        "bytes",
        "string",
        "struct",
        "structured",
        "numpy.datetime64",
        "numpy.timedelta64",
    }
)

CODECS: frozenset[str] = frozenset(
    {
        "bitround",
        "blosc",
        "bytes",
        "cast_value",
        "conditional",
        "crc32c",
        "gzip",
        "n5_default",
        "packbits",
        "reshape",
        "scale_offset",
        "sharding_indexed",
        "transpose",
        "vlen-bytes",
        "vlen-utf8",
        "zfp",
        "zstd",
    }
)
# Aliases a registered codec's README names ("numcodecs.bitround": deprecated alias of bitround;
# "numcodecs.fixedscaleoffset": the legacy codec the scale_offset README defines).
CODEC_ALIASES: frozenset[str] = frozenset({"numcodecs.bitround", "numcodecs.fixedscaleoffset"})

CHUNK_GRIDS: frozenset[str] = frozenset({"regular", "rectilinear"})
CHUNK_KEY_ENCODINGS: frozenset[str] = frozenset({"default", "v2"})
STORAGE_TRANSFORMERS: frozenset[str] = frozenset()  # the registry lists none

# Names real writers emit that the registry (at REGISTRY_COMMIT) does not list: zarr-python 3
# writes these by default for NumPy 'S' and 'V' arrays, object bytes arrays, and its numcodecs
# wrappers. The reference reads and writes them; a validator notes that they are unregistered.
WRITER_DATA_TYPES: dict[str, str] = {
    "null_terminated_bytes": "zarr-python 3 writes NumPy 'S<n>' arrays so",
    "raw_bytes": "zarr-python 3 writes NumPy 'V<n>' arrays so",
    "variable_length_bytes": "zarr-python 3.1 spells the 'bytes' data type so",
}
NUMCODECS_PREFIX = "numcodecs."

# Registered entries the reference refuses, and why an exact implementation is impossible here.
REFUSED: dict[tuple[str, str], str] = {
    ("codec", "conditional"): (
        "its decoder is defined, but an encoder must be driven by a per-chunk decision function "
        "that the metadata does not record; the reference reads it only (write refused)"
    ),
}

_REGISTERED_NAME = re.compile(r"[a-z][a-z0-9\-_.]+\Z")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s]+\Z")


def is_registered(point: str, name: str) -> bool:
    """Whether `name` is registered at extension point `point` ('data type', 'codec', 'chunk
    grid', 'chunk key encoding', 'storage transformer'). `r<N>` counts as the registered `r`."""
    if point == "data type":
        return name in DATA_TYPES or bool(re.fullmatch(r"r[1-9][0-9]*", name))
    if point == "codec":
        return name in CODECS or name in CODEC_ALIASES
    if point == "chunk grid":
        return name in CHUNK_GRIDS
    if point == "chunk key encoding":
        return name in CHUNK_KEY_ENCODINGS
    if point == "storage transformer":
        return name in STORAGE_TRANSFORMERS
    raise ValueError(point)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an extension name at all (3.1 §Extension naming, V3-EXT-006), or None:
    registered names match ^[a-z][a-z0-9-_.]+$ and legacy names are URIs."""
    if _REGISTERED_NAME.match(name) or _URI.match(name):
        return None
    return f"{name!r} is neither a registrable name (^[a-z][a-z0-9-_.]+$) nor a URI"


def describe(point: str, name: str) -> str:
    """' (registered in zarr-extensions@...)' or ' (not in the zarr-extensions registry ...)'."""
    if is_registered(point, name):
        return f" (registered in {REGISTRY_COMMIT})"
    return f" (not registered in {REGISTRY_COMMIT})"
