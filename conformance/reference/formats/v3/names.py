"""Node names, hierarchy paths and metadata keys of Zarr v3 (V3-KEY-*, V3-NAME-*).

A user path such as '/foo/bar' becomes the normal form 'foo/bar' ('' is the root). Names are
compared exactly: case-sensitive and never Unicode-normalised (V3-NAME-006, V3-NAME-008).
"""

from __future__ import annotations

from ...errors import PathError

METADATA_KEY = "zarr.json"
RESERVED_PREFIX = "__"


def name_problem(name: str) -> str | None:
    """Why `name` is not a valid v3 node name (V3-NAME-001..004), or None when it is valid."""
    if name == "":
        return "a node name must not be empty (V3-NAME-001)"
    if "/" in name:
        return "a node name must not contain '/' (V3-NAME-002)"
    if name.strip(".") == "":
        return "a node name must not consist only of periods (V3-NAME-003)"
    if name.startswith(RESERVED_PREFIX):
        return "names starting with '__' are reserved (V3-NAME-004)"
    return None


def check_node_name(name: str) -> str:
    if not isinstance(name, str):
        raise PathError(
            "invalid-node-name", f"a node name must be a string, got {type(name).__name__}"
        )
    problem = name_problem(name)
    if problem:
        raise PathError(
            "invalid-node-name", f"invalid node name {name!r}: {problem}", _requirement(problem)
        )
    return name


def _requirement(problem: str) -> str | None:
    start = problem.find("(V3-")
    return problem[start + 1 : -1] if start >= 0 else None


def normalize_path(path: str) -> str:
    """A hierarchy path in normal form. The root is '' (or '/'); one leading '/' is allowed and
    dropped (V3-KEY-002); every remaining '/'-separated segment must be a valid node name, so
    'a//b', 'a/' and 'a/../b' are rejected rather than repaired."""
    if not isinstance(path, str):
        raise PathError("invalid-path", f"a node path must be a string, got {type(path).__name__}")
    if path.startswith("/"):
        path = path[1:]
    if path == "":
        return ""
    for name in path.split("/"):
        check_node_name(name)
    return path


def join_path(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


def ancestors(path: str) -> list[str]:
    """The ancestor paths of a normalised path, root first: 'a/b/c' -> ['', 'a', 'a/b']."""
    if path == "":
        return []
    parts = path.split("/")
    return ["/".join(parts[:i]) for i in range(len(parts))]


def node_prefix(path: str) -> str:
    """The key prefix of a node: '' for the root, 'a/b/' otherwise (V3-KEY-003)."""
    return f"{path}/" if path else ""


def metadata_key(path: str) -> str:
    """'zarr.json' for the root, 'a/b/zarr.json' otherwise (V3-KEY-001, V3-KEY-002)."""
    return node_prefix(path) + METADATA_KEY
