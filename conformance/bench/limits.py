"""The physical limits, measured on the same data in the same run: a memory copy, a raw file
write and read of the same bytes (one file, one thread, no fsync; reads and copies go to freshly
allocated memory, as a reader's output must), and single-thread encode and decode of each codec
(numcodecs, one 1 MiB chunk at a time).

From them `limit_mb_s` derives the single-thread pipeline limit of each workload: the time one
thread needs to encode (decode) the data and move the compressed bytes to (from) the store at
the measured raw speed. An implementation that uses several cores can beat it (ratio above 1).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from .workloads import Geometry, numcodecs_codec


def _timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def chunks_of(data: np.ndarray, geometry: Geometry) -> list[np.ndarray]:
    return [
        np.ascontiguousarray(data[tuple(slice(a, b) for a, b in geometry.chunk_region(index))])
        for index in geometry.all_chunks()
    ]


def measure(data: np.ndarray, geometry: Geometry, codecs: list[str], scratch: Path) -> dict:
    """One measurement of every limit: seconds, and stored bytes for the codecs."""
    nbytes = data.nbytes
    out: dict = {"bytes": nbytes}
    # Destinations are freshly allocated, as a reader's output must be: the first touch of new
    # pages is part of the cost of delivering the bytes.
    out["memcpy_s"] = _timed(lambda: np.copyto(np.empty_like(data), data))

    path = Path(scratch) / "raw-file.bin"
    view = memoryview(np.ascontiguousarray(data)).cast("B")

    def write_file():
        with open(path, "wb") as f:
            f.write(view)

    out["file_write_s"] = _timed(write_file)
    os.sync()  # its writeback must not run during the read or the next measurement
    buffers = []

    def read_file():
        buffer = np.empty(nbytes, np.uint8)
        with open(path, "rb") as f:
            f.readinto(memoryview(buffer))
        buffers.append(buffer)

    out["file_read_s"] = _timed(read_file)
    if buffers[0][:4096].tobytes() != bytes(view[:4096]):
        raise RuntimeError("raw file read back wrong bytes")
    path.unlink()
    buffers.clear()  # free the copy before the codec limits are measured

    chunks = chunks_of(data, geometry)
    out["codecs"] = {}
    import numcodecs.blosc

    saved = numcodecs.blosc.use_threads, numcodecs.blosc.get_nthreads()
    numcodecs.blosc.use_threads = False  # single thread: the limit of one core
    numcodecs.blosc.set_nthreads(1)
    try:
        done: dict[str, dict] = {}
        for codec in codecs:
            compressor = numcodecs_codec(codec)
            if compressor is None:
                out["codecs"][codec] = {"encode_s": 0.0, "decode_s": 0.0, "stored_bytes": nbytes}
                continue
            key = repr(compressor)
            if key in done:  # sharded-zstd compresses its inner chunks exactly like zstd
                out["codecs"][codec] = dict(done[key])
                continue
            encoded: list = []
            encode_s = _timed(encoded.extend, map(compressor.encode, chunks))
            decoded: list = []
            decode_s = _timed(decoded.extend, map(compressor.decode, encoded))
            if any(bytes(d) != c.tobytes() for d, c in zip(decoded[:2], chunks[:2])):
                raise RuntimeError(f"{codec}: numcodecs round trip is not exact")
            done[key] = out["codecs"][codec] = {
                "encode_s": encode_s,
                "decode_s": decode_s,
                "stored_bytes": sum(len(e) for e in encoded),
            }
            encoded.clear()
            decoded.clear()
    finally:
        numcodecs.blosc.use_threads = saved[0]
        numcodecs.blosc.set_nthreads(saved[1])
    return out


def summarize(runs: list[dict], codecs: list[str]) -> dict:
    """min / median / max MB/s of every limit over the repetitions (MB = 10^6 bytes)."""
    nbytes = runs[0]["bytes"]

    def stats(seconds: list[float]) -> dict:
        rates = sorted(nbytes / s / 1e6 for s in seconds if s > 0)
        return (
            {
                "min": rates[0],
                "median": float(np.median(rates)),
                "max": rates[-1],
                "runs": len(rates),
            }
            if rates
            else None
        )

    out = {
        "bytes": nbytes,
        "memcpy": stats([r["memcpy_s"] for r in runs]),
        "file_write": stats([r["file_write_s"] for r in runs]),
        "file_read": stats([r["file_read_s"] for r in runs]),
        "codecs": {},
    }
    for codec in codecs:
        entries = [r["codecs"][codec] for r in runs]
        out["codecs"][codec] = {
            "encode": stats([e["encode_s"] for e in entries]) if entries[0]["encode_s"] else None,
            "decode": stats([e["decode_s"] for e in entries]) if entries[0]["decode_s"] else None,
            "stored_bytes": entries[0]["stored_bytes"],
            "compression_ratio": nbytes / entries[0]["stored_bytes"],
        }
    return out


def limit_mb_s(limits: dict, codec: str, store: str, operation: str) -> tuple[float, str]:
    """The single-thread pipeline limit of a workload (MB/s of array data) and how it is made."""
    nbytes = limits["bytes"]
    entry = limits["codecs"][codec]
    stored = entry["stored_bytes"]
    write = operation == "write"
    move = limits["memcpy"] if store == "memory" else limits["file_write" if write else "file_read"]
    move_name = "memcpy" if store == "memory" else ("file write" if write else "file read")
    seconds = stored / (move["max"] * 1e6)
    basis = f"{move_name} of the stored bytes"
    codec_rate = entry["encode" if write else "decode"]
    if codec_rate is not None:
        seconds += nbytes / (codec_rate["max"] * 1e6)
        basis = f"single-thread {'encode' if write else 'decode'} + {basis}"
    return nbytes / seconds / 1e6, basis
