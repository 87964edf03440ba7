"""Hypothesis: exact write/read round trips, and no crash other than ZarrError on hostile input."""

from __future__ import annotations

import json
import math
import re
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.reference import MemoryStore, get_format
from conformance.reference.errors import ZarrError
from conformance.reference.formats.v3draft import FallbackDataTypeWarning, sharding

FMT = get_format("v3-draft")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GZIP = "https://purl.org/zarr/spec/codecs/gzip/1.0"
BLOSC = "https://purl.org/zarr/spec/codecs/blosc/1.0"
ENDIAN = "https://purl.org/zarr/spec/codecs/endian/1.0"
DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "uint8",
    "uint16",
    "uint32",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "r8",
    "r24",
]
CODEC_CHAINS = [
    None,
    [],
    [{"type": GZIP, "configuration": {"level": 1}}],
    [{"type": ENDIAN, "configuration": {"endian": "big"}}],
    [
        {"type": ENDIAN, "configuration": {"endian": "little"}},
        {"type": GZIP, "configuration": {"level": 0}},
    ],
    [
        {"type": ENDIAN, "configuration": {"endian": "big"}},
        {"type": BLOSC, "configuration": {"cname": "zstd", "clevel": 3, "shuffle": -1}},
    ],
    [
        {
            "type": BLOSC,
            "configuration": {"cname": "lz4", "clevel": 5, "shuffle": 2, "blocksize": 0},
        },
        {"type": GZIP, "configuration": {"level": 9}},
    ],
]
KEY = re.compile(r"[A-Za-z0-9/._-]*[A-Za-z0-9._-]")


@st.composite
def arrays(draw):
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, 4)) if n else draw(st.integers(0, 2)) for n in shape)
    dtype_name = draw(st.sampled_from(DTYPES))
    dtype = np.dtype(
        "|b1" if dtype_name == "bool" else {"r8": "V1", "r24": "V3"}.get(dtype_name, dtype_name)
    )
    raw = draw(
        st.binary(
            min_size=math.prod(shape) * dtype.itemsize, max_size=math.prod(shape) * dtype.itemsize
        )
    )
    if dtype.kind == "b":
        raw = bytes(b & 1 for b in raw)
    data = np.frombuffer(raw, dtype=dtype).reshape(shape)  # arbitrary bits: NaN payloads, -0.0, ...
    fill_raw = draw(st.binary(min_size=dtype.itemsize, max_size=dtype.itemsize))
    if dtype.kind == "b":
        fill_raw = bytes(b & 1 for b in fill_raw)
    fill = np.frombuffer(fill_raw, dtype=dtype).reshape(())
    if dtype.kind == "V":
        fill = fill.tobytes()
    shards = None
    if ndim and all(chunks) and draw(st.booleans()):
        shards = [sharding([draw(st.integers(1, 3)) for _ in shape])]
    options = dict(
        order=draw(st.sampled_from("CF")),
        separator=draw(st.sampled_from("/.")),
        codecs=draw(st.sampled_from(CODEC_CHAINS)),
        storage_transformers=shards,
    )
    return dtype_name, shape, chunks, data, fill, options


@SETTINGS
@given(arrays(), st.data())
def test_round_trip_exact_bits(case, draw):
    dtype_name, shape, chunks, data, fill, options = case
    store = MemoryStore()
    meta = FMT.array_metadata(shape, chunks, dtype_name, fill_value=fill, **options)
    array = FMT.create_array(store, "g/x", meta, attributes={"k": [1, "v"]})
    expected_fill = np.asarray(
        fill if not isinstance(fill, bytes) else np.frombuffer(fill, array.dtype)[0]
    )
    assert array.fill_value.tobytes() == expected_fill.astype(array.dtype).tobytes()
    reopened = FMT.open_array(store, "g/x")
    assert reopened.metadata == json.loads(json.dumps(meta | {"attributes": {"k": [1, "v"]}}))
    assert reopened[...].tobytes() == np.full(shape, array.fill_value, array.dtype).tobytes()
    # a partial write first, then the whole array: both compared with a NumPy model
    model = np.full(shape, array.fill_value, dtype=array.dtype)
    region = tuple(slice(draw.draw(st.integers(0, n)), None) for n in shape)
    model[region] = data[region]
    array[region] = data[region]
    assert FMT.open_array(store, "g/x")[...].tobytes() == model.tobytes()
    array[...] = data
    assert FMT.open_array(store, "g/x")[...].tobytes() == data.tobytes()
    assert all(KEY.fullmatch(key) for key in store.data)
    if math.prod(shape):
        chunk_keys = {k for k in array.store.list() if k.startswith("data/")}
        assert chunk_keys == {array.chunk_key(i) for i in array.chunk_indices()}


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
VALID = FMT.array_metadata(
    (5, 4),
    (2, 3),
    "float32",
    fill_value=1.5,
    codecs=[{"type": GZIP, "configuration": {"level": 1}}],
    storage_transformers=[sharding([2, 1])],
)
MEMBERS = list(VALID) + ["dimension_names"]
ENTRY_POINT = {
    "zarr_format": "https://purl.org/zarr/spec/core/3.0",
    "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"},
    "extensions": [],
}


def _must_not_crash(action) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FallbackDataTypeWarning)
            action()
    except ZarrError:
        pass


@SETTINGS
@given(st.sampled_from(MEMBERS), JSON, st.sampled_from([None, "0", "1", "2"]), JSON)
def test_hostile_array_documents(member, value, inner, inner_value):
    doc = json.loads(json.dumps(VALID))
    if inner is not None and isinstance(doc.get(member), (list, dict)) and doc[member]:
        container = doc[member]
        if isinstance(container, list):
            container[int(inner) % len(container)] = inner_value
        else:
            container[sorted(container)[int(inner) % len(container)]] = inner_value
    else:
        doc[member] = value
    store = MemoryStore(
        {
            "zarr.json": json.dumps(ENTRY_POINT).encode(),
            "meta/a.array.json": json.dumps(doc).encode(),
            "data/a/c0/0": b"\x1f\x8b\x08junk" + bytes(40),
        }
    )

    def open_and_read():
        array = FMT.open_array(store, "a")
        if all(array.shape):
            array[(0,) * array.ndim]

    _must_not_crash(open_and_read)


@SETTINGS
@given(JSON, JSON)
def test_hostile_entry_points_and_groups(entry, group):
    store = MemoryStore(
        {"zarr.json": json.dumps(entry).encode(), "meta/g.group.json": json.dumps(group).encode()}
    )
    _must_not_crash(lambda: FMT.open_group(store, "g"))
    _must_not_crash(lambda: FMT.children(store, ""))
    _must_not_crash(lambda: FMT.flavour(store))


@SETTINGS
@given(st.binary(max_size=200), st.sampled_from([None, [1, 2], [2, 2]]))
def test_hostile_chunk_and_shard_bytes(blob, cps):
    meta = FMT.array_metadata(
        (4, 4),
        (2, 2),
        "int16",
        codecs=[{"type": GZIP, "configuration": {"level": 1}}],
        storage_transformers=None if cps is None else [sharding(cps)],
    )
    store = MemoryStore()
    array = FMT.create_array(store, "a", meta)
    store.set("data/a/c0/0", blob)
    _must_not_crash(lambda: array[:])
    _must_not_crash(lambda: array.__setitem__((slice(0, 1), slice(0, 1)), 3))
