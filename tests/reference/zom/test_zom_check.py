"""Model checking (ZEP 6 §Validating): check_against, model files, attribute rules, `xarray`."""

from __future__ import annotations

import json

import pytest
from zom_fixtures import raw, v2_hierarchy_store, v3_array, v3_group, v3_hierarchy_store, zarray

from conformance.reference import MemoryStore, zom
from conformance.reference.errors import MetadataError
from conformance.reference.zom.rules import glob_to_regex


def errors(findings):
    return [f for f in findings if f.severity == "error"]


# ---- structure ---------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [v2_hierarchy_store, v3_hierarchy_store])
def test_a_store_conforms_to_its_own_zom(make):
    store = make()
    assert zom.check_against(store, zom.from_store(store)) == []


def test_missing_extra_and_changed_nodes_are_found():
    store = v2_hierarchy_store()
    expected = zom.to_json(zom.from_store(store))
    expected["members"]["extra"] = {
        "zarr_format": 2,
        "attributes": {},
        "members": {},
    }  # missing from the store
    del expected["members"]["flags"]  # unexpected in the store
    expected["members"]["ints"]["shape"] = [6]  # changed metadata
    expected["members"]["g"]["members"]["temp"] = {
        "zarr_format": 2,
        "attributes": {},
        "members": {},
    }  # kind
    findings = zom.check_against(store, zom.from_json(expected))
    by_path = {f.path: f for f in findings}
    assert set(by_path) == {"extra", "flags", "ints", "g/temp"}
    assert by_path["extra"].requirement == "ZOM-004" and "missing" in by_path["extra"].message
    assert by_path["flags"].requirement == "ZOM-004" and "unexpected" in by_path["flags"].message
    assert by_path["ints"].requirement == "ZOM-002" and "'shape'" in by_path["ints"].message
    assert by_path["g/temp"].message == "expected a group, found an array"
    assert all(f.severity == "error" for f in findings)


def test_at_least_allows_extra_members():
    store = v2_hierarchy_store()
    expected = zom.to_json(zom.from_store(store))
    del expected["members"]["flags"]
    assert zom.check_against(store, zom.from_json(expected), members="at-least") == []


def test_metadata_is_compared_as_json_values():
    """0 and 0.0 (and false) are different fill values; member order is irrelevant."""
    store = MemoryStore(
        {".zgroup": raw({"zarr_format": 2}), "a/.zarray": raw(zarray(dtype="<f8", fill_value=0.0))}
    )
    expected = zom.to_json(zom.from_store(store))
    assert zom.check_against(store, zom.from_json(expected)) == []
    expected["members"]["a"]["fill_value"] = 0
    [finding] = zom.check_against(store, zom.from_json(expected))
    assert "fill_value" in finding.message and finding.path == "a"


def test_attributes_compared_only_when_asked():
    store = v3_hierarchy_store()
    expected = zom.to_json(zom.from_store(store))
    expected["attributes"] = {"title": "other"}
    model = zom.from_json(expected)
    assert zom.check_against(store, model) == []
    [finding] = zom.check_against(store, model, compare_attributes=True)
    assert finding.requirement == "ZOM-001" and finding.path == ""


def test_invalid_nodes_become_findings_and_the_rest_is_still_checked():
    store = v2_hierarchy_store()
    model = zom.from_store(store)
    store.set("ints/.zarray", raw(zarray(order="A")))
    findings = zom.check_against(store, model)
    paths = sorted(f.path for f in findings)
    assert paths == ["ints", "ints"]  # cannot be modelled, and so is missing from the structure
    assert any(f.reason == "invalid-order" and f.requirement == "V2-META-006" for f in findings)


def test_findings_under_a_path_use_store_paths():
    store = v2_hierarchy_store()
    model = zom.to_json(zom.from_store(store, "g"))
    model["members"]["temp"]["order"] = "C"
    [finding] = zom.check_against(store, zom.from_json(model), "g")
    assert finding.path == "g/temp"


def test_finding_json():
    finding = zom.Finding("ZOM-004", "error", "a/b", "missing member")
    assert finding.to_json() == {
        "requirement": "ZOM-004",
        "severity": "error",
        "path": "a/b",
        "message": "missing member",
        "reason": "model-mismatch",
    }
    assert str(finding) == "ERROR ZOM-004 at 'a/b': missing member"


# ---- the xarray rule set -----------------------------------------------------------------------


def xarray_store(dims) -> MemoryStore:
    data = {".zgroup": raw({"zarr_format": 2}), "t/.zarray": raw(zarray((2, 3), (2, 3)))}
    if dims is not KeyError:
        data["t/.zattrs"] = raw({"_ARRAY_DIMENSIONS": dims})
    return MemoryStore(data)


@pytest.mark.parametrize(
    "dims, problem",
    [
        (["y", "x"], None),
        (KeyError, "no _ARRAY_DIMENSIONS"),
        ("yx", "list of strings"),
        (["y", 1], "list of strings"),
        (["y"], "has 1 names but the array has 2 dimensions"),
        (["z", "y", "x"], "has 3 names but the array has 2 dimensions"),
    ],
)
def test_xarray_rule(dims, problem):
    findings = zom.xarray_rules("", zom.from_store(xarray_store(dims)))
    if problem is None:
        assert findings == []
    else:
        [finding] = findings
        assert problem in finding.message and finding.path == "t" and finding.severity == "error"


def test_xarray_rule_accepts_v3_dimension_names():
    good = MemoryStore(
        {
            "zarr.json": raw(v3_group()),
            "t/zarr.json": raw(v3_array((2, 3), (2, 3), dimension_names=["y", "x"])),
        }
    )
    assert zom.xarray_rules("", zom.from_store(good)) == []
    partial = MemoryStore(
        {
            "zarr.json": raw(v3_group()),
            "t/zarr.json": raw(v3_array((2, 3), (2, 3), dimension_names=["y", None])),
        }
    )
    assert "list of strings" in zom.xarray_rules("", zom.from_store(partial))[0].message
    missing = MemoryStore(
        {"zarr.json": raw(v3_group()), "t/zarr.json": raw(v3_array((2, 3), (2, 3)))}
    )
    assert len(zom.xarray_rules("", zom.from_store(missing))) == 1


# ---- attribute schemas and model files ----------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, matches, misses",
    [
        ("", [""], ["a"]),
        ("**", ["", "a", "a/b/c"], []),
        ("*", ["a", "temp"], ["", "a/b"]),
        ("g/*", ["g/temp"], ["g", "g/a/b", "h/temp"]),
        ("**/temp", ["temp", "g/temp", "a/b/temp"], ["temperature", "g/temp/x"]),
        ("t?mp", ["temp", "tamp"], ["t/mp", "tmp"]),
        ("a.b", ["a.b"], ["axb"]),
    ],
)
def test_path_globs(pattern, matches, misses):
    regex = glob_to_regex(pattern)
    assert all(regex.fullmatch(p) for p in matches)
    assert not any(regex.fullmatch(p) for p in misses)


def write_model(tmp_path, doc) -> str:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_model_file_with_rules_only(tmp_path):
    store = v2_hierarchy_store()
    model_path = write_model(
        tmp_path,
        {
            "zom_model_file": 1,
            "rule_sets": ["xarray"],
            "attributes": [
                {
                    "path": "",
                    "node_type": "group",
                    "schema": {"type": "object", "required": ["title"]},
                },
                {
                    "path": "**/temp",
                    "node_type": "array",
                    "schema": {
                        "properties": {"units": {"enum": ["K", "degC"]}},
                        "required": ["units"],
                    },
                },
                {"path": "pressure", "node_type": "array", "required": True, "schema": True},
            ],
        },
    )
    findings = zom.validate_model_file(store, model_path)
    summary = sorted((f.path, f.requirement) for f in findings)
    # xarray: ints and flags lack _ARRAY_DIMENSIONS; the required `pressure` array is missing
    assert summary == [("flags", "ZOM-001"), ("ints", "ZOM-001"), ("pressure", "ZOM-004")]
    store.set("g/temp/.zattrs", raw({"_ARRAY_DIMENSIONS": ["y", "x"], "units": "F"}))
    findings = zom.validate_model_file(store, model_path)
    [units] = [f for f in findings if f.path == "g/temp"]
    assert "units" in units.message and "'F' is not one of" in units.message


def test_model_file_with_a_hierarchy(tmp_path):
    store = v3_hierarchy_store()
    hierarchy = zom.to_json(zom.from_store(store))
    model_path = write_model(
        tmp_path, {"zom_model_file": 1, "hierarchy": hierarchy, "members": "at-least"}
    )
    assert zom.validate_model_file(store, model_path) == []
    hierarchy["members"]["c64"]["fill_value"] = ["NaN", 1]
    [finding] = zom.validate_model_file(
        store, write_model(tmp_path, {"zom_model_file": 1, "hierarchy": hierarchy})
    )
    assert finding.path == "c64" and finding.requirement == "ZOM-002"


def test_a_plain_zom_is_a_model_file(tmp_path):
    store = v3_hierarchy_store()
    model_path = write_model(tmp_path, zom.to_json(zom.from_store(store)))
    assert zom.validate_model_file(store, model_path) == []
    other = MemoryStore({"zarr.json": raw(v3_group(attributes={"title": "root"}))})
    findings = zom.validate_model_file(other, model_path)
    assert {f.path for f in findings} == {"g", "c64", "big"}


@pytest.mark.parametrize(
    "doc",
    [
        {"zom_model_file": 2},
        {"zom_model_file": 1, "rule_sets": ["cf-conventions"]},
        {"zom_model_file": 1, "members": "some"},
        {"zom_model_file": 1, "attributes": [{"path": "", "schema": {"type": "not-a-type"}}]},
        {"zom_model_file": 1, "attributes": [{"schema": {}}]},
        {"zom_model_file": 1, "hierarchy": {"zarr_format": 3, "node_type": "group"}},
        {
            "zom_model_file": 1,
            "zarr_format": 2,
            "hierarchy": {"zarr_format": 3, "node_type": "group", "attributes": {}},
        },
        {"zom_model_file": 1, "surprise": True},
        [],
    ],
)
def test_malformed_model_files_raise(doc):
    with pytest.raises(MetadataError):
        zom.parse_model_file(doc)


def test_model_file_that_is_not_json(tmp_path):
    path = tmp_path / "model.json"
    path.write_text("{not json")
    with pytest.raises(MetadataError):
        zom.validate_model_file(MemoryStore(), str(path))


def test_model_file_on_a_store_with_no_node(tmp_path):
    model_path = write_model(tmp_path, {"zom_model_file": 1, "rule_sets": ["xarray"]})
    [finding] = zom.validate_model_file(MemoryStore(), model_path)
    assert finding.severity == "error" and finding.reason == "node-not-found"
