"""Validating a `codecs` list and running it (V3-PIPE-001..005, V3-ARR-005, V3-ARR-014, V3-EXT-004).

The list is checked in three steps: each entry's shape (an object with a string `name`, an
optional object `configuration`, an optional boolean `must_understand`; or a 3.1 short-hand name
string), every name known (an unknown codec is an error even with `must_understand: false`: a
codec cannot be skipped without returning undecoded data), then the order
array->array*, array->bytes, bytes->bytes*. Only then is each codec built for the representation it
receives, so a codec that cannot accept its input fails here (V3-PIPE-004).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import DTypeLike

from ....errors import ChunkError, LimitError, MetadataError, ZarrError
from ....value_cost import value_account
from .base import (
    ARRAY_ARRAY,
    ARRAY_BYTES,
    BYTES_BYTES,
    ArrayArrayCodec,
    ArrayBytesCodec,
    ArraySpec,
    BytesBytesCodec,
    ByteSource,
)
from .config import describe
from .registry import lookup

if TYPE_CHECKING:
    from ..data_types import DataType

MAX_CODECS = 64  # per list; far above any real pipeline
MAX_NESTING = 8  # sharding inside sharding inside ...


def build_pipeline(
    codecs_json: Any,
    chunk_shape: Sequence[int],
    dtype: DTypeLike,
    fill_value: Any,
    data_type: Any,
    *,
    legacy: bool = False,
) -> CodecPipeline:
    """Validate the `codecs` member of a v3 array and return its pipeline for chunks of
    `chunk_shape`. `legacy=True` also accepts 2023-24 spellings (V3HIST-001 `endian`, V3HIST-002
    transpose "C"/"F"); by default they are unknown or invalid."""
    dtype = np.dtype(dtype)
    fill = None if fill_value is None else np.asarray(fill_value, dtype=dtype).reshape(())
    info = data_type if not isinstance(data_type, str) else _resolve_info(data_type, dtype)
    name = data_type if isinstance(data_type, str) else data_type.name
    spec = ArraySpec(tuple(int(n) for n in chunk_shape), dtype, fill, name, info)
    return _Builder(legacy, 0).build(codecs_json, spec, "codecs")


def _resolve_info(name: str, dtype: np.dtype) -> DataType | None:
    """The DataType of a data type given by name only (None when the name alone cannot say)."""
    from ..data_types import core_data_type, data_type_from_numpy, simple_extension_type

    try:
        info = core_data_type(name) or simple_extension_type(name)
        if info is None and not dtype.hasobject:
            info = data_type_from_numpy(dtype)
    except ZarrError:
        return None
    return info if info is not None and info.dtype == dtype else None


@dataclass(frozen=True)
class _Builder:
    legacy: bool
    depth: int

    def build(self, codecs_json: Any, spec: ArraySpec, where: str) -> CodecPipeline:
        if self.depth > MAX_NESTING:
            raise LimitError(f"codecs nested more than {MAX_NESTING} levels deep")
        if not isinstance(codecs_json, list):
            raise MetadataError(
                "invalid-codec",
                f"{where} must be an array, got {describe(codecs_json)}",
                "V3-ARR-005",
            )
        if len(codecs_json) > MAX_CODECS:
            raise LimitError(f"{where} has {len(codecs_json)} codecs (limit {MAX_CODECS})")
        entries = [_entry(value, where, i) for i, value in enumerate(codecs_json)]
        classes = []
        for name, _, must_understand in entries:
            cls = lookup(name, self.legacy)
            if cls is None:
                from .. import registry

                note = (
                    " (must_understand: false cannot make a codec optional)"
                    if must_understand is False
                    else ""
                )
                where_from = registry.describe("codec", name)
                raise MetadataError(
                    "unknown-codec",
                    f"{where}: unknown codec {name!r}{where_from}{note}; a reader "
                    "must not return its chunks undecoded",
                    "V3-EXT-004",
                )
            classes.append(cls)
        _check_order([cls.kind for cls in classes], [e[0] for e in entries], where)
        inner = _Builder(self.legacy, self.depth + 1)
        array_codecs: list[ArrayArrayCodec] = []
        array_bytes: ArrayBytesCodec | None = None
        bytes_codecs: list[BytesBytesCodec] = []
        size = None
        for cls, (_, configuration, _) in zip(classes, entries):
            if issubclass(cls, ArrayArrayCodec):
                array_codec = cls(configuration, spec, inner)
                array_codecs.append(array_codec)
                spec = array_codec.encoded_spec
            elif issubclass(cls, ArrayBytesCodec):
                array_bytes = cls(configuration, spec, inner)
                size = array_bytes.encoded_size
            elif issubclass(cls, BytesBytesCodec) and cls.name == "conditional":
                bytes_codecs.append(cls(configuration, size, inner))
            elif issubclass(cls, BytesBytesCodec):
                bytes_codec = cls(configuration, size)
                bytes_codecs.append(bytes_codec)
                size = bytes_codec.encoded_size
        assert array_bytes is not None  # _check_order: exactly one array->bytes codec
        for bytes_codec in bytes_codecs:  # a vlen frame may be smaller than other values
            bytes_codec.size_limit = min(bytes_codec.size_limit, array_bytes.max_encoded_size)
        return CodecPipeline(array_codecs, array_bytes, bytes_codecs)


def _entry(value: Any, where: str, i: int) -> tuple[str, dict[str, Any] | None, bool | None]:
    """(name, configuration or None, must_understand or None) of one codec entry (V3-ARR-014)."""
    what = f"{where}[{i}]"
    if isinstance(value, str):  # 3.1 short-hand for {"name": value}
        return value, None, None
    if not isinstance(value, dict):
        raise MetadataError(
            "invalid-codec", f"{what} must be an object, got {describe(value)}", "V3-ARR-014"
        )
    name = value.get("name")
    if not isinstance(name, str):
        raise MetadataError(
            "invalid-codec", f"{what} needs a string 'name', got {describe(name)}", "V3-ARR-014"
        )
    configuration = value.get("configuration")
    if "configuration" in value and not isinstance(configuration, dict):
        raise MetadataError(
            "invalid-codec",
            f"{what} ({name}): 'configuration' must be an object, got {describe(configuration)}",
            "V3-EXT-001",
        )
    must_understand = value.get("must_understand")
    if "must_understand" in value and not isinstance(must_understand, bool):
        raise MetadataError(
            "invalid-codec", f"{what} ({name}): 'must_understand' must be a boolean", "V3-EXT-003"
        )
    extra = sorted(set(value) - {"name", "configuration", "must_understand"})
    if extra:
        raise MetadataError(
            "invalid-codec", f"{what} ({name}) has unknown members {extra}", "V3-ARR-014"
        )
    return name, configuration, must_understand


def _check_order(kinds: list[str], names: list[str], where: str) -> None:
    requirement = "V3-PIPE-001" if where == "codecs" else "V3-SHARD-003"
    if not kinds:
        raise MetadataError(
            "codec-order",
            f"{where} is empty; it needs an array->bytes codec",
            "V3-ARR-005" if where == "codecs" else requirement,
        )
    seen_array_bytes = False
    for kind, name in zip(kinds, names):
        problem = None
        if kind == ARRAY_ARRAY and seen_array_bytes:
            problem = f"array->array codec {name!r} comes after the array->bytes codec"
        elif kind == ARRAY_BYTES and seen_array_bytes:
            problem = f"second array->bytes codec {name!r}"
        elif kind == BYTES_BYTES and not seen_array_bytes:
            problem = f"bytes->bytes codec {name!r} comes before any array->bytes codec"
        if problem:
            raise MetadataError(
                "codec-order", f"{where}: {problem} ({' -> '.join(names)})", requirement
            )
        seen_array_bytes = seen_array_bytes or kind == ARRAY_BYTES
    if not seen_array_bytes:
        raise MetadataError(
            "codec-order", f"{where} has no array->bytes codec ({' -> '.join(names)})", requirement
        )


# Library errors that mean "these bytes are not a valid encoding" when raised while decoding.
_DECODE_ERRORS = (ValueError, TypeError, RuntimeError, OverflowError, zlib.error, UnicodeError)


class CodecPipeline:
    """A validated codec list bound to one chunk shape and data type.

    encode(chunk) -> bytes and decode(bytes) -> ndarray of exactly the chunk shape and dtype,
    which may be a read-only view of the bytes given (no copy): copy it before writing into it. decode_partial(store, key, selection) reads only the
    bytes a sub-box needs when the array->bytes codec is sharding with no bytes->bytes codec after
    it, and otherwise reads the whole value; it returns None when the key is absent.
    """

    kind = ARRAY_BYTES  # a nested pipeline (sharding's inner codecs) acts as one array->bytes codec

    def __init__(
        self,
        array_codecs: list[ArrayArrayCodec],
        array_bytes: ArrayBytesCodec,
        bytes_codecs: list[BytesBytesCodec],
    ) -> None:
        self.array_codecs = array_codecs
        self.array_bytes = array_bytes
        self.bytes_codecs = bytes_codecs
        self.spec: ArraySpec = (
            array_codecs[0].decoded_spec if array_codecs else array_bytes.decoded_spec
        )
        size = array_bytes.encoded_size
        for codec in bytes_codecs:
            size = codec.encoded_size
        self.encoded_size: int | None = size  # fixed encoded byte count, or None
        self.supports_partial = (
            array_bytes.supports_partial
            and not bytes_codecs
            and all(getattr(c, "maps_selection", True) for c in array_codecs)
        )
        self.notes: list[str] = [
            note for codec in self.codecs for note in getattr(codec, "notes", [])
        ]

    @property
    def codecs(self) -> list[Any]:
        return [*self.array_codecs, self.array_bytes, *self.bytes_codecs]

    @property
    def sharding(self) -> Any:
        """The sharding codec when it is this pipeline's array->bytes codec, else None."""
        return self.array_bytes if self.array_bytes.name == "sharding_indexed" else None

    def to_json(self) -> list[dict[str, Any]]:
        """The codec list in the 3.0 object form (short-hand names expanded)."""
        return [codec.to_json() for codec in self.codecs]

    def encode(self, chunk: np.ndarray) -> bytes:
        array = np.asarray(chunk)
        spec = self.spec
        if array.shape != spec.shape:
            raise ValueError(
                f"chunk of shape {array.shape} given to a pipeline for shape {spec.shape}"
            )
        if array.dtype != spec.dtype:
            if not np.can_cast(array.dtype, spec.dtype, casting="equiv"):
                raise TypeError(
                    f"chunk of dtype {array.dtype} given to a pipeline for {spec.dtype}"
                )
            array = array.astype(spec.dtype)
        for array_codec in self.array_codecs:
            array = array_codec.encode(array)
        data = self.array_bytes.encode(array)
        for bytes_codec in self.bytes_codecs:
            data = bytes_codec.encode(data)
        return data if type(data) is bytes else bytes(data)

    def decode(self, data: bytes | memoryview) -> np.ndarray:
        with value_account():  # what inner chunks of a shard decode to adds up
            return self._decode(data)

    def _decode(self, data: bytes | memoryview) -> np.ndarray:
        try:
            view = _byte_view(data)
            for bytes_codec in reversed(self.bytes_codecs):
                view = _byte_view(bytes_codec.decode(view))
            if self.array_codecs:
                array = self.array_bytes.decode(view)
                for array_codec in reversed(self.array_codecs):
                    array = array_codec.decode(array)
            else:  # what the caller gets: it copies what it keeps (see the class docstring)
                array = self.array_bytes.decode_view(view)
        except ZarrError:
            raise
        except _DECODE_ERRORS as exc:
            raise ChunkError(
                "corrupt-chunk", f"chunk cannot be decoded: {type(exc).__name__}: {exc}"
            ) from None
        return array

    def decode_partial(self, store: Any, key: str, selection: tuple[Any, ...]) -> np.ndarray | None:
        """The box `selection` (one slice per dimension, chunk-local, step 1) of the chunk stored at
        `key`, or None when the key is absent. Equal to decode(store.get(key))[selection]."""
        return self.decode_partial_source(
            ByteSource(store, key), _normalize(selection, self.spec.shape)
        )

    def decode_partial_source(
        self, source: ByteSource, selection: tuple[slice, ...]
    ) -> np.ndarray | None:
        with value_account():
            return self._decode_partial(source, selection)

    def _decode_partial(
        self, source: ByteSource, selection: tuple[slice, ...]
    ) -> np.ndarray | None:
        covers = all(s.start == 0 and s.stop == n for s, n in zip(selection, self.spec.shape))
        if not self.supports_partial or covers:
            data = source.read_all()
            if data is None:
                return None
            if source.length is not None and len(data) != source.length:
                raise ChunkError(
                    "corrupt-shard-index",
                    "an inner chunk runs past the end of its shard",
                    "V3-SHARD-016",
                )
            return self.decode(data)[selection + (Ellipsis,)]  # an array even for 0-d
        encoded = selection
        for codec in self.array_codecs:
            encoded = codec.encoded_selection(encoded)
        try:
            part = self.array_bytes.decode_partial(source, encoded)
        except ZarrError:
            raise
        except _DECODE_ERRORS as exc:
            raise ChunkError(
                "corrupt-chunk", f"chunk cannot be decoded: {type(exc).__name__}: {exc}"
            ) from None
        if part is None:
            return None
        if self.array_codecs and not part.flags.writeable:
            part = part.copy()  # a view of stored bytes: the array->array codecs get their own
        for codec in reversed(self.array_codecs):
            part = codec.decode(part)
        return part

    def __repr__(self) -> str:
        return f"CodecPipeline({' -> '.join(c.name for c in self.codecs)} for {self.spec.shape} {self.spec.data_type})"


def _byte_view(data: bytes | bytearray | memoryview) -> memoryview:
    view = memoryview(data)
    return view if view.format == "B" and view.ndim == 1 else view.cast("B")


def _normalize(selection: tuple[Any, ...], shape: tuple[int, ...]) -> tuple[slice, ...]:
    if not isinstance(selection, tuple):
        selection = (selection,)
    if len(selection) != len(shape) or not all(isinstance(s, slice) for s in selection):
        raise ValueError(
            f"partial decode needs one slice per dimension of {shape}, got {selection!r}"
        )
    out = []
    for s, n in zip(selection, shape):
        start, stop, step = s.indices(n)
        if step != 1:
            raise ValueError("partial decode supports only step-1 slices")
        out.append(slice(start, max(start, stop)))
    return tuple(out)
