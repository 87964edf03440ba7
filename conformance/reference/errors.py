"""One small exception hierarchy with stable reason codes.

The reason codes are a fixed vocabulary shared by the reference implementation, the corpus
(`case.json` expectations of must-reject cases) and the report. Add a code here before using it.
"""

from __future__ import annotations

REASONS: dict[str, str] = {
    # metadata documents
    "invalid-json": "a metadata document is not strict RFC 8259 JSON (or not UTF-8)",
    "invalid-metadata": "a metadata document is not a JSON object or has a malformed member",
    "missing-field": "a required metadata member is absent",
    "unknown-field": "a metadata member the format does not define",
    "must-understand": "an extension marked (or defaulting to) must_understand is not supported",
    "invalid-zarr-format": "zarr_format is not the value this format requires",
    "invalid-node-type": "node_type is missing, misspelled, or the node is of the other kind",
    "invalid-shape": "shape is not a list of non-negative integers",
    "invalid-chunk-shape": "chunk shape has the wrong rank or non-positive sizes",
    "invalid-chunk-grid": "chunk_grid is malformed or unknown",
    "invalid-chunk-key-encoding": "chunk key encoding or separator is malformed or unknown",
    "invalid-data-type": "data type is malformed or unknown",
    "unknown-data-type": "a data type registered in zarr-extensions that the implementation does not implement",
    "unknown-chunk-grid": "a chunk grid registered in zarr-extensions that the implementation does not implement",
    "unknown-chunk-key-encoding": "a chunk key encoding registered in zarr-extensions that the implementation does not implement",
    "invalid-fill-value": "fill_value is not valid for the data type",
    "invalid-order": "memory order is not C or F (or transpose order is not a permutation)",
    "invalid-codec": "a codec entry or its configuration is malformed",
    "unknown-codec": "a codec, compressor or filter the implementation does not know",
    "codec-order": "codecs are not array->array*, array->bytes, bytes->bytes*",
    "invalid-dimension-names": "dimension_names is malformed or has the wrong length",
    "invalid-storage-transformer": "a storage transformer is malformed or unknown",
    "invalid-attributes": "attributes are not a JSON object",
    "invalid-extension": "an extension object is malformed",
    "unregistered-extension": "an extension name zarr-extensions does not register (other readers may not know it)",
    # names, paths, hierarchy
    "invalid-path": "a path has '.' or '..' segments, escapes the store or is otherwise invalid",
    "invalid-node-name": "a node name breaks the format's naming rules",
    "node-not-found": "no node (array or group) exists at the path",
    "implicit-group": "a group is implied by descendants but has no metadata document",
    "node-exists": "a node already exists at the path and overwriting was not requested",
    # chunks
    "checksum-mismatch": "a stored checksum does not match the data",
    "corrupt-chunk": "a chunk cannot be decoded or decodes to the wrong size",
    "corrupt-shard-index": "a shard index is malformed or points outside the shard",
    # resources and support
    "too-large": "the request exceeds a safety limit (elements, chunk size, nesting)",
    "unsupported": "a valid feature the reference does not implement",
    "read-only": "the store cannot be written",
    # stores and validation
    "io-error": "the store could not be read (network failure, timeout, permission denied)",
    "stray-key": "a key inside a node's prefix that is neither metadata nor a chunk of its grid",
    "mixed-formats": "metadata documents of more than one Zarr format describe the same node",
    "model-mismatch": "the hierarchy differs from the expected Zarr Object Model (validate --model)",
}


class ZarrError(Exception):
    """Base class: every error the reference raises on bad input carries a reason code."""

    def __init__(self, reason: str, message: str, requirement: str | None = None):
        if reason not in REASONS:
            raise ValueError(f"unknown reason code {reason!r}")
        super().__init__(f"[{reason}] {message}")
        self.reason = reason
        self.message = message
        self.requirement = requirement


class MetadataError(ZarrError):
    """Metadata that must be rejected."""


class PathError(ZarrError):
    """A path, key or node name that must be rejected."""


class NodeNotFoundError(ZarrError):
    def __init__(self, message: str, requirement: str | None = None):
        super().__init__("node-not-found", message, requirement)


class ChunkError(ZarrError):
    """A stored chunk that cannot be decoded faithfully."""


class LimitError(ZarrError):
    def __init__(self, message: str, requirement: str | None = None):
        super().__init__("too-large", message, requirement)


class UnsupportedError(ZarrError):
    def __init__(self, message: str, requirement: str | None = None):
        super().__init__("unsupported", message, requirement)


class ReadOnlyError(ZarrError):
    def __init__(self, message: str):
        super().__init__("read-only", message)


class ExtensionNotImplemented(MetadataError):
    """A registered (zarr-extensions) extension, or a mode of one, that the reference does not
    implement. The array may well be valid: a validator reports it as something it cannot check.
    The reason is the extension point's 'unknown-*' code."""
