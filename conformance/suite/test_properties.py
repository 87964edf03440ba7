"""Property tests: hypothesis generates arrays (data type, shape, chunking, codec pipeline, fill
value, values) inside the intersection of the writer's and the reader's capabilities; the writer
writes, the reader reads, and the reader must see the input bit for bit (a difference is
`wrong-data`). Pairs: every ordered pair of the selected adapters, and each adapter with itself
(recorded with `"pair": "self"`) and with the reference.

Deterministic by default: a fixed seed and a fixed number of examples (PROPERTY_SEED and EXAMPLES
in conformance.harness.properties; `--property-examples N`), so one build of an implementation
gets the same verdict wherever and whenever it runs (given the same hypothesis version, which the
run's meta file records). A failure is saved under .cache/failures/ (see failures.py) to be looked
at.

Explore mode (`--hypothesis-explore`, `zarr-conformance run --explore`) draws fresh examples
instead, and saves every NEW shrunk failure as corpus cases `<format>/found/<digest>-write` and
`-read` (conformance.harness.properties.found_root(): the checkout's fixtures/, or the cache
corpus of an installed package). `test_property_found` replays every such saved write case through
every pair, in every run, deterministic or not: a failure found once stays in the gate."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import HealthCheck, Phase, given, reject, seed, settings
from hypothesis.errors import Unsatisfiable

from conformance.corpus.jsonstrict import differences
from conformance.corpus.judge import compare_arrays
from conformance.harness.adapter_api import save_data
from conformance.harness.outcomes import fail, refused
from conformance.harness.properties import example_settings, property_id
from conformance.suite.failures import REQUIREMENTS, save_example, save_found
from conformance.suite.steps import (
    about_attributes,
    pair_blame,
    read_node,
    reference_reads_as,
    refused_read,
    store_spec,
)
from conformance.suite.strategies import STRATEGIES, Example

SIDE_NEEDS = {"writer": {"op:write", "store:directory"}, "reader": {"op:read", "store:directory"}}
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def write_example(client, example, store) -> object:
    work = store.parent
    data = save_data(work / "input.npy", example.data)
    return client.call(
        "write",
        store=store_spec(store),
        format=example.format,
        node_type="array",
        path="",
        metadata=example.metadata,
        attributes=example.attributes,
        data=data,
    )


def check_example(
    harness, w, writer: str, reader: str, format: str, example, on_unsupported
) -> None:
    """Writer writes the example, reader reads it back: the data (and attributes) must be the input.
    `on_unsupported()` is called when the writer declares the example beyond what it drives. Blame
    as in cross tests: the reference reads the writer's store to decide who is at fault."""
    work = harness.workdir()
    try:
        store = work / "store"
        store.mkdir()
        harness.step = "writer"
        response = write_example(w, example, store)
        refusal = harness.refusal(writer, response, record=False)  # a crash raises
        if refusal is not None and refusal.verdict == "unsupported":
            on_unsupported(refusal)
        if refusal is not None:
            refused(f"{writer} could not write: {response.describe_error()}", side="writer")

        def at_fault(attributes: bool) -> tuple[str, str]:
            wanted = example.attributes if attributes else None
            seen = reference_reads_as(format, store, "", example.data, wanted)
            return pair_blame(writer, seen)

        response, result = read_node(harness, reader, store, format, "")
        if result is None:
            refused_read(reader, writer, response, store, format, "", at_fault)
        problems = compare_arrays(
            example.data, result.data, f"data written by {writer}, read by {reader}"
        )
        if result.attributes is None:
            harness.fields["unchecked"] = ["attributes"]
        else:
            problems += differences(example.attributes, result.attributes, "attributes")
        if problems:
            side, evidence = at_fault(about_attributes(problems))
            fail(problems, side=side, evidence=evidence)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_property(harness, writer: str, reader: str, format: str, name: str) -> None:
    w = harness.adapter(writer, SIDE_NEEDS["writer"] | {f"format:{format}"})
    r = harness.adapter(reader, SIDE_NEEDS["reader"] | {f"format:{format}"})
    caps = w.describe().capabilities & r.describe().capabilities
    harness.fields.update(format=format, tier="required", requirements=list(REQUIREMENTS[format]))
    seen = {"examples": 0}
    how = example_settings(harness.session.options)
    kwargs = {"deadline": None, "database": None, "suppress_health_check": HEALTH}
    if not how["mode"].startswith("profile"):
        kwargs["max_examples"] = how["examples"]
    if how["mode"] == "deterministic":
        kwargs["derandomize"] = True
    if not how["shrink"]:
        kwargs["phases"] = [Phase.explicit, Phase.reuse, Phase.generate]

    @settings(**kwargs)
    @given(STRATEGIES[format](caps))
    def roundtrip(example):
        seen["examples"] += 1
        seen["last"] = example
        check_example(harness, w, writer, reader, format, example, lambda refusal: reject())

    if how["seed"] is not None:
        roundtrip = seed(how["seed"])(roundtrip)
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

            if how["mode"] == "explore":
                folder, new = save_found(
                    name, writer, reader, example, rewrite, harness.versions, corpus_root(harness)
                )
                harness.fields["example"] = str(folder)
                exc.add_note(
                    f"shrunk example {'saved as corpus cases' if new else 'already in the corpus'}: "
                    f"{folder} (replayed by every later run: test_property_found)"
                )
            else:
                folder = save_example(name, writer, reader, example, rewrite)
                harness.fields["example"] = str(folder)
                exc.add_note(
                    f"{'shrunk ' if how['shrink'] else ''}example saved to {folder} "
                    f"(re-run: zarr-conformance run --fixtures {folder})"
                )
        raise
    finally:
        harness.fields["metrics"] = {"examples": seen["examples"]}


def corpus_root(harness):
    from conformance.corpus import default_root

    fixtures = harness.session.options.fixtures
    return fixtures if fixtures is not None else default_root()


def replay_found(harness, writer: str, reader: str, case) -> None:
    """A saved property failure (a `<format>/found/` write case) through one writer/reader pair."""
    request = case.write_request()
    example = Example(case.format, request.metadata, request.data, request.attributes)
    w = harness.adapter(writer, SIDE_NEEDS["writer"] | {f"format:{case.format}"})
    harness.adapter(reader, SIDE_NEEDS["reader"] | {f"format:{case.format}"})
    harness.fields["metrics"] = {"examples": 1}

    def unsupported(refusal):
        pytest.skip(f"unsupported: {writer}: {refusal.why} ({refusal.describe()})")

    check_example(harness, w, writer, reader, case.format, example, unsupported)


@pytest.mark.conformance("property")
def test_property_roundtrip_v3(harness, writer, reader):
    run_property(harness, writer, reader, "v3", property_id("test_property_roundtrip_v3"))


@pytest.mark.conformance("property")
def test_property_roundtrip_v2(harness, writer, reader):
    run_property(harness, writer, reader, "v2", property_id("test_property_roundtrip_v2"))


@pytest.mark.conformance("property")
def test_property_found(harness, writer, reader, case):
    """Replays of saved property failures (parametrised by the plugin over the found cases)."""
    replay_found(harness, writer, reader, case)
