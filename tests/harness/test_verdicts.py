"""Each verdict path can fail: wrong data, crashes that must not pass for refusals, undeclared
`unsupported` answers, probes, type-strict attributes, roundtrips. The suite's test functions run
directly (conformance.suite.direct) against the fake adapters of tests/harness/fakes."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import FAKES

from conformance.corpus import load_cases
from conformance.corpus.generator import CaseSpec, build_case
from conformance.harness.plan import plan_cross, plan_single
from conformance.harness.session import Options, SuiteSession
from conformance.reference import get_format
from conformance.suite.direct import run_case

FAKE_NAMES = [
    "flip",
    "reject-crash",
    "unsupported-answer",
    "unsupported-declared",
    "probe",
    "attr-types",
]


def _int_attribute_case(w):
    fmt = get_format("v3")
    data = np.arange(4, dtype="int32")
    fmt.create_array(w.store, "", fmt.array_metadata((4,), (4,), "int32", fill_value=0), {"a": 1})[
        ...
    ] = data
    w.expect_array(data, attributes={"a": 1})


@pytest.fixture(scope="module")
def cases(mini_corpus, tmp_path_factory):
    root = tmp_path_factory.mktemp("attributes")
    for case_id in ("v3/read/int-attribute", "v3/read/int-attribute-trigger"):
        spec = CaseSpec(
            case_id,
            "read",
            "v3",
            "required",
            "an integer attribute",
            ("V3-TEST",),
            ("codec:bytes", "dtype:int32", "format:v3"),
            _int_attribute_case,
            question="spec-read",
        )
        for rel, value in build_case(spec).items():
            (root / case_id / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / case_id / rel).write_bytes(value)
    return {c.id: c for c in load_cases(mini_corpus) + load_cases(root)}


@pytest.fixture(scope="module")
def session():
    session = SuiteSession(
        Options(impls=[str(FAKES / name) for name in FAKE_NAMES] + ["reference"])
    )
    yield session
    session.close()


def verdict(session, cases, test, impl, case_id):
    return run_case(session, test, impl, cases[case_id])


def test_wrong_data_is_its_own_outcome(session, cases):
    result = verdict(session, cases, "read", "flip", "v3/read/plain-a")
    assert result.outcome == "wrong-data" and "differ bit-wise" in result.message


def test_a_crash_is_not_a_rejection(session, cases):
    result = verdict(session, cases, "reject", "reject-crash", "v3/reject/bad-json")
    assert result.outcome == "errored" and "AttributeError is a crash" in result.message
    assert "refusal" not in result.fields


def test_an_exception_in_adapter_code_is_not_a_refusal(session, cases):
    result = verdict(session, cases, "read", "reject-crash", "v3/read/trigger")
    assert result.outcome == "errored" and "raised in adapter code" in result.message


def test_a_clean_rejection_records_its_category(session, cases):
    result = verdict(session, cases, "reject", "reference", "v3/reject/bad-json")
    assert result.outcome == "passed"
    assert result.fields["refusal"] == {
        "type": "MetadataError",
        "message": result.fields["refusal"]["message"],
        "category": "metadata",
        "expected_category": "metadata",
        "right_reason": True,
    }


def test_an_undeclared_unsupported_answer_is_errored(session, cases):
    result = verdict(session, cases, "read", "unsupported-answer", "v3/read/trigger")
    assert result.outcome == "errored" and "undeclared unsupported answer" in result.message
    assert (
        verdict(session, cases, "read", "unsupported-answer", "v3/read/plain-a").outcome == "passed"
    )


def test_a_declared_unsupported_answer_is_unsupported(session, cases):
    result = verdict(session, cases, "read", "unsupported-declared", "v3/read/trigger")
    assert (
        result.outcome == "unsupported"
        and "trigger stores are outside what this adapter drives" in result.message
    )


def test_a_probe_that_refuses_cleanly_is_unsupported(session, cases):
    assert plan_single(session, "read", "probe", cases["v3/read/plain-a"]).mode == "probe"
    result = verdict(session, cases, "read", "probe", "v3/read/plain-a")
    assert (
        result.outcome == "unsupported"
        and result.message == "refused cleanly: LibraryError: cannot handle int32"
    )
    assert result.fields["probe"] is True


def test_a_probe_that_returns_wrong_data_is_wrong_data(session, cases):
    result = verdict(session, cases, "read", "probe", "v3/read/trigger")
    assert result.outcome == "wrong-data" and result.fields["probe"] is True


def test_declared_cases_are_not_probes(session, cases):
    result = verdict(session, cases, "read", "probe", "v3/read/group")
    assert result.outcome == "passed" and "probe" not in result.fields


def test_probes_can_be_turned_off(cases):
    session = SuiteSession(Options(impls=[str(FAKES / "probe")], probe=False))
    plan = plan_single(session, "read", "probe", cases["v3/read/plain-a"])
    assert plan.mode == "skip" and "dtype:int32" in plan.skip_reason


def test_op_capabilities_are_never_probed(session, cases):
    plan = plan_single(session, "zom", "probe", cases["v3/zom/model-valid"])  # needs op:zom
    assert plan.mode == "skip"


@pytest.mark.parametrize(
    "case_id, got",
    [("v3/read/int-attribute", "float 1.0"), ("v3/read/int-attribute-trigger", "boolean True")],
)
def test_attributes_are_compared_type_strictly(session, cases, case_id, got):
    result = verdict(session, cases, "read", "attr-types", case_id)
    assert (
        result.outcome == "failed"
        and f"attributes/a: {got} where integer 1 is expected" in result.message
    )


def test_reads_list_what_they_could_not_check(session, cases):
    result = verdict(session, cases, "read", "reference", "v3/read/plain-a")
    assert result.outcome == "passed"
    # the mini corpus's cases give shape and dtype; what else the API reports has nothing to be checked against
    assert "shape" not in result.fields["unchecked"] and "dtype" not in result.fields["unchecked"]


def test_a_pair_of_one_adapter_with_itself_is_a_roundtrip(session, cases):
    case = cases["v3/write/int32"]
    assert plan_cross(session, "flip", "flip", case).test == "roundtrip"
    assert plan_cross(session, "flip", "reference", case).test == "cross"


def test_every_reason_code_has_a_category_or_none_on_purpose():
    from conformance.harness.refusals import REASON_CATEGORY, UNCATEGORISED
    from conformance.reference.errors import REASONS

    assert set(REASON_CATEGORY) | UNCATEGORISED == set(REASONS)
    assert not set(REASON_CATEGORY) & UNCATEGORISED


def _config_with(rules):
    from conformance.harness.config import AdapterConfig, ErrorRule

    return AdapterConfig(
        name="x",
        folder=FAKES,
        description="x",
        transport="python",
        errors=tuple(ErrorRule(**rule) for rule in rules),
    )


@pytest.mark.parametrize(
    "message, verdict",
    [
        ("Invalid type: 1.5. Expected an integer.", "refusal"),  # raised on purpose by the parser
        ("'NoneType' object is not iterable", "crash"),  # the same type, raised by Python itself
    ],
)
def test_a_crash_type_is_a_refusal_only_under_a_pinned_down_rule(message, verdict):
    from conformance.harness.refusals import judge_refusal

    rule = {
        "type": "TypeError",
        "message": "^Invalid type: ",
        "category": "metadata",
        "reason": "deliberate",
    }
    error = {
        "ok": False,
        "error": {"type": "TypeError", "message": message, "origin": "implementation"},
    }
    assert judge_refusal(_config_with([rule]), error).verdict == verdict
    # without a message pattern (a blanket rule) a crash type stays a crash
    blanket = {"type": "TypeError", "category": "metadata", "reason": "everything"}
    assert judge_refusal(_config_with([blanket]), error).verdict == "crash"
