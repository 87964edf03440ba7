"""v2 write cases with steps (update_kit): regions and single elements written into existing v2
arrays with a compressor, column-major order and '/' chunk keys, non-zero and NaN fills, and
resizes. The arrays are (10, 13) in (4, 5) chunks unless a row says otherwise."""

from __future__ import annotations

from ..citations import citations_for
from ..questions import QUESTIONS
from .table_kit import each
from .update_kit import add_update, reference_view
from .v2_kit import COMPRESSORS, zarray

FILL_OF, DTYPE_OF = reference_view("v2")

REGION = ["V2-CHUNK-003", "V2-CHUNK-004", "V2-CHUNK-005"]
RESIZE = ["V2-CHUNK-004", "V2-CHUNK-005"]
W, R = "write", "resize"


def _case(case_id, question, requirements, description, dtype, fill, steps, **options):
    """options: shape, chunks, compressor (a COMPRESSORS name), order, separator, needs, path, initial."""
    shape, chunks = options.pop("shape", (10, 13)), options.pop("chunks", (4, 5))
    compressor = options.pop("compressor", "none")
    extra = {}
    needs = [*options.pop("needs", [])]
    if compressor != "none":
        needs.append(f"codec:{compressor}")
    if options.get("order", "C") == "F":
        needs.append("feature:order-F")
    separator = options.pop("separator", None)
    if separator is not None:
        extra["dimension_separator"] = separator
        if separator == "/":
            needs.append("feature:dimension-separator-slash")
    doc = zarray(
        shape,
        chunks,
        dtype,
        fill,
        order=options.pop("order", "C"),
        compressor=COMPRESSORS[compressor],
        **extra,
    )
    citation = None
    if question == "resize":  # an optional case: its sentences, cited all the same
        citation = [
            {"requirement": requirements[0], **c} for c in QUESTIONS["resize"].citation
        ] + citations_for(requirements)
    add_update(
        case_id,
        question,
        requirements,
        description,
        doc,
        steps,
        initial=options.pop("initial", False),
        path=options.pop("path", ""),
        needs=needs,
        fill_of=FILL_OF,
        dtype_of=DTYPE_OF,
        citation=citation,
    )
    if options:
        raise ValueError(f"{case_id}: unknown options {sorted(options)}")


NAN64_PAYLOAD = 0x7FF8000000000001
NAN64 = 0x7FF8000000000000

# fmt: off
CASES = [
    # case_id, question, requirements, description, dtype, fill, steps[, options]
    ("v2/update/region-zlib-order-F-slash", "region-write", [*REGION, "V2-CHUNK-006", "V2-META-007"],
     "v2 '<i4' (10,13) in (4,5) chunks, zlib, order F, dimension_separator '/', fill -3: a region [2:7, 3:11] and the element a[9,12] written into the fresh array: only the 7 touched chunks are stored (keys 0/0 ...), each column-major",
     "<i4", -3, [(W, ((2, 7), (3, 11)), "sample"), (W, (9, 12), "sample")], {"compressor": "zlib", "order": "F", "separator": "/", "needs": ["dtype:int32"]}),
    ("v2/update/overwrite-blosc-float32", "region-write", [*REGION, "V2-FILL-005"],
     "v2 '<f4' (10,13) at path 'a' (below the root group), blosc lz4, fill 0.5: the whole array written, then [3:9, 4:12] (partial chunks, two of them edge chunks), a[0,0] and the row a[5, :] overwritten",
     "<f4", 0.5, [(W, ((3, 9), (4, 12)), "sample"), (W, (0, 0), "sample"), (W, (5, (0, 13)), "sample")], {"compressor": "blosc", "initial": True, "path": "a", "needs": ["dtype:float32"]}),
    ("v2/update/nan-fill-float64-gzip", "region-write", [*REGION, "V2-FILL-001"],
     "v2 '<f8' (10,13), gzip, fill 'NaN': a chunk written as the NaN 0x7ff8000000000001 keeps its payload, a chunk written as the canonical NaN equals the fill (may be left out), an edge region holds sample values",
     "<f8", "NaN", [(W, ((0, 4), (0, 5)), ("bits", NAN64_PAYLOAD)), (W, ((4, 8), (5, 10)), ("bits", NAN64)), (W, ((8, 10), (9, 13)), "sample")], {"compressor": "gzip", "needs": ["dtype:float64"]}),
    ("v2/update/edge-partial-uint8-fill-255", "region-write", REGION,
     "v2 '|u1' (10,13) at path 'a' (below the root group), no compressor, fill 255: only the in-bounds part of edge chunks written ([8:10, 0:13] and [0:10, 12:13]), then one of their elements set back to 255",
     "|u1", 255, [(W, ((8, 10), (0, 13)), "sample"), (W, ((0, 10), (12, 13)), "sample"), (W, (9, 12), 255)], {"path": "a", "needs": ["dtype:uint8"]}),
    ("v2/update/big-endian-int16-dot-separator", "region-write", REGION,
     "v2 '>i2' (10,13), zlib, dimension_separator '.', fill 1000: regions written across chunk boundaries, one overwriting the other, and a whole chunk written as 1000 (may be left out)",
     ">i2", 1000, [(W, ((1, 6), (2, 9)), "sample"), (W, ((4, 10), (6, 13)), "sample"), (W, ((0, 4), (10, 13)), 1000)], {"compressor": "zlib", "separator": ".", "needs": ["dtype:int16", "dtype:big-endian"]}),
    ("v2/update/bool-fill-true", "region-write", [*REGION, "V2-FILL-005"],
     "v2 '|b1' (10,13), zlib, fill true: the element a[1,1] and a whole chunk written false, an edge region written true (the fill)",
     "|b1", True, [(W, (1, 1), False), (W, ((4, 8), (5, 10)), False), (W, ((8, 10), (0, 5)), True)], {"compressor": "zlib", "needs": ["dtype:bool"]}),
    ("v2/update/int64-elements-order-F", "region-write", [*REGION, "V2-CHUNK-006"],
     "v2 '<i8' (10,13), order F, no compressor, fill -9223372036854775808: three single elements written one by one, the last into the corner edge chunk",
     "<i8", -9223372036854775808, [(W, (5, 7), "sample"), (W, (0, 0), "sample"), (W, (9, 12), "sample")], {"order": "F", "needs": ["dtype:int64"]}),
    # -- resizing (v2 does not describe it: optional) --
    ("v2/update/resize-grow-zlib", "resize", RESIZE,
     "v2 '<i4' (8,10) in (4,5) chunks, zlib, fill 9: written whole, grown to (12,15) and [10:12, 0:15] written: the other new chunks stay unstored and read 9",
     "<i4", 9, [(R, (12, 15)), (W, ((10, 12), (0, 15)), "sample")], {"shape": (8, 10), "compressor": "zlib", "initial": True, "needs": ["dtype:int32"]}),
    ("v2/update/resize-shrink-grow-order-F", "resize", RESIZE,
     "v2 '<u2' (10,13), order F, dimension_separator '/', fill 4: written whole, shrunk to (5,6), grown back to (10,13) and [6:10, 7:13] written: the kept part and the written region read back; what the shrink may have left is undefined",
     "<u2", 4, [(R, (5, 6)), (R, (10, 13)), (W, ((6, 10), (7, 13)), "sample")], {"order": "F", "separator": "/", "initial": True, "needs": ["dtype:uint16"]}),
]
# fmt: on

each(_case, CASES)
