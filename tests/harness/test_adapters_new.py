"""`zarr-conformance adapters new`: a skeleton adapter runs at once, every record `unsupported`
(its unwritten operations answer Unsupported, declared in adapter.toml), never `errored`; the JS
skeleton passes `node --check` and runs over the shared protocol.mjs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_run import run_cli

from conformance import cli
from conformance.harness.config import load_adapter_config
from conformance.harness.skeleton import TODO_PREFIX

HAS_NODE = shutil.which("node") is not None


def new_adapter(tmp_path: Path, name: str, lang: str) -> Path:
    assert cli.main(["adapters", "new", name, "--lang", lang, "--dir", str(tmp_path)]) == 0
    folder = tmp_path / name
    load_adapter_config(folder)  # adapter.toml and known-failures.toml pass their schemas
    return folder


def run_records(folder: Path, corpus: Path, tmp_path: Path, **env) -> tuple[int, list[dict]]:
    results = tmp_path / f"{folder.name}.jsonl"
    proc = run_cli(
        *("--impl", str(folder), "--fixtures", str(corpus), "--results", str(results)),
        *("--jobs", "1", "--kinds", "read,reject,write,zom", "--store-kinds", ""),
        env_extra=env,
        cwd=tmp_path,
    )
    assert results.is_file(), proc.stdout + proc.stderr
    return proc.returncode, [json.loads(line) for line in results.read_text().splitlines()]


def test_a_python_skeleton_runs_and_records_unsupported(tmp_path, mini_corpus):
    folder = new_adapter(tmp_path, "skel", "python")
    code, records = run_records(folder, mini_corpus, tmp_path)
    assert records and code == 0
    assert {r["outcome"] for r in records} == {"unsupported"}, records
    # the reads ran (as probes) and reached the skeleton's own answer
    reads = [r for r in records if r["test"] == "read"]
    assert reads and all(TODO_PREFIX + "read" in r["message"] for r in reads)

    # Without the declaration the same answers are adapter bugs: the [[errors]] entry is what
    # makes them `unsupported` (an adapter can never call its failures that on its own).
    toml = folder / "adapter.toml"
    entry = re.compile(r'\[\[errors\]\]\ntype = "Unsupported"\n.*?\n\n', re.S)
    text, found = entry.subn("", toml.read_text())
    assert found == 1
    toml.write_text(text)
    code, records = run_records(folder, mini_corpus, tmp_path)
    assert code != 0 and "errored" in {r["outcome"] for r in records}


def test_the_skeleton_refuses_a_bad_name_and_an_existing_folder(tmp_path, capsys):
    assert (
        cli.main(["adapters", "new", "Not-Lower", "--lang", "python", "--dir", str(tmp_path)]) == 2
    )
    new_adapter(tmp_path, "taken", "python")
    (tmp_path / "taken" / "adapter.py").write_text("# my work")
    assert cli.main(["adapters", "new", "taken", "--lang", "js", "--dir", str(tmp_path)]) == 2
    assert (tmp_path / "taken" / "adapter.py").read_text() == "# my work"  # nothing lost
    assert "not empty" in capsys.readouterr().err


@pytest.mark.skipif(not HAS_NODE, reason="node is not on PATH")
def test_a_js_skeleton_passes_node_check_and_runs(tmp_path, mini_corpus):
    folder = new_adapter(tmp_path, "skel-js", "js")
    check = subprocess.run(["node", "--check", str(folder / "harness.mjs")], capture_output=True)
    assert check.returncode == 0, check.stderr
    # no npm packages yet: the harness still stages protocol.mjs beside harness.mjs
    code, records = run_records(folder, mini_corpus, tmp_path, ZARR_CONFORMANCE_CACHE=str(tmp_path))
    assert records and code == 0
    assert {r["outcome"] for r in records} == {"unsupported"}, records
    assert any(TODO_PREFIX + "read" in r["message"] for r in records if r["test"] == "read")
