"""Adapter for acquire-zarr (PyPI `acquire-zarr`): a streaming Zarr v3 writer for microscopy
acquisition (C++), writer only.

A stream is configured with StreamSettings (store path, one ArraySettings per array: named
dimensions with array, chunk and shard sizes, a data type, blosc compression or none) and fed
frames with ZarrStream.append; close() flushes the shards and the metadata. What it writes is
always a sharded v3 array (sharding_indexed with a bytes + crc32c index at the end), fill value 0,
the default chunk key encoding with "/", and dimension names. A write request is translated into
those settings; a requested document asking for anything else has no setting and is answered
Unsupported (declared in adapter.toml). The adapter never writes a document itself.
"""

from __future__ import annotations

import math
import os
import platform
from importlib.metadata import version

import acquire_zarr as az
import numpy as np

from conformance.harness.adapter_api import OperationTimer, Unsupported, load_data

DATA_TYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
DATA_TYPES += ("float32", "float64")
BLOSC_CODECS = {"zstd": az.CompressionCodec.BLOSC_ZSTD, "lz4": az.CompressionCodec.BLOSC_LZ4}
SHUFFLES = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}
INDEX_CODECS = [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]
LITTLE = {"name": "bytes", "configuration": {"endian": "little"}}


def no_setting(what: str) -> Unsupported:
    return Unsupported(f"acquire-zarr has no setting for {what}")


def _compression(codecs: list, itemsize: int):
    """CompressionSettings for the inner codecs [bytes little, blosc?], or None."""
    if not codecs or codecs[0] != LITTLE or len(codecs) > 2:
        raise no_setting(f"the inner codecs {codecs!r}")
    if len(codecs) == 1:
        return None
    blosc = codecs[1]
    conf = blosc.get("configuration", {})
    if (
        blosc.get("name") != "blosc"
        or conf.get("cname") not in BLOSC_CODECS
        or conf.get("shuffle") not in SHUFFLES
        or conf.get("blocksize", 0) != 0
        or conf.get("typesize", itemsize) != itemsize
    ):
        raise no_setting(f"the codec {blosc!r}")
    return az.CompressionSettings(
        compressor=az.Compressor.BLOSC1,
        codec=BLOSC_CODECS[conf["cname"]],
        level=int(conf["clevel"]),
        shuffle=SHUFFLES[conf["shuffle"]],
    )


def array_settings(doc: dict, path: str) -> az.ArraySettings:
    """ArraySettings for a requested zarr.json (v3), or Unsupported."""
    allowed = {"zarr_format", "node_type", "shape", "data_type", "chunk_grid", "fill_value"}
    allowed |= {"chunk_key_encoding", "codecs", "dimension_names", "attributes"}
    allowed |= {"storage_transformers"}
    extra = sorted(set(doc) - allowed)
    if extra or doc.get("attributes") or doc.get("storage_transformers"):
        raise no_setting(f"the members {extra or ['attributes or storage_transformers']}")
    if doc.get("data_type") not in DATA_TYPES:
        raise no_setting(f"the data type {doc.get('data_type')!r}")
    fill = doc.get("fill_value")
    if isinstance(fill, bool) or not isinstance(fill, (int, float)) or fill != 0:
        raise no_setting(f"fill_value {fill!r} (it writes 0)")
    if isinstance(fill, float) and math.copysign(1.0, fill) < 0:
        raise no_setting("fill_value -0.0 (it writes 0)")
    if doc.get("chunk_key_encoding") != {"name": "default", "configuration": {"separator": "/"}}:
        raise no_setting(f"the chunk key encoding {doc.get('chunk_key_encoding')!r}")
    grid = doc.get("chunk_grid", {})
    codecs = doc.get("codecs", [])
    if (
        grid.get("name") != "regular"
        or len(codecs) != 1
        or codecs[0].get("name") != "sharding_indexed"
    ):
        raise no_setting("an unsharded array (it writes sharding_indexed arrays only)")
    conf = codecs[0].get("configuration", {})
    if conf.get("index_codecs") != INDEX_CODECS or conf.get("index_location", "end") != "end":
        raise no_setting(f"the shard index {conf.get('index_codecs')!r}")
    names = doc.get("dimension_names")
    if not names or not all(isinstance(n, str) and n for n in names):
        raise no_setting(f"dimension_names {names!r} (every dimension has a name)")
    shards, inner = grid["configuration"]["chunk_shape"], conf["chunk_shape"]
    if any(s % c for s, c in zip(shards, inner)):
        raise no_setting(f"shards {shards} that are not whole numbers of chunks {inner}")
    itemsize = np.dtype(doc["data_type"]).itemsize
    dimensions = [
        az.Dimension(
            name=name,
            # the last two dimensions are the frame's (space); the others are appended frames
            kind=az.DimensionType.SPACE if i >= len(names) - 2 else az.DimensionType.OTHER,
            array_size_px=size,
            chunk_size_px=chunk,
            shard_size_chunks=shard // chunk,
        )
        for i, (name, size, chunk, shard) in enumerate(zip(names, doc["shape"], inner, shards))
    ]
    return az.ArraySettings(
        output_key=path,
        dimensions=dimensions,
        data_type=np.dtype(doc["data_type"]),
        compression=_compression(conf.get("codecs", []), itemsize),
    )


class Adapter:
    name = "acquire-zarr"

    def describe(self, request=None):
        return {
            "name": self.name,
            "version": version("acquire-zarr"),
            "versions": {
                "acquire-zarr": version("acquire-zarr"),
                "numpy": np.__version__,
                "python": platform.python_version(),
            },
            "settings": {"max_threads": "0 (ZARR_MAX_THREADS or the hardware's)"},
        }

    def write(self, request):
        stream, data = self._open_stream(request)
        try:
            stream.append(data)
        finally:
            stream.close()
        return {}

    def bench(self, request):
        """A write timed from ZarrStream.append to the end of close(), which flushes the shards
        and writes the metadata; the stream is made (untimed) before. acquire-zarr writes to a
        folder or to S3: a memory store is refused, and it reads nothing."""
        if request["store"].get("kind") == "memory":
            raise Unsupported(
                "acquire-zarr has no in-memory store: it streams to a folder or to S3"
            )
        if request["operation"] != "write":
            raise Unsupported("acquire-zarr writes arrays only: it has no read API")
        stream, data = self._open_stream(dict(request, node_type="array"))
        try:
            with OperationTimer() as timer:
                stream.append(data)
                closing, stream = stream, None
                closing.close()
        finally:
            if stream is not None:
                stream.close()
        settings = {"max_threads": "0 (ZARR_MAX_THREADS or the hardware's)", "store": "folder"}
        return {**timer.result(), "settings": settings}

    def _open_stream(self, request):
        """(the stream, the frames to append): a ZarrStream for the requested array."""
        if request.get("format") != "v3":
            raise Unsupported(
                f"acquire-zarr writes Zarr format v3 only, not {request.get('format')!r}"
            )
        if request["store"].get("kind") != "directory":
            raise Unsupported(
                f"store kind {request['store'].get('kind')!r}: acquire-zarr writes folders"
            )
        if request.get("node_type") == "group":
            raise Unsupported("acquire-zarr writes arrays only: it has no group API")
        metadata = request.get("metadata") or {}
        settings = array_settings(metadata, (request.get("path") or "").strip("/"))
        if not request.get("data"):
            raise no_setting("an array without data (a stream writes the frames it is given)")
        dtype = np.dtype(metadata["data_type"])  # a stream takes frames in this machine's order
        data = np.ascontiguousarray(load_data(request["data"]), dtype=dtype)
        stream = az.ZarrStream(
            az.StreamSettings(
                store_path=os.path.abspath(request["store"]["location"]), arrays=[settings]
            )
        )
        return stream, data
