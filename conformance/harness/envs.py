"""Per-adapter environments: a virtualenv from the adapter's exact pins, npm packages for command
adapters. Cached under <cache>/envs/<name>-<hash> and <cache>/npm/<name>-<hash> (the cache root is
<repo>/.cache or $ZARR_CONFORMANCE_CACHE), made on first use under a file lock so that parallel
pytest-xdist workers do not race; progress goes to stderr."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .config import REPO_ROOT, AdapterConfig

COMPLETE = ".zarr-conformance-complete"


class ProvisioningError(Exception):
    """An adapter's environment cannot be made (pip or npm failed)."""


def cache_root() -> Path:
    return Path(os.environ.get("ZARR_CONFORMANCE_CACHE") or REPO_ROOT / ".cache")


def _digest(items, *salt: str) -> str:
    text = "\n".join([*salt, *sorted(items)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def venv_dir(config: AdapterConfig) -> Path:
    # The interpreter's minor version is part of the key: a venv is bound to one Python.
    py = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return cache_root() / "envs" / f"{config.name}-{_digest(config.requirements, py)}"


def npm_dir(config: AdapterConfig) -> Path:
    return cache_root() / "npm" / f"{config.name}-{_digest(config.npm)}"


def venv_python(folder: Path) -> Path:
    return folder / "bin" / "python"


def is_provisioned(config: AdapterConfig) -> bool:
    ok = True
    if config.requirements:
        ok &= (venv_dir(config) / COMPLETE).exists()
    if config.npm:
        ok &= (npm_dir(config) / COMPLETE).exists()
    return ok


def status(config: AdapterConfig) -> str:
    if not config.requirements and not config.npm:
        return "caller's environment"
    return "provisioned" if is_provisioned(config) else "not provisioned"


@contextlib.contextmanager
def _locked(target: Path):
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.with_name(target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _say(message: str) -> None:
    print(f"zarr-conformance: {message}", file=sys.stderr, flush=True)


def _run(argv: list[str], what: str) -> None:
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise ProvisioningError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-4000:]}")


def ensure_venv(config: AdapterConfig) -> Path:
    """The python of the adapter's virtualenv, creating it if needed."""
    folder = venv_dir(config)
    if (folder / COMPLETE).exists():
        return venv_python(folder)
    with _locked(folder):
        if (folder / COMPLETE).exists():  # another worker made it while we waited
            return venv_python(folder)
        started = time.monotonic()
        _say(f"creating the environment of adapter {config.name!r} in {folder} ...")
        shutil.rmtree(folder, ignore_errors=True)  # a half-made one from an interrupted run
        try:
            _run([sys.executable, "-m", "venv", str(folder)], "creating the virtualenv")
            _say(f"  pip install {' '.join(config.requirements)}")
            _run([str(venv_python(folder)), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                  *config.requirements], f"installing the requirements of {config.name}")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        (folder / COMPLETE).write_text(json.dumps({"requirements": list(config.requirements)}) + "\n")
        _say(f"environment of {config.name!r} ready ({time.monotonic() - started:.0f} s)")
    return venv_python(folder)


def ensure_npm(config: AdapterConfig) -> Path:
    """The node_modules folder holding the adapter's npm packages, installing them if needed."""
    folder = npm_dir(config)
    if (folder / COMPLETE).exists():
        return folder / "node_modules"
    with _locked(folder):
        if not (folder / COMPLETE).exists():
            npm = shutil.which("npm")
            if npm is None:
                raise ProvisioningError(f"adapter {config.name!r} needs npm, which is not on PATH")
            _say(f"installing npm packages of adapter {config.name!r} into {folder}: {' '.join(config.npm)}")
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            (folder / "package.json").write_text(json.dumps({"name": f"zc-{config.name}", "private": True}) + "\n")
            try:
                _run([npm, "install", "--no-audit", "--no-fund", "--save-exact", "--prefix", str(folder), *config.npm],
                     f"npm install for {config.name}")
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            (folder / COMPLETE).write_text(json.dumps({"npm": list(config.npm)}) + "\n")
    return folder / "node_modules"


def stage_command_folder(config: AdapterConfig) -> Path:
    """For a command adapter with npm packages: copy the adapter folder's top-level files next to
    node_modules (ESM resolves bare imports from the importing file's folder) and return that
    folder, the command's working directory."""
    folder = npm_dir(config)
    for item in config.folder.iterdir():
        if item.is_file():
            target = folder / item.name
            if target.is_file() and target.read_bytes() == item.read_bytes():
                continue
            # Another worker may be starting the command from this folder right now: it must
            # never see a half-copied file, so copy aside and rename into place.
            partial = folder / f".{item.name}.{os.getpid()}.partial"
            shutil.copy2(item, partial)
            os.replace(partial, target)
    return folder
