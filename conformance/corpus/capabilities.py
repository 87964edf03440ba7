"""The capability vocabulary: what a case needs and what an adapter declares.

A case needing a capability the adapter lacks is `unsupported`, not failed. Names are
`<family>:<value>`; the families are fixed here, the values below are the known ones.
"""

from __future__ import annotations

FORMATS = ("v1", "v2", "v3", "v3-draft", "v3-draft-zp2")

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
OTHER_DTYPES = (
    "fixed-bytes",
    "fixed-unicode",
    "raw",
    "datetime64",
    "timedelta64",
    "structured",
    "big-endian",
    "string",
    "bytes",
    "numpy.datetime64",
    "object",
)
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
STORES = ("directory", "zip", "http", "s3", "icechunk")
FEATURES = (
    "order-F",
    "consolidated",
    "dimension-names",
    "must-understand-false",
    "implicit-groups",
    "sharding-nested",
    "sharding-index-start",
    "zero-length",
    "0d",
    "dimension-separator-slash",
    "chunk-key-encoding-v2",
    "attributes",
    "unicode-names",
    "fill-null",
    "shorthand-names",
    "consolidated-null",
    "storage-transformers",
    "extension-data-type-fallback",
    "legacy-endian",
    # Writes, derived from the request path by conformance.harness.session.case_needs (not in
    # case.json): an array at the store root; a node addressed by a '/'-separated path.
    "write-root-array",
    "nested-paths",
    # A node path with a fault ('.', '..', an empty segment, a backslash, a v2 leading or
    # trailing '/') reaches the implementation verbatim: the adapter passes the path as one
    # string to an API that resolves it (session.path_faults; never probed: an adapter that
    # walks names would resolve the fault itself, judging the adapter instead).
    "verbatim-paths",
    # Writes over S3 (conformance.harness.remote): store:s3 alone says the adapter reads s3://.
    "s3-write",
    # Writes into an Icechunk repository, committed (conformance.harness.icechunk_store):
    # store:icechunk alone says the adapter reads one.
    "icechunk-write",
    # Updates (op:update): changing the shape of an existing array (a `resize` step).
    "resize",
)
# op:update: writing regions and single elements into an existing array (and, with
# feature:resize, resizing it): the `steps` of a write case (fixtures/README.md, "write").
OPS = ("read", "write", "update", "list", "validate", "zom")
NODES = ("group",)

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
    + [f"dtype:{v}" for v in V3_DTYPES + OTHER_DTYPES]
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
