"""Crashes, hangs, memory hogs and garbage are `errored` for that request only: the process is
killed and restarted and the next request is served (fake adapters in tests/harness/fakes)."""

from __future__ import annotations

import os
import time

import pytest

from conformance.harness.client import AdapterPool
from conformance.harness.transport import AdapterErrored
from conformance.suite.steps import store_spec


@pytest.fixture
def pool(fakes_on_path, tmp_path):
    pool = AdapterPool(timeout=1.5, scratch=tmp_path / "scratch")
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


def assert_errored_then_recovers(client, mini_corpus, tmp_path, match: str):
    assert read(client, mini_corpus / "v3/read/plain-a", tmp_path).ok
    first_pid = client.transport.pid
    with pytest.raises(AdapterErrored, match=match):
        read(client, mini_corpus / "v3/read/trigger", tmp_path)
    response = read(client, mini_corpus / "v3/read/plain-b", tmp_path)  # restarted transparently
    assert response.ok
    assert client.transport.pid != first_pid
    return client


def test_crash_is_errored_and_restarts(pool, mini_corpus, tmp_path):
    client = assert_errored_then_recovers(
        pool.get("crash"), mini_corpus, tmp_path, r"crashed.*exit code 3"
    )
    assert client.transport.starts == 2


def test_crash_message_carries_stderr(pool, mini_corpus, tmp_path):
    client = pool.get("crash")
    with pytest.raises(AdapterErrored, match="about to crash"):
        read(client, mini_corpus / "v3/read/trigger", tmp_path)


def test_hang_is_killed_after_the_timeout(pool, mini_corpus, tmp_path):
    started = time.monotonic()
    assert_errored_then_recovers(
        pool.get("hang"), mini_corpus, tmp_path, r"hang: no response within 1.5 s"
    )
    assert time.monotonic() - started < 15


def test_memory_hog_hits_the_cap(pool, mini_corpus, tmp_path):
    assert_errored_then_recovers(pool.get("hog"), mini_corpus, tmp_path, "out of memory")


def test_without_a_cap_the_hog_allocates(fakes_on_path, mini_corpus, tmp_path):
    # Proves the cap is what stops it (the fake never touches the pages, so this costs nothing).
    pool = AdapterPool(timeout=10, memory_limit=None, scratch=tmp_path / "s")
    try:
        assert read(pool.get("hog"), mini_corpus / "v3/read/trigger", tmp_path).ok
    finally:
        pool.close()


def test_garbage_on_the_protocol_stream(pool, mini_corpus, tmp_path):
    client = pool.get("garbage")
    assert client.describe().name == "garbage"
    with pytest.raises(AdapterErrored, match="malformed response \\(not JSON\\)"):
        read(client, mini_corpus / "v3/read/plain-a", tmp_path)
    assert client.call("describe").ok  # a fresh process


def test_schema_violation_is_errored(pool, mini_corpus, tmp_path):
    assert_errored_then_recovers(
        pool.get("malformed"), mini_corpus, tmp_path, "malformed read response"
    )


def test_output_printed_by_the_adapter_does_not_disturb_the_protocol(pool, mini_corpus, tmp_path):
    client = pool.get("chatty")
    assert client.describe().name == "reference"
    for _ in range(3):
        assert read(client, mini_corpus / "v3/read/plain-a", tmp_path).ok
    assert client.transport.starts == 1


def test_unknown_op_is_a_protocol_error(pool):
    client = pool.get("reference")
    with pytest.raises(AdapterErrored, match="unknown or unimplemented op"):
        client.call("frobnicate")


def test_in_process_transport_serves_the_same_answers(fakes_on_path, mini_corpus, tmp_path):
    pool = AdapterPool(in_process=True, scratch=tmp_path / "s")
    try:
        client = pool.get("reference")
        assert client.transport.pid is None
        response = read(client, mini_corpus / "v3/read/plain-a", tmp_path)
        assert response.ok and response.body["shape"] == [10]
        failed = read(client, mini_corpus / "v3/reject/bad-json", tmp_path)
        assert not failed.ok and failed.reason == "invalid-json"
    finally:
        pool.close()


def test_child_environment_is_inherited(monkeypatch):
    from conformance.harness.client import child_env
    from conformance.resources import REPO_ROOT

    monkeypatch.setenv("ZARR_SOMETHING", "1")
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    env = child_env()
    assert env["ZARR_SOMETHING"] == "1"
    assert env["PYTHONPATH"].split(os.pathsep) == [str(REPO_ROOT), "/somewhere"]


def test_installed_package_does_not_leak_site_packages_into_venvs(monkeypatch, tmp_path):
    from conformance.harness import client

    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(tmp_path))
    monkeypatch.setattr(client, "REPO_ROOT", tmp_path / "site-packages")  # no pyproject.toml there
    root = client.child_import_root(own_venv=True)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    assert files == [
        "conformance/__init__.py",
        "conformance/harness/__init__.py",
        "conformance/harness/adapter_api.py",
        "conformance/harness/icechunk_helper.py",
        "conformance/harness/serve.py",
        "conformance/resources.py",
    ]
    assert client.child_import_root(own_venv=False) == tmp_path / "site-packages"


def test_an_adapter_that_cannot_start_is_given_up_on(pool):
    client = pool.get("broken-import")
    for _ in range(3):
        with pytest.raises(AdapterErrored, match="no_such_module_anywhere"):
            client.call("describe")
    started = time.monotonic()
    with pytest.raises(AdapterErrored, match="not restarted again"):
        client.call("describe")
    assert client.transport.starts == 3 and time.monotonic() - started < 0.5


def test_an_environment_that_cannot_be_made_is_not_retried(pool, monkeypatch):
    from conformance.harness import client as client_module
    from conformance.harness import envs

    calls = []

    def failing(config, **kw):
        calls.append(config.name)
        raise envs.ProvisioningError("pip: no matching distribution")

    monkeypatch.setattr(client_module, "make_transport", failing)
    for _ in range(2):
        with pytest.raises(AdapterErrored, match="no matching distribution"):
            pool.get("crash")
    assert calls == ["crash"]


def test_the_child_side_imports_only_the_standard_library(pool):
    response = pool.get("modules").call("describe")
    loaded = set(response.body["settings"]["all"])
    conformance = sorted(m for m in loaded if m.startswith("conformance"))
    # (serve itself runs as __main__)
    assert conformance == [
        "conformance",
        "conformance.harness",
        "conformance.harness.adapter_api",
        "conformance.resources",
    ]
    for heavy in ("numpy", "jsonschema", "pytest", "hypothesis", "zarr"):
        assert heavy not in loaded, heavy  # numpy only once the adapter itself needs it
