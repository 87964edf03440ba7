"""The loopback server's hostile answers (conformance/testing/servers.py routes) are what they
claim to be, seen by a plain HTTP client: an endless body, a huge Content-Length, valid gzip and
deflate bombs, redirects. And the bomb makers of conformance/testing/bombs.py are exact."""

from __future__ import annotations

import gzip
import http.client
import zipfile
import zlib

import pytest

from conformance.testing.bombs import (
    gzip_zeros,
    write_zip_bomb,
    zeros_adler32,
    zeros_crc32,
    zlib_zeros,
)
from conformance.testing.servers import (
    answer,
    endless_body,
    gzip_bomb,
    huge_content_length,
    redirect,
)


def request(url: str, path: str):
    host, port = url.split("//", 1)[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", path)
    return conn, conn.getresponse()


@pytest.fixture
def server(tmp_path, serve_http):
    (tmp_path / "file").write_bytes(b"plain")
    return serve_http(tmp_path)


def test_endless_body(server):
    server.routes["/e"] = endless_body()
    conn, response = request(server.url, "/e")
    assert response.status == 200 and response.getheader("Content-Length") is None
    assert len(response.read(50 << 20)) == 50 << 20  # 50 MiB and counting
    conn.close()


def test_huge_content_length(server):
    server.routes["/h"] = huge_content_length()
    conn, response = request(server.url, "/h")
    assert int(response.getheader("Content-Length")) == 1 << 50
    assert response.read(1 << 20) == bytes(1 << 20)
    conn.close()


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_gzip_bomb_is_a_valid_stream(server, encoding):
    server.routes["/b"] = gzip_bomb(300 << 20, encoding)
    conn, response = request(server.url, "/b")
    assert response.getheader("Content-Encoding") == encoding
    body = response.read()
    assert (
        len(body) == int(response.getheader("Content-Length")) < 400 << 10
    )  # 300 MiB in < 400 KiB
    decoded = gzip.decompress(body) if encoding == "gzip" else zlib.decompress(body)
    assert decoded == bytes(300 << 20)
    conn.close()


def test_redirect_and_fixed_answers(server):
    server.routes["/r"] = redirect("/file", 301)
    server.routes["/x"] = answer(418, b"teapot", {"X-Test": "1"})
    conn, response = request(server.url, "/r")
    assert response.status == 301 and response.getheader("Location") == "/file"
    response.read()
    conn.close()
    conn, response = request(server.url, "/x")
    assert (response.status, response.read(), response.getheader("X-Test")) == (418, b"teapot", "1")
    conn.close()
    assert server.paths() == ["/r", "/x"]


@pytest.mark.parametrize("n", [0, 1, 1000, (1 << 20) - 1, 1 << 20, 65 << 20, (129 << 20) + 7])
def test_checksums_of_zeros(n):
    assert zeros_crc32(n) == zlib.crc32(bytes(n))
    assert zeros_adler32(n) == zlib.adler32(bytes(n))


@pytest.mark.parametrize("n", [0, 5, (64 << 20) + 3])
def test_compressed_zeros_are_valid(n):
    assert gzip.decompress(b"".join(gzip_zeros(n))) == bytes(n)
    assert zlib.decompress(b"".join(zlib_zeros(n))) == bytes(n)


def test_zip_bomb_is_a_valid_archive(tmp_path):
    path = write_zip_bomb(
        tmp_path / "b.zip", {"big": 3 << 30, "mid": 70 << 20}, {"zarr.json": b"{}"}
    )
    assert path.stat().st_size < 4 << 20
    with zipfile.ZipFile(path) as zf:
        assert {i.filename: i.file_size for i in zf.infolist()} == {
            "zarr.json": 2,
            "big": 3 << 30,
            "mid": 70 << 20,
        }
        assert zf.read("mid") == bytes(70 << 20)  # CRC checked by zipfile
        assert zf.read("zarr.json") == b"{}"
