"""The verdict model is the one home of its words: the record schema and the outcome tables of the
documentation are generated from it and kept in step; records round-trip through its loader."""

from __future__ import annotations

import json

import pytest

from conformance import model
from conformance.harness.records import make_record


def test_generated_files_are_in_step():
    assert model.main([]) == 0, "run: python -m conformance.model --write"


def test_vocabularies_fit_their_schema_and_name_every_word(tmp_path):
    import jsonschema

    from conformance.corpus.capabilities import VOCABULARY
    from conformance.corpus.questions import QUESTIONS
    from conformance.model import schemas, vocabulary
    from conformance.reference.errors import REASONS

    folder = schemas.CASE_SCHEMA_FILE.parent
    schema = json.loads((folder / vocabulary.SCHEMA_NAME).read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    docs = {
        n: json.loads((folder / f"{n}.json").read_text("utf-8")) for n in vocabulary.VOCABULARIES
    }
    for doc in docs.values():
        validator.validate(doc)
    assert set(docs["capabilities"]["capabilities"]) == VOCABULARY
    assert set(docs["reasons"]["reasons"]) == set(REASONS)
    assert set(docs["questions"]["questions"]) == set(QUESTIONS)
    assert [o["outcome"] for o in docs["outcomes"]["outcomes"]] == list(model.Outcome)
    # the schema can fail: a reason without its meaning, a question with an unknown tier
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**docs["reasons"], "reasons": {"corrupt-chunk": 1}})
    bad = {"q": {"tier": "mandatory", "reason": "because", "citations": []}}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**docs["questions"], "questions": bad})


def test_a_stale_vocabulary_is_reported(tmp_path, monkeypatch, capsys):
    from conformance.model import schemas

    folder = tmp_path / "fixtures"
    folder.mkdir()
    case_schema = folder / "case.schema.json"
    monkeypatch.setattr(schemas, "CASE_SCHEMA_FILE", case_schema)
    monkeypatch.setattr(schemas, "SCHEMA_FILE", tmp_path / "result-record.json")
    monkeypatch.setattr(schemas, "OUTCOME_DOCS", ())
    assert schemas.main(["--write"]) == 0 and schemas.main([]) == 0
    path = folder / "reasons.json"
    path.write_text(path.read_text("utf-8").replace("corrupt-chunk", "corrupt-chonk"), "utf-8")
    capsys.readouterr()
    assert schemas.main([]) == 1
    assert "reasons.json is out of date" in capsys.readouterr().out


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
