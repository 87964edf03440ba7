"""Member names and the `members` name-clash rule of ZEP 6.

ZOM-005: the keys of `members` are valid node names for the node's Zarr version.
ZOM-006: a group whose own metadata has a `members` property keeps it as `_members` in the ZOM
(or `__members`, ... when `_members` is taken too), so that the ZOM's `members` always means the
children.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import UnsupportedError

# v3 core "Node names": not empty, no '/', not only periods, no reserved '__' prefix (V3-NAME-001..004).
# `zarr.json` as a name (V3-NAME-005) is a 2026 HEAD addition, not stable: not enforced here.
_ONLY_PERIODS = re.compile(r"^\.+$")
# v2 keys are ASCII (V2-STORE-001); '\' is a path separator after v2 normalisation (V2-KEY-001)
# and '.' / '..' segments are errors (V2-KEY-005).
_V2_NAME = re.compile(r"^[\x00-\x7f]+$")


def node_name_problem(name: object, zarr_format: int) -> str | None:
    """Why `name` is not a valid node name for that Zarr version (None when it is valid)."""
    if not isinstance(name, str):
        return f"node names are strings, got {type(name).__name__}"
    if name == "":
        return "a node name must not be empty"
    if "/" in name:
        return f"node name {name!r} contains '/'"
    if zarr_format == 2:
        if "\\" in name:
            return f"node name {name!r} contains '\\', a v2 path separator (V2-KEY-001)"
        if name in (".", ".."):
            return f"node name {name!r} is a '.' or '..' segment (V2-KEY-005)"
        if not _V2_NAME.match(name):
            return f"node name {name!r} is not ASCII (V2-STORE-001)"
        return None
    if _ONLY_PERIODS.match(name):
        return f"node name {name!r} is made only of periods (V3-NAME-003)"
    if name.startswith("__"):
        return f"node name {name!r} starts with the reserved prefix '__' (V3-NAME-004)"
    return None


# ---- the `members` name clash (ZOM-006) -----------------------------------------------------

_UNDERSCORED_MEMBERS = re.compile(r"^(_*)members$")


def _clash_name(taken: set[str]) -> str:
    """The ZEP's rule: the first of `_members`, `__members`, ... that the metadata does not use."""
    name = "_members"
    while name in taken:
        name = "_" + name
    return name


def metadata_to_zom_keys(metadata: dict[str, Any]) -> dict[str, Any]:
    """Rename a metadata `members` property so it cannot clash with the ZOM's `members` (ZOM-006).

    The ZEP's rule is not invertible in every case (metadata holding `_members` but no `members`
    reads back as if `_members` were the renamed `members`); such metadata is refused rather than
    silently changed on the way back."""
    if "members" not in metadata:
        if any(_UNDERSCORED_MEMBERS.match(k) for k in metadata):
            raise UnsupportedError(
                "metadata has an underscore-prefixed 'members' property but no 'members'; the ZEP 6 "
                "name-clash rule cannot represent it unambiguously",
                "ZOM-006",
            )
        return dict(metadata)
    renamed = _clash_name(set(metadata))
    out = {}
    for key, value in metadata.items():
        out[renamed if key == "members" else key] = value
    if zom_to_metadata_keys(out) != metadata:
        raise UnsupportedError(
            "metadata 'members' / '_members' properties cannot be renamed reversibly (ZEP 6 name-clash rule)",
            "ZOM-006",
        )
    return out


def zom_to_metadata_keys(properties: dict[str, Any]) -> dict[str, Any]:
    """Undo `metadata_to_zom_keys`: the last key of the run `_members`, `__members`, ... is the
    metadata's own `members`."""
    if "_members" not in properties:
        return dict(properties)
    renamed = "_members"
    while "_" + renamed in properties:
        renamed = "_" + renamed
    return {("members" if key == renamed else key): value for key, value in properties.items()}
