"""A handful of corpus-format cases, built with the corpus API into a temporary folder, so the
harness's own tests do not depend on the size or state of fixtures/."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from conformance.corpus.generator import CaseSpec, build_case
from conformance.reference import get_format

# The question each kind of self-test case asks (a case names its question: no default tier).
SELF_TEST_QUESTIONS = {
    "read": "spec-read",
    "write": "spec-write",
    "zom": "zom-model",
    "reject": "unreadable-document",
}


def _array_case(w, *, trigger: bool = False):
    fmt = get_format("v3")
    data = np.arange(10, dtype="int32") * 7 + 1
    array = fmt.create_array(
        w.store, "", fmt.array_metadata((10,), (4,), "int32", fill_value=0), {"k": "v"}
    )
    array[...] = data
    w.expect_array(data, attributes={"k": "v"})


def _group_case(w):
    fmt = get_format("v3")
    fmt.create_group(w.store, "", {"title": "g"})
    fmt.create_array(w.store, "a", fmt.array_metadata((3,), (3,), "uint8", fill_value=0))
    w.expect_group(attributes={"title": "g"}, members={"a": "array"})


def _reject_case(w):
    w.put("zarr.json", b"{")
    w.expect_reject("invalid-json", "open")


def _write_case(w):
    fmt = get_format("v3")
    data = (np.arange(12, dtype="int32") - 5).reshape(3, 4)
    w.expect_write(
        metadata=fmt.array_metadata((3, 4), (2, 3), "int32", fill_value=0),
        attributes={"a": [1, 2]},
        data=data,
        required_keys=["zarr.json"],
    )


def _zom_hierarchy_case(w):
    from conformance.reference import zom

    _group_case(w)
    w.expect_zom(model=zom.to_json(zom.from_store(w.store, "", "v3")), schema_version=3, valid=True)


def _zom_model_case(valid: bool):
    def build(w):
        from conformance.reference import zom

        store = type(w.store)()
        fmt = get_format("v3")
        fmt.create_group(store, "", {"title": "m"})
        model = zom.to_json(zom.from_store(store, "", "v3"))
        if not valid:
            model["node_type"] = "grop"
        w.expect_zom(model=model, schema_version=3, valid=valid)

    return build


CASES = {
    "v3/read/plain-a": ("read", _array_case, ["dtype:int32", "codec:bytes"]),
    "v3/read/trigger": ("read", _array_case, ["dtype:int32", "codec:bytes"]),
    "v3/read/plain-b": ("read", _array_case, ["dtype:int32", "codec:bytes"]),
    "v3/read/group": ("read", _group_case, ["node:group", "dtype:uint8", "codec:bytes"]),
    "v3/reject/bad-json": ("reject", _reject_case, []),
    "v3/write/int32": ("write", _write_case, ["dtype:int32", "codec:bytes", "op:write"]),
    "v3/zom/hierarchy": ("zom", _zom_hierarchy_case, ["node:group", "dtype:uint8", "codec:bytes"]),
    "v3/zom/model-valid": ("zom", _zom_model_case(True), []),
    "v3/zom/model-invalid": ("zom", _zom_model_case(False), []),
}


def build(root: Path, only: list[str] | None = None) -> Path:
    for case_id, (kind, builder, needs) in CASES.items():
        if only is not None and case_id not in only:
            continue
        spec = CaseSpec(
            case_id,
            kind,
            "v3",
            "required",
            f"harness self-test case {case_id}",
            ("V3-TEST",),
            tuple(sorted({"format:v3", *needs})),
            builder,
            question=SELF_TEST_QUESTIONS[kind],
        )
        for rel, value in build_case(spec).items():
            target = root / case_id / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(value)
    return root
