"""Property tests: hypothesis generates arrays (data type, shape, chunking, codec pipeline, fill
value, values) inside the intersection of the writer's and the reader's capabilities; the writer
writes, the reader reads, and the reader must see the input bit for bit (a difference is
`wrong-data`). Pairs: every ordered pair of the selected adapters, and each adapter with itself
(recorded with `"pair": "self"`) and with the reference.

On failure the shrunk example is saved as case folders under .cache/failures/ (see failures.py)."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis.errors import Unsatisfiable

from conformance.corpus.jsonstrict import differences
from conformance.corpus.judge import compare_arrays
from conformance.harness.adapter_api import save_data
from conformance.harness.outcomes import fail
from conformance.suite import property_id
from conformance.suite.failures import REQUIREMENTS, save_example
from conformance.suite.steps import read_node, store_spec
from conformance.suite.strategies import STRATEGIES

# Examples per property and pair: hypothesis's own default (100) is for `--hypothesis-profile ci`;
# an ordinary run uses fewer to stay quick. Any other profile decides for itself.
QUICK_EXAMPLES = 25

SIDE_NEEDS = {"writer": {"op:write", "store:directory"}, "reader": {"op:read", "store:directory"}}


def write_example(client, example, store) -> object:
    work = store.parent
    data = save_data(work / "input.npy", example.data)
    return client.call("write", store=store_spec(store), format=example.format, node_type="array", path="",
                       metadata=example.metadata, attributes=example.attributes, data=data)


def run_property(harness, writer: str, reader: str, format: str, name: str) -> None:
    w = harness.adapter(writer, SIDE_NEEDS["writer"] | {f"format:{format}"})
    r = harness.adapter(reader, SIDE_NEEDS["reader"] | {f"format:{format}"})
    caps = w.describe().capabilities & r.describe().capabilities
    harness.fields.update(format=format, tier="required", requirements=list(REQUIREMENTS[format]))
    seen = {"examples": 0}

    quick = settings.get_current_profile_name() == "default"

    @settings(deadline=None, database=None, max_examples=QUICK_EXAMPLES if quick else settings.default.max_examples,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(STRATEGIES[format](caps))
    def roundtrip(example):
        seen["examples"] += 1
        seen["last"] = example
        work = harness.workdir()
        try:
            store = work / "store"
            store.mkdir()
            response = write_example(w, example, store)
            refusal = harness.refusal(writer, response, record=False)  # a crash raises
            if refusal is not None and refusal.verdict == "unsupported":
                reject()  # declared as beyond what the writer drives: another example
            if refusal is not None:
                fail(f"{writer} could not write: {response.describe_error()}")
            response, result = read_node(harness, reader, store, format, "")
            if result is None:
                fail(f"{reader} could not read what {writer} wrote: {response.describe_error()}")
            problems = compare_arrays(example.data, result.data, f"data written by {writer}, read by {reader}")
            if result.attributes is None:
                harness.fields["unchecked"] = ["attributes"]
            else:
                problems += differences(example.attributes, result.attributes, "attributes")
            fail(problems)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    try:
        roundtrip()
    except pytest.skip.Exception:
        raise
    except Unsatisfiable:
        # The writer answered `unsupported` for every example (e.g. a reader-only format).
        pytest.skip(f"{writer} answered unsupported for every generated {format} example")
    except BaseException as exc:
        example = seen.get("last")  # hypothesis replays the shrunk example last
        if example is not None:
            def rewrite(store):
                response = write_example(w, example, store)
                return response.ok

            folder = save_example(name, writer, reader, example, rewrite)
            harness.fields["example"] = str(folder)
            exc.add_note(f"shrunk example saved to {folder} (re-run: zarr-conformance run --fixtures {folder})")
        raise
    finally:
        harness.fields["metrics"] = {"examples": seen["examples"]}


@pytest.mark.conformance("property")
def test_property_roundtrip_v3(harness, writer, reader):
    run_property(harness, writer, reader, "v3", property_id("test_property_roundtrip_v3"))


@pytest.mark.conformance("property")
def test_property_roundtrip_v2(harness, writer, reader):
    run_property(harness, writer, reader, "v2", property_id("test_property_roundtrip_v2"))
