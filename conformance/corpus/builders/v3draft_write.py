"""v3-draft write cases: what lands in the store when a writer creates draft nodes.

The keys (meta/<P>.array.json, data/<P>/c<i>/<j>, never final-style c/<i>/<j>), the entry point
document, group documents, no ancestor documents for implicit groups, and data that the reference
reads back bit-exactly (V3DRAFT-KEY-*, V3DRAFT-META-*). What the documents say is judged by meaning:
the reference must open them (entry point, strict member sets) and they must describe the requested
node (write_semantics)."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import add_case
from .table_kit import each
from .v3draft_kit import (
    array_doc,
    chunk_id,
    endian_codec,
    grid,
    gzip_codec,
    numpy_dtype,
    sharding,
)

SPECIAL_FILLS = {"+Infinity": np.inf, "-Infinity": -np.inf, "NaN": np.nan}


def request_doc(shape, chunks, data_type, fill, **options) -> dict:
    """The array document of a write request: without `attributes` (they travel separately)."""
    doc = array_doc(shape, chunks, data_type, fill, **options)
    del doc["attributes"]
    return doc


def chunk_keys(path: str, shape, chunks, separator: str = "/") -> list[str]:
    prefix = f"data/{path}/" if path else "data/"
    return [prefix + chunk_id(i, separator) for i in np.ndindex(*grid(shape, chunks))]


def write_case(
    case_id,
    description,
    requirements,
    *,
    path,
    doc,
    needs,
    attributes=None,
    node_type="array",
    tier=None,
    **expect,
):
    """`doc` None makes a group write; array data is sampled to avoid the fill value."""

    def build(w):
        if node_type == "group":
            w.expect_write(
                node_type="group", path=path, metadata=None, attributes=attributes, **expect
            )
            return
        dtype = numpy_dtype(doc["data_type"])
        fill = np.array(SPECIAL_FILLS.get(doc["fill_value"], doc["fill_value"]), dtype)
        data = sample(w.rng, doc["shape"], dtype, avoid=fill)
        w.expect_write(path=path, metadata=doc, attributes=attributes, data=data, **expect)

    add_case(
        case_id,
        kind="write",
        build=build,
        needs=[*needs, "op:write"],
        tier=tier,
        requirements=requirements,
        description=description,
    )


_attrs = {"nested": {"a": [1, 2.5, None, True]}, "ünï": "日本", "empty": {}}
# fmt: off
WRITES = [
    # case_id, description, requirements[, options]
    ("v3-draft/write/array-foo-baz-keys", "draft write of array /foo/baz (4,4) in (2,2) chunks: zarr.json is the core entry point, metadata at meta/foo/baz.array.json, chunks data/foo/baz/c0/0..c1/1, no meta/foo.group.json", ["V3DRAFT-KEY-003", "V3DRAFT-KEY-004", "V3DRAFT-KEY-005", "V3DRAFT-KEY-008", "V3DRAFT-META-001", "V3DRAFT-META-002", "V3DRAFT-META-004", "V3DRAFT-META-018"], {"path": "foo/baz", "doc": request_doc((4, 4), (2, 2), "int32", 0), "needs": ["dtype:int32"], "required_keys": ["zarr.json", "meta/foo/baz.array.json", *chunk_keys("foo/baz", (4, 4), (2, 2))], "forbidden_keys": ["meta/foo.group.json", "meta/foo/baz.group.json", "data/foo/baz/c/1/0", "foo/baz/zarr.json"]}),
    ("v3-draft/write/root-array-exact-keys", "draft write of a root uint16 (5,7) array in (2,3) chunks gives exactly zarr.json, meta/array.json and the nine chunks data/c0/0..data/c2/2 (edge chunks stored full size)", ["V3DRAFT-KEY-003", "V3DRAFT-KEY-004", "V3DRAFT-KEY-007", "V3DRAFT-META-019"], {"path": "", "doc": request_doc((5, 7), (2, 3), "uint16", 3), "needs": ["dtype:uint16"], "keys": ["zarr.json", "meta/array.json", *chunk_keys("", (5, 7), (2, 3))]}),
    ("v3-draft/write/root-group", "draft write of the root group with no attributes gives exactly zarr.json and meta/group.json = {'attributes': {}}", ["V3DRAFT-META-016", "V3DRAFT-KEY-002", "V3DRAFT-META-001"], {"path": "", "doc": None, "node_type": "group", "needs": ["node:group"], "keys": ["zarr.json", "meta/group.json"]}),
    ("v3-draft/write/group-a-b", "draft write of group /a/b writes meta/a/b.group.json with its attributes and no meta/a.group.json", ["V3DRAFT-KEY-002", "V3DRAFT-KEY-008", "V3DRAFT-META-016", "V3DRAFT-META-017"], {"path": "a/b", "doc": None, "node_type": "group", "needs": ["node:group"], "attributes": {"spam": "ham", "eggs": [1, 2.5, None]}, "required_keys": ["zarr.json", "meta/a/b.group.json"], "forbidden_keys": ["meta/a.group.json", "a/b/zarr.json"]}),
    ("v3-draft/write/chunk-id-3d", "draft write of a 3-d int8 (2,3,4) array in (1,1,1) chunks stores chunk (1,2,3) at data/t/c1/2/3, never data/t/c/1/2/3", ["V3DRAFT-KEY-005", "V3DRAFT-KEY-004"], {"path": "t", "doc": request_doc((2, 3, 4), (1, 1, 1), "int8", 0), "needs": ["dtype:int8"], "required_keys": chunk_keys("t", (2, 3, 4), (1, 1, 1)), "forbidden_keys": ["data/t/c/1/2/3", "data/t/c/0/0/0", "t/c/1/2/3"]}),
    ("v3-draft/write/zero-d", "draft write of a 0-d float64 array stores its one chunk at data/s/c", ["V3DRAFT-KEY-005"], {"path": "s", "doc": request_doc((), (), "float64", 0), "needs": ["dtype:float64", "feature:0d"], "required_keys": ["meta/s.array.json", "data/s/c"], "forbidden_keys": ["data/s/c0", "data/s/c/0"]}),
    ("v3-draft/write/separator-dot", "draft write with chunk_grid separator '.' stores chunks data/a/c0.0 .. data/a/c2.1", ["V3DRAFT-META-009", "V3DRAFT-KEY-005"], {"path": "a", "doc": request_doc((5, 4), (2, 2), "int32", -1, separator="."), "needs": ["dtype:int32"], "required_keys": chunk_keys("a", (5, 4), (2, 2), "."), "forbidden_keys": ["data/a/c0/0", "data/a/c2/1"]}),
    ("v3-draft/write/layout-F", "draft write with chunk_memory_layout F (5,7) in (2,3) chunks reads back exactly", ["V3DRAFT-META-010"], {"path": "a", "doc": request_doc((5, 7), (2, 3), "int32", 0, layout="F"), "needs": ["dtype:int32", "feature:order-F"]}),
    ("v3-draft/write/gzip", "draft write with the gzip codec URI keeps codecs [gzip level 1] and reads back exactly", ["V3DRAFT-META-013", "V3DRAFT-META-012"], {"path": "a", "doc": request_doc((9, 5), (4, 3), "float64", 0, codecs=[gzip_codec(1)]), "needs": ["dtype:float64", "codec:gzip"]}),
    ("v3-draft/write/endian-big", "draft write with the endian codec (big) on int16 reads back exactly", ["V3DRAFT-META-013", "V3DRAFT-META-008"], {"path": "a", "doc": request_doc((6, 5), (4, 4), "int16", 0, codecs=[endian_codec("big")]), "needs": ["dtype:int16", "codec:endian"]}),
    ("v3-draft/write/sharding-keys", "draft write with sharding chunks_per_shard [2,2] of (7,5) in (2,2) chunks stores the four shards data/a/c0/0..c1/1 and no chunk keys such as data/a/c3/2", ["V3DRAFT-META-015", "V3DRAFT-META-014"], {"path": "a", "doc": request_doc((7, 5), (2, 2), "uint16", 7, transformers=[sharding([2, 2])]), "needs": ["dtype:uint16", "feature:storage-transformers"], "required_keys": ["data/a/c0/0", "data/a/c0/1", "data/a/c1/0", "data/a/c1/1"], "forbidden_keys": ["data/a/c3/2", "data/a/c2/0", "data/a/c3/0", "data/a/c2/2"]}),
    ("v3-draft/write/attributes", "draft write of an array with nested unicode attributes stores them in the array document", ["V3DRAFT-META-017", "V3DRAFT-META-004"], {"path": "x", "doc": request_doc((3,), (2,), "uint8", 0), "needs": ["dtype:uint8"], "attributes": _attrs}),
    ("v3-draft/write/fill-plus-infinity", "draft write of float32 with fill '+Infinity' reads back exactly", ["V3DRAFT-META-011"], {"path": "x", "doc": request_doc((6,), (4,), "float32", "+Infinity"), "needs": ["dtype:float32"]}),
    ("v3-draft/write/bool-edge-chunks", "draft write of bool (5,7) in (4,4) chunks, fill true, stores full-size edge chunks", ["V3DRAFT-META-019", "V3DRAFT-META-006"], {"path": "b", "doc": request_doc((5, 7), (4, 4), "bool", True), "needs": ["dtype:bool"], "required_keys": chunk_keys("b", (5, 7), (4, 4))}),
]
# fmt: on

each(write_case, WRITES, question="spec-write")
