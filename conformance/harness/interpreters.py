"""The Python interpreters of this machine, and what the package index says a release needs.

An adapter may ask for a Python of its own (adapter.toml `python_version = "3.12"`: zarr-python
3.2 and later need 3.12), and a version row (`--impl zarr-python@3.0.10`) needs whichever Python
its release allows (its `Requires-Python`). Interpreters are found, in this order: pyenv's
versions (`$PYENV_ROOT` or `pyenv root`, then `versions/<x.y.z>/bin/python`; the newest patch of
each minor), `pythonX.Y` on PATH (pyenv's shims are skipped: a shim fails for a version that is
not selected), and the caller's own interpreter.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PYENV_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
_ON_PATH = re.compile(r"^python(\d+)\.(\d+)$")


@dataclass(frozen=True)
class Interpreter:
    version: str  # "3.12.1"
    path: Path
    source: str  # "pyenv", "PATH" or "caller"

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def pyenv_root() -> Path | None:
    """$PYENV_ROOT, else what `pyenv root` says when pyenv is on PATH."""
    if os.environ.get("PYENV_ROOT"):
        return Path(os.environ["PYENV_ROOT"])
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return None
    try:
        proc = subprocess.run(
            [pyenv, "root"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return Path(out) if proc.returncode == 0 and out else None


def _from_pyenv(root: Path | None) -> list[Interpreter]:
    if root is None or not (root / "versions").is_dir():
        return []
    found = []
    for folder in (root / "versions").iterdir():
        python = folder / "bin" / "python"
        if _PYENV_VERSION.match(folder.name) and os.access(python, os.X_OK):
            found.append(Interpreter(folder.name, python, "pyenv"))
    return sorted(found, key=lambda i: _key(i.version), reverse=True)


def _version_of(python: Path) -> str | None:
    try:
        proc = subprocess.run(
            [str(python), "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and _PYENV_VERSION.match(out) else None


def _from_path(path: str, pyenv: Path | None) -> list[Interpreter]:
    shims = (pyenv / "shims").resolve() if pyenv is not None else None
    found = []
    for folder in path.split(os.pathsep):
        if not folder or not os.path.isdir(folder):
            continue
        if shims is not None and Path(folder).resolve() == shims:
            continue
        for name in sorted(os.listdir(folder)):
            python = Path(folder) / name
            if _ON_PATH.match(name) and os.access(python, os.X_OK):
                version = _version_of(python)
                if version is not None:
                    found.append(Interpreter(version, python, "PATH"))
    return found


@functools.lru_cache(maxsize=8)
def _machine(pyenv_env: str | None, path: str) -> tuple[Interpreter, ...]:
    root = Path(pyenv_env) if pyenv_env else pyenv_root()
    caller = Interpreter(".".join(map(str, sys.version_info[:3])), Path(sys.executable), "caller")
    out: dict[str, Interpreter] = {}
    for found in (*_from_pyenv(root), *_from_path(path, root), caller):
        out.setdefault(found.minor, found)  # the first source of a minor wins
    return tuple(sorted(out.values(), key=lambda i: _key(i.version)))


def machine_interpreters() -> tuple[Interpreter, ...]:
    """One interpreter per Python minor version found on this machine, oldest first."""
    return _machine(os.environ.get("PYENV_ROOT"), os.environ.get("PATH", ""))


def find(minor: str) -> Interpreter | None:
    """The interpreter of this Python minor version ("3.12"), or None."""
    return next((i for i in machine_interpreters() if i.minor == minor), None)


def caller_minor() -> str:
    return ".".join(map(str, sys.version_info[:2]))


def choose(requires_python: str | None, prefer: str) -> Interpreter | None:
    """The interpreter a release whose Requires-Python is `requires_python` runs under: the
    preferred minor (the adapter's own) when it is allowed, else the allowed one nearest to it;
    None when this machine has none that is allowed."""
    from packaging.specifiers import SpecifierSet

    allowed = SpecifierSet(requires_python or "")
    fits = [i for i in machine_interpreters() if allowed.contains(i.version, prereleases=True)]
    if not fits:
        return None
    want = _key(prefer)
    return min(fits, key=lambda i: (abs(_key(i.minor)[1] - want[1]), _key(i.minor)))


def describe_machine() -> str:
    """`3.11.7 (pyenv), 3.12.1 (pyenv), ...` for messages."""
    return ", ".join(f"{i.version} ({i.source})" for i in machine_interpreters()) or "none"


# ---- the package index -------------------------------------------------------------------------


class IndexUnavailable(Exception):
    """The package index could not answer (no such release, no network)."""


def _pip_report(python: Path, requirement: str) -> dict[str, Any]:
    """pip's installation report (`--report`) for one requirement, resolved but not installed."""
    proc = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--quiet",
            "--no-deps",
            "--ignore-installed",
            "--ignore-requires-python",
            "--disable-pip-version-check",
            "--report",
            "-",
            requirement,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if proc.returncode != 0:
        raise IndexUnavailable(
            proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "pip failed"
        )
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def requires_python(package: str, version: str, cache: Path | None = None) -> str | None:
    """The Requires-Python of release `package==version`, as the package index gives it (pip's
    own resolver, through each interpreter of this machine until one finds a distribution it can
    install: a release with binary wheels only for some Pythons). A release's metadata never
    changes, so answers are kept in `cache` (a JSON file). IndexUnavailable when no pip can find it."""
    key = f"{package.lower()}=={version}"
    known = _read_cache(cache)
    if key in known:
        return known[key]
    problems = []
    pythons = [Path(sys.executable), *(i.path for i in reversed(machine_interpreters()))]
    for python in dict.fromkeys(pythons):
        try:
            report = _pip_report(python, f"{package}=={version}")
        except (IndexUnavailable, OSError, subprocess.TimeoutExpired, ValueError) as exc:
            problems.append(f"{python}: {exc}")
            continue
        installs = report.get("install") or [{}]
        found = (installs[0].get("metadata") or {}).get("requires_python") or None
        if cache is not None:
            _write_cache(cache, {**_read_cache(cache), key: found})
        return found
    raise IndexUnavailable(
        f"{package}=={version}: the package index has no such release ({problems[-1]})"
    )


def _read_cache(cache: Path | None) -> dict[str, str | None]:
    if cache is None or not cache.is_file():
        return {}
    try:
        doc = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _write_cache(cache: Path, doc: dict[str, str | None]) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, cache)


def releases(package: str, python: Path) -> list[str]:
    """The releases of `package` the package index offers to this interpreter, newest first
    (`pip index versions`: those whose Requires-Python it meets); [] when it has none."""
    proc = subprocess.run(
        [str(python), "-m", "pip", "index", "versions", "--disable-pip-version-check", package],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    match = re.search(r"^Available versions:\s*(.+)$", proc.stdout, re.M)
    if proc.returncode != 0 or match is None:
        return []
    return [v.strip() for v in match.group(1).split(",") if v.strip()]


def newest_release(package: str, python: Path) -> str | None:
    """The newest release of `package` the package index offers to this interpreter."""
    found = releases(package, python)
    return found[0] if found else None


def newest_npm(package: str) -> str | None:
    """The version npm's registry tags `latest` for `package` (`npm view PKG version`)."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    proc = subprocess.run(
        [npm, "view", package, "version"], capture_output=True, text=True, timeout=300, check=False
    )
    out = proc.stdout.strip().splitlines()
    return out[-1].strip() if proc.returncode == 0 and out else None
