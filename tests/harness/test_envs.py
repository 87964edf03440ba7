"""Adapter environments: cache keys, the lock, cleanup of half-made environments (pip and npm are
replaced by a recorder: the real ones need the network and minutes)."""

from __future__ import annotations

import re
import threading
import time

import pytest

from conformance.harness import envs
from conformance.harness.config import AdapterConfig


def config(tmp_path, name="a", requirements=("zarr==3.1.6", "numpy==2.4.6"), npm=()):
    return AdapterConfig(
        name=name,
        folder=tmp_path,
        description="d",
        transport="python",
        requirements=tuple(requirements),
        npm=tuple(npm),
    )


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZARR_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_cache_key_follows_the_pins(tmp_path, cache):
    a = envs.venv_dir(config(tmp_path))
    assert a.parent == cache / "envs" and a.name.startswith("a-")
    assert (
        envs.venv_dir(config(tmp_path, requirements=("numpy==2.4.6", "zarr==3.1.6"))) == a
    )  # order-free
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
    threads = [
        threading.Thread(target=lambda: results.append(envs.ensure_venv(config(tmp_path))))
        for _ in range(3)
    ]
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
    assert (
        calls[0][1:4] == ["install", "--no-audit", "--no-fund"] and calls[0][-1] == "zarrita@0.7.5"
    )


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


def test_the_shared_js_modules_are_staged_beside_the_adapter(tmp_path, cache, monkeypatch):
    # protocol.mjs (the request loop) and its helpers reach every JS adapter, with npm packages
    # or without any yet (a new adapter's skeleton), and no adapter file may hide one of them.
    folder = tmp_path / "adapter"
    folder.mkdir()
    (folder / "harness.mjs").write_text('import { serve } from "./protocol.mjs";')
    c = config(folder, requirements=(), npm=())
    envs.ensure_npm(c)
    staged = envs.stage_command_folder(c)
    for name in ("protocol.mjs", "npy.mjs", "timer.mjs", "harness.mjs"):
        assert (staged / name).is_file(), name
    assert (staged / "protocol.mjs").read_bytes() == (envs.JS_SHARED / "protocol.mjs").read_bytes()
    (folder / "npy.mjs").write_text("// a copy of its own")
    with pytest.raises(envs.ProvisioningError, match=r"npy\.mjs"):
        envs.stage_command_folder(c)


# ---- system prerequisites: Debian packages, interpreters, availability -----------------------------

MISSING_PACKAGE = "zz-zarr-conformance-no-such-package"


def write_adapter(root, name, extra=""):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "adapter.py").write_text(
        "from conformance.harness.config import ADAPTERS_DIR\n"
        "from conformance.harness.serve import load_adapter_class\n"
        "Adapter = load_adapter_class(ADAPTERS_DIR / 'reference')\n"
    )
    (folder / "adapter.toml").write_text(
        f'name = "{name}"\ndescription = "test adapter {name}"\ntransport = "python"\n'
        f'capabilities = ["format:v3", "op:read", "store:directory", "dtype:int32", "codec:bytes"]\n{extra}'
    )
    return folder


def test_a_missing_debian_package_makes_an_adapter_unavailable(tmp_path):
    from conformance.harness.config import load_adapter_config

    config = load_adapter_config(
        write_adapter(tmp_path, "needs-deb", f'debian = ["{MISSING_PACKAGE}"]\n')
    )
    assert config.debian == (MISSING_PACKAGE,)
    found = envs.availability(config)
    assert not found.available
    if envs.missing_debian([]) == [] and envs.shutil.which("dpkg-query"):
        assert found.why == f"Debian packages not installed: {MISSING_PACKAGE}"
        assert found.install == f"apt-get install -y {MISSING_PACKAGE}"
    with pytest.raises(envs.Unavailable, match="unavailable"):
        envs.require_available(config)


def test_a_missing_interpreter_makes_an_adapter_unavailable(tmp_path):
    from conformance.harness.config import load_adapter_config

    config = load_adapter_config(
        write_adapter(tmp_path, "own-python", 'python = "/nonexistent/bin/python3"\n')
    )
    assert config.own_interpreter and not config.needs_venv
    assert envs.status(config) == "/nonexistent/bin/python3"
    found = envs.availability(config)
    assert not found.available and "interpreter /nonexistent/bin/python3 not found" in found.why
    with pytest.raises(envs.Unavailable):
        envs.adapter_python(config)
    assert envs.availability(load_adapter_config(write_adapter(tmp_path, "plain"))).available


def test_python_excludes_requirements_and_needs_an_absolute_path(tmp_path):
    from conformance.harness.config import AdapterConfigError, load_adapter_config

    with pytest.raises(AdapterConfigError, match=r"python|requirements"):
        load_adapter_config(
            write_adapter(
                tmp_path, "both", 'python = "/usr/bin/python3"\nrequirements = ["zarr==3.1.6"]\n'
            )
        )
    with pytest.raises(AdapterConfigError, match="python"):
        load_adapter_config(write_adapter(tmp_path, "relative", 'python = "python3"\n'))


def test_all_skips_unavailable_and_non_default_adapters(tmp_path, monkeypatch):
    write_adapter(tmp_path, "aa-ready")
    write_adapter(tmp_path, "aa-optional", "default = false\n")
    write_adapter(tmp_path, "aa-missing", f'debian = ["{MISSING_PACKAGE}"]\n')
    monkeypatch.setenv("ZARR_CONFORMANCE_ADAPTERS", str(tmp_path))
    selection = envs.select_adapters(["all"])
    assert "aa-ready" in selection.names and "reference" in selection.names
    assert "aa-optional" not in selection.names and "aa-optional" in selection.optional
    assert "aa-missing" not in selection.names and list(selection.unavailable) == ["aa-missing"]
    notes = selection.notes()
    assert any(
        n.startswith("skipping aa-missing: unavailable: ") and n.endswith("; no records")
        for n in notes
    )
    assert any("aa-optional" in n and "default = false" in n for n in notes)
    # Named adapters run whatever `default` says; unavailable ones are still left out.
    assert envs.select_adapters(["aa-optional", "aa-missing"]).names == ["aa-optional"]


def test_installing_debian_packages(monkeypatch):
    calls = []
    monkeypatch.setattr(
        envs, "_run_env", lambda argv, what, env: calls.append((argv, env.get("DEBIAN_FRONTEND")))
    )
    monkeypatch.setattr(envs, "can_install_debian", lambda: True)
    envs.install_debian(["netcdf-bin", "python3-netcdf4"])
    assert calls == [
        (["apt-get", "update", "-q"], "noninteractive"),
        (["apt-get", "install", "-y", "-q", "netcdf-bin", "python3-netcdf4"], "noninteractive"),
    ]
    monkeypatch.setattr(envs, "can_install_debian", lambda: False)
    with pytest.raises(envs.ProvisioningError, match="needs root and apt-get"):
        envs.install_debian(["netcdf-bin"])


def run_cli(args, tmp_path, adapters_dir):
    import os
    import subprocess
    import sys

    from conformance.resources import REPO_ROOT

    env = dict(
        os.environ,
        ZARR_CONFORMANCE_ADAPTERS=str(adapters_dir),
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=240,
    )


def test_adapters_command_shows_availability(tmp_path):
    adapters = tmp_path / "adapters"
    write_adapter(adapters, "aa-missing", f'debian = ["{MISSING_PACKAGE}"]\ndefault = false\n')
    proc = run_cli(["adapters"], tmp_path, adapters)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    columns = [re.split(r"\s{2,}", line.strip()) for line in lines]
    assert columns[0] == [
        "adapter",
        "transport",
        "environment",
        "all",
        "caps",
        "known",
        "availability",
        "description",
    ]
    row = next(i for i, line in enumerate(lines) if line.startswith("aa-missing "))
    assert columns[row][1:7] == ["python", "caller's environment", "no", "5", "0", "unavailable"]
    assert (
        lines[row + 1].strip() == f"unavailable: Debian packages not installed: {MISSING_PACKAGE}"
        or "no dpkg" in lines[row + 1]
    )
    reference = columns[next(i for i, line in enumerate(lines) if line.startswith("reference "))]
    assert reference[2:4] == ["caller's environment", "yes"] and reference[6] == "available"


def test_an_unavailable_adapter_does_not_fail_a_run(tmp_path, mini_corpus):
    adapters = tmp_path / "adapters"
    write_adapter(adapters, "aa-missing", f'debian = ["{MISSING_PACKAGE}"]\n')
    results = tmp_path / "results.jsonl"
    proc = run_cli(
        [
            "run",
            "--impl",
            "reference",
            "--impl",
            "aa-missing",
            "--fixtures",
            str(mini_corpus),
            "--kinds",
            "read",
            "--results",
            str(results),
        ],
        tmp_path,
        adapters,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "skipping aa-missing: unavailable: " in proc.stderr  # said at the start ...
    summary_line = next(line for line in proc.stdout.splitlines() if "skipping aa-missing" in line)
    assert "no records" in summary_line  # ... and again in the summary
    import json

    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert records and {r["impl"] for r in records} == {"reference"}
    # Nothing left to run: a clear message, not a run of the default adapter.
    alone = run_cli(
        [
            "run",
            "--impl",
            "aa-missing",
            "--fixtures",
            str(mini_corpus),
            "--kinds",
            "read",
            "--results",
            str(tmp_path / "alone.jsonl"),
        ],
        tmp_path,
        adapters,
    )
    assert alone.returncode == 1 and "no available adapter to run" in alone.stderr
    assert not (tmp_path / "alone.jsonl").exists()


# ---- an environment that cannot be made: left out before the run, no records -----------------------

NO_SUCH_DIST = "zz-zarr-conformance-no-such-dist"


@pytest.fixture
def unbuildable(tmp_path):
    """An adapter whose pin pip cannot install (pip is kept off the index: it fails at once), and
    a cache that already knows its release's Requires-Python (no index is asked)."""
    adapters = tmp_path / "adapters"
    write_adapter(adapters, "aa-bad", f'requirements = ["{NO_SUCH_DIST}==1.0"]\n')
    cache = tmp_path / "cache"
    (cache / "index").mkdir(parents=True)
    (cache / "index" / "requires-python.json").write_text(f'{{"{NO_SUCH_DIST}==2.0": null}}')
    env = {
        "ZARR_CONFORMANCE_CACHE": str(cache),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(tmp_path / "no-wheels"),
    }
    return adapters, env


def test_a_version_row_pip_refuses_records_nothing(tmp_path, mini_corpus, unbuildable, monkeypatch):
    adapters, env = unbuildable
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    results = tmp_path / "results.jsonl"
    proc = run_cli(
        [
            "run",
            "--impl",
            "aa-bad@2.0",
            "--impl",
            "reference",
            "--fixtures",
            str(mini_corpus),
            "--kinds",
            "read",
            "--results",
            str(results),
        ],
        tmp_path,
        adapters,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    said = "skipping aa-bad@2.0: its environment cannot be made: ERROR: "
    assert said in proc.stderr and said in proc.stdout  # at the start and above the summary
    import json

    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert records and {r["impl"] for r in records} == {"reference"}
    assert not list((tmp_path / "cache" / "envs").glob("aa-bad*/bin"))  # nothing half-made


def test_through_pytest_too(tmp_path, mini_corpus, unbuildable):
    import json
    import os
    import subprocess
    import sys

    from conformance.resources import REPO_ROOT

    adapters, extra = unbuildable
    results = tmp_path / "results.jsonl"
    env = dict(
        os.environ,
        **extra,
        ZARR_CONFORMANCE_ADAPTERS=str(adapters),
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--pyargs",
            "conformance.suite",
            "-p",
            "no:cacheprovider",
            "--impl",
            "aa-bad@2.0",
            "--impl",
            "reference",
            "--corpus",
            str(mini_corpus),
            "--kinds",
            "read",
            "--results",
            str(results),
            "-n",
            "2",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "skipping aa-bad@2.0: its environment cannot be made" in proc.stdout
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert records and {r["impl"] for r in records} == {"reference"}
