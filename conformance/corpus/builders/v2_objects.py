"""The v2 extension tier: '|O' arrays with zarr-python's object codecs (vlen-utf8, vlen-bytes) as
the first filter. Not in the v2 spec (catalogue §9): never required."""

from __future__ import annotations

import numcodecs
import numpy as np

from ..data import strings
from ..generator import add_case, case, verdict
from .v2_kit import COMPRESSORS, compress, dumps, grid, region, reject_case, zarray

VLEN = {"vlen-utf8": numcodecs.VLenUTF8(), "vlen-bytes": numcodecs.VLenBytes()}


def _values(rng, shape, codec_id: str) -> np.ndarray:
    out = strings(rng, shape)
    if codec_id == "vlen-bytes":  # bytes, including a non-UTF-8 byte
        flat = out.ravel()
        for i, text in enumerate(flat):
            flat[i] = text.encode("utf-8") + (b"\xff" if i % 3 == 0 else b"")
    return out


def _put_object_array(
    w, doc: dict, data: np.ndarray, fill, skip
) -> tuple[np.ndarray, np.ndarray | None]:
    """Chunks encoded by the object codec (first filter) then the compressor; the overhang holds a
    value no element has; skipped chunks read as `fill` (None: undefined)."""
    codec_id = doc["filters"][0]["id"]
    shape, chunks = tuple(doc["shape"]), tuple(doc["chunks"])
    expected = data.copy()
    undefined = np.zeros(shape, bool) if fill is None else None
    junk = "\u2603junk" if codec_id == "vlen-utf8" else b"\x7fjunk"
    for index in np.ndindex(*grid(shape, chunks)):
        where = region(index, chunks, shape)
        if index in skip:
            if fill is None:
                undefined[where] = True
            else:
                expected[where] = fill
            continue
        block = np.empty(chunks, dtype=object)
        block[...] = junk
        block[tuple(slice(0, s.stop - s.start) for s in where)] = data[where]
        flat = block.ravel(order=doc["order"])
        w.put(
            ".".join(map(str, index)),
            compress(bytes(VLEN[codec_id].encode(flat)), doc["compressor"]),
        )
    return expected, undefined


with verdict(question="registered-extension"):
    for _codec, _fill, _fill_json, _comp in [
        ("vlen-utf8", "", "", "zlib"),
        ("vlen-bytes", None, None, "none"),
        ("vlen-utf8", "\u00e9t\u00e9", "\u00e9t\u00e9", "none"),
    ]:
        _slug = f"{_codec}-{_comp}" + ("-fill-text" if _fill else "")

        def _build(w, codec=_codec, fill=_fill, fill_json=_fill_json, comp=COMPRESSORS[_comp]):
            doc = zarray((5, 4), (2, 3), "|O", fill_json, compressor=comp, filters=[{"id": codec}])
            w.put(".zarray", dumps(doc))
            data = _values(w.rng, (5, 4), codec)
            expected, undefined = _put_object_array(w, doc, data, fill, skip={(1, 1)})
            w.expect_array(expected, undefined=undefined)

        add_case(
            f"v2/objects/{_slug}",
            kind="read",
            build=_build,
            tier="extension",
            needs=["dtype:object", f"codec:{_codec}"]
            + ([f"codec:{_comp}"] if _comp != "none" else [])
            + (["feature:fill-null"] if _fill is None else []),
            requirements=["V2-CHUNK-002", "V2-CHUNK-004"],
            description=f"v2 '|O' (5,4) in (2,3) chunks with filters [{_codec}], compressor {_comp}, fill "
            f"{_fill_json!r}: variable-length values incl. '' and non-ASCII, chunk 1.1 missing",
        )


with verdict(question="codec-input"):
    reject_case(
        "v2/objects/reject-no-object-codec",
        zarray((4,), (4,), "|O", None),
        "invalid-codec",
        ["V2-CHUNK-002"],
        "v2 '|O' array with no object codec among its filters is rejected (the chunks cannot be decoded)",
        needs=["dtype:object"],
        tier="extension",
    )


# ---- F order through the object codec (zarr-python before 3.3 stored F-ordered chunks transposed) ----
@case(
    "v2/objects/vlen-utf8-order-F",
    kind="read",
    needs=["dtype:object", "codec:vlen-utf8", "feature:order-F"],
    requirements=["V2-CHUNK-002", "V2-CHUNK-006"],
    description="v2 '|O' (5,4) in (2,3) chunks with order F and filters [vlen-utf8]: each chunk's values "
    "are encoded column by column, chunk 1.1 missing (fill '')",
    question="registered-extension",
)
def _(w):
    doc = zarray((5, 4), (2, 3), "|O", "", order="F", filters=[{"id": "vlen-utf8"}])
    w.put(".zarray", dumps(doc))
    expected, _ = _put_object_array(w, doc, _values(w.rng, (5, 4), "vlen-utf8"), "", skip={(1, 1)})
    w.expect_array(expected)


@case(
    "v2/objects/write-vlen-utf8-order-F",
    kind="write",
    needs=["dtype:object", "codec:vlen-utf8", "feature:order-F", "op:write"],
    requirements=["V2-CHUNK-002", "V2-CHUNK-006"],
    description="v2 write of '|O' (5,4) text with order F and filters [vlen-utf8]: each chunk holds its "
    "values column by column, so the reference reads them back exactly",
    question="registered-extension",
)
def _(w):
    doc = zarray((5, 4), (2, 3), "|O", "", order="F", filters=[{"id": "vlen-utf8"}])
    w.expect_write(metadata=doc, data=_values(w.rng, (5, 4), "vlen-utf8"))


# ---- pickle: decoding runs code the store carries -----------------------------------------------
@case(
    "v2/objects/reject-pickle-object-codec",
    kind="reject",
    needs=["dtype:object"],
    requirements=["V2-CHUNK-002"],
    description="v2 '|O' array whose object codec is pickle (as zarr-python 2 wrote with "
    "object_codec=Pickle()): unpickling runs code from the store, so reading must fail unless the "
    "user opts in",
    question="code-execution",
    tests="filters",
)
def _(w):
    doc = zarray((3,), (3,), "|O", None, filters=[{"id": "pickle", "protocol": 5}])
    w.put(".zarray", dumps(doc))
    values = np.array(["a", "bb", ""], dtype=object)
    w.put("0", bytes(numcodecs.Pickle(protocol=5).encode(values)))
    w.expect_reject("unsupported", "read")


@case(
    "v2/objects/write-vlen-utf8",
    kind="write",
    tier="extension",
    needs=["dtype:object", "codec:vlen-utf8", "codec:zlib", "op:write"],
    requirements=["V2-CHUNK-002", "V2-META-005"],
    description="v2 write of '|O' (5,4) text with filters [vlen-utf8] and zlib: reads back exactly, filters listed",
    question="registered-extension",
)
def _(w):
    doc = zarray(
        (5, 4), (2, 3), "|O", "", compressor=COMPRESSORS["zlib"], filters=[{"id": "vlen-utf8"}]
    )
    w.expect_write(
        metadata=doc, data=_values(w.rng, (5, 4), "vlen-utf8")
    )  # dtype and filters: by meaning
