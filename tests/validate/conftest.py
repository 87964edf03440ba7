"""The validator tests use the shared loopback servers and the in-process CLI runner."""

from __future__ import annotations

import pytest

from conformance.testing.documents import write_files


@pytest.fixture
def run_cli(validate_cli):
    return validate_cli


@pytest.fixture
def store_dir(tmp_path):
    """A function writing {key: bytes or JSON} into a fresh store directory; returns its path."""
    return lambda files, name="data.zarr": write_files(tmp_path / name, files)
