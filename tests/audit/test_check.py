"""The judge pasted into every Python reproducer (conformance/audit/check.py): bit for bit, type
changes told from wrong data, JSON type-strictly, the verdict line the audit reads."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conformance.audit import check
from conformance.audit.reproduce import render


def test_bit_exact_data_passes_and_nan_payloads_count():
    expected = np.array([1.0, np.nan, -0.0], dtype="<f4")
    assert check.compare_data(expected, expected.astype(">f4")) == (None, [])
    other = expected.copy()
    other.view("u4")[1] = 0x7FC00001  # another NaN payload
    kind, problems = check.compare_data(expected, other)
    assert kind == "wrong-data" and "1 of 3 elements differ" in problems[0]
    kind, _ = check.compare_data(expected, np.array([1.0, np.nan, 0.0], dtype="<f4"))
    assert kind == "wrong-data"  # -0.0 is not 0.0


def test_exact_values_in_another_type_are_a_type_change():
    expected = np.array([True, False, True])
    kind, problems = check.compare_data(expected, expected.astype("u1"))
    assert kind == "type-changed" and "|u1" in problems[0]
    kind, _ = check.compare_data(np.array([-1, 5], dtype="i1"), np.array([255, 5], dtype="u1"))
    assert kind == "wrong-data"  # same bits, another value: not a lossless widening
    kind, _ = check.compare_data(np.array([0.1], "<f4"), np.array([0.1], "<f8"))
    assert kind == "wrong-data"  # float32 0.1 is not float64 0.1


def test_json_is_compared_type_strictly():
    assert check.json_differences({"a": 1}, {"a": 1}) == []
    assert check.json_differences({"a": 1}, {"a": 1.0})
    assert check.json_differences({"a": True}, {"a": 1})
    assert check.json_differences({"a": -0.0}, {"a": 0.0})
    assert check.json_differences({"a": float("nan")}, {"a": float("nan")}) == []


def test_api_members_against_the_case():
    expect = {"shape": [2], "dtype": "<f4", "fill_value": {"bytes": "0100803F"}}
    fill = np.frombuffer(bytes.fromhex("0100803f"), "<f4")[0]
    assert (
        check.api_differences(expect, {"shape": (2,), "dtype": ">f4", "fill_value": fill}, False)
        == []
    )
    found = check.api_differences(expect, {"fill_value": np.float32(1.0)}, False)
    assert found == ["api/fill_value/bytes: '0000803f' where '0100803f' is expected"]


def script(tmp_path, body: str, case: dict) -> subprocess.CompletedProcess:
    template = tmp_path / "read.py.tmpl"
    template.write_text("{{case}}\n\n{{> check}}\n\n" + textwrap.dedent(body))
    path = tmp_path / "script.py"
    path.write_text(render(template, case))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)


def verdict(proc: subprocess.CompletedProcess) -> dict:
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith(check.MARK), proc.stdout + proc.stderr
    return json.loads(line[len(check.MARK) :])


@pytest.fixture
def read_case(tmp_path):
    np.save(tmp_path / "expected.npy", np.arange(4, dtype="<i4"))
    return {
        "id": "t",
        "kind": "read",
        "format": "v3",
        "store": str(tmp_path),
        "node": "",
        "expect": {"node_type": "array", "data": str(tmp_path / "expected.npy"), "attributes": {}},
    }


@pytest.mark.parametrize(
    ("returned", "behaviour", "status"),
    [
        ("np.arange(4, dtype='<i4')", "passed", 0),
        ("np.arange(4, dtype='<i8')", "type-changed", 1),
        ("np.arange(1, 5, dtype='<i4')", "wrong-data", 1),
    ],
)
def test_a_script_says_what_happened(tmp_path, read_case, returned, behaviour, status):
    body = f"""
    def read(location, node, fmt):
        return Read("array", {returned}, attributes={{}})

    run_read(read, CASE)
    """
    proc = script(tmp_path, body, read_case)
    assert verdict(proc)["behaviour"] == behaviour
    assert proc.returncode == status


def test_a_refusal_names_the_exception_and_a_reject_case_wants_one(tmp_path, read_case):
    body = """
    def read(location, node, fmt):
        raise KeyError("zarr.json")

    run_read(read, CASE)
    """
    found = verdict(proc := script(tmp_path, body, read_case))
    assert found["behaviour"] == "refused" and proc.returncode == 1
    assert found["error"] == {"type": "KeyError", "module": "builtins", "message": "'zarr.json'"}
    proc = script(tmp_path, body, dict(read_case, kind="reject", expect={"reason": "x"}))
    assert verdict(proc)["behaviour"] == "refused" and proc.returncode == 0
