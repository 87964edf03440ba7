"""V3-V2UP-001: a v2 array becomes a v3 array by writing only a new zarr.json over the same chunk
files. Each pair is two read cases with byte-identical chunk files and identical expected data: the
v2 store (format v2, `.zarray`) and the v3 store (`zarr.json` with the `v2` chunk key encoding)."""

from __future__ import annotations

import gzip
import json

import numcodecs
import numpy as np

from ..data import sample
from ..generator import add_case, seed_for
from .table_kit import each
from .v3_kit import array_doc, bytes_codec, grid, region


def _chunks(
    data: np.ndarray, chunks, fill, order: str, disk_dtype: str, compress, separator: str, skip
) -> tuple[dict, np.ndarray]:
    """v2 chunk files (key -> bytes) and the expected array: every chunk full size, overhang = fill,
    F order as the transposed block, one chunk missing."""
    files, expected = {}, data.copy()
    for index in np.ndindex(*grid(data.shape, chunks)):
        where = region(index, chunks, data.shape)
        if index in skip:
            expected[where] = fill
            continue
        block = np.full(chunks, fill, dtype=data.dtype)
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        stored = np.ascontiguousarray((block.T if order == "F" else block).astype(disk_dtype))
        files[separator.join(map(str, index))] = compress(stored)
    return files, expected


def _pair(
    slug,
    description,
    shape,
    chunks,
    typestr,
    data_type,
    fill,
    order,
    separator,
    compressor_v2,
    codecs_v3,
    compress,
    needs,
):
    def build_for(fmt):
        def build(w):
            dtype = np.dtype(typestr).newbyteorder("=")
            rng = np.random.default_rng(
                seed_for(f"v3/upgrade/{slug}")
            )  # one seed for both cases of the pair
            data = sample(rng, shape, dtype, avoid=np.array(fill, dtype))
            files, expected = _chunks(
                data,
                chunks,
                fill,
                order,
                typestr,
                compress,
                separator,
                skip={(1,) + (0,) * (len(shape) - 1)},
            )
            if fmt == "v2":
                zarray = {
                    "zarr_format": 2,
                    "shape": list(shape),
                    "chunks": list(chunks),
                    "dtype": typestr,
                    "compressor": compressor_v2,
                    "fill_value": fill,
                    "order": order,
                    "filters": None,
                    "dimension_separator": separator,
                }
                w.put(".zarray", json.dumps(zarray, indent=4, sort_keys=True).encode("ascii"))
            else:
                doc = array_doc(
                    shape,
                    chunks,
                    data_type,
                    fill,
                    codecs=codecs_v3,
                    encoding="v2",
                    separator=separator,
                )
                w.put_json("zarr.json", doc)
            for key, value in files.items():
                w.put(key, value)
            w.expect_array(expected)

        return build

    v3_needs = ["feature:chunk-key-encoding-v2"]
    add_case(
        f"v3/upgrade/{slug}-v2",
        kind="read",
        format="v2",
        build=build_for("v2"),
        needs=needs,
        requirements=["V3-V2UP-001"],
        description=f"{description}: the v2 store (.zarray)",
    )
    add_case(
        f"v3/upgrade/{slug}-v3",
        kind="read",
        build=build_for("v3"),
        needs=[*needs, *v3_needs],
        requirements=["V3-V2UP-001", "V3-CKE-005"],
        description=f"{description}: the same chunk files under a v3 zarr.json with the v2 key encoding",
    )


_BLOSC = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE, blocksize=0)
# fmt: off
PAIRS = [
    # slug, description, shape, chunks, typestr, data_type, fill, order, separator, compressor_v2, codecs_v3, compress, needs
    ("gzip-int32", "upgrade pair, <i4 (7,5) in (4,3) C order with gzip and separator '.', one chunk missing (fill 42)", (7, 5), (4, 3), "<i4", "int32", 42, "C", ".", {"id": "gzip", "level": 1}, [bytes_codec("little"), {"name": "gzip", "configuration": {"level": 1}}], lambda a: gzip.compress(a.tobytes(), compresslevel=1, mtime=0), ["dtype:int32", "codec:gzip"]),
    ("blosc-order-f-big-endian", "upgrade pair, >f8 (5,6) in (2,4) order F with blosc lz4 byte shuffle and separator '/', one chunk missing (fill -0.5)", (5, 6), (2, 4), ">f8", "float64", -0.5, "F", "/", {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}, [{"name": "transpose", "configuration": {"order": [1, 0]}}, bytes_codec("big"), {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 8, "blocksize": 0}}], _BLOSC.encode, ["dtype:float64", "dtype:big-endian", "codec:blosc", "codec:transpose", "feature:order-F", "feature:dimension-separator-slash"]),
    ("raw-uint8-3d", "upgrade pair, |u1 (3,4,5) in (2,3,2) C order without a compressor, separator '.', one chunk missing (fill 255)", (3, 4, 5), (2, 3, 2), "|u1", "uint8", 255, "C", ".", None, [{"name": "bytes"}], lambda a: a.tobytes(), ["dtype:uint8", "codec:bytes"]),
]
# fmt: on

each(_pair, PAIRS, question="spec-read")
