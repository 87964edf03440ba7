"""Which build an adapter runs: the pinned venv, the caller's environment (`--impl-env current`)
or another version of the implementation (`--impl NAME@VERSION`), and the run's meta file."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

import pytest

from conformance.harness.config import AdapterConfigError, find_adapter, load_adapter_config
from conformance.harness.variants import (
    at_version,
    in_current_env,
    main_package,
    resolve,
    split_name,
)
from conformance.resources import corpus_version, fixtures_dir, version_matches

REPO = Path(__file__).resolve().parents[2]
NUMPY = version("numpy")


def fake_adapter(root: Path, name: str, requirements: list[str], known: str = "") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "adapter.toml").write_text(
        textwrap.dedent(f"""
        name = "{name}"
        description = "fake: the reference under another name"
        transport = "python"
        requirements = {json.dumps(requirements)}
        capabilities = ["format:v3", "op:read", "op:write", "store:directory", "dtype:int32", "codec:bytes"]
    """)
    )
    (folder / "adapter.py").write_text(
        "from conformance.harness.config import ADAPTERS_DIR\n"
        "from conformance.harness.serve import load_adapter_class\n"
        "Adapter = load_adapter_class(ADAPTERS_DIR / 'reference')\n"
    )
    if known:
        (folder / "known-failures.toml").write_text(textwrap.dedent(known))
    return folder


KNOWN = """
    [[known_failures]]
    id = "some-bug"
    cases = ["v3/read/plain-a"]
    reason = "a strict entry written against the pinned version"
    issue = "https://github.com/example/example/issues/1"
    test = "read"
"""


def test_split_name():
    assert split_name("zarr-python@3.0.10") == ("zarr-python", "3.0.10")
    assert split_name("zarr-python") == ("zarr-python", None)
    assert split_name("./adapters/zarr-python") == ("./adapters/zarr-python", None)
    assert split_name("@3.0") == ("@3.0", None)


def test_main_package_is_the_first_pin():
    package, pinned, kind = main_package(find_adapter("zarr-python"))
    assert (
        package == "zarr"
        and kind == "pip"
        and pinned == find_adapter("zarr-python").requirements[0].split("==")[1]
    )
    assert main_package(find_adapter("tensorstore"))[0] == "tensorstore"
    assert main_package(find_adapter("zarrita-js"))[0] == "zarrita"
    assert main_package(find_adapter("reference")) is None


def test_version_row_replaces_only_the_implementation_pin():
    config = find_adapter("zarr-python")
    row = at_version(config, "3.0.10")
    assert row.name == "zarr-python@3.0.10" and row.folder == config.folder
    # ... and leaves out store-kind packages (variants.STORE_PACKAGES), whose pins need zarr >= 3.1
    kept = tuple(r for r in config.requirements[1:] if not r.startswith("icechunk=="))
    assert row.requirements[0] == "zarr==3.0.10" and row.requirements[1:] == kept
    assert "store:icechunk" in config.capabilities and "store:icechunk" not in row.capabilities
    # known failures were written against the pin: kept, none strict
    assert len(row.known_failures) == len(config.known_failures)
    assert not any(k.strict for k in row.known_failures)
    with pytest.raises(AdapterConfigError, match="pins no implementation"):
        at_version(find_adapter("reference"), "1.0")


def test_current_env_runs_in_this_interpreter_and_warns_on_another_version(tmp_path):
    same = load_adapter_config(fake_adapter(tmp_path, "same", [f"numpy=={NUMPY}"], KNOWN))
    config, variant = in_current_env(same)
    assert config.requirements == () and not config.own_interpreter
    assert variant.env == "current" and variant.version == NUMPY and variant.note is None
    assert config.known_failures[0].strict  # the pinned version itself: entries stay strict

    other = load_adapter_config(fake_adapter(tmp_path, "other", ["numpy==0.0.1"], KNOWN))
    config, variant = in_current_env(other)
    assert variant.version == NUMPY and variant.pinned == "0.0.1"
    assert "written against numpy 0.0.1" in variant.note
    assert not config.known_failures[0].strict

    absent = load_adapter_config(
        fake_adapter(tmp_path, "absent", ["no-such-distribution-xyz==1.0"])
    )
    with pytest.raises(AdapterConfigError, match="installed in this environment"):
        in_current_env(absent)


def test_resolve(monkeypatch, tmp_path):
    fake_adapter(tmp_path, "other", ["numpy==0.0.1"])
    monkeypatch.setenv("ZARR_CONFORMANCE_ADAPTERS", str(tmp_path))
    assert resolve("other", "pinned")[0].requirements == ("numpy==0.0.1",)
    assert resolve("other", "current")[0].requirements == ()
    config, variant = resolve("other@0.0.2", "current")  # a version row keeps its own venv
    assert (
        config.name == "other@0.0.2"
        and config.requirements == ("numpy==0.0.2",)
        and variant.env == "version"
    )
    with pytest.raises(AdapterConfigError):
        resolve("other", "nowhere")


def test_corpus_version_is_semver_and_matches():
    from conformance.resources import SEMVER

    have = corpus_version(REPO / "fixtures")
    assert have is not None and SEMVER.fullmatch(have), have
    assert fixtures_dir() == REPO / "fixtures"  # from a checkout: the checkout's folders
    major, minor, _ = have.split(".", 2)
    assert (
        version_matches(have, have)
        and version_matches(have, f"{major}.{minor}")
        and version_matches(have, major)
    )
    assert not version_matches(have, f"{int(major) + 1}") and not version_matches(None, have)


def _pytest(args, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_current_env_run_records_versions_and_meta(tmp_path):
    """The reference's pytest run with --impl-env current over a few cases: the meta file beside
    the results says what ran, on which corpus version and machine."""
    results = tmp_path / "out.jsonl"
    proc = _pytest(
        [
            "--pyargs",
            "conformance.suite",
            "--impl",
            "reference",
            "--impl-env",
            "current",
            "--kinds",
            "read",
            "--cases",
            "v3/fill/*",
            "--results",
            str(results),
        ],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert records and all(r["outcome"] == "passed" for r in records)
    meta = json.loads((tmp_path / "out.meta.json").read_text())
    assert meta["run_id"] == records[0]["run_id"]
    assert meta["corpus_version"] == corpus_version(REPO / "fixtures")
    assert meta["impl_env"] == "current" and "machine" in meta and meta["cases"] > 1000
    assert meta["adapters"]["reference"]["versions"]["zarr-conformance"]
    assert meta["properties"]["mode"] == "deterministic" and meta["properties"]["seed"] is not None


def test_corpus_version_pin_stops_a_run_over_another_corpus(tmp_path):
    proc = _pytest(
        [
            "--pyargs",
            "conformance.suite",
            "--impl",
            "reference",
            "--kinds",
            "read",
            "--cases",
            "v3/fill/*",
            "--corpus-version",
            "999",
        ],
        tmp_path,
    )
    assert proc.returncode == 4 and "--corpus-version 999" in proc.stderr, proc.stderr[-2000:]


def test_checkout_suite_path_and_pyargs_both_collect(tmp_path):
    """`pytest conformance/suite` from a checkout and `--pyargs conformance.suite` from elsewhere."""
    for args, cwd in ((["conformance/suite"], REPO), (["--pyargs", "conformance.suite"], tmp_path)):
        proc = _pytest(
            [
                *args,
                "--impl",
                "reference",
                "--kinds",
                "read",
                "--cases",
                "v3/fill/*",
                "--collect-only",
                "-q",
            ],
            cwd,
        )
        assert (
            proc.returncode == 0 and "test_read.py::test_read[reference:v3/fill/" in proc.stdout
        ), proc.stdout[-2000:] + proc.stderr[-2000:]
