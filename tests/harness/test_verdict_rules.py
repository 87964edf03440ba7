"""The rules that turn what a test observed into its record (issue 16): what a behaviour means on
each tier, which side of a pair a verdict is about, and which known failure explains it. Each test
names the old behaviour it would have failed on."""

from __future__ import annotations

import textwrap

import pytest

from conformance.harness.config import load_adapter_config
from conformance.harness.outcomes import Observation, outcome_of, settle
from conformance.harness.plan import Plan
from conformance.harness.session import Options, SuiteSession
from conformance.harness.verdicts import Subject, conclude, record_of
from conformance.model import Outcome, gates

# ---- cause 4: `failed` where the tier allows the behaviour ------------------------------------


@pytest.mark.parametrize(
    "behaviour, tier, outcome",
    [
        ("refused", "required", "failed"),
        (
            "refused",
            "optional",
            "declined",
        ),  # was `failed`: "a reader that refuses it is not wrong"
        ("refused", "extension", "failed"),  # it declared the extension: a refusal is a failure
        ("accepted", "required", "failed"),
        ("accepted", "strict", "lenient"),  # was a non-gating `failed`
        ("accepted", "optional", "lenient"),
        ("accepted", "extension", "lenient"),
        # a tier allows refusing, never a wrong answer: these stay failures on every tier
        ("mismatch", "optional", "failed"),
        ("mismatch", "extension", "failed"),
        ("wrong-data", "optional", "wrong-data"),
        ("crashed", "optional", "errored"),
        ("type-changed", "required", "type-changed"),
    ],
)
def test_what_a_behaviour_means_on_a_tier(behaviour, tier, outcome):
    assert outcome_of(behaviour, tier)[0].value == outcome


def test_profiles_record_the_behaviour_and_never_gate():
    for behaviour, tier, profile in (
        ("accepted", "strict", "accepts"),
        ("refused", "optional", "refuses"),
    ):
        settled = settle(Observation(behaviour, "m"), tier)
        assert settled.behaviour is not None and settled.behaviour.value == profile
        assert not gates({"outcome": settled.outcome.value, "tier": tier})
    failed = settle(Observation("mismatch", "reported fill 0, expected 1"), "optional")
    assert failed.outcome is Outcome.FAILED and gates({"outcome": "failed", "tier": "optional"})


# ---- cause 3: known failures match the failure ----------------------------------------------------


def _adapter(root, name: str, entries: str):
    folder = root / name
    folder.mkdir()
    (folder / "adapter.py").write_text("class Adapter:\n    pass\n")
    (folder / "adapter.toml").write_text(
        f'name = "{name}"\ndescription = "fake"\ntransport = "python"\n'
        'capabilities = ["format:v3", "op:read", "op:write", "store:directory"]\n'
    )
    (folder / "known-failures.toml").write_text(textwrap.dedent(entries))
    return load_adapter_config(folder)


@pytest.fixture
def session(tmp_path, monkeypatch):
    w = _adapter(
        tmp_path,
        "w",
        """
        [[known_failures]]
        id = "writes-order-f-transposed"
        cases = ["property/roundtrip-v3"]
        reason = "order F arrays are written transposed (observed vs expected)"
        issue = "https://example.org/o/w/issues/1"
        observed = ["transposed"]
        versions = "<2.0"
        """,
    )
    r = _adapter(
        tmp_path,
        "r",
        """
        [[known_failures]]
        id = "big-endian-int16-swapped"
        cases = ["property/roundtrip-v3"]
        reason = "big-endian int16 read with its bytes swapped: 1 reads as 256"
        issue = "https://example.org/o/r/issues/2"
        observed = ["got 256"]
        versions = "<2.0"
        """,
    )
    session = SuiteSession(Options(impls=[]))
    session._others.update({"w": w, "r": r})
    return session


SUBJECT = Subject("property", "property/roundtrip-v3", writer="w", reader="r")
RUN = Plan("property", "run")


def _conclude(session, observation, version="1.0", writer_version="1.0"):
    return conclude(
        session,
        RUN,
        SUBJECT,
        observation,
        versions={"w": {"w": writer_version}, "r": {"r": version}},
        tier="required",
    )


def test_the_writers_entry_does_not_explain_the_readers_bug(session):
    """Old rule (plan.pick_known): the writer's entry won whenever both sides had one, so an
    NCZarr byte-swap was 'explained' by a tensorstore order-F entry and did not gate."""
    seen = Observation(
        "wrong-data",
        "data: 1 of 4 elements differ bit-wise; first at flat index 0: got 256, expected 1",
        side="reader",
        evidence="the reference reads what w wrote back exactly",
    )
    settled, side, evidence = _conclude(session, seen)
    assert side == "reader" and settled.known is not None
    assert settled.known.id == "big-endian-int16-swapped" and settled.known.owner == "r"
    record = record_of(session, SUBJECT, settled, side, evidence, tier="required")
    assert record["impl"] == "r" and record["blame"]["side"] == "reader"
    assert record["known_failure"]["owner"] == "r" and not gates(record)


def test_an_entry_whose_pattern_does_not_match_explains_nothing(session):
    seen = Observation("wrong-data", "got 7, expected 1", side="reader")
    settled, _, _ = _conclude(session, seen)
    assert settled.known is None and settled.outcome is Outcome.WRONG_DATA
    assert gates({"outcome": "wrong-data", "tier": "required"})


def test_a_writer_fault_is_the_writers_and_only_its_entries_apply(session):
    seen = Observation(
        "wrong-data",
        "the data the reference reads is transposed",
        side="writer",
        evidence="data the reference reads differ (in the store w wrote)",
    )
    settled, side, _ = _conclude(session, seen)
    assert side == "writer" and settled.known.id == "writes-order-f-transposed"
    record = record_of(session, SUBJECT, settled, side, "", tier="required")
    assert record["impl"] == "w"


def test_an_entry_holds_only_for_its_releases(session):
    seen = Observation("wrong-data", "got 256, expected 1", side="reader")
    settled, _, _ = _conclude(session, seen, version="2.1")
    assert settled.known is None  # fixed in 2.0: the entry does not explain 2.1's failure
    passed, _, _ = _conclude(session, Observation("passed"), version="2.1", writer_version="2.0")
    assert passed.outcome is Outcome.PASSED and passed.message.startswith("fixed in 2.")


def test_a_strict_entry_whose_case_passes_is_stale(session):
    passed, _, _ = _conclude(session, Observation("passed"), version="1.0")
    assert passed.outcome is Outcome.FAILED and passed.message.startswith(
        "known failure now passes"
    )


def test_a_crash_is_explained_only_by_a_crash_entry(session):
    seen = Observation("crashed", "killed by SIGSEGV: got 256", side="reader")
    settled, _, _ = _conclude(session, seen)
    assert settled.outcome is Outcome.ERRORED and settled.known is None
