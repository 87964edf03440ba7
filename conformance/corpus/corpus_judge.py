"""The reference's verdict on a corpus case of kind `zom` (fixtures/README.md §zom): the corpus
asks the reference here (reference_verdict); the reference itself knows nothing of corpus cases.

Two shapes:

* a model document on its own (no store): `expect` = {model, schema_version, valid, schema}.
  The document is validated against the named schema ("fixed" = ours, "zep6-original" = the
  ZEP's own, defects included) and the outcome must equal `valid`. Against the fixed schema the
  reference's pydantic models must also agree with the schema (both accept or both refuse), and a
  valid v3 model with `storage_transformers: null` must materialise without that key (ZOM-013).
* a hierarchy store and its model: `expect` = a group (or array) read expectation plus
  `model`. The ZOM built from the store must equal model.json exactly as a JSON value (ZOM-002,
  ZOM-004), the group's attributes and members must match the expectation, and the model must
  survive store -> ZOM -> empty store -> ZOM unchanged (ZOM-018).
"""

from __future__ import annotations

from typing import Any

from conformance.reference import jsonio
from conformance.reference.errors import ZarrError
from conformance.reference.stores import MemoryStore, open_store
from conformance.reference.zom.convert import GROUP_MODELS, Model, from_json, to_json
from conformance.reference.zom.hierarchy import from_store, to_store
from conformance.reference.zom.jsonvalue import canonical, json_equal
from conformance.reference.zom.schema import schema_errors, schema_name

from .case import Case

FORMAT_VERSION = {"v2": 2, "v3": 3}


def judge_zom_case(case: Case) -> list[str]:
    """Failure messages of the reference on a zom case ([] when it passes)."""
    expect = case.expect
    try:
        document = jsonio.loads((case.dir / expect["model"]).read_bytes(), expect["model"])
    except (OSError, ZarrError) as exc:
        return [f"cannot read the case's model document: {exc}"]
    if case.store_path.exists():
        return _judge_hierarchy(case, document)
    return _judge_document(case, document)


def _judge_document(case: Case, document: Any) -> list[str]:
    expect = case.expect
    version, schema = expect["schema_version"], expect.get("schema", "fixed")
    problems = []
    if FORMAT_VERSION.get(case.format) != version:
        problems.append(f"case format {case.format} does not match schema_version {version}")
    name = schema_name(schema, version)
    try:
        errors = schema_errors(document, name)
    except ZarrError as exc:  # a document nested beyond the limits
        errors = [str(exc)]
    valid = not errors
    if valid is not expect["valid"]:
        detail = "; ".join(errors[:3]) if errors else "no schema errors"
        problems.append(
            f"schema {name} calls the document {'valid' if valid else 'invalid'}, "
            f"expected {'valid' if expect['valid'] else 'invalid'} ({detail})"
        )
    if schema == "fixed":
        try:
            model_valid = (
                isinstance(document, dict) and from_json(document, zarr_format=version) is not None
            )
        except ZarrError:
            model_valid = False
        if model_valid is not valid:
            problems.append(
                f"the reference's ZOM models {'accept' if model_valid else 'refuse'} the document "
                f"but its published schema {name} {'accepts' if valid else 'refuses'} it"
            )
        elif model_valid and version == 3 and _has_null_transformers(document):
            problems += _materialise_without_null(document)
    return problems


def _has_null_transformers(document: dict[str, Any]) -> bool:
    stack = [document]
    while stack:
        node = stack.pop()
        if "storage_transformers" in node and node["storage_transformers"] is None:
            return True
        stack.extend(v for v in (node.get("members") or {}).values() if isinstance(v, dict))
    return False


def _materialise_without_null(document: dict[str, Any]) -> list[str]:
    """ZOM-013: a v3 `storage_transformers: null` is accepted in a ZOM but never written to a store."""
    scratch = MemoryStore()
    try:
        to_store(from_json(document, zarr_format=3), scratch)
    except ZarrError as exc:
        return [
            f"the valid model with storage_transformers null cannot be materialised (ZOM-013): {exc}"
        ]
    for key in sorted(scratch.list()):
        value = scratch.get(key)
        if key.endswith("zarr.json") and value is not None:
            stored = jsonio.loads(value, key)
            if "storage_transformers" in stored and stored["storage_transformers"] is None:
                return [f"materialising wrote storage_transformers null into {key} (ZOM-013)"]
    return []


def _judge_hierarchy(case: Case, document: Any) -> list[str]:
    expect = case.expect
    store = open_store(case.store_path)
    try:
        try:
            model = from_store(store, case.node, format=case.format)
        except ZarrError as exc:
            return [f"the reference cannot build the model of the store: {exc}"]
        built = to_json(model)
    finally:
        store.close()
    problems = []
    if not json_equal(built, document):
        problems.append(
            "the model built from the store differs from model.json: "
            f"{_first_difference(document, built)}"
        )
    if expect.get("node_type") != model.kind:
        problems.append(
            f"the root node is a {model.kind}, the case expects a {expect.get('node_type')}"
        )
    if "attributes" in expect and not json_equal(dict(model.attributes), expect["attributes"]):
        problems.append(
            f"root attributes {dict(model.attributes)!r} != expected {expect['attributes']!r}"
        )
    if isinstance(model, GROUP_MODELS) and "members" in expect:
        members = {name: child.kind for name, child in model.members.items()}
        if members != expect["members"]:
            problems.append(f"members {members!r} != expected {expect['members']!r}")
    problems += _round_trip(model, built)
    return problems


def _round_trip(model: Model, built: dict[str, Any]) -> list[str]:
    """ZOM-018: materialising the model into an empty store and modelling it again changes nothing."""
    scratch = MemoryStore()
    try:
        to_store(model, scratch)
        again = to_json(from_store(scratch, "", format=f"v{model.version}"))
    except ZarrError as exc:
        return [f"the model cannot be materialised and re-read (ZOM-018): {exc}"]
    if not json_equal(again, built):
        return [
            f"store -> ZOM -> empty store -> ZOM changed the model (ZOM-018): {_first_difference(built, again)}"
        ]
    return []


def _first_difference(want: Any, got: Any, path: str = "") -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            if key not in got:
                return f"{path or '/'}: member {key!r} missing"
            if key not in want:
                return f"{path or '/'}: unexpected member {key!r}"
            if not json_equal(want[key], got[key]):
                return _first_difference(want[key], got[key], f"{path}/{key}")
    return f"{path or '/'}: {canonical(got)[:120]} != expected {canonical(want)[:120]}"
