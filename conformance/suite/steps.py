"""The steps the suite's tests share: asking an adapter to read or write, and turning its answer
into what the corpus's judges take."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import numpy as np

from conformance.corpus.judge import ReadResult
from conformance.harness.adapter_api import load_data, save_data
from conformance.harness.client import Response
from conformance.harness.session import TestContext
from conformance.harness.transport import AdapterErrored


def store_spec(path: Path) -> dict:
    path = Path(path).resolve()
    return {"kind": "zip" if path.suffix == ".zip" else "directory", "location": str(path)}


def read_node(
    harness: TestContext, name: str, store: Path, format: str, node: str, needs=()
) -> tuple[Response, ReadResult | None]:
    """Ask adapter `name` to open `node` and read it whole. (response, result or None if the
    implementation refused cleanly: crashes and unsupported answers do not come back, see
    TestContext.check_response)."""
    harness.step = "reader"
    client = harness.adapter(name, needs)
    output = harness.workdir() / "read.npy"
    response = client.call(
        "read", store=harness.store_spec(store), format=format, node=node, output=str(output)
    )
    if harness.check_response(name, response) is not None:
        return response, None
    body = response.body
    data = None
    if body["node_type"] == "array":
        try:
            data = load_data(body["data"])
        except (OSError, ValueError, KeyError) as exc:
            raise AdapterErrored(
                f"{name}: cannot load the data file {body['data']!r} it returned: {exc}"
            ) from None
        if list(data.shape) != body["shape"]:
            raise AdapterErrored(
                f"{name}: reported shape {body['shape']} but its data file holds {list(data.shape)}"
            )
    return response, ReadResult(
        node_type=body["node_type"],
        metadata=body.get("metadata"),
        attributes=body["attributes"],
        data=data,
        members=body.get("members"),
        api=body.get("api"),
    )


def write_node(harness: TestContext, name: str, case, store: Path, needs=()) -> Response:
    """Ask adapter `name` to create the node of write case `case` in the empty directory `store`,
    then to apply the case's steps (update_node). A failed response that comes back (of the write,
    or of the update) is a clean refusal (see TestContext.check_response)."""
    harness.step = "writer"
    client = harness.adapter(name, needs)
    request = case.expect["request"]
    data = None
    if request.get("data") and not request.get("data_json"):
        data = str((case.dir / request["data"]).resolve())  # adapters must not modify it
    elif request.get("data_json"):
        data = save_data(harness.workdir() / "input.npy", case.write_request().data)
    store.mkdir(parents=True, exist_ok=True)
    spec = harness.store_spec(store, write=True)  # an S3 prefix in a test over s3
    response = client.call(
        "write",
        store=spec,
        format=case.format,
        node_type=request["node_type"],
        path=request.get("path", ""),
        metadata=request.get("metadata"),
        attributes=request.get("attributes", {}),
        data=data,
    )
    harness.check_response(name, response)
    if response.ok and request.get("steps"):
        response = update_node(harness, client, name, case, spec)
    if response.ok:
        harness.collect_written()  # a remote store's keys into `store`, for the judge
    return response


def update_node(harness: TestContext, client, name: str, case, spec: dict) -> Response:
    """The steps of a write case, through the writer that has just created the array: one
    `update` request (regions written, resizes) on the same store."""
    request = case.expect["request"]
    steps = []
    for step in request["steps"]:
        step = dict(step)
        if step["op"] == "write":
            step = {
                "op": "write",
                "region": step["region"],
                "data": str((case.dir / step["data"]).resolve()),  # adapters must not modify it
            }
        steps.append(step)
    response = client.call(
        "update", store=spec, format=case.format, path=request.get("path", ""), steps=steps
    )
    harness.check_response(name, response)
    return response


def refused_write(response: Response) -> str:
    """What a refused write test says: which request (the creation, or its update) and why."""
    what = "update the array it wrote" if response.op == "update" else "write"
    return f"could not {what}: {response.describe_error()}"


def reference_reads_as(
    format: str, store: Path, path: str, data, attributes: dict | None, undefined=None
) -> str | None:
    """The evidence that decides a pair: None when the reference reads the node at `path` of the
    writer's store back exactly as requested (data bit for bit apart from the elements `undefined`
    marks, attributes type-strictly; `attributes` None: not compared), else what it saw instead.
    With None the reader is at fault, otherwise the writer."""
    from conformance.corpus.jsonstrict import differences
    from conformance.corpus.judge import compare_defined
    from conformance.reference import get_format, open_store
    from conformance.reference.errors import ZarrError

    try:
        opened = open_store(Path(store))
    except (ZarrError, OSError) as exc:
        return f"the reference cannot open the store: {exc}"
    try:
        fmt = get_format(format)
        node = fmt.open_node(opened, fmt.normalize_path(path))
        problems = [] if attributes is None else differences(attributes, node.attrs, "attributes")
        if data is not None:
            if node.kind != "array":
                return f"the reference opens a {node.kind} where an array was written"
            problems += compare_defined(data, node.read(), undefined, "data the reference reads")
    except ZarrError as exc:
        return f"the reference cannot read what was written: {exc}"
    finally:
        opened.close()
    return "; ".join(problems) or None


def about_attributes(problems: list) -> bool:
    """Whether a reader's problems include its attributes (else the writer's attributes cannot be
    what went wrong, and the pair is decided on the data alone)."""
    return any(str(p).startswith("attributes") for p in problems)


def pair_blame(writer: str, seen: str | None) -> tuple[str, str]:
    """(the side at fault, the evidence) for a reader's failure on a writer's store, given what
    the reference read there (reference_reads_as)."""
    if seen is None:
        return "reader", f"the reference reads what {writer} wrote back exactly"
    return "writer", f"{seen} (in the store {writer} wrote)"


def refused_read(
    reader: str,
    writer: str,
    response: Response,
    store: Path,
    format: str,
    path: str,
    at_fault: Callable[[bool], tuple[str, str]],
) -> NoReturn:
    """Raise for a reader that could not read what a writer wrote. At the reader's fault, and the
    writer's store relies on something the corpus lets readers refuse (a 3.1 short-hand name, a
    v2 fill convention: conventions.refusable), the refusal is judged on that question's tier."""
    from conformance.corpus.conventions import refusable
    from conformance.corpus.questions import QUESTIONS
    from conformance.harness.outcomes import refused

    message = f"{reader} could not read what {writer} wrote: {response.describe_error()}"
    side, evidence = at_fault(False)  # attributes the writer added do not stop a read
    allowed = refusable(store, format, path) if side == "reader" else None
    tier = None
    if allowed is not None:
        convention, where = allowed
        message += (
            f"; {writer} wrote {convention.what} ({where}), which a reader may refuse "
            f"(question {convention.question})"
        )
        tier = QUESTIONS[convention.question].tier
    refused(message, side=side, evidence=evidence, tier=tier)


def describe_array(data) -> str:
    return (
        "nothing"
        if data is None
        else f"{np.shape(data)} {getattr(data, 'dtype', type(data).__name__)}"
    )
