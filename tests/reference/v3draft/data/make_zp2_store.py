"""Writes the frozen zarr-python 2.x draft-v3 fixture `zp2_store/` (V3DRAFT-ZP2-001..004).

Not part of the test run: it needs zarr-python 2.18 (the experimental v3 API was removed in 3.x).
Run it once in a throwaway environment, from this folder:

    python3 -m venv zp2-venv && zp2-venv/bin/pip install "zarr==2.18.7" pytest
    ZARR_V3_EXPERIMENTAL_API=1 ZARR_V3_SHARDING=1 zp2-venv/bin/python make_zp2_store.py

The expected values are re-derived in test_v3draft_zp2.py from the same formulas, so the test
checks the bytes zarr-python wrote, not this script.
"""

import os
import shutil

import numcodecs
import numpy as np
import zarr
from zarr._storage.v3 import DirectoryStoreV3
from zarr._storage.v3_storage_transformers import ShardingStorageTransformer

OUT = "zp2_store"
shutil.rmtree(OUT, ignore_errors=True)
store = DirectoryStoreV3(OUT)

root = zarr.group(store=store, path="/", zarr_version=3)  # writes zarr.json + meta/root.group.json
root.attrs["title"] = "zarr-python 2.x draft v3 fixture"

g = root.create_group("g")
g.attrs.update({"spam": "ham", "eggs": 42})

# int32, gzip, partial chunks, fill 42; chunks of row 2 stay unwritten.
a = g.create_dataset(
    "ints",
    shape=(5, 7),
    chunks=(2, 3),
    dtype="<i4",
    fill_value=42,
    compressor=numcodecs.GZip(level=1),
)
a[0:4, :] = np.arange(28, dtype="<i4").reshape(4, 7) - 10
a.attrs["units"] = "m"

# float64 big-endian, no compressor, NaN fill, only the second chunk written.
f = root.create_dataset(
    "floats_be", shape=(6,), chunks=(4,), dtype=">f8", fill_value=np.nan, compressor=None
)
f[4:6] = [-0.0, 1.5]

# int16 with order F and '.' separator, blosc bit shuffle.
o = root.create_dataset(
    "forder",
    shape=(3, 4),
    chunks=(2, 3),
    dtype="<i2",
    order="F",
    fill_value=-1,
    dimension_separator=".",
    compressor=numcodecs.Blosc(cname="lz4", clevel=5, shuffle=2),
)
o[:] = np.arange(12, dtype="<i2").reshape(3, 4) * 3

# bool and uint8 in an implicit group (no metadata written for implicit/ or implicit/deep).
b = root.create_dataset(
    "implicit/deep/flags", shape=(5,), chunks=(5,), dtype=bool, fill_value=False, compressor=None
)
b[:] = [True, False, True, True, False]

# complex128 (zarr-python writes it as an extension data type).
c = root.create_dataset(
    "cplx", shape=(2,), chunks=(2,), dtype="<c16", fill_value=0, compressor=None
)
c[:] = [1 + 2j, -3.5 - 0.25j]

# sharding storage transformer: chunks (2, 2), 2x2 chunks per shard, some chunks left empty.
t = ShardingStorageTransformer("indexed", chunks_per_shard=(2, 2))
s = root.create_dataset(
    "sharded",
    shape=(6, 5),
    chunks=(2, 2),
    dtype="<u2",
    fill_value=7,
    compressor=None,
    storage_transformers=[t],
)
s[0:2, 0:4] = np.arange(8, dtype="<u2").reshape(2, 4) + 100
s[4:6, 2:5] = np.arange(6, dtype="<u2").reshape(2, 3) + 200

print(
    zarr.__version__,
    sorted(os.path.relpath(os.path.join(d, n), OUT) for d, _, ns in os.walk(OUT) for n in ns),
)
