"""Hand encoders for the v3 codec, pipeline and sharding cases (the v3_codecs_* and v3_shard_*
builder modules).

Every stored byte of these cases is produced here from the codec JSON, with NumPy (`bytes`,
`transpose`), the standard library (`gzip` with mtime 0, `struct`), numcodecs' Blosc and Zstd with
fixed settings and the `crc32c` package, so the corpus pins the byte formats independently of the
reference writer. Shards are assembled from their inner chunks and a hand-built (offset, nbytes)
index; the helpers can leave inner chunks empty, store them in any order and put junk between them.
"""

from __future__ import annotations

import gzip
import struct
from collections.abc import Callable, Iterable
from typing import Any

import crc32c
import numcodecs
import numpy as np

from ..generator import add_case
from .v3_kit import (
    array_doc,
    bytes_codec,
    default_key,
    encode_block,
    fill_array,
    grid,
    junk_block,
    region,
)

EMPTY = 2**64 - 1  # both fields of an empty inner chunk's index entry (V3-SHARD-007)
EMPTY_ENTRY = b"\xff" * 16
SHUFFLES = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}

# non-zero fills, exact in every width, with the bits the reader must produce for missing chunks
FILLS: dict[str, Any] = {
    "bool": True,
    "int8": -7,
    "int16": -7,
    "int32": -7,
    "int64": -7,
    "uint8": 42,
    "uint16": 42,
    "uint32": 42,
    "uint64": 42,
    "float16": 0.5,
    "float32": 0.5,
    "float64": 0.5,
    "complex64": [0.5, -1.0],
    "complex128": [0.5, -1.0],
}


def fill_bits(fill: Any, dtype: np.dtype) -> np.ndarray:
    """The exact 0-d value a JSON fill stands for (complex fills are [real, imag])."""
    if dtype.kind == "c":
        return np.array(complex(*fill), dtype=dtype)
    return np.array(fill, dtype=dtype)


# ---- codec JSON ----------------------------------------------------------------------------------


def transpose(order) -> dict:
    return {"name": "transpose", "configuration": {"order": list(order)}}


def gzip_codec(level: int = 1) -> dict:
    return {"name": "gzip", "configuration": {"level": level}}


def blosc_codec(
    cname: str = "lz4",
    clevel: int = 5,
    shuffle: str = "shuffle",
    typesize: int | None = 4,
    blocksize: int = 0,
) -> dict:
    configuration: dict = {"cname": cname, "clevel": clevel, "shuffle": shuffle}
    if typesize is not None:
        configuration["typesize"] = typesize
    configuration["blocksize"] = blocksize
    return {"name": "blosc", "configuration": configuration}


def zstd_codec(level: int = 3, checksum: bool | None = None) -> dict:
    configuration: dict = {"level": level}
    if checksum is not None:
        configuration["checksum"] = checksum
    return {"name": "zstd", "configuration": configuration}


CRC32C = {"name": "crc32c"}
LE = bytes_codec("little")
BE = bytes_codec("big")
RAW = {"name": "bytes"}  # one-byte types take no endian


def sharding(
    chunk_shape, codecs=None, index_codecs=None, index_location: str | None = "end"
) -> dict:
    configuration: dict = {
        "chunk_shape": list(chunk_shape),
        "codecs": codecs if codecs is not None else [LE],
        "index_codecs": index_codecs if index_codecs is not None else [LE, CRC32C],
    }
    if index_location is not None:
        configuration["index_location"] = index_location
    return {"name": "sharding_indexed", "configuration": configuration}


# ---- byte formats by hand ------------------------------------------------------------------------


def gzip_bytes(data: bytes, level: int = 1) -> bytes:
    return gzip.compress(bytes(data), compresslevel=level, mtime=0)


def crc_bytes(data: bytes) -> bytes:
    """CRC-32C of `data` as a little-endian uint32 (V3-CRC-002)."""
    return struct.pack("<I", crc32c.crc32c(bytes(data)))


def with_crc(data: bytes) -> bytes:
    return bytes(data) + crc_bytes(data)


def blosc_bytes(
    data: bytes,
    cname: str = "lz4",
    clevel: int = 5,
    shuffle: str = "shuffle",
    typesize: int = 4,
    blocksize: int = 0,
) -> bytes:
    codec = numcodecs.Blosc(
        cname=cname,
        clevel=clevel,
        shuffle=SHUFFLES[shuffle],
        blocksize=blocksize,
        typesize=typesize,
    )
    return bytes(codec.encode(bytes(data)))


def zstd_bytes(data: bytes, level: int = 3, checksum: bool = False) -> bytes:
    return bytes(numcodecs.Zstd(level=level, checksum=checksum).encode(bytes(data)))


def zstd_raw_frame(data: bytes) -> bytes:
    """One RFC 8878 frame holding `data` as raw blocks, written without a Frame_Content_Size (as
    streaming compressors do): readers must not need the size declared in the frame header."""
    out = bytearray(struct.pack("<I", 0xFD2FB528))
    out.append(0x00)  # descriptor: no content size, not single-segment, no checksum, no dictionary
    out.append(0x30)  # window descriptor: 2^(10+6) = 64 KiB >= any block here
    data = bytes(data)
    blocks = [data[i : i + 65536] for i in range(0, len(data), 65536)] or [b""]
    for i, block in enumerate(blocks):
        last = 1 if i == len(blocks) - 1 else 0
        out += (len(block) << 3 | 0 << 1 | last).to_bytes(3, "little")  # block type 0 = raw
        out += block
    return bytes(out)


def encode(block: np.ndarray, codecs: list, *, empty: Iterable = (), **shard_options) -> bytes:
    """Encode a chunk with the codec list by hand. `empty` and `shard_options` apply to a top-level
    sharding codec (inner positions marked empty, storage order, gaps)."""
    value: Any = block
    for codec in codecs:
        name = codec if isinstance(codec, str) else codec["name"]
        conf = {} if isinstance(codec, str) else codec.get("configuration") or {}
        if name == "transpose":
            value = np.transpose(value, conf["order"])
        elif name == "bytes":
            value = encode_block(np.ascontiguousarray(value), conf.get("endian"))
        elif name == "sharding_indexed":
            value = encode_shard(value, conf, empty=empty, **shard_options)
        elif name == "gzip":
            value = gzip_bytes(value, conf["level"])
        elif name == "blosc":
            value = blosc_bytes(
                value,
                conf["cname"],
                conf["clevel"],
                conf["shuffle"],
                conf.get("typesize", 1),
                conf["blocksize"],
            )
        elif name == "zstd":
            value = zstd_bytes(value, conf["level"], conf.get("checksum", False))
        elif name == "crc32c":
            value = with_crc(value)
        else:
            raise ValueError(f"no hand encoder for codec {name!r}")
    return bytes(value)


def inner_blocks(block: np.ndarray, inner_shape) -> dict[tuple[int, ...], np.ndarray]:
    """The inner chunks of a shard-shaped array, by inner grid position (C order)."""
    per_shard = tuple(s // c for s, c in zip(block.shape, inner_shape))
    return {
        pos: block[tuple(slice(p * c, (p + 1) * c) for p, c in zip(pos, inner_shape))]
        for pos in np.ndindex(*per_shard)
    }


def index_size(conf: dict, per_shard) -> int:
    dummy = np.zeros(tuple(per_shard) + (2,), dtype=np.uint64)
    return len(encode(dummy, conf["index_codecs"]))


def assemble_shard(
    blobs: dict, conf: dict, per_shard, *, order=None, gap: bytes = b"", lead: bytes = b""
) -> bytes:
    """A shard from encoded inner chunks (`blobs`: position -> bytes; positions not in it are
    empty): chunks in `order` (default C order), `gap` between consecutive chunks and `lead` before
    the first, offsets from the start of the shard value, index encoded with `index_codecs` at
    `index_location` (V3-SHARD-006/009/010/011)."""
    at_start = conf.get("index_location", "end") == "start"
    base = index_size(conf, per_shard) if at_start else 0
    index = np.full(tuple(per_shard) + (2,), EMPTY, dtype=np.uint64)
    body = bytearray(lead)
    for k, pos in enumerate(order if order is not None else sorted(blobs)):
        if k:
            body += gap
        index[pos] = (base + len(body), len(blobs[pos]))
        body += blobs[pos]
    encoded_index = encode(index, conf["index_codecs"])
    return encoded_index + bytes(body) if at_start else bytes(body) + encoded_index


def encode_shard(
    block: np.ndarray,
    conf: dict,
    *,
    empty: Iterable = (),
    order=None,
    gap: bytes = b"",
    lead: bytes = b"",
) -> bytes:
    inner_shape = conf["chunk_shape"]
    per_shard = tuple(s // c for s, c in zip(block.shape, inner_shape))
    empty = set(map(tuple, empty))
    blobs = {
        pos: encode(sub, conf["codecs"])
        for pos, sub in inner_blocks(block, inner_shape).items()
        if pos not in empty
    }
    return assemble_shard(blobs, conf, per_shard, order=order, gap=gap, lead=lead)


# ---- whole arrays --------------------------------------------------------------------------------


def put_chunks(
    w,
    doc: dict,
    data: np.ndarray,
    fill: np.ndarray,
    *,
    skip=(),
    prefix: str = "",
    empty_inner: Callable[[tuple], Iterable] | None = None,
    key=default_key,
    encoder: Callable[[np.ndarray, tuple], bytes] | None = None,
) -> np.ndarray:
    """Write `doc` and every chunk (shard) of `data` except those in `skip`, encoded by hand with the
    document's codecs; overhang is junk. For sharded arrays `empty_inner(chunk index)` names the
    inner positions to mark empty: they read as fill unless wholly outside the array. Returns the
    expected array."""
    shape = tuple(doc["shape"])
    chunks = tuple(doc["chunk_grid"]["configuration"]["chunk_shape"])
    w.put_json(prefix + "zarr.json", doc)
    expected = data.copy()
    shard_codec = next(
        (c for c in doc["codecs"] if isinstance(c, dict) and c.get("name") == "sharding_indexed"),
        None,
    )
    # behind a transpose the inner grid is in transposed coordinates: no empty inner chunks there
    sharded = shard_codec is not None and not any(
        isinstance(c, dict) and c.get("name") == "transpose" for c in doc["codecs"]
    )
    inner_shape = tuple(shard_codec["configuration"]["chunk_shape"]) if sharded else None
    for index in np.ndindex(*grid(shape, chunks)):
        where = region(index, chunks, shape)
        if index in skip:
            expected[where] = fill_array(fill, tuple(s.stop - s.start for s in where))
            continue
        block = junk_block(chunks, data.dtype, fill)
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        empties = set(map(tuple, empty_inner(index))) if empty_inner and sharded else set()
        per_shard = [c // n for c, n in zip(chunks, inner_shape)] if sharded else []
        if any(
            len(p) != len(per_shard) or any(not 0 <= q < n for q, n in zip(p, per_shard))
            for p in empties
        ):
            raise ValueError(
                f"empty inner positions {sorted(empties)} outside the {per_shard} inner grid"
            )
        for pos in empties:  # the part of an empty inner chunk inside the array reads as fill
            inner = tuple(
                slice(min(i * c + p * n, s), min(i * c + (p + 1) * n, s))
                for i, c, p, n, s in zip(index, chunks, pos, inner_shape, shape)
            )
            expected[inner] = fill_array(fill, tuple(s.stop - s.start for s in inner))
        if encoder is not None:
            value = encoder(block, index)
        else:
            value = encode(block, doc["codecs"], empty=empties)
        w.put(prefix + key(index), value)
    return expected


def outside_inner(index, chunks, inner_shape, shape) -> set[tuple[int, ...]]:
    """Inner positions of shard `index` that lie wholly outside the array."""
    per_shard = [c // n for c, n in zip(chunks, inner_shape)]
    return {
        pos
        for pos in np.ndindex(*per_shard)
        if any(i * c + p * n >= s for i, c, p, n, s in zip(index, chunks, pos, inner_shape, shape))
    }


def read_case(
    case_id: str,
    requirements,
    description: str,
    build: Callable,
    *,
    needs=(),
    tier: str | None = None,
    question: str | None = None,
) -> None:
    add_case(
        case_id,
        kind="read",
        build=build,
        needs=needs,
        tier=tier,
        question=question,
        requirements=requirements,
        description=description,
    )


def zero_fill(data_type: str) -> Any:
    """The JSON fill value meaning zero for a data type."""
    if data_type == "bool":
        return False
    if data_type.startswith("complex"):
        return [0.0, 0.0]
    if data_type.startswith("r") and data_type[1:].isdigit():
        return [0] * (int(data_type[1:]) // 8)
    return 0


def one_chunk_doc(
    value: np.ndarray, data_type: str, codecs: list, fill: Any = None, **extra
) -> dict:
    """An array document whose single chunk is the whole array."""
    fill = zero_fill(data_type) if fill is None else fill
    return array_doc(value.shape, value.shape, data_type, fill, codecs=codecs, **extra)


def needs_for(codecs: list) -> list[str]:
    """codec:<name> for every codec in the list, nested ones included, plus sharding features."""
    out: set[str] = set()
    for codec in codecs:
        name = codec if isinstance(codec, str) else codec.get("name")
        if not isinstance(name, str):
            continue
        if name in ("bytes", "transpose", "gzip", "blosc", "zstd", "crc32c", "sharding_indexed"):
            out.add(f"codec:{name}")
        if (
            isinstance(codec, dict)
            and name == "bytes"
            and (codec.get("configuration") or {}).get("endian") == "big"
        ):
            out.add("dtype:big-endian")
        if name == "sharding_indexed" and isinstance(codec, dict):
            conf = codec.get("configuration") or {}
            if conf.get("index_location") == "start":
                out.add("feature:sharding-index-start")
            nested = [c for c in conf.get("codecs") or [] if isinstance(c, dict)]
            if any(c.get("name") == "sharding_indexed" for c in nested):
                out.add("feature:sharding-nested")
            for sub in ("codecs", "index_codecs"):
                value = conf.get(sub)
                if isinstance(value, list):
                    out.update(needs_for(value))
    return sorted(out)
