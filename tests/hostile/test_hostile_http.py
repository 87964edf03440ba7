"""Hostile HTTP servers: an endless body, a Content-Length of 1 PiB, gzip and deflate bombs,
redirects to another origin (a second loopback server) and within the same one, redirect loops.

The URL store reads every body in blocks up to the limit, refuses a Content-Length over the limit
before reading, decodes Content-Encoding itself with the limit on the decoded size, and follows
redirects only within the store's origin: the other origin is never contacted, so nothing it
serves can be echoed into findings. `bytes_sent` (what the server managed to write before the
client hung up) shows the client stopped early; `validate` runs in a fresh process measure the
peak memory (conformance/testing/probe.py)."""

from __future__ import annotations

import gzip
import json
import re
import time

import pytest

from conformance.reference.errors import LimitError
from conformance.reference.stores import StoreIOError
from conformance.reference.stores.url import URLStore
from conformance.testing.documents import V3_GROUP, raw_chunk, tree_state, v3_array, write_files
from conformance.testing.probe import measure_validate
from conformance.testing.servers import (
    answer,
    endless_body,
    gzip_bomb,
    huge_content_length,
    redirect,
)

GiB, MiB = 1 << 30, 1 << 20
PEAK_MIB = 48  # what a refused body may add to a validate run's peak memory (limits of 8 MiB)
SOCKET_SLACK = (
    32 * MiB
)  # what a server can write into loopback socket buffers before a client stops
SMALL_LIMITS = {
    "ZARR_CONFORMANCE_MAX_VALUE_BYTES": str(8 * MiB),
    "ZARR_CONFORMANCE_MAX_METADATA_BYTES": str(8 * MiB),
}
SAFETY = (
    2 * GiB
)  # in-process, routes stop there: a client that does not stop fails, not the machine
SECRET = "SECRET-FROM-THE-OTHER-ORIGIN"
ARRAY = json.dumps(v3_array([4], [2])).encode()


@pytest.fixture
def origins(tmp_path, serve_http):
    """(a, b): the store's server and another origin (another port) holding a secret."""
    a_root = write_files(
        tmp_path / "a",
        {
            "warm/zarr.json": ARRAY,
            "warm/c/0": raw_chunk([1, 2]),
            "real/zarr.json": V3_GROUP,
            "arr/zarr.json": ARRAY,
            "arr/c/0": raw_chunk([1, 2]),
        },
    )
    b_root = write_files(
        tmp_path / "b",
        {
            "zarr.json": {"zarr_format": 3, "node_type": "group", "attributes": {"secret": SECRET}},
            "c/0": SECRET.encode(),
        },
    )
    return serve_http(a_root), serve_http(b_root)


def validate_over_http(a, path: str, env: dict | None = None):
    return measure_validate([f"{a.url}/{path}"], warmup=[f"{a.url}/warm"], env=env)


# ---- endless bodies --------------------------------------------------------------------------------
def test_endless_body_is_cut_at_the_limit(origins):
    a, _ = origins
    a.routes["/e/zarr.json"] = endless_body(stop_after=SAFETY)
    a.routes["/e/c/0"] = endless_body(stop_after=SAFETY)
    with pytest.raises(
        LimitError,
        match=re.escape("'e/zarr.json' exceeds the store's read limit of 67108864 bytes"),
    ):
        URLStore(a.url).get("e/zarr.json")  # the default metadata limit: 64 MiB
    assert 64 * MiB <= a.bytes_sent["/e/zarr.json"] < 64 * MiB + SOCKET_SLACK
    with pytest.raises(LimitError, match="'e/c/0' exceeds the store's read limit of 1048576 bytes"):
        URLStore(a.url, max_value_bytes=MiB).get("e/c/0")
    assert a.bytes_sent["/e/c/0"] < MiB + SOCKET_SLACK


def test_validate_endless_bodies_memory_stays_flat(origins, tmp_path):
    a, _ = origins
    a.routes["/e/zarr.json"] = endless_body()
    for path, value in (("/f/zarr.json", ARRAY), ("/f/c/1", raw_chunk([3, 4]))):
        a.routes[path] = answer(200, value)
    a.routes["/f/c/0"] = endless_body()
    before = tree_state(tmp_path)
    run = validate_over_http(a, "e", SMALL_LIMITS)
    assert run.code == 1 and run.seconds < 10, run
    assert "value 'zarr.json' exceeds the store's read limit of 8388608 bytes" in run.out, run
    assert run.peak_growth_mib < PEAK_MIB, run
    run = validate_over_http(a, "f", SMALL_LIMITS)
    assert run.code == 1 and run.seconds < 10, run
    assert "value 'c/0' exceeds the store's read limit of 8388608 bytes" in run.out, run
    assert run.peak_growth_mib < PEAK_MIB, run
    assert tree_state(tmp_path) == before


# ---- a huge Content-Length -------------------------------------------------------------------------
def test_huge_content_length_is_refused_before_reading(origins, tmp_path):
    a, _ = origins
    a.routes["/h/c/0"] = huge_content_length(stop_after=SAFETY)
    a.routes["/h/zarr.json"] = answer(200, ARRAY)
    with pytest.raises(
        LimitError,
        match=r"'h/c/0' is 1125899906842624 bytes, over the store's read limit of 1073741824",
    ):
        URLStore(a.url).get("h/c/0")  # default limits: 1 GiB, yet nothing near that is read
    assert a.bytes_sent["/h/c/0"] < SOCKET_SLACK
    a.clear()
    run = validate_over_http(a, "h")
    assert run.code == 1 and "'c/0' is 1125899906842624 bytes" in run.out, (
        run
    )  # keys are relative to the URL
    assert run.peak_growth_mib < PEAK_MIB and a.bytes_sent["/h/c/0"] < 2 * SOCKET_SLACK, run


# ---- Content-Encoding ------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_gzip_bomb_is_refused_on_the_decoded_size(origins, encoding):
    a, _ = origins
    a.routes["/g/zarr.json"] = gzip_bomb(SAFETY, encoding)  # 2 MB on the wire
    a.routes["/g/c/0"] = gzip_bomb(SAFETY, encoding)
    started = time.monotonic()
    with pytest.raises(
        LimitError,
        match=re.escape("decoded value 'g/zarr.json' exceeds the store's read limit of 67108864"),
    ):
        URLStore(a.url).get("g/zarr.json")
    with pytest.raises(
        LimitError, match="decoded value 'g/c/0' exceeds the store's read limit of 1048576"
    ):
        URLStore(a.url, max_value_bytes=MiB).get("g/c/0")
    assert time.monotonic() - started < 10


def test_validate_gzip_bomb_memory_stays_flat(origins):
    a, _ = origins
    a.routes["/g/zarr.json"] = gzip_bomb(8 * GiB)
    run = validate_over_http(a, "g", SMALL_LIMITS)
    assert (
        run.code == 1
        and "decoded value 'zarr.json' exceeds the store's read limit of 8388608" in run.out
    ), run
    assert run.peak_growth_mib < PEAK_MIB, run
    a.routes["/g/zarr.json"] = gzip_bomb(8 * GiB)
    run = validate_over_http(a, "g")  # the default metadata limit, 64 MiB
    assert run.code == 1 and "read limit of 67108864" in run.out, run
    assert run.peak_growth_mib < 64 + PEAK_MIB, run


def test_encoded_bodies_are_decoded(origins):
    a, _ = origins
    document = json.dumps(
        {"zarr_format": 3, "node_type": "group", "attributes": {"x": "y" * 5000}}
    ).encode()
    a.routes["/z/zarr.json"] = answer(200, gzip.compress(document), {"Content-Encoding": "gzip"})
    a.routes["/z/a"] = answer(
        200, gzip.compress(b"one") + gzip.compress(b"two"), {"Content-Encoding": "gzip"}
    )
    a.routes["/z/b"] = answer(200, b"\x00\x01", {"Content-Encoding": "br"})
    a.routes["/z/c"] = answer(200, gzip.compress(document)[:-20], {"Content-Encoding": "gzip"})
    store = URLStore(a.url)
    assert store.get("z/zarr.json") == document
    assert store.get("z/a") == b"onetwo"  # concatenated members
    with pytest.raises(StoreIOError, match="Content-Encoding 'br'"):
        store.get("z/b")
    with pytest.raises(StoreIOError, match="ends inside a compressed stream"):
        store.get("z/c")
    a.clear()
    store.get_partial("arr/c/0", 0, 4)
    assert a.ranges_for("/arr/c/0") == ["bytes=0-3"]


# ---- redirects -------------------------------------------------------------------------------------
def test_cross_origin_redirect_is_refused_before_contacting_the_other_origin(origins):
    a, b = origins
    a.routes["/x/zarr.json"] = redirect(f"{b.url}/zarr.json")
    a.routes["/x/c/0"] = redirect(f"{b.url}/c/0", 307)
    a.routes["/s/zarr.json"] = redirect(
        a.url.replace("http://", "https://") + "/real/zarr.json", 308
    )
    a.routes["/l/zarr.json"] = redirect(
        "http://localhost:" + a.url.rsplit(":", 1)[1] + "/real/zarr.json"
    )
    a.routes["/f/zarr.json"] = redirect("file:///etc/passwd")
    store = URLStore(a.url)
    for key in ("x/zarr.json", "x/c/0", "s/zarr.json", "l/zarr.json", "f/zarr.json"):
        with pytest.raises(StoreIOError, match=r"redirects .* to another origin") as info:
            store.get(key)
        assert (
            "nothing was requested from it" in info.value.message
            and SECRET not in info.value.message
        )
        with pytest.raises(StoreIOError):
            store.contains(key)
    assert b.requests == []
    assert all(
        r.path.startswith(("/x/", "/s/", "/l/", "/f/")) for r in a.requests
    )  # no request to /real


def test_validate_never_echoes_what_another_origin_serves(origins, tmp_path):
    a, b = origins
    a.routes["/x/zarr.json"] = redirect(f"{b.url}/zarr.json")
    a.routes["/y/zarr.json"] = answer(200, ARRAY)
    a.routes["/y/c/0"] = redirect(f"{b.url}/c/0")
    for path in ("x", "y"):
        run = validate_over_http(a, path)
        assert run.code == 1, run
        assert (
            "io-error" in run.out and f"redirects (HTTP 302) to another origin, {b.url}" in run.out
        ), run
        assert SECRET not in run.out + run.err, run
    assert b.requests == []


def test_same_origin_redirects_are_followed(origins):
    a, _ = origins
    a.routes["/m/zarr.json"] = redirect("/real/zarr.json", 301)  # relative
    a.routes["/m/c/0"] = redirect(f"{a.url}/arr/c/0", 307)  # absolute, same origin
    a.routes["/n/zarr.json"] = redirect("/arr/zarr.json", 302)
    a.routes["/n/c/0"] = redirect("../../arr/c/0", 308)  # relative to /n/c/0
    store = URLStore(a.url)
    assert store.get("m/zarr.json") == json.dumps(V3_GROUP).encode()
    assert store.get("m/c/0") == raw_chunk([1, 2]) and store.contains("m/c/0")
    assert store.get_partial("m/c/0", 4, 4) == raw_chunk([2])
    run = validate_over_http(a, "n")
    assert run.code == 0 and "1 chunk checked" in run.out, run


def test_redirect_loop_is_an_io_error(origins):
    a, _ = origins
    a.routes["/loop/zarr.json"] = redirect("/loop/zarr.json", 307)
    started = time.monotonic()
    with pytest.raises(StoreIOError, match="more than 10 redirects"):
        URLStore(a.url).get("loop/zarr.json")
    assert time.monotonic() - started < 5 and len(a.requests) == 11
