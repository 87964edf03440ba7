"""The capability vocabulary: what a case needs and what an adapter declares.

A case needing a capability the adapter lacks is `unsupported`, not failed. Names are
`<family>:<value>`; the families are fixed here, the values below are the known ones.
"""

from __future__ import annotations

FORMATS: dict[str, str] = {
    "v1": "Zarr v1 stores",
    "v2": "Zarr v2 stores",
    "v3": "Zarr v3 stores (the final 3.0 specification and its later editions)",
    "v3-draft": "stores of the January 2023 v3 draft (meta/ and data/ layout)",
    "v3-draft-zp2": "stores of the older v3 draft layout zarr-python 2.11 to 2.18 writes with "
    "ZARR_V3_EXPERIMENTAL_API",
}

V3_DTYPES = (
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
    "complex128",
    "r*",
)
OTHER_DTYPES: dict[str, str] = {
    "fixed-bytes": "fixed-length byte strings (v2 |S<n>)",
    "fixed-unicode": "fixed-length Unicode strings (v2 <U<n>)",
    "raw": "raw fixed-size values (v2 |V<n>)",
    "datetime64": "datetimes (v2 <M8[unit])",
    "timedelta64": "time deltas (v2 <m8[unit])",
    "structured": "structured data types (a v2 list of fields)",
    "big-endian": "data stored big-endian (a v2 '>' type string, a v3 bytes codec endian big)",
    "string": "variable-length UTF-8 strings",
    "bytes": "variable-length byte strings",
    "numpy.datetime64": "the zarr-extensions data type numpy.datetime64",
    "object": "v2 object arrays (|O) decoded by an object codec",
}
# Where a v3 data type name alone does not say what it is.
V3_DTYPE_MEANING = {"r*": "raw bits: the v3 data types r<N> (N a multiple of 8)"}
CODECS = (
    "bytes",
    "transpose",
    "gzip",
    "blosc",
    "zstd",
    "crc32c",
    "sharding_indexed",
    "vlen-utf8",
    "vlen-bytes",
    "endian",
    "zlib",
    "lz4",
    "bz2",
    "lzma",
    "delta",
    "astype",
    "fixedscaleoffset",
    "quantize",
    "crc32",
    "adler32",
    "shuffle",
    "categorize",
    "packbits",
)
# The codecs the v3 core spec itself defines (the others are extensions in v3).
V3_CORE_CODECS = ("bytes", "transpose", "gzip", "blosc", "crc32c", "sharding_indexed")
STORES = ("directory", "zip", "http", "s3", "icechunk")
# Each feature with what it means (fixtures/capabilities.json shows these words).
FEATURES: dict[str, str] = {
    "order-F": "v2 arrays stored in Fortran (column-major) memory order",
    "consolidated": "consolidated metadata (v2 .zmetadata, v3 consolidated_metadata in zarr.json)",
    "dimension-names": "v3 dimension_names, reported through the API",
    "must-understand-false": "ignores an unknown extension or member marked must_understand false",
    "implicit-groups": "groups implied by their descendants, with no metadata document",
    "sharding-nested": "a sharding codec inside a sharding codec",
    "sharding-index-start": "a shard index at the start of the shard (index_location start)",
    "zero-length": "arrays with a dimension of extent 0",
    "0d": "arrays of rank 0 (shape [])",
    "dimension-separator-slash": "v2 chunk keys separated by '/' (dimension_separator)",
    "chunk-key-encoding-v2": "the v3 chunk key encoding 'v2'",
    "attributes": "user attributes of arrays and groups",
    "unicode-names": "node names beyond ASCII (UTF-8 keys)",
    "fill-null": "a null fill value (v2, v1)",
    "shorthand-names": "extension objects given as a bare name string (v3.1 short-hand)",
    "consolidated-null": "consolidated metadata whose value is null",
    "storage-transformers": "storage transformers in v3 draft metadata",
    "extension-data-type-fallback": "a v3 draft extension data type with its fallback type",
    "legacy-endian": "the pre-3.0 'endian' codec",
    # Writes, derived from the request path by conformance.harness.session.case_needs (not in
    # case.json).
    "write-root-array": "writes an array at the store root",
    "nested-paths": "writes a node addressed by a '/'-separated path",
    # Never probed: an adapter that walks names would resolve the fault itself, judging the
    # adapter instead (session.path_faults).
    "verbatim-paths": "passes a node path with a fault ('.', '..', an empty segment, a "
    "backslash, a v2 leading or trailing '/') verbatim, as one string, to an API that resolves it",
    "s3-write": "writes over S3 (store:s3 alone says it reads s3://)",
    "icechunk-write": "writes into an Icechunk repository, committed (store:icechunk alone says "
    "it reads one)",
    "resize": "changes the shape of an existing array (a `resize` step of an update)",
}
# op:update: writing regions and single elements into an existing array (and, with
# feature:resize, resizing it): the `steps` of a write case (fixtures/README.md, "write").
OPS: dict[str, str] = {
    "read": "opens nodes and reads whole arrays (read and reject cases)",
    "write": "creates nodes and writes whole arrays (write cases)",
    "update": "writes regions and single elements into an existing array (write cases with steps)",
    "list": "lists the members of a group",
    "validate": "validates a store against the spec (a validator, not a reader)",
    "zom": "builds or validates ZEP 6 Zarr Object Model documents (zom cases)",
}
NODES = ("group",)

# What a name of each family says the implementation handles ({} is the value).
FAMILIES: dict[str, str] = {
    "format": "stores of the Zarr format {}",
    "dtype": "the data type {}",
    "codec": "the codec, compressor or filter {}",
    "store": "stores of kind {}",
    "feature": "{}",
    "op": "the operation {}",
    "node": "nodes of kind {}",
    "grid": "the chunk grid {}",
    "cke": "the chunk key encoding {}",
}

# Every entry of the zarr-extensions registry is a capability of its own (dtype:bfloat16,
# codec:packbits, grid:rectilinear, ...): the extension tier is declared per entry.
from ..reference.formats.v3 import registry as _registry  # noqa: E402

# "codec:packbits" already names numcodecs' v2 PackBits filter (bool only, another stream format),
# so the registry's v3 packbits codec is "codec:packbits-v3".
REGISTRY_CAPABILITY = {"codec:packbits": "codec:packbits-v3"}
# The registry also lists the core specification's own grid and key encodings: every v3 reader
# has them, so they are not capabilities (no case needs them, no adapter declares them).
CORE_ENTRIES = frozenset({"grid:regular", "cke:default", "cke:v2"})
REGISTRY_NAMES = [
    name
    for name in (
        [f"dtype:{v}" for v in sorted(_registry.DATA_TYPES)]
        + [REGISTRY_CAPABILITY.get(f"codec:{v}", f"codec:{v}") for v in sorted(_registry.CODECS)]
        + [f"grid:{v}" for v in sorted(_registry.CHUNK_GRIDS)]
        + [f"cke:{v}" for v in sorted(_registry.CHUNK_KEY_ENCODINGS)]
    )
    if name not in CORE_ENTRIES
]

VOCABULARY: frozenset[str] = frozenset(
    REGISTRY_NAMES
    + [f"format:{v}" for v in FORMATS]
    + [f"dtype:{v}" for v in (*V3_DTYPES, *OTHER_DTYPES)]
    + [f"codec:{v}" for v in CODECS]
    + [f"store:{v}" for v in STORES]
    + [f"feature:{v}" for v in FEATURES]
    + [f"op:{v}" for v in OPS]
    + [f"node:{v}" for v in NODES]
)


def unknown(names) -> list[str]:
    """Names not in the vocabulary (a typo in a case or an adapter would silently mark cases
    unsupported, so both are checked against this)."""
    return sorted(n for n in names if n not in VOCABULARY)


def missing(needs, has) -> list[str]:
    return sorted(set(needs) - set(has))


def meaning(name: str) -> str:
    """What a capability name says the implementation handles."""
    family, value = name.split(":", 1)
    if family == "feature":
        return FEATURES[value]
    if family == "format":
        return FORMATS[value]
    if family == "dtype" and (value in OTHER_DTYPES or value in V3_DTYPE_MEANING):
        return OTHER_DTYPES.get(value) or V3_DTYPE_MEANING[value]
    if family == "op":
        return f"{value}: {OPS[value]}"
    text = FAMILIES[family].format(value)
    if name in REGISTRY_NAMES and value not in V3_DTYPES + V3_CORE_CODECS:
        text += " (registered in zarr-extensions)"
    return text
