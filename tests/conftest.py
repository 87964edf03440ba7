"""Shared fixtures for the suite's own tests."""

from __future__ import annotations

import pytest

from conformance.reference import MemoryStore

pytest_plugins = ["conformance.testing.fixtures"]


@pytest.fixture
def memory_store() -> MemoryStore:
    return MemoryStore()
