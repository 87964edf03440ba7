"""What a case relies on that the corpus tiers as refusable elsewhere, found in the case's own data.

A read, zom or write case asks an implementation to accept what it holds. If that holds a v2 complex
fill written as `[re, im]` (a convention: `v2/fill/complex*` is optional), a reserved `__` node name
(a reader may refuse it: `v3/names/reject-reserved-prefix`), a zstd codec (a registered extension)
or a float16 array (a type the core marks optional), then refusing the case is allowed, and a
required tier would accuse every implementation that refuses it. Each CONVENTION below names the
question under which the corpus tiers such a thing and detects it from the documents and bytes of a
case (never from its id). `corpus check` then refuses:

- a required accepting case in which a convention is found but whose question is none of the
  questions found (a case already optional or extension under another question may be refused
  anyway); gold stores get theirs from gold_verdicts.py, which picks the first one found;
- a read or zom-store case whose question says it relies on a convention (a non-required question
  of CONVENTION_QUESTIONS) when no detector finds one: a new kind of convention needs its detector
  here, so that every other store relying on it is found too.
"""

from __future__ import annotations

import json
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..reference.formats.v2.metadata import OPTIONAL_ARRAY_KEYS, REQUIRED_ARRAY_KEYS
from .case import Case

# ---- JSON as written: float tokens keep their text, NaN tokens and repeated names are noticed ----


class JsonFloat(float):
    """A JSON number written with a fraction or an exponent (`1.0` is not the integer 1)."""

    text: str

    def __new__(cls, text: str) -> JsonFloat:
        value = super().__new__(cls, float(text))
        value.text = text
        return value


@dataclass
class Document:
    key: str
    data: Any = None  # the parsed JSON value (None when it is not strict JSON)
    lenient: str = ""  # why it is not strict JSON (a NaN token, a trailing comma, bytes not UTF-8)
    duplicates: list[str] = field(default_factory=list)  # member names that occur twice


def parse(key: str, raw: bytes) -> Document:
    doc = Document(key)
    seen: list[str] = []

    def pairs(items):
        names = [k for k, _ in items]
        seen.extend(n for n in set(names) if names.count(n) > 1)
        return dict(items)

    def constant(token: str):
        raise ValueError(f"the bare token {token}")

    try:
        doc.data = json.loads(
            raw.decode("utf-8"),
            parse_float=JsonFloat,
            parse_constant=constant,
            object_pairs_hook=pairs,
        )
    except UnicodeDecodeError:
        doc.lenient = "bytes that are not UTF-8"
    except ValueError as error:
        doc.lenient = str(error).split(":")[0]
    doc.duplicates = sorted(seen)
    return doc


# ---- what a case holds --------------------------------------------------------------------------


METADATA_NAMES = {
    "v1": ("meta", "attrs"),
    "v2": (".zarray", ".zgroup", ".zattrs", ".zmetadata"),
    "v3": ("zarr.json",),
}


@dataclass(frozen=True)
class WrittenStore:
    """A store an implementation wrote (a cross or property test's), held as a read case's."""

    store_path: Path
    format: str
    node: str
    kind: str = "read"


class Holdings:
    """The documents (and bytes, on demand) a case asks an implementation to accept: its store
    (read and zom cases), or its write request."""

    def __init__(self, case: Case | WrittenStore):
        self.case = case
        self.format = case.format
        self._files: dict[str, Path] = {}
        self._zip: zipfile.ZipFile | None = None
        self._request: dict[str, bytes] = {}
        if case.kind == "write":
            self._request = _request_documents(case)
        elif case.store_path.is_file():
            self._zip = zipfile.ZipFile(case.store_path)
        elif case.store_path.is_dir():
            self._files = {
                p.relative_to(case.store_path).as_posix(): p
                for p in case.store_path.rglob("*")
                if p.is_file()
            }

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()

    @cached_property
    def keys(self) -> list[str]:
        """The keys of the node the case opens and of everything below it (a case never reads the
        rest of its store)."""
        if self._request:
            return sorted(self._request)
        if self._zip is not None:
            every = [n for n in self._zip.namelist() if not n.endswith("/")]
        else:
            every = list(self._files)
        return sorted(k for k in every if self._in_scope(k))

    def _in_scope(self, key: str) -> bool:
        node = self.case.node.strip("/")
        if not node or self.format == "v1":
            return True
        if self.format == "v3-draft":
            return key == "zarr.json" or key.startswith((f"meta/{node}", f"data/{node}"))
        return key.startswith(f"{node}/")

    def get(self, key: str) -> bytes | None:
        if self._request:
            return self._request.get(key)
        if self._zip is not None:
            try:
                return self._zip.read(key)
            except KeyError:
                return None
        path = self._files.get(key)
        return path.read_bytes() if path is not None else None

    @cached_property
    def documents(self) -> dict[str, Document]:
        out = {}
        for key in self.keys:
            if self._is_metadata(key):
                out[key] = parse(key, self.get(key) or b"")
        return out

    def _is_metadata(self, key: str) -> bool:
        name = key.rsplit("/", 1)[-1]
        if self.format == "v3-draft":
            return key == "zarr.json" or (key.startswith("meta/") and name.endswith(".json"))
        return name in METADATA_NAMES.get(self.format, ())

    def arrays(self) -> Iterator[tuple[str, dict]]:
        """(prefix of the array's keys, its metadata document) for every array document."""
        for key, doc in self.documents.items():
            if not isinstance(doc.data, dict):
                continue
            name = key.rsplit("/", 1)[-1]
            prefix = key[: -len(name)]
            if (self.format == "v2" and name == ".zarray") or (
                self.format == "v3" and name == "zarr.json" and doc.data.get("node_type") == "array"
            ):
                yield prefix, doc.data
            elif self.format == "v3-draft" and name.endswith(".array.json"):
                yield "data/" + key[len("meta/") : -len(".array.json")] + "/", doc.data
            elif self.format == "v1" and name == "meta":
                yield prefix, doc.data

    def attributes(self) -> Iterator[tuple[str, Any]]:
        for key, doc in self.documents.items():
            if not isinstance(doc.data, dict):
                continue
            name = key.rsplit("/", 1)[-1]
            if name in (".zattrs", "attrs"):
                yield key, doc.data
            elif "attributes" in doc.data and self.format in ("v3", "v3-draft"):
                yield key, doc.data["attributes"]


def _request_documents(case: Case) -> dict[str, bytes]:
    """The write request as the documents it asks for."""
    request = case.expect["request"]
    path = request.get("path", "").strip("/")
    prefix = f"{path}/" if path else ""
    meta = dict(request.get("metadata") or {})
    attributes = request.get("attributes") or {}
    out: dict[str, bytes] = {}
    if case.format == "v2":
        name = ".zarray" if request.get("node_type") == "array" else ".zgroup"
        out[prefix + name] = json.dumps(meta or {"zarr_format": 2}).encode()
        out[prefix + ".zattrs"] = json.dumps(attributes).encode()
    elif case.format == "v3":
        out[prefix + "zarr.json"] = json.dumps({**meta, "attributes": attributes}).encode()
    elif case.format == "v3-draft":
        kind = "array" if request.get("node_type") == "array" else "group"
        out[f"meta/root/{path or 'root'}.{kind}.json"] = json.dumps(
            {**meta, "attributes": attributes}
        ).encode()
    return out


# ---- the conventions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Convention:
    name: str
    question: str  # the question under which the corpus tiers it (questions.QUESTIONS)
    what: str  # what a case relying on it holds
    detect: Callable[[Holdings], Iterator[str]]  # evidence: where and what


CONVENTIONS: list[Convention] = []


def convention(name: str, question: str, what: str):
    def register(detect: Callable[[Holdings], Iterator[str]]):
        CONVENTIONS.append(Convention(name, question, what, detect))
        return detect

    return register


# The names the v3.0 core defines at its extension points; anything else is an extension.
V3_CORE_CODECS = {"bytes", "transpose", "gzip", "blosc", "crc32c", "sharding_indexed"}
V3_CORE_TYPES = {
    "bool",
    *(f"{s}int{n}" for s in ("", "u") for n in (8, 16, 32, 64)),
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
}
V3_RAW = re.compile(r"r[1-9][0-9]*$")
V3_OLD_FORMS = {"endian"}  # the pre-2024 endian codec: other-version-form, not an extension
DRAFT_CORE_CODECS = ("/codecs/gzip/", "/codecs/blosc/", "/codecs/endian/", "/codecs/transpose/")
ENTRY_DRAFT_FORMAT = "https://purl.org/zarr/spec/core/3.0"


def _name(entry: Any) -> Any:
    return (
        entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, dict) else None
    )


def v3_codecs(codecs: Any) -> Iterator[Any]:
    """Every codec entry of a v3 codec list, those inside sharding included."""
    for entry in codecs if isinstance(codecs, list) else ():
        yield entry
        if _name(entry) == "sharding_indexed" and isinstance(entry, dict):
            conf = entry.get("configuration") or {}
            yield from v3_codecs(conf.get("codecs"))
            yield from v3_codecs(conf.get("index_codecs"))


def _v3_arrays(h: Holdings) -> Iterator[tuple[str, dict]]:
    if h.format == "v3":
        yield from h.arrays()


def _v2_arrays(h: Holdings) -> Iterator[tuple[str, dict, np.dtype | None]]:
    if h.format != "v2":
        return
    for prefix, doc in h.arrays():
        yield prefix, doc, _v2_dtype(doc.get("dtype"))


def _v2_dtype(text: Any) -> np.dtype | None:
    try:
        if isinstance(text, list):
            return np.dtype([tuple(field) for field in text])
        return np.dtype(text) if isinstance(text, str) else None
    except (TypeError, ValueError):
        return None


@convention(
    "v3-registered-extension",
    "registered-extension",
    "a codec, data type, chunk grid, key encoding or storage transformer the v3.0 core does not define",
)
def _v3_extensions(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        for entry in v3_codecs(doc.get("codecs")):
            name = _name(entry)
            if isinstance(name, str) and name not in V3_CORE_CODECS | V3_OLD_FORMS:
                yield f"{prefix}zarr.json: codec {name!r}"
        dtype = _name(doc.get("data_type"))
        if isinstance(dtype, str) and dtype not in V3_CORE_TYPES and not V3_RAW.match(dtype):
            yield f"{prefix}zarr.json: data type {dtype!r}"
        for point, core in (("chunk_grid", {"regular"}), ("chunk_key_encoding", {"default", "v2"})):
            name = _name(doc.get(point))
            if isinstance(name, str) and name not in core:
                yield f"{prefix}zarr.json: {point} {name!r}"
        for entry in doc.get("storage_transformers") or ():
            yield f"{prefix}zarr.json: storage transformer {_name(entry)!r}"


@convention(
    "v3-draft-extension-codec",
    "registered-extension",
    "a draft codec URI the draft does not define (zstd, ...)",
)
def _draft_extensions(h: Holdings) -> Iterator[str]:
    if h.format != "v3-draft":
        return
    for prefix, doc in h.arrays():
        for codec in doc.get("codecs") or ():
            uri = codec.get("type") if isinstance(codec, dict) else None
            if isinstance(uri, str) and not any(part in uri for part in DRAFT_CORE_CODECS):
                yield f"{prefix}: codec {uri!r}"


@convention(
    "v2-object-array",
    "registered-extension",
    "a v2 object array ('|O') and its numcodecs object codec (vlen-utf8, vlen-bytes)",
)
def _v2_objects(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        if dtype is not None and dtype.hasobject:
            yield f"{prefix}.zarray: dtype {doc.get('dtype')!r}"


@convention(
    "optional-data-type",
    "optional-data-type",
    "a v3 data type the core marks optional (float16, r<N>)",
)
def _optional_types(h: Holdings) -> Iterator[str]:
    if h.format not in ("v3", "v3-draft"):
        return
    for prefix, doc in h.arrays():
        name = _name(doc.get("data_type"))
        if name == "float16" or (isinstance(name, str) and V3_RAW.match(name)):
            yield f"{prefix}: data type {name!r}"


# -- v2 conventions: what v2 leaves to its writers --


@convention(
    "v2-complex-fill-pair",
    "convention",
    "a v2 complex fill written as [real, imag] (v2 says only 'a scalar value')",
)
def _v2_complex_fill(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        if dtype is not None and dtype.kind == "c" and isinstance(doc.get("fill_value"), list):
            yield f"{prefix}.zarray: fill_value {doc['fill_value']!r} for {doc['dtype']!r}"


@convention(
    "v2-datetime-fill-integer",
    "convention",
    "a v2 datetime64/timedelta64 fill written as an integer count of units",
)
def _v2_datetime_fill(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        fill = doc.get("fill_value")
        if dtype is not None and dtype.kind in "Mm" and fill is not None:
            yield f"{prefix}.zarray: fill_value {fill!r} for {doc['dtype']!r}"


@convention(
    "v2-datetime-unit-multiplier",
    "convention",
    "a v2 datetime64/timedelta64 type with a unit multiplier ('<M8[10us]')",
)
def _v2_datetime_multiplier(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        if dtype is not None and dtype.kind in "Mm" and np.datetime_data(dtype)[1] != 1:
            yield f"{prefix}.zarray: dtype {doc['dtype']!r}"


@convention(
    "v2-unicode-fill",
    "convention",
    "a v2 fixed-length unicode ('<U') fill that is not null (v2 gives no encoding for it)",
)
def _v2_unicode_fill(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        if dtype is not None and dtype.kind == "U" and doc.get("fill_value") is not None:
            yield f"{prefix}.zarray: fill_value {doc['fill_value']!r} for {doc['dtype']!r}"


@convention(
    "v2-void-type",
    "convention",
    "a v2 unstructured void type ('|V5'), whose API form v2 leaves open",
)
def _v2_void(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        if dtype is not None and dtype.kind == "V" and dtype.names is None:
            yield f"{prefix}.zarray: dtype {doc['dtype']!r}"


@convention(
    "v2-bytes-fill-short",
    "convention",
    "a v2 fixed-length bytes fill whose Base64 decodes to fewer bytes than the type holds",
)
def _v2_short_bytes_fill(h: Holdings) -> Iterator[str]:
    import base64
    import binascii

    for prefix, doc, dtype in _v2_arrays(h):
        fill = doc.get("fill_value")
        if dtype is None or dtype.kind != "S" or not isinstance(fill, str):
            continue
        try:
            size = len(base64.b64decode(fill, validate=True))
        except (binascii.Error, ValueError):
            continue
        if size < dtype.itemsize:
            yield f"{prefix}.zarray: fill_value {fill!r} ({size} bytes) for {doc['dtype']!r}"


@convention("v2-zero-dimensional", "convention", "a v2 array of shape [] (v2 defines no 0-d array)")
def _v2_zero_d(h: Holdings) -> Iterator[str]:
    for prefix, doc, _ in _v2_arrays(h):
        if doc.get("shape") == []:
            yield f"{prefix}.zarray: shape []"


@convention(
    "v2-filters-empty-list",
    "convention",
    "v2 filters [] where v2 says a list of codec configurations 'or null if no filters'",
)
def _v2_empty_filters(h: Holdings) -> Iterator[str]:
    for prefix, doc, _ in _v2_arrays(h):
        if doc.get("filters") == []:
            yield f"{prefix}.zarray: filters []"


@convention(
    "v2-consolidated-metadata",
    "convention",
    "a v2 .zmetadata document (consolidated metadata: a writers' convention)",
)
def _v2_consolidated(h: Holdings) -> Iterator[str]:
    if h.format != "v2":
        return
    parts = [p for p in h.case.node.strip("/").split("/") if p]
    ancestors = ["/".join(parts[:i]) + "/" if i else "" for i in range(len(parts))]
    for prefix in ancestors:  # a reader may open the node through an ancestor's .zmetadata
        if h.get(prefix + ".zmetadata") is not None:
            yield prefix + ".zmetadata"
    yield from (key for key in h.keys if key.rsplit("/", 1)[-1] == ".zmetadata")


@convention(
    "v3-consolidated-null",
    "convention",
    "a v3 group or array with 'consolidated_metadata': null (zarr-python 3.0's form)",
)
def _v3_consolidated_null(h: Holdings) -> Iterator[str]:
    if h.format != "v3":
        return
    for key, doc in h.documents.items():
        data = doc.data if isinstance(doc.data, dict) else {}
        if "consolidated_metadata" in data and data["consolidated_metadata"] is None:
            yield f"{key}: consolidated_metadata null"


# -- what readers may read or refuse --


@convention("v2-bool-fill-number", "lenient-read", "a v2 bool fill written as a number (1, 0)")
def _v2_bool_fill(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        fill = doc.get("fill_value")
        if (
            dtype is not None
            and dtype.kind == "b"
            and isinstance(fill, (int, float))
            and not isinstance(fill, bool)
        ):
            yield f"{prefix}.zarray: fill_value {fill!r} for {doc['dtype']!r}"


@convention("v2-integer-fill-float", "lenient-read", "a v2 integer fill written as a float (2.0)")
def _v2_int_fill_float(h: Holdings) -> Iterator[str]:
    for prefix, doc, dtype in _v2_arrays(h):
        fill = doc.get("fill_value")
        if dtype is not None and dtype.kind in "iu" and isinstance(fill, JsonFloat):
            yield f"{prefix}.zarray: fill_value {fill.text} for {doc['dtype']!r}"


@convention(
    "v2-zgroup-extra-member",
    "lenient-read",
    "a v2 .zgroup with members besides zarr_format (v2: 'Other keys MUST NOT be present')",
)
def _v2_zgroup_extra(h: Holdings) -> Iterator[str]:
    if h.format != "v2":
        return
    for key, doc in h.documents.items():
        if key.endswith(".zgroup") and isinstance(doc.data, dict):
            extra = sorted(set(doc.data) - {"zarr_format"})
            if extra:
                yield f"{key}: members {extra}"


@convention(
    "v2-zarray-extra-member",
    "should",
    "a v2 .zarray with other members (v2: they SHOULD NOT be present and SHOULD be ignored)",
)
def _v2_zarray_extra(h: Holdings) -> Iterator[str]:
    for prefix, doc, _ in _v2_arrays(h):
        extra = sorted(set(doc) - set(REQUIRED_ARRAY_KEYS) - set(OPTIONAL_ARRAY_KEYS))
        if extra:
            yield f"{prefix}.zarray: members {extra}"


@convention(
    "v2-array-and-group",
    "spec-silent",
    "a v2 path holding both .zarray and .zgroup",
)
def _v2_both(h: Holdings) -> Iterator[str]:
    if h.format != "v2":
        return
    keys = set(h.keys)
    for key in keys:
        if key.endswith(".zarray") and key[: -len(".zarray")] + ".zgroup" in keys:
            yield f"{key} and .zgroup"


@convention(
    "v2-zero-length-dimension",
    "spec-silent",
    "a v2 shape with an extent 0 (v2 says nothing about empty arrays)",
)
def _v2_zero_length(h: Holdings) -> Iterator[str]:
    for prefix, doc, _ in _v2_arrays(h):
        shape = doc.get("shape")
        if isinstance(shape, list) and 0 in shape:
            yield f"{prefix}.zarray: shape {shape}"


# -- float fills: precision, ties and ranges --

FLOAT_TYPES = {"float16": np.float16, "float32": np.float32}


def _nearest(exact: Fraction, kind: type) -> tuple[Any, bool]:
    """The float of `kind` nearest to `exact` (ties to even) and whether `exact` is a tie."""
    with np.errstate(over="ignore"):
        first = kind(float(exact))
        candidates = {first, np.nextafter(first, kind(np.inf)), np.nextafter(first, kind(-np.inf))}
    finite = [c for c in candidates if np.isfinite(c)]
    distance = {c: abs(Fraction(float(c)) - exact) for c in finite}
    best = min(distance.values())
    nearest = [c for c in finite if distance[c] == best]
    if len(nearest) == 1:
        return nearest[0], False
    even = [c for c in nearest if int(np.array(c).view(f"u{np.dtype(kind).itemsize}")) % 2 == 0]
    return even[0], True


def _number_fills(h: Holdings) -> Iterator[tuple[str, str, Fraction, type]]:
    """(where, text, exact value, float type) of every float16/float32 fill written as a number."""
    for prefix, doc in h.arrays():
        if h.format == "v2":
            dtype = _v2_dtype(doc.get("dtype"))
            name = dtype.name if dtype is not None and dtype.names is None else None
        else:
            name = _name(doc.get("data_type"))
        fill = doc.get("fill_value")
        if name not in FLOAT_TYPES or isinstance(fill, bool) or not isinstance(fill, (int, float)):
            continue
        text = fill.text if isinstance(fill, JsonFloat) else str(fill)
        yield prefix, text, Fraction(text), FLOAT_TYPES[name]


def _beyond(exact: Fraction, kind: type) -> bool:
    """Whether `exact` rounds to infinity in `kind` (at or beyond the largest finite value plus half
    its last step)."""
    largest = np.finfo(kind).max
    step = Fraction(float(largest)) - Fraction(float(np.nextafter(largest, kind(0))))
    return abs(exact) >= Fraction(float(largest)) + step / 2


@convention(
    "float-fill-double-rounding",
    "json-number-precision",
    "a float16/float32 fill whose decimal rounds differently through a double (RFC 8259 lets "
    "parsers limit precision)",
)
def _double_rounding(h: Holdings) -> Iterator[str]:
    for prefix, text, exact, kind in _number_fills(h):
        if _beyond(exact, kind):
            continue
        direct, tie = _nearest(exact, kind)
        if not tie and kind(float(exact)) != direct:
            yield f"{prefix}: fill_value {text}"


@convention(
    "float-fill-tie",
    "versions-disagree",
    "a float16/float32 fill exactly between two values of the type (the spec's texts disagree "
    "on how it rounds)",
)
def _ties(h: Holdings) -> Iterator[str]:
    for prefix, text, exact, kind in _number_fills(h):
        if not _beyond(exact, kind) and _nearest(exact, kind)[1]:
            yield f"{prefix}: fill_value {text}"


@convention(
    "float-fill-out-of-range",
    "spec-silent",
    "a float fill beyond the range of the type (it would round to infinity)",
)
def _fill_range(h: Holdings) -> Iterator[str]:
    for prefix, text, exact, kind in _number_fills(h):
        if _beyond(exact, kind):
            yield f"{prefix}: fill_value {text}"


@convention(
    "big-integer-attributes",
    "json-number-precision",
    "attributes holding integers beyond 2^53 (RFC 8259 lets parsers limit precision)",
)
def _big_integers(h: Holdings) -> Iterator[str]:
    def walk(value: Any) -> Iterator[int]:
        if isinstance(value, bool):
            return
        if isinstance(value, int) and abs(value) > 2**53:
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    for key, attributes in h.attributes():
        for value in walk(attributes):
            yield f"{key}: attribute value {value}"


@convention(
    "v3-hex-fill-uppercase",
    "spec-silent",
    "a v3 hexadecimal float fill with upper-case digits (the spec shows lower case only)",
)
def _hex_upper(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        fills = doc.get("fill_value")
        for fill in fills if isinstance(fills, list) else [fills]:
            if isinstance(fill, str) and fill.startswith("0x") and fill[2:] != fill[2:].lower():
                yield f"{prefix}zarr.json: fill_value {fill!r}"


def _hex_value(text: str) -> int | None:
    try:
        return int(text, 16)
    except ValueError:
        return None


@convention(
    "v3-draft-hex-fill-not-float",
    "versions-disagree",
    "a draft hexadecimal fill for a type that is not a float (the draft leaves its bit order open)",
)
def _draft_hex(h: Holdings) -> Iterator[str]:
    if h.format != "v3-draft":
        return
    for prefix, doc in h.arrays():
        fill, name = doc.get("fill_value"), doc.get("data_type")
        if (
            isinstance(fill, str)
            and fill.startswith("0x")
            and name not in ("float32", "float64")
            and _hex_value(fill) != 0  # all zero bits read the same in any order
        ):
            yield f"{prefix}: fill_value {fill!r} for {name!r}"


# -- v3: forms from other versions, shorthands, names, documents --


@convention(
    "v3.1-short-hand",
    "v3.1-addition",
    "a 3.1 short-hand name ('bytes' for {'name': 'bytes'}) or must_understand true on a known "
    "extension object",
)
def _shorthand(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        for entry in v3_codecs(doc.get("codecs")):
            if isinstance(entry, str):
                yield f"{prefix}zarr.json: codec {entry!r}"
        for point in ("chunk_grid", "chunk_key_encoding"):
            value = doc.get(point)
            if isinstance(value, str):
                yield f"{prefix}zarr.json: {point} {value!r}"
            if isinstance(value, dict) and value.get("must_understand") is True:
                yield f"{prefix}zarr.json: {point} must_understand true"


@convention(
    "v3-old-forms",
    "other-version-form",
    "a form of a pre-3.0 text (the endian codec, transpose order 'C'/'F')",
)
def _old_forms(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        for entry in v3_codecs(doc.get("codecs")):
            name = _name(entry)
            if name in V3_OLD_FORMS:
                yield f"{prefix}zarr.json: codec {name!r}"
            if name == "transpose" and isinstance(entry, dict):
                order = (entry.get("configuration") or {}).get("order")
                if isinstance(order, str):
                    yield f"{prefix}zarr.json: transpose order {order!r}"


@convention(
    "v3-reserved-node-name",
    "invalid-node-name",
    "a stored v3 node (a zarr.json) whose name the spec forbids (the '__' prefix, only periods)",
)
def _reserved_names(h: Holdings) -> Iterator[str]:
    if h.format != "v3" or h.case.kind == "write":
        return
    for key in h.documents:
        for segment in key.split("/")[:-1]:
            if segment.startswith("__") or set(segment) == {"."}:
                yield f"{key}: node name {segment!r}"
                break


@convention(
    "implicit-group",
    "no-metadata-document",
    "a group to open that has no metadata document of its own (an implicit group)",
)
def _implicit_group(h: Holdings) -> Iterator[str]:
    node = h.case.node.strip("/")
    prefix = f"{node}/" if node else ""
    own = {"v2": (".zarray", ".zgroup"), "v3": ("zarr.json",)}.get(h.format)
    if h.case.kind == "write" or not own or any(h.get(prefix + name) is not None for name in own):
        return
    if any(key.startswith(prefix) for key in h.keys):
        yield f"{prefix}{own[-1]}: absent, with keys below it"


@convention(
    "json-lenient",
    "json-lenient",
    "a metadata document that is not strict JSON (a NaN token, a trailing comma, not UTF-8)",
)
def _json_lenient(h: Holdings) -> Iterator[str]:
    for key, doc in h.documents.items():
        if doc.lenient:
            yield f"{key}: {doc.lenient}"


@convention("duplicate-member", "duplicate-member", "a JSON object with a repeated member name")
def _duplicates(h: Holdings) -> Iterator[str]:
    for key, doc in h.documents.items():
        if doc.duplicates:
            yield f"{key}: {doc.duplicates} twice"


# -- chunk bytes: what readers should decode, and what the spec says nothing about --


def _chunk_keys(h: Holdings, prefix: str, doc: dict) -> Iterator[tuple[str, tuple[int, ...]]]:
    """(key, grid index) of every stored chunk of a v3 regular-grid array."""
    encoding = doc.get("chunk_key_encoding") or {}
    name = _name(encoding)
    conf = encoding.get("configuration") or {} if isinstance(encoding, dict) else {}
    separator = conf.get("separator", "/" if name == "default" else ".")
    for key in h.keys:
        if not key.startswith(prefix) or key.endswith("zarr.json"):
            continue
        rest = key[len(prefix) :]
        if name == "default":
            if not rest.startswith("c"):
                continue
            rest = rest[1:].lstrip(separator) if rest != "c" else ""
        parts = rest.split(separator) if rest else []
        if all(p.isdigit() for p in parts) and len(parts) == len(doc.get("shape") or []):
            yield key, tuple(int(p) for p in parts)


def _last_codec(doc: dict) -> dict | None:
    codecs = doc.get("codecs")
    if isinstance(codecs, list) and codecs and isinstance(codecs[-1], dict):
        return codecs[-1]
    return None


@convention(
    "v3-chunk-beyond-grid",
    "spec-silent",
    "a stored chunk outside the chunk grid (left by a shrink): the spec says nothing of it",
)
def _stale_chunks(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        grid = doc.get("chunk_grid") or {}
        chunks = (
            (grid.get("configuration") or {}).get("chunk_shape") if isinstance(grid, dict) else None
        )
        shape = doc.get("shape")
        if _name(grid) != "regular" or not isinstance(chunks, list) or not isinstance(shape, list):
            continue
        extent = [-(-s // c) if c else 0 for s, c in zip(shape, chunks)]
        for key, index in _chunk_keys(h, prefix, doc):
            if any(i >= e for i, e in zip(index, extent)):
                yield f"{key}: beyond the {extent} grid"


@convention(
    "gzip-members",
    "should",
    "a gzip chunk of several members (RFC 1952 allows them; a reader SHOULD read on)",
)
def _gzip_members(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        if _name(_last_codec(doc)) != "gzip":
            continue
        for key, _ in _chunk_keys(h, prefix, doc):
            inflater = zlib.decompressobj(31)
            try:
                inflater.decompress(h.get(key) or b"")
            except zlib.error:
                continue
            if inflater.unused_data.startswith(b"\x1f\x8b"):
                yield f"{key}: a second gzip member"
                break


BLOSC_FAMILY = {"blosclz": 0, "lz4": 1, "lz4hc": 1, "snappy": 2, "zlib": 3, "zstd": 4}


@convention(
    "blosc-header-differs",
    "should",
    "blosc chunks whose self-describing header differs from the metadata (typesize, cname): "
    "decoding SHOULD follow the header",
)
def _blosc_header(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        codec = _last_codec(doc)
        if _name(codec) != "blosc" or codec is None:
            continue
        conf = codec.get("configuration") or {}
        for key, _ in _chunk_keys(h, prefix, doc):
            value = h.get(key) or b""
            if len(value) < 16:
                continue
            flags, typesize = value[2], value[3]
            if conf.get("shuffle") != "noshuffle" and conf.get("typesize") not in (None, typesize):
                yield f"{key}: header typesize {typesize}, metadata {conf.get('typesize')}"
                break
            family = BLOSC_FAMILY.get(conf.get("cname"))
            if not flags & 0x02 and family is not None and flags >> 5 != family:
                yield f"{key}: header compressor code {flags >> 5}, metadata {conf.get('cname')!r}"
                break


def _shard_indexes(h: Holdings, prefix: str, doc: dict) -> Iterator[tuple[str, np.ndarray]]:
    """(key, (n, 2) offset/nbytes entries) of the shards of a top-level sharding codec whose
    index codecs are [bytes] or [bytes, crc32c]."""
    codecs = doc.get("codecs")
    if not (
        isinstance(codecs, list) and len(codecs) == 1 and _name(codecs[0]) == "sharding_indexed"
    ):
        return
    conf = codecs[0].get("configuration") or {}
    index_codecs = [_name(c) for c in conf.get("index_codecs") or ()]
    if index_codecs not in (["bytes"], ["bytes", "crc32c"]):
        return
    endian = ((conf["index_codecs"][0] or {}).get("configuration") or {}).get("endian", "little")
    outer = (doc.get("chunk_grid") or {}).get("configuration", {}).get("chunk_shape") or []
    inner = conf.get("chunk_shape") or []
    count = int(np.prod([o // i for o, i in zip(outer, inner) if i])) if inner else 0
    size = 16 * count + 4 * (len(index_codecs) == 2)
    for key, _ in _chunk_keys(h, prefix, doc):
        value = h.get(key) or b""
        if not count or len(value) < size:
            continue
        raw = value[:size] if conf.get("index_location") == "start" else value[-size:]
        order = "<" if endian == "little" else ">"
        entries = struct.unpack(f"{order}{2 * count}Q", raw[: 16 * count])
        yield key, np.array(entries, dtype=np.uint64).reshape(count, 2)


@convention(
    "shard-shared-bytes",
    "spec-silent",
    "a shard whose index points two inner chunks at the same bytes (the spec neither allows nor "
    "forbids it)",
)
def _shared_bytes(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        for key, entries in _shard_indexes(h, prefix, doc):
            used = [tuple(e) for e in entries.tolist() if e != [2**64 - 1, 2**64 - 1]]
            if len(used) != len(set(used)):
                yield f"{key}: index entries repeat"


@convention(
    "index-codecs-transpose",
    "spec-silent",
    "sharding index_codecs with a transpose (the spec does not say the index may be transposed)",
)
def _index_transpose(h: Holdings) -> Iterator[str]:
    for prefix, doc in _v3_arrays(h):
        for entry in v3_codecs(doc.get("codecs")):
            if _name(entry) == "sharding_indexed" and isinstance(entry, dict):
                names = [
                    _name(c) for c in (entry.get("configuration") or {}).get("index_codecs") or ()
                ]
                if "transpose" in names:
                    yield f"{prefix}zarr.json: index_codecs {names}"


# -- the draft --


@convention(
    "draft-fallback-type",
    "should",
    "a draft extension data type with fallbacks (readers SHOULD use a fallback they know)",
)
def _draft_fallback(h: Holdings) -> Iterator[str]:
    if h.format != "v3-draft":
        return
    for prefix, doc in h.arrays():
        if isinstance(doc.get("data_type"), dict) and doc["data_type"].get("fallback"):
            yield f"{prefix}: data type {doc['data_type'].get('type')!r} with fallbacks"


@convention(
    "draft-minor-version",
    "should",
    "a draft entry point of another minor version (readers SHOULD read it)",
)
def _draft_minor(h: Holdings) -> Iterator[str]:
    if h.format != "v3-draft":
        return
    entry = h.documents.get("zarr.json")
    fmt = entry.data.get("zarr_format") if entry and isinstance(entry.data, dict) else None
    if (
        isinstance(fmt, str)
        and fmt.startswith("https://purl.org/zarr/spec/core/3.")
        and fmt != ENTRY_DRAFT_FORMAT
    ):
        yield f"zarr.json: zarr_format {fmt!r}"


@convention(
    "draft-gzip-zlib-container",
    "should",
    "draft gzip chunks in a zlib container (the draft's gzip text SHOULD accept it)",
)
def _draft_zlib(h: Holdings) -> Iterator[str]:
    if h.format != "v3-draft":
        return
    for prefix, doc in h.arrays():
        uris = [str(c.get("type", "")) for c in doc.get("codecs") or () if isinstance(c, dict)]
        if not uris or "/codecs/gzip/" not in uris[-1]:
            continue
        for key in h.keys:
            if key.startswith(prefix) and (h.get(key) or b"")[:1] == b"\x78":
                yield f"{key}: a zlib stream"
                break


@convention(
    "draft-declared-sharding-uri",
    "versions-disagree",
    "draft sharding under the URI the sharding text declares, which differs from the core draft's",
)
def _draft_sharding_uri(h: Holdings) -> Iterator[str]:
    from ..reference.formats.v3draft.flavours import SHARDING_URI_DECLARED

    if h.format != "v3-draft":
        return
    for prefix, doc in h.arrays():
        for entry in doc.get("storage_transformers") or ():
            if isinstance(entry, dict) and entry.get("extension") == SHARDING_URI_DECLARED:
                yield f"{prefix}: storage transformer {SHARDING_URI_DECLARED}"


# ---- the checks ---------------------------------------------------------------------------------

# Questions that say a read case relies on something (not required): a read or zom-store case
# asking one must be explained by a detector above.
CONVENTION_QUESTIONS = frozenset(c.question for c in CONVENTIONS)


def is_accepting(case: Case) -> bool:
    """Read cases, zom cases over a store and write cases that are not meant to fail."""
    if case.kind == "read":
        return True
    if case.kind == "zom":
        return "model" in case.expect and "node_type" in case.expect
    return case.kind == "write" and not case.expect.get("must_fail")


def found(case: Case | WrittenStore) -> dict[str, list[str]]:
    """Convention name -> evidence lines, for what `case` holds."""
    holdings = Holdings(case)
    try:
        out = {}
        for item in CONVENTIONS:
            try:
                evidence = list(item.detect(holdings))
            except (TypeError, AttributeError, KeyError, ValueError, IndexError):
                evidence = []  # a document too malformed to hold the convention (a reject case's)
            if evidence:
                out[item.name] = evidence
        return out
    finally:
        holdings.close()


def refusable(store: Path, format: str, node: str) -> tuple[Convention, str] | None:
    """The first convention a writer's store relies on whose question lets a reader refuse it
    (an optional tier), with its evidence: a reader's refusal of that store is allowed."""
    from conformance.model import MAY_REFUSE

    from .questions import QUESTIONS

    evidence = found(WrittenStore(store, format, node.strip("/")))
    for item in CONVENTIONS:
        if item.name in evidence and QUESTIONS[item.question].tier in MAY_REFUSE:
            return item, evidence[item.name][0]
    return None


def questions_found(case: Case) -> list[str]:
    """The questions of the conventions `case` relies on, in CONVENTIONS order."""
    names = found(case)
    out: list[str] = []
    for item in CONVENTIONS:
        if item.name in names and item.question not in out:
            out.append(item.question)
    return out


def convention_problems(cases: list[Case]) -> list[str]:
    from .questions import QUESTIONS

    problems = []
    for case in cases:
        if not is_accepting(case):
            continue
        question = case.raw.get("question")
        evidence = found(case)
        asked = {item.question for item in CONVENTIONS if item.name in evidence}
        if evidence and question not in asked and case.tier == "required":
            first = next(iter(evidence))
            problems.append(
                f"{case.id}: relies on {', '.join(sorted(evidence))} ({evidence[first][0]}), which the "
                f"corpus tiers under {sorted(asked)}, but asks {question!r}"
            )
        store_case = case.kind == "read" or case.kind == "zom"
        policy = QUESTIONS.get(question or "")
        if (
            store_case
            and not evidence
            and question in CONVENTION_QUESTIONS
            and policy is not None
            and policy.tier != "required"
        ):
            problems.append(
                f"{case.id}: asks {question!r} but no detector of conventions.py finds what it relies "
                "on: add one, so every other store relying on it is found too"
            )
    return problems
