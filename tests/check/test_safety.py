"""What no implementation may open: code-executing codecs, special files, links out of the store,
zip members that climb out. Refused before any adapter starts (exit 6), the store untouched."""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import pytest

from conformance.check import runner
from conformance.check.runner import Options, check
from conformance.testing.documents import v2_array, v3_array, write_files
from conformance.testing.hostile_runs import tree_digest

RAW = np.arange(16, dtype="<i4").tobytes()


@pytest.fixture
def started(monkeypatch):
    """The implementations whose adapter process the check started."""
    names: list[str] = []
    real = runner.Reader

    def spy(config, *args, **kwargs):
        names.append(config.name)
        return real(config, *args, **kwargs)

    monkeypatch.setattr(runner, "Reader", spy)
    return names


def refused(store, started):
    before = tree_digest(store.parent)
    report = check(str(store), Options(impls=["reference"], progress=False))
    assert tree_digest(store.parent) == before
    assert report.exit_code == 6 and not report.cells and not started, report.to_text()
    return " ".join(report.refused)


def test_a_pickle_codec_is_refused_before_any_implementation(tmp_path, started):
    array = v2_array([16], [16], "|O", fill_value=None, filters=[{"id": "pickle"}])
    store = write_files(tmp_path / "s", {".zarray": array, "0": b"\x80\x04N."})
    assert "code-executing codec 'pickle'" in refused(store, started)


def test_a_pickle_codec_named_only_in_consolidated_metadata_is_refused(tmp_path, started):
    array = v3_array([16], [16], "int32", codecs=[{"name": "numcodecs.pickle"}])
    group = {
        "zarr_format": 3,
        "node_type": "group",
        "consolidated_metadata": {
            "kind": "inline",
            "must_understand": False,
            "metadata": {"a": array},
        },
    }
    store = write_files(tmp_path / "s", {"zarr.json": group})
    assert "'numcodecs.pickle'" in refused(store, started)


def test_a_fifo_in_the_store_is_refused(tmp_path, started):
    store = write_files(tmp_path / "s", {"zarr.json": v3_array([16], [16], "int32")})
    (store / "c").mkdir()
    os.mkfifo(store / "c" / "0")
    assert "c/0 is a special file" in refused(store, started)


def test_a_link_out_of_the_store_is_refused_and_one_inside_is_not(tmp_path, started):
    store = write_files(
        tmp_path / "s",
        {
            "zarr.json": v3_array(
                [16],
                [16],
                "int32",
                codecs=[{"name": "bytes", "configuration": {"endian": "little"}}],
            ),
            "c/0": RAW,
        },
    )
    (tmp_path / "secret").write_bytes(RAW)
    os.symlink("0", store / "c" / "1")  # inside: a stray key, harmless
    report = check(str(store), Options(impls=["reference"], progress=False))
    assert not report.refused and [c.outcome for c in report.cells] == ["exact"]
    os.symlink(tmp_path / "secret", store / "c" / "2")
    started.clear()
    assert "c/2 is a symbolic link that leads out of the store" in refused(store, started)


def test_a_zip_member_climbing_out_is_refused(tmp_path, started):
    path = tmp_path / "s.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("zarr.json", json.dumps(v3_array([16], [16], "int32")))
        zf.writestr("../outside", RAW)
    assert "'../outside' names a path outside" in refused(path, started)
