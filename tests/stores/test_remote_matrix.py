"""Store kind as a dimension of the matrix (conformance.harness.remote): the session starts its
HTTP and S3 servers on loopback when a case first needs them and stops them when it closes; reads
go through them for real; an adapter that bends data or refuses URL stores is caught."""

from __future__ import annotations

import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conformance.corpus import default_root, load_cases
from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.pytest_plugin import _single_params
from conformance.harness.session import Options, SuiteSession
from conformance.suite.direct import run_case

HERE = Path(__file__).resolve().parent
CASE = "v3/sharding/inner-crc32c"  # a sharded int32 array: ranged reads of a shard


@pytest.fixture(scope="module")
def case():
    root = default_root()
    cases = {c.id: c for c in load_cases(root)} if root.is_dir() else {}
    if CASE not in cases:
        pytest.skip(f"no corpus case {CASE} (zarr-conformance corpus generate)")
    return cases[CASE]


def session_of(*names: str) -> SuiteSession:
    return SuiteSession(Options(impls=[str(n) for n in names]))


def accepts(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=2):
            return True
    except OSError:
        return False


def test_servers_start_with_the_first_remote_case_and_stop_with_the_session(case):
    session = session_of(ADAPTERS_DIR / "reference")
    try:
        assert session._remote is None  # nothing started before a case needs it
        verdict = run_case(session, "read", "reference", case)
        assert verdict.outcome == "passed", verdict
        assert session._remote is None  # a local read starts no server

        assert run_case(session, "read", "reference", case, "http").outcome == "passed"
        http = session.remote.http
        store = "/" + CASE + "/store/"
        fetched = [r for r in http.requests if r.path.startswith(store) and r.status in (200, 206)]
        assert fetched, "the read did not go through the HTTP server"
        assert any(r.range for r in fetched), "a sharded read should ask for byte ranges"

        assert run_case(session, "read", "reference", case, "s3").outcome == "passed"
        endpoint = session.remote.s3.endpoint_url
        keys = session.remote.s3.client().list_objects_v2(Bucket=session.remote.bucket)
        assert any(k["Key"].startswith(CASE + "/store/") for k in keys.get("Contents", []))
        assert accepts(http.url) and accepts(endpoint)
    finally:
        session.close()
    assert not accepts(http.url), "the HTTP server outlived its session"
    assert not accepts(endpoint), "the S3 server outlived its session"


def test_wrong_data_over_http_and_s3_is_caught(case):
    bent = HERE / "remote-bent"
    session = session_of(bent)
    try:
        assert run_case(session, "read", "remote-bent", case).outcome == "passed"
        for kind in ("http", "s3"):
            verdict = run_case(session, "read", "remote-bent", case, kind)
            assert verdict.outcome == "wrong-data", (kind, verdict)
    finally:
        session.close()


def test_an_unsupported_answer_for_a_url_store_is_errored(case):
    session = session_of(HERE / "remote-refused")
    try:
        verdict = run_case(session, "read", "remote-refused", case, "http")
        assert verdict.outcome == "errored", verdict
        assert "undeclared unsupported" in verdict.message
    finally:
        session.close()


def test_remote_kinds_only_for_adapters_that_declare_them(case):
    # Both declare store:http and store:s3: each read case runs on its own store and over both;
    # reject cases over HTTP only; --store-kinds '' leaves the remote kinds out.
    session = SuiteSession(
        Options(impls=[str(HERE / "remote-bent"), str(ADAPTERS_DIR / "reference")], cases=(CASE,))
    )
    try:
        ids = [p.id for p in _single_params(session, "read")]
        assert ids == [
            f"remote-bent:{CASE}",
            f"remote-bent:{CASE}@http",
            f"remote-bent:{CASE}@s3",
            f"reference:{CASE}",
            f"reference:{CASE}@http",
            f"reference:{CASE}@s3",
        ]
        reject = [p.id for p in _single_params(session, "reject")]
        assert not any(i.endswith("@s3") for i in reject)  # reject cases: HTTP only
        session.options.store_kinds = ()
        assert [p.id for p in _single_params(session, "read")] == [
            f"remote-bent:{CASE}",
            f"reference:{CASE}",
        ]
    finally:
        session.close()
