"""The GDAL adapter (gdal-debian: Debian's python3-gdal under /usr/bin/python3) against stores that
GDAL itself writes and reads: what reads report (`api`) against what GDAL's multidimensional API
says, writes read back by GDAL, GDAL's errors with their CPLE class, and the declared refusals.
Skipped where the adapter is unavailable (its Debian packages are not installed)."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from adapter_selftest import declared_unsupported, error_rule, load_json, same_bits, store

from conformance.harness import envs
from conformance.harness.config import find_adapter

ADAPTER = "gdal-debian"
CONFIG = find_adapter(ADAPTER)
AVAILABLE = envs.availability(CONFIG)
pytestmark = pytest.mark.skipif(
    not AVAILABLE.available, reason=f"{ADAPTER} is {AVAILABLE.describe()}"
)

# Writes a v2 hierarchy with GDAL itself (argv: folder): g/a int32 (5, 7) in (2, 3) chunks, fill 7,
# zlib, the last chunk row never written; root attributes.
WRITE = """
import sys, numpy as np
from osgeo import gdal
gdal.UseExceptions()
ds = gdal.GetDriverByName("Zarr").CreateMultiDimensional(sys.argv[1], options=["FORMAT=ZARR_V2", "CREATE_ZMETADATA=NO"])
root = ds.GetRootGroup()
root.CreateAttribute("title", [], gdal.ExtendedDataType.CreateString()).Write("t")
g = root.CreateGroup("g")
dims = [g.CreateDimension("y", None, None, 5), g.CreateDimension("x", None, None, 7)]
a = g.CreateMDArray("a", dims, gdal.ExtendedDataType.Create(gdal.GDT_Int32), ["BLOCKSIZE=2,3", "COMPRESS=ZLIB"])
a.SetNoDataValueRaw(np.int32(7).tobytes())
a.Write(np.arange(16, dtype="<i4").reshape(2, 8)[:, :7].copy(), array_start_idx=[0, 0], count=[2, 7])
a = g = root = ds = None
"""

# What GDAL's API says about an array (argv: folder, GDAL full name).
REPORT = """
import sys, json
from osgeo import gdal
gdal.UseExceptions()
ds = gdal.OpenEx(sys.argv[1], gdal.OF_MULTIDIM_RASTER)
a = ds.GetRootGroup().OpenMDArrayFromFullname(sys.argv[2])
print(json.dumps({"shape": [d.GetSize() for d in a.GetDimensions()], "block": list(a.GetBlockSize()),
                  "nodata": bytes(a.GetNoDataValueAsRaw()).hex(), "data": a.ReadAsArray().tolist(),
                  "attributes": {x.GetName(): x.Read() for x in a.GetAttributes()}}))
"""


def gdal_python(code: str, *args: str) -> str:
    proc = subprocess.run(
        [CONFIG.python, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_describe(adapter_clients):
    body = adapter_clients(ADAPTER).call("describe").body
    report = gdal_python("from osgeo import gdal; print(gdal.__version__)").strip()
    assert body["version"] == report
    assert body["versions"]["gdal"] == report


def test_read_what_gdal_wrote(adapter_clients, tmp_path):
    folder = tmp_path / "w.zarr"
    gdal_python(WRITE, str(folder))
    said = json.loads(gdal_python(REPORT, str(folder), "/g/a"))
    client = adapter_clients(ADAPTER)
    r = client.call(
        "read", store=store(folder), format="v2", node="g/a", output=str(tmp_path / "a.npy")
    )
    assert r.ok, r.describe_error()
    data = np.load(r.body["data"])
    assert same_bits(data, np.asarray(said["data"], dtype="<i4"))
    assert data[4].tolist() == [7] * 7  # the chunk row never written reads as the fill
    api = r.body["api"]
    assert api["shape"] == said["shape"] == [5, 7]
    assert api["chunk_shape"] == said["block"] == [2, 3]
    assert api["fill_value"] == {"bytes": said["nodata"]} == {"bytes": "07000000"}
    assert api["dtype"] == "<i4"
    assert r.body["attributes"] == said["attributes"]
    root = client.call(
        "read", store=store(folder), format="v2", node="", output=str(tmp_path / "r.npy")
    )
    assert root.ok, root.describe_error()
    assert root.body["node_type"] == "group"
    assert root.body["members"] == {"g": "group"}
    assert root.body["attributes"] == {"title": "t"}
    listed = client.call("list", store=store(folder), format="v2", node="")
    assert listed.body["nodes"] == {"": "group", "g": "group", "g/a": "array"}


def test_write_read_back_by_gdal(adapter_clients, tmp_path):
    data = (np.arange(20, dtype="<f8").reshape(4, 5) - 3.5) / 2
    np.save(tmp_path / "in.npy", data)
    folder = tmp_path / "out"
    folder.mkdir()  # the harness gives an empty folder; GDAL wants to create it itself
    metadata = {
        "zarr_format": 2,
        "shape": [4, 5],
        "chunks": [3, 2],
        "dtype": "<f8",
        "fill_value": "NaN",
        "order": "F",
        "compressor": {"id": "zstd", "level": 3},
        "filters": None,
    }
    client = adapter_clients(ADAPTER)
    w = client.call(
        "write",
        store=store(folder),
        format="v2",
        node_type="array",
        path="grp/arr",
        metadata=metadata,
        attributes={"n": 1, "s": "x", "flag": True},
        data=str(tmp_path / "in.npy"),
    )
    assert w.ok, w.describe_error()
    zarray = load_json(folder / "grp" / "arr" / ".zarray")
    assert (
        zarray["order"] == "F"
        and zarray["chunks"] == [3, 2]
        and zarray["compressor"]["id"] == "zstd"
    )
    assert not (folder / ".zmetadata").exists()  # CREATE_ZMETADATA=NO: only what was asked
    said = json.loads(gdal_python(REPORT, str(folder), "/grp/arr"))
    assert same_bits(np.asarray(said["data"], dtype="<f8"), data)
    assert said["attributes"] == {"n": 1, "s": "x", "flag": True}


def test_root_array_write_is_declared_unsupported(adapter_clients, tmp_path):
    np.save(tmp_path / "in.npy", np.zeros(3, dtype="<i4"))
    metadata = {
        "zarr_format": 2,
        "shape": [3],
        "chunks": [3],
        "dtype": "<i4",
        "fill_value": 0,
        "order": "C",
        "compressor": None,
        "filters": None,
    }
    r = adapter_clients(ADAPTER).call(
        "write",
        store=store(tmp_path / "root"),
        format="v2",
        node_type="array",
        path="",
        metadata=metadata,
        attributes={},
        data=str(tmp_path / "in.npy"),
    )
    assert not r.ok and r.unsupported
    assert declared_unsupported(ADAPTER, r.body)


def test_widened_bool_is_reported_as_gdal_gives_it(adapter_clients, tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / ".zarray").write_text(
        json.dumps(
            {
                "zarr_format": 2,
                "shape": [4],
                "chunks": [4],
                "dtype": "|b1",
                "fill_value": False,
                "order": "C",
                "compressor": None,
                "filters": None,
            }
        )
    )
    (folder / "0").write_bytes(bytes([0, 1, 1, 0]))
    r = adapter_clients(ADAPTER).call(
        "read", store=store(folder), format="v2", node="", output=str(tmp_path / "b.npy")
    )
    assert r.ok, r.describe_error()
    assert (
        r.body["dtype"] == "|u1" and r.body["api"]["dtype"] == "|u1"
    )  # GDAL's Byte, never repaired
    assert np.load(r.body["data"]).tolist() == [0, 1, 1, 0]


def test_errors_carry_the_cple_class(adapter_clients, tmp_path):
    client = adapter_clients(ADAPTER)
    missing = client.call(
        "read",
        store=store(tmp_path / "nothing-here"),
        format="v2",
        node="",
        output=str(tmp_path / "x.npy"),
    )
    assert not missing.ok
    error = missing.body["error"]
    assert error["type"] == "RuntimeError" and error["origin"] == "implementation"
    assert error["message"].startswith("CPLE_OpenFailed: ")
    assert error_rule(ADAPTER, missing.body).category == "io"
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / ".zarray").write_text(
        json.dumps(
            {
                "zarr_format": 2,
                "shape": [4],
                "chunks": [4],
                "dtype": "<i4",
                "fill_value": 0,
                "order": "C",
                "compressor": {"id": "zlib", "level": 1},
                "filters": None,
            }
        )
    )
    (bad / "0").write_bytes(b"not a zlib stream")
    corrupt = client.call(
        "read", store=store(bad), format="v2", node="", output=str(tmp_path / "y.npy")
    )
    assert not corrupt.ok
    assert corrupt.body["error"]["message"].startswith("CPLE_")
    assert error_rule(ADAPTER, corrupt.body) is not None


def test_seed_002_draft_store_is_declared_unsupported(adapter_clients, tmp_path):
    folder = tmp_path / "draft"
    folder.mkdir()
    (folder / "zarr.json").write_text(
        json.dumps(
            {
                "zarr_format": "https://purl.org/zarr/spec/core/3.0",
                "metadata_encoding": "https://purl.org/zarr/spec/core/3.0",
                "metadata_key_suffix": ".json",
                "extensions": [],
            }
        )
    )
    r = adapter_clients(ADAPTER).call(
        "read", store=store(folder), format="v3-draft", node="", output=str(tmp_path / "d.npy")
    )
    assert not r.ok and r.unsupported
    assert declared_unsupported(ADAPTER, r.body)
