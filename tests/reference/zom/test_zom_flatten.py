"""Consolidated metadata as a flattened ZOM (ZOM-020)."""

from __future__ import annotations

import json
import warnings

import pytest
from zom_fixtures import group_005_store, raw, v2_hierarchy_store, v3_hierarchy_store, zarray

from conformance.reference import DirectoryStore, MemoryStore, get_format, zom
from conformance.reference.errors import MetadataError, UnsupportedError


def test_v2_flatten_is_the_zmetadata_shape():
    model = zom.from_store(v2_hierarchy_store())
    flat = zom.flatten(model)
    assert flat["zarr_consolidated_format"] == 1
    assert list(flat["metadata"]) == sorted(flat["metadata"])
    assert flat["metadata"][".zgroup"] == {"zarr_format": 2}
    assert flat["metadata"][".zattrs"] == {"title": "root", "n": [1, 2.5, None]}
    assert flat["metadata"]["g/temp/.zarray"]["order"] == "F"
    assert "ints/.zattrs" not in flat["metadata"]  # no attributes, no .zattrs entry


def test_v2_flatten_matches_the_v2_consolidation_of_a_reference_written_store():
    from conformance.reference.formats.v2 import consolidated

    model = zom.from_store(v2_hierarchy_store())
    store = MemoryStore()
    zom.to_store(model, store)
    assert consolidated.write_consolidated(store) == zom.flatten(model)
    document = {"zarr_consolidated_format": 1, "metadata": consolidated.read_consolidated(store)}
    assert zom.dumps(zom.unflatten(document, 2)) == zom.dumps(model)


def test_v3_flatten_is_the_inline_consolidated_metadata_shape():
    model = zom.from_store(v3_hierarchy_store())
    flat = zom.flatten(model)
    assert (
        flat["zarr_format"] == 3
        and flat["node_type"] == "group"
        and flat["attributes"] == {"title": "root"}
    )
    inline = flat["consolidated_metadata"]
    assert inline["kind"] == "inline" and inline["must_understand"] is False
    assert sorted(inline["metadata"]) == ["big", "c64", "g", "g/empty", "g/temp"]
    assert inline["metadata"]["g/temp"]["attributes"] == {"units": "K"}
    # the flattened root is a valid v3 group document for the reference
    store = MemoryStore({"zarr.json": raw(flat)})
    assert get_format("v3").read_consolidated(store) == inline["metadata"]


@pytest.mark.parametrize("make, version", [(v2_hierarchy_store, 2), (v3_hierarchy_store, 3)])
def test_unflatten_inverts_flatten(make, version):
    model = zom.from_store(make())
    assert zom.dumps(zom.unflatten(zom.flatten(model), version)) == zom.dumps(model)


def test_unflatten_keeps_only_real_members():
    flat = zom.flatten(zom.from_store(group_005_store(), "foo"))
    flat["metadata"]["qux/quux/.zarray"] = zarray()  # no qux/.zgroup: not a member (V2-GROUP-005)
    assert set(zom.unflatten(flat, 2).members) == {"bar", "baz"}


@pytest.mark.parametrize(
    "doc, version",
    [
        ({"metadata": {}}, 2),
        ({"zarr_consolidated_format": 1, "metadata": {"a/.zarray": zarray()}}, 2),
        ({"zarr_consolidated_format": 1, "metadata": {".zgroup": []}}, 2),
        ({"zarr_format": 3, "node_type": "group"}, 3),
        (
            {
                "zarr_format": 3,
                "node_type": "group",
                "consolidated_metadata": {"kind": "inline", "metadata": {"a": 1}},
            },
            3,
        ),
        ([], 3),
        ({}, 4),
    ],
)
def test_unflatten_refuses_malformed_documents(doc, version):
    with pytest.raises(MetadataError):
        zom.unflatten(doc, version)


def test_v3_array_root_has_no_consolidated_metadata():
    with pytest.raises(UnsupportedError):
        zom.flatten(zom.from_store(v3_hierarchy_store(), "big"))


def test_zarr_python_reads_a_flattened_zom_as_consolidated_metadata(tmp_path):
    """zarr-python 3 (second opinion) opens our v3 and v2 consolidated documents with the same
    members, taken from the consolidated document (one node's own metadata is deleted first)."""
    zarr = pytest.importorskip("zarr")
    for make, version, key, node_key in (
        (v3_hierarchy_store, 3, "zarr.json", "g/temp/zarr.json"),
        (v2_hierarchy_store, 2, ".zmetadata", "g/temp/.zarray"),
    ):
        model = zom.from_store(make())
        root = tmp_path / f"v{version}.zarr"
        zom.to_store(model, DirectoryStore(str(root), read_only=False))
        (root / key).write_text(json.dumps(zom.flatten(model)))
        (root / node_key).unlink()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            group = zarr.open_consolidated(str(root), zarr_format=version)
            members = sorted(name for name, _ in group.members(max_depth=None))
        assert members == sorted(path for path, _ in zom.iter_nodes(model) if path)
