"""Every case has a deliberate tier: a question its builder row names (no default, no pattern over
case ids), and no required case that relies on something the corpus lets readers refuse elsewhere
(conventions.py). Each test builds a bad case and expects the generator or `corpus check` to refuse
it; the checks did not exist before (a case without a question was silently required)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.corpus import default_root, load_cases
from conformance.corpus.case import Case
from conformance.corpus.checks import all_problems, question_problems
from conformance.corpus.conventions import CONVENTIONS, convention_problems, found
from conformance.corpus.generator import REGISTRY, add_case, verdict
from conformance.model.case import CaseError

ROOT = default_root()
CASES = {c.id: c for c in load_cases(ROOT)}


def _copy(tmp_path: Path, case_id: str, **changes) -> Case:
    """A copy of a corpus case folder under tmp_path whose case.json members are changed (None
    removes one), loaded as corpus check loads it."""
    target = tmp_path / case_id
    shutil.copytree(ROOT / case_id, target)
    doc = json.loads((target / "case.json").read_text("utf-8"))
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    (target / "case.json").write_text(json.dumps(doc), "utf-8")
    return Case.from_dir(target, tmp_path)


# ---- no default tier --------------------------------------------------------------------------


def test_every_corpus_case_names_its_question():
    assert question_problems(list(CASES.values())) == []
    assert all(c.raw.get("question") for c in CASES.values())


def test_a_case_without_question_or_reason_does_not_load(tmp_path):
    # the case schema refuses it (conformance/model/case.py), before corpus check looks
    with pytest.raises(CaseError, match="names its question, or gives a tier_reason"):
        _copy(tmp_path, "v3/dtypes/int32-le", question=None, tier_reason=None)


def test_corpus_check_refuses_a_case_without_question_or_reason(tmp_path):
    case = _copy(tmp_path, "v3/dtypes/int32-le", question="lenient-read")
    del case.raw["question"], case.raw["tier_reason"]  # as made in memory: no schema saw it
    problems = all_problems([case], None)["questions"]
    assert problems and "no question" in problems[0]


def test_a_case_without_question_but_with_its_own_tier_and_reason_passes(tmp_path):
    case = _copy(tmp_path, "v3/dtypes/int32-le", question=None, tier_reason="its own reason")
    assert question_problems([case]) == []


def test_an_unknown_question_is_refused(tmp_path):
    case = _copy(tmp_path, "v3/dtypes/int32-le", question="my-question")
    assert any("unknown question" in p for p in question_problems([case]))


def _register(case_id, **kwargs):
    try:
        add_case(
            case_id,
            kind=kwargs.pop("kind", "reject"),
            requirements=["V3-FILL-001"],
            description="a test case",
            build=lambda w: None,
            **kwargs,
        )
        return REGISTRY[case_id]
    finally:
        REGISTRY.pop(case_id, None)


def test_the_generator_has_no_default_tier():
    # the id matches what the old glob rules tiered ('v3/fill/reject-*-null': null-mandatory):
    # the id no longer decides anything
    with pytest.raises(ValueError, match="name the question"):
        _register("v3/fill/reject-test-null")
    with pytest.raises(ValueError, match="name the question"):
        _register("v3/fill/test-read", kind="read")


def test_a_row_or_table_names_the_question():
    with verdict(question="null-mandatory"):
        spec = _register("v3/fill/reject-test-null")
    assert (spec.question, spec.tier) == ("null-mandatory", "required")
    with verdict(question="registered-extension"):
        spec = _register("v3/fill/test-read", kind="read")
    assert (spec.question, spec.tier) == ("registered-extension", "extension")


def test_a_read_case_asking_a_strict_question_is_optional():
    with verdict(question="invalid-node-name"):
        spec = _register("v3/names/test-read", kind="read")
    assert spec.tier == "optional" and "strict reject case" in spec.tier_reason


# ---- conventions tiered optional elsewhere ------------------------------------------------------


@pytest.fixture(scope="module")
def found_in_corpus() -> dict[str, dict]:
    return {c.id: found(c) for c in CASES.values()}  # reject cases hold most of them


@pytest.mark.parametrize("convention", CONVENTIONS, ids=lambda c: c.name)
def test_every_detector_finds_a_corpus_case(convention, found_in_corpus):
    hits = [case_id for case_id, names in found_in_corpus.items() if convention.name in names]
    assert hits, f"no corpus case holds {convention.what}"


def test_the_corpus_has_no_required_case_relying_on_a_convention():
    assert convention_problems(list(CASES.values())) == []


@pytest.mark.parametrize(
    "case_id, convention",
    [
        ("v2/writers-zarr-python/complex128", "v2-complex-fill-pair"),
        ("v2/gold-zarr-python2/datetime64-ns", "v2-datetime-fill-integer"),
        ("v3/writers-tensorstore/float16", "optional-data-type"),
        ("v3/gold-zarrs/complex64-zstd", "v3-registered-extension"),
        ("v3/zom/store-only-real-members", "v3-reserved-node-name"),
    ],
)
def test_a_required_store_relying_on_a_convention_is_refused(tmp_path, case_id, convention):
    question = "zom-model" if "/zom/" in case_id else "writer-store"
    case = _copy(tmp_path, case_id, question=question, tier="required")
    problems = convention_problems([case])
    assert len(problems) == 1 and convention in problems[0]
    assert convention in found(CASES[case_id])  # and the corpus itself asks its question
    assert convention_problems([CASES[case_id]]) == []


def test_a_read_case_asking_a_convention_no_detector_finds_is_refused(tmp_path):
    case = _copy(tmp_path, "v3/dtypes/int32-le", question="convention", tier="optional")
    problems = convention_problems([case])
    assert len(problems) == 1 and "no detector" in problems[0]


def test_a_new_store_with_a_complex_pair_fill_is_found(tmp_path):
    """Driven by data: a store nobody tiered, holding a v2 complex fill [re, im], is found."""
    case = _copy(tmp_path, "v2/dtypes/complex64-bytes", question="spec-read", tier="required")
    zarray = case.store_path / ".zarray"
    doc = json.loads(zarray.read_text())
    doc["fill_value"] = [1.0, -2.0]
    zarray.write_text(json.dumps(doc))
    assert "v2-complex-fill-pair" in found(case)
    assert convention_problems([case])


def test_a_gold_store_whose_question_is_stale_is_refused(tmp_path):
    from conformance.corpus.checks import gold_problems

    case = _copy(tmp_path, "v2/writers-zarr-python/complex128", question="writer-store")
    assert case.provenance is not None
    assert any("question" in p for p in gold_problems([case]))


def test_the_tier_policy_for_stored_chunk_size_zero():
    """A stored chunk size 0 (or false) on a dimension that is not empty: strict (zarr-python 3.4.1
    reads it as 1 on purpose: leniency, not a failure); on an empty dimension the versions disagree
    (optional); an inner sharding size 0 cannot divide the shard (required)."""
    tiers = {
        case_id: (CASES[case_id].tier, CASES[case_id].raw["question"])
        for case_id in (
            "v3/grid/reject-chunk-zero",
            "v3/grid/reject-chunk-false",
            "v2/metadata/reject-chunks-zero",
            "v2/metadata/reject-chunks-false",
            "v3/grid/reject-chunk-zero-empty-dim",
            "v3/sharding/reject-inner-shape-zero",
            "v3/sharding/reject-nested-inner-shape-zero",
        )
    }
    assert tiers == {
        "v3/grid/reject-chunk-zero": ("strict", "chunk-size-zero"),
        "v3/grid/reject-chunk-false": ("strict", "chunk-size-zero"),
        "v2/metadata/reject-chunks-zero": ("strict", "chunk-size-zero"),
        "v2/metadata/reject-chunks-false": ("strict", "chunk-size-zero"),
        "v3/grid/reject-chunk-zero-empty-dim": ("optional", "versions-disagree"),
        "v3/sharding/reject-inner-shape-zero": ("required", "codec-input"),
        "v3/sharding/reject-nested-inner-shape-zero": ("required", "codec-input"),
    }


def test_a_code_executing_codec_must_be_refused():
    case = CASES["v2/objects/reject-pickle-object-codec"]
    assert (case.kind, case.tier, case.raw["question"]) == ("reject", "required", "code-execution")
