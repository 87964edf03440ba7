"""The verdict model is the one home of its words: the record schema and the outcome tables of the
documentation are generated from it and kept in step; records round-trip through its loader."""

from __future__ import annotations

import json

import pytest

from conformance import model
from conformance.harness.records import make_record


def test_generated_files_are_in_step():
    assert model.main([]) == 0, "run: python -m conformance.model --write"


def test_every_outcome_has_one_meaning_and_the_docs_show_it():
    assert set(model.MEANING) == set(model.Outcome)
    for name in model.OUTCOME_DOCS:
        text = (model.REPO / name).read_text("utf-8")
        for outcome in model.Outcome:
            assert model.MEANING[outcome] in text, (name, outcome)


def test_records_round_trip_and_bad_ones_are_named(tmp_path):
    record = make_record(run_id="r", test="read", case="v3/a", impl="x", outcome="passed")
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps({**record, "outcome": "crashed"}) + "\n")
    with pytest.raises(model.RecordError, match=r"r\.jsonl:2"):
        model.load_records(path)
    path.write_text(json.dumps(record) + "\n")
    (loaded,) = model.load_records(path)
    assert loaded.outcome is model.Outcome.PASSED and loaded.as_json()["schema"] == 2
    old = {**record, "schema": 1}
    with pytest.raises(model.RecordError, match="schema 1"):
        model.parse_record(old)
