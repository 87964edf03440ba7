"""The linters run at one version everywhere: ./dev lint and tox (requirements/lint.txt) and
pre-commit (.pre-commit-config.yaml), so that a commit hook never disagrees with CI."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def locked(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_pre_commit_ruff_is_the_locked_ruff():
    config = (REPO / ".pre-commit-config.yaml").read_text()
    versions = set(re.findall(r'"ruff==([^"]+)"', config))
    assert versions == {locked(REPO / "requirements" / "lint.txt")["ruff"]}, versions


def test_lint_lock_agrees_with_the_test_lock():
    """lint.txt installs next to pinned.txt (./dev lint): a shared package has one version."""
    test, lint = (
        locked(REPO / "requirements" / "pinned.txt"),
        locked(REPO / "requirements" / "lint.txt"),
    )
    assert {name: (test[name], v) for name, v in lint.items() if test.get(name, v) != v} == {}


def test_direct_pins_are_in_the_lock():
    """pinned.in (what a person edits) and pinned.txt (what installs) say the same versions."""
    direct = locked(REPO / "requirements" / "pinned.in")
    lock = locked(REPO / "requirements" / "pinned.txt")
    assert {name: (v, lock.get(name)) for name, v in direct.items() if lock.get(name) != v} == {}


def test_mypy_checks_what_pyproject_says():
    mypy = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    for path in mypy["files"]:
        assert (REPO / path).exists(), path
