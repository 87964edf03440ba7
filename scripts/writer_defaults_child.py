"""The child side of scripts/writer_defaults.py: runs inside one adapter's own virtualenv and writes
each array of a job with that implementation's DEFAULTS: only shape, chunks and the data type are
given; codecs, compressors, filters, fill value, chunk key encoding are what the library picks.

    <adapter venv python> scripts/writer_defaults_child.py <writer> <job folder>

job.json lists the arrays ({name, format, dtype, shape, chunks, input, fill?}); each array is written
whole into <job>/<name>/store/. A library that refuses an array records why in refused.json (that
is what its defaults are, not a failure of this script); versions.json gets the versions that ran.
Imports only the stdlib, NumPy and the writer.
"""

from __future__ import annotations

import json
import sys
import traceback
from importlib.metadata import version
from pathlib import Path

import numpy as np


def load_input(job: Path, case: dict):
    if case["input"].endswith(".json"):  # variable-length strings or bytes travel as JSON
        values = json.loads((job / case["input"]).read_text("utf-8"))
        if case["dtype"] == "bytes-object":
            values = [v.encode("latin-1") for v in values]
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out.reshape(case["shape"])
    data = np.load(job / case["input"], allow_pickle=False)
    if case.get("ml_dtype"):  # .npy holds ml_dtypes values as V<n>: give them their type back
        import ml_dtypes

        data = data.view(getattr(ml_dtypes, case["ml_dtype"]))
    return data


def zarr3_dtype(case: dict):
    return {"str": str, "bytes-object": bytes}.get(case["dtype"], case["dtype"])


class ZarrPython3:
    def __init__(self):
        import zarr

        self.zarr = zarr

    def versions(self) -> dict:
        return {"zarr": version("zarr"), "numcodecs": version("numcodecs"), "numpy": np.__version__}

    def settings(self):
        return self.zarr.config.set({})

    def write(self, root: Path, case: dict, data) -> None:
        kwargs = {}
        if case.get("fill") is not None:
            kwargs["fill_value"] = case["fill"]
        array = self.zarr.create_array(
            self.zarr.storage.LocalStore(root),
            shape=tuple(case["shape"]),
            chunks=tuple(case["chunks"]),
            dtype=zarr3_dtype(case),
            zarr_format={"v2": 2, "v3": 3}[case["format"]],
            **kwargs,
        )
        self.check(array)
        array[...] = data

    def check(self, array) -> None:
        """Hook: zarrs checks that its pipeline really ran."""


# zarrs-python's settings: its Rust pipeline, strict (no silent fallback to zarr-python's codecs)
ZARRS_CONFIG = {
    "codec_pipeline.path": "zarrs.ZarrsCodecPipeline",
    "codec_pipeline.strict": True,
    "codec_pipeline.validate_checksums": True,
}


class ZarrsPython(ZarrPython3):
    def versions(self) -> dict:
        return {**super().versions(), "zarrs": version("zarrs")}

    def settings(self):
        import zarrs  # noqa: F401  (registers the pipeline)

        return self.zarr.config.set(ZARRS_CONFIG)

    def check(self, array) -> None:
        import zarrs

        pipeline = array._async_array.codec_pipeline
        if not isinstance(pipeline, zarrs.ZarrsCodecPipeline) or pipeline.impl is None:
            raise RuntimeError(f"zarrs did not run: zarr-python uses {type(pipeline).__name__}")


class ZarrPython2:
    def __init__(self):
        import zarr

        self.zarr = zarr

    def versions(self) -> dict:
        return {"zarr": version("zarr"), "numcodecs": version("numcodecs"), "numpy": np.__version__}

    def settings(self):
        import contextlib

        return contextlib.nullcontext()

    def write(self, root: Path, case: dict, data) -> None:
        kwargs = {}
        if case.get("fill") is not None:
            kwargs["fill_value"] = case["fill"]
        array = self.zarr.create(
            shape=tuple(case["shape"]),
            chunks=tuple(case["chunks"]),
            dtype=zarr3_dtype(case),
            store=self.zarr.DirectoryStore(str(root)),
            **kwargs,
        )
        array[...] = data


class TensorStore:
    def __init__(self):
        import tensorstore

        self.ts = tensorstore

    def versions(self) -> dict:
        return {"tensorstore": version("tensorstore"), "numpy": np.__version__}

    def settings(self):
        import contextlib

        return contextlib.nullcontext()

    def write(self, root: Path, case: dict, data) -> None:
        """The least a tensorstore spec can say: driver, shape, chunk shape and dtype."""
        v3 = case["format"] == "v3"
        metadata = {"shape": case["shape"]}
        if v3:
            metadata["chunk_grid"] = {
                "name": "regular",
                "configuration": {"chunk_shape": case["chunks"]},
            }
        else:
            metadata["chunks"] = case["chunks"]
        spec = {
            "driver": "zarr3" if v3 else "zarr",
            "kvstore": {"driver": "file", "path": str(root) + "/"},
            "metadata": metadata,
            "dtype": case["ts_dtype"],
        }
        store = self.ts.open(spec, create=True).result()
        if case["ts_dtype"] == "string":
            store[...] = data.astype(object)
        else:
            store[...] = data


# the zarr name of a job's data type where it is not the NumPy one (zarrista takes zarr names)
ZARR_NAMES = {"str": "string", "bytes-object": "bytes", "float8_e4m3fn": "float8_e4m3"}


class Zarrs:
    """zarrs through zarrista: ArrayBuilder with the grid, the data type and a fill value, which
    zarrista requires (the type's zero: all-zero bytes, "" for string, b"" for bytes); codecs, chunk
    key encoding and attributes are zarrs' defaults."""

    def __init__(self):
        import zarrista

        self.zarrista = zarrista

    def versions(self) -> dict:
        """zarrista's, and the zarrs crate's it bundles, which zarrs records in what it writes."""
        z = self.zarrista
        builder = z.ArrayBuilder(
            z.ChunkGrid.regular([1], chunk_shape=[1]),
            z.DataType.from_string("uint8"),
            z.FillValue(b"\0"),
        )
        array = builder.create(z.store.MemoryStore(), "/")
        crate = z.Array.open(array.storage, "/").attrs["_zarrs"]["version"]
        return {"zarrista": version("zarrista"), "zarrs": crate, "numpy": np.__version__}

    def settings(self):
        import contextlib

        return contextlib.nullcontext()

    def write(self, root: Path, case: dict, data) -> None:
        z = self.zarrista
        dtype = z.DataType.from_string(ZARR_NAMES.get(case["dtype"], case["dtype"]))
        grid = z.ChunkGrid.regular(case["shape"], chunk_shape=case["chunks"])
        fill = z.FillValue(bytes(dtype.size or 0))
        array = z.ArrayBuilder(grid, dtype, fill).create(z.store.FilesystemStore(str(root)), "/")
        if data.dtype.hasobject:  # variable-length: the values and their offsets
            values = [v.encode("utf-8") if isinstance(v, str) else v for v in data.ravel()]
            offsets = np.cumsum([0] + [len(v) for v in values]).tolist()
            data = z.ArrayBytes(b"".join(values), offsets=offsets)
        elif data.dtype.kind not in "biuf" or data.dtype.type.__module__ == "ml_dtypes":
            # numpy's DLPack export cannot carry ml_dtypes types, and zarrista 0.1.0 refuses numpy
            # complex (adapters/zarrs known failure complex-numpy-input-refused): raw bytes
            data = z.ArrayBytes(np.ascontiguousarray(data).tobytes())
        array.store_array_subset(..., data)


WRITERS = {
    "zarr-python": ZarrPython3,
    "zarrs-python": ZarrsPython,
    "zarr-python2": ZarrPython2,
    "tensorstore": TensorStore,
    "zarrs": Zarrs,
}


def run(writer_name: str, job: Path) -> None:
    writer = WRITERS[writer_name]()
    cases = json.loads((job / "job.json").read_text("utf-8"))["cases"]
    refused = {}
    with writer.settings():
        for case in cases:
            root = job / case["name"] / "store"
            root.mkdir(parents=True)
            try:
                writer.write(root, case, load_input(job, case))
            except Exception as exc:  # the library's own refusal of its defaults for this type
                refused[case["name"]] = f"{type(exc).__name__}: {exc}"
                traceback.print_exc(limit=1)
    (job / "refused.json").write_text(json.dumps(refused, indent=1, sort_keys=True))
    (job / "versions.json").write_text(json.dumps(writer.versions(), sort_keys=True))


if __name__ == "__main__":
    run(sys.argv[1], Path(sys.argv[2]))
