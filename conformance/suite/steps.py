"""The steps the suite's tests share: asking an adapter to read or write, and turning its answer
into what the corpus's judges take."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from conformance.corpus.judge import ReadResult
from conformance.harness.adapter_api import load_data, save_data
from conformance.harness.client import Response
from conformance.harness.session import TestContext
from conformance.harness.transport import AdapterErrored


def store_spec(path: Path) -> dict:
    path = Path(path).resolve()
    return {"kind": "zip" if path.suffix == ".zip" else "directory", "location": str(path)}


def read_node(harness: TestContext, name: str, store: Path, format: str, node: str, needs=()) -> tuple[Response, ReadResult | None]:
    """Ask adapter `name` to open `node` and read it whole. (response, result or None if it raised)."""
    client = harness.adapter(name, needs)
    output = harness.workdir() / "read.npy"
    response = client.call("read", store=store_spec(store), format=format, node=node, output=str(output))
    harness.check_unsupported(name, response)
    if not response.ok:
        return response, None
    body = response.body
    data = None
    if body["node_type"] == "array":
        try:
            data = load_data(body["data"])
        except (OSError, ValueError, KeyError) as exc:
            raise AdapterErrored(f"{name}: cannot load the data file {body['data']!r} it returned: {exc}") from None
        if list(data.shape) != body["shape"]:
            raise AdapterErrored(f"{name}: reported shape {body['shape']} but its data file holds {list(data.shape)}")
    return response, ReadResult(node_type=body["node_type"], metadata=body.get("metadata"),
                                attributes=body.get("attributes", {}), data=data, members=body.get("members"))


def write_node(harness: TestContext, name: str, case, store: Path, needs=()) -> Response:
    """Ask adapter `name` to create the node of write case `case` in the empty directory `store`."""
    client = harness.adapter(name, needs)
    request = case.expect["request"]
    data = None
    if request.get("data") and not request.get("data_json"):
        data = str((case.dir / request["data"]).resolve())  # adapters must not modify it
    elif request.get("data_json"):
        data = save_data(harness.workdir() / "input.npy", case.write_request().data)
    store.mkdir(parents=True, exist_ok=True)
    response = client.call(
        "write", store=store_spec(store), format=case.format, node_type=request["node_type"],
        path=request.get("path", ""), metadata=request.get("metadata"), attributes=request.get("attributes", {}),
        data=data,
    )
    harness.check_unsupported(name, response)
    return response


def metadata_problems(expected: dict | None, reported: dict | None) -> list[str]:
    """Members of the stored metadata document that the adapter reports differently. Adapters that
    cannot return the stored document verbatim return null (then nothing is compared)."""
    if expected is None or reported is None:
        return []
    return [f"metadata member {key!r} is {reported[key]!r}, stored {value!r}"
            for key, value in expected.items() if key != "attributes" and key in reported and reported[key] != value]


def describe_array(data) -> str:
    return "nothing" if data is None else f"{np.shape(data)} {getattr(data, 'dtype', type(data).__name__)}"
