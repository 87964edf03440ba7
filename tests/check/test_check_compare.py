"""compare(): exact bit for bit, a value-exact change of type, or wrong data (how many, where)."""

from __future__ import annotations

import numpy as np

from conformance.check.compare import compare


def objects(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def test_exact_means_every_bit_nan_payloads_and_signed_zeros_included():
    a = np.array([np.nan, -0.0, 1.0], dtype="<f4")
    assert compare(a, a.astype(">f4")).outcome == "exact"  # byte order is not a value
    b = a.copy()
    b.view(np.uint32)[0] ^= 1  # another NaN payload
    assert compare(a, b).outcome == "wrong-data"
    assert compare(a, np.array([np.nan, 0.0, 1.0], dtype="<f4")).outcome == "wrong-data"


def test_wrong_data_says_how_many_and_where_in_array_coordinates():
    expected = np.arange(12, dtype="<i4").reshape(3, 4)
    observed = expected.copy()
    observed[1, 2] = observed[2, 3] = -1
    result = compare(expected, observed, origin=(10, 20))
    assert result.outcome == "wrong-data"
    assert (result.differing, result.compared) == (2, 12)
    assert result.first == [(11, 22), (12, 23)]
    assert "2 of 12 elements differ bit for bit, first at (11, 22), (12, 23)" in result.message


def test_a_lossless_widening_is_a_type_change_naming_both_types():
    expected = np.array([1, -2, 2**31 - 1], dtype="<i4")
    result = compare(expected, expected.astype("<i8"))
    assert result.outcome == "type-changed"
    assert result.types == {"expected": "<i4", "observed": "<i8"}
    f4 = np.array([0.1, np.inf], dtype="<f4")
    assert compare(f4, f4.astype("<f8")).outcome == "type-changed"
    strings = objects(["a", "bc", ""])
    assert compare(strings, np.array(["a", "bc", ""], dtype="<U2")).outcome == "type-changed"


def test_a_widening_that_loses_values_is_wrong_data():
    big = np.array([2**53 + 1, 5], dtype="<i8")
    result = compare(big, big.astype("<f8"))  # 2**53 + 1 is no double
    assert result.outcome == "wrong-data" and result.differing == 1
    assert result.types == {"expected": "<i8", "observed": "<f8"}
    flags = np.array([True, False])
    assert compare(flags, np.array([2, 0], dtype="u1")).outcome == "wrong-data"  # 2 is no bool
    blobs = objects([b"a\x00", b"b"])  # a trailing NUL is not a value of |S2
    assert compare(blobs, np.array([b"a", b"b"], dtype="|S2")).outcome == "wrong-data"


def test_shape_and_object_differences():
    a = np.zeros((2, 3), dtype="<u2")
    assert compare(a, np.zeros((1, 2, 3), dtype="<u2")).outcome == "wrong-data"
    assert compare(objects(["x", "y"]), objects(["x", b"y"])).differing == 1


def test_undefined_elements_are_not_compared():
    expected = np.zeros(4, dtype="<i2")
    observed = np.array([0, 0, 7, 7], dtype="<i2")
    defined = np.array([True, True, False, False])
    assert compare(expected, observed, defined).outcome == "exact"
    assert compare(expected, observed).differing == 2


def test_large_arrays_are_compared_in_blocks():
    expected = np.arange(1_000_000, dtype="<f8")
    observed = expected.copy()
    observed[1:] *= -1  # (not 0.0: -0.0 has other bits)
    result = compare(expected, observed)
    assert (result.differing, result.compared) == (999_999, 1_000_000)
    assert result.first == [(1,), (2,), (3,)]
