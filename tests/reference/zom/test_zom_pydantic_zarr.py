"""pydantic-zarr (the ZEP's own implementation) as a second opinion on zarr-python-written
hierarchies: same members, same node kinds, same metadata where both models define a property."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from conformance.reference import zom

zarr = pytest.importorskip("zarr")
pydantic_zarr_v2 = pytest.importorskip("pydantic_zarr.v2")
pydantic_zarr_v3 = pytest.importorskip("pydantic_zarr.v3")


def write_hierarchy(root, zarr_format: int):
    from numcodecs import GZip

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        group = zarr.open_group(
            str(root), mode="w", zarr_format=zarr_format, attributes={"title": "t", "n": [1, None]}
        )
        sub = group.create_group("sub", attributes={"ü": {"x": 1.5}})
        sub.create_group("empty")
        extra = {"dimension_names": ["y", None]} if zarr_format == 3 else {}
        group.create_array(
            "ints",
            shape=(7, 5),
            chunks=(3, 2),
            dtype="int32",
            fill_value=-1,
            attributes={"units": "m"},
            **extra,
        )
        sub.create_array("floats", shape=(4,), chunks=(3,), dtype="float64", fill_value=np.nan)
        sub.create_array("flags", shape=(3, 3), chunks=(2, 2), dtype="bool", fill_value=True)
        compressors = (
            GZip(level=2) if zarr_format == 2 else [{"name": "gzip", "configuration": {"level": 2}}]
        )
        group.create_array(
            "small", shape=(10,), chunks=(4,), dtype="uint8", compressors=compressors
        )
        return zarr.open_group(str(root), mode="r", zarr_format=zarr_format)


def as_json(value):
    """pydantic-zarr keeps tuples; compare JSON values."""
    return json.loads(json.dumps(value))


def compare(ours: dict, theirs: dict, path: str, report: list[str]) -> None:
    ours_kind = "group" if "members" in ours else "array"
    theirs_kind = "group" if "members" in theirs else "array"
    assert ours_kind == theirs_kind, path
    if ours_kind == "group":
        assert set(ours["members"]) == set(theirs["members"] or {}), path
        for name in ours["members"]:
            compare(ours["members"][name], theirs["members"][name], f"{path}/{name}", report)
    for key in sorted(set(ours) & set(theirs) - {"members"}):
        if zom.jsonvalue.json_equal(ours[key], theirs[key]) is False:
            report.append(f"{path or '/'} {key}: ours {ours[key]!r}, pydantic-zarr {theirs[key]!r}")


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_pydantic_zarr_agrees_on_structure_and_metadata(tmp_path, zarr_format):
    group = write_hierarchy(tmp_path / "h.zarr", zarr_format)
    spec_cls = pydantic_zarr_v2.GroupSpec if zarr_format == 2 else pydantic_zarr_v3.GroupSpec
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = as_json(spec_cls.from_zarr(group).model_dump(mode="json"))
    ours = zom.to_json(zom.from_store(str(tmp_path / "h.zarr")))
    differences: list[str] = []
    compare(ours, theirs, "", differences)
    assert differences == []
    # both define the core of every array
    core = {
        2: {"shape", "chunks", "dtype", "fill_value", "order", "compressor", "filters"},
        3: {"shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs"},
    }
    assert core[zarr_format] <= set(ours["members"]["ints"]) & set(theirs["members"]["ints"])


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_our_zom_validates_as_a_pydantic_zarr_spec(tmp_path, zarr_format):
    """The reverse direction: pydantic-zarr accepts our ZOM JSON as its own GroupSpec."""
    write_hierarchy(tmp_path / "h.zarr", zarr_format)
    ours = zom.to_json(zom.from_store(str(tmp_path / "h.zarr")))
    spec_cls = pydantic_zarr_v2.GroupSpec if zarr_format == 2 else pydantic_zarr_v3.GroupSpec
    spec = spec_cls.model_validate(ours)
    assert set(spec.members) == set(ours["members"])
