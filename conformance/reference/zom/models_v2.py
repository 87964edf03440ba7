"""ZOM models for Zarr v2 (ZEP 6 with the schema defects of ZOM-014/-015/-016 fixed).

An array is the `.zarray` document plus `attributes` (the `.zattrs` content), never `members`
(ZOM-002, ZOM-003). A group is the `.zgroup` document plus `attributes` and `members`, which maps
valid v2 node names to the direct children (ZOM-004, ZOM-005). `.zgroup` may hold nothing but
`zarr_format` (V2-GROUP-002), and `.zarray` keys outside the spec are refused (V2-META-008), so both
models forbid extra properties.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, Discriminator, Field, StrictStr, Tag

from .models_common import JsonObject, JsonValue, NodeModel, NonNegativeInt, V2MemberName

# A structured dtype nests; deeper than this is refused rather than recursed into.
MAX_DTYPE_DEPTH = 32


def structured_dtype_problem(value: Any) -> str | None:
    """Why `value` is not a v2 dtype shape: a string, or a list of [name, dtype] / [name, dtype,
    shape] fields (V2-DTYPE-007/008). Only the JSON shape is checked here."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        dtype, depth = stack.pop()
        if isinstance(dtype, str):
            continue
        if depth > MAX_DTYPE_DEPTH:
            return f"structured dtype nested deeper than {MAX_DTYPE_DEPTH}"
        if not isinstance(dtype, list):
            return "dtype must be a string or a list of fields"
        for field in dtype:
            if (
                not isinstance(field, list)
                or not 2 <= len(field) <= 3
                or not isinstance(field[0], str)
            ):
                return "a structured dtype field is [name, dtype] or [name, dtype, shape]"
            if len(field) == 3:
                shape = field[2]
                if not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape):
                    return "a structured field shape is a list of non-negative integers"
            stack.append((field[1], depth + 1))
    return None


def _check_dtype(value: Any) -> Any:
    problem = structured_dtype_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def _check_codec(value: dict[str, Any]) -> dict[str, Any]:
    # V2-META-004/005: a compressor or filter is an object with a string "id".
    if not isinstance(value.get("id"), str):
        raise ValueError('a v2 codec is an object with a string "id"')
    return value


V2Dtype = Annotated[StrictStr | list[Any], AfterValidator(_check_dtype)]
V2Codec = Annotated[JsonObject, AfterValidator(_check_codec)]


class ArrayModel(NodeModel):
    """A Zarr v2 array: the `.zarray` keys plus `attributes` (V2-META-001)."""

    kind: ClassVar[str] = "array"
    version: ClassVar[int] = 2

    zarr_format: Literal[2]
    shape: list[NonNegativeInt]
    chunks: list[NonNegativeInt]
    dtype: V2Dtype
    compressor: V2Codec | None
    fill_value: JsonValue
    order: Literal["C", "F"]
    filters: list[V2Codec] | None
    # Optional (V2-META-007); an unset field is absent from the JSON form.
    # absent is allowed, an explicit null is not: the default bypasses the type on purpose
    dimension_separator: Literal[".", "/"] = Field(default=None)  # type: ignore[arg-type]


def _v2_node_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "array" if "shape" in value else "group"
    return getattr(value, "kind", "group")


V2Member = Annotated[
    Annotated[ArrayModel, Tag("array")] | Annotated["GroupModel", Tag("group")],
    Discriminator(_v2_node_kind),
]


class GroupModel(NodeModel):
    """A Zarr v2 group: `.zgroup` (only `zarr_format`) plus `attributes` and `members`."""

    kind: ClassVar[str] = "group"
    version: ClassVar[int] = 2

    zarr_format: Literal[2]
    members: dict[V2MemberName, V2Member] = Field(default_factory=dict)


GroupModel.model_rebuild()
