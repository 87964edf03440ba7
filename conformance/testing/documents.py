"""Hand-written stores for tests: metadata documents built from a few arguments, and a directory
written from {key: bytes or JSON value}. Deliberately independent of the reference's own
builders, so a test's fixture cannot share a bug with the code under test."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

V3_GROUP = {"zarr_format": 3, "node_type": "group"}
V2_GROUP = {"zarr_format": 2}


def bytes_codec(endian: str | None = "little") -> dict:
    return {"name": "bytes", "configuration": {"endian": endian}} if endian else {"name": "bytes"}


def v3_array(shape, chunks, data_type: str = "int32", fill_value=0, codecs=None, **extra) -> dict:
    """A v3 array document with default '/' chunk keys; `extra` members are added as given."""
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill_value,
        "codecs": codecs if codecs is not None else [bytes_codec()],
    }
    doc.update(extra)
    return doc


def v2_array(shape, chunks, dtype: str = "<i4", fill_value=0, compressor=None, **extra) -> dict:
    doc = {
        "zarr_format": 2,
        "shape": list(shape),
        "chunks": list(chunks),
        "dtype": dtype,
        "compressor": compressor,
        "fill_value": fill_value,
        "order": "C",
        "filters": None,
    }
    doc.update(extra)
    return doc


def v1_array(
    shape, chunks, dtype: str = "<i4", fill_value=0, compression=None, compression_opts=None
) -> dict:
    return {
        "zarr_format": 1,
        "shape": list(shape),
        "chunks": list(chunks),
        "dtype": dtype,
        "compression": compression,
        "compression_opts": compression_opts,
        "fill_value": fill_value,
        "order": "C",
    }


def raw_chunk(values, dtype: str = "<i4") -> bytes:
    return np.asarray(values, dtype=dtype).tobytes()


def write_files(root: str | os.PathLike, files: dict) -> Path:
    """Write key -> bytes (or a JSON value) under `root`; returns the root as a Path."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    for key, value in files.items():
        path = root.joinpath(*key.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(value if isinstance(value, bytes) else json.dumps(value).encode())
    return root


def tree_snapshot(root: str | os.PathLike) -> dict[str, bytes]:
    """Every file below `root` (symlinks not followed) -> its bytes: to prove nothing changed."""
    root = Path(root)
    out = {}
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath, name)
            out[path.relative_to(root).as_posix()] = (
                b"<symlink>" if path.is_symlink() else path.read_bytes()
            )
    return out


def tree_state(root: str | os.PathLike) -> dict[str, tuple]:
    """Every entry below `root` -> (type, size, mtime), from lstat only: never opens anything, so
    it is safe on trees holding FIFOs, sockets or huge sparse files. To prove nothing was written."""
    import stat

    root = os.fspath(root)
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            info = os.lstat(full)
            out[os.path.relpath(full, root)] = (
                stat.S_IFMT(info.st_mode),
                info.st_size,
                info.st_mtime_ns,
            )
    return out
