"""v3 write cases with steps (update_kit): regions and single elements written into existing
arrays, partial and edge chunks, overwrites, values equal to a non-zero or NaN-payload fill, sharded
arrays (a partial write rewrites the shard, whose [bytes, crc32c] index the reference checks on
the way back) and resizes. Most arrays are (10, 13) in (4, 5) chunks: a 3 x 3 grid whose last row
and column of chunks overhang the array."""

from __future__ import annotations

from ..citations import citations_for
from ..questions import QUESTIONS
from .table_kit import each
from .update_kit import add_update, reference_view
from .v3_codecs_kit import CRC32C, LE, RAW, blosc_codec, gzip_codec, needs_for, sharding, transpose
from .v3_kit import array_doc, dtype_needs

FILL_OF, DTYPE_OF = reference_view("v3")

REGION = ["V3-GRID-003", "V3-FILL-009", "V3-GRID-004"]
SHARD = ["V3-GRID-003", "V3-SHARD-014", "V3-SHARD-007", "V3-SHARD-008", "V3-CRC-002"]
RESIZE = ["V3-GRID-010", "V3-FILL-009"]


def _case(case_id, question, requirements, description, data_type, fill, steps, **options):
    """options: shape, chunks, codecs, needs, path, initial (write seeded values over the array first)."""
    shape, chunks = options.pop("shape", (10, 13)), options.pop("chunks", (4, 5))
    codecs = options.pop("codecs", None)
    doc = array_doc(shape, chunks, data_type, fill, codecs=codecs)
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
        needs=[*dtype_needs(data_type), *needs_for(doc["codecs"]), *options.pop("needs", [])],
        fill_of=FILL_OF,
        dtype_of=DTYPE_OF,
        citation=citation,
    )
    if options:
        raise ValueError(f"{case_id}: unknown options {sorted(options)}")


W, R = "write", "resize"
NAN32_PAYLOAD = 0x7FC00001
NAN32 = 0x7FC00000
NAN64_PAYLOAD = 0x7FF8000000000001
NAN64_NEGATIVE = 0xFFF8000000000000
NEG_ZERO32 = 0x80000000
SHARDED = sharding((2, 5), [LE], [LE, CRC32C])

# fmt: off
CASES = [
    # case_id, question, requirements, description, data type, fill, steps[, options]
    ("v3/update/region-int32-fill-42", "region-write", REGION,
     "v3 int32 (10,13) in (4,5) chunks, fill 42: one region [2:7, 3:11] written into the fresh array touches 6 of 9 chunks, partly; the other 3 are not stored and everything outside the region reads 42",
     "int32", 42, [(W, ((2, 7), (3, 11)), "sample")]),
    ("v3/update/elements-uint16-fill-max", "region-write", REGION,
     "v3 uint16 (10,13) at path 'a', fill 65535: three single elements written one by one (a[5,7], a[0,0], a[9,12] in the corner edge chunk) store exactly those 3 chunks, each otherwise 65535",
     "uint16", 65535, [(W, (5, 7), "sample"), (W, (0, 0), "sample"), (W, (9, 12), "sample")], {"path": "a"}),
    ("v3/update/edge-partial-float64", "region-write", REGION,
     "v3 float64 (10,13), fill -1.5: the in-bounds part of the corner edge chunk [8:10, 10:13] and then the last row a[9, :] (an index drops the dimension) are written into the fresh array",
     "float64", -1.5, [(W, ((8, 10), (10, 13)), "sample"), (W, (9, (0, 13)), "sample")]),
    ("v3/update/overwrite-int16", "region-write", REGION,
     "v3 int16 (10,13) at path 'a', fill -7: the whole array written, then overwritten in [3:9, 4:12] (across 4 chunks, two of them edge chunks), in a[0,0] and in the row a[5, :]: earlier values survive around every overwrite",
     "int16", -7, [(W, ((3, 9), (4, 12)), "sample"), (W, (0, 0), "sample"), (W, (5, (0, 13)), "sample")], {"initial": True, "path": "a"}),
    ("v3/update/fill-valued-uint8", "region-write", REGION,
     "v3 uint8 (10,13), fill 200: a whole chunk written as 200 (may be stored or not), a chunk written half 200, a column written and then overwritten with 200 (its chunk then holds only the fill): every element reads back, untouched chunks stay unstored",
     "uint8", 200, [(W, ((0, 4), (0, 5)), "fill"), (W, ((4, 8), (5, 10)), "mixed"), (W, ((0, 10), (10, 13)), "sample"), (W, ((0, 4), (10, 13)), "fill")]),
    ("v3/update/negative-zero-float32-fill-0", "region-write", [*REGION, "V3-FILL-006"],
     "v3 float32 (10,13), fill 0.0: a whole chunk written as -0.0 is not the fill (another bit pattern) and must read back as -0.0; a chunk written as +0.0 equals the fill and may be left out",
     "float32", 0.0, [(W, ((0, 4), (0, 5)), ("bits", NEG_ZERO32)), (W, ((4, 8), (0, 5)), 0.0), (W, ((8, 10), (5, 10)), "sample")]),
    ("v3/update/nan-payload-fill-float32", "region-write", [*REGION, "V3-FILL-006", "V3-FILL-005"],
     "v3 float32 (10,13), fill '0x7fc00001' (a NaN with a payload): a chunk written as the canonical NaN 0x7fc00000 is not the fill and must keep its bits; a chunk written as 0x7fc00001 equals the fill and may be left out",
     "float32", "0x7fc00001", [(W, ((0, 4), (0, 5)), ("bits", NAN32)), (W, ((0, 4), (5, 10)), ("bits", NAN32_PAYLOAD)), (W, ((4, 10), (2, 12)), "sample")]),
    ("v3/update/nan-fill-float64-payloads", "region-write", [*REGION, "V3-FILL-004", "V3-FILL-005"],
     "v3 float64 (10,13), fill 'NaN' (canonical): a chunk written as the NaN 0x7ff8000000000001 and an edge region written as the negative NaN 0xfff8000000000000 are not the fill and keep their bits",
     "float64", "NaN", [(W, ((4, 8), (5, 10)), ("bits", NAN64_PAYLOAD)), (W, ((8, 10), (0, 13)), ("bits", NAN64_NEGATIVE)), (W, (1, 1), "sample")]),
    ("v3/update/bool-fill-true", "region-write", [*REGION, "V3-FILL-001"],
     "v3 bool (10,13), fill true: the element a[1,1] and a whole chunk written false, an edge chunk written true (the fill: may be left out)",
     "bool", True, [(W, (1, 1), False), (W, ((4, 8), (5, 10)), False), (W, ((8, 10), (0, 5)), True)]),
    ("v3/update/int64-fill-min", "region-write", [*REGION, "V3-FILL-002"],
     "v3 int64 (10,13), fill -9223372036854775808: a region across the chunk boundaries [3:6, 4:11] and an element in the corner chunk are written; everything else reads the int64 minimum exactly",
     "int64", -9223372036854775808, [(W, ((3, 6), (4, 11)), "sample"), (W, (9, 12), "sample")]),
    ("v3/update/uint64-fill-max-overwrite", "region-write", [*REGION, "V3-FILL-002"],
     "v3 uint64 (10,13), fill 18446744073709551615: the whole array written, then [0:4, 0:5] set back to the fill (its chunk then equals the fill) and a[7, 2] overwritten",
     "uint64", 18446744073709551615, [(W, ((0, 4), (0, 5)), "fill"), (W, (7, 2), "sample")], {"initial": True}),
    ("v3/update/complex128-region", "region-write", [*REGION, "V3-FILL-007"],
     "v3 complex128 (10,13), fill [0.5, -1.0]: a region [6:10, 0:7] across edge chunks written into the fresh array reads back bit for bit, the rest as 0.5-1j",
     "complex128", [0.5, -1.0], [(W, ((6, 10), (0, 7)), "sample")]),
    ("v3/update/region-uint32-3d", "region-write", REGION,
     "v3 uint32 (5,6,7) in (2,4,3) chunks, fill 7: a 3-d region [1:4, 3:6, 2:7] and the element a[4,0,6] in the corner chunk written into the fresh array",
     "uint32", 7, [(W, ((1, 4), (3, 6), (2, 7)), "sample"), (W, (4, 0, 6), "sample")], {"shape": (5, 6, 7), "chunks": (2, 4, 3)}),
    ("v3/update/transpose-gzip-float32", "region-write", [*REGION, "V3-TRANS-001", "V3-GZIP-002"],
     "v3 float32 (10,13) with codecs [transpose [1,0], bytes, gzip], fill 0.25: the whole array written, then a region [2:9, 3:12] and an element overwritten: each partial chunk is decoded, changed and encoded again",
     "float32", 0.25, [(W, ((2, 9), (3, 12)), "sample"), (W, (9, 12), "sample")], {"initial": True, "codecs": [transpose([1, 0]), LE, gzip_codec(1)]}),
    ("v3/update/blosc-int32-overwrite", "region-write", [*REGION, "V3-BLOSC-004"],
     "v3 int32 (10,13) with codecs [bytes, blosc lz4 shuffle], fill -1: a region written into the fresh array, then a larger region over it and a single element: overwrites of chunks written moments before",
     "int32", -1, [(W, ((0, 6), (0, 6)), "sample"), (W, ((2, 10), (3, 13)), "sample"), (W, (1, 1), "sample")], {"codecs": [LE, blosc_codec("lz4", 5, "shuffle", 4, 0)]}),
    # -- sharded: the key is the shard's; a partial write rewrites it with a new index --
    ("v3/update/sharded-region-int32", "region-write", SHARD,
     "v3 sharded int32 (10,13) in [4,10] shards of [2,5] chunks, index [bytes, crc32c], fill 3: a region [1:3, 2:8] inside one shard written into the fresh array: one shard key, whose index marks the untouched inner chunks empty or stores them",
     "int32", 3, [(W, ((1, 3), (2, 8)), "sample")], {"chunks": (4, 10), "codecs": [SHARDED]}),
    ("v3/update/sharded-overwrite-uint16", "region-write", SHARD,
     "v3 sharded uint16 (10,13) at path 'a' in [4,10] shards of [2,5] chunks, index [bytes, crc32c], fill 9: the whole array written, then exactly one inner chunk [4:6, 0:5] and an element in the edge shard overwritten: each shard is rewritten with a valid index",
     "uint16", 9, [(W, ((4, 6), (0, 5)), "sample"), (W, (9, 12), "sample")], {"initial": True, "path": "a", "chunks": (4, 10), "codecs": [SHARDED]}),
    ("v3/update/sharded-edge-shard-float32", "region-write", SHARD,
     "v3 sharded float32 (10,13) in [4,10] shards of [2,5] chunks with inner [bytes, gzip], fill NaN: only the in-bounds corner [8:10, 10:13] of the edge shard is written: its index still covers all 4 inner chunks",
     "float32", "NaN", [(W, ((8, 10), (10, 13)), "sample")], {"chunks": (4, 10), "codecs": [sharding((2, 5), [LE, gzip_codec(1)], [LE, CRC32C])]}),
    ("v3/update/sharded-fill-inner-chunk-int8", "region-write", [*SHARD, "V3-SHARD-017"],
     "v3 sharded int8 (10,13) in [4,10] shards of [2,5] chunks, fill -5: the whole array written, then one inner chunk and then a whole shard set back to -5: the inner chunk may be stored or marked empty, the shard may be left out",
     "int8", -5, [(W, ((0, 2), (5, 10)), "fill"), (W, ((4, 8), (0, 10)), "fill"), (W, (9, 0), "sample")], {"initial": True, "chunks": (4, 10), "codecs": [sharding((2, 5), [RAW], [LE, CRC32C])]}),
    ("v3/update/sharded-index-start-uint8", "region-write", [*SHARD, "V3-SHARD-010"],
     "v3 sharded uint8 (10,13) in [4,10] shards of [2,5] chunks with the index at the start, fill 1: two overlapping regions written into the fresh array; offsets count from the start of the rewritten shard",
     "uint8", 1, [(W, ((0, 6), (3, 9)), "sample"), (W, ((5, 10), (7, 13)), "sample")], {"chunks": (4, 10), "codecs": [sharding((2, 5), [RAW], [LE, CRC32C], "start")]}),
    # -- resizing (an implementation note: optional) --
    ("v3/update/resize-grow-aligned-int32", "resize", RESIZE,
     "v3 int32 (8,10) in (4,5) chunks, fill 9: written whole, then grown to (12,15): the new rows and columns, where no chunk ever was, read 9 and no chunk is added",
     "int32", 9, [(R, (12, 15))], {"initial": True, "shape": (8, 10)}),
    ("v3/update/resize-grow-edge-float64", "resize", [*RESIZE, "V3-GRID-005"],
     "v3 float64 (10,13), fill 2.5: written whole, then grown to (14,16): new chunks read 2.5; the former overhang of the old edge chunks (recommended, not required, to hold the fill) is undefined",
     "float64", 2.5, [(R, (14, 16))], {"initial": True}),
    ("v3/update/resize-shrink-uint16", "resize", RESIZE,
     "v3 uint16 (10,13), fill 4: written whole, then shrunk to (5,6): the kept part reads back; chunks wholly outside may be deleted or kept",
     "uint16", 4, [(R, (5, 6))], {"initial": True}),
    ("v3/update/resize-shrink-grow-int16", "resize", [*RESIZE, "V3-GRID-005"],
     "v3 int16 (10,13), fill -2: written whole, shrunk to (5,6), grown back to (10,13) and [6:10, 7:13] written: the kept part and the new region read back exactly; what the shrink may have left is undefined",
     "int16", -2, [(R, (5, 6)), (R, (10, 13)), (W, ((6, 10), (7, 13)), "sample")], {"initial": True}),
    ("v3/update/resize-grow-then-write-uint8", "resize", RESIZE,
     "v3 uint8 (6,7) in (4,5) chunks, fill 3: created empty, grown to (9,12), then [4:9, 5:12] written across the old edge: only the touched chunks are stored, the rest reads 3",
     "uint8", 3, [(R, (9, 12)), (W, ((4, 9), (5, 12)), "sample")], {"shape": (6, 7)}),
    ("v3/update/sharded-resize-grow-int32", "resize", [*RESIZE, "V3-SHARD-014"],
     "v3 sharded int32 (8,10) in [4,10] shards of [2,5] chunks, fill 6: written whole, grown to (12,20) and [8:12, 10:20] written into the new shard: the other new shards stay unstored and read 6",
     "int32", 6, [(R, (12, 20)), (W, ((8, 12), (10, 20)), "sample")], {"initial": True, "shape": (8, 10), "chunks": (4, 10), "codecs": [SHARDED]}),
]
# fmt: on

each(_case, CASES)
