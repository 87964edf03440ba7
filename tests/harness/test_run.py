"""`zarr-conformance run` end to end on the mini corpus: records, outcomes (passed, failed,
errored, unsupported, known-failure, strict known failure that passes, wrong data known and
not), probes, roundtrips, the summary, the exit code, xdist, and that other test suites are not
touched by the plugin."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import FAKES

from conformance.harness import schemas
from conformance.resources import REPO_ROOT

ADAPTER = """
from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")


class Adapter(Reference):
    def read(self, request):
        response = super().read(request)
        response["attributes"] = {}  # drops attributes: a real bug
        return response
"""


def make_adapter(
    root: Path, name: str, capabilities: list[str], known: str = "", code: str = ADAPTER
) -> None:
    """An adapter folder; `known`: the text of its known-failures.toml."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "adapter.py").write_text(code)
    (folder / "adapter.toml").write_text(
        textwrap.dedent(f'''\
        name = "{name}"
        description = "test adapter {name}"
        transport = "python"
        capabilities = {json.dumps(capabilities)}
        ''')
    )
    if known:
        (folder / "known-failures.toml").write_text(textwrap.dedent(known))


CAPS = [
    "format:v3",
    "op:read",
    "op:write",
    "store:directory",
    "node:group",
    "dtype:int32",
    "dtype:uint8",
    "codec:bytes",
    "feature:write-root-array",
]


def run_cli(*args, env_extra=None, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=240,
    )


@pytest.fixture(scope="module")
def run(mini_corpus, tmp_path_factory):
    """One run over several adapters (spawning pytest is the slow part, so it is shared)."""
    tmp = tmp_path_factory.mktemp("run")
    adapters = tmp / "adapters"
    make_adapter(
        adapters,
        "drops-attrs",
        CAPS,
        known="""\
        [[known_failures]]
        id = "attributes-dropped"
        cases = ["v3/read/plain-*"]
        test = "read"
        reason = "attributes are dropped on read"
        issue = "https://example.org/o/r/issues/1"

        [[known_failures]]
        id = "group-pretend"
        cases = ["v3/read/group"]
        test = "read"
        reason = "pretend the group case fails although it passes"
        issue = "https://example.org/o/r/issues/2"

        [[known_failures]]
        id = "stale"
        cases = ["v3/read/no-such-case"]
        reason = "stale entry matching nothing"
        issue = "unreported"
        report = "reports/upstream/drops-attrs/stale.md"
        """,
        code=ADAPTER.replace(
            'response["attributes"] = {}',
            'response["attributes"] = {} if response["node_type"] == "array" else response["attributes"]',
        ),
    )
    make_adapter(
        adapters,
        "no-groups",
        [c for c in CAPS if c != "node:group"],
        code="from conformance.harness.config import ADAPTERS_DIR\nfrom conformance.harness.serve import load_adapter_class\nAdapter = load_adapter_class(ADAPTERS_DIR / 'reference')\n",
    )
    crash_code = (
        f"import os, sys\nsys.path.insert(0, {str(FAKES)!r})\nfrom fakebase import Reference, triggered\n\n\n"
        "class Adapter(Reference):\n    def read(self, request):\n        if triggered(request):\n"
        "            os._exit(3)\n        return super().read(request)\n"
    )
    make_adapter(
        adapters,
        "known-crash",
        CAPS,
        code=crash_code,
        known="""\
        [[known_failures]]
        id = "crash"
        cases = ["v3/read/trigger"]
        reason = "exits on the trigger case"
        issue = "https://example.org/o/r/issues/4"
        crashes = true
        """,
    )
    flip_code = (
        f"import sys\nsys.path.insert(0, {str(FAKES / 'flip')!r})\nfrom adapter import Adapter\n"
    )
    make_adapter(
        adapters,
        "known-flip",
        CAPS,
        code=flip_code,
        known="""\
        [[known_failures]]
        id = "bit-flip"
        cases = ["v3/read/plain-*"]
        test = "read"
        reason = "flips the first bit of what it reads"
        issue = "https://example.org/o/r/issues/5"

        [[known_failures]]
        id = "bit-flip-cross"
        cases = ["v3/write/int32"]
        test = "cross"
        role = "reader"
        reason = "flips the first bit of what it reads, whoever wrote it"
        issue = "https://example.org/o/r/issues/5"
        """,
    )
    results = tmp / "results.jsonl"
    proc = run_cli(
        "--impl",
        "reference",
        "--impl",
        "crash",
        "--impl",
        "drops-attrs",
        "--impl",
        "no-groups",
        "--impl",
        "strict",
        "--impl",
        "known-crash",
        "--impl",
        "known-flip",
        "--fixtures",
        str(mini_corpus),
        "--kinds",
        "read,reject,write,cross,zom",
        "--results",
        str(results),
        env_extra={"ZARR_CONFORMANCE_ADAPTERS": os.pathsep.join([str(adapters), str(FAKES)])},
        cwd=tmp,
    )
    records = (
        [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    )
    return proc, records


def outcome(records, test, impl, case, writer=None, store="directory"):
    found = [
        r
        for r in records
        if r["test"] == test
        and r["impl"] == impl
        and r["case"] == case
        and (writer is None or r["writer"] == writer)
        and r["store"]["kind"] == store
    ]
    assert len(found) == 1, (test, impl, case, found)
    return found[0]


def test_every_record_follows_the_schema(run):
    proc, records = run
    assert records, proc.stderr + proc.stdout
    for record in records:
        assert schemas.problems("result-record", record) == []
    assert len({r["run_id"] for r in records}) == 1


def test_reference_passes_everything(run):
    _, records = run
    mine = [r for r in records if r["impl"] == "reference" and r["test"] != "cross"]
    assert "roundtrip" in {r["test"] for r in mine}
    assert mine and all(r["outcome"] == "passed" for r in mine), [
        r for r in mine if r["outcome"] != "passed"
    ]
    assert outcome(records, "read", "reference", "v3/read/plain-a")["versions"]["reference"][
        "numpy"
    ]


def test_crash_is_errored_and_the_run_goes_on(run):
    _, records = run
    trigger = outcome(records, "read", "crash", "v3/read/trigger")
    assert trigger["outcome"] == "errored" and "exit code 3" in trigger["message"]
    assert outcome(records, "read", "crash", "v3/read/plain-a")["outcome"] == "passed"
    assert outcome(records, "read", "crash", "v3/read/plain-b")["outcome"] == "passed"


def test_known_failures(run):
    _, records = run
    known = outcome(records, "read", "drops-attrs", "v3/read/plain-a")
    assert known["outcome"] == "known-failure" and known["known_failure"] == {
        "id": "attributes-dropped",
        "owner": "drops-attrs",
        "reason": "attributes are dropped on read",
        "issue": "https://example.org/o/r/issues/1",
        "strict": True,
    }
    # the trigger case has no entry: a plain failure with the judge's message
    failed = outcome(records, "read", "drops-attrs", "v3/read/trigger")
    assert failed["outcome"] == "failed" and "attributes" in failed["message"]
    # a strict entry whose case passes is a failure telling to remove the entry
    xpass = outcome(records, "read", "drops-attrs", "v3/read/group")
    assert (
        xpass["outcome"] == "failed"
        and xpass["message"] == "known failure now passes: remove the entry"
    )


def test_known_crash(run):
    _, records = run
    rec = outcome(records, "read", "known-crash", "v3/read/trigger")
    assert rec["outcome"] == "known-failure" and "exit code 3" in rec["message"]
    assert outcome(records, "read", "known-crash", "v3/read/plain-b")["outcome"] == "passed"


def test_wrong_data_stays_wrong_data_when_known(run):
    proc, records = run
    rec = outcome(records, "read", "known-flip", "v3/read/plain-a")
    assert rec["outcome"] == "wrong-data" and rec["known_failure"]["id"] == "bit-flip"
    unknown = outcome(records, "read", "known-flip", "v3/read/trigger")
    assert unknown["outcome"] == "wrong-data" and "known_failure" not in unknown
    assert "WRONG-DATA read      known-flip v3/read/trigger" in proc.stdout
    assert (
        "known-flip v3/read/plain-a" not in proc.stdout
    )  # known: not among the unexpected outcomes


def test_undeclared_capability_is_probed(run):
    _, records = run
    rec = outcome(
        records, "read", "no-groups", "v3/read/group"
    )  # the reference, not declaring node:group
    assert (
        rec["outcome"] == "passed"
        and rec["probe"] is True
        and "could declare node:group" in rec["message"]
    )
    assert "probe" not in outcome(records, "read", "no-groups", "v3/read/plain-a")


def test_unsupported_by_op_capability(run):
    _, records = run
    rec = outcome(records, "zom", "no-groups", "v3/zom/model-valid")
    assert rec["outcome"] == "unsupported" and "op:zom" in rec["message"] and "probe" not in rec


def test_cross_pairs_and_roundtrips(run):
    _, records = run
    cross = [r for r in records if r["test"] == "cross"]
    roundtrip = [r for r in records if r["test"] == "roundtrip"]
    assert len(cross) == 42 and len(roundtrip) == 7  # 7 x 7 ordered pairs, one write case
    assert all(r["writer"] == r["reader"] for r in roundtrip) and all(
        r["writer"] != r["reader"] for r in cross
    )
    rec = outcome(records, "cross", "reference", "v3/write/int32", writer="crash")
    assert rec["outcome"] == "passed" and rec["reader"] == "reference"
    assert (
        outcome(records, "cross", "drops-attrs", "v3/write/int32", writer="reference")["outcome"]
        == "failed"
    )
    # a data difference between two implementations is wrong data too; the reader's entry covers it
    flipped = outcome(records, "cross", "known-flip", "v3/write/int32", writer="reference")
    assert flipped["outcome"] == "wrong-data" and flipped["known_failure"]["id"] == "bit-flip-cross"
    # an entry for cross tests does not cover the adapter with itself
    itself = outcome(records, "roundtrip", "known-flip", "v3/write/int32", writer="known-flip")
    assert itself["outcome"] == "wrong-data" and "known_failure" not in itself


def test_requests_follow_the_schema_and_zom_without_op_zom(run):
    _, records = run
    strict = [
        r
        for r in records
        if "strict" in (r["impl"], r["writer"], r["reader"])
        and {r["impl"], r["writer"], r["reader"]} <= {"strict", "reference", None}
        and "model-" not in r["case"]
    ]
    assert strict and all(r["outcome"] == "passed" for r in strict), [
        r for r in strict if r["outcome"] != "passed"
    ]
    # without op:zom the hierarchy case is built from list + read; the model-only cases need op:zom
    assert outcome(records, "zom", "strict", "v3/zom/hierarchy")["outcome"] == "passed"
    assert outcome(records, "zom", "strict", "v3/zom/model-valid")["outcome"] == "unsupported"
    assert outcome(records, "zom", "reference", "v3/zom/model-invalid")["outcome"] == "passed"


def test_summary_exit_code_and_stale_warning(run):
    proc, _ = run
    assert proc.returncode == 1
    assert "all records" in proc.stdout
    assert (
        "drops-attrs: known failure stale case 'v3/read/no-such-case' matches no case"
        in proc.stdout
    )
    assert "ERRORED    read      crash v3/read/trigger" in proc.stdout
    assert "tests collected" in proc.stderr
    closing = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"matrix: \d+ passed, \d+ failed, \d+ skipped", closing), closing


def test_xdist_run_of_the_reference(mini_corpus, tmp_path):
    results = tmp_path / "r.jsonl"
    proc = run_cli(
        "--fixtures",
        str(mini_corpus),
        "--jobs",
        "2",
        "--results",
        str(results),
        "--kinds",
        "read,reject,write,cross,zom",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    records = [json.loads(line) for line in results.read_text().splitlines()]
    local = [r for r in records if r["store"]["kind"] == "directory"]
    assert len(local) == 10 and {r["outcome"] for r in records} == {"passed"}
    assert {r.get("worker") for r in records} <= {"gw0", "gw1"}


def test_property_records_of_one_adapter_with_itself(mini_corpus, tmp_path):
    results = tmp_path / "r.jsonl"
    proc = run_cli(
        "--fixtures",
        str(mini_corpus),
        "--results",
        str(results),
        "--kinds",
        "property",
        "--",
        "-k",
        "roundtrip_v2",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (record,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert (
        record["test"] == "property" and record["pair"] == "self" and record["outcome"] == "passed"
    )


def test_plugin_leaves_other_test_suites_alone(tmp_path):
    (tmp_path / "test_other.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef case():\n    return 1\n\n"
        "@pytest.mark.parametrize('impl', [1, 2])\ndef test_x(case, impl):\n    assert case == 1\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)]
    from conformance.harness.cli import plugin_args

    proc = subprocess.run(
        argv[:3] + plugin_args() + argv[3:],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout and "zarr-conformance" not in proc.stdout
