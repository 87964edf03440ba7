"""The child side of scripts/gold_stores.py: runs inside one writer's own virtualenv and writes the
stores of a job with that writer's public API. Imports only the stdlib, NumPy and the writer.

    <venv python> scripts/gold_writers.py <writer> <job folder>

The job folder holds job.json (the cases: nodes to create, with their metadata choices, the region
to write and the input files made by the parent) and receives <case>/store/ per case plus
versions.json (the versions that really ran). Every node is written once, in order; data is
written only inside `region`, so chunks outside it are never stored and read as the fill value.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import ClassVar

import numpy as np


def numpy_dtype(doc) -> np.dtype:
    """A NumPy dtype from a v2 dtype document (typestr or [name, dtype(, shape)] lists)."""
    if isinstance(doc, str):
        return np.dtype(doc)
    fields = []
    for field in doc:
        base = numpy_dtype(field[1])
        fields.append((field[0], base, tuple(field[2])) if len(field) == 3 else (field[0], base))
    return np.dtype(fields)


def load_input(job: Path, node: dict):
    if node["input"].endswith(".json"):  # variable-length strings travel as JSON
        values = json.loads((job / node["input"]).read_text("utf-8"))
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out.reshape(node["shape"])
    return np.load(job / node["input"], allow_pickle=False)


def fill_value(job: Path, node: dict):
    if node.get("strings"):
        return node["fill_json"]  # a str: object arrays cannot travel as .npy without pickle
    if node.get("fill_npy") is None:
        return None
    return np.load(job / node["fill_npy"], allow_pickle=False)[()]


def region_of(node: dict) -> tuple[slice, ...]:
    return tuple(slice(a, b) for a, b in node["region"])


# ---- zarr-python 3 (and zarrs through zarrs-python: zarr-python with a Rust codec pipeline) -------
class ZarrPython3:
    name = "zarr-python"

    def __init__(self):
        import zarr

        self.zarr = zarr

    def versions(self) -> dict:
        return {"zarr": version("zarr"), "numcodecs": version("numcodecs"), "numpy": np.__version__}

    def settings(self):
        return self.zarr.config.set({})

    def check(self, array) -> None:
        """Hook: zarrs checks that its pipeline really ran."""

    def group(self, root: Path, node: dict, fmt: int) -> None:
        store = self.zarr.storage.LocalStore(root)
        self.zarr.create_group(
            store, path=node["path"], zarr_format=fmt, attributes=node.get("attributes") or {}
        )

    def array(self, job: Path, root: Path, node: dict, fmt: int) -> None:
        import numcodecs

        zarr = self.zarr
        store = zarr.storage.LocalStore(root)
        kwargs = dict(
            name=node["path"] or None,
            shape=tuple(node["shape"]),
            chunks=tuple(node["chunks"]),
            fill_value=fill_value(job, node),
            zarr_format=fmt,
            attributes=node.get("attributes") or {},
        )
        if node.get("strings"):
            kwargs["dtype"] = str
        else:
            kwargs["dtype"] = numpy_dtype(node["numpy_dtype"])
        if fmt == 2:
            kwargs["order"] = node.get("order", "C")
            kwargs["compressors"] = (
                numcodecs.get_codec(dict(node["compressor"])) if node.get("compressor") else None
            )
            kwargs["filters"] = [
                numcodecs.get_codec(dict(f)) for f in node.get("filters") or []
            ] or None
            if node.get("separator"):
                kwargs["chunk_key_encoding"] = {"name": "v2", "separator": node["separator"]}
        else:
            from zarr.abc.codec import ArrayArrayCodec, ArrayBytesCodec, BytesBytesCodec
            from zarr.registry import get_codec_class

            codecs = [get_codec_class(c["name"]).from_dict(c) for c in node["codecs"]]
            kwargs["filters"] = [c for c in codecs if isinstance(c, ArrayArrayCodec)]
            kwargs["serializer"] = next(c for c in codecs if isinstance(c, ArrayBytesCodec))
            kwargs["compressors"] = [c for c in codecs if isinstance(c, BytesBytesCodec)] or None
            if node.get(
                "chunk_key_encoding"
            ):  # zarr-python takes {name, separator}, not the JSON form
                cke = node["chunk_key_encoding"]
                kwargs["chunk_key_encoding"] = {"name": cke["name"], **cke.get("configuration", {})}
            if node.get("dimension_names"):
                kwargs["dimension_names"] = node["dimension_names"]
        array = zarr.create_array(store, **kwargs)
        self.check(array)
        data = load_input(job, node)
        where = region_of(node)
        array[where] = data[where]


class Zarrs(ZarrPython3):
    # The writer key "zarrs" names the gold stores (fixtures/*/gold-zarrs/); the column that reads
    # and writes through this same stack is the adapter zarrs-python.
    name = "zarrs"
    CONFIG: ClassVar[dict[str, object]] = {
        "codec_pipeline.path": "zarrs.ZarrsCodecPipeline",
        "codec_pipeline.strict": True,
        "codec_pipeline.validate_checksums": True,
    }

    def versions(self) -> dict:
        return {**super().versions(), "zarrs": version("zarrs")}

    def settings(self):
        import zarrs  # noqa: F401  (registers the pipeline)

        return self.zarr.config.set(self.CONFIG)

    def check(self, array) -> None:
        import zarrs

        pipeline = array._async_array.codec_pipeline
        if not isinstance(pipeline, zarrs.ZarrsCodecPipeline) or pipeline.impl is None:
            raise RuntimeError(f"zarrs did not run: zarr-python uses {type(pipeline).__name__}")


# ---- zarr-python 2 ------------------------------------------------------------------------------
class ZarrPython2:
    name = "zarr-python2"

    def __init__(self):
        import zarr

        self.zarr = zarr

    def versions(self) -> dict:
        return {"zarr": version("zarr"), "numcodecs": version("numcodecs"), "numpy": np.__version__}

    def settings(self):
        import contextlib

        return contextlib.nullcontext()

    def group(self, root: Path, node: dict, fmt: int) -> None:
        group = self.zarr.open_group(
            self.zarr.DirectoryStore(str(root)), path=node["path"], mode="a"
        )
        if node.get("attributes"):
            group.attrs.update(node["attributes"])

    def array(self, job: Path, root: Path, node: dict, fmt: int) -> None:
        import numcodecs

        zarr = self.zarr
        kwargs = {}
        filters = [numcodecs.get_codec(dict(f)) for f in node.get("filters") or []]
        if node.get("strings"):  # zarr 2 takes the object codec on its own, not among the filters
            kwargs.update(dtype=str, object_codec=filters.pop(0))
        else:
            kwargs["dtype"] = numpy_dtype(node["numpy_dtype"])
        array = zarr.create(
            shape=tuple(node["shape"]),
            chunks=tuple(node["chunks"]),
            fill_value=fill_value(job, node),
            order=node.get("order", "C"),
            store=zarr.DirectoryStore(str(root)),
            path=node["path"] or None,
            compressor=numcodecs.get_codec(dict(node["compressor"]))
            if node.get("compressor")
            else None,
            filters=filters or None,
            dimension_separator=node.get("separator"),
            **kwargs,
        )
        if node.get("attributes"):
            array.attrs.update(node["attributes"])
        data = load_input(job, node)
        where = region_of(node)
        array[where] = data[where]


# ---- tensorstore ----------------------------------------------------------------------------
class TensorStore:
    name = "tensorstore"

    def __init__(self):
        import tensorstore

        self.ts = tensorstore
        self.context = tensorstore.Context({"file_io_sync": False})

    def versions(self) -> dict:
        return {"tensorstore": version("tensorstore"), "numpy": np.__version__}

    def settings(self):
        import contextlib

        return contextlib.nullcontext()

    def group(self, root: Path, node: dict, fmt: int) -> None:
        raise RuntimeError("tensorstore has no group API")

    def array(self, job: Path, root: Path, node: dict, fmt: int) -> None:
        """The metadata document travels as JSON in the spec; tensorstore validates and writes it."""
        spec = {
            "driver": "zarr" if fmt == 2 else "zarr3",
            "kvstore": {"driver": "file", "path": str(root) + "/"},
            "metadata": node["document"],
        }
        if node["path"]:
            spec["path"] = node["path"]
        data = load_input(job, node)
        where = region_of(node)
        fields = data.dtype.names
        for field in fields or (None,):  # structured arrays are written one field at a time
            this = dict(spec, field=field) if field else spec
            store = self.ts.open(
                this,
                create=True,
                open=field is not None and field != fields[0],
                context=self.context,
            ).result()
            values = np.ascontiguousarray((data[field] if field else data)[where])
            if (
                values.dtype.kind == "S"
            ):  # tensorstore shows |S<n> as n chars along an extra last dimension
                values = np.frombuffer(values.tobytes(), "S1").reshape(
                    values.shape + (values.dtype.itemsize,)
                )
            store[where] = values.astype(store.dtype.numpy_dtype)


WRITERS = {
    "zarr-python": ZarrPython3,
    "zarrs": Zarrs,
    "zarr-python2": ZarrPython2,
    "tensorstore": TensorStore,
}


def run(writer_name: str, job: Path) -> None:
    writer = WRITERS[writer_name]()
    doc = json.loads((job / "job.json").read_text("utf-8"))
    with writer.settings():
        for case in doc["cases"]:
            root = job / case["name"] / "store"
            root.mkdir(parents=True)
            fmt = {"v2": 2, "v3": 3}[case["format"]]
            for node in case["nodes"]:
                if node["kind"] == "group":
                    writer.group(root, node, fmt)
                else:
                    writer.array(job, root, node, fmt)
    (job / "versions.json").write_text(json.dumps(writer.versions(), sort_keys=True))


if __name__ == "__main__":
    run(sys.argv[1], Path(sys.argv[2]))
