"""Overrides of an installed adapter's known failures and error rules, from a file the implementer
keeps in their own repository (`--adapter-overrides PATH`; docs/ci.md): the build under test may
have fixed a listed bug, have one of its own, or word its refusals anew, and the adapter folder
inside site-packages is not theirs to edit.

    [zarr-python]                              # the adapter (folder name) the lines below change
    drop = ["bytes-endian-missing-accepted"]   # known failures this build no longer has

    [[zarr-python.known_failures]]             # added; an entry with an installed id replaces it
    id = "..."                                 # (the known-failures.toml format)

    [[zarr-python.errors]]                     # tried before the installed adapter's rules
    type = "TypeError"                         # (the adapter.toml [[errors]] format)

Schema: schemas/adapter-overrides.json, with the entries checked against known-failures.json and
adapter-toml.json.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .config import (
    AdapterConfig,
    AdapterConfigError,
    ErrorRule,
    KnownFailure,
    _bad_patterns,
    known_failures_of,
)
from .schemas import problems


@dataclass(frozen=True)
class Override:
    adapter: str  # the adapter folder's name
    source: Path
    drop: tuple[str, ...] = ()
    known_failures: tuple[KnownFailure, ...] = ()
    errors: tuple[ErrorRule, ...] = ()


def load(paths: Iterable[str | os.PathLike[str]]) -> dict[str, list[Override]]:
    """The overrides of every file, by adapter name, in the order given (a later file wins).
    AdapterConfigError for a file that is missing, not TOML or breaks the format."""
    out: dict[str, list[Override]] = {}
    for raw in paths:
        path = Path(raw)
        try:
            with open(path, "rb") as f:
                doc = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise AdapterConfigError(f"--adapter-overrides {path}: {exc}") from None
        found = problems("adapter-overrides", doc)
        for name, section in doc.items():
            if not isinstance(section, dict):
                continue
            rules = {"name": "x", "description": "x", "transport": "python"}
            found += [
                f"{name}/{p}"
                for p in problems("adapter-toml", {**rules, "errors": section.get("errors", [])})
                + _bad_patterns(section.get("errors", []))
            ]
        if found:
            raise AdapterConfigError(f"--adapter-overrides {path}:\n  " + "\n  ".join(found))
        for name, section in doc.items():
            out.setdefault(name, []).append(
                Override(
                    adapter=name,
                    source=path,
                    drop=tuple(section.get("drop", ())),
                    known_failures=known_failures_of(
                        {"known_failures": section.get("known_failures", [])},
                        f"{path} [{name}]",
                        name,
                    ),
                    errors=tuple(ErrorRule(**rule) for rule in section.get("errors", ())),
                )
            )
    return out


def apply(config: AdapterConfig, overrides: dict[str, list[Override]]) -> AdapterConfig:
    """`config` (already resolved: its release and known failures set, see variants.resolve)
    with the overrides of its adapter folder applied."""
    for override in overrides.get(config.folder.name, ()):
        installed = config.known_failures + config.fixed_failures
        unknown = [i for i in override.drop if i not in {k.id for k in installed}]
        if unknown:
            raise AdapterConfigError(
                f"--adapter-overrides {override.source}: [{override.adapter}] drop names no known "
                f"failure of the installed adapter: {', '.join(unknown)}"
            )
        mine = {k.id for k in override.known_failures}
        kept = [k for k in installed if k.id not in override.drop and k.id not in mine]
        config = replace(
            config,
            known_failures=(*kept, *override.known_failures),
            fixed_failures=(),
            errors=(*override.errors, *config.errors),
        ).at_release(config.impl_version)
    return config


def describe(overrides: dict[str, list[Override]]) -> list[str]:
    """One line per file and adapter, for the run's output and its meta file."""
    return [
        f"{o.source} [{o.adapter}]: {len(o.drop)} dropped, {len(o.known_failures)} known "
        f"failure(s), {len(o.errors)} error rule(s)"
        for found in overrides.values()
        for o in found
    ]


def sources(overrides: dict[str, list[Override]]) -> list[str]:
    return sorted({str(o.source) for found in overrides.values() for o in found})


def as_meta(overrides: dict[str, list[Override]]) -> dict[str, Any]:
    return {"files": sources(overrides), "applied": describe(overrides)}
