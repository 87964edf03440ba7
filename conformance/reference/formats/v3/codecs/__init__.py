"""The Zarr v3.0 codec pipeline of the reference implementation.

    from conformance.reference.formats.v3.codecs import build_pipeline
    codec = build_pipeline(codecs_json, chunk_shape, dtype, fill_value, data_type)
    data = codec.encode(chunk)        # ndarray of chunk_shape -> bytes
    chunk = codec.decode(data)        # bytes -> ndarray of chunk_shape and dtype

`build_pipeline` validates the whole `codecs` list (entry shape, known names, order, each codec's
configuration against the representation it receives) and raises MetadataError with a reason
code and requirement ID; decoding raises ChunkError ('checksum-mismatch', 'corrupt-chunk',
'corrupt-shard-index') for bad stored bytes and LimitError for values that would decode to more
than MAX_DECODED_BYTES when their size is not known in advance.

Codecs: transpose, bytes, sharding_indexed, vlen-utf8, vlen-bytes, gzip, blosc, zstd, crc32c
(`codec_names()`); with `legacy=True` also the V3HIST-001 `endian` name and V3HIST-002
transpose "C"/"F".

Choices where the spec leaves room (each documented in its module):
- gzip decodes RFC 1952 members only; a zlib stream under `gzip` is 'corrupt-chunk' (V3-GZIP-002).
- blosc requires cname, clevel, shuffle and blocksize (no defaults in the spec) and typesize
  unless noshuffle.
- sharding writes only inner chunks that differ from the fill value bit for bit; an all-fill shard
  encodes to its all-empty index (V3-SHARD-017). `pipeline.sharding.is_empty_shard(data)` tells a
  caller whether stored shard bytes hold no inner chunk. The array engine's own
  write_empty_chunks=False check deletes the key instead, which is equivalent.

Partial reads (V3-PIPE-005): `pipeline.decode_partial(store, key, selection)` returns the box
`selection` (a tuple of step-1 slices, one per dimension, in chunk-local coordinates) of the chunk
stored at `key`, or None when the key is absent; it always equals `decode(store.get(key))[selection]`.
When the array->bytes codec is sharding_indexed with no bytes->bytes codec after it, it reads the
index with `store.get_partial` (the first or last index-size bytes) and then only the inner
chunks that overlap the selection, recursing into nested sharding; transpose codecs before it map
the selection. Otherwise it reads the whole value. `pipeline.supports_partial` says which case
applies, so the engine can use decode_partial only for chunks it reads in part.
"""

from __future__ import annotations

from .base import MAX_DECODED_BYTES, ArraySpec
from .pipeline import CodecPipeline, build_pipeline
from .registry import codec_names

__all__ = ["MAX_DECODED_BYTES", "ArraySpec", "CodecPipeline", "build_pipeline", "codec_names"]
