"""Results records and protocol messages against their JSON Schemas; the summary table and the
closing line; error origins."""

from __future__ import annotations

import pytest

from conformance.harness import schemas
from conformance.harness.adapter_api import Unsupported, handle
from conformance.harness.progress import RunReporter
from conformance.harness.records import OUTCOMES, make_record, summary_table, tally, unexpected


def test_all_schemas_are_valid_json_schemas():
    import jsonschema

    for path in schemas.SCHEMA_DIR.glob("*.json"):
        doc = schemas.schema(path.stem)
        jsonschema.validators.validator_for(doc).check_schema(doc)


def record(**kw):
    base = dict(run_id="r", test="read", case="v3/a", impl="x", outcome="passed")
    return make_record(**{**base, **kw})


def test_records_follow_the_schema():
    assert schemas.problems("result-record", record()) == []
    full = record(
        test="cross",
        writer="a",
        reader="b",
        impl="b",
        outcome="known-failure",
        message="m",
        adapter_elapsed=0.1,
        versions={"a": {"zarr": "3.1.6"}},
        tier="required",
        format="v3",
        store={"kind": "s3", "location": "s3://b/k"},
        known_failure={"id": "k", "reason": "r", "issue": "https://x/1", "strict": True},
        metrics={"bytes": 10, "throughput": 1.5},
    )
    assert schemas.problems("result-record", full) == []
    new_members = record(
        test="roundtrip",
        writer="a",
        reader="a",
        impl="a",
        outcome="wrong-data",
        probe=True,
        unchecked=["chunk_shape", "attributes"],
        tier="strict",
        refusal={
            "type": "ValueError",
            "message": "m",
            "category": "codec",
            "expected_category": "metadata",
            "right_reason": False,
        },
    )
    assert schemas.problems("result-record", new_members) == []
    assert (
        schemas.problems(
            "result-record", record(test="property", writer="a", reader="a", pair="self")
        )
        == []
    )
    assert schemas.problems("result-record", {**record(), "outcome": "crashed"})
    with pytest.raises(ValueError):
        record(outcome="crashed")


def test_long_messages_are_truncated():
    assert len(record(message="x" * 100_000)["message"]) <= 4000


def test_a_failed_pair_counts_only_for_the_side_at_fault_a_passed_one_for_both():
    """Cause 2 of issue 16: a pair record was tallied for both sides, so another adapter's bug
    showed in the reference's row."""
    records = [
        record(impl="a"),
        record(
            test="cross",
            impl="b",
            writer="a",
            reader="b",
            outcome="failed",
            blame={"side": "reader", "evidence": "the reference reads what a wrote back exactly"},
        ),
        record(test="cross", impl="b", writer="a", reader="b", outcome="passed"),
    ]
    table = tally(records)
    assert table["a"] == {"passed": 2}
    assert table["b"] == {"failed": 1, "passed": 1}
    text = summary_table(records, 1.5)
    assert "all records" in text and "3 records in 1.5 s" in text and "all tiers" in text


def test_wrong_data_and_crashes_come_first_and_fail_the_run_unless_known():
    assert OUTCOMES[:2] == ("wrong-data", "errored")
    known = {"id": "k", "reason": "r", "issue": "https://x/1"}
    records = [
        record(outcome="passed"),
        record(outcome="wrong-data"),
        record(outcome="wrong-data", known_failure=known),
        record(outcome="errored"),
        record(outcome="known-failure", known_failure=known),
        record(outcome="unsupported"),
        record(outcome="lenient", tier="strict", behaviour="accepts"),
        record(outcome="type-changed", types={"expected": "|i1", "observed": "<i2"}),
    ]
    assert [r["outcome"] for r in unexpected(records)] == ["wrong-data", "errored"]
    header = summary_table(records).splitlines()[0].split()
    assert header[3:5] == ["wrong-data", "errored"]
    lines = RunReporter().summary(records, [], None).splitlines()
    assert lines[-2] == (
        "wrong data: 2 (1 explained by known failures), errored: 1, failed: 0, known failures: 1 "
        "(every tier and test kind); allowed behaviour: 1 type-changed, 1 lenient, 0 declined; "
        "probes: 0"
    )
    # the plain form a CI pytest-summary reader takes; unknown wrong data and errored count as failed
    assert lines[-1] == "matrix: 4 passed, 2 failed, 2 skipped"


@pytest.mark.parametrize("tier", ["required", "strict", "optional", "extension", None])
def test_a_failure_fails_the_run_on_every_tier(tier):
    """A tier says whether refusing is allowed; it never makes a wrong answer acceptable: what the
    tier allows is recorded as lenient or declined, never as failed."""
    failed = record(outcome="failed", tier=tier, message="reported the wrong fill value")
    assert unexpected([failed]) == [failed]
    closing = RunReporter().summary([failed], [], None).splitlines()[-1]
    assert closing == "matrix: 0 passed, 1 failed, 0 skipped"


def test_hostile_records_never_fail_the_run():
    assert unexpected([record(outcome="errored", tier="hostile", test="hostile")]) == []


class Thing:
    def describe(self, request):
        return {"name": "t", "version": "1", "versions": {}}

    def read(self, request):
        raise Unsupported("no zip stores")

    def write(self, request):
        raise ValueError("boom")


@pytest.mark.parametrize(
    "op, check",
    [
        ("describe", lambda r: r["ok"] and r["protocol"] == 1),
        (
            "read",
            lambda r: not r["ok"] and r["unsupported"] and r["error"]["message"] == "no zip stores",
        ),
        (
            "write",
            lambda r: (
                not r["ok"]
                and r["error"]
                == {
                    "type": "ValueError",
                    "message": "boom",
                    "reason": None,
                    "module": "builtins",
                    "origin": "adapter",
                    "raised_in": f"{__name__}.Thing.write",
                    "raised_by": "raise",
                    "phase": None,
                }
            ),
        ),  # raised by the adapter class itself
        ("list", lambda r: not r["ok"] and r["error"]["type"] == "ProtocolError"),
    ],
)
def test_dispatcher_responses_follow_the_schemas(op, check):
    response = handle(Thing(), {"id": 7, "op": op})
    assert response["id"] == 7 and response["elapsed"] >= 0 and check(response)
    assert schemas.response_problems(op, response) == []


def test_error_origin_tells_adapter_code_from_the_implementation(tmp_path, monkeypatch):
    from pathlib import Path

    from conformance.harness.adapter_api import error_response

    def raise_in(folder: Path, code: str):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "mod.py"
        path.write_text(f"def go():\n    {code}\n")
        namespace = {}
        exec(compile(path.read_text(), str(path), "exec"), namespace)
        try:
            namespace["go"]()
        except Exception as exc:
            return exc

    adapter_dir = tmp_path / "adapter"
    in_adapter = raise_in(adapter_dir, "raise ValueError('mine')")
    in_library = raise_in(tmp_path / "site-packages" / "lib", "{}['missing']")
    assert error_response(in_adapter, adapter_dir=adapter_dir)["error"]["origin"] == "adapter"
    assert error_response(in_library, adapter_dir=adapter_dir)["error"] == {
        "type": "KeyError",
        "message": "'missing'",
        "reason": None,
        "module": "builtins",
        "origin": "implementation",
        "raised_in": "go",  # exec'd without a module name
        "raised_by": "operation",  # a subscript failed: the interpreter raised it
        "phase": None,
    }
    # compiled code names its source relatively (Cython); the child's working directory is the
    # adapter folder, so resolving such a name would blame the adapter
    namespace = {}
    exec(
        compile(
            "def go():\n    raise RuntimeError('decompression error')\n",
            "numcodecs/zstd.pyx",
            "exec",
        ),
        namespace,
    )
    with pytest.raises(RuntimeError) as compiled:
        namespace["go"]()
    monkeypatch.chdir(adapter_dir)
    assert (
        error_response(compiled.value, adapter_dir=adapter_dir)["error"]["origin"]
        == "implementation"
    )
    # compiled code cannot say whether a raise statement raised it
    assert error_response(compiled.value)["error"]["raised_by"] is None
    # an extension without Python frames (tensorstore) raises in the adapter's call: the adapter marks it
    from conformance.harness.adapter_api import from_implementation

    marked = from_implementation(raise_in(adapter_dir / "again", "raise ValueError('from C++')"))
    assert error_response(marked, adapter_dir=adapter_dir)["error"]["origin"] == "implementation"
    # the reference implementation is an implementation; the rest of the package is adapter-side code
    from conformance.harness.adapter_api import save_data
    from conformance.reference.errors import MetadataError
    from conformance.reference.jsonio import loads

    with pytest.raises(MetadataError) as refused:
        loads(b"{", "zarr.json")
    assert error_response(refused.value)["error"]["origin"] == "implementation"
    import numpy as np

    with pytest.raises(TypeError) as misused:
        save_data(tmp_path / "a.npy", np.array([object()], dtype=object))
    assert error_response(misused.value)["error"]["origin"] == "adapter"


def test_where_and_how_an_error_was_raised_and_its_phase():
    """What survives a release that rewords its messages: the function that raised the error,
    whether its own raise statement did (a refusal on purpose) or one of its operations failed
    (a crash), and the request phase the adapter marked."""
    from conformance.harness.adapter_api import error_response, phase

    def parse_field(value):
        if not isinstance(value, int):
            raise TypeError(f"Failed to parse input for 'level': expected int, got {value!r}.")
        return value

    def build(config):
        return dict(**config, level=1)  # TypeError: got multiple values for keyword 'level'

    with pytest.raises(TypeError) as refused, phase("metadata"):
        parse_field("5")
    error = error_response(refused.value)["error"]
    assert error["raised_in"].endswith("parse_field") and error["raised_by"] == "raise"
    assert error["phase"] == "metadata"
    with pytest.raises(TypeError) as crashed, phase("data"), phase("metadata"):
        build({"level": 2})
    error = error_response(crashed.value)["error"]
    assert error["raised_in"].endswith("build") and error["raised_by"] == "operation"
    assert error["phase"] == "metadata"  # the innermost phase wins
    assert error_response(ValueError("never raised"))["error"]["raised_in"] is None

    # an internal check, not a refusal given on purpose (compiled here: pytest rewrites the
    # asserts of test modules into raise statements)
    namespace: dict = {}
    source = "def check(node_type):\n    assert node_type == 'group'\n"
    exec(compile(source, "/nonexistent/lib/check.py", "exec"), namespace)
    with pytest.raises(AssertionError) as asserted:
        namespace["check"]("array")
    assert error_response(asserted.value)["error"]["raised_by"] == "assert"


def test_schema_catches_a_bad_read_response():
    bad = {
        "id": 1,
        "ok": True,
        "node_type": "array",
        "attributes": {},
        "elapsed": 0,
        "data": "x.npy",
        "shape": [-1],
        "dtype": "<i4",
    }
    assert schemas.response_problems("read", bad)


@pytest.mark.parametrize(
    "values",
    [
        ["a", "é", "", "日本"],
        [b"a", b"\xff\x00", b""],
        [b"x", "y", None, 0],  # mixed, with the undefined elements a reader may return
        [None, None],
    ],
)
def test_object_array_files_round_trip(tmp_path, values):
    import numpy as np

    from conformance.harness.adapter_api import load_data, save_data

    array = np.empty(len(values), dtype=object)
    array[:] = values
    array = array.reshape(len(values), 1)
    path = save_data(tmp_path / "a.npy", array)
    assert path.endswith(".json")
    back = load_data(path)
    assert back.shape == array.shape and back.dtype == object
    assert [(type(v), v) for v in back.ravel()] == [(type(v), v) for v in array.ravel()]


def test_numeric_array_files_keep_every_bit(tmp_path):
    import numpy as np

    from conformance.harness.adapter_api import load_data, save_data

    array = np.array([np.nan, -0.0, np.inf], dtype=">f8")
    array.view(">u8")[0] |= 1  # a NaN payload
    back = load_data(save_data(tmp_path / "a.npy", array))
    assert back.dtype == array.dtype and back.tobytes() == array.tobytes()
