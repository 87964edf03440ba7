"""`validate` holds its bounds as a process: a store that stalls ends the run at the time budget
(a default one when none is given), and the read limits are options."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from conformance.testing.servers import http_server
from conformance.validate.budget import DEFAULT_TIME_BUDGET
from conformance.validate.sample import write_sample


def validate(*args: str, env: dict | None = None, timeout: float = 120):
    """Run `zarr-conformance validate` as a process; (completed process, seconds)."""
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "validate", "--quiet", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(env or {})},
        timeout=timeout,
    )
    return proc, time.monotonic() - started


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    write_sample(root / "s.zarr")
    return root


def stall(handler, send_body: bool) -> None:
    """A route that never answers (until the server stops)."""
    handler.server.stopping.wait(600)


def test_the_default_budget_is_documented_and_applied():
    from conformance.cli import build_parser

    args = build_parser().parse_args(["validate", "x"])
    assert args.timeout == DEFAULT_TIME_BUDGET
    assert build_parser().parse_args(["validate", "x", "--timeout", "0"]).timeout is None
    proc, _ = validate("--help")
    assert f"{DEFAULT_TIME_BUDGET:g} s unless given" in proc.stdout
    assert "--max-value-bytes" in proc.stdout and "--max-metadata-bytes" in proc.stdout


def test_stalling_chunks_over_http_end_within_the_budget(sample):
    with http_server(sample) as server:
        for path in sample.rglob("*"):
            if path.is_file() and "/c/" in path.as_posix():
                server.routes["/" + path.relative_to(sample).as_posix()] = stall
        proc, seconds = validate(f"{server.url}/s.zarr/temperature", "--timeout", "4")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert seconds < 4 + 10  # the budget, its grace and the start of the process
    assert "Traceback" not in proc.stderr


def test_a_stalling_s3_endpoint_ends_within_the_budget(sample):
    # Every request stalls: S3 clients retry, which without an overall budget took minutes.
    with http_server(sample, delay=600) as server:
        env = {
            "AWS_ENDPOINT_URL": server.url,
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "AWS_DEFAULT_REGION": "us-east-1",
        }
        proc, seconds = validate("s3://bucket/s.zarr", "--timeout", "5", env=env)
    print(f"stalling S3 endpoint, --timeout 5: ended after {seconds:.1f} s")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "the time budget of 5 s ran out" in proc.stdout or "timed out" in proc.stdout
    assert seconds < 5 + 10


def test_read_limits_are_options(sample):
    store = sample / "s.zarr"
    proc, _ = validate(str(store), "--max-metadata-bytes", "64")
    assert proc.returncode == 1
    assert "64 bytes" in proc.stdout and "zarr.json" in proc.stdout
    proc, _ = validate(str(store), "--max-value-bytes", "1MiB")
    assert proc.returncode == 0, proc.stdout
    proc, _ = validate(str(store), "--max-value-bytes", "lots")
    assert proc.returncode == 2 and "not a number of bytes" in proc.stderr
