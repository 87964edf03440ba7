"""Property tests: random data types, shapes, chunkings and codec pipelines written by the reference
read back bit for bit, and region writes agree with a NumPy model."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.reference import MemoryStore
from conformance.reference.formats.v3 import FORMAT, encode_fill_value, parse_data_type

DATA_TYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "r8",
    "r16",
    "r24",
    "r48",
    {"name": "numpy.datetime64", "configuration": {"unit": "ms", "scale_factor": 1}},
    {"name": "numpy.timedelta64", "configuration": {"unit": "s", "scale_factor": 7}},
]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_values(draw, shape, dtype: np.dtype) -> np.ndarray:
    """Values with arbitrary bit patterns (NaN payloads, -0.0, NaT); bools only 0/1."""
    count = math.prod(shape)
    if dtype.kind == "b":
        return np.array(
            draw(st.lists(st.booleans(), min_size=count, max_size=count)), dtype="?"
        ).reshape(shape)
    raw = draw(st.binary(min_size=count * dtype.itemsize, max_size=count * dtype.itemsize))
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


@st.composite
def array_case(draw, with_codecs: bool):
    data_type = parse_data_type(draw(st.sampled_from(DATA_TYPES)))
    rank = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 9), min_size=rank, max_size=rank)))
    chunks = tuple(draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank)))
    fill = random_values(draw, (), data_type.dtype)
    codecs = draw(pipelines(data_type, chunks)) if with_codecs else None
    encoding = draw(st.sampled_from(["default", "v2", "/", "."]))
    return data_type, shape, chunks, fill, codecs, encoding


def bytes_codec(draw, data_type) -> dict:
    if data_type.has_endianness:
        return {
            "name": "bytes",
            "configuration": {"endian": draw(st.sampled_from(["little", "big"]))},
        }
    return {"name": "bytes"}


def compressors(draw, itemsize: int) -> list[dict]:
    choices = [
        {"name": "gzip", "configuration": {"level": 1}},
        {"name": "zstd", "configuration": {"level": 1, "checksum": False}},
        {
            "name": "blosc",
            "configuration": {
                "cname": "lz4",
                "clevel": 5,
                "shuffle": "shuffle",
                "typesize": itemsize,
                "blocksize": 0,
            },
        },
        {"name": "crc32c"},
    ]
    return draw(st.lists(st.sampled_from(choices), max_size=2))


@st.composite
def pipelines(draw, data_type, chunk_shape):
    codecs: list[dict] = []
    shape = tuple(chunk_shape)
    if shape and draw(st.booleans()):
        order = draw(st.permutations(range(len(shape))))
        codecs.append({"name": "transpose", "configuration": {"order": list(order)}})
        shape = tuple(shape[i] for i in order)  # sharding sees the transposed chunk (V3-TRANS-004)
    if draw(st.booleans()):
        inner = tuple(
            draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0])) for n in shape
        )
        inner_codecs = [bytes_codec(draw, data_type), *compressors(draw, data_type.itemsize)]
        index_codecs = [{"name": "bytes", "configuration": {"endian": "little"}}]
        if draw(st.booleans()):
            index_codecs.append({"name": "crc32c"})
        configuration = {
            "chunk_shape": list(inner),
            "codecs": inner_codecs,
            "index_codecs": index_codecs,
        }
        if draw(st.booleans()):
            configuration["index_location"] = draw(st.sampled_from(["start", "end"]))
        codecs.append({"name": "sharding_indexed", "configuration": configuration})
    else:
        codecs.append(bytes_codec(draw, data_type))
    codecs.extend(compressors(draw, data_type.itemsize))
    return codecs


def create(case):
    data_type, shape, chunks, fill, codecs, encoding = case
    store = MemoryStore()
    metadata = FORMAT.array_metadata(
        shape, chunks, data_type, fill_value=fill, codecs=codecs, chunk_key_encoding=encoding
    )
    array = FORMAT.create_array(store, "p/a", metadata)
    return store, array


@SETTINGS
@given(case=array_case(with_codecs=False), data=st.data())
def test_default_pipeline_round_trip(case, data):
    store, array = create(case)
    _, shape, _, fill, _, _ = case
    assert array.fill_value.tobytes() == fill.tobytes()
    values = random_values(data.draw, shape, array.dtype)
    array[...] = values
    reread = FORMAT.open_array(store, "p/a")
    assert reread[...].tobytes() == values.tobytes()
    assert reread.fill_value.tobytes() == fill.tobytes()


@SETTINGS
@given(case=array_case(with_codecs=True), data=st.data())
def test_random_pipeline_round_trip(case, data):
    store, array = create(case)
    values = random_values(data.draw, case[1], array.dtype)
    array[...] = values
    assert FORMAT.open_array(store, "p/a")[...].tobytes() == values.tobytes()


@st.composite
def regions(draw, shape):
    out = []
    for n in shape:
        start = draw(st.integers(0, n))
        out.append(slice(start, draw(st.integers(start, n))))
    return tuple(out)


@SETTINGS
@given(case=array_case(with_codecs=True), data=st.data())
def test_region_writes_match_a_numpy_model(case, data):
    """Partial chunk writes (read-modify-write) and reads of arbitrary boxes agree with NumPy."""
    store, array = create(case)
    _, shape, _, fill, _, _ = case
    model = np.empty(shape, dtype=array.dtype)
    model[...] = fill
    for _ in range(data.draw(st.integers(1, 3))):
        region = data.draw(regions(shape))
        values = random_values(data.draw, tuple(s.stop - s.start for s in region), array.dtype)
        array[region] = values
        model[region] = values
    reread = FORMAT.open_array(store, "p/a")
    assert reread[...].tobytes() == model.tobytes()
    box = data.draw(regions(shape))
    assert reread[box].tobytes() == model[box].tobytes()


@SETTINGS
@given(data_type=st.sampled_from(DATA_TYPES), data=st.data())
def test_metadata_document_round_trip(data_type, data):
    """create -> stored JSON -> open gives the same document and the same fill bits."""
    dt = parse_data_type(data_type)
    fill = random_values(data.draw, (), dt.dtype)
    store = MemoryStore()
    array = FORMAT.create_array(store, "", FORMAT.array_metadata((3,), (2,), dt, fill_value=fill))
    assert array.metadata["fill_value"] == encode_fill_value(fill, dt)
    assert FORMAT.open_array(store, "").fill_value.tobytes() == fill.tobytes()
