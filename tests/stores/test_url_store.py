"""URLStore over file://, http:// and s3://, against DirectoryStore and ZipStore on the same bytes
(V3-FS-001, V3-FS-002, V2-KEY-007): every store must give identical answers."""

from __future__ import annotations

import json
import os
import zipfile

import pytest

from conformance.reference.errors import ReadOnlyError, UnsupportedError, ZarrError
from conformance.reference.stores import DirectoryStore, ZipStore, open_store
from conformance.reference.stores.url import StoreIOError, URLStore
from conformance.testing.servers import http_server

FILES = {
    "zarr.json": b'{"zarr_format": 3, "node_type": "group"}',
    "a/zarr.json": b"{}",
    "a/c/0/0": bytes(range(256)) * 3,
    "a/c/0/1": b"x",
    "a/c/1/0": b"",
    "caf\u00e9/zarr.json": b"unicode name",
    "odd name/q?x#y%z": b"characters a URL must quote",
}
OUTSIDE = b"must never be read"


def write_tree(root, files=FILES):
    for key, value in files.items():
        path = root.joinpath(*key.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(value)


def make_tree(base):
    root = base / "store"
    write_tree(root)
    (base / "secret").write_bytes(OUTSIDE)
    return root


@pytest.fixture
def tree(tmp_path):
    return make_tree(tmp_path)


@pytest.fixture(scope="module")
def shared_tree(tmp_path_factory):
    """One tree for the read-only comparisons, served once per module (uploads are slow)."""
    return make_tree(tmp_path_factory.mktemp("shared"))


@pytest.fixture(scope="module")
def http_url(shared_tree):
    with http_server(shared_tree) as server:
        yield server.url


@pytest.fixture(scope="module")
def s3_location(shared_tree, moto_s3):
    return moto_s3.upload_tree(shared_tree, prefix="data/store.zarr"), moto_s3.storage_options


@pytest.fixture(params=["directory", "zip", "file", "http", "s3"])
def any_store(request, shared_tree):
    kind = request.param
    if kind == "directory":
        return DirectoryStore(shared_tree, read_only=True)
    if kind == "zip":
        path = shared_tree.parent / "store.zip"
        if not path.exists():
            with zipfile.ZipFile(path, "w") as zf:  # flat names: '/' inside keys (V2-KEY-007)
                for key, value in FILES.items():
                    zf.writestr(key, value)
        return ZipStore(path)
    if kind == "file":
        return URLStore(shared_tree.as_uri())
    if kind == "http":
        return URLStore(request.getfixturevalue("http_url"))
    url, options = request.getfixturevalue("s3_location")
    return URLStore(url, storage_options=options)


def test_get_reads_every_key_exactly(any_store):
    for key, value in FILES.items():
        assert any_store.get(key) == value, key
    assert any_store.contains("a/c/0/1")


@pytest.mark.parametrize("key", ["missing", "a/c/9/9", "a/c", "a", "a/c/0/0/deeper"])
def test_missing_keys_are_none(any_store, key):
    assert any_store.get(key) is None
    assert any_store.get_partial(key, 0, 4) is None
    assert not any_store.contains(key)


@pytest.mark.parametrize(
    "start, length",
    [
        (0, None),
        (5, None),
        (0, 10),
        (700, 100),
        (767, 1),
        (768, 5),
        (1000, None),
        (-10, None),
        (-10, 3),
        (-5000, None),
        (3, 0),
    ],
)
def test_get_partial_matches_slicing(any_store, start, length):
    value = FILES["a/c/0/0"]
    begin = max(len(value) + start, 0) if start < 0 else start
    expected = value[begin:] if length is None else value[begin : begin + length]
    assert any_store.get_partial("a/c/0/0", start, length) == expected


def test_partial_read_of_an_empty_value(any_store):
    assert any_store.get_partial("a/c/1/0", 0, 4) == b""
    assert any_store.get_partial("a/c/1/0", -4) == b""


def test_listing_is_identical(any_store):
    if isinstance(any_store, URLStore) and not any_store.can_list:
        with pytest.raises(UnsupportedError):
            any_store.list()
        with pytest.raises(ZarrError, match="consolidated metadata"):
            any_store.list_dir("")
        return
    assert sorted(any_store.list()) == sorted(FILES)
    assert any_store.list_prefix("a/c/") == ["a/c/0/0", "a/c/0/1", "a/c/1/0"]
    assert any_store.list_prefix("a/c/0") == ["a/c/0/0", "a/c/0/1"]
    assert any_store.list_prefix("nothing/") == []
    assert any_store.list_dir("") == (["zarr.json"], ["a", "caf\u00e9", "odd name"])
    assert any_store.list_dir("a/") == (["zarr.json"], ["c"])
    assert any_store.list_dir("a/c/0/") == (["0", "1"], [])
    assert any_store.list_dir("nothing/") == ([], [])


@pytest.mark.parametrize(
    "key",
    [
        "../secret",
        "/secret",
        "a/../../secret",
        "..\\secret",
        "a\\..\\..\\secret",
        "a/\x00",
        "",
        "a//c/0/1",
        "./zarr.json",
        "a/c/0/1/",
    ],
)
def test_hostile_keys_never_leave_the_store(any_store, key):
    assert any_store.get(key) is None
    assert any_store.get_partial(key, 0, 4) is None


def test_http_never_requests_outside_the_root(serve_http, tree):
    server = serve_http(tree)
    store = URLStore(server.url)
    for key in ["../secret", "a/../../secret", "%2e%2e/secret", "a/%2e%2e/%2e%2e/secret"]:
        assert store.get(key) is None
    # '%2e%2e' is a legal key (literal characters), sent quoted; nothing else reached the server
    assert {r.path for r in server.requests} <= {"/%2e%2e/secret", "/a/%2e%2e/%2e%2e/secret"}
    assert all(r.status == 404 for r in server.requests)


def test_url_stores_are_read_only(tree, serve_http):
    for store in (URLStore(tree.as_uri()), URLStore(serve_http(tree).url)):
        with pytest.raises(ReadOnlyError):
            store.set("zarr.json", b"{}")
        with pytest.raises(ReadOnlyError):
            store.erase("zarr.json")
    assert (tree / "zarr.json").read_bytes() == FILES["zarr.json"]


def test_file_url_symlink_out_of_the_root_is_not_followed(tree):
    os.symlink(tree.parent / "secret", tree / "a" / "link")
    os.symlink(tree.parent, tree / "up")
    store = URLStore(tree.as_uri())
    assert store.get("a/link") is None
    assert store.get("up/secret") is None
    assert "a/link" not in list(store.list())
    assert all(not k.startswith("up/") for k in store.list())


def test_server_ignoring_ranges_still_gives_exact_partial_reads(serve_http, tree):
    store = URLStore(serve_http(tree, ranges=False).url)
    value = FILES["a/c/0/0"]
    assert store.get_partial("a/c/0/0", 10, 5) == value[10:15]
    assert store.get_partial("a/c/0/0", 10) == value[10:]
    assert store.get_partial("a/c/0/0", -7) == value[-7:]
    assert store.get_partial("a/c/0/0", 2000, 5) == b""


def test_ranged_reads_fetch_only_the_range(serve_http, tree):
    server = serve_http(tree)
    store = URLStore(server.url)
    store.get_partial("a/c/0/0", 100, 16)
    store.get_partial("a/c/0/0", -16)
    assert server.ranges_for("/a/c/0/0") == ["bytes=100-115", "bytes=-16"]


def test_http_timeout_is_an_io_error_not_a_hang(serve_http, tree):
    import time

    store = URLStore(serve_http(tree, delay=10).url, timeout=0.5)
    started = time.monotonic()
    with pytest.raises(StoreIOError, match="timed out") as info:
        store.get("zarr.json")
    assert time.monotonic() - started < 5
    assert info.value.reason == "io-error"


def test_unreachable_server_is_an_io_error():
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = URLStore(f"http://127.0.0.1:{port}/x.zarr", timeout=5)
    with pytest.raises(StoreIOError):
        store.get("zarr.json")


def test_unknown_scheme_is_refused():
    with pytest.raises(UnsupportedError, match="ftp://"):
        URLStore("ftp://example.org/data.zarr")
    with pytest.raises(UnsupportedError):
        open_store("gopher://example.org/x")


def test_open_store_dispatches_urls(tree):
    store = open_store(tree.as_uri())
    assert isinstance(store, URLStore) and store.get("a/c/0/1") == b"x"


def test_s3_credentials_and_endpoint_from_the_environment(moto_s3, tree, monkeypatch):
    url = moto_s3.upload_tree(tree)
    for name, value in moto_s3.environment.items():
        monkeypatch.setenv(name, value)
    store = URLStore(url)
    assert store.get("a/c/0/1") == b"x"
    assert store._fs.anon is False


def test_s3_anonymous_read_of_a_public_bucket(moto_s3, tree, monkeypatch):
    bucket = moto_s3.new_bucket()
    url = moto_s3.upload_tree(tree, bucket)
    policy = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": "*",
                "Action": ["s3:GetObject", "s3:ListBucket"],
                "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/*"],
            }
        ],
    }
    moto_s3.client().put_bucket_policy(Bucket=bucket, Policy=json.dumps(policy))
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tree / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tree / "none"))
    monkeypatch.setenv("HOME", str(tree.parent))
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_s3.endpoint_url)
    store = URLStore(url)
    assert store._fs.anon is True
    assert store.get("a/c/0/0") == FILES["a/c/0/0"]
    assert store.list_dir("a/") == (["zarr.json"], ["c"])


def test_s3_private_bucket_without_credentials_is_an_io_error(moto_s3, tree):
    url = moto_s3.upload_tree(tree)
    store = URLStore(url, storage_options={"endpoint_url": moto_s3.endpoint_url, "anon": True})
    with pytest.raises(StoreIOError, match=r"Forbidden|denied|Permission"):
        store.get("a/c/0/1")
