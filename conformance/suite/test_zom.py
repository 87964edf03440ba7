"""ZOM (ZEP 6) cases. A case with a hierarchy store: the adapter's model of the hierarchy must
equal the case's model.json exactly. An adapter with op:zom builds the model itself (pydantic-zarr:
its own GroupSpec); otherwise the harness builds it from what the adapter reports: the node list
(op list) and each node's metadata document and attributes (op read), converted with the
reference's ZEP 6 rules. A model-only case (no store): an adapter with op:zom must say whether the
document is a valid model under the case's schema ("fixed", or the ZEP's original one with its
defects, which implementations other than the reference may declare unsupported). Models are
compared type-strictly (jsonstrict)."""

from __future__ import annotations

import json

import pytest

from conformance.corpus.jsonstrict import differences
from conformance.harness.outcomes import fail, refused
from conformance.harness.session import case_needs
from conformance.suite.steps import read_node, store_spec

FORMAT_VERSION = {"v2": 2, "v3": 3}


def model_from_list_and_read(harness, impl: str, case) -> dict:
    """The ZEP 6 model built from the adapter's own view of the hierarchy (a view no model can
    describe, such as a member with a reserved name, is a wrong answer)."""
    from conformance.reference.errors import ZarrError
    from conformance.reference.zom import node_from_metadata, to_json

    client = harness.adapter(impl, {"op:list", "op:read"})
    response = client.call(
        "list", store=store_spec(case.store_path), format=case.format, node=case.node
    )
    if harness.check_response(impl, response) is not None:
        refused(f"could not list the hierarchy: {response.describe_error()}")
    nodes = response.body["nodes"]
    views = {}
    for path in sorted(nodes, key=lambda p: (p.count("/"), p), reverse=True):
        response, result = read_node(harness, impl, case.store_path, case.format, path)
        if result is None:
            refused(f"could not read node {path!r}: {response.describe_error()}")
        if result.metadata is None or result.attributes is None:
            pytest.skip(
                f"unsupported: {impl} does not report metadata documents and attributes, which the model needs"
            )
        views[path] = result

    def build(path: str):
        prefix = f"{path}/" if path else ""
        members = {
            p[len(prefix) :]: build(p)
            for p in views
            if p != path and p.startswith(prefix) and "/" not in p[len(prefix) :]
        }
        view = views[path]
        return node_from_metadata(
            FORMAT_VERSION[case.format],
            nodes[path],
            view.metadata,
            view.attributes,
            members or None,
        )

    if case.node not in views:
        fail(f"the node list {sorted(nodes)} does not contain the requested node {case.node!r}")
    try:
        return to_json(build(case.node))
    except ZarrError as exc:
        fail(f"the hierarchy it reports is no valid model: {exc}")


@pytest.mark.conformance("zom")
def test_zom(harness, impl, case):
    expect = case.expect
    model = json.loads((case.dir / expect["model"]).read_text("utf-8"))
    if not case.store_path.exists():  # a model document on its own: is it valid?
        client = harness.adapter(impl, {"op:zom"})
        response = client.call(
            "zom", model=model, format=case.format, schema=expect.get("schema", "fixed")
        )
        if harness.check_response(impl, response) is not None:
            refused(f"could not judge the model document: {response.describe_error()}")
        valid = response.body.get("valid")
        if valid is not expect["valid"]:
            fail(
                f"called the model {'valid' if valid else 'invalid'}, expected {'valid' if expect['valid'] else 'invalid'}: "
                f"{response.body.get('findings', [])}"
            )
        return
    config = harness.session.config(impl)
    if "op:zom" in config.capabilities:
        client = harness.adapter(impl, case_needs("zom", case))
        response = client.call(
            "zom", store=store_spec(case.store_path), format=case.format, node=case.node
        )
        if harness.check_response(impl, response) is not None:
            refused(f"could not build the model: {response.describe_error()}")
        got = response.body.get("model")
    else:
        got = model_from_list_and_read(harness, impl, case)
    fail(differences(model, got, "model"))
