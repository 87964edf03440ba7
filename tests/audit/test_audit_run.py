"""`zarr-conformance audit` end to end: a run of zarr-python and the reference over a few corpus
cases (copied into a small corpus of its own) whose non-pass records are re-run through their
reproducers in zarr-python's environment; and the same audit over a results file whose recorded
outcomes were changed, which it must catch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.corpus.case import default_root
from conformance.resources import REPO_ROOT

# zarr-python: wrong data (a fill value rounded twice), lenient (a bool fill of 1), a probe
# refused cleanly (r8), a write known failure (a NaN fill's sign); a case everyone passes
CASES = [
    "v3/fill/float32-double-rounding",
    "v3/fill/reject-bool-1",
    "v3/fill/r8-bytes",
    "v3/fill/write-negative-nan-hex",
    "v3/fill/bool-true",
]


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("audit")
    corpus = tmp / "corpus"
    for case in CASES:
        shutil.copytree(default_root() / case, corpus / case)
    out = tmp / "results.jsonl"
    proc = cli(
        "run",
        "--impl",
        "zarr-python",
        "--impl",
        "reference",
        "--kinds",
        "read,reject,write,cross",
        "--fixtures",
        str(corpus),
        "--store-kinds",
        "",
        "--results",
        str(out),
    )
    assert out.is_file(), proc.stdout + proc.stderr
    return out


def audit(results: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    proc = cli("audit", str(results), "--json", *args)
    return proc, json.loads(proc.stdout)


def test_the_sampled_records_reproduce(results):
    proc, report = audit(results, "--sample", "4", "--seed", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert report["sampled"] == 4 and report["reproduced"] == 4
    outcomes = {e["outcome"] for e in report["entries"]}
    assert {"wrong-data", "lenient", "unsupported", "known-failure"} <= outcomes
    assert all(e["impl"] == "zarr-python" for e in report["entries"])


def test_a_wrong_recorded_outcome_is_caught(results, tmp_path):
    records = [json.loads(line) for line in results.read_text().splitlines()]
    changed = 0
    for r in records:
        if r["outcome"] == "lenient":  # it accepted the store: say it refused it
            r.update(outcome="declined", behaviour="refuses", message="could not read: E: m")
            changed += 1
        elif r["outcome"] == "wrong-data":  # values differ: say they were exact in another type
            r.update(outcome="type-changed", types={"expected": "<f4", "observed": "<f8"})
            changed += 1
    assert changed == 2
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(r) + "\n" for r in records))
    shutil.copy(results.with_suffix(".meta.json"), tampered.with_suffix(".meta.json"))
    proc, report = audit(tampered, "--sample", "10", "--seed", "1")
    assert proc.returncode == 1
    wrong = {
        (e["case"], e["outcome"], e["observed"]) for e in report["entries"] if not e["reproduced"]
    }
    assert wrong == {
        ("v3/fill/reject-bool-1", "declined", "accepted"),
        ("v3/fill/float32-double-rounding", "type-changed", "wrong-data"),
    }


def test_reproduce_prints_the_script(results, tmp_path):
    proc = cli("reproduce", str(results), "v3/fill/reject-bool-1", "--impl", "zarr-python")
    assert proc.returncode == 0, proc.stderr
    assert "verdict about zarr-python: lenient" in proc.stdout
    assert "venv/bin/pip install zarr==" in proc.stdout
    assert "import conformance" not in proc.stdout and "from conformance" not in proc.stdout
    proc = cli("reproduce", str(results), "v3/fill/no-such-case", "--impl", "zarr-python")
    assert proc.returncode == 2 and "no record of case" in proc.stderr
