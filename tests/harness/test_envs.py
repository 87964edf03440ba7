"""Adapter environments: cache keys, the lock, cleanup of half-made environments (pip and npm are
replaced by a recorder: the real ones need the network and minutes)."""

from __future__ import annotations

import threading
import time

import pytest

from conformance.harness import envs
from conformance.harness.config import AdapterConfig


def config(tmp_path, name="a", requirements=("zarr==3.1.6", "numpy==2.4.6"), npm=()):
    return AdapterConfig(name=name, folder=tmp_path, description="d", transport="python",
                         requirements=tuple(requirements), npm=tuple(npm))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_cache_key_follows_the_pins(tmp_path, cache):
    a = envs.venv_dir(config(tmp_path))
    assert a.parent == cache / "envs" and a.name.startswith("a-")
    assert envs.venv_dir(config(tmp_path, requirements=("numpy==2.4.6", "zarr==3.1.6"))) == a  # order-free
    assert envs.venv_dir(config(tmp_path, requirements=("zarr==3.1.5", "numpy==2.4.6"))) != a


def test_status(tmp_path, cache):
    assert envs.status(config(tmp_path, requirements=())) == "caller's environment"
    assert envs.status(config(tmp_path)) == "not provisioned"


def test_made_once_under_a_lock(tmp_path, cache, monkeypatch):
    calls = []

    def fake_run(argv, what):
        calls.append(argv)
        time.sleep(0.2)  # long enough for the other thread to wait on the lock
        if argv[1:3] == ["-m", "venv"]:
            (envs.venv_dir(config(tmp_path)) / "bin").mkdir(parents=True)

    monkeypatch.setattr(envs, "_run", fake_run)
    results = []
    threads = [threading.Thread(target=lambda: results.append(envs.ensure_venv(config(tmp_path)))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 2  # venv + pip install, once
    assert calls[1][-2:] == ["zarr==3.1.6", "numpy==2.4.6"]
    assert len(set(results)) == 1 and envs.is_provisioned(config(tmp_path))


def test_failed_install_leaves_nothing_half_made(tmp_path, cache, monkeypatch):
    def fake_run(argv, what):
        if "pip" in argv:
            raise envs.ProvisioningError("no such version")
        envs.venv_dir(config(tmp_path)).mkdir(parents=True, exist_ok=True)

    monkeypatch.setattr(envs, "_run", fake_run)
    with pytest.raises(envs.ProvisioningError):
        envs.ensure_venv(config(tmp_path))
    assert not envs.venv_dir(config(tmp_path)).exists()


def test_npm_install_arguments(tmp_path, cache, monkeypatch):
    calls = []
    monkeypatch.setattr(envs, "_run", lambda argv, what: calls.append(argv))
    monkeypatch.setattr(envs.shutil, "which", lambda name: "/usr/bin/npm")
    node_modules = envs.ensure_npm(config(tmp_path, requirements=(), npm=("zarrita@0.7.5",)))
    assert node_modules.name == "node_modules" and node_modules.parent.parent == cache / "npm"
    assert calls[0][1:4] == ["install", "--no-audit", "--no-fund"] and calls[0][-1] == "zarrita@0.7.5"


def test_command_files_are_staged_next_to_node_modules(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(envs, "_run", lambda argv, what: None)
    monkeypatch.setattr(envs.shutil, "which", lambda name: "/usr/bin/npm")
    (tmp_path / "harness.mjs").write_text("// v1")
    c = config(tmp_path, requirements=(), npm=("zarrita@0.7.5",))
    envs.ensure_npm(c)
    staged = envs.stage_command_folder(c)
    assert (staged / "harness.mjs").read_text() == "// v1"
    (tmp_path / "harness.mjs").write_text("// v2")  # edits reach the next start
    assert (envs.stage_command_folder(c) / "harness.mjs").read_text() == "// v2"
