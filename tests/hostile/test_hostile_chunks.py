"""Corrupt chunks (truncated, random bytes, the wrong compressor, bad checksums, shard indexes
pointing outside the shard, decompression bombs) give ChunkError from the reference, and ERROR
findings with exit 1 from `validate`."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import textwrap
import zlib

import crc32c
import numcodecs
import numpy as np
import pytest

from conformance.reference import DirectoryStore, get_format
from conformance.reference.errors import ChunkError
from conformance.testing.documents import bytes_codec, v1_array, v2_array, v3_array, write_files

RAW = np.arange(16, dtype="<i4").tobytes()  # one chunk of 16 int32
RANDOM = np.random.default_rng(7).integers(0, 256, 301, dtype=np.uint8).tobytes()
GZIP = {"name": "gzip", "configuration": {"level": 1}}
ZSTD = {"name": "zstd", "configuration": {"level": 1, "checksum": False}}
BLOSC = {
    "name": "blosc",
    "configuration": {
        "cname": "lz4",
        "clevel": 5,
        "shuffle": "shuffle",
        "typesize": 4,
        "blocksize": 0,
    },
}
CRC = {"name": "crc32c"}


def with_crc(data: bytes) -> bytes:
    return data + crc32c.crc32c(data).to_bytes(4, "little")


def flip(data: bytes, at: int = 0) -> bytes:
    out = bytearray(data)
    out[at] ^= 0x10
    return bytes(out)


def shard(index: list[tuple[int, int]], body: bytes, crc: bool = True) -> bytes:
    table = np.array(index, dtype="<u8").tobytes()
    return body + (with_crc(table) if crc else table)


SHARDING = {
    "name": "sharding_indexed",
    "configuration": {
        "chunk_shape": [8],
        "codecs": [bytes_codec()],
        "index_codecs": [bytes_codec(), CRC],
        "index_location": "end",
    },
}


def v3(codecs, chunk):
    return "v3", {"zarr.json": v3_array([16], [16], codecs=codecs), "c/0": chunk}


def v2(compressor, chunk, **extra):
    return "v2", {".zarray": v2_array([16], [16], compressor=compressor, **extra), "0": chunk}


CASES = {
    "v3 bytes truncated": v3([bytes_codec()], RAW[:-1]),
    "v3 bytes too long": v3([bytes_codec()], RAW + b"\0"),
    "v3 gzip truncated": v3([bytes_codec(), GZIP], gzip.compress(RAW)[:-9]),
    "v3 gzip random bytes": v3([bytes_codec(), GZIP], RANDOM),
    "v3 gzip holding zstd": v3([bytes_codec(), GZIP], numcodecs.Zstd().encode(RAW)),
    "v3 gzip of the wrong size": v3([bytes_codec(), GZIP], gzip.compress(RAW[:40])),
    "v3 zstd random bytes": v3([bytes_codec(), ZSTD], RANDOM),
    "v3 zstd holding gzip": v3([bytes_codec(), ZSTD], gzip.compress(RAW)),
    "v3 zstd truncated": v3([bytes_codec(), ZSTD], numcodecs.Zstd().encode(RAW)[:-3]),
    "v3 blosc random bytes": v3([bytes_codec(), BLOSC], RANDOM),
    "v3 blosc truncated": v3([bytes_codec(), BLOSC], numcodecs.Blosc("lz4", 5, 1).encode(RAW)[:-5]),
    "v3 crc32c flipped bit": v3([bytes_codec(), CRC], flip(with_crc(RAW), 5)),
    "v3 crc32c too short": v3([bytes_codec(), CRC], b"\1\2\3"),
    "v3 shard index past the end": v3([SHARDING], shard([(0, 32), (4000, 32)], RAW)),
    "v3 shard index overflowing": v3([SHARDING], shard([(0, 32), (2**63, 2**63)], RAW)),
    "v3 shard index bad crc": v3([SHARDING], flip(shard([(0, 32), (32, 32)], RAW), 70)),
    "v3 shard truncated": v3([SHARDING], shard([(0, 32), (32, 32)], RAW)[:20]),
    "v3 shard inner chunk of the wrong size": v3([SHARDING], shard([(0, 31), (31, 33)], RAW)),
    "v2 raw of the wrong size": v2(None, RAW[:-4]),
    "v2 zlib truncated": v2({"id": "zlib", "level": 1}, zlib.compress(RAW)[:-4]),
    "v2 zlib random bytes": v2({"id": "zlib", "level": 1}, RANDOM),
    "v2 zlib holding gzip": v2({"id": "zlib", "level": 1}, gzip.compress(RAW)),
    "v2 blosc random bytes": v2(
        {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}, RANDOM
    ),
    "v2 blosc holding zlib": v2(
        {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
        zlib.compress(RAW),
    ),
    "v2 unknown compressor": v2({"id": "no-such-codec"}, RAW),
    "v1 zlib truncated": (
        "v1",
        {
            "meta": v1_array([16], [16], compression="zlib", compression_opts=1),
            "attrs": {},
            "0": zlib.compress(RAW)[:-4],
        },
    ),
}
CHUNK_REASONS = ("corrupt-chunk", "checksum-mismatch", "corrupt-shard-index")


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_raises_chunk_error(tmp_path, name):
    format, files = CASES[name]
    store = DirectoryStore(write_files(tmp_path / "store", files), read_only=True)
    fmt = get_format(format)
    if (
        name == "v2 unknown compressor"
    ):  # refused when opened, before any chunk is read (V2-CHUNK-008)
        with pytest.raises(Exception) as info:
            fmt.open_node(store, "")[...]
        assert info.value.reason == "unknown-codec"
        return
    array = fmt.open_node(store, "")
    with pytest.raises(ChunkError) as info:
        array.read_chunk((0,))
    assert info.value.reason in CHUNK_REASONS
    with pytest.raises(ChunkError):
        array[...]


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_reports_each_corrupt_chunk(tmp_path, validate_cli, name):
    _format, files = CASES[name]
    root = write_files(tmp_path / "store", files)
    output = validate_cli(root)
    assert output.code == 1, output
    assert "Traceback" not in output.out + output.err
    reasons = {f[2] for f in output.findings if f[0] == "ERROR"}
    assert reasons & {*CHUNK_REASONS, "unknown-codec"}, output


def test_a_good_chunk_of_each_kind_passes(tmp_path, validate_cli):
    """The same stores with intact chunks pass: the failures above are the corruption's."""
    good = {
        "v3 bytes": v3([bytes_codec()], RAW),
        "v3 gzip": v3([bytes_codec(), GZIP], gzip.compress(RAW)),
        "v3 zstd": v3([bytes_codec(), ZSTD], numcodecs.Zstd().encode(RAW)),
        "v3 blosc": v3([bytes_codec(), BLOSC], numcodecs.Blosc("lz4", 5, 1).encode(RAW)),
        "v3 crc32c": v3([bytes_codec(), CRC], with_crc(RAW)),
        "v3 shard": v3([SHARDING], shard([(32, 32), (0, 32)], RAW[32:] + RAW[:32])),
        "v2 zlib": v2({"id": "zlib", "level": 1}, zlib.compress(RAW)),
        "v1 zlib": (
            "v1",
            {
                "meta": v1_array([16], [16], compression="zlib", compression_opts=1),
                "attrs": {},
                "0": zlib.compress(RAW),
            },
        ),
    }
    for name, (format, files) in good.items():
        root = write_files(tmp_path / name.replace(" ", "_"), files)
        output = validate_cli(root)
        assert output.code == 0 and "1 chunk checked" in output.summary, (name, output)
        assert get_format(format).open_node(DirectoryStore(root), "")[...].tobytes() == RAW


# ---- decompression bombs ---------------------------------------------------------------------
BOMB_BYTES = 32 << 20  # inflates to 32 MiB; the chunk holds 64 bytes
BOMB_SCRIPT = textwrap.dedent("""
    import sys, time, tracemalloc
    from conformance.reference import DirectoryStore, get_format
    from conformance.reference.errors import ChunkError
    array = get_format(sys.argv[2]).open_node(DirectoryStore(sys.argv[1]), "")
    tracemalloc.start()  # Python, bytes and NumPy buffers: where an inflated bomb would land
    started = time.monotonic()
    try:
        array.read_chunk((0,))
        outcome = "no error"
    except ChunkError as exc:
        outcome = "ChunkError"
    peak = tracemalloc.get_traced_memory()[1] >> 20
    print(outcome, peak, round(time.monotonic() - started, 2))
""")


def bomb(name: str):
    zeros = bytes(BOMB_BYTES)
    if name == "v3 gzip":
        return v3([bytes_codec(), GZIP], gzip.compress(zeros, 6))
    if name == "v3 zstd":
        return v3([bytes_codec(), ZSTD], numcodecs.Zstd(level=3).encode(zeros))
    if name == "v2 zlib":
        return v2({"id": "zlib", "level": 1}, zlib.compress(zeros, 6))
    return v2(
        {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
        numcodecs.Blosc("lz4", 5, 1).encode(zeros),
    )


@pytest.mark.parametrize("name", ["v3 gzip", "v3 zstd", "v2 zlib", "v2 blosc"])
def test_decompression_bomb_is_refused_without_inflating_it(tmp_path, name):
    format, files = bomb(name)
    root = write_files(tmp_path / "store", files)
    done = subprocess.run(
        [sys.executable, "-c", BOMB_SCRIPT, str(root), format],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    outcome, peak_mib, _seconds = done.stdout.split()
    assert outcome == "ChunkError", done.stderr
    assert int(peak_mib) < 8, (
        f"decoding a {len(files['c/0' if format == 'v3' else '0'])}-byte chunk took {peak_mib} MiB"
    )
