"""The harness runs the suite; it never imports it. The suite's modules are test modules that pytest
collects (and that import hypothesis strategies, adapters' steps, ...): a harness that imports them
drags them into every process that only plans, records or reports, and ties the runner to the
tests it runs. What both need (property ids, example settings, saved failures) lives in
conformance.harness.properties."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import conformance.harness

HARNESS = Path(conformance.harness.__file__).parent
FORBIDDEN = "conformance.suite"


def harness_modules() -> list[str]:
    return sorted(f"conformance.harness.{m.name}" for m in pkgutil.iter_modules([str(HARNESS)]))


def test_importing_every_harness_module_leaves_the_suite_unimported():
    # A fresh interpreter: this one has long imported the suite (the other tests use it).
    script = (
        "import importlib, json, sys\n"
        f"for name in {harness_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert len([m for m in loaded if m.startswith("conformance.harness.")]) >= len(
        harness_modules()
    )
    leaked = [m for m in loaded if m == FORBIDDEN or m.startswith(FORBIDDEN + ".")]
    assert not leaked, f"importing the harness imported {leaked}"


def imported_names(source: str) -> list[str]:
    """Every module an import statement names, at module level or inside a function (the import
    test above only sees the first kind), relative imports made absolute within the harness."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = ["conformance", "harness"][: 3 - node.level]
                base = ".".join([*parent, *([base] if base else [])])
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return names


def test_no_harness_module_imports_the_suite_even_lazily():
    offenders = {
        path.name: name
        for path in sorted(HARNESS.glob("*.py"))
        for name in imported_names(path.read_text("utf-8"))
        if name == FORBIDDEN or name.startswith(FORBIDDEN + ".")
    }
    assert not offenders, offenders


def test_the_import_scan_sees_lazy_and_relative_imports():
    # The scan itself must be able to fail: each of these reaches the suite.
    for source in (
        "def f():\n    from conformance.suite import property_id\n",
        "def f():\n    import conformance.suite.failures\n",
        "from .. import suite\n",
        "from ..suite.failures import save_found\n",
    ):
        assert any(n.startswith(FORBIDDEN) for n in imported_names(source)), source
