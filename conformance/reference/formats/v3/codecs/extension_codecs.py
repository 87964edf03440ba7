"""The codecs of the zarr-extensions registry beyond the core ones: bitround, cast_value,
scale_offset, reshape, packbits, zfp, n5_default and conditional (REGISTRY_COMMIT in registry.py).

Each follows its README; where the README leaves a choice open the choice is stated here:
* bitround: decoding is the identity (the rounding is lossy and happens on encode); floats round
  the mantissa half-to-even on the bit pattern, integers from the most significant set bit of the
  unsigned bit pattern, as numcodecs (floats) and zarrs (integers) do;
* packbits: bits are packed least-significant first (bit j of the sequence is bit j % 8 of byte
  j // 8); `padding_encoding` is read in both spellings the registry uses ("first_byte" /
  "last_byte" in the README, "start_byte" / "end_byte" in its schema), likewise
  `first_bit`/`last_bit` and `start_bit`/`end_bit`;
* zfp: through zfpy (the zfp C library itself) with no header; the "expert" mode cannot be set
  through zfpy, so it is refused (ExtensionNotImplemented: a validator cannot check it), as are
  data types other than int32/int64/float32/float64 and their promotions int8/int16/uint8/uint16;
* conditional: the nested codecs are applied as the header says; writing uses the default mask
  (all nested codecs skipped), which the README makes the encoder's default.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ....errors import ChunkError, ExtensionNotImplemented, MetadataError
from ..data_types import DataType, parse_data_type
from . import numeric
from .base import ArrayArrayCodec, ArrayBytesCodec, ArraySpec, BytesBytesCodec
from .config import Config, describe, is_int


def _pipe_error(codec: str, message: str) -> MetadataError:
    return MetadataError("invalid-codec", f"codec {codec!r}: {message}", "V3-PIPE-004")


class _Elementwise(ArrayArrayCodec):
    """An array->array codec that maps each element on its own (a selection maps to itself)."""

    _encoded: ArraySpec

    @property
    def encoded_spec(self) -> ArraySpec:
        return self._encoded

    def encoded_selection(self, selection: tuple[slice, ...]) -> tuple[slice, ...]:
        return selection


# ---- bitround ---------------------------------------------------------------------------------


def _round_bits(
    bits: np.ndarray, keepbits: int, maxbits: int | np.ndarray, width: int
) -> np.ndarray:
    """numcodecs' / zarrs' rounding of the low `maxbits` bits to `keepbits` (half to even),
    with saturation at the top of the unsigned `width`-bit range."""
    wide = bits.astype(np.uint64)
    maxbits = np.broadcast_to(np.asarray(maxbits, dtype=np.int64), wide.shape)
    out = wide.copy()
    todo = keepbits < maxbits
    if not todo.any():
        return out
    maskbits = (maxbits[todo] - keepbits).astype(np.uint64)
    value = wide[todo]
    half_quantum1 = (np.uint64(1) << (maskbits - np.uint64(1))) - np.uint64(1)
    top = np.uint64((1 << width) - 1) if width < 64 else np.uint64(2**64 - 1)
    add = ((value >> maskbits) & np.uint64(1)) + half_quantum1
    rounded = np.where(value > top - add, top, value + add)  # saturating add
    mask = (top >> maskbits) << maskbits
    out[todo] = rounded & mask
    return out


class BitroundCodec(_Elementwise):
    name = "bitround"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration)
        if configuration is None:
            raise config.error("a configuration with 'keepbits' is required")
        self.keepbits = config.integer("keepbits", 0, None)
        config.finish()
        info = spec.info
        self.plan = self._plan(info, spec)
        self._encoded = spec

    def _plan(self, info: DataType | None, spec: ArraySpec) -> tuple[np.dtype, int | None, bool]:
        """(unsigned integer view, mantissa bits or None for integers, complex?) for the type."""
        mantissa_of = {"float16": 10, "bfloat16": 7, "float32": 23, "float64": 52}
        if info is not None and info.kind == "float" and info.name in mantissa_of:
            return np.dtype(f"u{info.itemsize}"), mantissa_of[info.name], False
        if info is not None and info.kind == "complex":
            part = (
                info.component.name
                if info.component is not None
                else {8: "float32", 16: "float64"}[info.itemsize]
            )
            if part in mantissa_of:
                return np.dtype(f"u{info.itemsize // 2}"), mantissa_of[part], True
        if info is not None and (
            (info.kind in ("int", "uint") and not info.small)
            or info.kind in ("datetime", "timedelta")
        ):
            return np.dtype(f"u{info.itemsize}"), None, False
        raise _pipe_error(self.name, f"unsupported data type {spec.data_type!r}")

    def encode(self, array: np.ndarray) -> np.ndarray:
        unsigned, mantissa, _ = self.plan
        data = np.ascontiguousarray(array, dtype=self.decoded_spec.dtype).reshape(-1)
        bits = data.view(unsigned)
        width = unsigned.itemsize * 8
        maxbits: int | np.ndarray
        if mantissa is None:
            wide = bits.astype(np.uint64)
            maxbits = np.zeros(wide.shape, dtype=np.int64)
            nonzero = wide != 0
            maxbits[nonzero] = (
                np.floor(np.log2(wide[nonzero].astype(np.float64))).astype(np.int64) + 1
            )
            # log2 of values near powers of two can be off by one in float64: correct it exactly
            too_high = nonzero & ((np.uint64(1) << (maxbits - 1).clip(0).astype(np.uint64)) > wide)
            maxbits[too_high] -= 1
            too_low = (
                nonzero
                & (maxbits < 64)
                & ((np.uint64(1) << maxbits.clip(0, 63).astype(np.uint64)) <= wide)
            )
            maxbits[too_low] += 1
        else:
            if mantissa < self.keepbits:
                raise ChunkError(
                    "corrupt-chunk",
                    f"bitround: keepbits {self.keepbits} exceeds the {mantissa} mantissa bits",
                )
            maxbits = mantissa
        rounded = _round_bits(bits, self.keepbits, maxbits, width).astype(unsigned)
        return np.ascontiguousarray(rounded).view(self.decoded_spec.dtype).reshape(np.shape(array))

    def decode(self, array: np.ndarray) -> np.ndarray:
        return array  # rounding cannot be undone: the stored values are the values


# ---- cast_value -------------------------------------------------------------------------------


class CastValueCodec(_Elementwise):
    name = "cast_value"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration)
        if configuration is None:
            raise config.error("a configuration with 'data_type' is required")
        target_json = config.raw("data_type", True)
        self.rounding = config.choice(
            "rounding", numeric.ROUNDINGS, required=False, default="nearest-even"
        )
        self.out_of_range = config.choice("out_of_range", ("clamp", "wrap"), required=False)
        scalar_map = config.raw("scalar_map", False)
        config.finish()  # additional keys MUST make the metadata invalid
        try:
            target = parse_data_type(target_json)
        except MetadataError as exc:
            raise config.error(f"data_type: {exc.message}") from None
        source = spec.info
        if numeric.real_kind(source) is None:
            raise _pipe_error(
                self.name, f"input data type {spec.data_type!r} is not an integer or float type"
            )
        if numeric.real_kind(target) is None:
            raise config.error(f"data_type {target.name!r} is not an integer or float type")
        if self.out_of_range == "wrap" and numeric.real_kind(target) != "int":
            raise config.error("out_of_range 'wrap' is only allowed for an integer data_type")
        self.source, self.target = source, target
        self.encode_map, self.decode_map = self._scalar_map(scalar_map, config)
        fill = spec.fill_value
        encoded_fill = None
        if fill is not None:
            try:
                encoded_fill = self._cast(
                    np.asarray(fill).reshape(1), source, target, self.encode_map
                )
                back = self._cast(encoded_fill, target, source, self.decode_map)
            except numeric.CastError as exc:
                raise config.error(f"the fill value cannot be cast: {exc}") from None
            if not _same_values(back, np.asarray(fill).reshape(1)):
                raise config.error(
                    f"the fill value {fill[()]!r} does not survive the round trip through "
                    f"{target.name} (it must)"
                )
            encoded_fill = encoded_fill.reshape(())
        self._encoded = spec.with_type(target, encoded_fill)

    def _scalar_map(self, value: Any, config: Config) -> tuple[list[Any], list[Any]]:
        if not config.has("scalar_map"):
            return [], []
        if not isinstance(value, dict) or set(value) - {"encode", "decode"}:
            raise config.error(
                "scalar_map must be an object with optional 'encode' and 'decode' lists"
            )
        from ..fill_value import parse_fill_value

        maps = []
        for direction, (key_type, value_type) in (
            ("encode", (self.source, self.target)),
            ("decode", (self.target, self.source)),
        ):
            pairs = value.get(direction, [])
            if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 for p in pairs
            ):
                raise config.error(
                    f"scalar_map.{direction} must be a list of [input, output] pairs"
                )
            parsed = []
            try:
                for key, mapped in pairs:
                    parsed.append(
                        (parse_fill_value(key, key_type), parse_fill_value(mapped, value_type))
                    )
            except MetadataError as exc:
                raise config.error(f"scalar_map.{direction}: {exc.message}") from None
            maps.append(parsed)  # earlier pairs win: numeric.cast applies them in order
        return maps[0], maps[1]

    def _cast(
        self, array: np.ndarray, source: DataType, target: DataType, scalar_map: list[Any]
    ) -> np.ndarray:
        return numeric.cast(array, source, target, self.rounding, self.out_of_range, scalar_map)

    def encode(self, array: np.ndarray) -> np.ndarray:
        try:
            return self._cast(array, self.source, self.target, self.encode_map)
        except numeric.CastError as exc:
            raise ValueError(f"cast_value cannot encode: {exc}") from None

    def decode(self, array: np.ndarray) -> np.ndarray:
        try:
            return self._cast(array, self.target, self.source, self.decode_map)
        except numeric.CastError as exc:
            raise ChunkError("corrupt-chunk", f"cast_value cannot decode: {exc}") from None


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype.kind == "f" or a.dtype.kind == "V":
        x, y = a.astype(np.float64), b.astype(np.float64)
        return bool(np.all((x == y) | (np.isnan(x) & np.isnan(y))))
    return bool(np.all(a == b))


# ---- scale_offset -------------------------------------------------------------------------------


class ScaleOffsetCodec(_Elementwise):
    name = "scale_offset"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        from ..fill_value import parse_fill_value

        config = Config(self.name, configuration)
        offset_json = config.raw("offset", False)
        scale_json = config.raw("scale", False)
        config.finish()
        info = spec.info
        self.value_kind = numeric.real_kind(info)
        if self.value_kind is None:
            raise _pipe_error(
                self.name, f"data type {spec.data_type!r} is not an integer or float type"
            )
        self.info = info
        try:
            self.offset = None if not config.has("offset") else parse_fill_value(offset_json, info)
            self.scale = None if not config.has("scale") else parse_fill_value(scale_json, info)
        except MetadataError as exc:
            raise config.error(
                f"offset/scale must use the fill value encoding of {info.name}: {exc.message}"
            ) from None
        fill = spec.fill_value
        encoded_fill = None
        if fill is not None:
            try:
                encoded_fill = self._encode(np.asarray(fill).reshape(1)).reshape(())
            except ValueError as exc:
                raise config.error(f"the fill value cannot be encoded: {exc}") from None
        self._encoded = ArraySpec(spec.shape, spec.dtype, encoded_fill, spec.data_type, info)

    def _encode(self, array: np.ndarray) -> np.ndarray:
        if self.value_kind == "int":
            values = _python_ints(array)
            offset = 0 if self.offset is None else int(self.offset[()])
            scale = 1 if self.scale is None else int(self.scale[()])
            return self._ints_back([(v - offset) * scale for v in values], array.shape)
        return self._float_op(array, lambda x, o, s: (x - o) * s)

    def _decode(self, array: np.ndarray) -> np.ndarray:
        if self.value_kind == "int":
            values = _python_ints(array)
            offset = 0 if self.offset is None else int(self.offset[()])
            scale = 1 if self.scale is None else int(self.scale[()])
            if scale == 0:
                raise ValueError("scale 0 cannot be inverted")
            out = []
            for v in values:
                if v % scale:
                    raise ValueError(
                        f"{v} / {scale} is not an integer, so not representable in {self.info.name}"
                    )
                out.append(v // scale + offset)
            return self._ints_back(out, array.shape)
        return self._float_op(array, lambda x, o, s: x / s + o)

    def _ints_back(self, values: list[int], shape: tuple[int, ...]) -> np.ndarray:
        low, high = numeric.int_bounds(self.info)
        bad = [v for v in values if not low <= v <= high]
        if bad:
            raise ValueError(f"{bad[0]} is not representable in {self.info.name}")
        wide = np.array(
            values, dtype=np.int64 if low < 0 or self.info.small else np.uint64
        ).reshape(shape)
        return wide.astype(self.info.dtype)

    def _float_op(
        self, array: np.ndarray, op: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    ) -> np.ndarray:
        dtype = self.info.dtype
        zero, one = np.zeros((), dtype), np.ones((), dtype)
        offset = zero if self.offset is None else self.offset.astype(dtype)
        scale = one if self.scale is None else self.scale.astype(dtype)
        with np.errstate(all="ignore"):
            out = np.asarray(op(array.astype(dtype), offset, scale), dtype=dtype)
        finite_in = np.isfinite(array.astype(np.float64))
        if (finite_in & ~np.isfinite(out.astype(np.float64))).any():
            raise ValueError(
                f"a result is not representable in {self.info.name} (overflow or division by zero)"
            )
        return out

    def encode(self, array: np.ndarray) -> np.ndarray:
        return self._encode(array)

    def decode(self, array: np.ndarray) -> np.ndarray:
        try:
            return self._decode(array)
        except ValueError as exc:
            raise ChunkError("corrupt-chunk", f"scale_offset cannot decode: {exc}") from None


def _python_ints(array: np.ndarray) -> list[int]:
    return [
        int(v)
        for v in np.asarray(array)
        .astype(np.int64 if np.asarray(array).dtype.kind != "u" else np.uint64)
        .reshape(-1)
    ]


# ---- reshape ----------------------------------------------------------------------------------


class ReshapeCodec(ArrayArrayCodec):
    name = "reshape"
    maps_selection = False

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration)
        if configuration is None:
            raise config.error("a configuration with 'shape' is required")
        shape_json = config.raw("shape", True)
        config.finish()
        if not isinstance(shape_json, list):
            raise config.error(f"'shape' must be a list, got {describe(shape_json)}")
        a_shape = spec.shape
        out: list[int | None] = []
        flat_dims: list[int] = []
        for i, item in enumerate(shape_json):
            if is_int(item):
                if item == -1:
                    out.append(None)
                elif item >= 1:
                    out.append(item)
                else:
                    raise config.error(
                        f"shape[{i}] must be a positive size, -1 or a list of input dims, got {item}"
                    )
            elif isinstance(item, list) and all(is_int(d) and 0 <= d < len(a_shape) for d in item):
                out.append(math.prod(a_shape[d] for d in item))
                flat_dims.extend(item)
            else:
                raise config.error(
                    f"shape[{i}] must be a positive size, -1 or a list of input dims, got {describe(item)}"
                )
        if out.count(None) > 1:
            raise config.error("-1 may occur at most once in 'shape'")
        if any(b <= a for a, b in itertools.pairwise(flat_dims)):
            raise config.error(
                f"the input dims in 'shape' must be strictly increasing, got {flat_dims}"
            )
        total = math.prod(a_shape)
        if None in out:
            known = math.prod(n for n in out if n is not None)
            if known == 0 or total % known:
                raise config.error(
                    f"no size for -1 makes {shape_json} hold the {total} elements of {list(a_shape)}"
                )
            out[out.index(None)] = total // known
        sizes = [n for n in out if n is not None]  # every -1 is resolved by now
        if math.prod(sizes) != total:
            raise config.error(f"shape {out} does not hold the {total} elements of {list(a_shape)}")
        # input-dims entries must line up with the raveled order
        for i, item in enumerate(shape_json):
            if isinstance(item, list) and item:
                before = math.prod(sizes[:i])
                after = math.prod(sizes[i + 1 :])
                if before != math.prod(a_shape[: item[0]]) or after != math.prod(
                    a_shape[item[-1] + 1 :]
                ):
                    raise config.error(
                        f"shape[{i}] = {item} does not correspond to the raveled input dimensions"
                    )
        self.output_shape = tuple(sizes)
        self._encoded = spec.with_shape(self.output_shape)

    @property
    def encoded_spec(self) -> ArraySpec:
        return self._encoded

    def encode(self, array: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(array).reshape(self.output_shape)

    def decode(self, array: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(array).reshape(self.decoded_spec.shape)


# ---- packbits ---------------------------------------------------------------------------------

PACKBITS_WIDE = {
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "float32",
    "float64",
    "bfloat16",
    "complex_float32",
    "complex_float64",
    "complex_bfloat16",
    "complex64",
    "complex128",
}
PADDING = {
    "none": "none",
    "first_byte": "first",
    "start_byte": "first",
    "last_byte": "last",
    "end_byte": "last",
}


class PackbitsCodec(ArrayBytesCodec):
    name = "packbits"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration)
        padding = config.choice("padding_encoding", tuple(PADDING), required=False, default="none")
        first = self._bit(config, "first_bit", "start_bit")
        last = self._bit(config, "last_bit", "end_bit")
        config.finish()
        info = spec.info
        if info is None:
            raise _pipe_error(self.name, f"unsupported data type {spec.data_type!r}")
        name = info.name
        if name == "bool":
            width, components, unsigned = 1, 1, np.dtype("u1")
        elif info.bits is not None:
            width, components, unsigned = info.bits, 1, np.dtype("u1")
        elif info.component is not None and info.component.bits is not None:
            width, components, unsigned = info.component.bits, 2, np.dtype("u1")
        elif name in PACKBITS_WIDE:
            components = 2 if info.kind == "complex" else 1
            size = info.itemsize // components
            width, unsigned = size * 8, np.dtype(f"<u{size}")
        else:
            raise _pipe_error(self.name, f"unsupported data type {spec.data_type!r}")
        first = 0 if first is None else first
        last = width - 1 if last is None else last
        if last < first or last >= width:
            raise config.error(
                f"bits {first}..{last} do not fit the {width}-bit components of {name}"
            )
        self.width, self.components, self.unsigned = width, components, unsigned
        self.first, self.last, self.padding = first, last, PADDING[padding]
        self.b = last - first + 1
        self.signed = info.kind == "int"
        self.info = info
        bits = spec.size * components * self.b
        self.pad = (-bits) % 8
        self._size = (bits + self.pad) // 8 + (self.padding != "none")

    @staticmethod
    def _bit(config: Config, name: str, alias: str) -> int | None:
        """`name` (README spelling) or `alias` (schema spelling): an integer >= 0, or null/absent."""
        key = name if config.has(name) else alias
        config.raw(name, False)
        config.raw(alias, False)
        value = config.values.get(key)
        if value is None:
            return None
        if not is_int(value) or value < 0:
            raise config.error(
                f"{key!r} must be a non-negative integer or null, got {describe(value)}"
            )
        return value

    @property
    def encoded_size(self) -> int:
        return self._size

    def _components(self, array: np.ndarray) -> np.ndarray:
        """Each element's components as unsigned integers (N-bit values), flattened in order."""
        info = self.info
        if info.name == "bool":
            return np.ascontiguousarray(array).reshape(-1).view(np.uint8)
        raw = np.ascontiguousarray(info.to_raw(np.ascontiguousarray(array))).reshape(-1)
        fields = raw.dtype.fields
        if fields is not None and raw.dtype.names:  # complex_<small float>: real, imaginary parts
            raw = raw.view(fields[raw.dtype.names[0]][0])
        return raw.view(self.unsigned.newbyteorder("="))

    def encode(self, array: np.ndarray) -> bytes:
        values = self._components(array).astype(np.uint64)
        mask = np.uint64((1 << self.b) - 1)
        parts = (values >> np.uint64(self.first)) & mask
        # one bit per column, least significant first
        shifts = np.arange(self.b, dtype=np.uint64)
        bits = ((parts[:, None] >> shifts[None, :]) & np.uint64(1)).astype(np.uint8).reshape(-1)
        packed = np.packbits(
            np.concatenate([bits, np.zeros(self.pad, np.uint8)]), bitorder="little"
        ).tobytes()
        if self.padding == "first":
            return bytes([self.pad]) + packed
        if self.padding == "last":
            return packed + bytes([self.pad])
        return packed

    def decode(self, data: memoryview) -> np.ndarray:
        if len(data) != self._size:
            raise ChunkError("corrupt-chunk", f"packbits: {len(data)} bytes, expected {self._size}")
        payload = bytes(data)
        if self.padding == "first":
            stated, payload = payload[0], payload[1:]
        elif self.padding == "last":
            stated, payload = payload[-1], payload[:-1]
        else:
            stated = self.pad
        if stated != self.pad:
            raise ChunkError(
                "corrupt-chunk", f"packbits: {stated} padding bits recorded, {self.pad} expected"
            )
        count = self.decoded_spec.size * self.components
        bits = np.unpackbits(np.frombuffer(payload, np.uint8), bitorder="little")[: count * self.b]
        weights = np.uint64(1) << np.arange(self.b, dtype=np.uint64)
        parts = (bits.reshape(count, self.b).astype(np.uint64) * weights).sum(
            axis=1, dtype=np.uint64
        )
        values = parts << np.uint64(self.first)
        if self.signed and self.last == self.width - 1 and self.width < 64:
            pass  # sign bit already in place; the N-bit value is complete
        elif self.signed:
            sign = np.uint64(1) << np.uint64(self.last)
            negative = (values & sign) != 0
            fill = np.uint64(((1 << self.width) - 1) ^ ((1 << (self.last + 1)) - 1))
            values = np.where(negative, values | fill, values)
        return self._assemble(values)

    def _assemble(self, values: np.ndarray) -> np.ndarray:
        info, spec = self.info, self.decoded_spec
        if info.name == "bool":
            if (values > 1).any():
                raise ChunkError(
                    "corrupt-chunk", "packbits: a bool holds a value other than 0 or 1"
                )
            return values.astype(np.bool_).reshape(spec.shape)
        narrow = values.astype(self.unsigned.newbyteorder("="))
        if info.bits is not None or (
            info.component is not None and info.component.bits is not None
        ):
            raw = narrow.astype(np.uint8)
            if info.component is not None:
                out = np.empty(spec.size, dtype=info.dtype)
                pairs = raw.reshape(-1, 2)
                out["real"] = info.component.from_raw(np.ascontiguousarray(pairs[:, 0]))
                out["imag"] = info.component.from_raw(np.ascontiguousarray(pairs[:, 1]))
                return out.reshape(spec.shape)
            return info.from_raw(raw).reshape(spec.shape)
        raw = np.ascontiguousarray(narrow).view(np.uint8)
        return info.from_raw(
            np.frombuffer(raw.tobytes(), dtype=info.raw.newbyteorder("<")).astype(info.raw)
        ).reshape(spec.shape)


# ---- zfp --------------------------------------------------------------------------------------

ZFP_MODES = ("reversible", "expert", "fixed_accuracy", "fixed_rate", "fixed_precision")
ZFP_NATIVE = {"int32": "i4", "int64": "i8", "float32": "f4", "float64": "f8"}
ZFP_PROMOTED = {"int8": 8, "int16": 16, "uint8": 8, "uint16": 16}


class ZfpCodec(ArrayBytesCodec):
    name = "zfp"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration)
        if configuration is None:
            raise config.error("a configuration with 'mode' is required")
        mode = config.choice("mode", ZFP_MODES)
        self.params = {"tolerance": -1.0, "rate": -1.0, "precision": -1}
        if mode == "fixed_accuracy":
            self.params["tolerance"] = self._number(config, "tolerance")
        elif mode == "fixed_rate":
            self.params["rate"] = self._number(config, "rate")
        elif mode == "fixed_precision":
            self.params["precision"] = config.integer("precision", 0, None)
        elif mode == "expert":
            for key in ("minbits", "maxbits", "maxprec"):
                config.integer(key, 0, None)
            config.integer("minexp", -(2**31), None)
        config.finish()
        self.mode = mode
        name = spec.data_type
        if mode == "expert":
            raise ExtensionNotImplemented(
                "unknown-codec",
                "codec 'zfp' in 'expert' mode: zfpy (the zfp library's Python binding) cannot set "
                "minbits/maxbits/maxprec/minexp, so the reference cannot decode it exactly",
                "V3-EXT-004",
            )
        if name not in ZFP_NATIVE and name not in ZFP_PROMOTED:
            raise ExtensionNotImplemented(
                "unknown-codec",
                f"codec 'zfp' on {name!r}: the reference implements int32/int64/float32/float64 and the "
                "int8/int16/uint8/uint16 promotions the registry defines",
                "V3-EXT-004",
            )
        squeezed = tuple(n for n in spec.shape if n != 1) if len(spec.shape) > 4 else spec.shape
        if len(squeezed) > 4:
            raise _pipe_error(
                self.name, f"chunk shape {list(spec.shape)} has more than 4 dimensions of size > 1"
            )
        self.field_shape = squeezed if squeezed else (1,)
        self.promoted = ZFP_PROMOTED.get(name)
        self.storage = np.dtype("i4" if self.promoted else ZFP_NATIVE[name])

    @staticmethod
    def _number(config: Config, key: str) -> float:
        value = config.raw(key, True)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise config.error(f"{key!r} must be a number, got {describe(value)}")
        return float(value)

    def _promote(self, array: np.ndarray) -> np.ndarray:
        n = self.promoted
        assert n is not None  # only for the promoted types
        values = array.astype(np.int64)
        if self.decoded_spec.dtype.kind == "u":
            values = values - (1 << (n - 1))
        return (values << (31 - n)).astype(np.int32)

    def _demote(self, array: np.ndarray) -> np.ndarray:
        n = self.promoted
        assert n is not None  # only for the promoted types
        values = array.astype(np.int64) >> (31 - n)
        if self.decoded_spec.dtype.kind == "u":
            values = np.clip(values + (1 << (n - 1)), 0, (1 << n) - 1)
        else:
            values = np.clip(values, -(1 << (n - 1)), (1 << (n - 1)) - 1)
        return values.astype(self.decoded_spec.dtype)

    def encode(self, array: np.ndarray) -> bytes:
        import zfpy

        data = np.ascontiguousarray(array, dtype=self.decoded_spec.dtype)
        if self.promoted:
            data = self._promote(data)
        data = np.ascontiguousarray(data.reshape(self.field_shape))
        return zfpy.compress_numpy(data, write_header=False, **self.params)

    def decode(self, data: memoryview) -> np.ndarray:
        import zfpy

        ztype = zfpy.dtype_to_ztype(self.storage)
        out = zfpy._decompress(bytes(data), ztype, list(self.field_shape), **self.params)
        out = np.asarray(out).reshape(self.decoded_spec.shape)
        if self.promoted:
            return self._demote(out)
        return out.astype(self.decoded_spec.dtype)


# ---- n5_default -------------------------------------------------------------------------------


class N5DefaultCodec(ArrayBytesCodec):
    name = "n5_default"

    def __init__(self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration)
        if configuration is None:
            raise config.error("a configuration with 'codecs' is required")
        codecs_json = config.raw("codecs", True)
        config.finish()
        if not isinstance(codecs_json, list) or not 2 <= len(codecs_json) <= 3:
            raise config.error(
                "'codecs' must be transpose, bytes and at most one bytes->bytes codec"
            )
        rank = len(spec.shape)
        first, second = codecs_json[0], codecs_json[1]
        order = (first.get("configuration") or {}).get("order") if isinstance(first, dict) else None
        if (
            not isinstance(first, dict)
            or first.get("name") != "transpose"
            or order != list(range(rank - 1, -1, -1))
        ):
            raise config.error(
                f"the first codec must be a full transpose {list(range(rank - 1, -1, -1))}"
            )
        second_name = (
            second
            if isinstance(second, str)
            else second.get("name")
            if isinstance(second, dict)
            else None
        )
        endian = (
            (second.get("configuration") or {}).get("endian") if isinstance(second, dict) else None
        )
        if second_name != "bytes" or (
            endian != "big" and (endian is not None or spec.dtype.itemsize > 1)
        ):
            raise config.error(
                "the second codec must be bytes with endian 'big' (it may be left out for 1-byte types)"
            )
        self.rank = rank
        self.header_size = 4 + 4 * rank
        self.codecs_json = codecs_json
        self.context = context
        self.inner = context.build(codecs_json, spec, "n5_default.codecs")
        if not 1 <= rank <= 65535:
            raise _pipe_error(self.name, "N5 blocks have 1 to 65535 dimensions")

    def encode(self, array: np.ndarray) -> bytes:
        shape = self.decoded_spec.shape
        header = (0).to_bytes(2, "big") + self.rank.to_bytes(2, "big")
        header += b"".join(
            n.to_bytes(4, "big") for n in reversed(shape)
        )  # N5 lists dimensions fastest first
        return header + self.inner.encode(array)

    def decode(self, data: memoryview) -> np.ndarray:
        if len(data) < self.header_size:
            raise ChunkError(
                "corrupt-chunk", f"n5_default: {len(data)} bytes cannot hold the block header"
            )
        mode = int.from_bytes(data[0:2], "big")
        rank = int.from_bytes(data[2:4], "big")
        if mode != 0:
            raise ChunkError(
                "corrupt-chunk", f"n5_default: block mode {mode}, only default (0) is defined"
            )
        if rank != self.rank:
            raise ChunkError(
                "corrupt-chunk",
                f"n5_default: the block has {rank} dimensions, the array {self.rank}",
            )
        dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(rank)]
        block_shape = tuple(reversed(dims))
        spec = self.decoded_spec
        body = data[self.header_size :]
        if block_shape == spec.shape:
            return self.inner.decode(body)
        if math.prod(block_shape) * spec.dtype.itemsize > 4 * max(
            1, spec.size * spec.dtype.itemsize
        ) + (1 << 20):
            raise ChunkError(
                "corrupt-chunk",
                f"n5_default: block shape {list(block_shape)} is far larger than the chunk",
            )
        # a truncated (or padded) block: decode at its own shape, then pad with the fill value or cut
        block = self.context.build(
            self.codecs_json, spec.with_shape(block_shape), "n5_default.codecs"
        ).decode(body)
        out = spec.fill_array()
        common = tuple(slice(0, min(a, b)) for a, b in zip(block_shape, spec.shape))
        out[common] = block[common]
        return out


# ---- conditional ------------------------------------------------------------------------------


class ConditionalCodec(BytesBytesCodec):
    name = "conditional"

    def __init__(
        self, configuration: dict[str, Any] | None, decoded_size: int | None, context: Any = None
    ) -> None:
        super().__init__(configuration, decoded_size)
        from .pipeline import _entry
        from .registry import lookup

        config = Config(self.name, configuration)
        if configuration is None:
            raise config.error("a configuration with 'codecs' is required")
        codecs_json = config.raw("codecs", True)
        if not isinstance(codecs_json, list):
            raise config.error("'codecs' must be a list of bytes->bytes codecs")
        header_bits = config.integer("header_bits", 0, 1 << 16, required=False)
        config.finish()
        if header_bits is None:
            header_bits = math.ceil(len(codecs_json) / 8) * 8
        if header_bits % 8 or header_bits < len(codecs_json):
            raise config.error(
                f"header_bits {header_bits} must be a multiple of 8 and at least {len(codecs_json)}"
            )
        self.header_size = header_bits // 8
        self.codecs = []
        for i, value in enumerate(codecs_json):
            name, nested_config, _ = _entry(value, "conditional.codecs", i)
            cls = lookup(name, False)
            if cls is None:
                raise MetadataError(
                    "unknown-codec", f"conditional.codecs: unknown codec {name!r}", "V3-EXT-004"
                )
            if not issubclass(cls, BytesBytesCodec):
                raise config.error(f"nested codec {name!r} is not a bytes->bytes codec")
            self.codecs.append(cls(nested_config, None))

    def encode(self, data: bytes | memoryview) -> bytes:
        # The default mask skips every nested codec (README, "Runtime Bitmask").
        return bytes(self.header_size) + bytes(data)

    def decode(self, data: memoryview) -> bytes | memoryview:
        if len(data) < self.header_size:
            raise ChunkError(
                "corrupt-chunk",
                f"conditional: {len(data)} bytes cannot hold the {self.header_size}-byte header",
            )
        mask = int.from_bytes(bytes(data[: self.header_size]), "little")
        if mask >> len(self.codecs):
            raise ChunkError("corrupt-chunk", "conditional: reserved header bits are set")
        out = data[self.header_size :]
        for i in reversed(range(len(self.codecs))):
            if mask >> i & 1:
                out = memoryview(self.codecs[i].decode(memoryview(bytes(out))))
        if self.decoded_size is not None and len(out) != self.decoded_size:
            raise ChunkError(
                "corrupt-chunk",
                f"conditional: {len(out)} bytes decoded, expected {self.decoded_size}",
            )
        return out
