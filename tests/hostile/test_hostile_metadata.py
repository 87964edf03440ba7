"""Metadata built to exhaust memory or time: enormous shapes and chunks, huge ranks, JSON nested
100000 deep, numbers with thousands of digits. The reference answers fast with a ZarrError
(LimitError / MetadataError), never MemoryError, RecursionError or a hang; `validate` reports
findings and exits 1, never with a traceback."""

from __future__ import annotations

import json
import time

import pytest

from conformance.reference import DirectoryStore, get_format
from conformance.reference.errors import LimitError, MetadataError, ZarrError
from conformance.testing.documents import v1_array, v2_array, v3_array, write_files

DEEP = 100_000


def deep_list() -> bytes:
    return b"[" * DEEP + b"]" * DEEP


def deep_object(leaf: bytes = b"1") -> bytes:
    return b'{"a":' * DEEP + leaf + b"}" * DEEP


# (format, files, a stored chunk key or None); every case must be refused or limited
CASES = {
    "v3 shape 2**64": ("v3", {"zarr.json": v3_array([2**64], [1], "uint8")}),
    "v3 rank 10000": ("v3", {"zarr.json": v3_array([1] * 10000, [1] * 10000, "uint8")}),
    "v3 chunk 2**40, stored": (
        "v3",
        {"zarr.json": v3_array([2**62], [2**40], "uint8"), "c/0": b"\0" * 8},
    ),
    "v3 chunks 2**40 x 2**40, stored": (
        "v3",
        {"zarr.json": v3_array([2**62, 2**62], [2**40, 2**40], "uint8"), "c/1/1": b"\0"},
    ),
    "v3 negative shape": ("v3", {"zarr.json": v3_array([-1], [1])}),
    "v3 deep zarr.json": ("v3", {"zarr.json": deep_list()}),
    "v3 deep attributes": (
        "v3",
        {"zarr.json": b'{"zarr_format":3,"node_type":"group","attributes":' + deep_object() + b"}"},
    ),
    "v3 fill with 5000 digits": (
        "v3",
        {
            "zarr.json": json.dumps(v3_array([2], [2]))
            .replace('"fill_value": 0', '"fill_value": ' + "9" * 5000)
            .encode()
        },
    ),
    "v3 huge dimension_names": (
        "v3",
        {"zarr.json": v3_array([2], [2], dimension_names=["x"] * 1_000_000)},
    ),
    "v2 shape 2**64": ("v2", {".zarray": v2_array([2**64], [1], "|u1")}),
    "v2 rank 10000": ("v2", {".zarray": v2_array([1] * 10000, [1] * 10000, "|u1")}),
    "v2 chunk 2**40, stored": (
        "v2",
        {".zarray": v2_array([2**62], [2**40], "|u1"), "0": b"\0" * 8},
    ),
    "v2 deep .zarray": ("v2", {".zarray": deep_object()}),
    "v2 deep .zattrs": ("v2", {".zarray": v2_array([2], [2]), ".zattrs": deep_object()}),
    "v2 deep .zgroup": ("v2", {".zgroup": deep_list()}),
    "v1 rank 10000": ("v1", {"meta": v1_array([1] * 10000, [1] * 10000), "attrs": {}}),
    "v1 deep meta": ("v1", {"meta": deep_object(), "attrs": {}}),
    "v3-draft deep entry point": ("v3-draft", {"zarr.json": deep_object(b'"x"')}),
}


def open_and_read(fmt, store):
    """Open the root node; read it (an array) or its children (a group) in full."""
    node = fmt.open_node(store, "")
    if node.kind == "array":
        for index in node.chunk_indices():
            node.read_chunk(index)
            break
        node[...]
    else:
        node.members()
    return node


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_refuses_fast(tmp_path, name):
    format, files = CASES[name]
    store = DirectoryStore(write_files(tmp_path / "store", files), read_only=True)
    started = time.monotonic()
    with pytest.raises(ZarrError) as info:
        open_and_read(get_format(format), store)
    assert time.monotonic() - started < 5, "took too long"
    assert isinstance(info.value, (LimitError, MetadataError)) or info.value.reason in (
        "corrupt-chunk",
        "too-large",
    ), info.value


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_exits_1_with_findings(tmp_path, validate_cli, name):
    format, files = CASES[name]
    root = write_files(tmp_path / "store", files)
    started = time.monotonic()
    output = validate_cli(root, "--format", format)
    assert time.monotonic() - started < 10
    assert output.code == 1, output
    assert any(f[0] == "ERROR" for f in output.findings), output
    assert "Traceback" not in output.out + output.err
    assert all(len(line) < 1000 for line in output.lines)  # huge shapes are not echoed in full


def test_detection_does_not_choke_either(tmp_path, validate_cli):
    """Without --format, the same stores are still detected and refused."""
    for name, (_format, files) in CASES.items():
        root = write_files(tmp_path / name.replace(" ", "_").replace("*", ""), files)
        output = validate_cli(root)
        assert output.code == 1, (name, output)
        assert "Traceback" not in output.out + output.err
