"""The loopback HTTP server's byte-range answers, checked with a plain HTTP client (urllib), so
that URLStore tests stand on a server whose behaviour is itself verified."""

from __future__ import annotations

import os
import urllib.error
import urllib.request

import pytest

from conformance.testing.servers import _parse_range, http_server

BODY = bytes(range(10))


def fetch(
    url: str, range_header: str | None = None, method: str = "GET"
) -> tuple[int, bytes, dict]:
    request = urllib.request.Request(
        url, method=method, headers={"Range": range_header} if range_header else {}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


@pytest.fixture
def served(tmp_path):
    root = tmp_path / "root"
    (root / "dir").mkdir(parents=True)
    (root / "dir" / "file").write_bytes(BODY)
    (root / "empty").write_bytes(b"")
    (tmp_path / "secret").write_bytes(b"outside")
    os.symlink(tmp_path / "secret", root / "link-out")
    with http_server(root) as server:
        yield server


@pytest.mark.parametrize(
    "header, status, body, content_range",
    [
        (None, 200, BODY, None),
        ("bytes=2-5", 206, BODY[2:6], "bytes 2-5/10"),
        ("bytes=7-", 206, BODY[7:], "bytes 7-9/10"),
        ("bytes=-3", 206, BODY[-3:], "bytes 7-9/10"),
        ("bytes=-30", 206, BODY, "bytes 0-9/10"),
        ("bytes=8-100", 206, BODY[8:], "bytes 8-9/10"),
        ("bytes=10-", 416, b"", "bytes */10"),
        ("bytes=-0", 416, b"", "bytes */10"),
        ("bytes=0-1,4-5", 200, BODY, None),  # several ranges: the whole body is a valid answer
        ("bytes=5-2", 200, BODY, None),  # invalid: ignored
        ("lines=1-2", 200, BODY, None),
    ],
)
def test_ranges(served, header, status, body, content_range):
    got_status, got_body, headers = fetch(served.url + "/dir/file", header)
    assert (got_status, got_body) == (status, body)
    assert headers.get("Content-Range") == content_range
    assert served.ranges_for("/dir/file") == [header]


@pytest.mark.parametrize(
    "path", ["/dir", "/dir/", "/missing", "/dir/../dir/file", "/%2e%2e/secret", "/link-out", "/"]
)
def test_not_found(served, path):
    assert fetch(served.url + path)[0] == 404


def test_empty_file_and_head(served):
    assert fetch(served.url + "/empty")[:2] == (200, b"")
    assert fetch(served.url + "/empty", "bytes=0-4")[0] == 416
    status, body, headers = fetch(served.url + "/dir/file", method="HEAD")
    assert (status, body, headers["Content-Length"]) == (200, b"", "10")


def test_server_that_ignores_ranges(tmp_path):
    (tmp_path / "f").write_bytes(BODY)
    with http_server(tmp_path, ranges=False) as server:
        status, body, headers = fetch(server.url + "/f", "bytes=2-3")
    assert (status, body) == (200, BODY)
    assert "Accept-Ranges" not in headers


def test_parse_range_edges():
    assert _parse_range("bytes=0-0", 1) == (0, 0)
    assert _parse_range("bytes=-1", 0) == "unsatisfiable"
    assert _parse_range("bytes=-", 5) is None
