"""Zarr storage format v1 (deprecated; seed 004 = docs/v1/v1.0.rst; requirements V1-*).

One array per store, no hierarchy (V1-STORE-001): metadata under `meta`, attributes under `attrs`
(which must exist, V1-ATTR-001), chunks under '.'-joined grid indices with no prefix
(V1-CHUNK-002). The compressor is named by `compression` and configured by `compression_opts`.
Data types, C/F order and chunk bytes are as in v2, so the v2 modules do that work.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numcodecs
import numpy as np

from .. import jsonio
from ..array import Array, ArrayLayout, Group
from ..errors import MetadataError, NodeNotFoundError, PathError, ZarrError
from ..stores import Store
from .base import Format
from .v2.attributes import decode_attributes, encode_attributes
from .v2.codecs import V2ChunkCodec
from .v2.dtypes import dtype_to_json, parse_dtype
from .v2.fill import encode_fill_value, parse_fill_value
from .v2.metadata import check_zarr_format, parse_chunks, parse_order, parse_shape
from .v2.paths import normalize_path as v2_normalize_path

META_KEY = "meta"
ATTRS_KEY = "attrs"
REQUIRED_KEYS = (
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compression",
    "compression_opts",
    "fill_value",
    "order",
)
NO_COMPRESSION = (None, "none")


def _integer_level(name: str, opts: Any, default: int) -> dict[str, Any]:
    if opts is None:
        return {"level": default}
    if not isinstance(opts, int) or isinstance(opts, bool) or not 0 <= opts <= 9:
        raise MetadataError(
            "invalid-codec",
            f"{name} compression_opts must be an integer level 0-9, got {opts!r}",
            "V1-META-006",
        )
    return {"level": opts}


def _keyword_opts(name: str, opts: Any, allowed: set[str]) -> dict[str, Any]:
    if opts is None:
        return {}
    if not isinstance(opts, dict) or not set(opts) <= allowed:
        raise MetadataError(
            "invalid-codec",
            f"{name} compression_opts must be an object with keys from {sorted(allowed)}, got {opts!r}",
            "V1-META-006",
        )
    return dict(opts)


# compression name -> (numcodecs id, function turning compression_opts into its configuration)
_COMPRESSORS: dict[str, tuple[str, Callable[[Any], dict[str, Any]]]] = {
    "zlib": ("zlib", lambda o: _integer_level("zlib", o, 1)),
    "bz2": ("bz2", lambda o: _integer_level("bz2", o, 1)),
    "blosc": ("blosc", lambda o: _keyword_opts("blosc", o, {"clevel", "cname", "shuffle"})),
    "lzma": ("lzma", lambda o: _keyword_opts("lzma", o, {"format", "check", "preset", "filters"})),
}


def build_compressor(compression: Any, opts: Any) -> Any:
    """A numcodecs codec for v1 `compression` / `compression_opts` (None for raw chunks)."""
    if compression in NO_COMPRESSION:
        return None
    if not isinstance(compression, str):
        raise MetadataError(
            "invalid-codec",
            f"compression must be a string or null, got {compression!r}",
            "V1-META-006",
        )
    if compression not in _COMPRESSORS:
        raise MetadataError(
            "unknown-codec", f"compression {compression!r} is not known", "V1-META-006"
        )
    codec_id, configure = _COMPRESSORS[compression]
    config = configure(opts)
    try:
        codec = numcodecs.get_codec({"id": codec_id, **config})
        codec.encode(bytes(16))  # some settings (blosc cname, levels) fail only on first use
        return codec
    except Exception as exc:
        raise MetadataError(
            "invalid-codec", f"{compression} options {opts!r} are not valid: {exc}", "V1-META-006"
        ) from None


def _retag(exc: MetadataError, requirement: str) -> MetadataError:
    return type(exc)(exc.reason, exc.message, requirement)


def parse_v1_dtype(doc: Any) -> np.dtype:
    """A typestr with byte order, or a flat list of [name, typestr] pairs (V1-DTYPE-001/002)."""
    try:
        return parse_dtype(doc, nested=False, subarrays=False, allow_object=False)
    except MetadataError as exc:
        raise _retag(exc, "V1-DTYPE-002" if isinstance(doc, list) else "V1-DTYPE-001") from None


def parse_v1_fill(doc: Any, dtype: np.dtype) -> np.ndarray | None:
    """v1 fills are plain JSON scalars: numbers, booleans, 'NaN'-style strings for floats (as v2),
    and plain ASCII strings for |S types (v1 has no Base64 rule). Structured types take null only."""
    if doc is None:
        return None
    if dtype.kind == "S":
        if not isinstance(doc, str) or not doc.isascii() or len(doc) > dtype.itemsize:
            raise MetadataError(
                "invalid-fill-value",
                f"|S fill must be an ASCII string that fits {dtype}, got {doc!r}",
            )
        return np.array(doc.encode("ascii"), dtype=dtype)
    if dtype.kind == "V":
        raise MetadataError("invalid-fill-value", f"v1 has no fill encoding for {dtype}; use null")
    return parse_fill_value(doc, dtype)


def encode_v1_fill(value: Any, dtype: np.dtype) -> Any:
    if value is None:
        return None
    if dtype.kind == "S":
        if not isinstance(value, (bytes, np.bytes_)):
            raise MetadataError("invalid-fill-value", f"|S fill must be bytes, got {value!r}")
        raw = bytes(value)
        if not raw.isascii() or len(raw) > dtype.itemsize:
            raise MetadataError(
                "invalid-fill-value", f"v1 |S fill must be ASCII bytes that fit {dtype}"
            )
        return raw.decode("ascii")
    if dtype.kind == "V":
        raise MetadataError("invalid-fill-value", f"v1 has no fill encoding for {dtype}; use None")
    return encode_fill_value(value, dtype)


def parse_meta(doc: Any) -> ArrayLayout:
    """Validate a parsed `meta` document (V1-META-001..006) into an array layout."""
    if not isinstance(doc, dict):
        raise MetadataError("invalid-metadata", "meta must be a JSON object", "V1-META-001")
    for key in REQUIRED_KEYS:
        if key not in doc:
            raise MetadataError("missing-field", f"meta has no {key!r}", "V1-META-002")
    check_zarr_format(doc, 1, "V1-META-003")
    shape = parse_shape(doc["shape"], "V1-META-002")
    chunks = parse_chunks(doc["chunks"], len(shape), "V1-META-002")
    dtype = parse_v1_dtype(doc["dtype"])
    order = parse_order(doc["order"], "V1-META-005")
    compressor = build_compressor(doc["compression"], doc["compression_opts"])
    fill_value = parse_v1_fill(doc["fill_value"], dtype)

    def chunk_key(index: tuple[int, ...]) -> str:  # V1-CHUNK-002: no prefix
        return ".".join(map(str, index)) if index else "0"

    return ArrayLayout(
        shape,
        chunks,
        dtype,
        fill_value,
        chunk_key,
        V2ChunkCodec(dtype, chunks, order, [], compressor),
    )


class V1Format(Format):
    name = "v1"

    def normalize_path(self, path: str) -> str:
        path = v2_normalize_path(path)
        if path:
            raise PathError(
                "invalid-path",
                f"a v1 store holds one array at its root; got path {path!r}",
                "V1-STORE-001",
            )
        return path

    def node_kind(self, store: Store, path: str) -> str | None:
        if path:
            return None
        return "array" if store.contains(META_KEY) else None

    def children(self, store: Store, path: str) -> dict[str, str]:
        return {}

    def open_array(self, store: Store, path: str) -> Array:
        data = store.get(META_KEY) if not path else None
        if data is None:
            raise NodeNotFoundError(f"no v1 array at {path or '/'!r}", "V1-META-001")
        doc = jsonio.load_object(data, "meta", "V1-META-001")
        layout = parse_meta(doc)
        raw_attrs = store.get(ATTRS_KEY)
        array = Array(
            store, "", self, doc, decode_attributes(raw_attrs, "attrs", "V1-ATTR-001"), layout
        )
        array.notes = [] if raw_attrs is not None else ["the 'attrs' key is missing (V1-ATTR-001)"]
        return array

    def open_group(self, store: Store, path: str) -> Group:
        raise NodeNotFoundError("v1 has no groups", "V1-STORE-001")

    def create_array(
        self,
        store: Store,
        path: str,
        metadata: dict[str, Any],
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Array:
        self.normalize_path(path)
        parse_meta(metadata)
        try:
            document = jsonio.dumps_ascii(metadata)
        except (TypeError, ValueError) as exc:
            raise MetadataError(
                "invalid-metadata", f"meta is not JSON: {exc}", "V1-META-001"
            ) from None
        attrs = encode_attributes(attributes or {}, "V1-ATTR-001")
        if store.contains(META_KEY):
            if not overwrite:
                raise ZarrError("node-exists", "the store already holds a v1 array")
            for key in list(store.list()):  # a v1 store is one array: all of it goes
                store.erase(key)
        store.set(META_KEY, document)
        store.set(ATTRS_KEY, attrs)  # V1-ATTR-001: attrs exists even when empty
        return self.open_array(store, "")

    def create_group(
        self,
        store: Store,
        path: str,
        attributes: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> Group:
        raise ZarrError(
            "invalid-node-type",
            "v1 has no groups: a v1 store holds exactly one array",
            "V1-STORE-001",
        )

    def write_attributes(self, node: Array | Group, attributes: dict[str, Any]) -> None:
        node.store.set(ATTRS_KEY, encode_attributes(attributes, "V1-ATTR-001"))

    def array_metadata(
        self,
        shape: Sequence[int],
        chunks: Sequence[int],
        dtype: Any,
        fill_value: Any = 0,
        order: str = "C",
        compression: str | None = None,
        compression_opts: Any = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """A canonical `meta` document, keys sorted as zarr 1.x wrote them."""
        if unknown:
            raise TypeError(f"v1 arrays have no option(s) {sorted(unknown)}")
        dtype_doc = dtype_to_json(
            parse_v1_dtype(dtype)
            if isinstance(dtype, list) or (isinstance(dtype, str) and dtype and dtype[0] in "<>|")
            else np.dtype(dtype)
        )
        np_dtype = parse_v1_dtype(dtype_doc)
        if (
            isinstance(fill_value, int)
            and not isinstance(fill_value, bool)
            and fill_value == 0
            and (np_dtype.kind in "SUV")
        ):
            fill_value = {"S": b"", "U": "", "V": None}[np_dtype.kind]
        try:
            shape_list, chunks_list = (
                [operator.index(n) for n in shape],
                [operator.index(n) for n in chunks],
            )
        except TypeError:
            raise MetadataError(
                "invalid-shape", f"shape {shape!r} and chunks {chunks!r} must be integer sequences"
            ) from None
        doc = {
            "chunks": chunks_list,
            "compression": compression,
            "compression_opts": compression_opts,
            "dtype": dtype_doc,
            "fill_value": encode_v1_fill(fill_value, np_dtype),
            "order": order,
            "shape": shape_list,
            "zarr_format": 1,
        }
        parse_meta(doc)
        return doc


FORMAT = V1Format()
