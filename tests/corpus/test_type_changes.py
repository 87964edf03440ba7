"""Cause 1 of issue 16: exact values in another data type are not wrong data. The judge compares
after a lossless widening of the expected values into the returned type: equal bit for bit there,
it is a type change (TypeProblem, outcome `type-changed`, both types named); anything else is a
DataProblem. The old judge reported every kind or itemsize mismatch as a data problem, so GDAL's
documented widenings (bool as Byte, int8 as Int16, float16 as Float32) counted as silent
corruption."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.corpus.judge import DataProblem, TypeProblem, compare_arrays


@pytest.mark.parametrize(
    "expected, observed",
    [
        (np.array([True, False, True]), np.array([1, 0, 1], dtype="u1")),
        (np.array([-128, 0, 127], dtype="i1"), np.array([-128, 0, 127], dtype="<i2")),
        (np.array([0.5, -0.0, np.inf], dtype="<f2"), np.array([0.5, -0.0, np.inf], dtype="<f4")),
        (np.array([b"ab", b"c"], dtype="S2"), np.array(["ab", "c"], dtype="U2")),
        (np.array([b"ab", b"c"], dtype="S2"), np.array(["ab", "c"], dtype=object)),
        (np.array([1, 2], dtype=">i4"), np.array([1, 2], dtype="<i8")),
    ],
)
def test_value_exact_in_another_type_is_a_type_change(expected, observed):
    (problem,) = compare_arrays(expected, observed)
    assert isinstance(problem, TypeProblem) and not isinstance(problem, DataProblem)
    assert problem.types == (expected.dtype.str, observed.dtype.str)


@pytest.mark.parametrize(
    "expected, observed",
    [
        (np.array([True, False]), np.array([1, 2], dtype="u1")),  # 2 is no bool
        (np.array([-1, 5], dtype="i1"), np.array([255, 5], dtype="u1")),  # sign lost
        (np.array([0.1, 1.0], dtype="<f8"), np.array([0.1, 1.0], dtype="<f4")),  # narrowed
        (np.array([70000, 1], dtype="<i4"), np.array([4464, 1], dtype="<i2")),  # wrapped
        (np.array([-0.0], dtype="<f2"), np.array([0.0], dtype="<f4")),  # the sign of zero
        (np.array([b"\xff"], dtype="S1"), np.array(["\xff"], dtype="U1")),  # not ASCII
    ],
)
def test_a_lossy_or_different_value_is_wrong_data(expected, observed):
    problems = compare_arrays(expected, observed)
    assert problems and all(isinstance(p, DataProblem) for p in problems)


def test_same_type_and_values_is_no_problem():
    data = np.array([np.nan, -0.0, 1.0], dtype="<f4")
    assert compare_arrays(data, data.copy()) == []
    assert compare_arrays(data, data.astype(">f4")) == []  # byte order is not a type change
