"""Whole-array write and read workloads for each implementation, in-process.

Every workload writes the same float32 array to a fresh local directory, then reads it back whole;
read results are checked bit-for-bit against the input so a fast wrong answer cannot win.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np


@dataclass
class Workload:
    shape: tuple[int, int]
    chunks: tuple[int, int]
    codec: str  # 'none' or 'zstd'

    @property
    def nbytes(self) -> int:
        return self.shape[0] * self.shape[1] * 4


def make_data(shape) -> np.ndarray:
    """Smooth values plus noise: compressible like real measurements, not like zeros."""
    rng = np.random.default_rng(20261122)
    rows = np.linspace(0, 8 * np.pi, shape[0], dtype=np.float32)[:, None]
    cols = np.linspace(0, 4 * np.pi, shape[1], dtype=np.float32)[None, :]
    data = np.sin(rows) * np.cos(cols) * 100
    data += rng.standard_normal(shape, dtype=np.float32)
    return np.round(data, 2).astype(np.float32)


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def reference_run(workload: Workload, data: np.ndarray, path: Path) -> tuple[float, float, np.ndarray]:
    from conformance.reference import DirectoryStore, get_format

    fmt = get_format("v3")
    codecs = [{"name": "bytes", "configuration": {"endian": "little"}}]
    if workload.codec == "zstd":
        codecs.append({"name": "zstd", "configuration": {"level": 0, "checksum": False}})
    doc = fmt.array_metadata(workload.shape, workload.chunks, "float32", fill_value=0.0, codecs=codecs)
    store = DirectoryStore(path)
    array = fmt.create_array(store, "", doc)
    t_write, _ = _timed(lambda: array.write(None, data))
    os.sync()  # flush the written pages so their writeback does not run during the timed read
    reopened = fmt.open_array(DirectoryStore(path, read_only=True), "")
    t_read, out = _timed(lambda: reopened.read())
    return t_write, t_read, out


def zarr_python_run(workload: Workload, data: np.ndarray, path: Path) -> tuple[float, float, np.ndarray]:
    import zarr
    from zarr.codecs import ZstdCodec

    compressors = [ZstdCodec(level=0, checksum=False)] if workload.codec == "zstd" else None
    array = zarr.create_array(
        zarr.storage.LocalStore(str(path)), shape=workload.shape, chunks=workload.chunks, dtype="float32",
        fill_value=0.0, compressors=compressors, zarr_format=3,
    )
    t_write, _ = _timed(lambda: array.__setitem__(Ellipsis, data))
    os.sync()
    reopened = zarr.open_array(zarr.storage.LocalStore(str(path), read_only=True), mode="r")
    t_read, out = _timed(lambda: reopened[...])
    return t_write, t_read, out


def files_baseline(workload: Workload, data: np.ndarray, path: Path) -> tuple[float, float, np.ndarray]:
    """The physical limit here: one file per chunk with raw bytes and no codec or metadata, spread
    over the same threads as the reference."""
    cr, cc = workload.chunks
    blocks = [(i, j) for i in range(0, workload.shape[0], cr) for j in range(0, workload.shape[1], cc)]
    path.mkdir(parents=True, exist_ok=True)

    from conformance.reference.array import for_each  # the same thread pool the reference uses

    def write():
        for_each(lambda b: (path / f"{b[0]}.{b[1]}").write_bytes(np.ascontiguousarray(data[b[0] : b[0] + cr, b[1] : b[1] + cc]).tobytes()),
                 blocks, cr * cc * 4)

    def read():
        out = np.empty(workload.shape, np.float32)

        def one(b):
            out[b[0] : b[0] + cr, b[1] : b[1] + cc] = np.frombuffer((path / f"{b[0]}.{b[1]}").read_bytes(), np.float32).reshape(cr, cc)

        for_each(one, blocks, cr * cc * 4)
        return out

    t_write, _ = _timed(write)
    os.sync()
    t_read, out = _timed(read)
    return t_write, t_read, out


RUNNERS: dict[str, Callable] = {
    "files": files_baseline,
    "reference": reference_run,
    "zarr-python": zarr_python_run,
}


def run_once(name: str, workload: Workload, data: np.ndarray, scratch: Path) -> dict:
    path = scratch / f"{name}-{workload.codec}"
    shutil.rmtree(path, ignore_errors=True)
    os.sync()
    t_write, t_read, out = RUNNERS[name](workload, data, path)
    exact = out.shape == data.shape and np.array_equal(out.view(np.uint32), data.view(np.uint32))
    stored = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    shutil.rmtree(path, ignore_errors=True)
    mib = workload.nbytes / 2**20
    return {"impl": name, "codec": workload.codec, "write_s": t_write, "read_s": t_read,
            "write_mib_s": mib / t_write, "read_mib_s": mib / t_read, "exact": bool(exact), "stored_bytes": stored}
