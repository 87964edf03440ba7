"""Shared helpers for the zarr-extensions tier tests."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np

from conformance import reference as ref
from conformance.corpus.citations import specs_root
from conformance.reference.formats.v3 import FORMAT

LE = {"name": "bytes", "configuration": {"endian": "little"}}
BE = {"name": "bytes", "configuration": {"endian": "big"}}
REGISTRY = (
    specs_root() or Path("shared/specs")
) / "zarr-extensions"  # the registry copy beside the repo
ENVS = Path(__file__).resolve().parents[3] / ".cache" / "envs"


def doc(shape, chunks, data_type, fill_value, codecs, grid=None, cke=None) -> dict:
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": grid or {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": cke or {"name": "default"},
        "fill_value": fill_value,
        "codecs": codecs,
    }


def roundtrip(
    document: dict, values: np.ndarray, selection=slice(None)
) -> tuple[np.ndarray, ref.MemoryStore]:
    """Create the array in a fresh store, write `values`, reopen it and read everything back."""
    store = ref.MemoryStore()
    array = FORMAT.create_array(store, "a", document)
    array[selection] = values
    return ref.open_node(store, "a")[:], store


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return (
        a.shape == b.shape and a.dtype.itemsize == b.dtype.itemsize and a.tobytes() == b.tobytes()
    )


def other_python(name: str) -> Path | None:
    """The interpreter of another implementation's environment (the harness's adapter envs),
    e.g. 'zarr-python2' or 'tensorstore'; None when that environment is not installed here."""
    for env in sorted(ENVS.glob(f"{name}-*")):
        python = env / "bin" / "python"
        if python.exists() and env.is_dir():
            return python
    return None


def run_python(python: Path, code: str, *args: str) -> str:
    done = subprocess.run(
        [str(python), "-c", code, *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def load(path) -> dict:
    return json.loads(Path(path).read_text())
