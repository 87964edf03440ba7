"""Fixtures of the harness self-tests: a mini corpus and the fake adapters' folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FAKES = HERE / "fakes"
sys.path.insert(0, str(HERE))

import minicorpus  # noqa: E402


@pytest.fixture(scope="session")
def mini_corpus(tmp_path_factory) -> Path:
    return minicorpus.build(tmp_path_factory.mktemp("corpus"))


@pytest.fixture
def fakes_on_path(monkeypatch):
    monkeypatch.setenv("ZARR_CONFORMANCE_ADAPTERS", str(FAKES))
    return FAKES
