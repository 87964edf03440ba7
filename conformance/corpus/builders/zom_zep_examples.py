"""ZEP 6's own JSON examples as must-reject stores (ZOM-019): never positive fixtures.

The v3 example's array is materialised as `array/zarr.json` under its root group: as printed it has
four faults ("|u1", "GZip", no array->bytes codec, `storage_transformers: null`), so besides the
example as is there is one case per fault in an otherwise valid document. The first v2 example is
not JSON (unbalanced braces); the v2 hierarchy example's `"filters": {}` is not a v2 value."""

from __future__ import annotations

import copy
import json

from ...resources import REPO_ROOT
from ..generator import add_case
from .table_kit import each

ZEP_EXAMPLES = REPO_ROOT / "tests" / "reference" / "zom" / "data"


def zep_text(name: str) -> bytes:
    return (ZEP_EXAMPLES / name).read_bytes()


def zep_v3_array() -> tuple[dict, dict]:
    """(root group zarr.json, the example array's zarr.json) of the ZEP's v3 hierarchy example."""
    example = json.loads(zep_text("zep6-example-v3-hierarchy.json"))
    root = {k: v for k, v in example.items() if k != "members"}
    return root, copy.deepcopy(example["members"]["array"])


def repaired_v3_array() -> dict:
    """The example array with its four faults fixed: the baseline each one-fault case starts from."""
    _, array = zep_v3_array()
    array["data_type"] = "uint8"
    array["codecs"] = [{"name": "bytes"}, {"name": "gzip", "configuration": {"level": 1}}]
    del array["storage_transformers"]
    return array


def v3_reject(slug, reason, requirements, description, change, needs):
    def build(w):
        root, example = zep_v3_array()
        array = example if change is None else repaired_v3_array()
        if change is not None:
            change(array)
        w.put("zarr.json", json.dumps(root, indent=2).encode())
        w.put("array/zarr.json", json.dumps(array, indent=2).encode())
        w.node = "array"
        w.expect_reject(reason)

    add_case(
        f"v3/zom/zep6-example-{slug}",
        kind="reject",
        build=build,
        requirements=requirements,
        description=description,
        needs=["dtype:uint8", "codec:gzip", *needs],
    )


# fmt: off
REJECTS = [
    # slug, reason, requirements, description, change, needs
    ("v3-array-as-printed", "invalid-data-type", ["ZOM-019", "V3-DT-001"], "ZEP 6's v3 example array exactly as printed ('|u1', 'GZip', no bytes codec, storage_transformers null) is not valid v3 metadata", None, [], {"tests": "data_type", "question": "unknown-extension"}),
    ("v3-data-type-u1", "invalid-data-type", ["ZOM-019", "V3-DT-001"], "ZEP 6's v3 example array with only its data_type fault left ('|u1' instead of 'uint8') is rejected", lambda a: a.update(data_type="|u1"), [], {"tests": "data_type", "question": "unknown-extension"}),
    ("v3-codec-GZip", "unknown-codec", ["ZOM-019", "V3-EXT-006"], "ZEP 6's v3 example array with only its codec-name fault left ('GZip' after the bytes codec) is rejected", lambda a: a.update(codecs=[{"name": "bytes"}, {"name": "GZip", "configuration": {"level": 1}}]), ["codec:bytes"], {"tests": "lower case", "question": "unknown-extension"}),
    ("v3-no-array-to-bytes-codec", "codec-order", ["ZOM-019", "V3-PIPE-001"], "ZEP 6's v3 example array with only its pipeline fault left (codecs [gzip], no array->bytes codec) is rejected", lambda a: a.update(codecs=[{"name": "gzip", "configuration": {"level": 1}}]), [], {"tests": "array -> bytes", "question": "codec-order"}),
    ("v3-storage-transformers-null", "invalid-storage-transformer", ["ZOM-019", "ZOM-013", "V3-ARR-007"], "ZEP 6's v3 example array with only storage_transformers null left (v3 allows a list or no key) is rejected", lambda a: a.update(storage_transformers=None), ["codec:bytes"], {"tests": "storage_transformers", "question": "null-optional"}),
]
# fmt: on

each(v3_reject, REJECTS)


def _v2_unbalanced(w):
    w.put(".zgroup", b'{"zarr_format": 2}')
    w.put("foo/.zarray", zep_text("zep6-example-v2-array-unbalanced.json.txt"))
    w.node = "foo"
    w.expect_reject("invalid-json")


add_case(
    "v2/zom/zep6-example-v2-array-unbalanced",
    kind="reject",
    build=_v2_unbalanced,
    requirements=["ZOM-019", "V2-META-001"],
    needs=["dtype:uint8"],
    description="ZEP 6's first v2 example text (its braces do not balance) stored as foo/.zarray is not JSON",
    question="unreadable-document",
    tests="JSON",
)


def _v2_filters(w):
    example = json.loads(zep_text("zep6-example-v2-hierarchy.json"))
    foo = dict(example["members"]["foo"])
    attributes = foo.pop("attributes")
    w.put(".zgroup", b'{"zarr_format": 2}')
    w.put(".zattrs", json.dumps(example["attributes"]).encode())
    w.put("foo/.zarray", json.dumps(foo, indent=2).encode())
    w.put("foo/.zattrs", json.dumps(attributes).encode())
    w.node = "foo"
    w.expect_reject("invalid-codec")


add_case(
    "v2/zom/zep6-example-v2-hierarchy-filters",
    kind="reject",
    build=_v2_filters,
    requirements=["ZOM-019", "ZOM-016", "V2-META-005"],
    needs=["dtype:uint8"],
    description="ZEP 6's v2 hierarchy example materialised: foo/.zarray with 'filters': {} is rejected",
    question="wrong-structure",
    tests="filters",
)
