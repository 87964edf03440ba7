"""Property tests are deterministic by default (a fixed seed and number of examples: one build gets
one verdict wherever it runs); explore mode draws fresh examples and saves each new shrunk failure
as corpus cases `<format>/found/*`, which every later run replays. The zarr-python -0j bug is such
a case in the corpus, named by zarr-python's known-failure entry."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import conformance.suite.test_properties as properties
from conformance.corpus import load_cases
from conformance.corpus.generator import generate, snapshot
from conformance.harness.outcomes import WrongData
from conformance.harness.plan import plan_found
from conformance.harness.pytest_plugin import found_cases
from conformance.harness.session import Options, SuiteSession, TestContext, is_found
from conformance.suite.failures import digest, reference_reads_back, reference_store, save_found
from conformance.suite.strategies import Example

REPO = Path(__file__).resolve().parents[2]
FLIP = REPO / "tests" / "harness" / "fakes" / "flip"
SCHEMA = json.loads((REPO / "fixtures" / "case.schema.json").read_text())
NEGZERO_CASES = ("v3/found/fa29b72ac8ab-write", "v2/found/ef552ac83710-write")


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ZARR_CONFORMANCE_FOUND", str(tmp_path / "found"))
    return tmp_path


def drawn_examples(monkeypatch, options: Options) -> list[str]:
    """The digests of the examples one reference->reference v3 property run draws."""
    seen: list[str] = []
    original = properties.check_example

    def recording(harness, w, writer, reader, format, example, on_unsupported):
        seen.append(digest(example))
        return original(harness, w, writer, reader, format, example, on_unsupported)

    monkeypatch.setattr(properties, "check_example", recording)
    session = SuiteSession(options)
    try:
        properties.run_property(
            TestContext(session), "reference", "reference", "v3", "property/roundtrip-v3"
        )
    finally:
        session.close()
        monkeypatch.setattr(properties, "check_example", original)
    return seen


def test_the_default_is_deterministic_and_explore_is_not(monkeypatch, isolated):
    first = drawn_examples(monkeypatch, Options(impls=["reference"], examples=15))
    again = drawn_examples(monkeypatch, Options(impls=["reference"], examples=15))
    assert len(first) == 15 and first == again
    explored = drawn_examples(monkeypatch, Options(impls=["reference"], examples=15, explore=True))
    assert explored != first


def test_explore_saves_a_new_failure_that_the_next_run_replays(isolated):
    session = SuiteSession(Options(impls=[str(FLIP), "reference"], explore=True, examples=30))
    context = TestContext(session)
    try:
        with pytest.raises(AssertionError, match="differ bit-wise") as info:
            properties.run_property(context, "reference", "flip", "v3", "property/roundtrip-v3")
    finally:
        session.close()
    assert "saved as corpus cases" in "".join(info.value.__notes__)
    folder = Path(context.fields["example"])
    assert folder.parent == isolated / "found" / "v3" / "found" and folder.name.endswith("-write")
    cases = {c.kind: c for c in load_cases(isolated / "found")}
    assert set(cases) == {"read", "write"} and all(is_found(c) for c in cases.values())
    for case in cases.values():
        jsonschema.validate(case.raw, SCHEMA)
        assert (
            case.provenance["property"] == "property/roundtrip-v3"
            and case.provenance["pair"] == "reference->flip"
        )
    assert cases["write"].id == f"v3/found/{folder.name}"

    # The next (deterministic) run over the default corpus includes it and replays it per pair.
    session = SuiteSession(Options(impls=[str(FLIP), "reference"]))
    try:
        found = [c for c in found_cases(session) if c.id == cases["write"].id]
        assert found, "the saved case is not part of the next run"
        assert not any(
            c.id == cases["write"].id for c in session.cases("write")
        )  # replayed, not a write test
        plan = plan_found(session, found[0], "reference", "flip")
        assert plan.mode == "run" and plan.test == "property"
        with pytest.raises(WrongData):
            properties.replay_found(
                TestContext(session, plan, found[0]), "reference", "flip", found[0]
            )
        properties.replay_found(
            TestContext(session, plan_found(session, found[0], "reference", "reference"), found[0]),
            "reference",
            "reference",
            found[0],
        )
    finally:
        session.close()


def test_a_saved_example_is_not_saved_twice_and_a_wrong_store_is_not_kept(isolated):
    example = Example(
        "v3", _negzero_metadata(), np.array([complex(-0.0, -0.0)], dtype="complex64"), {}
    )
    first, new = save_found(
        "property/roundtrip-v3",
        "w",
        "r",
        example,
        rewrite=lambda store: True,
        versions={"w": {"w": "1.0"}},
    )
    assert new
    again, new = save_found("property/roundtrip-v3", "w", "r", example)
    assert again == first and not new
    # the writer wrote nothing (what zarr-python does with a -0j chunk): the read case holds the
    # reference's store, not the writer's, so that it stays a valid case for every reader
    read = next(c for c in load_cases(isolated / "found") if c.kind == "read")
    assert read.provenance["writer"] == "reference"
    assert reference_reads_back(
        example,
        {
            p.relative_to(read.store_path).as_posix(): p.read_bytes()
            for p in read.store_path.rglob("*")
            if p.is_file()
        },
    )


def _negzero_metadata() -> dict:
    from conformance.reference import get_format

    return get_format("v3").array_metadata(
        (1,),
        (1,),
        np.dtype("complex64"),
        fill_value=[0.0, 0.0],
        codecs=[{"name": "bytes", "configuration": {"endian": "little"}}],
    )


def test_the_negative_zero_bug_is_a_corpus_case_with_its_known_failure():
    cases = {c.id: c for c in load_cases(REPO / "fixtures") if is_found(c)}
    with open(REPO / "adapters" / "zarr-python" / "known-failures.toml", "rb") as f:
        entries = {e["id"]: e for e in tomllib.load(f)["known_failures"]}
    entry = entries["chunk-fill-check-by-value"]
    for case_id in NEGZERO_CASES:
        case = cases[case_id]
        assert case_id in entry["cases"]
        request = case.write_request()
        data = np.asarray(request.data)
        # complex zeros with a negative zero part (0-0j): equal to the fill 0 by value, not by bits
        assert (
            data.dtype.kind == "c"
            and not data.any()
            and (np.signbit(data.real) | np.signbit(data.imag)).all()
        )
        fill = request.metadata["fill_value"]
        assert fill in ([0.0, 0.0], 0) or fill == [0, 0]  # fill +0: the chunk "equals" it by value
        read_case = cases[case_id.replace("-write", "-read")]
        files = {
            p.relative_to(read_case.store_path).as_posix(): p.read_bytes()
            for p in read_case.store_path.rglob("*")
            if p.is_file()
        }
        assert reference_reads_back(
            Example(case.format, request.metadata, data, request.attributes), files
        )
        chunks = set(
            reference_store(Example(case.format, request.metadata, data, request.attributes))
        )
        assert set(files) == chunks and len(chunks) == 2  # the document and the -0j chunk, stored


def test_corpus_generate_keeps_version_and_found_cases(tmp_path):
    root = tmp_path / "corpus"
    (root / "v3").mkdir(parents=True)
    shutil.copy(REPO / "fixtures" / "VERSION", root / "VERSION")
    shutil.copytree(REPO / "fixtures" / "v3" / "found", root / "v3" / "found")
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    generate(root, only="v3/found")
    generate(root, only="v3/fill/int32")
    after = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert set(before) <= set(after)
    assert not any(
        "/found/" in key for key in snapshot(root)
    )  # not compared byte for byte by corpus check


def test_explore_end_to_end_through_pytest(tmp_path):
    """`--hypothesis-explore` through the plugin: the flip adapter's failure is saved, and a later
    deterministic run records the replay as a property test of the found case id."""
    env = {
        **__import__("os").environ,
        "ZARR_CONFORMANCE_FOUND": str(tmp_path / "found"),
        "ZARR_CONFORMANCE_CACHE": str(tmp_path / "cache"),
    }
    base = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "--pyargs",
        "conformance.suite",
        "--impl",
        str(FLIP),
        "--kinds",
        "property",
        "--property-examples",
        "10",
        "-q",
    ]
    subprocess.run(
        [*base, "--hypothesis-explore", "--results", str(tmp_path / "explore.jsonl")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    saved = [c.id for c in load_cases(tmp_path / "found") if c.kind == "write"]
    assert saved, "explore saved nothing"
    proc = subprocess.run(
        [*base, "--results", str(tmp_path / "next.jsonl")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    records = [json.loads(line) for line in (tmp_path / "next.jsonl").read_text().splitlines()]
    replays = [
        r
        for r in records
        if r["case"] in saved and r["reader"] == "flip" and r["writer"] == "reference"
    ]
    assert replays and all(
        r["test"] == "property" and r["outcome"] == "wrong-data" for r in replays
    ), proc.stdout[-3000:]
    meta = json.loads((tmp_path / "explore.meta.json").read_text())
    assert meta["properties"]["mode"] == "explore" and meta["properties"]["seed"] is None
