"""The chunk grids (regular, and the registered rectilinear) and the two chunk key encodings of v3
(V3-GRID-*, V3-CKE-*). An unknown grid or key encoding stops the open (V3-EXT-005): with
'unknown-chunk-grid' / 'unknown-chunk-key-encoding' when zarr-extensions registers the name but
the reference does not implement it (none at present), otherwise 'invalid-chunk-grid' /
'invalid-chunk-key-encoding'."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import ExtensionNotImplemented, LimitError, MetadataError
from ...grid import RectilinearGrid
from . import registry
from .extension import parse_extension

MAX_EDGES = 1 << 22  # explicit chunk edges per axis a rectilinear grid may expand to


def _unknown(point: str, name: str, invalid: str, unknown: str) -> MetadataError:
    if registry.is_registered(point, name):
        why = registry.REFUSED.get((point, name), "the reference does not implement it")
        return ExtensionNotImplemented(
            unknown,
            f"{point} {name!r} is registered in {registry.REGISTRY_COMMIT} but {why}",
            "V3-EXT-005",
        )
    return MetadataError(
        invalid,
        f"unknown {point} {name!r} (not registered in {registry.REGISTRY_COMMIT}; "
        "a reader must refuse to open the array)",
        "V3-EXT-005",
    )


def parse_rectilinear(configuration: Any, rank: int) -> RectilinearGrid:
    """zarr-extensions chunk-grids/rectilinear: kind "inline", one entry of chunk edge lengths per
    dimension (an integer repeated to cover the axis, or a list of lengths and [length, count]
    run-length pairs). The lengths of an axis must add up to at least its extent (checked with the
    shape, see `check_covers`)."""

    def bad(message: str) -> MetadataError:
        return MetadataError(
            "invalid-chunk-grid", f"rectilinear chunk grid: {message}", "V3-GRID-001"
        )

    if not isinstance(configuration, dict) or set(configuration) != {"kind", "chunk_shapes"}:
        raise bad("the configuration must hold exactly 'kind' and 'chunk_shapes'")
    if configuration["kind"] != "inline":
        raise bad(f"kind must be 'inline', got {configuration['kind']!r}")
    shapes = configuration["chunk_shapes"]
    if not isinstance(shapes, list):
        raise bad("chunk_shapes must be a list")
    if len(shapes) != rank:
        raise MetadataError(
            "invalid-chunk-shape",
            f"rectilinear chunk_shapes has {len(shapes)} entries, the array has rank {rank}",
            "V3-ARR-012",
        )
    return (
        RectilinearGrid([_axis_edges(entry, bad) for entry in shapes])
        if rank
        else RectilinearGrid([])
    )


def _positive(value: Any) -> bool:
    return type(value) is int and value >= 1


def _axis_edges(entry: Any, bad: Callable[[str], MetadataError]) -> list[int]:
    if _positive(entry):
        return [entry]  # expanded against the extent in check_covers
    if not isinstance(entry, list):
        raise bad(f"a chunk edge entry must be a positive integer or a list, got {entry!r}")
    edges: list[int] = []
    for item in entry:
        if _positive(item):
            edges.append(item)
        elif (
            isinstance(item, list) and len(item) == 2 and _positive(item[0]) and _positive(item[1])
        ):
            if len(edges) + item[1] > MAX_EDGES:
                raise LimitError(f"a rectilinear axis expands to more than {MAX_EDGES} chunks")
            edges.extend([item[0]] * item[1])
        else:
            raise bad(
                f"{item!r} is neither a positive edge length nor a [length, count] pair of positive integers"
            )
        if len(edges) > MAX_EDGES:
            raise LimitError(f"a rectilinear axis expands to more than {MAX_EDGES} chunks")
    return edges


def check_covers(
    grid: tuple[int, ...], chunk_shapes_json: Any, shape: tuple[int, ...]
) -> tuple[int, ...]:
    """Expand integer entries against the extents and check that every axis is covered."""
    if not isinstance(grid, RectilinearGrid):
        return grid
    edges = []
    for axis, (entry, extent) in enumerate(zip(chunk_shapes_json, shape)):
        if _positive(entry):
            count = -(-extent // entry)
            if count > MAX_EDGES:
                raise LimitError(f"a rectilinear axis expands to more than {MAX_EDGES} chunks")
            edges.append([entry] * count)
        else:
            axis_edges = list(grid.edges[axis])
            if sum(axis_edges) < extent:
                raise MetadataError(
                    "invalid-chunk-grid",
                    f"rectilinear chunk_shapes[{axis}] adds up to "
                    f"{sum(axis_edges)}, less than the extent {extent}",
                    "V3-GRID-001",
                )
            edges.append(axis_edges)
    return RectilinearGrid(edges)


SEPARATORS = ("/", ".")


def parse_chunk_grid(value: Any, rank: int) -> tuple[int, ...]:
    """The chunk shape of a `regular` grid (V3-GRID-001, V3-ARR-012, V3-GRID-009, V3-EXT-005).

    Chunk sizes must be positive integers, even for a zero-length dimension: 3.0 only asks for
    non-zero sizes where the dimension is non-zero, and later text asks for positive sizes; the
    reference takes the stricter reading."""
    ext = parse_extension(value, "chunk_grid", "invalid-chunk-grid", "V3-GRID-001")
    if ext.name == "rectilinear":
        return parse_rectilinear(ext.configuration, rank)
    if ext.name != "regular":
        raise _unknown("chunk grid", ext.name, "invalid-chunk-grid", "unknown-chunk-grid")
    config = ext.config()
    if set(config) != {"chunk_shape"}:
        raise MetadataError(
            "invalid-chunk-grid",
            "a regular grid's configuration must hold exactly 'chunk_shape'",
            "V3-GRID-001",
        )
    chunk_shape = config["chunk_shape"]
    if not isinstance(chunk_shape, list) or not all(type(n) is int for n in chunk_shape):
        raise MetadataError(
            "invalid-chunk-shape",
            f"chunk_shape must be a list of integers, got {chunk_shape!r}",
            "V3-GRID-001",
        )
    if len(chunk_shape) != rank:
        raise MetadataError(
            "invalid-chunk-shape",
            f"chunk_shape {chunk_shape} has rank {len(chunk_shape)}, the array has rank {rank}",
            "V3-ARR-012",
        )
    if any(n <= 0 for n in chunk_shape):
        raise MetadataError(
            "invalid-chunk-shape", f"chunk sizes must be positive, got {chunk_shape}", "V3-GRID-009"
        )
    return tuple(chunk_shape)


@dataclass(frozen=True)
class ChunkKeyEncoding:
    name: str  # 'default' or 'v2'
    separator: str

    def encode(self, index: tuple[int, ...]) -> str:
        """The key suffix of a chunk: canonical decimal indices (V3-CKE-001, -005, -007)."""
        if self.name == "default":
            return self.separator.join(["c", *map(str, index)])  # 0-d: 'c' (V3-CKE-004)
        return self.separator.join(map(str, index)) if index else "0"  # v2; 0-d: '0'

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "configuration": {"separator": self.separator}}


DEFAULT_SEPARATOR = {"default": "/", "v2": "."}


def parse_chunk_key_encoding(value: Any) -> ChunkKeyEncoding:
    """`default` (separator '/' unless given) or `v2` (separator '.' unless given); short-hand
    names are read as 3.1 allows (V3-CKE-002, -003, -005, V3-EXT-002, V3-EXT-005)."""
    ext = parse_extension(value, "chunk_key_encoding", "invalid-chunk-key-encoding", "V3-EXT-001")
    if ext.name not in DEFAULT_SEPARATOR:
        raise _unknown(
            "chunk key encoding",
            ext.name,
            "invalid-chunk-key-encoding",
            "unknown-chunk-key-encoding",
        )
    config = ext.config()
    unknown = sorted(set(config) - {"separator"})
    if unknown:
        raise MetadataError(
            "invalid-chunk-key-encoding", f"unknown configuration members {unknown}", "V3-CKE-003"
        )
    separator = config.get("separator", DEFAULT_SEPARATOR[ext.name])
    if separator not in SEPARATORS or not isinstance(separator, str):
        raise MetadataError(
            "invalid-chunk-key-encoding",
            f"separator must be '/' or '.', got {separator!r}",
            "V3-CKE-003",
        )
    return ChunkKeyEncoding(ext.name, separator)
