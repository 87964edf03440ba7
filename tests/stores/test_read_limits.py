"""Every store bounds every read (base.Store: max_value_bytes, max_metadata_bytes, get(key, limit)):
a value over its limit is a LimitError ('too-large') naming the key and the limit, on the
memory, directory, zip, file://, http:// and s3:// stores alike; a partial read of a big value
within the limit still works, and `contains` answers without reading."""

from __future__ import annotations

import zipfile

import pytest

from conformance.reference.errors import LimitError
from conformance.reference.stores import (
    DEFAULT_MAX_METADATA_BYTES,
    DEFAULT_MAX_VALUE_BYTES,
    DirectoryStore,
    MemoryStore,
    ZipStore,
    is_metadata_key,
    open_store,
)
from conformance.reference.stores.base import ENV_MAX_METADATA_BYTES, ENV_MAX_VALUE_BYTES
from conformance.reference.stores.url import URLStore
from conformance.testing.servers import http_server

BIG = bytes(range(256)) * 64  # 16 KiB
FILES = {
    "zarr.json": b'{"zarr_format": 3, "node_type": "group"}' + b" " * 3000,  # 3 KiB and a bit
    "a/c/0": BIG,
    "a/c/1": b"small",
    "empty": b"",
}
LIMITS = {"max_value_bytes": 8192, "max_metadata_bytes": 1024}
KINDS = ["memory", "directory", "zip", "file", "http", "s3"]


def test_documented_defaults():
    assert DEFAULT_MAX_VALUE_BYTES == 1 << 30  # 1 GiB: one chunk or shard
    assert DEFAULT_MAX_METADATA_BYTES == 64 << 20  # 64 MiB: one metadata document
    store = MemoryStore()
    assert (store.max_value_bytes, store.max_metadata_bytes) == (
        DEFAULT_MAX_VALUE_BYTES,
        DEFAULT_MAX_METADATA_BYTES,
    )
    assert store.limit_for("c/0/0") == DEFAULT_MAX_VALUE_BYTES
    assert store.limit_for("a/zarr.json") == DEFAULT_MAX_METADATA_BYTES
    assert store.limit_for("a/zarr.json", limit=10) == 10


@pytest.mark.parametrize(
    "key",
    [
        "zarr.json",
        "a/b/zarr.json",
        ".zarray",
        "g/.zgroup",
        "g/.zattrs",
        ".zmetadata",
        "meta",
        "attrs",
        "meta/root.group.json",
        "meta/root/a.array.json",
    ],
)
def test_metadata_keys(key):
    assert is_metadata_key(key)


@pytest.mark.parametrize(
    "key", ["c/0/0", "0.0", "a/0", "data/root/a/c0/0", "a/meta", "zarr.json/c/0", "c/zarr.jsonx"]
)
def test_chunk_keys_are_values(key):
    assert not is_metadata_key(key)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("limits") / "store"
    for key, value in FILES.items():
        path = root.joinpath(*key.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(value)
    return root


@pytest.fixture(scope="module")
def served(tree):
    with http_server(tree) as server:
        yield server


@pytest.fixture(scope="module")
def s3_url(tree, moto_s3):
    return moto_s3.upload_tree(tree, prefix="limits/store.zarr")


def make_store(kind, tree, request, **limits):
    if kind == "memory":
        return MemoryStore(dict(FILES), **limits)
    if kind == "directory":
        return DirectoryStore(tree, read_only=True, **limits)
    if kind == "zip":
        path = tree.parent / "limits.zip"
        if not path.exists():
            with zipfile.ZipFile(
                path, "w"
            ) as zf:  # stored, as zarr zip stores are (ranges are cheap)
                for key, value in FILES.items():
                    zf.writestr(key, value)
        return ZipStore(path, **limits)
    if kind == "file":
        return URLStore(tree.as_uri(), **limits)
    if kind == "http":
        return URLStore(request.getfixturevalue("served").url, **limits)
    moto = request.getfixturevalue("moto_s3")
    return URLStore(
        request.getfixturevalue("s3_url"), storage_options=moto.storage_options, **limits
    )


@pytest.fixture(params=KINDS)
def limited(request, tree):
    return make_store(request.param, tree, request, **LIMITS)


def test_value_over_the_limit_is_a_limit_error_naming_key_and_limit(limited):
    with pytest.raises(LimitError) as info:
        limited.get("a/c/0")
    assert info.value.reason == "too-large"
    assert "'a/c/0'" in info.value.message and "8192" in info.value.message
    assert (
        limited.get("a/c/1") == b"small"
        and limited.get("empty") == b""
        and limited.get("nothing") is None
    )


def test_metadata_documents_have_their_own_smaller_limit(limited):
    with pytest.raises(LimitError) as info:
        limited.get("zarr.json")
    assert "'zarr.json'" in info.value.message and "1024" in info.value.message
    assert limited.get("zarr.json", limit=4096).startswith(
        b'{"zarr_format": 3'
    )  # a caller may say otherwise


def test_an_explicit_limit(limited):
    assert limited.get("a/c/0", limit=len(BIG)) == BIG
    with pytest.raises(LimitError, match=r"'a/c/1'.* 4 bytes"):
        limited.get("a/c/1", limit=4)


def test_partial_reads_of_a_value_over_the_limit_still_work(limited):
    """A shard may be bigger than the limit: reading its index and one inner chunk is fine."""
    assert limited.get_partial("a/c/0", 100, 50) == BIG[100:150]
    assert limited.get_partial("a/c/0", -16) == BIG[-16:]
    assert limited.get_partial("a/c/0", -16, 4) == BIG[-16:-12]
    with pytest.raises(LimitError):
        limited.get_partial("a/c/0", 0)  # the rest of it is over the limit
    with pytest.raises(LimitError):
        limited.get_partial("a/c/0", 10, 9000)


def test_compressed_zip_member_over_the_limit_refuses_ranges_that_need_inflating(tmp_path):
    """A range of a deflated member means inflating all that comes before it: bounded by the
    value limit like a whole read (a 3 GiB bomb must not be inflated to find its last bytes)."""
    path = tmp_path / "deflated.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a/c/0", BIG)
    store = ZipStore(path, max_value_bytes=8192)
    assert store.get_partial("a/c/0", 0, 50) == BIG[:50]  # from the start: nothing to skip
    with pytest.raises(LimitError, match="compressed zip member 'a/c/0' is 16384 bytes"):
        store.get_partial("a/c/0", 100, 50)
    assert ZipStore(path).get_partial("a/c/0", -16) == BIG[-16:]


def test_contains_does_not_read_and_counts_values_over_the_limit(limited):
    assert limited.contains("a/c/0") and limited.contains("zarr.json") and limited.contains("empty")
    assert not limited.contains("nothing") and not limited.contains("a/c")


def test_limits_from_the_environment(tree, monkeypatch):
    monkeypatch.setenv(ENV_MAX_VALUE_BYTES, "100")
    monkeypatch.setenv(ENV_MAX_METADATA_BYTES, "50")
    for store in (
        DirectoryStore(tree),
        MemoryStore(dict(FILES)),
        open_store(tree),
        open_store(tree.as_uri()),
    ):
        assert (store.max_value_bytes, store.max_metadata_bytes) == (100, 50)
        with pytest.raises(LimitError):
            store.get("zarr.json")
    # explicit arguments win over the environment
    assert DirectoryStore(tree, max_value_bytes=7).max_value_bytes == 7
    monkeypatch.setenv(ENV_MAX_VALUE_BYTES, "lots")
    with pytest.raises(ValueError, match=ENV_MAX_VALUE_BYTES):
        MemoryStore()


def test_the_metadata_limit_never_exceeds_the_value_limit():
    store = MemoryStore({"zarr.json": b"x" * 100}, max_value_bytes=50, max_metadata_bytes=1000)
    assert store.limit_for("zarr.json") == 50
    with pytest.raises(LimitError):
        store.get("zarr.json")


def test_http_content_length_over_the_limit_is_refused_before_the_body(served, tree):
    store = URLStore(served.url, max_value_bytes=8192)
    served.clear()
    with pytest.raises(LimitError, match="16384 bytes"):  # the size comes from Content-Length
        store.get("a/c/0")
    assert served.ranges_for("/a/c/0") == [None]


def test_s3_content_length_over_the_limit_is_refused(request, tree):
    store = make_store("s3", tree, request, max_value_bytes=8192)
    with pytest.raises(LimitError, match="16384 bytes"):
        store.get("a/c/0")
