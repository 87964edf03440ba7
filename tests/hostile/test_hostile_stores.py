"""Stores built to exhaust memory or to hang a reader: a sparse 4 GiB chunk, a 4 GiB zarr.json, a
FIFO (or a socket) where a value or the store itself should be, zip bombs, zip members named
'../x' or that are symbolic links, file names that are not UTF-8.

Each bound is proven on real inputs, and the end-to-end runs (`zarr-conformance validate` in a
fresh process, conformance/testing/probe.py) measure the peak memory they cost: a hostile value
is refused from its size or as soon as the bytes read pass the limit, so the peak grows by a few
MiB at most, never by the value. The child's address space is capped (3 GiB), so a regression
that reads a value whole fails with MemoryError instead of taking the machine. Nothing is
written anywhere (tree_state before and after, lstat only: safe with FIFOs)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from conformance.reference import DirectoryStore, ZipStore, get_format, open_store
from conformance.reference.errors import LimitError, PathError, ZarrError
from conformance.reference.stores import StoreIOError
from conformance.reference.stores.url import URLStore
from conformance.testing.bombs import fifo, sparse_file, unix_socket, write_zip_bomb
from conformance.testing.documents import V3_GROUP, raw_chunk, tree_state, v3_array, write_files
from conformance.testing.probe import measure_validate

GiB, MiB = 1 << 30, 1 << 20
PEAK_MIB = 48  # what a refused value may add to the peak memory of a validate run


def warm_store(base):
    """A small valid array: the warm-up run that loads every module before measuring."""
    return write_files(
        base / "warm.zarr", {"zarr.json": v3_array([4], [2]), "c/0": raw_chunk([1, 2])}
    )


def array_store(root):
    """A v3 array of 4 int32 in chunks of 2, chunk 0 stored."""
    return write_files(root, {"zarr.json": v3_array([4], [2]), "c/0": raw_chunk([1, 2])})


def within(seconds: float, fn, *fifos):
    """fn() in a thread; fail (and unblock it, by opening the FIFOs for writing) if it takes
    longer than `seconds`: a FIFO must never block a read."""
    result = {}

    def target():
        try:
            result["value"] = fn()
        except BaseException as exc:  # re-raised below
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for path in fifos:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # the blocked reader gets EOF
            except OSError:
                pass
        thread.join(5)
        pytest.fail(f"{fn} blocked for more than {seconds} s")
    if "error" in result:
        raise result["error"]
    return result.get("value")


# ---- sparse multi-GiB files ---------------------------------------------------------------------
def test_sparse_4gib_chunk_is_refused_from_its_size(tmp_path):
    root = array_store(tmp_path / "store")
    sparse_file(root / "c" / "1", 4 * GiB)
    store = DirectoryStore(root, read_only=True)
    started = time.monotonic()
    with pytest.raises(LimitError) as info:
        store.get("c/1")
    assert time.monotonic() - started < 1
    assert info.value.reason == "too-large"
    assert (
        "'c/1'" in info.value.message
        and "4294967296" in info.value.message
        and str(1 << 30) in info.value.message
    )
    assert store.contains("c/1")
    assert store.get_partial("c/1", -8) == bytes(8)  # a range of it (a shard index) is fine
    # the same file through file://
    with pytest.raises(LimitError):
        URLStore(root.as_uri()).get("c/1")


def test_validate_sparse_4gib_chunk_and_zarr_json_memory_stays_flat(tmp_path):
    root = array_store(tmp_path / "store")
    sparse_file(root / "c" / "1", 4 * GiB)
    meta = write_files(tmp_path / "meta", {})
    sparse_file(meta / "zarr.json", 4 * GiB)
    warm = warm_store(tmp_path)
    before = tree_state(tmp_path)
    run = measure_validate([root], warmup=[warm])
    assert run.code == 1 and run.seconds < 10, run
    assert "ERROR - too-large /: value 'c/1' is 4294967296 bytes" in run.out, run
    assert run.peak_growth_mib < PEAK_MIB, run
    run = measure_validate([meta], warmup=[warm])
    assert run.code == 1 and run.seconds < 10, run
    assert (
        "value 'zarr.json' is 4294967296 bytes, over the store's read limit of 67108864 bytes"
        in run.out
    ), run
    assert run.peak_growth_mib < PEAK_MIB, run
    assert tree_state(tmp_path) == before


# ---- FIFOs, sockets, devices ---------------------------------------------------------------------
def test_fifo_in_place_of_a_key_never_blocks(tmp_path):
    root = array_store(tmp_path / "store")
    pipe = fifo(root / "c" / "1")
    meta = fifo(tmp_path / "meta" / "zarr.json")
    store = DirectoryStore(root, read_only=True)
    for call in (
        lambda: store.get("c/1"),
        lambda: store.get_partial("c/1", 0, 4),
        lambda: store.get_partial("c/1", -4),
    ):
        with pytest.raises(PathError) as info:
            within(3, call, pipe)
        assert info.value.reason == "invalid-path" and "'c/1' is a FIFO" in info.value.message
    assert within(3, lambda: store.contains("c/1"), pipe)  # something is there: the walk reports it
    assert "c/1" in store.list_prefix("c/")
    with pytest.raises(PathError):
        within(3, lambda: URLStore(root.as_uri()).get("c/1"), pipe)
    with pytest.raises(PathError):
        within(3, lambda: get_format("v3").open_node(DirectoryStore(meta.parent), ""), meta)


def test_validate_with_a_fifo_chunk_and_a_fifo_zarr_json_finishes_at_once(tmp_path):
    root = write_files(tmp_path / "store", {"zarr.json": V3_GROUP})
    array_store(root / "a")
    fifo(root / "a" / "c" / "1")
    fifo(root / "h" / "zarr.json")
    before = tree_state(tmp_path)
    run = measure_validate([root, "--timeout", "5"], timeout=30)
    assert not run.timed_out and run.seconds < 4, run
    assert (
        "ERROR - invalid-path /a: key 'a/c/1' is a FIFO (named pipe), not a regular file" in run.out
    ), run
    assert "ERROR - invalid-path /h: key 'h/zarr.json' is a FIFO" in run.out, run
    assert "INCOMPLETE" not in run.out and run.code == 1, run
    assert tree_state(tmp_path) == before


def test_fifo_shard_of_a_sharded_array(tmp_path):
    """Partial reads (a shard's index, then inner chunks) refuse a FIFO too."""
    from conformance.validate.sample import write_sample

    root = tmp_path / "sample.zarr"
    if not write_sample(root)["sharded"]:
        pytest.skip("this reference has no sharding")
    shard = root / "counts" / "c" / "1" / "1"
    if shard.exists():
        shard.unlink()
    fifo(shard)
    array = get_format("v3").open_node(DirectoryStore(root, read_only=True), "counts")
    with pytest.raises(ZarrError, match="FIFO"):
        within(3, lambda: array[40, 30], shard)
    run = measure_validate([root, "--timeout", "5"], timeout=30)
    assert not run.timed_out and run.seconds < 4 and "'counts/c/1/1' is a FIFO" in run.out, run


def test_fifo_as_the_store_root(tmp_path):
    pipe = fifo(tmp_path / "store.zarr")
    pipe_zip = fifo(tmp_path / "store.zip")
    for make in (
        lambda: DirectoryStore(pipe),
        lambda: ZipStore(pipe_zip),
        lambda: open_store(pipe),
        lambda: open_store(pipe_zip),
        lambda: ZipStore(tmp_path / "store.zip", "w"),
    ):
        with pytest.raises(PathError, match="is a FIFO"):
            within(3, make, pipe, pipe_zip)
    assert (
        within(3, lambda: URLStore(pipe.as_uri()).get("zarr.json"), pipe) is None
    )  # a path through a FIFO
    for target in (pipe, pipe_zip):
        run = measure_validate([target, "--timeout", "5"], timeout=30)
        assert not run.timed_out and run.code == 2 and run.seconds < 4, run
        assert "is a FIFO (named pipe), not a directory or a regular file" in run.err, run


def test_socket_in_place_of_a_key_and_of_the_root(tmp_path):
    root = array_store(tmp_path / "s")
    sock = unix_socket(root / "c" / "1")
    root_sock = unix_socket(tmp_path / "sock")
    try:
        with pytest.raises(PathError, match="'c/1' is a socket"):
            DirectoryStore(root).get("c/1")
        assert DirectoryStore(root).contains("c/1")
        with pytest.raises(PathError, match="is a socket"):
            DirectoryStore(tmp_path / "sock")
    finally:
        sock.close()
        root_sock.close()


def test_character_device_in_place_of_a_key(tmp_path):
    root = array_store(tmp_path / "s")
    try:
        os.mknod(root / "c" / "1", stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero: endless
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    with pytest.raises(PathError, match="'c/1' is a character device"):
        within(3, lambda: DirectoryStore(root).get("c/1"))


# ---- zip bombs and hostile members --------------------------------------------------------------
def test_zip_bomb_is_refused_from_its_declared_size(tmp_path):
    path = write_zip_bomb(
        tmp_path / "bomb.zip",
        {"c/0": 3 * GiB},
        {"zarr.json": json.dumps(v3_array([4], [2])).encode()},
    )
    assert path.stat().st_size < 4 * MiB
    store = ZipStore(path)
    started = time.monotonic()
    with pytest.raises(LimitError, match="zip member 'c/0' is 3221225472 bytes"):
        store.get("c/0")
    assert time.monotonic() - started < 0.5  # nothing was inflated
    assert store.get_partial("c/0", 0, 16) == bytes(16)  # the start of it, inflating 16 bytes
    with pytest.raises(LimitError):
        store.get_partial("c/0", -16)  # the end: all of it inflated first, refused


def test_zip_bomb_over_a_smaller_limit_and_one_that_lies_about_its_size(tmp_path):
    path = write_zip_bomb(
        tmp_path / "bomb.zip", {"c/0": 64 * MiB, "c/1": 64 * MiB}, declared={"c/1": 1000}
    )
    with pytest.raises(LimitError):
        ZipStore(path, max_value_bytes=MiB).get("c/0")
    assert len(ZipStore(path).get("c/0")) == 64 * MiB  # within the default limit, it is a value
    with pytest.raises(StoreIOError, match="CRC"):  # inflating stops at the declared 1000 bytes
        ZipStore(path).get("c/1")


def test_validate_zip_bomb_memory_stays_flat(tmp_path):
    path = write_zip_bomb(
        tmp_path / "bomb.zip",
        {"c/0": 3 * GiB, "c/1": 200 * MiB},
        {"zarr.json": json.dumps(v3_array([4], [2])).encode()},
        declared={"c/1": 8},
    )
    warm = tmp_path / "warm.zip"
    with zipfile.ZipFile(warm, "w") as zf:
        zf.writestr("zarr.json", json.dumps(v3_array([4], [2])))
        zf.writestr("c/0", raw_chunk([1, 2]))
    before = tree_state(tmp_path)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    run = measure_validate([path], warmup=[warm], cwd=cwd)
    assert run.code == 1 and run.seconds < 10, run
    assert (
        "zip member 'c/0' is 3221225472 bytes, over the store's read limit of 1073741824 bytes"
        in run.out
    ), run
    assert "'c/1' cannot be read: BadZipFile: Bad CRC-32" in run.out, run
    assert run.peak_growth_mib < PEAK_MIB, run
    assert tree_state(tmp_path) == {
        **before,
        "cwd": tree_state(tmp_path)["cwd"],
    } and not os.listdir(cwd)


def test_zip_members_with_dot_dot_absolute_and_symlink_names(tmp_path):
    good = json.dumps(V3_GROUP).encode()
    members = {
        "zarr.json": good,
        "a/zarr.json": good,
        "../zarr.json": good,
        "../../x/zarr.json": good,
        "/abs/zarr.json": good,
        "a/../../zarr.json": good,
        "b/": b"",
    }
    (tmp_path / "z").mkdir()
    path = tmp_path / "z" / "hostile.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name, value in members.items():
            zf.writestr(zipfile.ZipInfo(name), value)
        link = zipfile.ZipInfo("a/c/0")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    store = ZipStore(path)
    assert sorted(store.list()) == ["a/c/0", "a/zarr.json", "zarr.json"]
    for name in ("../zarr.json", "../../x/zarr.json", "/abs/zarr.json", "a/../../zarr.json", "b/"):
        assert store.get(name) is None and not store.contains(name)
    with pytest.raises(PathError, match="'a/c/0' is a symbolic link"):
        store.get("a/c/0")
    with pytest.raises(PathError):
        store.get_partial("a/c/0", 0, 4)
    assert store.contains("a/c/0")  # something is there, refused when read
    before = tree_state(tmp_path)
    run = measure_validate([path], cwd=tmp_path / "z")
    assert "2 nodes (2 groups, 0 arrays)" in run.out and "passwd" not in run.out, run
    assert "a/c/0" in run.out, run  # reported (a stray key in a group), never read as data
    assert tree_state(tmp_path) == before  # nothing extracted anywhere


def test_zip_member_names_that_are_not_utf8(tmp_path):
    path = tmp_path / "names.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("zarr.json", json.dumps(V3_GROUP))
        zf.writestr("caf\u00e9", b"x")  # flagged UTF-8
    data = path.read_bytes().replace("caf\u00e9".encode(), b"caf\xff\xfe")
    path.write_bytes(data)
    with pytest.raises(StoreIOError, match="not UTF-8"):
        ZipStore(path)
    run = measure_validate([path], address_space=None)
    assert run.code == 2 and "flagged as UTF-8 that is not UTF-8" in run.err, run
    # names without the UTF-8 flag are cp437: any byte is a character
    legacy = tmp_path / "legacy.zip"
    with zipfile.ZipFile(legacy, "w") as zf:
        zf.writestr("zarr.json", json.dumps(V3_GROUP))
        zf.writestr("xAAy", b"x")  # ASCII: no UTF-8 flag
    legacy.write_bytes(legacy.read_bytes().replace(b"xAAy", b"x\x82\xffy"))
    assert sorted(ZipStore(legacy).list()) == ["x\u00e9\u00a0y", "zarr.json"]
    assert ZipStore(legacy).get("x\u00e9\u00a0y") == b"x"


# ---- file names that are not UTF-8 ---------------------------------------------------------------
@pytest.fixture
def bad_names(tmp_path):
    root = write_files(tmp_path / "store", {"zarr.json": V3_GROUP, "a/zarr.json": V3_GROUP})
    base = os.fsencode(root)
    os.mkdir(base + b"/b\xff")
    with open(base + b"/b\xff/zarr.json", "wb") as f:
        f.write(json.dumps(V3_GROUP).encode())
    with open(base + b"/a/x\xfe", "wb") as f:
        f.write(b"stray")
    return root


def test_directory_keys_of_names_that_are_not_utf8_read_back(bad_names):
    store = DirectoryStore(bad_names, read_only=True)
    keys = sorted(store.list())
    assert keys == ["a/x\udcfe", "a/zarr.json", "b\udcff/zarr.json", "zarr.json"]
    assert store.get("a/x\udcfe") == b"stray" and store.contains("b\udcff/zarr.json")
    assert store.list_dir("") == (["zarr.json"], ["a", "b\udcff"])
    assert sorted(URLStore(bad_names.as_uri()).list()) == keys


@pytest.mark.parametrize("json_output", [False, True])
def test_validate_output_stays_utf8_with_names_that_are_not(bad_names, json_output):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("LC_", "PYTHONIOENCODING", "PYTHONUTF8"))
    }
    env.update(LC_ALL="C", LANG="C")  # stdout then writes surrogate escapes as raw bytes
    args = [sys.executable, "-m", "conformance.cli", "validate", "-v", str(bad_names)] + (
        ["--json"] if json_output else []
    )
    proc = subprocess.run(
        args, capture_output=True, timeout=60, env=env, cwd=Path(__file__).resolve().parents[2]
    )
    text = proc.stdout.decode("utf-8")  # strict: raises on invalid UTF-8
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    if json_output:
        records = [json.loads(line) for line in text.splitlines()]
        assert any(r.get("path") == "b\\xff" for r in records if r["type"] == "node"), text
        assert any(r.get("key") == "a/x\\xfe" for r in records if r["type"] == "finding"), text
    else:
        assert "NODE v3 group /b\\xff" in text, text
