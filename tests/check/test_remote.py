"""check over HTTP and over S3 (real servers on loopback, conformance/testing/servers.py): the
reference reads through its bounded URL store, each implementation through its own client, and
the verdicts are the same as on the directory."""

from __future__ import annotations

import pytest

from conformance.check.runner import Options, check
from conformance.corpus.case import default_root
from conformance.testing.servers import http_server, s3_server

pytestmark = pytest.mark.slow

GOLD = default_root() / "v3/gold-zarr-python"
STORE = GOLD / "uint64-max-fill/store"  # zarrita.js misreads its fill value (a known failure)
READERS = ["zarr-python", "zarrita-js"]


def outcomes(report):
    return {c.impl: c.outcome for c in report.cells}


def test_over_http():
    with http_server(GOLD) as server:
        report = check(
            f"{server.url}/uint64-max-fill/store", Options(impls=READERS, progress=False)
        )
        served = server.paths()
    assert report.store_kind == "http"
    assert outcomes(report) == {"zarr-python": "exact", "zarrita-js": "wrong-data"}
    assert "/uint64-max-fill/store/zarr.json" in served
    assert report.exit_code == 1


def test_over_s3(monkeypatch):
    with s3_server() as s3:
        for name, value in s3.environment.items():
            monkeypatch.setenv(name, value)
        bucket = f"check-{id(s3):x}"
        s3.client().create_bucket(Bucket=bucket, ACL="public-read")  # zarrita: unsigned GETs
        url = s3.upload_tree(STORE, bucket, "data.zarr")
        report = check(url, Options(impls=READERS, progress=False))
    assert report.store_kind == "s3"
    assert outcomes(report) == {"zarr-python": "exact", "zarrita-js": "wrong-data"}, (
        report.to_text()
    )
    assert report.exit_code == 1
