"""Per-adapter environments: a virtualenv from the adapter's exact pins, npm packages for command
adapters. Cached under <cache>/envs/<name>-<hash> and <cache>/npm/<name>-<hash> (the cache root is
<repo>/.cache or $ZARR_CONFORMANCE_CACHE), made on first use under a file lock so that parallel
pytest-xdist workers do not race; progress goes to stderr.

A venv is made with the Python the adapter asks for (adapter.toml `python_version`, or for a
version row the one its release allows: conformance.harness.interpreters finds them on this
machine), else with the caller's.

System prerequisites are not made on the fly: an adapter whose Debian packages (adapter.toml
`debian`), interpreter (`python`, `python_version`) or program (a command adapter's `command[0]`,
`npm`) are missing is *unavailable* (`availability()`, with the command that would install them).
Runs skip unavailable adapters (`select_adapters`), and adapters whose environment cannot be made
(`provision`): no records, one line each. `install_debian` installs declared packages where it
can (root and apt-get), for `zarr-conformance adapters --install`, which `./dev` calls."""

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
from dataclasses import dataclass, field
from pathlib import Path

from . import interpreters
from .config import AdapterConfig

COMPLETE = ".zarr-conformance-complete"


class ProvisioningError(Exception):
    """An adapter's environment cannot be made (pip or npm failed)."""


class Unavailable(ProvisioningError):
    """A system prerequisite of the adapter is missing (see availability())."""


def cache_root() -> Path:
    from ..resources import (
        default_cache,  # <checkout>/.cache, or ~/.cache/zarr-conformance for a wheel
    )

    return Path(os.environ.get("ZARR_CONFORMANCE_CACHE") or default_cache())


def _digest(items, *salt: str) -> str:
    text = "\n".join([*salt, *sorted(items)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def python_minor(config: AdapterConfig) -> str:
    """The Python (major.minor) the adapter's venv is made with."""
    return config.python_version or interpreters.caller_minor()


def venv_dir(config: AdapterConfig) -> Path:
    # The interpreter's minor version is part of the key: a venv is bound to one Python.
    py = f"python{python_minor(config)}"
    return cache_root() / "envs" / f"{config.name}-{_digest(config.requirements, py)}"


def base_python(config: AdapterConfig) -> Path:
    """The interpreter that makes the adapter's venv: the one of `python_version` found on this
    machine (Unavailable when there is none), else the caller's."""
    if config.python_version is None:
        return Path(sys.executable)
    found = interpreters.find(config.python_version)
    if found is None:
        raise Unavailable(f"adapter {config.name} is {availability(config).describe()}")
    return found.path


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
    if config.python is not None:
        return config.python
    if not config.requirements and not config.npm:
        return "caller's environment"
    return "provisioned" if is_provisioned(config) else "not provisioned"


def adapter_python(config: AdapterConfig) -> Path:
    """The interpreter a python adapter runs under: its venv's (made if needed), adapter.toml
    `python`, or the caller's."""
    if config.requirements:
        return ensure_venv(config)
    if config.python is not None:
        require_available(config)
        return Path(config.python)
    return Path(sys.executable)


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
            python = base_python(config)
            _run([str(python), "-m", "venv", str(folder)], f"creating the virtualenv ({python})")
            _say(f"  pip install {' '.join(config.requirements)}")
            _run(
                [
                    str(venv_python(folder)),
                    "-m",
                    "pip",
                    "install",
                    "--disable-pip-version-check",
                    "-q",
                    *config.requirements,
                ],
                f"installing the requirements of {config.name}",
            )
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        (folder / COMPLETE).write_text(
            json.dumps({"requirements": list(config.requirements)}) + "\n"
        )
        _say(f"environment of {config.name!r} ready ({time.monotonic() - started:.0f} s)")
    return venv_python(folder)


def ensure_npm(config: AdapterConfig) -> Path:
    """The node_modules folder holding the adapter's npm packages, installing them if needed."""
    folder = npm_dir(config)
    if (folder / COMPLETE).exists():
        return folder / "node_modules"
    if not config.npm:  # a JS adapter without packages (yet): only the staged folder
        (folder / "node_modules").mkdir(parents=True, exist_ok=True)
        return folder / "node_modules"
    with _locked(folder):
        if not (folder / COMPLETE).exists():
            npm = shutil.which("npm")
            if npm is None:
                raise ProvisioningError(f"adapter {config.name!r} needs npm, which is not on PATH")
            _say(
                f"installing npm packages of adapter {config.name!r} into {folder}: {' '.join(config.npm)}"
            )
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            (folder / "package.json").write_text(
                json.dumps({"name": f"zc-{config.name}", "private": True}) + "\n"
            )
            try:
                _run(
                    [
                        npm,
                        "install",
                        "--no-audit",
                        "--no-fund",
                        "--save-exact",
                        "--prefix",
                        str(folder),
                        *config.npm,
                    ],
                    f"npm install for {config.name}",
                )
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            (folder / COMPLETE).write_text(json.dumps({"npm": list(config.npm)}) + "\n")
    return folder / "node_modules"


def runs_node(config: AdapterConfig) -> bool:
    """A JS adapter: a command adapter whose program is node."""
    return (
        config.transport == "command"
        and bool(config.command)
        and (Path(config.command[0]).name in ("node", "nodejs"))
    )


# The modules every JS adapter shares (protocol.mjs: the request loop; npy.mjs, timer.mjs).
JS_SHARED = Path(__file__).parent / "js"


def stage_command_folder(config: AdapterConfig) -> Path:
    """For a JS adapter: copy the shared JS modules and the adapter folder's top-level files next
    to node_modules (ESM resolves imports from the importing file's folder, so `./protocol.mjs`
    and bare package names both resolve there) and return that folder, the command's working
    directory. An adapter file of a shared module's name is refused: it would hide the shared one."""
    folder = npm_dir(config)
    folder.mkdir(parents=True, exist_ok=True)
    own = {item.name: item for item in config.folder.iterdir() if item.is_file()}
    shared = {item.name: item for item in JS_SHARED.glob("*.mjs")}
    clash = sorted(own.keys() & shared.keys())
    if clash:
        raise ProvisioningError(
            f"adapter {config.name!r} has files named like the shared JS modules of "
            f"{JS_SHARED}: {', '.join(clash)} (rename them, or import the shared ones)"
        )
    for item in [*shared.values(), *own.values()]:
        target = folder / item.name
        if target.is_file() and target.read_bytes() == item.read_bytes():
            continue
        # Another worker may be starting the command from this folder right now: it must
        # never see a half-copied file, so copy aside and rename into place.
        partial = folder / f".{item.name}.{os.getpid()}.partial"
        shutil.copy2(item, partial)
        os.replace(partial, target)
    return folder


# ---- system prerequisites -------------------------------------------------------------------------


@dataclass(frozen=True)
class Availability:
    available: bool
    why: str = ""  # what is missing
    install: str | None = None  # a command that would install it, when one is known

    def describe(self) -> str:
        if self.available:
            return "available"
        return f"unavailable: {self.why}" + (f" (install: {self.install})" if self.install else "")


def missing_debian(packages) -> list[str] | None:
    """The packages of `packages` that dpkg does not report installed; None without dpkg-query."""
    packages = list(packages)
    if not packages:
        return []
    query = shutil.which("dpkg-query")
    if query is None:
        return None
    proc = subprocess.run(
        [query, "-W", "-f", "${Package} ${Status}\n", *packages],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    installed = set()
    for line in proc.stdout.splitlines():
        name, _, status = line.partition(
            " "
        )  # status: "install ok installed", "deinstall ok config-files"
        if status.split()[-1:] == ["installed"]:
            installed.add(name.split(":")[0])  # multiarch names come back as name:arch
    return [p for p in packages if p not in installed]


def install_command(packages) -> str:
    return "apt-get install -y " + " ".join(packages)


def availability(config: AdapterConfig) -> Availability:
    """Can this adapter run on this machine? Checks what no environment of ours can make: its
    Debian packages, its interpreter (`python`), its program (a command adapter's argv[0]) and
    npm (for `npm` packages). Pip requirements are not checked: the venv is made on first use."""
    install = install_command(config.debian) if config.debian else None
    missing = missing_debian(config.debian)
    if missing is None:
        return Availability(
            False,
            f"needs the Debian packages {', '.join(config.debian)}, and this system has no dpkg",
        )
    if missing:
        return Availability(
            False, f"Debian packages not installed: {', '.join(missing)}", install_command(missing)
        )
    if config.python is not None and not os.access(config.python, os.X_OK):
        return Availability(False, f"interpreter {config.python} not found", install)
    if config.requires_python is not None and not _meets(config):
        return Availability(
            False,
            f"{config.requirements[0] if config.requirements else config.name} requires Python "
            f"{config.requires_python} (Requires-Python, from the package index), and this machine "
            f"has {interpreters.describe_machine()}",
        )
    if config.python_version is not None and interpreters.find(config.python_version) is None:
        return Availability(
            False,
            f"needs Python {config.python_version}, which this machine does not have (looked for "
            f"pyenv versions, python{config.python_version} on PATH and the caller's; found: "
            f"{interpreters.describe_machine()})",
            install or f"pyenv install {config.python_version}",
        )
    if (
        config.transport == "command"
        and config.command
        and "/" not in config.command[0]
        and shutil.which(config.command[0]) is None
    ):
        return Availability(False, f"{config.command[0]} is not on PATH", install)
    if config.npm and shutil.which("npm") is None:
        return Availability(False, "npm is not on PATH", install)
    return Availability(True)


def _meets(config: AdapterConfig) -> bool:
    """Does the interpreter the adapter's venv would be made with meet its Requires-Python?"""
    from packaging.specifiers import SpecifierSet

    found = interpreters.find(python_minor(config))
    version = found.version if found is not None else python_minor(config)
    return SpecifierSet(config.requires_python or "").contains(version, prereleases=True)


def provision(config: AdapterConfig) -> None:
    """Make the adapter's environment now (its venv, its npm packages), before any test uses it:
    Unavailable or ProvisioningError, saying why."""
    require_available(config)
    if config.transport == "python" and config.requirements:
        ensure_venv(config)
    if config.npm:
        ensure_npm(config)


def require_available(config: AdapterConfig) -> None:
    found = availability(config)
    if not found.available:
        raise Unavailable(f"adapter {config.name} is {found.describe()}")


def can_install_debian() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def install_debian(packages, *, update: bool = True) -> None:
    """apt-get install the packages (root only): `apt-get update` first when asked, then a
    non-interactive install. ProvisioningError when apt-get fails."""
    packages = list(packages)
    if not packages:
        return
    if not can_install_debian():
        raise ProvisioningError(
            f"cannot install {', '.join(packages)}: needs root and apt-get "
            f"(run: {install_command(packages)})"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if update:
        _say("apt-get update")
        _run_env(["apt-get", "update", "-q"], "apt-get update", env)
    _say(f"apt-get install {' '.join(packages)}")
    _run_env(
        ["apt-get", "install", "-y", "-q", *packages], f"installing {', '.join(packages)}", env
    )


def _run_env(argv: list[str], what: str, env: dict) -> None:
    proc = subprocess.run(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    if proc.returncode != 0:
        raise ProvisioningError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-4000:]}")


@dataclass
class Selection:
    """What a run takes for its `--impl` names (select_adapters)."""

    names: list[str]  # to run
    unavailable: dict[str, Availability]  # left out: a system prerequisite is missing
    optional: list[str]  # left out of 'all': `default = false`
    broken: dict[str, str] = field(default_factory=dict)  # left out: no environment (provision_all)

    def notes(self) -> list[str]:
        """One line per adapter left out."""
        out = [
            f"skipping {name}: {found.describe()}; no records"
            for name, found in self.unavailable.items()
        ]
        out += [
            f"skipping {name}: its environment cannot be made: {why}; no records"
            for name, why in self.broken.items()
        ]
        if self.optional:
            out.append(
                f"not in --impl all (default = false in adapter.toml; name them to run them): "
                f"{', '.join(self.optional)}"
            )
        return out


def select_adapters(names: list[str]) -> Selection:
    """The adapters a run takes for `--impl` names ('all' = every adapter on the search path whose
    adapter.toml does not say `default = false`), less the unavailable ones. A name that is not a
    loadable adapter is kept (the run reports it as a usage error)."""
    from .config import AdapterConfigError, find_adapter, search_path

    wanted = [n for n in names if n != "all"]
    optional: list[str] = []
    if "all" in names:
        found = sorted(
            {
                p.parent.name
                for root in search_path()
                if root.is_dir()
                for p in root.glob("*/adapter.toml")
            }
        )
        for name in found:
            if name in wanted:
                continue
            try:
                config = find_adapter(name)
            except AdapterConfigError:
                wanted.append(name)  # invalid: the run says why
                continue
            (wanted if config.default else optional).append(name)
    selected, unavailable = [], {}
    for name in wanted:
        try:
            config = find_adapter(name)
        except AdapterConfigError:
            selected.append(name)
            continue
        found = availability(config)
        if found.available:
            selected.append(name)
        else:
            unavailable[config.name] = found
    return Selection(selected, unavailable, optional)


def provision_all(selection: Selection, impl_env: str = "pinned") -> Selection:
    """Make the environments of the selected adapters before the run starts: an adapter (a version
    row whose release pip refuses, one whose release needs a Python this machine lacks) whose
    environment cannot be made moves from `names` to `unavailable` or `broken`, and so has no
    records. pip's whole answer goes to stderr."""
    from .config import AdapterConfigError
    from .variants import resolve

    kept = []
    for name in selection.names:
        try:
            config = resolve(name, impl_env)[0]
        except AdapterConfigError:
            kept.append(name)  # the run reports it as a usage error
            continue
        try:
            provision(config)
        except Unavailable:
            selection.unavailable[name] = availability(config)
        except ProvisioningError as exc:
            _say(str(exc))
            selection.broken[name] = first_error(str(exc))
        else:
            kept.append(name)
    selection.names = kept
    return selection


def first_error(text: str) -> str:
    """The line of a pip or npm failure that says what went wrong (its first `ERROR:` line)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    found = next(
        (line for line in lines if line.startswith(("ERROR:", "npm ERR!", "npm error"))), None
    )
    return found or (lines[0] if lines else "unknown failure")
