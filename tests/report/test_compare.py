"""`zarr-conformance report --compare`: regressions fail, improvements do not."""

import json

from conformance.cli import main


def record(case, outcome, impl="zarr-python", test="read", **extra):
    return {
        "test": test,
        "case": case,
        "impl": impl,
        "writer": None,
        "reader": None,
        "outcome": outcome,
        "message": "",
        "store": {"kind": "directory"},
        **extra,
    }


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_regression_exits_1_and_is_listed(tmp_path, capsys):
    old = write(tmp_path / "old.jsonl", [record("v3/a", "passed"), record("v3/b", "failed")])
    new = write(tmp_path / "new.jsonl", [record("v3/a", "wrong-data"), record("v3/b", "passed")])
    assert main(["report", "--compare", old, new]) == 1
    out = capsys.readouterr().out
    assert "new wrong data: 1" in out and "regressions: 1" in out and "improvements: 1" in out
    assert "v3/a: passed -> wrong-data" in out


def test_only_improvements_exit_0(tmp_path, capsys):
    old = write(tmp_path / "old.jsonl", [record("v3/a", "failed")])
    new = write(tmp_path / "new.jsonl", [record("v3/a", "known-failure")])
    assert main(["report", "--compare", old, new]) == 0


def test_a_new_failing_record_is_a_regression_and_renames_apply(tmp_path, capsys):
    old = write(tmp_path / "old.jsonl", [record("v3/a", "passed", impl="zarrs")])
    new = write(
        tmp_path / "new.jsonl",
        [
            record("v3/a", "passed", impl="zarrs-python"),
            record("v3/c", "errored", impl="zarrs-python"),
        ],
    )
    assert main(["report", "--compare", old, new, "--rename", "zarrs=zarrs-python"]) == 1
    assert "v3/a" not in capsys.readouterr().out.split("regressions")[1]


def test_self_pairs_recorded_as_cross_match_roundtrip(tmp_path):
    old = write(
        tmp_path / "old.jsonl",
        [record("v3/w", "passed", test="cross", writer="t", reader="t", impl="t")],
    )
    new = write(
        tmp_path / "new.jsonl",
        [record("v3/w", "passed", test="roundtrip", writer="t", reader="t", impl="t")],
    )
    assert main(["report", "--compare", old, new]) == 0
