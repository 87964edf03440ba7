"""Every invalid codec list named in V3-PIPE-*, V3-ARR-005/014, V3-EXT-004 and the per-codec
configuration requirements is rejected with the right reason code; the valid ones build."""

from __future__ import annotations

import time

import pytest

from conformance.reference.errors import LimitError, MetadataError
from conformance.reference.formats.v3.codecs import build_pipeline, codec_names

from .helpers import BE, CRC, LE, blosc, gzip, pipeline, rejects, shard, transpose, zstd


def test_codec_names():
    from conformance.reference.formats.v3 import registry

    names = codec_names()
    assert {
        "bytes",
        "transpose",
        "gzip",
        "blosc",
        "zstd",
        "crc32c",
        "sharding_indexed",
        "vlen-utf8",
        "vlen-bytes",
    } <= names
    assert names >= registry.CODECS  # every codec of the zarr-extensions registry has a class
    assert {n for n in names if not n.startswith("numcodecs.")} == registry.CODECS


# ---- V3-PIPE-001 / V3-ARR-005: order and presence of the array->bytes codec -------------------
@pytest.mark.parametrize(
    "codecs",
    [
        [gzip(), LE],  # bytes->bytes before array->bytes
        [LE, transpose([0])],  # array->array after array->bytes
        [LE, LE],  # two array->bytes codecs
        [transpose([0])],  # no array->bytes codec
        [gzip()],
        [CRC, LE, gzip()],
        [LE, shard([2])],
    ],
    ids=[
        "gzip-bytes",
        "bytes-transpose",
        "bytes-bytes",
        "transpose",
        "gzip",
        "crc-bytes-gzip",
        "bytes-sharding",
    ],
)
def test_codec_order(codecs):
    rejects("codec-order", codecs, requirement="V3-PIPE-001")


def test_empty_list_needs_array_to_bytes_codec():
    rejects("codec-order", [], requirement="V3-ARR-005")


@pytest.mark.parametrize("value", [None, "bytes", {"name": "bytes"}, 5])
def test_codecs_must_be_a_list(value):
    rejects("invalid-codec", value, data_type="uint8", requirement="V3-ARR-005")


# ---- V3-ARR-014 / V3-EXT-001: the shape of each entry --------------------------------------
@pytest.mark.parametrize(
    "entry",
    [
        5,
        None,
        ["bytes"],
        {"configuration": {}},
        {"name": 5},
        {"name": None},
        {"name": "bytes", "configuration": 5},
        {"name": "bytes", "configuration": None},
        {"name": "bytes", "configuration": []},
        {"name": "bytes", "foo": 1},
        {"name": "bytes", "must_understand": "no"},
    ],
)
def test_malformed_entry(entry):
    rejects("invalid-codec", [entry], data_type="uint8")


def test_short_hand_name_is_the_object_form():
    """3.1 short-hand: "bytes" is {"name": "bytes"} (V3-ARR-014)."""
    for codecs in (
        ["bytes"],
        [{"name": "bytes"}],
        [{"name": "bytes", "configuration": {}}],
        ["bytes", "crc32c"],
    ):
        p = pipeline(codecs, (3,), "uint8")
        assert p.to_json()[0]["name"] == "bytes"
    # a short-hand name does not supply a required configuration
    rejects("invalid-codec", [LE, "gzip"], requirement="V3-GZIP-001")
    rejects("invalid-codec", ["transpose", LE], requirement="V3-TRANS-001")


def test_must_understand_true_on_a_known_codec_is_accepted():
    pipeline(
        [{"name": "bytes", "configuration": {"endian": "little"}, "must_understand": True}], (2,)
    )


# ---- V3-EXT-004: unknown codecs -----------------------------------------------------------
@pytest.mark.parametrize(
    "codecs",
    [
        [LE, {"name": "no_such_codec"}],
        [LE, {"name": "no_such_codec", "must_understand": False}],
        [{"name": "no_such_codec", "must_understand": False}, LE],
        [LE, "no_such_codec"],
        [{"name": "Bytes", "configuration": {"endian": "little"}}],
        [LE, {"name": "GZip", "configuration": {"level": 1}}],
        [{"name": "endian", "configuration": {"endian": "little"}}],  # V3HIST-001, not by default
        [shard([2], codecs=[{"name": "no_such_codec"}])],
    ],
)
def test_unknown_codec(codecs):
    rejects("unknown-codec", codecs, requirement="V3-EXT-004")


def test_legacy_endian_name_only_in_legacy_mode():
    import numpy as np

    codecs = [{"name": "endian", "configuration": {"endian": "big"}}]
    p = build_pipeline(codecs, (2,), "<i2", np.array(0, "<i2"), "int16", legacy=True)
    assert p.encode(np.array([1, 2], "<i2")) == bytes.fromhex("00010002")


def test_legacy_transpose_letters_only_in_legacy_mode():
    import numpy as np

    rejects(
        "invalid-order", [{"name": "transpose", "configuration": {"order": "F"}}, LE], shape=(2, 3)
    )
    p = build_pipeline(
        [{"name": "transpose", "configuration": {"order": "F"}}, LE],
        (2, 3),
        "<i4",
        np.array(0, "<i4"),
        "int32",
        legacy=True,
    )
    a = np.arange(6, dtype="<i4").reshape(2, 3)
    assert p.encode(a) == a.tobytes(order="F")


# ---- V3-PIPE-004: a codec that cannot accept its input -------------------------------------
def test_transpose_order_longer_than_rank():
    rejects("invalid-order", [transpose([0, 1, 2]), LE], shape=(4, 4), requirement="V3-PIPE-004")


def test_bytes_codec_on_variable_length_string():
    rejects("invalid-codec", [LE], data_type="string", fill="", requirement="V3-PIPE-004")
    rejects(
        "invalid-codec", [{"name": "bytes"}], data_type="bytes", fill=b"", requirement="V3-PIPE-004"
    )


def test_vlen_codecs_only_for_their_data_type():
    rejects("invalid-codec", [{"name": "vlen-utf8"}], data_type="int32", requirement="V3-PIPE-004")
    rejects(
        "invalid-codec",
        [{"name": "vlen-bytes"}],
        data_type="string",
        fill="",
        requirement="V3-PIPE-004",
    )
    rejects(
        "invalid-codec",
        [{"name": "vlen-utf8", "configuration": {"x": 1}}],
        data_type="string",
        fill="",
    )


# ---- bytes (V3-BYTES-001/002) ---------------------------------------------------------------
@pytest.mark.parametrize("endian", ["native", "LITTLE", "Big", 1, None, True])
def test_bytes_endian_values(endian):
    rejects(
        "invalid-codec",
        [{"name": "bytes", "configuration": {"endian": endian}}],
        requirement="V3-BYTES-001",
    )


def test_bytes_unknown_member():
    rejects(
        "invalid-codec", [{"name": "bytes", "configuration": {"endian": "little", "order": "C"}}]
    )


@pytest.mark.parametrize(
    "data_type",
    [
        "int16",
        "int32",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "numpy.datetime64",
    ],
)
def test_bytes_endian_required_for_multi_byte_types(data_type):
    rejects("invalid-codec", [{"name": "bytes"}], data_type=data_type, requirement="V3-BYTES-002")
    rejects(
        "invalid-codec",
        [{"name": "bytes", "configuration": {}}],
        data_type=data_type,
        requirement="V3-BYTES-002",
    )


@pytest.mark.parametrize("data_type", ["bool", "int8", "uint8", "r8", "r16", "r48"])
def test_bytes_endian_optional_for_one_byte_and_opaque_types(data_type):
    pipeline([{"name": "bytes"}], (3,), data_type)
    pipeline(["bytes"], (3,), data_type)
    pipeline([BE], (3,), data_type)


# ---- transpose (V3-TRANS-001) ------------------------------------------------------------
@pytest.mark.parametrize(
    "order", ["F", "C", [0, 0], [0, 2], [1], [0, 1.0], [True, False], [-1, 0], None, {}]
)
def test_transpose_order_must_be_a_permutation(order):
    rejects(
        "invalid-order",
        [{"name": "transpose", "configuration": {"order": order}}, LE],
        shape=(2, 3),
    )


def test_transpose_needs_order():
    rejects("invalid-codec", [{"name": "transpose"}, LE], shape=(2, 3), requirement="V3-TRANS-001")
    rejects("invalid-codec", [{"name": "transpose", "configuration": {}}, LE], shape=(2, 3))
    rejects(
        "invalid-codec",
        [{"name": "transpose", "configuration": {"order": [1, 0], "x": 0}}, LE],
        shape=(2, 3),
    )


# ---- gzip / zstd / blosc / crc32c configurations -----------------------------------------
@pytest.mark.parametrize(
    "config",
    [
        {"level": 10},
        {"level": -1},
        {"level": "1"},
        {"level": 1.0},
        {"level": True},
        {},
        {"level": 1, "x": 2},
        None,
    ],
)
def test_gzip_configuration(config):
    entry = {"name": "gzip"} if config is None else {"name": "gzip", "configuration": config}
    rejects("invalid-codec", [LE, entry], requirement="V3-GZIP-001")


@pytest.mark.parametrize(
    "config",
    [
        {"level": 23},
        {"level": -131073},
        {"level": 1.5},
        {"checksum": True},
        {"level": 1, "checksum": "yes"},
        {"level": 1, "checksum": 0},
        None,
        {"level": 1, "threads": 2},
    ],
)
def test_zstd_configuration(config):
    entry = {"name": "zstd"} if config is None else {"name": "zstd", "configuration": config}
    rejects("invalid-codec", [LE, entry])


def test_zstd_valid_configurations():
    for config in (
        {"level": 0},
        {"level": 22},
        {"level": -131072},
        {"level": 3, "checksum": False},
        {"level": 3, "checksum": True},
    ):
        pipeline([LE, {"name": "zstd", "configuration": config}], (4,))


@pytest.mark.parametrize(
    "codec, requirement",
    [
        (blosc(cname="lzma"), "V3-BLOSC-001"),
        (blosc(cname="LZ4"), "V3-BLOSC-001"),
        (blosc(clevel=10), "V3-BLOSC-001"),
        (blosc(blocksize=-1), "V3-BLOSC-001"),
        (blosc(shuffle=1), "V3-BLOSC-002"),
        (blosc(shuffle=0), "V3-BLOSC-002"),
        (blosc(shuffle=-1), "V3-BLOSC-002"),
        (blosc(shuffle="SHUFFLE"), "V3-BLOSC-002"),
        (blosc(shuffle="shuffle", typesize=None), "V3-BLOSC-003"),
        (blosc(shuffle="bitshuffle", typesize=None), "V3-BLOSC-003"),
        (blosc(typesize=0), "V3-BLOSC-003"),
        (blosc(typesize=True), "V3-BLOSC-003"),
        (
            {
                "name": "blosc",
                "configuration": {"cname": "lz4", "clevel": 1, "shuffle": "noshuffle"},
            },
            "V3-BLOSC-001",
        ),
    ],
)
def test_blosc_configuration(codec, requirement):
    rejects("invalid-codec", [LE, codec], requirement=requirement)


def test_blosc_noshuffle_needs_no_typesize():
    pipeline([LE, blosc(shuffle="noshuffle", typesize=None)], (4,))
    for cname in ("lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib"):
        pipeline([LE, blosc(cname=cname)], (4,))


@pytest.mark.parametrize(
    "entry",
    [
        {"name": "crc32c", "configuration": {"location": "end"}},
        {"name": "crc32c", "configuration": 1},
    ],
)
def test_crc32c_takes_no_parameters(entry):
    rejects("invalid-codec", [LE, entry])


def test_crc32c_with_and_without_empty_configuration():
    pipeline([LE, {"name": "crc32c"}], (4,))
    pipeline([LE, {"name": "crc32c", "configuration": {}}], (4,))
    pipeline([LE, "crc32c"], (4,))


# ---- sharding_indexed (V3-SHARD-001..004, V3-TRANS-004) ------------------------------------
def _without(key):
    codec = shard([2])
    del codec["configuration"][key]
    return codec


@pytest.mark.parametrize(
    "codec",
    [
        _without("index_codecs"),  # the pre-July-2023 form
        _without("codecs"),
        _without("chunk_shape"),
        shard([2], index_location="middle"),
        shard([2], index_location=None) | {"configuration": None},
        {"name": "sharding_indexed"},
        {"name": "sharding_indexed", "configuration": dict(shard([2])["configuration"], order="C")},
    ],
)
def test_sharding_configuration(codec):
    rejects("invalid-codec", [codec], shape=(8,))


@pytest.mark.parametrize("inner", [[3], [2, 2], [], [0], [16], [-2], "2", [2.0], [True]])
def test_sharding_inner_chunk_shape_must_divide(inner):
    rejects("invalid-chunk-shape", [shard(inner)], shape=(8,))


@pytest.mark.parametrize(
    "config_key, codecs",
    [
        ("codecs", [gzip()]),
        ("codecs", []),
        ("index_codecs", []),
        ("index_codecs", [CRC]),
        ("codecs", [LE, transpose([0])]),
    ],
)
def test_sharding_nested_lists_need_one_array_to_bytes_codec(config_key, codecs):
    codec = shard([2])
    codec["configuration"][config_key] = codecs
    rejects("codec-order", [codec], shape=(8,), requirement="V3-SHARD-003")


@pytest.mark.parametrize("value", [None, {"name": "bytes"}, "bytes"])
def test_sharding_nested_lists_must_be_lists(value):
    codec = shard([2])
    codec["configuration"]["codecs"] = value
    rejects("invalid-codec", [codec], shape=(8,))


@pytest.mark.parametrize("compressor", [gzip(), zstd(), blosc()])
def test_sharding_index_codecs_must_be_fixed_size(compressor):
    rejects(
        "invalid-codec",
        [shard([2], index_codecs=[LE, compressor])],
        shape=(8,),
        requirement="V3-SHARD-004",
    )
    rejects(
        "invalid-codec",
        [shard([2], index_codecs=[LE, CRC, compressor])],
        shape=(8,),
        requirement="V3-SHARD-004",
    )


def test_sharding_index_codecs_may_not_shard():
    rejects(
        "invalid-codec",
        [shard([2], index_codecs=[shard([1, 2])])],
        shape=(8,),
        requirement="V3-SHARD-004",
    )


def test_sharding_index_needs_endian():
    rejects(
        "invalid-codec",
        [shard([2], index_codecs=[{"name": "bytes"}])],
        shape=(8,),
        requirement="V3-BYTES-002",
    )


def test_transpose_before_sharding_uses_the_transposed_shape():
    """V3-TRANS-004: array chunk (4, 8) transposed to (8, 4); inner [8, 2] fits, [4, 8] does not."""
    pipeline([transpose([1, 0]), shard([8, 2])], (4, 8))
    rejects(
        "invalid-chunk-shape",
        [transpose([1, 0]), shard([4, 8])],
        shape=(4, 8),
        requirement="V3-SHARD-002",
    )


def test_inner_codec_errors_surface():
    rejects(
        "invalid-codec",
        [shard([2], codecs=[{"name": "bytes"}])],
        shape=(8,),
        requirement="V3-BYTES-002",
    )
    rejects("invalid-order", [shard([2, 2], codecs=[transpose([0]), LE])], shape=(4, 4))


# ---- hostile lists -------------------------------------------------------------------------
def test_deep_nesting_is_limited():
    codec = LE
    for _ in range(40):
        codec = shard([1], codecs=[codec])
    with pytest.raises(LimitError):
        pipeline([codec], (1,))


def test_very_long_list_is_limited():
    with pytest.raises(LimitError):
        pipeline([LE] + [CRC] * 10_000, (4,))


def test_huge_chunk_shape_builds_without_allocating():
    start = time.perf_counter()
    p = pipeline([shard([1], index_codecs=[LE, CRC])], (2**40,))
    assert p.sharding.index_size == 16 * 2**40 + 4
    assert time.perf_counter() - start < 1


def test_errors_are_metadata_errors_with_codes():
    with pytest.raises(MetadataError) as info:
        pipeline([LE, gzip(11)], (4,))
    assert info.value.reason == "invalid-codec" and "gzip" in str(info.value)
