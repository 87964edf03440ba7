"""ZOM models for Zarr v3 (ZEP 6's v3 schema with the defects of ZOM-009..013 fixed).

An array is the `zarr.json` document (its `attributes` included, as in v3 itself) and never has
`members` (ZOM-002, ZOM-003). A group is the group `zarr.json` plus `members` (ZOM-004). Extension
members that v3 lets through (`{"must_understand": false, ...}`, V3-ARR-010 / V3-GRP-003) are kept
as extra properties; a metadata property called `members` appears as `_members` (ZOM-006).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, ClassVar, Literal, NotRequired, Union

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    model_validator,
    with_config,
)
from typing_extensions import TypedDict

from .jsonvalue import json_problem
from .models_common import JsonObject, JsonValue, NodeModel, NonNegativeInt, V3MemberName

ShortName = Annotated[StrictStr, Field(min_length=1)]


@with_config(ConfigDict(extra="forbid", strict=True))
class ExtensionObject(TypedDict):
    """`{"name": ..., "configuration": {...}?, "must_understand": bool?}` (3.1 §Extension definition).
    ZEP 6 required `configuration` and allowed null there: both wrong for v3 (ZOM-010)."""

    name: ShortName
    configuration: NotRequired[JsonObject]
    must_understand: NotRequired[StrictBool]


# 3.1 short-hand: a bare name wherever no configuration is needed (V3-EXT-002, V3-ARR-014).
Extension = ShortName | ExtensionObject


def fill_value_problem(value: Any) -> str | None:
    """The JSON shapes a v3 fill value can take (V3-FILL-001..008), whatever the data type:
    bool, number, string (special floats, "0x" hex, extension types), a complex pair whose parts are
    numbers or strings (`["NaN", 0]`, ZOM-012), or a list of byte values for `r<N>`."""
    if isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "non-finite floats are written as strings"
    if isinstance(value, list):
        if len(value) == 2 and all(
            isinstance(v, str) or (isinstance(v, (int, float)) and not isinstance(v, bool))
            for v in value
        ):
            return None
        if all(type(v) is int and 0 <= v <= 255 for v in value):
            return None
        return "a list fill value is a complex [real, imag] pair or a list of byte values 0..255"
    return f"a v3 fill value cannot be {type(value).__name__}"


def _check_fill(value: Any) -> Any:
    problem = fill_value_problem(value)
    if problem:
        raise ValueError(problem)
    return value


V3FillValue = Annotated[JsonValue, AfterValidator(_check_fill)]


class _V3Node(NodeModel):
    # Extension members ride along as extra properties; `_check_extra_members` vets them.
    model_config = ConfigDict(**{**NodeModel.model_config, "extra": "allow"})

    @model_validator(mode="after")
    def _check_extra_members(self) -> _V3Node:
        for key, value in (self.model_extra or {}).items():
            if key == "members":
                raise ValueError("a ZOM array never has 'members' (ZOM-003)")
            if not (isinstance(value, dict) and value.get("must_understand") is False):
                raise ValueError(
                    f"unknown property {key!r}: v3 only allows extra members that are objects with "
                    '"must_understand": false (V3-ARR-010, V3-GRP-003)'
                )
            problem = json_problem(value)
            if problem:
                raise ValueError(f"property {key!r}: {problem}")
        return self


class ArrayModel(_V3Node):
    """A Zarr v3 array: zarr.json (V3-ARR-003 required members; V3-ARR-006..008 optional ones)."""

    kind: ClassVar[str] = "array"
    version: ClassVar[int] = 3

    zarr_format: Literal[3]
    node_type: Literal["array"]
    shape: list[NonNegativeInt]
    data_type: Extension
    chunk_grid: Extension
    chunk_key_encoding: Extension
    fill_value: V3FillValue
    codecs: Annotated[list[Extension], Field(min_length=1)]
    # null is allowed in the ZOM (ZEP 6) but materialises as an absent key (ZOM-013).
    storage_transformers: list[Extension] | None = None
    dimension_names: list[StrictStr | None] | None = None


V3Member = Annotated[Union[ArrayModel, "GroupModel"], Field(discriminator="node_type")]


class GroupModel(_V3Node):
    """A Zarr v3 group: zarr.json (V3-GRP-001) plus `members`."""

    kind: ClassVar[str] = "group"
    version: ClassVar[int] = 3

    zarr_format: Literal[3]
    node_type: Literal["group"]
    members: dict[V3MemberName, V3Member] = Field(default_factory=dict)


GroupModel.model_rebuild()
