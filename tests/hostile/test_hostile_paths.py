"""Keys and names that try to leave the store: '..', absolute paths, backslashes, NUL, symlinks
out of a directory store, zip members named '../../evil'. Nothing outside the store is ever
read, listed or written."""

from __future__ import annotations

import os
import time
import zipfile

import pytest

from conformance.reference import DirectoryStore, ZipStore, get_format
from conformance.reference.errors import PathError, ZarrError
from conformance.reference.stores.url import URLStore
from conformance.testing.documents import (
    V2_GROUP,
    V3_GROUP,
    raw_chunk,
    tree_snapshot,
    v2_array,
    v3_array,
    write_files,
)

HOSTILE_KEYS = [
    "../secret",
    "../../secret",
    "/etc/passwd",
    "a/../../secret",
    "..\\secret",
    "a\\..\\..\\secret",
    "a/\x00",
    "\x00",
    "",
    ".",
    "..",
    "a//b",
    "./a",
    "a/./b",
    "a/",
    "/",
]
SECRET = raw_chunk([666, 666])  # would decode as a valid chunk if it were ever read


@pytest.fixture
def sandbox(tmp_path):
    """tmp_path/outside holds the secret; tmp_path/store is the store (a valid v3 array)."""
    outside = write_files(
        tmp_path / "outside", {"secret": SECRET, "zarr.json": v3_array([2], [2]), "c/0": SECRET}
    )
    store = write_files(
        tmp_path / "store", {"zarr.json": V3_GROUP, "a/zarr.json": v3_array([2], [2], fill_value=5)}
    )
    return tmp_path, outside, store


@pytest.mark.parametrize("key", HOSTILE_KEYS)
def test_directory_store_reads_nothing_outside(sandbox, key):
    _, _, root = sandbox
    store = DirectoryStore(root / "a")
    assert store.get(key) is None
    assert store.get_partial(key, 0, 8) is None
    assert not store.contains(key)


@pytest.mark.parametrize("key", HOSTILE_KEYS)
def test_directory_store_writes_nothing_outside(sandbox, key):
    tmp, _, root = sandbox
    before = tree_snapshot(tmp)
    store = DirectoryStore(root / "a")
    with pytest.raises(PathError) as info:
        store.set(key, b"evil")
    assert info.value.reason == "invalid-path"
    with pytest.raises(PathError):
        store.erase(key)
    assert tree_snapshot(tmp) == before


def test_symlinks_out_of_a_directory_store_are_never_followed(sandbox):
    tmp, outside, root = sandbox
    os.symlink(outside / "c" / "0", root / "a" / "c-link")
    (root / "a" / "c").mkdir()
    os.symlink(outside / "secret", root / "a" / "c" / "0")  # a chunk that is really outside
    os.symlink(outside, root / "b")  # a child node that is really outside
    os.symlink(tmp, root / "up")
    store = DirectoryStore(root, read_only=True)
    assert (
        store.get("a/c/0") is None
        and store.get("b/zarr.json") is None
        and store.get("up/outside/secret") is None
    )
    assert sorted(store.list()) == ["a/zarr.json", "zarr.json"]
    assert store.list_dir("") == (["zarr.json"], ["a"])
    assert store.list_prefix("b/") == [] and store.list_prefix("up/") == []
    # the reference reads the fill value where the symlinked chunk is, never the secret
    array = get_format("v3").open_node(store, "a")
    assert array[...].tolist() == [5, 5]
    # and writing through a symlinked directory is refused
    writable = DirectoryStore(root)
    before = tree_snapshot(outside)
    for key in ("b/evil", "up/outside/evil", "a/c/0"):
        with pytest.raises(PathError):
            writable.set(key, b"evil")
    assert tree_snapshot(outside) == before


def test_validate_with_symlinks_out_and_loops_stays_inside_and_terminates(sandbox, validate_cli):
    tmp, outside, root = sandbox
    write_files(root, {"a/c/0": raw_chunk([1, 2])})
    os.symlink(outside, root / "b")
    os.symlink(".", root / "loop")
    os.symlink("..", root / "a" / "parent")
    os.symlink(tmp, root / "up")
    started = time.monotonic()
    output = validate_cli(root)
    assert time.monotonic() - started < 10
    assert output.code == 0, output
    assert "2 nodes (1 group, 1 array); 1 chunk checked" in output.summary
    assert "outside" not in output.out and "secret" not in output.out


def test_file_url_store_with_symlinks_out(sandbox):
    _, outside, root = sandbox
    os.symlink(outside / "secret", root / "a" / "leak")
    os.symlink(outside, root / "b")
    os.symlink(".", root / "loop")
    store = URLStore(root.as_uri())
    assert store.get("a/leak") is None and store.get("b/secret") is None
    assert sorted(store.list()) == ["a/zarr.json", "zarr.json"]
    assert store.list_dir("") == (["zarr.json"], ["a"])


def test_http_server_of_a_store_with_symlinks_out(sandbox, serve_http):
    _, outside, root = sandbox
    os.symlink(outside / "secret", root / "a" / "leak")
    store = URLStore(serve_http(root).url)
    for key in ["a/leak", "../outside/secret", "a/../../outside/secret", "%2e%2e/outside/secret"]:
        assert store.get(key) is None


def hostile_zip(path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, value in members.items():
            info = zipfile.ZipInfo(name)  # ZipInfo keeps the name as given ('../..' included)
            zf.writestr(info, value)


ZIP_EVIL = [
    "../../evil",
    "../evil/zarr.json",
    "/abs/evil",
    "a/../../evil",
    "a\\..\\..\\evil",
    "./zarr.json",
]


def test_zip_members_with_hostile_names_are_not_keys(tmp_path, validate_cli):
    work = tmp_path / "deep" / "er"
    work.mkdir(parents=True)
    path = work / "store.zip"
    members = {
        "zarr.json": b'{"zarr_format": 3, "node_type": "group"}',
        "a/zarr.json": b'{"zarr_format": 3, "node_type": "group"}',
    }
    members.update({name: b'{"zarr_format": 3, "node_type": "group"}' for name in ZIP_EVIL})
    hostile_zip(path, members)
    store = ZipStore(path)
    assert sorted(store.list()) == ["a/zarr.json", "zarr.json"]
    for name in ZIP_EVIL:
        assert store.get(name) is None
    before = tree_snapshot(tmp_path)
    cwd_before = sorted(os.listdir(os.getcwd()))
    output = validate_cli(path)
    assert output.code == 0, output
    assert "2 nodes (2 groups, 0 arrays)" in output.summary
    assert tree_snapshot(tmp_path) == before  # nothing extracted anywhere
    assert sorted(os.listdir(os.getcwd())) == cwd_before


def test_v2_directory_names_with_backslashes_and_dots(tmp_path, validate_cli):
    """On POSIX a directory may be named '..\\..\\x' or 'a\\b': such names are never keys."""
    root = write_files(
        tmp_path / "store",
        {
            ".zgroup": V2_GROUP,
            "ok/.zarray": v2_array([2], [2]),
            "ok/0": raw_chunk([1, 2]),
            "..\\..\\x/.zarray": v2_array([2], [2]),
            "a\\b/.zgroup": V2_GROUP,
        },
    )
    write_files(tmp_path, {"x/.zarray": v2_array([2], [2]), "x/0": b"bad"})
    output = validate_cli(root)
    assert output.code == 0, output
    assert "2 nodes (1 group, 1 array); 1 chunk checked" in output.summary


def test_reference_refuses_hostile_node_paths(tmp_path):
    before = tree_snapshot(tmp_path)
    store = DirectoryStore(tmp_path / "store")
    for name in ("v2", "v3"):
        fmt = get_format(name)
        for path in ("../evil", "a/../../evil", "..", "a/./b" if name == "v3" else "a/../b"):
            with pytest.raises(ZarrError):
                fmt.create_group(store, path)
    assert tree_snapshot(tmp_path) == before
