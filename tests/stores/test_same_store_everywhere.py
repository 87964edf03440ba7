"""One hierarchy, five stores: a directory, a zip with flat names, file://, http:// and s3:// all
read it identically through the reference (V1-STORE-001, V2-KEY-007, V3-FS-001, V3-FS-002), and
the validator gives the same verdict on each."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

from conformance.reference import DirectoryStore, ZipStore, get_format, open_node
from conformance.reference.formats.v2 import write_consolidated
from conformance.reference.stores.url import URLStore
from conformance.testing.servers import http_server
from conformance.validate.runner import validate
from conformance.validate.sample import write_sample

KINDS = ["directory", "zip", "file", "http", "s3"]


def build_v3(root):
    write_sample(root)
    # Inline consolidated metadata (as zarr-python writes it) lets an HTTP walk find the arrays.
    doc = json.loads((root / "zarr.json").read_bytes())
    members = {
        name: json.loads((root / name / "zarr.json").read_bytes())
        for name in ("temperature", "counts")
    }
    doc["consolidated_metadata"] = {"kind": "inline", "must_understand": False, "metadata": members}
    (root / "zarr.json").write_text(json.dumps(doc))
    return {"temperature": (45, 70), "counts": (64, 48)}


def build_v2(root):
    fmt = get_format("v2")
    store = DirectoryStore(root)
    fmt.create_group(store, "", attributes={"title": "v2"})
    meta = fmt.array_metadata(
        (7, 5),
        (3, 2),
        "<i4",
        fill_value=-1,
        compressor={"id": "zlib", "level": 1},
        dimension_separator="/",
    )
    array = fmt.create_array(store, "g/a", meta, attributes={"units": "m"})
    array[0:6, :] = np.arange(30, dtype="<i4").reshape(6, 5) * 7 - 50
    flat = fmt.create_array(store, "g/b", fmt.array_metadata((10,), (4,), ">f8", fill_value=0.5))
    flat[2:9] = np.linspace(-1, 1, 7)
    write_consolidated(store)
    return {"g/a": (7, 5), "g/b": (10,)}


def build_v1(root):
    fmt = get_format("v1")
    store = DirectoryStore(root)
    array = fmt.create_array(
        store,
        "",
        fmt.array_metadata(
            (9, 4), (4, 3), "<u2", fill_value=7, compression="zlib", compression_opts=1
        ),
        attributes={"a": 1},
    )
    array[1:9, 0:4] = np.arange(32, dtype="<u2").reshape(8, 4)
    return {"": (9, 4)}


BUILDERS = {"v3": build_v3, "v2": build_v2, "v1": build_v1}


def zip_of(root, path):
    """A zip with flat member names ('g/a/0/0'), no directory entries."""
    with zipfile.ZipFile(path, "w") as zf:
        for file in sorted(p for p in root.rglob("*") if p.is_file()):
            zf.writestr(file.relative_to(root).as_posix(), file.read_bytes())
    return path


@pytest.fixture(scope="module", params=sorted(BUILDERS))
def hierarchy(request, tmp_path_factory, moto_s3):
    base = tmp_path_factory.mktemp(request.param)
    root = base / "data.zarr"
    arrays = BUILDERS[request.param](root)
    with http_server(root) as server:
        yield {
            "format": request.param,
            "root": root,
            "arrays": arrays,
            "zip": zip_of(root, base / "data.zip"),
            "http": server.url,
            "s3": (moto_s3.upload_tree(root, prefix="x/data.zarr"), moto_s3.storage_options),
        }


def store_of(hierarchy, kind):
    if kind == "directory":
        return DirectoryStore(hierarchy["root"], read_only=True)
    if kind == "zip":
        return ZipStore(hierarchy["zip"])
    if kind == "file":
        return URLStore(hierarchy["root"].as_uri())
    if kind == "http":
        return URLStore(hierarchy["http"])
    url, options = hierarchy["s3"]
    return URLStore(url, storage_options=options)


def snapshot(store, arrays):
    out = {}
    for path, shape in arrays.items():
        node = open_node(store, path)
        data = node[...]
        assert data.shape == shape
        out[path] = (data.dtype.str, data.tobytes(), json.dumps(node.attrs, sort_keys=True))
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_every_store_reads_the_same_bits(hierarchy, kind):
    expected = snapshot(DirectoryStore(hierarchy["root"], read_only=True), hierarchy["arrays"])
    assert snapshot(store_of(hierarchy, kind), hierarchy["arrays"]) == expected
    # the data are not all fill: a store that read nothing would not pass
    assert any(len(set(bits)) > 4 for _, bits, _ in expected.values())


@pytest.mark.parametrize("kind", KINDS)
def test_validator_verdict_is_the_same_on_every_store(hierarchy, kind):
    reference = validate(DirectoryStore(hierarchy["root"], read_only=True), out=io.StringIO())
    result = validate(store_of(hierarchy, kind), out=io.StringIO())
    assert reference.exit_code == result.exit_code == 0, [f.line() for f in result.findings]
    assert result.formats == [hierarchy["format"]]
    assert (result.sink.tally.arrays, result.sink.tally.chunks) == (
        reference.sink.tally.arrays,
        reference.sink.tally.chunks,
    )
    assert reference.sink.tally.chunks > 0


def test_directory_keys_are_relative_file_paths(hierarchy):
    """V3-FS-001: key 'a/b' is the file <root>/a/b, and listing returns '/'-separated keys."""
    root = hierarchy["root"]
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert sorted(DirectoryStore(root).list()) == files
    assert sorted(URLStore(root.as_uri()).list()) == files
    assert sorted(ZipStore(hierarchy["zip"]).list()) == files


def test_file_url_opens_what_the_path_opens(hierarchy):
    """V3-FS-002: file:///x equals the path /x."""
    root = hierarchy["root"]
    for path in hierarchy["arrays"]:
        by_path = open_node(str(root), path)[...]
        by_url = open_node(root.as_uri(), path)[...]
        assert by_path.tobytes() == by_url.tobytes() and by_path.dtype == by_url.dtype


def test_sharded_read_over_http_fetches_byte_ranges(tmp_path, serve_http):
    """V3-PIPE-005: one element of a sharded array over HTTP is the same as a full read, and only
    ranges of the shard (its index and one inner chunk) cross the network."""
    root = tmp_path / "sample.zarr"
    if not write_sample(root)["sharded"]:
        pytest.skip("this reference has no sharding")
    expected = open_node(DirectoryStore(root), "counts")[...]
    server = serve_http(root)
    counts = open_node(URLStore(server.url), "counts")
    server.clear()
    assert counts[37, 5] == expected[37, 5] and expected[37, 5] != 0
    shard_requests = [r for r in server.requests if r.path.startswith("/counts/c/")]
    assert shard_requests and all(
        r.range is not None and r.status == 206 for r in shard_requests
    ), server.requests
    assert counts[...].tobytes() == expected.tobytes()
