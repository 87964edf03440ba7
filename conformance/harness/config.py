"""Adapter folders: finding them, reading and validating adapter.toml (with its error rules) and
known-failures.toml."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from ..resources import adapters_dir
from .schemas import problems

# the checkout's adapters/, or the copy bundled into an installed wheel
ADAPTERS_DIR = adapters_dir()


class AdapterConfigError(Exception):
    """adapter.toml is missing, unreadable or breaks its schema."""


@dataclass(frozen=True)
class KnownFailure:
    """One bug of an implementation (known-failures.toml), with its evidence. It explains a record
    only where it applies (test, case, role, peer, store kind, release) and where what was
    observed matches one of its `observed` patterns (conformance.harness.outcomes.explain)."""

    id: str
    cases: tuple[str, ...]
    reason: str
    issue: str
    report: str | None = None
    test: str | None = None
    role: str | None = None
    peer: str | None = None
    strict: bool = True
    crashes: bool = False  # the bug shows as `errored` (crash, hang), not as a wrong answer
    # store kinds the bug shows on (directory, zip, http, s3); None: all of them. One bug may show
    # as a crash on a file and as wrong data over HTTP, where another bug of the same reader joins
    stores: tuple[str, ...] | None = None
    # regular expressions, searched in the record's message: what this bug looks like when it
    # shows. Empty: the entry does not say (it then explains any failure of its cases)
    observed: tuple[str, ...] = ()
    owner: str = ""  # the adapter whose known-failures.toml holds the entry
    # PEP 440 specifier of the releases the bug holds for (">=3.0,<3.3"); None: every release
    versions: str | None = None

    def holds_for(self, version: str | None) -> bool:
        """Does the bug hold for this release of the implementation? True without a `versions`
        range, and for a version that is unknown or not a PEP 440 version (a Debian package's
        "3.6.2+dfsg-1"): the entry then applies as written."""
        if self.versions is None or not version:
            return True
        from packaging.specifiers import SpecifierSet
        from packaging.version import InvalidVersion, Version

        try:
            parsed = Version(version)
        except InvalidVersion:
            return True
        return SpecifierSet(self.versions).contains(parsed, prereleases=True)

    def fixed_in(self) -> str | None:
        """The release that fixed the bug, read from the range's upper bound (`<3.3` -> "3.3"),
        or None when the range has none."""
        if self.versions is None:
            return None
        from packaging.specifiers import SpecifierSet
        from packaging.version import Version

        bounds = [s.version for s in SpecifierSet(self.versions) if s.operator == "<"]
        return min(bounds, key=Version) if bounds else None

    def matches(
        self,
        test: str,
        case_id: str,
        role: str | None = None,
        peer: str | None = None,
        store: str | None = None,
    ) -> bool:
        if self.test is not None and self.test != test:
            return False
        if self.stores is not None and store is not None and store not in self.stores:
            return False
        if self.role is not None and role is not None and self.role != role:
            return False
        if self.peer is not None and (peer is None or not fnmatchcase(peer, self.peer)):
            return False
        return any(case_id == pattern or fnmatchcase(case_id, pattern) for pattern in self.cases)

    def observes(self, message: str) -> bool:
        """Does the observed message look like this bug?"""
        return not self.observed or any(re.search(p, message or "") for p in self.observed)

    def describe(self) -> str:
        return f"known failure {self.id}: {self.reason} ({self.issue})"

    def describe_fixed(self, version: str) -> str:
        """For a passed record of a release outside the entry's range."""
        fixed = self.fixed_in()
        where = f"fixed in {fixed}" if fixed else f"holds for {self.versions} only"
        return f"{where}: known failure {self.id} does not hold for {version} ({self.issue})"

    def as_record(self) -> dict[str, Any]:
        """The record's `known_failure` member."""
        return {
            "id": self.id,
            "owner": self.owner,
            "reason": self.reason,
            "issue": self.issue,
            "strict": self.strict,
            **({"report": self.report} if self.report else {}),
        }


@dataclass(frozen=True)
class ErrorRule:
    """One adapter.toml [[errors]] entry: which of the implementation's exceptions mean what
    (a reason category: metadata, codec, chunk-data, io; or unsupported, or crash). Every given
    condition must hold; the structural ones (type, raised_in, raised_by, phase) stay the same
    across releases, a message pattern may not."""

    type: str  # class name, or module.ClassName
    category: str
    message: str | None = None  # regular expression, searched in the message
    reason: str | None = None  # why (required for unsupported and crash)
    raised_in: str | None = None  # regular expression, searched in the error's module.qualname
    raised_by: str | None = None  # "raise" (a raise statement) or "operation"
    phase: str | None = None  # the request phase the adapter marked (adapter_api.phase)

    def matches(self, error: dict[str, Any]) -> bool:
        """Does an error response's `error` object fall under this rule?"""
        name = error.get("type", "")
        qualified = f"{error['module']}.{name}" if error.get("module") else name
        if self.type not in (name, qualified):
            return False
        if self.raised_in is not None and not re.search(
            self.raised_in, error.get("raised_in") or ""
        ):
            return False
        if self.raised_by is not None and error.get("raised_by") != self.raised_by:
            return False
        if self.phase is not None and error.get("phase") != self.phase:
            return False
        return self.message is None or re.search(self.message, error.get("message", "")) is not None

    @property
    def pinned_down(self) -> bool:
        """Narrower than a type: a message pattern, or where and how it was raised."""
        return self.message is not None or (
            self.raised_in is not None and self.raised_by is not None
        )


@dataclass(frozen=True)
class AdapterConfig:
    name: str
    folder: Path
    description: str
    transport: str
    module: str = "adapter.py"
    class_name: str = "Adapter"
    command: tuple[str, ...] = ()
    requirements: tuple[str, ...] = ()
    npm: tuple[str, ...] = ()
    capabilities: frozenset[str] = frozenset()
    known_failures: tuple[KnownFailure, ...] = ()
    reason_codes: bool = False
    parser: str = (
        ""  # the metadata parser this column uses (adapter.toml `parser`, default: its name)
    )
    errors: tuple[ErrorRule, ...] = ()
    python: str | None = (
        None  # transport python: an interpreter other than a venv (adapter.toml `python`)
    )
    # the Python (major.minor) its venv is made with (adapter.toml `python_version`); None: the
    # caller's (conformance.harness.interpreters finds it on this machine)
    python_version: str | None = None
    # distributions a url store (http, s3) needs in the adapter's environment: checked under
    # --impl-env current, where the caller's environment may lack them
    remote_packages: tuple[str, ...] = ()
    # the releases of its implementation the adapter drives (adapter.toml `releases`, a PEP 440
    # specifier: zarr-python2 follows "<3"); `adapters --outdated` looks for newer ones inside it
    releases: str | None = None
    # a version row: the Requires-Python of the release it runs (from the package index)
    requires_python: str | None = None
    # the release of the implementation that runs (the pin, a version row's, the caller's), and
    # the known failures whose `versions` range excludes it (at_release)
    impl_version: str | None = None
    fixed_failures: tuple[KnownFailure, ...] = ()
    debian: tuple[str, ...] = ()  # Debian packages the adapter needs (adapter.toml `debian`)
    default: bool = True  # part of `--impl all` (adapter.toml `default`; named adapters run anyway)
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def needs_venv(self) -> bool:
        return bool(self.requirements)

    @property
    def own_interpreter(self) -> bool:
        """Runs under another python than the caller's (its venv, or adapter.toml `python`)."""
        return bool(self.requirements) or self.python is not None

    def at_release(self, version: str | None) -> AdapterConfig:
        """This adapter running `version` of its implementation: only the known failures that
        hold for it apply; the others are kept aside to say "fixed in" on a pass."""
        every = self.known_failures + self.fixed_failures
        return replace(
            self,
            impl_version=version,
            known_failures=tuple(k for k in every if k.holds_for(version)),
            fixed_failures=tuple(k for k in every if not k.holds_for(version)),
        )

    def fixed_failure(
        self,
        test: str,
        case_id: str,
        role: str | None = None,
        peer: str | None = None,
        store: str | None = None,
    ) -> KnownFailure | None:
        """The entry that would cover this test on another release (its range excludes the one
        that runs), for the message of a pass: "fixed in 3.3"."""
        return next(
            (k for k in self.fixed_failures if k.matches(test, case_id, role, peer, store)), None
        )

    def known_failures_for(
        self,
        test: str,
        case_id: str,
        role: str | None = None,
        peer: str | None = None,
        store: str | None = None,
    ) -> list[KnownFailure]:
        """The entries that apply to a test of a case, in file order (which of them explains a
        record also depends on what was observed and on the release: outcomes.explain)."""
        out = [e for e in self.known_failures if e.matches(test, case_id, role, peer, store)]
        if test in ("cross", "roundtrip") and role == "writer":
            # The writer step of a cross test sends the write case's own request, so a known
            # write bug applies. Not strict: a write judged wrong by its documents may still be
            # read back correctly by a peer.
            out += [replace(e, strict=False) for e in self.known_failures_for("write", case_id)]
        return out


def load_adapter_config(folder: str | os.PathLike[str]) -> AdapterConfig:
    folder = Path(folder).resolve()
    path = folder / "adapter.toml"
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except FileNotFoundError:
        raise AdapterConfigError(f"{path}: no adapter.toml") from None
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise AdapterConfigError(f"{path}: {exc}") from None
    found = problems("adapter-toml", doc)
    if doc.get("name") not in (None, folder.name):
        found.append(f"name: {doc.get('name')!r} must equal the folder name {folder.name!r}")
    caps = doc.get("capabilities", [])
    found += [f"capabilities: unknown capability {c!r}" for c in _unknown_capabilities(caps)]
    if (
        doc.get("transport") == "python"
        and not (folder / doc.get("module", "adapter.py")).is_file()
    ):
        found.append(f"module: {doc.get('module', 'adapter.py')} does not exist in {folder}")
    found += _bad_patterns(doc.get("errors", ()))
    if found:
        raise AdapterConfigError(f"{path}:\n  " + "\n  ".join(found))
    return AdapterConfig(
        name=doc["name"],
        folder=folder,
        description=doc["description"],
        transport=doc["transport"],
        module=doc.get("module", "adapter.py"),
        class_name=doc.get("class", "Adapter"),
        command=tuple(doc.get("command", ())),
        requirements=tuple(doc.get("requirements", ())),
        npm=tuple(doc.get("npm", ())),
        capabilities=frozenset(caps),
        known_failures=load_known_failures(folder, doc["name"]),
        reason_codes=bool(doc.get("reason_codes", False)),
        parser=doc.get("parser", doc["name"]),
        errors=tuple(ErrorRule(**rule) for rule in doc.get("errors", ())),
        python=doc.get("python"),
        python_version=doc.get("python_version"),
        remote_packages=tuple(doc.get("remote_packages", ())),
        releases=doc.get("releases"),
        debian=tuple(doc.get("debian", ())),
        default=bool(doc.get("default", True)),
        raw=doc,
    )


def _bad_patterns(rules: Any) -> list[str]:
    """[[errors]] messages and raised_in patterns that are not regular expressions (the schema
    cannot tell)."""
    out = []
    for i, rule in enumerate(rules if isinstance(rules, list) else ()):
        for key in ("message", "raised_in"):
            pattern = rule.get(key) if isinstance(rule, dict) else None
            if isinstance(pattern, str):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    out.append(f"errors/{i}/{key}: not a regular expression: {exc}")
    return out


def _bad_ranges(entries: Any) -> list[str]:
    """known_failures `versions` that are not PEP 440 specifiers (the schema cannot tell)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    out = []
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        text = entry.get("versions") if isinstance(entry, dict) else None
        if isinstance(text, str):
            try:
                SpecifierSet(text)
            except InvalidSpecifier as exc:
                out.append(f"known_failures/{i}/versions: not a PEP 440 specifier: {exc}")
    return out


def _bad_entries(entries: Any) -> list[str]:
    """`observed` patterns that are not regular expressions (the schema cannot tell)."""
    out = []
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, dict):
            continue
        for pattern in entry.get("observed", ()):
            try:
                re.compile(pattern)
            except (re.error, TypeError) as exc:
                out.append(f"known_failures/{i}/observed: not a regular expression: {exc}")
    return out


def load_known_failures(folder: Path, owner: str = "") -> tuple[KnownFailure, ...]:
    """adapters/<name>/known-failures.toml: one entry per bug (absent file: none)."""
    path = folder / "known-failures.toml"
    if not path.is_file():
        return ()
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise AdapterConfigError(f"{path}: {exc}") from None
    return known_failures_of(doc, path, owner or folder.name)


def known_failures_of(
    doc: dict[str, Any], where: object, owner: str = ""
) -> tuple[KnownFailure, ...]:
    """The entries of a document in the known-failures.toml format (`where`: for messages;
    `owner`: the adapter whose entries they are)."""
    found = problems("known-failures", doc) + _bad_ranges(doc.get("known_failures"))
    found += _bad_entries(doc.get("known_failures", ()))
    if found:
        raise AdapterConfigError(f"{where}:\n  " + "\n  ".join(found))
    return tuple(
        KnownFailure(
            **{
                **entry,
                "cases": tuple(entry["cases"]),
                **({"stores": tuple(entry["stores"])} if "stores" in entry else {}),
                "observed": tuple(entry.get("observed", ())),
                "owner": owner,
            }
        )
        for entry in doc.get("known_failures", ())
    )


def _unknown_capabilities(names: Iterable[str]) -> list[str]:
    try:
        from conformance.corpus.capabilities import unknown
    except ImportError:  # the vocabulary is not importable: accept what the schema allows
        return []
    return unknown(names)  # the vocabulary has the op:* capabilities too


def search_path() -> list[Path]:
    """Folders holding adapter folders: $ZARR_CONFORMANCE_ADAPTERS (os.pathsep-separated) first,
    then the repo's adapters/."""
    extra = [
        Path(p) for p in os.environ.get("ZARR_CONFORMANCE_ADAPTERS", "").split(os.pathsep) if p
    ]
    return [*extra, ADAPTERS_DIR]


def find_adapter(name_or_path: str) -> AdapterConfig:
    """An adapter by name (searched in search_path()) or by the path of its folder."""
    candidate = Path(name_or_path)
    if (candidate / "adapter.toml").is_file() and (
        os.sep in name_or_path or "/" in name_or_path or name_or_path.startswith(".")
    ):
        return load_adapter_config(candidate)
    for root in search_path():
        if (root / name_or_path / "adapter.toml").is_file():
            return load_adapter_config(root / name_or_path)
    if (candidate / "adapter.toml").is_file():
        return load_adapter_config(candidate)
    known = ", ".join(c.name for c in all_adapters(strict=False)) or "none"
    raise AdapterConfigError(f"no adapter {name_or_path!r} (known: {known})")


def all_adapters(strict: bool = True) -> list[AdapterConfig]:
    """Every adapter folder on the search path, by name (the first folder of a name wins)."""
    seen: dict[str, AdapterConfig] = {}
    for root in search_path():
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if (p / "adapter.toml").is_file()):
            if folder.name in seen:
                continue
            try:
                seen[folder.name] = load_adapter_config(folder)
            except AdapterConfigError:
                if strict:
                    raise
    return [seen[k] for k in sorted(seen)]
