"""A reader's refusal of what a writer wrote (conformance.suite.steps.refused_read): judged on the
tier of the question that lets readers refuse what the store relies on (here a 3.1 short-hand
codec name), only when the reader is at fault; otherwise on the case's tier."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from conformance.harness.outcomes import Refused
from conformance.suite.steps import refused_read

ARRAY = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [2],
    "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
}
RESPONSE = SimpleNamespace(describe_error=lambda: "TypeError: Expected dict, got str")


def store(tmp_path, codecs):
    (tmp_path / "zarr.json").write_text(json.dumps({**ARRAY, "codecs": codecs}))
    return tmp_path


def refusal(tmp_path, codecs, side="reader") -> Refused:
    with pytest.raises(Refused) as caught:
        refused_read(
            "r", "w", RESPONSE, store(tmp_path, codecs), "v3", "", lambda _: (side, "evidence")
        )
    return caught.value


def test_a_short_hand_name_makes_the_refusal_optional(tmp_path):
    found = refusal(tmp_path, ["bytes"])
    assert found.tier == "optional" and "v3.1-addition" in str(found) and found.side == "reader"


def test_a_plain_store_keeps_the_case_tier(tmp_path):
    found = refusal(tmp_path, [{"name": "bytes", "configuration": {"endian": "little"}}])
    assert found.tier is None and str(found).startswith("r could not read what w wrote")


def test_a_writer_at_fault_keeps_the_case_tier(tmp_path):
    assert refusal(tmp_path, ["bytes"], side="writer").tier is None


def test_writer_attributes_decide_blame_only_for_an_attribute_problem():
    from conformance.suite.steps import about_attributes

    assert about_attributes(["attributes/_zarrs: unexpected member {...}"])
    assert not about_attributes(["data written by w, read by r: 3 of 4 elements differ"])
