"""The checks behind "verdicts that hold up" can fail: citations, quotes, tier consistency, exact
checks, stale gold cases, writes judged by meaning, and disputes."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from conformance.corpus import default_root, load_cases
from conformance.corpus.case import Case
from conformance.corpus.checks import (
    citation_problems,
    exact_check_problems,
    gold_problems,
    tier_problems,
)
from conformance.corpus.judge import DataProblem, judge_write
from conformance.reference import get_format, open_store

ROOT = default_root()
CASES = {c.id: c for c in load_cases(ROOT)}


def _variant(case_id: str, **raw_changes) -> Case:
    """A copy of a corpus case whose case.json members are changed (None removes one)."""
    case = copy.copy(CASES[case_id])
    raw = copy.deepcopy(case.raw)
    for key, value in raw_changes.items():
        if value is None:
            raw.pop(key, None)
        else:
            raw[key] = value
    case.raw = raw
    case.tier = raw["tier"]
    case.requirements = list(raw["requirements"])
    case.kind = raw["kind"]
    case.expect = raw["expect"]
    return case


# ---- citations ----------------------------------------------------------------------------------


def test_every_required_and_strict_case_is_cited():
    assert citation_problems(list(CASES.values()), None) == []


def test_a_required_case_without_citation_fails():
    case = _variant("v3/metadata/reject-unknown-member-number", citation=None)
    assert case.tier == "required"
    assert any("without a citation" in p for p in citation_problems([case], None))


def test_a_strict_case_without_citation_fails():
    case = _variant("v3/fill/reject-uint8-1.0", citation=None)
    assert case.tier == "strict"
    assert citation_problems([case], None)


def test_a_quote_that_is_not_in_the_spec_fails(tmp_path):
    (tmp_path / "spec.rst").write_text(
        "The value must be\n   a ``JSON`` *boolean* (see :ref:`fill <fill-value>`).\n"
    )
    good = {
        "requirement": "V3-FILL-001",
        "spec": "spec.rst",
        "section": "x",
        "quote": "The value must be a JSON boolean (see fill).",
    }
    bad = {**good, "quote": "The value must be a JSON number."}
    missing_file = {**good, "spec": "nope.rst"}
    case = _variant("v3/fill/reject-bool-null", citation=[good], adjudication=None)
    assert citation_problems([case], tmp_path) == []
    case = _variant(
        "v3/fill/reject-bool-null", citation=[good, bad, missing_file], adjudication=None
    )
    problems = citation_problems([case], tmp_path)
    assert (
        len(problems) == 2 and "quote not found" in problems[0] and "does not exist" in problems[1]
    )


def test_an_adjudication_quote_is_checked_too(tmp_path):
    (tmp_path / "spec.rst").write_text("Some sentence.\n")
    citation = [{"requirement": "V3-FILL-001", "spec": "spec.rst", "quote": "Some sentence."}]
    adjudication = {
        "verdict": "retiered",
        "reason": "because of a reason",
        "citation": {"spec": "spec.rst", "section": "s", "quote": "Another sentence."},
    }
    case = _variant("v3/fill/reject-bool-null", citation=citation, adjudication=adjudication)
    assert any("(adjudication)" in p for p in citation_problems([case], tmp_path))


def test_corpus_quotes_occur_in_the_spec_texts():
    from conformance.corpus.citations import specs_root

    specs = specs_root()
    if specs is None:
        pytest.skip("the spec texts are not at hand (ZARR_CONFORMANCE_SPECS)")
    assert citation_problems(list(CASES.values()), specs) == []


# ---- tiers ----------------------------------------------------------------------------------------


def test_the_corpus_tiers_are_consistent():
    assert tier_problems(list(CASES.values())) == []


def test_cases_sharing_a_requirement_with_different_tiers_and_no_reason_fail():
    a = _variant("v3/fill/float32-nan-canonical", tier="required", tier_reason=None, question=None)
    b = _variant("v3/fill/float64-nan-canonical", tier="optional", tier_reason=None, question=None)
    assert set(a.requirements) & set(b.requirements)
    problems = tier_problems([a, b])
    assert problems and "different tiers without a tier_reason" in problems[0]
    b = _variant(
        "v3/fill/float64-nan-canonical",
        tier="optional",
        tier_reason="a reason of its own",
        question=None,
    )
    assert tier_problems([a, b]) == []


def test_a_case_off_its_questions_tier_needs_its_own_reason():
    from conformance.corpus.questions import QUESTIONS

    strict = QUESTIONS["integer-as-float"]
    case = _variant(
        "v3/grid/reject-chunk-float", tier="required"
    )  # still carries the question's reason
    assert case.raw["question"] == "integer-as-float" and case.raw["tier_reason"] == strict.reason
    assert tier_problems([case])
    case = _variant(
        "v3/grid/reject-chunk-float", tier="required", tier_reason="a reason for this case alone"
    )
    assert tier_problems([case]) == []


def test_cases_with_one_free_question_and_different_tiers_fail():
    a = _variant(
        "v3/fill/float32-nan-canonical",
        question="my-question",
        tier_reason=None,
        requirements=["V3-FILL-009"],
    )
    b = _variant(
        "v3/dtypes/bool",
        question="my-question",
        tier="optional",
        tier_reason=None,
        requirements=["V3-DT-002"],
    )
    assert any("question 'my-question'" in p for p in tier_problems([a, b]))


def test_the_generator_refuses_a_tier_that_contradicts_the_question():
    from conformance.corpus.generator import REGISTRY, add_case

    with pytest.raises(ValueError, match="without a tier_reason"):
        add_case(
            "v3/metadata/reject-zarr-format-float-test",
            kind="reject",
            requirements=["V3-ARR-001"],
            description="a test case",
            build=lambda w: None,
            tier="required",
            question="integer-as-float",
        )
    REGISTRY.pop("v3/metadata/reject-zarr-format-float-test", None)


# ---- exact checks and gold cases ----------------------------------------------------------------------


def test_exact_documents_without_a_basis_fail():
    case = _variant("v2/groups/write-root-group")
    assert exact_check_problems([case]) == []
    expect = {k: v for k, v in case.expect.items() if k != "exact_basis"}
    case = _variant("v2/groups/write-root-group", expect=expect)
    assert exact_check_problems([case])


def test_a_stale_gold_case_fails():
    gold = next(
        c
        for c in CASES.values()
        if c.provenance and c.tier == "required" and c.expect.get("node_type") == "array"
    )
    assert gold_problems([gold]) == []
    expect = {k: v for k, v in gold.expect.items() if k != "fill_value"}
    stale = _variant(gold.id, citation=None, expect=expect)
    problems = gold_problems([stale])
    assert problems and "citation" in problems[0] and "expect.fill_value" in problems[0]


# ---- writes judged by meaning -------------------------------------------------------------------------


def _written(case: Case, target: Path) -> Path:
    """The store the reference writes for `case` at `target`."""
    fmt = get_format(case.format)
    req = case.write_request()
    store = open_store(target, mode="w")
    try:
        array = fmt.create_array(store, fmt.normalize_path(req.path), req.metadata, req.attributes)
        array.write(None, req.data)
    finally:
        store.close()
    return target


def _edit_json(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_a_writer_choosing_blosc_typesize_and_a_one_byte_endian_passes(tmp_path):
    case = CASES["v3/codecs/write-blosc-noshuffle-no-typesize"]
    store = _written(case, tmp_path / "store")
    assert judge_write(case, store) == []

    def recorded_choices(doc):
        doc["codecs"][0]["configuration"] = {"endian": "little"}
        doc["codecs"][1]["configuration"]["typesize"] = 1

    _edit_json(store / "zarr.json", recorded_choices)
    assert judge_write(case, store) == []

    _edit_json(store / "zarr.json", lambda doc: doc["codecs"].pop())  # drop blosc: another pipeline
    problems = judge_write(case, store)
    assert any("codec pipeline" in p for p in problems)


def test_a_writer_storing_a_fill_of_minus_zero_as_zero_fails(tmp_path):
    source = CASES["v3/fill/write-minus-infinity"]
    folder = tmp_path / "case"
    shutil.copytree(source.dir, folder)
    _edit_json(
        folder / "case.json",
        lambda doc: doc["expect"]["request"]["metadata"].update(fill_value=-0.0),
    )
    case = Case.from_dir(folder, tmp_path)
    store = _written(case, tmp_path / "store")
    assert judge_write(case, store) == []
    _edit_json(store / "zarr.json", lambda doc: doc.update(fill_value=0.0))
    problems = judge_write(case, store)
    assert any("fill value" in p for p in problems)
    assert not any(isinstance(p, DataProblem) for p in problems)  # every chunk was written


@pytest.mark.parametrize(
    "case_id, key",
    [("v2/fill/write-bool-true", ".zarray"), ("v3/fill/write-bool-true", "zarr.json")],
)
def test_a_writer_storing_true_as_1_fails(tmp_path, case_id, key):
    case = CASES[case_id]
    store = _written(case, tmp_path / "store")
    assert judge_write(case, store) == []
    _edit_json(store / key, lambda doc: doc.update(fill_value=1))
    assert judge_write(case, store)


def test_attributes_are_compared_type_strictly(tmp_path):
    case = CASES["v3/groups/write-array-attributes"]
    store = _written(case, tmp_path / "store")
    assert judge_write(case, store) == []
    _edit_json(store / "zarr.json", lambda doc: doc["attributes"]["ü"][1].update(a=1))  # 1.5 -> 1
    assert any("attributes" in p for p in judge_write(case, store))


def test_data_that_reads_back_differently_is_a_data_problem(tmp_path):
    case = CASES["v3/codecs/write-bytes-big-endian"]
    store = _written(case, tmp_path / "store")
    assert judge_write(case, store) == []
    _edit_json(
        store / "zarr.json", lambda doc: doc["codecs"][0]["configuration"].update(endian="little")
    )
    problems = judge_write(case, store)
    assert any(isinstance(p, DataProblem) for p in problems)
    assert any("codec pipeline" in p and not isinstance(p, DataProblem) for p in problems)


def test_v3_ancestor_groups_are_optional_keys_of_the_key_cases(tmp_path):
    case = CASES["v3/keys/write-nested-array"]
    store = _written(case, tmp_path / "store")
    assert judge_write(case, store) == []
    (store / "zarr.json").unlink()
    (store / "foo" / "zarr.json").unlink()
    assert judge_write(case, store) == []


# ---- disputes -----------------------------------------------------------------------------------


def _record(case, impl, outcome, test="reject", **extra):
    return {"case": case, "impl": impl, "outcome": outcome, "test": test, "message": "m", **extra}


def test_disputes_count_independent_parsers_once(tmp_path):
    from conformance.corpus.disputes import find_disputes

    parsers = {
        "zarr-python": "zarr-python",
        "zarrs-python": "zarr-python",
        "tensorstore": "tensorstore",
    }
    cases = {"c/a/one": CASES["v3/metadata/reject-unknown-member-number"]}
    records = [
        _record("c/a/one", "reference", "passed"),
        _record("c/a/one", "zarr-python", "failed"),
        _record("c/a/one", "zarrs-python", "failed"),
    ]
    assert find_disputes(records, cases, parsers) == []  # one parser
    records.append(_record("c/a/one", "tensorstore", "known-failure"))
    (dispute,) = find_disputes(records, cases, parsers)
    assert set(dispute.parties) == {"zarr-python", "tensorstore"} and not dispute.resolved
    records[0] = _record("c/a/one", "reference", "failed")
    assert find_disputes(records, cases, parsers) == []  # the reference fails too: not a dispute


def test_disputes_attribute_cross_records_to_the_party_that_met_the_reference():
    from conformance.corpus.disputes import find_disputes

    case = {"x": CASES["v3/codecs/write-bytes-big-endian"]}
    records = [_record("x", "reference", "passed", "cross", writer="reference", reader="reference")]
    # one broken writer read by everyone: only the record read by the reference counts
    records += [
        _record("x", r, "failed", "cross", writer="zarrita-js", reader=r)
        for r in ("reference", "tensorstore", "zarr-python")
    ]
    assert find_disputes(records, case, {}) == []
    records += [
        _record("x", "tensorstore", "failed", "cross", writer="reference", reader="tensorstore")
    ]
    (dispute,) = find_disputes(records, case, {})
    assert set(dispute.parties) == {"zarrita-js", "tensorstore"}


def test_disputes_command_exits_1_on_an_unresolved_dispute(tmp_path, capsys):
    from conformance.cli import main

    unresolved = "v3/metadata/reject-unknown-member-number"
    resolved = next(c.id for c in CASES.values() if c.raw.get("adjudication"))
    records = []
    for case_id, test in ((unresolved, "reject"), (resolved, CASES[resolved].kind)):
        records += [
            _record(case_id, "reference", "passed", test),
            _record(case_id, "tensorstore", "failed", test),
            _record(case_id, "zarrita-js", "failed", test),
        ]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["corpus", "disputes", "--results", str(results)]) == 1
    out = capsys.readouterr().out
    assert unresolved in out and resolved not in out
    assert main(["corpus", "disputes", "--results", str(results), "--all"]) == 1
    assert resolved in capsys.readouterr().out
    results.write_text("".join(json.dumps(r) + "\n" for r in records if r["case"] == resolved))
    assert main(["corpus", "disputes", "--results", str(results)]) == 0
