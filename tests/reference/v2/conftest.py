"""Fixtures for the v2 reference tests."""

from __future__ import annotations

import pytest

from conformance.reference.formats.v2 import FORMAT


@pytest.fixture
def v2():
    return FORMAT
