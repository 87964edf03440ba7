"""`validate` and the extension tier: a store whose only unusual feature is a registered extension
exits 0 (checked) or 3 (cannot check), never 1; unregistered names are a NOTE when the reference
reads them and an ERROR only where the spec makes readers refuse them; a problem shared by many
chunks is one finding; zarr-python 2's numeric fill for string arrays is a warning."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from conformance.corpus.citations import specs_root
from conformance.testing.documents import v3_array

REGISTRY = (
    specs_root() or Path("shared/specs")
) / "zarr-extensions"  # the registry copy beside the repo


def v3_doc(data_type, fill, codecs, shape=(4,), chunks=(2,), grid=None) -> dict:
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": grid or {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": fill,
        "codecs": codecs,
    }


def test_help_documents_the_levels_and_exit_statuses():
    from conformance.validate.cli import EPILOG

    assert (
        "CANNOT-CHECK" in EPILOG and "3  nothing is broken" in EPILOG and "2  usage error" in EPILOG
    )


@pytest.mark.parametrize("sample", ["bitround_float32.zarr", "bitround_uint8.zarr"])
def test_registry_sample_data_validates(run_cli, sample):
    path = REGISTRY / "codecs" / "bitround" / "sample_data" / sample
    if not path.is_dir():
        pytest.skip("no zarr-extensions copy here")
    output = run_cli(path)
    assert output.code == 0, output
    assert output.findings == []


REGISTERED = {
    "bfloat16": (
        v3_doc("bfloat16", "NaN", [{"name": "bytes", "configuration": {"endian": "big"}}]),
        {},
    ),
    "float4": (
        v3_doc(
            "float4_e2m1fn",
            -1.5,
            [{"name": "packbits", "configuration": {"padding_encoding": "first_byte"}}],
        ),
        {},
    ),
    "int4": (v3_doc("int4", -8, [{"name": "bytes"}]), {"c/0": b"\x0f\xf8"}),
    "utf32": (
        v3_doc(
            {"name": "fixed_length_utf32", "configuration": {"length_bytes": 8}},
            "ab",
            [{"name": "bytes", "configuration": {"endian": "little"}}],
        ),
        {"c/0": "a\0\0\0b\0\0\0\0\0\0\0\0\0\0\0".encode("utf-16-le")[:16]},
    ),
    "struct": (
        v3_doc(
            {"name": "struct", "configuration": {"fields": [{"name": "x", "data_type": "uint8"}]}},
            {"x": 1},
            [{"name": "bytes"}],
        ),
        {"c/0": b"\x01\x02"},
    ),
    "cast": (
        v3_doc(
            "float32",
            0.0,
            [
                {
                    "name": "cast_value",
                    "configuration": {"data_type": "uint8", "rounding": "towards-zero"},
                },
                {"name": "bytes"},
            ],
        ),
        {"c/0": b"\x01\x02"},
    ),
    "rectilinear": (
        v3_doc(
            "uint8",
            0,
            [{"name": "bytes"}],
            grid={
                "name": "rectilinear",
                "configuration": {"kind": "inline", "chunk_shapes": [[1, 3]]},
            },
        ),
        {"c/0": b"\x07", "c/1": b"\x01\x02\x03"},
    ),
    "zfp": (v3_doc("float32", 0.0, [{"name": "zfp", "configuration": {"mode": "reversible"}}]), {}),
}


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_registered_extensions_the_reference_implements_validate_clean(run_cli, store_dir, name):
    document, chunks = REGISTERED[name]
    output = run_cli(store_dir({"zarr.json": document, **chunks}))
    assert output.code == 0, output
    assert not [f for f in output.findings if f[0] in ("ERROR", "CANNOT-CHECK")], output


def test_a_registered_extension_the_reference_cannot_check_exits_3(run_cli, store_dir):
    expert = {
        "name": "zfp",
        "configuration": {
            "mode": "expert",
            "minbits": 1,
            "maxbits": 13,
            "maxprec": 19,
            "minexp": -2,
        },
    }
    output = run_cli(store_dir({"zarr.json": v3_doc("float32", 0.0, [expert]), "c/0": b"\x00" * 8}))
    assert output.code == 3, output
    assert output.has("CANNOT-CHECK", "V3-EXT-004", "unknown-codec", "/")
    assert "cannot check this extension" in output.out and "SUMMARY CANNOT-CHECK" in output.summary
    assert not output.has("ERROR", "V3-EXT-004", "unknown-codec", "/")
    # --json says the same
    records = [
        json.loads(line)
        for line in run_cli(
            store_dir({"zarr.json": v3_doc("float32", 0.0, [expert])}, "j.zarr"), "--json"
        ).lines
    ]
    assert (
        records[-1]["verdict"] == "cannot-check"
        and records[-1]["exit_code"] == 3
        and records[-1]["cannot_check"] == 1
    )


def test_an_error_elsewhere_still_wins_over_cannot_check(run_cli, store_dir):
    expert = {
        "name": "zfp",
        "configuration": {
            "mode": "expert",
            "minbits": 1,
            "maxbits": 13,
            "maxprec": 19,
            "minexp": -2,
        },
    }
    output = run_cli(
        store_dir(
            {
                "zarr.json": {"zarr_format": 3, "node_type": "group"},
                "z/zarr.json": v3_doc("float32", 0.0, [expert]),
                "bad/zarr.json": v3_array([4], [2], foo=1),
            }
        )
    )
    assert output.code == 1 and output.has("CANNOT-CHECK", "V3-EXT-004", "unknown-codec", "/z")


def test_unregistered_names_the_reference_reads_are_a_note(run_cli, store_dir):
    document = v3_doc(
        {"name": "null_terminated_bytes", "configuration": {"length_bytes": 2}},
        "",
        [{"name": "bytes"}, {"name": "numcodecs.zlib", "configuration": {"level": 1}}],
    )
    import zlib

    output = run_cli(store_dir({"zarr.json": document, "c/0": zlib.compress(b"abcd")}))
    assert output.code == 0, output
    assert output.has("NOTE", None, "unregistered-extension", "/")
    assert (
        "'null_terminated_bytes' is not registered" in output.out
        and "'numcodecs.zlib' is not registered" in output.out
    )


@pytest.mark.parametrize(
    "member,value,reason,requirement",
    [
        ("data_type", "int128", "invalid-data-type", "V3-DT-008"),
        (
            "data_type",
            {"name": "my_type", "configuration": {"x": 1}},
            "invalid-data-type",
            "V3-DT-008",
        ),
        ("codecs", [{"name": "bytes"}, {"name": "my_codec"}], "unknown-codec", "V3-EXT-004"),
        (
            "chunk_grid",
            {"name": "my_grid", "configuration": {}},
            "invalid-chunk-grid",
            "V3-EXT-005",
        ),
        ("chunk_key_encoding", {"name": "my_keys"}, "invalid-chunk-key-encoding", "V3-EXT-005"),
    ],
)
def test_unknown_unregistered_extensions_are_errors_where_the_spec_makes_readers_refuse(
    run_cli, store_dir, member, value, reason, requirement
):
    document = v3_doc("uint8", 0, [{"name": "bytes"}])
    document[member] = value
    output = run_cli(store_dir({"zarr.json": document}))
    assert output.code == 1 and output.has("ERROR", requirement, reason, "/"), output
    assert "not registered" in output.out


def test_one_problem_in_many_chunks_is_one_finding_with_a_count(run_cli, store_dir):
    files = {
        "zarr.json": v3_doc(
            "uint16",
            0,
            [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
            shape=(216,),
            chunks=(2,),
        )
    }
    for i in range(108):
        files[f"c/{i}"] = b"\x01\x00\x02\x00" + b"\x00\x00\x00\x00"  # wrong checksums, all of them
    files["c.0"] = b"stray"
    files["c/999"] = b"outside the grid"
    output = run_cli(store_dir(files))
    assert output.code == 1
    mismatches = [f for f in output.findings if f[2] == "checksum-mismatch"]
    assert len(mismatches) == 1, output
    assert mismatches[0][4].startswith(
        "108 chunks or keys share this problem ('c/0', 'c/1', 'c/10' and 105 more)"
    )
    assert "108 chunks checked" in output.summary


def test_zarr_python_2_string_array_with_fill_0_is_a_warning_and_reads_empty_strings(
    run_cli, store_dir
):
    from numcodecs import VLenUTF8

    from conformance import reference as ref

    zarray = {
        "chunks": [2],
        "compressor": None,
        "dtype": "|O",
        "fill_value": 0,
        "filters": [{"id": "vlen-utf8"}],
        "order": "C",
        "shape": [4],
        "zarr_format": 2,
    }
    root = store_dir(
        {".zarray": zarray, "0": bytes(VLenUTF8().encode(np.array(["a", "bb"], dtype=object)))}
    )
    output = run_cli(root)
    assert output.code == 0, output
    assert output.has("WARNING", None, "invalid-fill-value", "/")
    assert "§Metadata" in output.out
    assert ref.open_node(root)[:].tolist() == ["a", "bb", "", ""]


@pytest.mark.second_opinion
def test_stores_zarr_python_writes_by_default_validate(run_cli, tmp_path):
    zarr = pytest.importorskip("zarr")
    import zarr.codecs.numcodecs as nc

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        root = zarr.open_group(tmp_path / "zp.zarr", mode="w")
        root.create_array("u", shape=(5,), chunks=(2,), dtype="<U5")[:] = np.array(
            ["a", "bb", "", "ccc", "d"]
        )
        root.create_array("s", shape=(5,), chunks=(2,), dtype="S3")[:] = np.array(
            [b"a", b"bb", b"", b"ccc", b"d"]
        )
        root.create_array("t", shape=(3,), chunks=(2,), dtype=[("a", "<i4"), ("b", "<f8")])[:] = (
            np.zeros(3, [("a", "<i4"), ("b", "<f8")])
        )
        root.create_array(
            "z",
            shape=(50,),
            chunks=(10,),
            dtype="u2",
            compressors=[nc.Zlib(level=1)],
            filters=[nc.Delta(dtype="u2")],
        )[:] = np.arange(50, dtype="u2")
        root.create_array(
            "p", shape=(50,), chunks=(10,), dtype="f8", serializer=nc.PCodec(), compressors=None
        )[:] = np.arange(50.0)
    output = run_cli(tmp_path / "zp.zarr")
    assert output.code == 0, output
    assert not [f for f in output.findings if f[0] in ("ERROR", "CANNOT-CHECK")]
