"""Hostile input: any JSON in any `.zarray` member and any bytes in a chunk give a ZarrError (with
a known reason code) or a result, never another exception, crash or hang."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from v2_helpers import make_store, zarray

from conformance.reference import REASONS
from conformance.reference.errors import ZarrError
from conformance.reference.formats.v1 import FORMAT as v1
from conformance.reference.formats.v2 import FORMAT as v2

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["<i4", "|O", "NaN", "/", ".", "F", "zlib", "<M8[s]", "|S2"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["id", "level", "dtype", "cname", "shuffle", "x", "astype", "elementsize"]
            ),
            children,
            max_size=3,
        )
    ),
    max_leaves=12,
)
KEYS = [
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compressor",
    "fill_value",
    "order",
    "filters",
    "dimension_separator",
]


def exercise(fmt, store):
    try:
        array = fmt.open_node(store, "")
        array[tuple(slice(0, 5) for _ in array.shape)]  # a small corner: a whole read may be huge
    except ZarrError as exc:
        assert exc.reason in REASONS


@settings(max_examples=200, deadline=None, database=None)
@given(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=4), st.binary(max_size=64))
def test_any_member_values(overrides, chunk):
    exercise(v2, make_store({".zarray": zarray(**overrides), "0": chunk, "1": chunk}))


@settings(max_examples=150, deadline=None, database=None)
@given(
    st.sampled_from(
        [
            {},
            {"compressor": {"id": "zlib", "level": 1}},
            {"compressor": {"id": "blosc"}},
            {"compressor": {"id": "zstd"}},
            {"compressor": {"id": "lz4"}},
            {"compressor": {"id": "gzip"}},
            {"compressor": {"id": "bz2"}},
            {"compressor": {"id": "lzma"}},
            {"filters": [{"id": "delta", "dtype": "<i4"}]},
            {"filters": [{"id": "crc32"}]},
            {"dtype": "|O", "fill_value": None, "filters": [{"id": "vlen-utf8"}]},
            {"dtype": "|O", "fill_value": None, "filters": [{"id": "vlen-bytes"}]},
            {
                "dtype": [["a", "<M8[s]"], ["b", "|S3", [2]]],
                "fill_value": None,
                "compressor": {"id": "zlib"},
            },
        ]
    ),
    st.binary(max_size=200),
)
def test_any_chunk_bytes(overrides, chunk):
    exercise(v2, make_store({".zarray": zarray(**overrides), "0": chunk}))


@settings(max_examples=150, deadline=None, database=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "zarr_format",
                "shape",
                "chunks",
                "dtype",
                "compression",
                "compression_opts",
                "fill_value",
                "order",
            ]
        ),
        json_values,
        max_size=3,
    ),
    st.binary(max_size=32),
)
def test_any_v1_member_values(overrides, chunk):
    doc = {
        "chunks": [2],
        "compression": "zlib",
        "compression_opts": 1,
        "dtype": "<i4",
        "fill_value": 0,
        "order": "C",
        "shape": [4],
        "zarr_format": 1,
        **overrides,
    }
    exercise(v1, make_store({"meta": doc, "attrs": {}, "0": chunk}))


def test_huge_shapes_do_not_allocate():
    store = make_store({".zarray": zarray(shape=[2**62, 2**62], chunks=[2**40, 2**40])})
    array = v2.open_array(store, "")
    try:
        array[0:2, 0:2]
    except ZarrError as exc:
        assert exc.reason == "too-large"


def test_deeply_nested_json_is_an_error():
    raw = ("[" * 5000 + "]" * 5000).encode()
    exercise(v2, make_store({".zarray": raw}))
