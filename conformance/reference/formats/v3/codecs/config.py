"""Strict reading of codec configuration objects.

Every check raises MetadataError('invalid-codec') naming the codec, the member and, where one
applies, the requirement ID. JSON booleans are never accepted as integers (Python's bool is an int).
"""

from __future__ import annotations

from typing import Any, Literal, overload

from ....errors import MetadataError

_MISSING = object()


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, (bool, int, float, str)):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return type(value).__name__


class Config:
    """A codec's configuration object, read member by member. `finish()` rejects leftovers."""

    def __init__(
        self, codec: str, configuration: dict[str, Any] | None, requirement: str | None = None
    ) -> None:
        self.codec = codec
        self.values: dict[str, Any] = {} if configuration is None else configuration
        self.requirement = requirement
        self._seen: set[str] = set()

    def error(
        self, message: str, requirement: str | None = None, reason: str = "invalid-codec"
    ) -> MetadataError:
        return MetadataError(
            reason, f"codec {self.codec!r}: {message}", requirement or self.requirement
        )

    def raw(self, key: str, required: bool, requirement: str | None = None) -> Any:
        self._seen.add(key)
        value = self.values.get(key, _MISSING)
        if value is _MISSING and required:
            raise self.error(f"configuration member {key!r} is required", requirement)
        return value

    def has(self, key: str) -> bool:
        return key in self.values

    # Required, or optional with a default: always a value; optional without one: maybe None.
    @overload
    def integer(
        self,
        key: str,
        low: int,
        high: int | None,
        requirement: str | None = ...,
        required: Literal[True] = ...,
        default: int | None = ...,
    ) -> int: ...
    @overload
    def integer(
        self,
        key: str,
        low: int,
        high: int | None,
        requirement: str | None = ...,
        *,
        required: bool,
        default: int,
    ) -> int: ...
    @overload
    def integer(
        self,
        key: str,
        low: int,
        high: int | None,
        requirement: str | None = ...,
        required: bool = ...,
        default: int | None = ...,
    ) -> int | None: ...
    def integer(
        self,
        key: str,
        low: int,
        high: int | None,
        requirement: str | None = None,
        required: bool = True,
        default: int | None = None,
    ) -> int | None:
        value = self.raw(key, required, requirement)
        if value is _MISSING:
            return default
        if not is_int(value):
            raise self.error(f"{key!r} must be an integer, got {describe(value)}", requirement)
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f">= {low}"
            raise self.error(f"{key!r} must be an integer {bound}, got {value}", requirement)
        return int(value)

    # Required, or optional with a default: always a value; optional without one: maybe None.
    @overload
    def choice(
        self,
        key: str,
        choices: tuple[str, ...],
        requirement: str | None = ...,
        required: Literal[True] = ...,
        default: str | None = ...,
    ) -> str: ...
    @overload
    def choice(
        self,
        key: str,
        choices: tuple[str, ...],
        requirement: str | None = ...,
        *,
        required: bool,
        default: str,
    ) -> str: ...
    @overload
    def choice(
        self,
        key: str,
        choices: tuple[str, ...],
        requirement: str | None = ...,
        required: bool = ...,
        default: str | None = ...,
    ) -> str | None: ...
    def choice(
        self,
        key: str,
        choices: tuple[str, ...],
        requirement: str | None = None,
        required: bool = True,
        default: str | None = None,
    ) -> str | None:
        value = self.raw(key, required, requirement)
        if value is _MISSING:
            return default
        if not isinstance(value, str) or value not in choices:
            raise self.error(
                f"{key!r} must be one of {list(choices)}, got {describe(value)}", requirement
            )
        return value

    # Required, or optional with a default: always a value; optional without one: maybe None.
    @overload
    def boolean(
        self,
        key: str,
        requirement: str | None = ...,
        required: Literal[True] = ...,
        default: bool | None = ...,
    ) -> bool: ...
    @overload
    def boolean(
        self, key: str, requirement: str | None = ..., *, required: bool, default: bool
    ) -> bool: ...
    @overload
    def boolean(
        self,
        key: str,
        requirement: str | None = ...,
        required: bool = ...,
        default: bool | None = ...,
    ) -> bool | None: ...
    def boolean(
        self,
        key: str,
        requirement: str | None = None,
        required: bool = True,
        default: bool | None = None,
    ) -> bool | None:
        value = self.raw(key, required, requirement)
        if value is _MISSING:
            return default
        if not isinstance(value, bool):
            raise self.error(f"{key!r} must be a boolean, got {describe(value)}", requirement)
        return value

    def finish(self) -> None:
        extra = sorted(set(self.values) - self._seen)
        if extra:
            raise self.error(f"unknown configuration member(s) {extra}")


def positive_int_list(config: Config, key: str, requirement: str, reason: str) -> tuple[int, ...]:
    """A required JSON array of positive integers (a chunk shape)."""
    value = config.raw(key, True, requirement)
    if not isinstance(value, list) or not all(is_int(v) and v > 0 for v in value):
        raise config.error(
            f"{key!r} must be an array of positive integers, got {describe(value)}",
            requirement,
            reason,
        )
    return tuple(value)
