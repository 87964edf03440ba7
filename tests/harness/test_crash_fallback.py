"""An implementation that segfaults on some inputs (tests/harness/fakes/segfault): after
transport.PER_REQUEST_AFTER crashes the adapter runs one process per request, so every request is
still tried, a segfault costs only its own request, and the message names the signal."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import FAKES
from test_run import run_cli

from conformance.harness import transport
from conformance.harness.client import AdapterPool
from conformance.harness.transport import AdapterErrored
from conformance.suite.steps import store_spec


@pytest.fixture
def pool(fakes_on_path, tmp_path):
    pool = AdapterPool(timeout=20, scratch=tmp_path / "scratch")
    yield pool
    pool.close()


def read(client, case_dir, tmp_path):
    return client.call(
        "read",
        store=store_spec(case_dir / "store"),
        format="v3",
        node="",
        output=str(tmp_path / "o.npy"),
    )


def test_repeated_segfaults_switch_to_one_process_per_request(pool, mini_corpus, tmp_path):
    client = pool.get("segfault")
    assert client.describe().name == "reference"
    plain, trigger = mini_corpus / "v3/read/plain-a", mini_corpus / "v3/read/trigger"
    for _ in range(transport.PER_REQUEST_AFTER):
        assert not client.transport.per_request
        with pytest.raises(AdapterErrored, match=r"killed by SIGSEGV") as info:
            read(client, trigger, tmp_path)
        assert "about to segfault" in str(info.value)  # the stderr tail of the dead process
        assert read(client, plain, tmp_path).ok  # restarted
    assert "one process per request" in str(info.value)  # the switch is said where it happens
    assert client.transport.per_request
    # From now on: every request is tried, in a fresh process that is gone once it has answered.
    starts = client.transport.starts
    for _ in range(3):
        with pytest.raises(AdapterErrored, match=r"killed by SIGSEGV"):
            read(client, trigger, tmp_path)
        assert read(client, plain, tmp_path).ok
        assert client.transport.pid is None
    assert client.transport.starts == starts + 6
    assert client.call("describe").ok


def test_an_adapter_that_never_answers_is_still_given_up_on(pool):
    client = pool.get("broken-import")
    for _ in range(transport.MAX_FAILED_STARTS):
        with pytest.raises(AdapterErrored, match="no_such_module_anywhere"):
            client.call("describe")
    with pytest.raises(AdapterErrored, match="not restarted again"):
        client.call("describe")
    assert not client.transport.per_request


def test_a_run_tries_every_case_of_a_segfaulting_adapter(mini_corpus, tmp_path):
    # Five segfaulting cases among the plain ones: more than the old limit of three crashes.
    corpus = tmp_path / "corpus"
    shutil.copytree(mini_corpus / "v3/read", corpus / "v3/read")
    for i in range(2, 6):
        folder = corpus / f"v3/read/trigger-{i}"
        shutil.copytree(corpus / "v3/read/trigger", folder)
        doc = json.loads((folder / "case.json").read_text())
        doc["id"] = f"v3/read/trigger-{i}"
        (folder / "case.json").write_text(json.dumps(doc))
    for i in range(3):  # plain cases after the triggers too
        folder = corpus / f"v3/read/plain-z{i}"
        shutil.copytree(corpus / "v3/read/plain-a", folder)
        doc = json.loads((folder / "case.json").read_text())
        doc["id"] = f"v3/read/plain-z{i}"
        (folder / "case.json").write_text(json.dumps(doc))
    results = tmp_path / "results.jsonl"
    proc = run_cli(
        "--impl",
        "segfault",
        "--fixtures",
        str(corpus),
        "--kinds",
        "read",
        "--results",
        str(results),
        env_extra={"ZARR_CONFORMANCE_ADAPTERS": str(FAKES)},
        cwd=tmp_path,
    )
    records = {r["case"]: r for r in map(json.loads, results.read_text().splitlines())}
    assert proc.returncode == 1, proc.stderr  # errored records fail the run
    triggers = [c for c in records if "trigger" in c]
    assert len(triggers) == 5
    for case in triggers:
        assert records[case]["outcome"] == "errored", records[case]
        assert "killed by SIGSEGV" in records[case]["message"]
        assert "not restarted again" not in records[case]["message"]
    others = [r for c, r in records.items() if "trigger" not in c]
    assert len(others) == 6 and all(r["outcome"] == "passed" for r in others), others
