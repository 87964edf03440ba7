"""Write cases with steps, as users write (v3_update, v2_update): after creating the array the
writer writes regions and single elements into it, overwrites what it wrote, writes values equal
to the fill and resizes the array. A row names its steps as data:

    ("write", region, values)   region: per dimension an int (one index) or (start, stop);
                                values: "sample" (seeded values that never equal the fill),
                                "fill" (the fill value), "mixed" (sample values, every other one
                                the fill), or a number / bit pattern ("bits", int) for every element
    ("resize", shape)

The generator runs the steps through the reference (conformance.corpus.updates) and records the
array it reads at the end, the elements the spec leaves open and the keys."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..data import sample
from ..generator import add_case
from ..updates import Resize, Write
from .v3_kit import bits

UPDATE_NEEDS = ("op:write", "op:update")


def region_shape(region) -> tuple[int, ...]:
    """The shape of the values a region takes (an index drops its dimension, as numpy's a[i])."""
    return tuple(r[1] - r[0] for r in region if not isinstance(r, int))


def values_for(
    kind: Any, shape: tuple[int, ...], dtype: np.dtype, fill: np.ndarray, rng
) -> np.ndarray:
    if isinstance(kind, str) and kind == "sample":
        return sample(rng, shape, dtype, avoid=fill)
    if isinstance(kind, str) and kind == "fill":
        return np.full(shape, fill, dtype=dtype)
    if isinstance(kind, str) and kind == "mixed":
        values = sample(rng, shape, dtype, avoid=fill)
        values.reshape(-1)[::2] = fill
        return values
    if isinstance(kind, tuple) and kind[0] == "bits":
        return np.full(shape, bits(dtype, kind[1]), dtype=dtype)
    return np.full(shape, kind, dtype=dtype)


def make_steps(rows, dtype: np.dtype, fill: np.ndarray, rng) -> list:
    steps: list = []
    for row in rows:
        if row[0] == "resize":
            steps.append(Resize(tuple(row[1])))
            continue
        _, region, kind = row
        region = tuple(r if isinstance(r, int) else (int(r[0]), int(r[1])) for r in region)
        values = values_for(kind, region_shape(region), dtype, fill, rng)
        steps.append(Write(region, values))
    return steps


def add_update(
    case_id: str,
    question: str,
    requirements,
    description: str,
    doc: dict,
    steps,
    *,
    initial: bool = False,
    path: str = "",
    needs=(),
    fill_of=None,
    dtype_of=None,
    citation=None,
) -> None:
    """One write case with steps. `doc`: the array document; `initial`: the writer first writes
    seeded values over the whole array; `path`: the array's node path (default: the root); `fill_of(doc)` / `dtype_of(doc)`: the fill value (0-d)
    and NumPy data type the document stands for (the format's own reading)."""
    needs = [*UPDATE_NEEDS, *needs]
    if any(row[0] == "resize" for row in steps):
        needs.append("feature:resize")

    def build(w):
        dtype, fill = dtype_of(doc), fill_of(doc)
        shape = tuple(doc["shape"])
        data = sample(w.rng, shape, dtype, avoid=fill) if initial else None
        w.expect_update(
            metadata=doc, data=data, path=path, steps=make_steps(steps, dtype, fill, w.rng)
        )

    add_case(
        case_id,
        kind="write",
        build=build,
        requirements=requirements,
        description=description,
        needs=needs,
        question=question,
        citation=citation,
    )


def reference_view(format_name: str):
    """(fill_of, dtype_of) through the reference: the fill value and data type it reads from an
    array document (an exact 0-d value: NaN payloads and -0.0 kept)."""
    from ...reference import get_format
    from ...reference.stores import MemoryStore

    def opened(doc):
        return get_format(format_name).create_array(MemoryStore(), "", doc)

    def fill_of(doc):
        return np.asarray(opened(doc).fill_value)

    def dtype_of(doc):
        return np.dtype(opened(doc).dtype)

    return fill_of, dtype_of
