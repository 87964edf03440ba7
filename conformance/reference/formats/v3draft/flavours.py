"""The two draft layouts and the entry point that tells them apart.

* `seed-002`: zarr-specs d061a83 (Jan 2023), the seed text. Keys `meta/<P>.array.json`,
  root `meta/array.json`, data `data/<P>/c1/0` (V3DRAFT-KEY-001..005, V3DRAFT-META-001/002).
* `zarr-python-2`: the earlier "protocol" draft written by zarr-python 2.11-2.18 with
  ZARR_V3_EXPERIMENTAL_API=1. Keys `meta/root/<P>.array.json`, root `meta/root.array.json`,
  data `data/root/<P>/c1/0`, 0-d chunk `c0` (V3DRAFT-ZP2-001/002).

A `Flavour` holds every difference that depends only on the entry point: key construction,
the metadata key suffix, which sharding URIs apply and how strict member checks are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...errors import MetadataError
from ...jsonio import load_object
from ...stores import Store
from .extensions import check_extension_list, refuse_extension_point
from .names import check_key

SEED002 = "seed-002"
ZP2 = "zarr-python-2"

ENTRY_POINT_KEY = "zarr.json"
CORE_URI = "https://purl.org/zarr/spec/core/3.0"
ZP2_URI = "https://purl.org/zarr/spec/protocol/core/3.0"
_CORE_RE = re.compile(r"https://purl\.org/zarr/spec/core/(\d+)\.(\d+)")
_ZP2_RE = re.compile(r"https://purl\.org/zarr/spec/protocol/core/(\d+)\.(\d+)")

# The sharding section declares '.../storage-transformers/...' as its URI but its configuration
# example (which writers copy) uses '.../storage_transformers/...': read both, write the latter.
SHARDING_URI = "https://purl.org/zarr/spec/extensions/storage_transformers/sharding/1.0"
SHARDING_URI_DECLARED = "https://purl.org/zarr/spec/extensions/storage-transformers/sharding/1.0"
ZP2_SHARDING_URI = "https://purl.org/zarr/spec/storage_transformers/sharding/1.0"


@dataclass(frozen=True)
class Flavour:
    name: str
    meta_root: str  # prefix of non-root metadata keys and of list_dir calls
    root_stem: str  # root metadata key = root_stem + 'array'/'group' + suffix
    data_root: str
    zero_d_chunk_id: str
    sharding_uris: frozenset[str]
    suffix: str = ".json"
    strict_members: bool = True  # False for a 3.x minor > 0: unknown members are ignored

    def _meta_key(self, path: str, kind: str) -> str:
        if path:
            return check_key(f"{self.meta_root}{path}.{kind}{self.suffix}")
        return check_key(f"{self.root_stem}{kind}{self.suffix}")

    def array_key(self, path: str) -> str:
        return self._meta_key(path, "array")

    def group_key(self, path: str) -> str:
        return self._meta_key(path, "group")

    def meta_dir(self, path: str) -> str:
        """The prefix whose list_dir gives the children of the group at `path` (V3DRAFT-KEY-009)."""
        return self.meta_root + (f"{path}/" if path else "")

    def data_prefix(self, path: str) -> str:
        return self.data_root + (f"{path}/" if path else "")

    def chunk_id(self, index: tuple[int, ...], separator: str) -> str:
        """'c' directly followed by the indices joined by the separator (V3DRAFT-KEY-005)."""
        if not index:
            return self.zero_d_chunk_id
        return "c" + separator.join(str(i) for i in index)

    def parse_chunk_id(self, text: str, separator: str, ndim: int) -> tuple[int, ...] | None:
        """The grid index of a chunk id, or None when `text` is not one for this rank."""
        if ndim == 0:
            return () if text == self.zero_d_chunk_id else None
        if not text.startswith("c"):
            return None
        parts = text[1:].split(separator)
        if len(parts) != ndim or not all(p.isascii() and p.isdigit() for p in parts):
            return None
        if any(len(p) > 1 and p.startswith("0") for p in parts):
            return None  # '01' is not a key this grid produces
        return tuple(int(p) for p in parts)


def seed002_flavour(suffix: str = ".json", strict: bool = True) -> Flavour:
    return Flavour(
        name=SEED002,
        meta_root="meta/",
        root_stem="meta/",
        data_root="data/",
        zero_d_chunk_id="c",
        sharding_uris=frozenset({SHARDING_URI, SHARDING_URI_DECLARED}),
        suffix=suffix,
        strict_members=strict,
    )


def zp2_flavour(suffix: str = ".json") -> Flavour:
    return Flavour(
        name=ZP2,
        meta_root="meta/root/",
        root_stem="meta/root.",
        data_root="data/root/",
        zero_d_chunk_id="c0",  # zarr-python 2 keys a 0-d chunk as _chunk_key((0,))
        sharding_uris=frozenset({ZP2_SHARDING_URI}),
        suffix=suffix,
        strict_members=True,
    )


def default_entry_point() -> dict[str, Any]:
    return {
        "zarr_format": CORE_URI,
        "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"},
        "extensions": [],
    }


def read_entry_point(store: Store) -> Flavour | None:
    """The flavour of the hierarchy in `store`; None when there is no draft entry point (no
    `zarr.json`, or one whose zarr_format is not a URI, e.g. the final format's integer 3).
    A malformed draft entry point raises MetadataError."""
    raw = store.get(ENTRY_POINT_KEY)
    if raw is None:
        return None
    doc = load_object(raw, ENTRY_POINT_KEY, "V3DRAFT-KEY-001")
    zarr_format = doc.get("zarr_format")
    if "zarr_format" in doc and not isinstance(zarr_format, str):
        return None  # not this format family (final v3 writes an integer)
    if zarr_format is None:
        raise MetadataError("missing-field", "zarr.json has no 'zarr_format'", "V3DRAFT-META-001")
    if match := _ZP2_RE.fullmatch(zarr_format):
        _check_major(match, zarr_format)
        return _zp2_entry_point(doc)
    match = _CORE_RE.fullmatch(zarr_format)
    if not match:
        raise MetadataError(
            "invalid-zarr-format",
            f"zarr_format {zarr_format!r} is not {CORE_URI!r}",
            "V3DRAFT-META-001",
        )
    _check_major(match, zarr_format)
    strict = int(match.group(2)) == 0
    return _seed002_entry_point(doc, strict)


def _check_major(match: re.Match[str], zarr_format: str) -> None:
    if match.group(1) != "3":
        raise MetadataError(
            "invalid-zarr-format",
            f"zarr_format {zarr_format!r} has major version != 3",
            "V3DRAFT-META-001",
        )


def _seed002_entry_point(doc: dict[str, Any], strict: bool) -> Flavour:
    for name in ("metadata_encoding", "extensions"):
        if name not in doc:
            raise MetadataError("missing-field", f"zarr.json has no {name!r}", "V3DRAFT-META-002")
    extra = set(doc) - {"zarr_format", "metadata_encoding", "extensions"}
    if extra and strict:
        # 3.0 defines exactly these names; 3.x readers may ignore newer ones (stability policy).
        raise MetadataError(
            "unknown-field", f"zarr.json has undefined members {sorted(extra)}", "V3DRAFT-META-001"
        )
    encoding = doc["metadata_encoding"]
    if not isinstance(encoding, dict):
        raise MetadataError(
            "invalid-metadata",
            f"metadata_encoding must be an object such as {{'type': 'json', ...}}, got {encoding!r}",
            "V3DRAFT-META-002",
        )
    if "extension" in encoding:
        refuse_extension_point(encoding, "metadata_encoding", "V3DRAFT-META-002")
    if encoding.get("type") != "json" or encoding.get("metadata_key_suffix") != ".json":
        raise MetadataError(
            "invalid-metadata",
            'the core metadata_encoding is exactly {"type": "json", "metadata_key_suffix": ".json"}',
            "V3DRAFT-META-002",
        )
    if set(encoding) != {"type", "metadata_key_suffix"} and strict:
        raise MetadataError(
            "unknown-field", "metadata_encoding has undefined members", "V3DRAFT-META-002"
        )
    check_extension_list(doc["extensions"], "zarr.json")
    return seed002_flavour(encoding["metadata_key_suffix"], strict)


def _zp2_entry_point(doc: dict[str, Any]) -> Flavour:
    expected = {"zarr_format", "metadata_encoding", "metadata_key_suffix", "extensions"}
    if set(doc) != expected:
        raise MetadataError(
            "unknown-field" if set(doc) > expected else "missing-field",
            f"a zarr-python 2 entry point has exactly the members {sorted(expected)}",
            "V3DRAFT-ZP2-001",
        )
    if doc["metadata_encoding"] != ZP2_URI:
        raise MetadataError(
            "invalid-metadata", f"metadata_encoding must be {ZP2_URI!r}", "V3DRAFT-ZP2-001"
        )
    suffix = doc["metadata_key_suffix"]
    if not isinstance(suffix, str) or not re.fullmatch(r"[A-Za-z0-9._-]+", suffix):
        raise MetadataError(
            "invalid-metadata",
            f"metadata_key_suffix {suffix!r} is not a key suffix",
            "V3DRAFT-ZP2-001",
        )
    check_extension_list(doc["extensions"], "zarr.json")
    return zp2_flavour(suffix)
