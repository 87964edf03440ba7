"""The validator never crashes or hangs: unexpected exceptions become findings, the time budget
is a hard limit, progress shows on stderr; and it reaches stores over HTTP and S3."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conformance.reference.array import Array
from conformance.reference.formats.v3.format import V3Format
from conformance.testing.documents import V3_GROUP, raw_chunk, v3_array
from conformance.validate.budget import Progress
from conformance.validate.findings import Finding
from conformance.validate.runner import validate


def many_chunks(store_dir, n=40):
    files = {
        "zarr.json": V3_GROUP,
        "a/zarr.json": v3_array([n], [1]),
        "b/zarr.json": v3_array([2], [2]),
    }
    files.update({f"a/c/{i}": raw_chunk([i]) for i in range(n)})
    return store_dir(files)


def test_unexpected_exception_in_the_reference_becomes_a_finding(run_cli, store_dir, monkeypatch):
    original = V3Format.open_array

    def flaky(self, store, path):
        if path == "a":
            raise TypeError("boom from a reference bug")
        return original(self, store, path)

    monkeypatch.setattr(V3Format, "open_array", flaky)
    output = run_cli(many_chunks(store_dir, 3))
    assert output.code == 1
    found = [f for f in output.findings if f[3] == "/a"]
    assert found and found[0][:3] == ("ERROR", "-", "invalid-metadata")
    assert (
        "TypeError: boom from a reference bug" in found[0][4]
        and "test_validate_robustness.py" in found[0][4]
    )
    assert "2 arrays" in output.summary  # the walk went on to /b
    assert "Traceback" not in output.out + output.err


def test_unexpected_exception_while_decoding_is_a_chunk_finding(run_cli, store_dir, monkeypatch):
    def explode(self, index):
        raise MemoryError("cannot allocate")

    monkeypatch.setattr(Array, "read_chunk", explode)
    output = run_cli(many_chunks(store_dir, 2))
    assert output.code == 1
    assert output.has("ERROR", None, "corrupt-chunk", "/a")


def test_time_budget_stops_a_slow_walk(run_cli, store_dir, monkeypatch):
    original = Array.read_chunk

    def slow(self, index):
        time.sleep(0.05)
        return original(self, index)

    monkeypatch.setattr(Array, "read_chunk", slow)
    started = time.monotonic()
    output = run_cli(many_chunks(store_dir, 200), "--timeout", "0.5")
    assert time.monotonic() - started < 3
    assert output.code == 1
    assert output.has("ERROR", None, "too-large", "/")
    assert "INCOMPLETE" in output.summary


def test_time_budget_is_hard_even_inside_one_stuck_call(store_dir, monkeypatch):
    def stuck(self, index):
        time.sleep(4)  # not interruptible: the run must give up on the worker thread

    monkeypatch.setattr(Array, "read_chunk", stuck)
    out = io.StringIO()
    started = time.monotonic()
    result = validate(many_chunks(store_dir, 3), timeout=0.3, out=out)
    elapsed = time.monotonic() - started
    assert elapsed < 3.5, elapsed
    assert result.exit_code == 1 and not result.complete
    written = out.getvalue()
    time.sleep(0.1)
    assert out.getvalue() == written  # the abandoned walk prints nothing more


def test_progress_lines_on_stderr():
    err = io.StringIO()
    progress = Progress(err, interval=0.0)
    progress.node()
    progress.chunk()
    assert err.getvalue().splitlines() == [
        "validate: 1 nodes, 0 chunks checked (0 s)",
        "validate: 1 nodes, 1 chunks checked (0 s)",
    ]
    quiet = io.StringIO()
    Progress(quiet, interval=3600).chunk()
    assert quiet.getvalue() == ""


def test_progress_is_printed_for_a_long_run(store_dir, monkeypatch):
    original = Array.read_chunk

    def slow(self, index):
        time.sleep(0.01)
        return original(self, index)

    monkeypatch.setattr(Array, "read_chunk", slow)
    err = io.StringIO()
    validate(many_chunks(store_dir, 30), out=io.StringIO(), progress=Progress(err, interval=0.1))
    assert "chunks checked" in err.getvalue()


# ---- the ZOM model option ---------------------------------------------------------------------
def test_model_option(run_cli, store_dir, tmp_path):
    from conformance.reference import zom

    root = store_dir(
        {"zarr.json": V3_GROUP, "a/zarr.json": v3_array([2], [2]), "a/c/0": raw_chunk([1, 2])}
    )
    model = zom.to_json(zom.from_store(str(root)))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(model))
    assert run_cli(root, "--model", good).code == 0
    model["members"]["b"] = model["members"]["a"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(model))
    output = run_cli(root, "--model", bad)
    assert output.code == 1, output
    assert any(f[1].startswith("ZOM-") and f[2] == "model-mismatch" for f in output.findings), (
        output
    )


def test_model_option_without_the_zom_module(run_cli, store_dir, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "conformance.reference.zom", None)  # import now fails
    (tmp_path / "m.json").write_text("{}")
    output = run_cli(store_dir({"zarr.json": V3_GROUP}), "--model", tmp_path / "m.json")
    assert output.code == 1 and output.has("ERROR", None, "unsupported", "/")
    assert "validate_model_file" in output.out


def test_findings_from_other_modules_are_coerced():
    class ZomLike:
        requirement, severity, path, message = "ZOM-004", "warning", "a/b", "member differs"

    finding = Finding.coerce(ZomLike(), format="zom")
    assert (finding.level, finding.requirement, finding.reason, finding.path) == (
        "WARNING",
        "ZOM-004",
        "model-mismatch",
        "a/b",
    )
    odd = Finding.coerce({"requirement": "NOT-AN-ID", "severity": "error", "message": "m"})
    assert odd.requirement is None and odd.level == "ERROR"


# ---- over the network -----------------------------------------------------------------------
def v2_consolidated_store(store_dir, corrupt: bool):
    from conformance.reference import DirectoryStore, get_format
    from conformance.reference.formats.v2 import write_consolidated

    root = store_dir({})
    fmt = get_format("v2")
    store = DirectoryStore(root)
    fmt.create_group(store, "")
    array = fmt.create_array(
        store, "g/a", fmt.array_metadata((6, 4), (3, 2), "<i4", compressor={"id": "zlib"})
    )
    array[:] = np.arange(24).reshape(6, 4)
    write_consolidated(store)
    if corrupt:
        (root / "g" / "a" / "1.1").write_bytes(b"garbage")
    return root


@pytest.mark.parametrize("corrupt", [False, True])
def test_validate_over_http_uses_consolidated_metadata(run_cli, store_dir, serve_http, corrupt):
    server = serve_http(v2_consolidated_store(store_dir, corrupt))
    output = run_cli(server.url)
    assert output.code == (1 if corrupt else 0), output
    assert output.has("NOTE", None, "unsupported", "/")
    assert "3 nodes (2 groups, 1 array); 4 chunks checked" in output.summary
    if corrupt:
        assert any(f[2] == "corrupt-chunk" and "g/a/1.1" in f[4] for f in output.findings)


def test_validate_over_http_without_consolidated_metadata_checks_the_root(
    run_cli, store_dir, serve_http
):
    root = store_dir({"zarr.json": v3_array([4], [2]), "c/1": raw_chunk([7, 8])})
    output = run_cli(serve_http(root).url)
    assert output.code == 0, output
    assert "1 chunk checked" in output.summary


def test_unreachable_url_is_an_error_not_a_hang(run_cli):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    output = run_cli(f"http://127.0.0.1:{port}/x.zarr")
    assert output.code == 1 and output.has("ERROR", None, "io-error", "/")


def test_validate_s3_through_the_installed_command(moto_s3, store_dir):
    """The console script, in its own process, with credentials and endpoint from the environment."""
    url = moto_s3.upload_tree(v2_consolidated_store(store_dir, corrupt=True))
    script = Path(sys.executable).with_name("zarr-conformance")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "conformance.cli"]
    env = {**os.environ, **moto_s3.environment}
    done = subprocess.run(
        [*command, "validate", url, "--json"], capture_output=True, text=True, env=env, timeout=120
    )
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1, done.stderr
    assert (
        records[-1]["type"] == "summary"
        and records[-1]["chunks"] == 4
        and records[-1]["arrays"] == 1
    )
    assert any(r.get("reason") == "corrupt-chunk" and r.get("key") == "g/a/1.1" for r in records)
    assert "Traceback" not in done.stderr


def test_a_feature_the_reference_lacks_cannot_be_checked_and_is_not_a_failure(
    run_cli, store_dir, monkeypatch
):
    from conformance.reference.errors import UnsupportedError

    def unsupported(self, store, path):
        raise UnsupportedError("data type 'float8_e4m3' is valid but not implemented here")

    monkeypatch.setattr(V3Format, "open_array", unsupported)
    output = run_cli(store_dir({"zarr.json": v3_array([2], [2])}))
    assert output.code == 3, output
    assert output.has("CANNOT-CHECK", None, "unsupported", "/")
    assert output.summary.startswith("SUMMARY CANNOT-CHECK: 0 errors, 1 cannot-check")


def test_a_store_that_refuses_listing_falls_back_to_consolidated_metadata(store_dir):
    """A public bucket often allows GetObject but not ListBucket (listing answers 403; moto does
    not enforce that, so a wrapper plays the bucket here)."""
    from conformance.reference import DirectoryStore
    from conformance.reference.stores.url import StoreIOError

    class NoListing(DirectoryStore):
        def list(self):
            raise StoreIOError("ListObjectsV2: 403 Forbidden")

        list_prefix = list_dir = lambda self, prefix: self.list()

    store = NoListing(v2_consolidated_store(store_dir, corrupt=True), read_only=True)
    out = io.StringIO()
    result = validate(store, out=out)
    assert result.exit_code == 1, out.getvalue()
    assert (result.sink.tally.arrays, result.sink.tally.chunks) == (1, 4)
    assert any(f.reason == "corrupt-chunk" and f.key == "g/a/1.1" for f in result.findings)
    assert any(f.level == "NOTE" and "consolidated" in f.message for f in result.findings)
