"""Interpreters for adapters that need another Python than the caller's (adapter.toml
`python_version`, version rows): found in pyenv's versions, then on PATH (never through pyenv's
shims), then the caller's; a missing one makes the adapter unavailable; a version row takes the
Python its release's Requires-Python allows."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conformance.harness import envs, interpreters, variants
from conformance.harness.config import AdapterConfig, load_adapter_config

CALLER = ".".join(map(str, sys.version_info[:2]))


def fake_python(path: Path, version: str) -> Path:
    """An executable that answers the version probe like a Python of `version` would."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """pyenv with 3.97.0 and 3.97.4 (and a shim that must not count), python3.98 on PATH."""
    root = tmp_path / "pyenv"
    for version in ("3.97.0", "3.97.4", "not-a-python"):
        fake_python(root / "versions" / version / "bin" / "python", version)
    fake_python(root / "shims" / "python3.96", "3.96.0")
    fake_python(tmp_path / "bin" / "python3.98", "3.98.2")
    monkeypatch.setenv("PYENV_ROOT", str(root))
    monkeypatch.setenv("PATH", os.pathsep.join([str(root / "shims"), str(tmp_path / "bin")]))
    return root


def test_pyenv_first_then_path_then_the_caller(machine, tmp_path):
    found = {i.minor: i for i in interpreters.machine_interpreters()}
    assert found["3.97"].version == "3.97.4" and found["3.97"].source == "pyenv"  # newest patch
    assert found["3.97"].path == machine / "versions" / "3.97.4" / "bin" / "python"
    assert found["3.98"].source == "PATH" and found["3.98"].version == "3.98.2"
    assert found[CALLER].path == Path(sys.executable)
    assert "3.96" not in found  # a shim is not an interpreter
    assert interpreters.find("3.95") is None


def test_choose_the_nearest_allowed_python(machine):
    assert interpreters.choose(None, CALLER).minor == CALLER
    assert interpreters.choose(">=3.12", "3.97").minor == "3.97"
    assert interpreters.choose(">=3.98", CALLER).minor == "3.98"
    assert interpreters.choose(">=3.97,<3.98", "3.98").minor == "3.97"
    assert interpreters.choose(">=4", CALLER) is None


def adapter(tmp_path, extra: str, name: str = "needs-py") -> AdapterConfig:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "adapter.py").write_text("class Adapter:\n    pass\n")
    (folder / "adapter.toml").write_text(
        f'name = "{name}"\ndescription = "d"\ntransport = "python"\n'
        f'requirements = ["zarr==3.4.2"]\n{extra}'
    )
    return load_adapter_config(folder)


def test_a_missing_python_version_makes_the_adapter_unavailable(machine, tmp_path):
    config = adapter(tmp_path, 'python_version = "3.95"\n')
    found = envs.availability(config)
    assert not found.available and "needs Python 3.95" in found.why
    assert "3.97.4 (pyenv)" in found.why and found.install == "pyenv install 3.95"
    with pytest.raises(envs.Unavailable):
        envs.base_python(config)
    assert envs.availability(adapter(tmp_path, 'python_version = "3.97"\n', "ok")).available


def test_the_venv_is_made_with_that_python_and_keyed_by_it(machine, tmp_path, monkeypatch):
    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    calls = []

    def fake_run(argv, what):
        calls.append(argv)
        if argv[1:3] == ["-m", "venv"]:
            (Path(argv[3]) / "bin").mkdir(parents=True)

    monkeypatch.setattr(envs, "_run", fake_run)
    config = adapter(tmp_path, 'python_version = "3.97"\n')
    envs.ensure_venv(config)
    assert calls[0][0] == str(machine / "versions" / "3.97.4" / "bin" / "python")
    other = AdapterConfig(**{**config.__dict__, "python_version": None})
    assert envs.venv_dir(config) != envs.venv_dir(other)  # a venv is bound to its Python


def test_python_version_needs_requirements(tmp_path):
    from conformance.harness.config import AdapterConfigError

    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "adapter.py").write_text("class Adapter:\n    pass\n")
    (folder / "adapter.toml").write_text(
        'name = "bare"\ndescription = "d"\ntransport = "python"\npython_version = "3.12"\n'
    )
    with pytest.raises(AdapterConfigError, match="requirements"):
        load_adapter_config(folder)


def seed_index(cache: Path, answers: dict) -> None:
    (cache / "index").mkdir(parents=True, exist_ok=True)
    (cache / "index" / "requires-python.json").write_text(json.dumps(answers))


def test_a_version_row_takes_the_python_its_release_requires(machine, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(cache))
    seed_index(cache, {"zarr==3.98.0": ">=3.98", "zarr==1.0.0": ">=3.5", "zarr==4.0.0": ">=4"})
    config = adapter(tmp_path, "")  # no python_version: the caller's is preferred
    newer = variants.at_version(config, "3.98.0")
    assert newer.python_version == "3.98" and newer.requires_python == ">=3.98"
    assert newer.requirements[0] == "zarr==3.98.0"
    assert variants.at_version(config, "1.0.0").python_version == CALLER
    impossible = variants.at_version(config, "4.0.0")
    found = envs.availability(impossible)
    assert not found.available and "requires Python >=4" in found.why
    # the pinned release keeps the adapter's own Python, without asking the index
    assert variants.at_version(config, "3.4.2").requires_python is None


def test_requires_python_comes_from_the_index_once(tmp_path, monkeypatch):
    """pip's dry-run report of the release is parsed, and the answer is kept: a release's
    metadata never changes (a fake pip stands for the index here)."""
    calls = []

    def fake_report(python, requirement):
        calls.append(requirement)
        return {"install": [{"metadata": {"name": "zarr", "requires_python": ">=3.12"}}]}

    monkeypatch.setattr(interpreters, "_pip_report", fake_report)
    cache = tmp_path / "requires-python.json"
    assert interpreters.requires_python("zarr", "3.4.2", cache) == ">=3.12"
    assert interpreters.requires_python("zarr", "3.4.2", cache) == ">=3.12"
    assert calls == ["zarr==3.4.2"]

    def no_index(python, requirement):
        raise interpreters.IndexUnavailable("ERROR: No matching distribution found")

    monkeypatch.setattr(interpreters, "_pip_report", no_index)
    with pytest.raises(interpreters.IndexUnavailable, match="no such release"):
        interpreters.requires_python("zarr", "0.0.1", cache)
