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
    # the releases the bug holds for (a PEP 440 specifier such as ">=3.0,<3.2"); None: every one
    versions: str | None = None
    owner: str = ""  # the adapter whose known-failures.toml holds the entry

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

    def holds_for(self, version: str | None) -> bool:
        """Does the bug hold for this release of the implementation (None: not known)?"""
        if self.versions is None or version is None:
            return True
        from packaging.specifiers import InvalidSpecifier, SpecifierSet
        from packaging.version import InvalidVersion, Version

        try:
            return Version(version) in SpecifierSet(self.versions)
        except (InvalidVersion, InvalidSpecifier):
            return True

    def describe(self) -> str:
        return f"known failure {self.id}: {self.reason} ({self.issue})"

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
    (a reason category: metadata, codec, chunk-data, io; or unsupported, or crash)."""

    type: str  # class name, or module.ClassName
    category: str
    message: str | None = None  # regular expression, searched in the message
    reason: str | None = None  # why (required for unsupported and crash)

    def matches(self, error: dict[str, Any]) -> bool:
        """Does an error response's `error` object fall under this rule?"""
        name = error.get("type", "")
        qualified = f"{error['module']}.{name}" if error.get("module") else name
        if self.type not in (name, qualified):
            return False
        return self.message is None or re.search(self.message, error.get("message", "")) is not None


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
        debian=tuple(doc.get("debian", ())),
        default=bool(doc.get("default", True)),
        raw=doc,
    )


def _bad_patterns(rules: Any) -> list[str]:
    """[[errors]] messages that are not regular expressions (the schema cannot tell)."""
    out = []
    for i, rule in enumerate(rules if isinstance(rules, list) else ()):
        pattern = rule.get("message") if isinstance(rule, dict) else None
        if isinstance(pattern, str):
            try:
                re.compile(pattern)
            except re.error as exc:
                out.append(f"errors/{i}/message: not a regular expression: {exc}")
    return out


def _bad_entries(entries: Any) -> list[str]:
    """`observed` patterns that are not regular expressions, `versions` that are no PEP 440
    specifier (the schema cannot tell)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    out = []
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, dict):
            continue
        for pattern in entry.get("observed", ()):
            try:
                re.compile(pattern)
            except (re.error, TypeError) as exc:
                out.append(f"known_failures/{i}/observed: not a regular expression: {exc}")
        if isinstance(entry.get("versions"), str):
            try:
                SpecifierSet(entry["versions"])
            except InvalidSpecifier as exc:
                out.append(f"known_failures/{i}/versions: not a version specifier: {exc}")
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
    found = problems("known-failures", doc)
    found += _bad_entries(doc.get("known_failures", ()))
    if found:
        raise AdapterConfigError(f"{path}:\n  " + "\n  ".join(found))
    return tuple(
        KnownFailure(
            **{
                **entry,
                "cases": tuple(entry["cases"]),
                **({"stores": tuple(entry["stores"])} if "stores" in entry else {}),
                "observed": tuple(entry.get("observed", ())),
                "owner": owner or folder.name,
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
