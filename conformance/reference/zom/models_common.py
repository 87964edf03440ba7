"""Pieces shared by the v2 and v3 ZOM models: JSON-typed fields and the node base class.

The models check structure only (which properties exist and their JSON types). Whether a data type,
fill value or codec configuration is meaningful is the format modules' job; `to_store` runs every
document through them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt

from .jsonvalue import json_problem
from .names import node_name_problem


def _json_value(value: Any) -> Any:
    problem = json_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def _json_object(value: Any) -> Any:
    if not isinstance(value, dict):
        raise ValueError("must be a JSON object")
    return _json_value(value)


JsonValue = Annotated[Any, AfterValidator(_json_value)]
JsonObject = Annotated[dict[str, Any], AfterValidator(_json_object)]
NonNegativeInt = Annotated[StrictInt, Field(ge=0)]


def _name_checker(zarr_format: int) -> Callable[[str], str]:
    def check(name: str) -> str:
        problem = node_name_problem(name, zarr_format)
        if problem:
            raise ValueError(f"{problem} (ZOM-005)")
        return name

    return check


V2MemberName = Annotated[str, AfterValidator(_name_checker(2))]
V3MemberName = Annotated[str, AfterValidator(_name_checker(3))]


class NodeModel(BaseModel):
    """A ZOM node: every node has `attributes`, a JSON object (ZOM-001)."""

    model_config = ConfigDict(extra="forbid", strict=True, validate_assignment=True)

    kind: ClassVar[str]  # 'array' or 'group'
    version: ClassVar[int]  # the Zarr format the model describes

    attributes: JsonObject
