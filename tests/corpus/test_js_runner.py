"""fixtures/ is enough to run the corpus: tests/js-runner/runner.mjs, a small Zarr reader in
JavaScript that follows fixtures/README.md ("Writing a runner") and is allowed to read nothing but
the corpus folder (Node's permission model), must pass every v2/v3 read and reject case it
supports, as the reference does; what it cannot decode it reports as unsupported, by the case's
`needs` or a named limitation. The variants below show that it can fail: wrong data, a refusal
that is due but missing, attributes of another JSON type."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conformance.corpus import default_root

RUNNER = Path(__file__).parents[1] / "js-runner" / "runner.mjs"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
# Why a case is not judged: a capability it needs, a kind or store this runner does not run, or a
# limitation the runner names (a need too coarse for what the store holds).
NOT_RUN = ("needs ", "kind ", "store ", "runner limitation: ")


def run(root: Path, *args: str) -> tuple[int, list[dict]]:
    """The runner over the corpus at `root`, reading nothing outside it and itself."""
    done = subprocess.run(
        [
            str(NODE),
            "--no-warnings",
            "--experimental-permission",
            f"--allow-fs-read={root.resolve()}/*",
            f"--allow-fs-read={RUNNER}",
            str(RUNNER),
            str(root),
            "--jsonl",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def test_the_js_runner_agrees_with_the_reference_on_every_case_it_supports():
    code, records = run(default_root())
    judged = [r for r in records if r["outcome"] != "unsupported"]
    disagree = [
        f"{r['id']}: {r['outcome']}: {r.get('message')}" for r in judged if r["outcome"] != "passed"
    ]
    assert disagree == [] and code == 0
    not_run = [r for r in records if r["outcome"] == "unsupported"]
    assert all(r["message"].startswith(NOT_RUN) for r in not_run)
    kinds = {(r["id"].split("/")[0], r["kind"]) for r in judged}
    # every kind it claims is exercised (a runner that skipped everything would pass vacuously)
    assert kinds == {("v2", "read"), ("v2", "reject"), ("v3", "read"), ("v3", "reject")}
    assert len(judged) > len(not_run) / 4


def _copy(root: Path, case_id: str) -> Path:
    for name in ("capabilities.json", "outcomes.json"):
        shutil.copy(default_root() / name, root / name)
    target = root / case_id
    shutil.copytree(default_root() / case_id, target)
    return target


def _edit(folder: Path, change) -> None:
    path = folder / "case.json"
    doc = json.loads(path.read_text("utf-8"))
    change(doc)
    path.write_text(json.dumps(doc), "utf-8")


def test_it_can_fail(tmp_path):
    # wrong data: one element of expected.npy changed
    data = _copy(tmp_path, "v3/fill/float32-double-rounding")
    values = np.load(data / "expected.npy")
    values.reshape(-1)[-1] = 1.5
    np.save(data / "expected.npy", values)
    # a refusal that is due and missing: a valid store asked to be refused, tier required
    accepted = _copy(tmp_path, "v2/codecs/zlib-float64-2d-C")
    _edit(
        accepted,
        lambda d: d.update(
            kind="reject", tier="required", expect={"reason": "invalid-metadata", "stage": "open"}
        ),
    )
    # attributes compared type-strictly: 42 is not 42.0
    attrs = _copy(tmp_path, "v2/attributes/spec-example")
    _edit(attrs, lambda d: d["expect"]["attributes"].update(foo=42.0))
    code, records = run(tmp_path)
    outcomes = {r["id"]: r["outcome"] for r in records}
    assert code == 1
    assert outcomes == {
        "v3/fill/float32-double-rounding": "wrong-data",
        "v2/codecs/zlib-float64-2d-C": "failed",
        "v2/attributes/spec-example": "failed",
    }
