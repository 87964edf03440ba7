"""v3-draft cases in the older layout zarr-python 2.11-2.18 writes with ZARR_V3_EXPERIMENTAL_API
(V3DRAFT-ZP2-*): `meta/root/...`, `data/root/...`, the `.../protocol/core/3.0` entry point,
typestr data types, `compressor: {codec: URI}` and the sharding URI without `/extensions/`.

Read cases are byte copies of (parts of) the frozen store that zarr-python 2.18.7 wrote
(tests/reference/v3draft/data/zp2_store, see its README and make_zp2_store.py); the expected
values are the ones that script wrote, re-derived here from the same formulas. Reject cases are
hand-built zp2-layout stores with one fault each. All need `format:v3-draft-zp2`."""

from __future__ import annotations

import json
from functools import cache

import numpy as np

from ...resources import REPO_ROOT
from ..generator import add_case, verdict
from .table_kit import each
from .v3draft_kit import reject_case

ZP2_STORE = REPO_ROOT / "tests" / "reference" / "v3draft" / "data" / "zp2_store"
ZP2 = "format:v3-draft-zp2"
PROTOCOL_URI = "https://purl.org/zarr/spec/protocol/core/3.0"
ZP2_ENTRY = {
    "zarr_format": PROTOCOL_URI,
    "metadata_encoding": PROTOCOL_URI,
    "metadata_key_suffix": ".json",
    "extensions": [],
}


@cache
def zp2_files() -> dict[str, bytes]:
    """Every key of the frozen zarr-python 2 store and its bytes."""
    if not ZP2_STORE.is_dir():
        raise FileNotFoundError(f"the frozen zarr-python 2 store is missing: {ZP2_STORE}")
    return {
        p.relative_to(ZP2_STORE).as_posix(): p.read_bytes()
        for p in sorted(ZP2_STORE.rglob("*"))
        if p.is_file()
    }


def copy_parts(w, *prefixes: str) -> None:
    """Byte copies of zarr.json and every key starting with one of `prefixes` ('' = all)."""
    for key, value in zp2_files().items():
        if key == "zarr.json" or any(key.startswith(p) for p in prefixes):
            w.put(key, value)


def _ints() -> np.ndarray:
    out = np.full((5, 7), 42, dtype="<i4")
    out[0:4, :] = np.arange(28, dtype="<i4").reshape(4, 7) - 10
    return out


def _floats() -> np.ndarray:
    out = np.full(6, np.nan, dtype=">f8")  # 'NaN' fill: the quiet NaN 0x7ff8000000000000
    out[4:6] = [-0.0, 1.5]
    return out


def _sharded() -> np.ndarray:
    out = np.full((6, 5), 7, dtype="<u2")
    out[0:2, 0:4] = np.arange(8, dtype="<u2").reshape(2, 4) + 100
    out[4:6, 2:5] = np.arange(6, dtype="<u2").reshape(2, 3) + 200
    return out


# fmt: off
ARRAYS = [
    # (case, node, copied prefixes, expected, attributes, needs, requirements, description)
    ("gzip-int32", "g/ints", ("meta/root/g/ints.", "data/root/g/ints/"), _ints, {"units": "m"}, ["dtype:int32", "codec:gzip"], ["V3DRAFT-ZP2-002", "V3DRAFT-ZP2-003"], "zarr-python 2 draft <i4 (5,7) in (2,3) gzip chunks at data/root/g/ints/c<i>/<j>, grid row 2 never written (fill 42)"),
    ("float64-big-endian-nan-fill", "floats_be", ("meta/root/floats_be.", "data/root/floats_be/"), _floats, {}, ["dtype:float64", "dtype:big-endian"], ["V3DRAFT-ZP2-003"], "zarr-python 2 draft '>f8' with no compressor and fill 'NaN': chunk c0 absent, c1 holds -0.0 and 1.5"),
    ("int16-F-blosc-dot", "forder", ("meta/root/forder.", "data/root/forder/"), lambda: np.arange(12, dtype="<i2").reshape(3, 4) * 3, {}, ["dtype:int16", "codec:blosc", "feature:order-F"], ["V3DRAFT-ZP2-002", "V3DRAFT-ZP2-003"], "zarr-python 2 draft '<i2' (3,4) in (2,3) chunks, chunk_memory_layout F, separator '.', blosc lz4 bit-shuffle"),
    ("bool-in-implicit-group", "implicit/deep/flags", ("meta/root/implicit/", "data/root/implicit/"), lambda: np.array([True, False, True, True, False]), {}, ["dtype:bool", "feature:implicit-groups"], ["V3DRAFT-ZP2-002", "V3DRAFT-ZP2-003"], "zarr-python 2 draft 'bool' array implicit/deep/flags whose ancestors have no metadata documents"),
    ("complex128-extension", "cplx", ("meta/root/cplx.", "data/root/cplx/"), lambda: np.array([1 + 2j, -3.5 - 0.25j], "<c16"), {}, ["dtype:complex128"], ["V3DRAFT-ZP2-003"], "zarr-python 2 draft complex128 written as its complex-dtypes extension data type with fill [0.0, 0.0]"),
    ("sharded", "sharded", ("meta/root/sharded.", "data/root/sharded/"), _sharded, {}, ["dtype:uint16", "feature:storage-transformers"], ["V3DRAFT-ZP2-004", "V3DRAFT-ZP2-002"], "zarr-python 2 draft sharding (.../spec/storage_transformers/sharding/1.0, chunks_per_shard [2,2]) '<u2' (6,5): shards c0/0, c1/0 and c1/1 only, fill 7 elsewhere"),
]
# fmt: on

with verdict(question="spec-read"):
    for _case, _node, _prefixes, _expected, _attrs, _needs, _reqs, _what in ARRAYS:

        def _build(w, node=_node, prefixes=_prefixes, expected=_expected, attrs=_attrs):
            copy_parts(w, *prefixes)
            w.node = node
            w.expect_array(expected(), attributes=attrs)

        add_case(
            f"v3-draft/zp2/{_case}",
            kind="read",
            build=_build,
            needs=[ZP2, *_needs],
            requirements=_reqs,
            description=_what,
        )


def _group_case(
    case_id, node, prefixes, attributes, members, requirements, description, *, needs=()
):
    def build(w):
        copy_parts(w, *prefixes)
        w.node = node
        w.expect_group(attributes=attributes, members=members)

    add_case(
        case_id,
        kind="read",
        build=build,
        needs=[ZP2, "node:group", *needs],
        requirements=requirements,
        description=description,
    )


# fmt: off
GROUPS = [
    # case_id, node, prefixes, attributes, members, requirements, description
    ("v3-draft/zp2/root-group", "", ("",), {"title": "zarr-python 2.x draft v3 fixture"}, { "cplx": "array", "floats_be": "array", "forder": "array", "g": "group", "implicit": "group", "sharded": "array", }, ["V3DRAFT-ZP2-001", "V3DRAFT-ZP2-002", "V3DRAFT-ZP2-004"], "the whole zarr-python 2.18.7 draft store: root group meta/root.group.json and its six children"),
    ("v3-draft/zp2/group-g", "g", ("meta/root/g", "data/root/g/"), {"spam": "ham", "eggs": 42}, {"ints": "array"}, ["V3DRAFT-ZP2-002", "V3DRAFT-ZP2-004"], "zarr-python 2 draft group g (meta/root/g.group.json = {'attributes': {...}}) with its array ints"),
    ("v3-draft/zp2/implicit-group", "implicit", ("meta/root/implicit/", "data/root/implicit/"), {}, {"deep": "group"}, ["V3DRAFT-ZP2-002"], "zarr-python 2 draft implicit group 'implicit' (no metadata document) has the one member deep", {"needs": ["feature:implicit-groups"]}),
]
# fmt: on

each(_group_case, GROUPS, question="spec-read")


# ---- must-reject: hand-built zp2 layouts with one fault ----------------------------------------------------


def zp2_array(**changes) -> dict:
    doc = {
        "attributes": {},
        "chunk_grid": {"chunk_shape": [2], "separator": "/", "type": "regular"},
        "chunk_memory_layout": "C",
        "data_type": "<i4",
        "extensions": [],
        "fill_value": 0,
        "shape": [4],
    }
    doc.update(changes)
    return doc


def zp2_reject(
    slug,
    reason,
    requirements,
    description,
    entry=ZP2_ENTRY,
    key="meta/root/x.array.json",
    **changes,
):
    reject_case(
        f"v3-draft/zp2-reject/{slug}",
        reason,
        requirements,
        description,
        entry=json.dumps(entry).encode(),
        docs={key: zp2_array(**changes), "data/root/x/c0": np.arange(2, dtype="<i4").tobytes()},
        needs=[ZP2, "dtype:int32"],
    )


# fmt: off
REJECTS = [
    # slug, reason, requirements, description[, options]
    ("entry-point-extra-member", "unknown-field", ["V3DRAFT-ZP2-001"], "zarr-python 2 draft entry point with a fifth member is rejected (exactly four are allowed)", {"tests": "entry point", "citation_note": "zarr-python 2's draft dialect is observed behaviour, not spec text (the citations.toml notes of V3DRAFT-ZP2-001 and -003 say what was observed): no sentence names what the case tests", "question": "unknown-member", "entry": {**ZP2_ENTRY, "extra": 1}}),
    ("entry-point-no-suffix", "missing-field", ["V3DRAFT-ZP2-001"], "zarr-python 2 draft entry point without metadata_key_suffix is rejected", {"tests": "entry point", "citation_note": "zarr-python 2's draft dialect is observed behaviour, not spec text (the citations.toml notes of V3DRAFT-ZP2-001 and -003 say what was observed): no sentence names what the case tests", "question": "missing-member", "entry": {k: v for k, v in ZP2_ENTRY.items() if k != "metadata_key_suffix"}}),
    ("entry-point-object-encoding", "invalid-metadata", ["V3DRAFT-ZP2-001"], "zarr-python 2 draft entry point whose metadata_encoding is the seed-002 object is rejected", {"tests": "entry point", "citation_note": "zarr-python 2's draft dialect is observed behaviour, not spec text (the citations.toml notes of V3DRAFT-ZP2-001 and -003 say what was observed): no sentence names what the case tests", "question": "wrong-structure", "entry": {**ZP2_ENTRY, "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"}}}),
    ("seed002-keys", "node-not-found", ["V3DRAFT-ZP2-002"], "zarr-python 2 draft entry point with seed-002 keys (meta/x.array.json, no meta/root/): node x does not exist", {"tests": "meta/root", "question": "no-node", "key": "meta/x.array.json"}),
    ("seed002-data-type", "invalid-data-type", ["V3DRAFT-ZP2-003"], "zarr-python 2 draft array with the seed-002 data_type 'int32' (zarr-python writes '<i4') is rejected", {"tests": "data_type", "citation_note": "zarr-python 2's draft dialect is observed behaviour, not spec text (the citations.toml notes of V3DRAFT-ZP2-001 and -003 say what was observed): no sentence names what the case tests", "question": "other-version-form", "data_type": "int32"}),
    ("codecs-member", "unknown-field", ["V3DRAFT-ZP2-003"], "zarr-python 2 draft array with a seed-002 'codecs' member (zarr-python uses 'compressor') is rejected", {"tests": "codecs", "question": "unknown-member", "codecs": []}),
    ("compressor-seed002-uri", "unknown-codec", ["V3DRAFT-ZP2-003"], "zarr-python 2 draft compressor under the seed-002 URI .../spec/codecs/gzip/1.0 is rejected", {"tests": "compressor", "question": "unknown-extension", "compressor": {"codec": "https://purl.org/zarr/spec/codecs/gzip/1.0", "configuration": {"level": 1}}}),
    ("dimension-separator-disagrees", "invalid-chunk-key-encoding", ["V3DRAFT-ZP2-003"], "zarr-python 2 draft dimension_separator '.' disagreeing with chunk_grid separator '/' is rejected", {"tests": "dimension_separator", "citation_note": "zarr-python 2's draft dialect is observed behaviour, not spec text (the citations.toml notes of V3DRAFT-ZP2-001 and -003 say what was observed): no sentence names what the case tests", "question": "invalid-value", "dimension_separator": "."}),
    ("seed002-sharding-uri", "must-understand", ["V3DRAFT-ZP2-004"], "zarr-python 2 draft array with the seed-002 sharding URI (with /extensions/) is not zarr-python's transformer", {"tests": "sharding", "question": "must-understand", "storage_transformers": [{"extension": "https://purl.org/zarr/spec/extensions/storage_transformers/sharding/1.0", "type": "indexed", "configuration": {"chunks_per_shard": [1]}}]}),
]
# fmt: on

each(zp2_reject, REJECTS)
