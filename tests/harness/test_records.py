"""Results records and protocol messages against their JSON Schemas; the summary table."""

from __future__ import annotations

import pytest

from conformance.harness import schemas
from conformance.harness.adapter_api import Unsupported, handle
from conformance.harness.records import make_record, summary_table, tally


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
    full = record(test="cross", writer="a", reader="b", impl="b", outcome="known-failure", message="m",
                  adapter_elapsed=0.1, versions={"a": {"zarr": "3.1.6"}}, tier="required", format="v3",
                  store={"kind": "s3", "location": "s3://b/k"}, known_failure={"reason": "r", "issue": "https://x/1"},
                  metrics={"bytes": 10, "throughput": 1.5})
    assert schemas.problems("result-record", full) == []
    assert schemas.problems("result-record", {**record(), "outcome": "crashed"})
    with pytest.raises(ValueError):
        record(outcome="crashed")


def test_long_messages_are_truncated():
    assert len(record(message="x" * 100_000)["message"]) <= 4000


def test_tally_counts_cross_records_for_both_sides():
    records = [record(impl="a"), record(test="cross", impl="b", writer="a", reader="b", outcome="failed")]
    table = tally(records)
    assert table["a"]["passed"] == 1 and table["a"]["failed"] == 1 and table["b"]["failed"] == 1
    text = summary_table(records, 1.5)
    assert "all records" in text and "2 records in 1.5 s" in text


class Thing:
    def describe(self, request):
        return {"name": "t", "version": "1", "versions": {}}

    def read(self, request):
        raise Unsupported("no zip stores")

    def write(self, request):
        raise ValueError("boom")


@pytest.mark.parametrize("op, check", [
    ("describe", lambda r: r["ok"] and r["protocol"] == 1),
    ("read", lambda r: not r["ok"] and r["unsupported"] and r["error"]["message"] == "no zip stores"),
    ("write", lambda r: not r["ok"] and r["error"] == {"type": "ValueError", "message": "boom", "reason": None}),
    ("list", lambda r: not r["ok"] and r["error"]["type"] == "ProtocolError"),
])
def test_dispatcher_responses_follow_the_schemas(op, check):
    response = handle(Thing(), {"id": 7, "op": op})
    assert response["id"] == 7 and response["elapsed"] >= 0 and check(response)
    assert schemas.response_problems(op, response) == []


def test_schema_catches_a_bad_read_response():
    bad = {"id": 1, "ok": True, "node_type": "array", "attributes": {}, "elapsed": 0, "data": "x.npy", "shape": [-1], "dtype": "<i4"}
    assert schemas.response_problems("read", bad)


@pytest.mark.parametrize("values", [
    ["a", "é", "", "日本"],
    [b"a", b"\xff\x00", b""],
    [b"x", "y", None, 0],  # mixed, with the undefined elements a reader may return
    [None, None],
])
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
