"""Which build of an implementation an adapter runs: the environment of its pins (the default),
the caller's own environment (`--impl-env current`: an implementer's build), or another version
of the implementation (`--impl NAME@VERSION`: a version row of the matrix).

The implementation an adapter drives is the FIRST entry of its adapter.toml `requirements`
(`zarr==3.1.6` for zarr-python, `tensorstore==...`, `zarrs==...`), or of `npm` for a command
adapter. Known failures are written against that pin: when another version runs, they still
apply but none is strict (a bug fixed in that version passes without failing the run; a
`known-failure` record then only means that the pinned version had the bug).

- `--impl-env current`: a python adapter with `requirements` (or with its own `python`) runs in
  the caller's interpreter instead, testing whatever is installed there. Its column keeps the
  adapter's name; the version found is recorded (records' `versions`, `<results>.meta.json`) and
  differs-from-the-pin is warned about. Adapters without requirements (reference) are unaffected;
  command adapters (npm) ignore it.
- `--impl zarr-python@3.0.10`: the adapter's venv with the implementation's pin replaced by that
  version (the rest of the pins stay; pip says so if they do not fit), made with the Python that
  release allows (its Requires-Python, asked of the package index: the adapter's own
  `python_version` when allowed, else the nearest one this machine has; `row_python`). The column
  is named `zarr-python@3.0.10`. Not combined with `--impl-env current` (the version row has its
  own venv). A row whose environment cannot be made is left out of the run, with one line
  (envs.provision_all).

Known failures hold for the releases their `versions` range names (config.KnownFailure.holds_for):
`for_version` keeps those that hold for the version that runs and sets the others aside
(`AdapterConfig.fixed_failures`), so a fixed bug is a plain pass that says where it was fixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from . import interpreters
from .config import AdapterConfig, AdapterConfigError, find_adapter

IMPL_ENVS = ("pinned", "current")
_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(?:==\s*([^\s;,]+))?")
_NPM = re.compile(r"^(@?[^@\s]+)(?:@(\S+))?$")
VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+!_-]*$")


@dataclass(frozen=True)
class Variant:
    """How one selected adapter runs (kept for warnings and the run's meta file)."""

    name: str  # column name (adapter name, or name@version)
    adapter: str  # the adapter folder's name
    env: str  # "pinned", "current" or "version"
    package: str | None = None  # the implementation's distribution (or npm package)
    pinned: str | None = None  # its version in adapter.toml
    version: str | None = (
        None  # the version that runs: found in the caller's environment, or asked for
    )
    note: str | None = (
        None  # a warning about the choice (differs from the pin, not applicable, ...)
    )
    python: str | None = None  # the Python (major.minor) of its venv, when it has one
    stores_note: str | None = None  # why its remote store kinds are left out (current env)

    def as_meta(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None and k != "name"}


def split_name(name: str) -> tuple[str, str | None]:
    """`zarr-python@3.0.10` -> ("zarr-python", "3.0.10"); a path or plain name -> (name, None)."""
    base, sep, version = name.rpartition("@")
    if not sep or not base or "/" in version or not VERSION.match(version):
        return name, None
    return base, version


def main_package(config: AdapterConfig) -> tuple[str, str | None, str] | None:
    """(distribution name, pinned version, "pip" | "npm") of the implementation the adapter drives."""
    if config.requirements:
        match = _REQ.match(config.requirements[0])
        if match:
            return match.group(1), match.group(3), "pip"
    if config.npm:
        match = _NPM.match(config.npm[0])
        if match:
            return match.group(1), match.group(2), "npm"
    return None


def installed_version(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def relaxed(config: AdapterConfig) -> AdapterConfig:
    """Known failures kept, none strict (they were written against another version)."""
    return replace(
        config, known_failures=tuple(replace(k, strict=False) for k in config.known_failures)
    )


def at_version(config: AdapterConfig, version: str) -> AdapterConfig:
    """The adapter with its implementation's pin replaced by `version`, named `name@version`."""
    found = main_package(config)
    if found is None:
        raise AdapterConfigError(
            f"{config.name}@{version}: adapter {config.name} pins no implementation "
            "(no requirements or npm packages) to replace with another version"
        )
    package, pinned, kind = found
    name = f"{config.name}@{version}"
    if kind == "pip":
        match = _REQ.match(config.requirements[0])
        extras = (match.group(2) if match else None) or ""
        requirements = (f"{package}{extras}=={version}", *config.requirements[1:])
        changed = replace(config, name=name, requirements=requirements)
        if version != pinned:
            changed = row_python(without_store_packages(changed), package, version)
    else:
        changed = replace(config, name=name, npm=(f"{package}@{version}", *config.npm[1:]))
    return changed if version == pinned else relaxed(changed)


def row_python(config: AdapterConfig, package: str, version: str) -> AdapterConfig:
    """The version row `config` with the Python its release allows: the Requires-Python of
    `package==version` from the package index (cached: a release's metadata never changes), and
    the interpreter of this machine nearest to the adapter's own that meets it. When none does,
    `requires_python` makes the row unavailable (envs.availability says why); when the index
    cannot answer, the adapter's own Python is tried (pip then says whether it fits)."""
    from .envs import cache_root

    try:
        spec = interpreters.requires_python(
            package, version, cache_root() / "index" / "requires-python.json"
        )
    except interpreters.IndexUnavailable:
        return config
    prefer = config.python_version or interpreters.caller_minor()
    chosen = interpreters.choose(spec, prefer)
    return replace(
        config,
        python_version=chosen.minor if chosen is not None else config.python_version,
        requires_python=spec,
    )


def in_current_env(config: AdapterConfig) -> tuple[AdapterConfig, Variant]:
    """The adapter running in the caller's interpreter, and what was found there."""
    found = main_package(config)
    if config.transport != "python":
        return config, Variant(
            config.name,
            config.folder.name,
            "pinned",
            note=(
                f"--impl-env current does not apply to {config.name} (transport {config.transport}): "
                "it runs with its own packages"
            ),
        )
    if not config.own_interpreter:
        return config, Variant(config.name, config.folder.name, "current", note=None)
    if found is None or found[2] != "pip":
        # An interpreter of its own (adapter.toml `python`) and no pip pins: nothing to compare.
        return replace(config, python=None), Variant(config.name, config.folder.name, "current")
    package, pinned, _ = found
    version = installed_version(package)
    if version is None:
        raise AdapterConfigError(
            f"--impl-env current: {config.name} tests the {package} installed in this environment, and there is "
            f"none (the adapter pins {config.requirements[0]}; install your build of {package} first)"
        )
    changed = replace(config, requirements=(), python=None)
    note = None
    if pinned is not None and version != pinned:
        note = (
            f"{config.name}: testing {package} {version} from this environment; its known failures are "
            f"written against {package} {pinned} (applied, none strict)"
        )
        changed = relaxed(changed)
    changed, stores_note = without_missing_remote(changed)
    return changed, Variant(
        config.name,
        config.folder.name,
        "current",
        package,
        pinned,
        version,
        note,
        stores_note=stores_note,
    )


REMOTE_CAPABILITIES = frozenset({"store:http", "store:s3", "feature:s3-write"})
# Distributions that are a store kind of their own, and the capabilities they bring. A version row
# leaves them out: the store kind is measured with the adapter's pinned release, and its pin may
# not fit another (icechunk 2.3 requires zarr >= 3.1: no zarr 3.0 row could be made with it).
STORE_PACKAGES = {"icechunk": frozenset({"store:icechunk", "feature:icechunk-write"})}


def without_store_packages(config: AdapterConfig) -> AdapterConfig:
    """A version row's adapter: no store-kind packages (STORE_PACKAGES), nor their capabilities."""
    dropped = [
        name
        for r in config.requirements
        if (m := _REQ.match(r)) and (name := m.group(1).lower()) in STORE_PACKAGES
    ]
    if not dropped:
        return config
    lost = frozenset().union(*(STORE_PACKAGES[name] for name in dropped))
    return replace(
        config,
        requirements=tuple(
            r
            for r in config.requirements
            if not ((m := _REQ.match(r)) and m.group(1).lower() in dropped)
        ),
        capabilities=config.capabilities - lost,
    )


def without_missing_remote(config: AdapterConfig) -> tuple[AdapterConfig, str | None]:
    """In the caller's environment, the adapter's url stores need its `remote_packages` there
    too (zarr-python's obstore), and its icechunk store kind needs Icechunk 2 there: without them
    those store kinds are left out, and the returned line says so and how to add them."""
    notes = []
    declared = config.capabilities & REMOTE_CAPABILITIES
    missing = [p for p in config.remote_packages if installed_version(p) is None]
    if declared and missing:
        kinds = " and ".join(k.split(":")[1] for k in sorted(declared) if k.startswith("store:"))
        config = replace(config, capabilities=config.capabilities - REMOTE_CAPABILITIES)
        notes.append(
            f"its {kinds} store kinds are skipped: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed in this environment "
            f"(pip install {' '.join(missing)})"
        )
    for package, capabilities in STORE_PACKAGES.items():
        found = installed_version(package)
        major = re.match(r"\d+", found or "")
        if not config.capabilities & capabilities or (major and int(major.group()) >= 2):
            continue
        config = replace(config, capabilities=config.capabilities - capabilities)
        have = f"{package} {found} is" if found else f"{package} is not"
        notes.append(
            f"its {package} store kind is skipped: {have} installed in this environment, and "
            f"the repositories are Icechunk 2's (pip install '{package}>=2', Python >= 3.12)"
        )
    return config, (f"{config.name}: " + "; ".join(notes)) if notes else None


def resolve(name: str, impl_env: str = "pinned") -> tuple[AdapterConfig, Variant]:
    """The adapter a `--impl` name stands for under `--impl-env`, with the known failures that
    hold for the release it runs (AdapterConfig.at_release)."""
    if impl_env not in IMPL_ENVS:
        raise AdapterConfigError(f"--impl-env: {impl_env!r} is not one of {', '.join(IMPL_ENVS)}")
    base, version = split_name(name)
    if version is not None:
        try:
            config = find_adapter(base)
        except AdapterConfigError:
            return find_adapter(name), Variant(name, name, "pinned")  # a folder whose name has an @
        changed = at_version(config, version)
        found = main_package(config)
        assert found is not None  # at_version refuses an adapter without one
        package, pinned, _ = found
        return changed.at_release(version), Variant(
            changed.name,
            config.folder.name,
            "version",
            package,
            pinned,
            version,
            python=venv_python_of(changed),
        )
    config = find_adapter(name)
    main = main_package(config)
    package_name, pinned_version = (main[0], main[1]) if main else (None, None)
    if impl_env == "current":
        changed, variant = in_current_env(config)
        return changed.at_release(variant.version or pinned_version), variant
    return config.at_release(pinned_version), Variant(
        config.name,
        config.folder.name,
        "pinned",
        package_name,
        pinned_version,
        pinned_version,
        python=venv_python_of(config),
    )


def venv_python_of(config: AdapterConfig) -> str | None:
    """The Python (major.minor) the adapter's venv is made with; None without a venv."""
    if not config.requirements:
        return None
    return config.python_version or interpreters.caller_minor()


def resolve_adapter(name: str, impl_env: str = "pinned") -> AdapterConfig:
    return resolve(name, impl_env)[0]
