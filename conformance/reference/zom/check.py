"""Checking a stored hierarchy against a ZOM (ZEP 6 §Validating Zarr Object Models).

Structure is compared node by node: the same members (ZOM-004), the same node kinds, the same
metadata documents as JSON values (ZOM-002) and, when asked, the same attributes (ZOM-001).
Attribute *constraints* (JSON Schemas per node, named rule sets such as `xarray`) are in
`rules.py`; both report `Finding`s.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ZarrError
from ..stores import Store, open_store
from .convert import GROUP_MODELS, Model, metadata_of
from .hierarchy import NodeFailure, join, walk
from .jsonvalue import canonical, json_equal

Severity = Literal["error", "warning"]
MemberMatch = Literal["exact", "at-least"]


@dataclass(frozen=True)
class Finding:
    requirement: str  # a ZOM-* ID (or the format's own ID when a node's metadata is refused)
    severity: Severity
    path: str  # store path of the node; '' is the root
    message: str
    reason: str = "model-mismatch"  # a code from errors.REASONS

    def to_json(self) -> dict[str, Any]:
        return {
            "requirement": self.requirement,
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "reason": self.reason,
        }

    def __str__(self) -> str:
        return f"{self.severity.upper()} {self.requirement} at {self.path or '/'!r}: {self.message}"


def iter_nodes(model: Model, path: str = "") -> Iterable[tuple[str, Model]]:
    """(path, node) for the node and all its descendants, parents first, members by name."""
    stack = [(path, model)]
    while stack:
        node_path, node = stack.pop()
        yield node_path, node
        if isinstance(node, GROUP_MODELS):
            for name in sorted(node.members, reverse=True):
                stack.append((join(node_path, name), node.members[name]))


def compare_models(
    expected: Model,
    actual: Model,
    members: MemberMatch = "exact",
    compare_attributes: bool = False,
    path: str = "",
) -> list[Finding]:
    """Differences between an expected and an actual ZOM, as findings ([] when they match)."""
    findings: list[Finding] = []
    stack = [(path, expected, actual)]
    while stack:
        node_path, want, got = stack.pop()
        if want.version != got.version:
            findings.append(
                Finding(
                    "ZOM-002",
                    "error",
                    node_path,
                    f"expected Zarr v{want.version}, found v{got.version}",
                )
            )
            continue
        if want.kind != got.kind:
            findings.append(
                Finding(
                    "ZOM-004", "error", node_path, f"expected {a(want.kind)}, found {a(got.kind)}"
                )
            )
            continue
        findings.extend(_compare_metadata(node_path, metadata_of(want), metadata_of(got)))
        if compare_attributes and not json_equal(want.attributes, got.attributes):
            findings.append(
                Finding(
                    "ZOM-001",
                    "error",
                    node_path,
                    f"attributes differ: expected {_short(want.attributes)}, found {_short(got.attributes)}",
                )
            )
        if not isinstance(want, GROUP_MODELS) or not isinstance(got, GROUP_MODELS):
            continue  # arrays, or a kind mismatch already reported
        for name in sorted(set(want.members) - set(got.members)):
            findings.append(
                Finding(
                    "ZOM-004",
                    "error",
                    join(node_path, name),
                    f"missing member: expected {a(want.members[name].kind)}",
                )
            )
        if members == "exact":
            for name in sorted(set(got.members) - set(want.members)):
                findings.append(
                    Finding(
                        "ZOM-004",
                        "error",
                        join(node_path, name),
                        f"unexpected member ({a(got.members[name].kind)})",
                    )
                )
        for name in sorted(set(want.members) & set(got.members), reverse=True):
            stack.append((join(node_path, name), want.members[name], got.members[name]))
    return sorted(findings, key=lambda f: (f.path, f.requirement, f.message))


def _compare_metadata(path: str, want: dict[str, Any], got: dict[str, Any]) -> list[Finding]:
    out = []
    for key in sorted(set(want) | set(got)):
        if key not in got:
            out.append(
                Finding(
                    "ZOM-002",
                    "error",
                    path,
                    f"metadata {key!r} missing (expected {_short(want[key])})",
                )
            )
        elif key not in want:
            out.append(
                Finding(
                    "ZOM-002", "error", path, f"unexpected metadata {key!r} = {_short(got[key])}"
                )
            )
        elif not json_equal(want[key], got[key]):
            out.append(
                Finding(
                    "ZOM-002",
                    "error",
                    path,
                    f"metadata {key!r}: expected {_short(want[key])}, found {_short(got[key])}",
                )
            )
    return out


def read_for_check(
    store: Store | str | os.PathLike[str], path: str = "", format: str | None = None
) -> tuple[Model | None, str, list[Finding]]:
    """(the store's ZOM, normalised root path, findings), tolerating nodes whose metadata is
    refused: each becomes a finding and the node is left out of the model."""
    findings: list[Finding] = []

    def failed(failure: NodeFailure) -> None:
        findings.append(_failure_finding(failure.path, failure.error))

    try:
        model, root = walk(open_store(store), path, format, on_failure=failed)
    except ZarrError as exc:
        return None, path, findings + [_failure_finding(path, exc)]
    return model, root, findings


def _failure_finding(path: str, error: ZarrError) -> Finding:
    return Finding(
        error.requirement or "ZOM-002",
        "error",
        path,
        f"cannot model this node: [{error.reason}] {error.message}",
        error.reason,
    )


def check_against(
    store: Store | str | os.PathLike[str],
    model: Model,
    path: str = "",
    members: MemberMatch = "exact",
    compare_attributes: bool = False,
) -> list[Finding]:
    """Findings for how the hierarchy at `path` differs from `model` ([] when it conforms)."""
    actual, root, findings = read_for_check(store, path, f"v{model.version}")
    if actual is not None:
        findings += compare_models(
            model, actual, members=members, compare_attributes=compare_attributes, path=root
        )
    return findings


def a(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def _short(value: Any, limit: int = 120) -> str:
    text = canonical(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
