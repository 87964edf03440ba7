"""The store kind `icechunk` (conformance.harness.icechunk_store): v3 read and write cases held in
an Icechunk repository. Which cases run over it, and for whom, is decided without Icechunk (fast
tests); the slow tests make the helper's and zarr-python's Python 3.12 venvs (cached) and run
through Icechunk for real: what it cannot hold is refused up front and recorded, zarr-python reads
and writes through IcechunkStore, and a write that is not committed is caught."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.corpus import default_root, load_cases
from conformance.harness.config import ADAPTERS_DIR, load_adapter_config
from conformance.harness.pytest_plugin import _single_params
from conformance.harness.remote import remote_kinds
from conformance.harness.session import Options, SuiteSession
from conformance.harness.variants import at_version
from conformance.suite.direct import run_case

HERE = Path(__file__).resolve().parent
READ = "v3/sharding/inner-crc32c"  # sharded float32: IcechunkStore's byte-range reads
WRITE = "v3/codecs/write-crc32c-round-trip"
REFUSED = "v3/keys/default-dot-separator"  # chunk keys `c.0.0`: Icechunk refuses them
V2 = "v2/dtypes/complex64-bytes"


@pytest.fixture(scope="module")
def cases():
    root = default_root()
    found = {c.id: c for c in load_cases(root)} if root.is_dir() else {}
    if READ not in found:
        pytest.skip("no corpus (zarr-conformance corpus generate)")
    return found


def session_of(*folders: Path, **options) -> SuiteSession:
    return SuiteSession(Options(impls=[str(f) for f in folders], **options))


def test_icechunk_holds_v3_cases_that_need_no_refusal(cases):
    assert "icechunk" in remote_kinds("read", cases[READ])
    assert "icechunk" in remote_kinds("write", cases[WRITE])
    assert "icechunk" not in remote_kinds("read", cases[V2])  # Icechunk is a v3 store
    must_fail = [c for c in cases.values() if c.kind == "write" and "must_fail" in c.expect]
    assert must_fail and not any("icechunk" in remote_kinds("write", c) for c in must_fail)


def test_only_declaring_adapters_run_over_icechunk_and_refused_cases_run_for_none(cases):
    session = session_of(
        ADAPTERS_DIR / "zarr-python",
        ADAPTERS_DIR / "reference",
        cases=(READ, REFUSED),
        store_kinds=("icechunk",),
    )
    try:
        ids = [p.id for p in _single_params(session, "read")]
        assert f"zarr-python:{READ}@icechunk" in ids
        assert f"zarr-python:{REFUSED}@icechunk" in ids
        assert not any(i.startswith("reference:") and i.endswith("@icechunk") for i in ids)
        session.options.store_refusals = {"icechunk": {REFUSED: "Icechunk refuses `c.0.0`"}}
        ids = [p.id for p in _single_params(session, "read")]
        assert f"zarr-python:{READ}@icechunk" in ids
        assert f"zarr-python:{REFUSED}@icechunk" not in ids
        assert f"zarr-python:{REFUSED}" in ids  # on its own store it still runs
    finally:
        session.close()


def test_an_adapter_not_declaring_icechunk_is_unsupported_over_it(cases):
    session = session_of(ADAPTERS_DIR / "reference")
    try:
        verdict = run_case(session, "write", "reference", cases[WRITE], "icechunk")
        assert verdict.outcome == "unsupported", verdict
        verdict = run_case(session, "read", "reference", cases[READ], "icechunk")
        assert verdict.outcome == "unsupported", verdict
        assert "lacks store:icechunk" in verdict.message  # not probed: it would read the
        assert session._icechunk is None  # repository's folder as a directory store
    finally:
        session.close()


def test_a_version_row_leaves_icechunk_out():
    # icechunk 2.3 requires zarr >= 3.1: a zarr 3.0 row could not be installed with it.
    row = at_version(load_adapter_config(ADAPTERS_DIR / "zarr-python"), "3.0.10")
    assert not any(r.startswith("icechunk") for r in row.requirements)
    assert not {"store:icechunk", "feature:icechunk-write"} & row.capabilities


def test_without_a_python_3_12_the_kind_is_left_out_with_a_reason(monkeypatch):
    from conformance.harness import icechunk_store, interpreters

    monkeypatch.setattr(interpreters, "find", lambda version: None)
    why = icechunk_store.provision()
    assert why is not None and "Python 3.12" in why


@pytest.mark.slow
def test_refusals_are_icechunks_own_answers(cases, tmp_path):
    from conformance.harness.icechunk_store import IcechunkStores, provision

    why = provision()
    if why is not None:
        pytest.skip(why)
    stores = IcechunkStores(tmp_path / "icechunk")
    try:
        refused = stores.refusals([cases[READ], cases[REFUSED], cases[WRITE]])
    finally:
        stores.close()
    assert list(refused) == [REFUSED]
    assert "c.0.0" in refused[REFUSED]


@pytest.mark.slow
def test_zarr_python_reads_and_writes_through_icechunk_and_an_uncommitted_write_is_caught(cases):
    from conformance.harness.icechunk_store import provision

    why = provision()
    if why is not None:
        pytest.skip(why)
    session = session_of(ADAPTERS_DIR / "zarr-python", HERE / "icechunk-uncommitted")
    try:
        for test, case in (("read", READ), ("write", WRITE)):
            verdict = run_case(session, test, "zarr-python", cases[case], "icechunk")
            assert verdict.outcome == "passed", verdict
        assert session._icechunk is not None  # it went through a repository
        verdict = run_case(session, "write", "icechunk-uncommitted", cases[WRITE], "icechunk")
        assert verdict.outcome == "failed", verdict
        assert "missing" in verdict.message
        # The same adapter's reads, and its writes to a directory, are right.
        assert run_case(
            session, "read", "icechunk-uncommitted", cases[READ], "icechunk"
        ).outcome == ("passed")
        assert run_case(session, "write", "icechunk-uncommitted", cases[WRITE]).outcome == "passed"
    finally:
        session.close()


@pytest.mark.slow
def test_a_run_records_icechunk_and_its_refusals(tmp_path):
    results = tmp_path / "run.jsonl"
    script = Path(sys.executable).parent / "zarr-conformance"
    proc = subprocess.run(
        [
            str(script),
            "run",
            "--impl",
            "zarr-python",
            "--kinds",
            "read,write",
            "--store-kinds",
            "icechunk",
            "--cases",
            READ,
            "--cases",
            REFUSED,
            "--cases",
            WRITE,
            "--jobs",
            "1",
            "--results",
            str(results),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert results.is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    meta = json.loads((tmp_path / "run.meta.json").read_text())
    if "icechunk" not in meta["store_kinds"]:
        pytest.skip(proc.stdout[-500:])  # no Python 3.12 here: the run said why
    assert list(meta["store_refusals"]["icechunk"]) == [REFUSED]
    records = [json.loads(line) for line in results.read_text().splitlines()]
    over = {
        (r["test"], r["case"]): r["outcome"] for r in records if r["store"]["kind"] == "icechunk"
    }
    assert over == {("read", READ): "passed", ("write", WRITE): "passed"}
    assert "1 of 3 v3 read and write cases do not run over icechunk" in proc.stdout + proc.stderr
