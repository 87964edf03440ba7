"""What the benchmark measures: the array (a realistic field, its geometry), the codecs, the
operations and the stores, as the metadata documents and requests the adapters are sent.

Modelled on the public Zarr benchmarks (zarrs/zarr_benchmarks: read all, chunk by chunk, inner
chunk by inner chunk; zstd with and without sharding): a float32 array of `size` MiB in 1 MiB
chunks (512 x 512), sharded variants with shards of 4 x 4 chunks (16 MiB). The sharded blosc
array is the one acquisition writers make (acquire-zarr writes nothing else): its document names
the dimensions ("y", "x"); the others do not, as some writers cannot write names (cpp-zarr).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

DTYPE = np.dtype("<f4")
CHUNK = (512, 512)  # float32: 1 MiB
SHARD_CHUNKS = (4, 4)  # chunks per shard along each dimension: 16 MiB shards
SEED = 20261122
RANDOM_FRACTION = 0.01

CODECS = ("none", "zstd", "gzip", "blosc-zstd", "sharded-zstd", "sharded-blosc-zstd")
OPERATIONS = ("write", "read", "read-random", "read-chunk")
STORES = ("directory", "memory")

CODEC_LABELS = {
    "none": "no compression",
    "zstd": "zstd level 3 (zstd's default)",
    "gzip": "gzip level 1",
    "blosc-zstd": "blosc zstd clevel 5, byte shuffle",
    "sharded-zstd": "16 MiB shards of 1 MiB inner chunks, zstd level 3, crc32c index",
    "sharded-blosc-zstd": "16 MiB shards of 1 MiB inner chunks, blosc zstd clevel 5, byte shuffle, "
    "crc32c index, dimension names (as an acquisition writer, acquire-zarr, writes)",
}
OPERATION_LABELS = {
    "write": "write the whole array (one call)",
    "read": "read the whole array (one call)",
    "read-random": f"read {RANDOM_FRACTION:.0%} of the chunks at random, one call per chunk (fixed seed)",
    "read-chunk": "read one (inner) chunk (one call)",
}
STORE_LABELS = {
    "directory": "local directory (page cache warm, no fsync)",
    "memory": "the implementation's own in-memory store",
}


def make_data(shape) -> np.ndarray:
    """Smooth values plus noise: compressible like real measurements, not like zeros."""
    rng = np.random.default_rng(SEED)
    rows = np.linspace(0, 8 * np.pi, shape[0], dtype=np.float32)[:, None]
    cols = np.linspace(0, 4 * np.pi, shape[1], dtype=np.float32)[None, :]
    data = np.sin(rows) * np.cos(cols) * 100
    data += rng.standard_normal(shape, dtype=np.float32)
    return np.round(data, 2).astype(np.float32)


@dataclass(frozen=True)
class Geometry:
    """A 2-d float32 array of whole 1 MiB chunks, about `size_mib` MiB."""

    grid: tuple[int, int]  # chunks along each dimension

    @classmethod
    def for_size(cls, size_mib: int) -> Geometry:
        if size_mib < 1:
            raise ValueError("--size must be at least 1 (MiB)")
        rows = 2 ** (int(math.log2(size_mib)) // 2)  # near-square, powers of two where possible
        return cls((rows, math.ceil(size_mib / rows)))

    @property
    def shape(self) -> tuple[int, int]:
        return (self.grid[0] * CHUNK[0], self.grid[1] * CHUNK[1])

    @property
    def chunk_shape(self) -> tuple[int, int]:
        return CHUNK

    @property
    def shard_shape(self) -> tuple[int, int]:
        """Shards of up to 4 x 4 chunks (fewer where the array has fewer)."""
        return tuple(c * min(n, g) for c, n, g in zip(CHUNK, SHARD_CHUNKS, self.grid))

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * DTYPE.itemsize

    @property
    def chunk_bytes(self) -> int:
        return math.prod(CHUNK) * DTYPE.itemsize

    def chunk_region(self, index: tuple[int, int]) -> list[list[int]]:
        return [[i * c, (i + 1) * c] for i, c in zip(index, CHUNK)]

    def all_chunks(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.grid[0]) for j in range(self.grid[1])]

    def random_regions(self) -> list[list[list[int]]]:
        """1% of the chunks (at least one), drawn once with a fixed seed, in draw order."""
        chunks = self.all_chunks()
        count = max(1, math.ceil(len(chunks) * RANDOM_FRACTION))
        picks = np.random.default_rng(SEED).choice(len(chunks), size=count, replace=False)
        return [self.chunk_region(chunks[int(i)]) for i in picks]

    def one_region(self) -> list[list[list[int]]]:
        """One chunk (with sharding: one inner chunk of a shard), fixed seed."""
        chunks = self.all_chunks()
        pick = np.random.default_rng(SEED + 1).integers(len(chunks))
        return [self.chunk_region(chunks[int(pick)])]

    def regions(self, operation: str) -> list | None:
        return {
            "read": None,
            "read-random": self.random_regions(),
            "read-chunk": self.one_region(),
        }[operation]

    def bytes_of(self, operation: str) -> int:
        regions = self.regions(operation) if operation != "write" else None
        return self.nbytes if regions is None else len(regions) * self.chunk_bytes

    def warmup(self, codec: str) -> Geometry:
        """A small array for the untimed warm-up (one shard, or 2 x 2 chunks)."""
        if codec.startswith("sharded"):
            return Geometry(tuple(min(n, g) for n, g in zip(SHARD_CHUNKS, self.grid)))
        return Geometry(tuple(min(2, g) for g in self.grid))

    def as_json(self) -> dict:
        return {
            "dtype": "float32",
            "shape": list(self.shape),
            "chunk_shape": list(CHUNK),
            "shard_shape": list(self.shard_shape),
            "chunk_bytes": self.chunk_bytes,
            "nbytes": self.nbytes,
            "chunks": math.prod(self.grid),
            "random_chunks": len(self.random_regions()),
            "random_regions": self.random_regions(),
            "one_region": self.one_region()[0],
            "seed": SEED,
            "data": "smooth field plus noise, rounded to 0.01 (workloads.make_data)",
        }


# ---- codecs -----------------------------------------------------------------------------------

BYTES = {"name": "bytes", "configuration": {"endian": "little"}}
# Level 3 is zstd's default (what level 0 means to libzstd), spelled out: some APIs read 0 as
# "no compression" (netCDF4's complevel: NCZarr then writes no compressor) or do not take it
# (GDAL documents ZSTD_LEVEL from 1). No checksum, left out as writers should (V3-ZSTD-003).
ZSTD = {"name": "zstd", "configuration": {"level": 3}}
V3_COMPRESSORS = {
    "none": [],
    "zstd": [ZSTD],
    "gzip": [{"name": "gzip", "configuration": {"level": 1}}],
    "blosc-zstd": [
        {
            "name": "blosc",
            "configuration": {
                "cname": "zstd",
                "clevel": 5,
                "shuffle": "shuffle",
                "typesize": 4,
                "blocksize": 0,
            },
        }
    ],
}
DIMENSION_NAMES = ["y", "x"]
V2_COMPRESSORS = {
    "none": None,
    "zstd": {"id": "zstd", "level": 3},
    "gzip": {"id": "gzip", "level": 1},
    "blosc-zstd": {"id": "blosc", "cname": "zstd", "clevel": 5, "shuffle": 1, "blocksize": 0},
}


def capabilities_needed(codec: str) -> list[str]:
    """The adapter.toml capabilities a codec workload uses (beyond the format and the operation)."""
    inner = codec.removeprefix("sharded-")
    needed = {
        "none": [],
        "zstd": ["codec:zstd"],
        "gzip": ["codec:gzip"],
        "blosc-zstd": ["codec:blosc"],
    }
    sharding = ["codec:sharding_indexed", "codec:crc32c"] if codec.startswith("sharded-") else []
    return sharding + needed[inner]


def not_applicable(fmt: str, codec: str) -> str | None:
    """Why a format cannot express a codec workload at all (None: it can)."""
    if fmt == "v2" and codec.startswith("sharded"):
        return "format v2 has no sharding"
    return None


def array_document(fmt: str, codec: str, geometry: Geometry) -> dict:
    """The metadata document of the benchmark array in format `fmt` ("v3" or "v2")."""
    if fmt == "v2":
        return {
            "zarr_format": 2,
            "shape": list(geometry.shape),
            "chunks": list(geometry.chunk_shape),
            "dtype": DTYPE.str,
            "compressor": V2_COMPRESSORS[codec],
            "fill_value": 0.0,
            "order": "C",
            "filters": None,
        }
    if codec.startswith("sharded-"):
        grid_chunks = list(geometry.shard_shape)
        codecs = [
            {
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": list(geometry.chunk_shape),
                    "codecs": [BYTES, *V3_COMPRESSORS[codec.removeprefix("sharded-")]],
                    "index_codecs": [BYTES, {"name": "crc32c"}],
                    "index_location": "end",
                },
            }
        ]
    else:
        grid_chunks = list(geometry.chunk_shape)
        codecs = [BYTES, *V3_COMPRESSORS[codec]]
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(geometry.shape),
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": grid_chunks}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0.0,
        "codecs": codecs,
        **({"dimension_names": DIMENSION_NAMES} if codec == "sharded-blosc-zstd" else {}),
    }


def numcodecs_codec(codec: str):
    """The single-thread numcodecs codec of a workload's chunks (None: no compression)."""
    import numcodecs

    if codec in ("zstd", "sharded-zstd"):
        return numcodecs.Zstd(level=3)
    if codec == "gzip":
        return numcodecs.GZip(level=1)
    if codec in ("blosc-zstd", "sharded-blosc-zstd"):
        return numcodecs.Blosc(cname="zstd", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE, blocksize=0)
    return None
