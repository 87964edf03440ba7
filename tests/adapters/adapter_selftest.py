"""Helpers for the adapter self-tests: running a snippet of code with the implementation itself in
the adapter's own environment (made through the harness's provisioning), to make stores the adapter
must read and to read back what it wrote; bit-exact comparison."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
from pathlib import Path

import numpy as np

from conformance.harness import envs
from conformance.harness.client import child_env
from conformance.harness.config import find_adapter

_snippets = itertools.count()


def run_python(adapter: str, code: str, *args: str) -> str:
    """Run `code` with the python of the adapter's own venv (made through the harness)."""
    python = envs.ensure_venv(find_adapter(adapter))
    return _run([str(python), "-c", code, *args], cwd=None, env=child_env())


def run_node(adapter: str, code: str, *args: str) -> str:
    """Run ES module `code` next to the adapter's installed npm packages."""
    config = find_adapter(adapter)
    node_modules = envs.ensure_npm(config)
    # one file per call: pytest-xdist workers share the folder (ESM resolves imports from it)
    script = node_modules.parent / f"_selftest_snippet_{os.getpid()}_{next(_snippets)}.mjs"
    script.write_text(code, encoding="utf-8")
    try:
        return _run(
            ["node", str(script), *args],
            cwd=node_modules.parent,
            env=child_env({"NODE_PATH": str(node_modules)}),
        )
    finally:
        script.unlink(missing_ok=True)


def _run(argv: list[str], cwd, env) -> str:
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"{argv[0]} snippet failed:\n{proc.stderr[-3000:]}")
    return proc.stdout


def pinned_version(adapter: str, package: str) -> str:
    config = find_adapter(adapter)
    pins = [pin.split("==") for pin in config.requirements]
    pins += [pin.rsplit("@", 1) for pin in config.npm]  # "@scope/name@1.2.3" splits at the last @
    for name, version in pins:
        if name.lower() == package.lower():
            return version
    raise KeyError(package)


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Bit-for-bit equality after bringing both to little-endian (NaN payloads and -0.0 count)."""
    got, want = np.asarray(got), np.asarray(want)
    if (
        got.shape != want.shape
        or got.dtype.kind != want.dtype.kind
        or got.dtype.itemsize != want.dtype.itemsize
    ):
        return False
    le = want.dtype.newbyteorder("<")
    return (
        np.ascontiguousarray(got.astype(le)).tobytes()
        == np.ascontiguousarray(want.astype(le)).tobytes()
    )


def load_json(path: Path):
    return json.loads(Path(path).read_text("utf-8"))


def store(path: Path, kind: str = "directory") -> dict:
    return {"kind": kind, "location": str(path)}


def error_rule(adapter: str, body: dict):
    """The adapter.toml [[errors]] rule the harness applies to a failed response (the first that
    matches), or None."""
    error = body.get("error") or {}
    return next((rule for rule in find_adapter(adapter).errors if rule.matches(error)), None)


def declared_unsupported(adapter: str, body: dict) -> bool:
    """Is this failed response a refusal adapter.toml declares as `unsupported`?"""
    rule = error_rule(adapter, body)
    return rule is not None and rule.category == "unsupported"
