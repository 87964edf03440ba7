"""What a failed response means: a clean refusal by the implementation, a declared `unsupported`,
or a crash. Decided from structured members only (the exception's type and module, where it was
raised, the adapter's [[errors]] rules, the reason code), never from the wording of a message
alone: an adapter that called every error "unsupported" would otherwise hide its bugs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .config import AdapterConfig, ErrorRule

# Exception types that are bugs wherever they come from: never a correct rejection (Python's;
# adapters add their language's and their library's own with [[errors]] category "crash").
CRASH_TYPES = frozenset(
    {
        "AttributeError",
        "TypeError",
        "KeyError",
        "IndexError",
        "RecursionError",
        "NameError",
        "UnboundLocalError",
        "ZeroDivisionError",
        "AssertionError",
        "SystemError",
    }
)

# The category of each reason code of conformance/reference/errors.py: which layer refused.
REASON_CATEGORY = {
    **dict.fromkeys(
        (
            "invalid-json",
            "invalid-metadata",
            "missing-field",
            "unknown-field",
            "must-understand",
            "invalid-zarr-format",
            "invalid-node-type",
            "invalid-shape",
            "invalid-chunk-shape",
            "invalid-chunk-grid",
            "invalid-chunk-key-encoding",
            "invalid-data-type",
            "unknown-data-type",
            "unknown-chunk-grid",
            "unknown-chunk-key-encoding",
            "invalid-fill-value",
            "invalid-order",
            "invalid-dimension-names",
            "invalid-storage-transformer",
            "invalid-attributes",
            "invalid-extension",
            "unregistered-extension",
            "invalid-path",
            "invalid-node-name",
            "node-not-found",
            "implicit-group",
            "node-exists",
            "stray-key",
            "mixed-formats",
        ),
        "metadata",
    ),
    **dict.fromkeys(("invalid-codec", "unknown-codec", "codec-order"), "codec"),
    **dict.fromkeys(("checksum-mismatch", "corrupt-chunk", "corrupt-shard-index"), "chunk-data"),
    **dict.fromkeys(("io-error", "read-only"), "io"),
}
# Reason codes that name no layer a store can be wrong in (limits, support, validation results).
UNCATEGORISED = frozenset({"too-large", "unsupported", "model-mismatch"})


@dataclass(frozen=True)
class Refusal:
    """A failed response, judged."""

    type: str
    message: str
    reason: str | None  # the reason code, when the implementation gives one
    category: (
        str | None
    )  # metadata | codec | chunk-data | io | unsupported | crash, or None: unknown
    verdict: str  # "refusal" (clean), "unsupported" (declared), "crash", "undeclared" (unsupported answer)
    why: str  # for unsupported and crash: the rule's reason or what made it a crash

    def describe(self) -> str:
        reason = f" [{self.reason}]" if self.reason else ""
        return f"{self.type}{reason}: {self.message}"

    def as_record(self, expected_reason: str | None) -> dict[str, Any]:
        """The record's `refusal` member; expected_reason: the case's reason code, if it has one."""
        expected = REASON_CATEGORY.get(expected_reason) if expected_reason else None
        right = None if expected is None or self.category is None else self.category == expected
        return {
            "type": self.type,
            "message": self.message,
            "category": self.category,
            "expected_category": expected,
            "right_reason": right,
        }


def judge_refusal(config: AdapterConfig, body: dict[str, Any]) -> Refusal:
    """Judge the failed response `body` of adapter `config`."""
    error = body.get("error") or {}
    rule = next((r for r in config.errors if r.matches(error)), None)
    reason = error.get("reason")
    category = (
        rule.category
        if rule is not None
        else REASON_CATEGORY.get(reason)
        if isinstance(reason, str)
        else None
    )
    verdict, why = _verdict(error, rule, bool(body.get("unsupported")))
    return Refusal(
        type=error.get("type", ""),
        message=error.get("message", ""),
        reason=error.get("reason"),
        category=category,
        verdict=verdict,
        why=why,
    )


def _deliberate(rule: ErrorRule) -> bool:
    """A crash type the library raises on purpose (zarr-python's metadata parsers raise
    TypeError for a member of the wrong JSON type) is a refusal only under a rule that names the
    type, pins it down and says why: an audited exception, never a blanket one. Pinned down by
    where and how it was raised (`raised_in` and `raised_by`, which survive a release that rewords
    its messages; with `phase`, the part of the request), or by a message pattern."""
    return (
        rule.category in ("metadata", "codec", "chunk-data", "io")
        and rule.pinned_down
        and bool(rule.reason)
    )


def _site(error: dict[str, Any]) -> str:
    """Where and how the error was raised, when the adapter says (adapter_api.raise_site)."""
    where = error.get("raised_in")
    if not where:
        return ""
    how = {
        "raise": "raised by a raise statement",
        "assert": "raised by a failed assert",
        "operation": "raised by an operation",
    }.get(error.get("raised_by") or "", "raised")
    phase = f", {error['phase']} phase" if error.get("phase") else ""
    return f" ({how} in {where}{phase})"


def _verdict(
    error: dict[str, Any], rule: ErrorRule | None, unsupported_answer: bool
) -> tuple[str, str]:
    if (
        unsupported_answer
    ):  # the adapter says it cannot drive this: only as declared in adapter.toml
        if rule is not None and rule.category == "unsupported":
            return "unsupported", rule.reason or ""
        return (
            "undeclared",
            "undeclared unsupported answer (adapter.toml [[errors]] has no category-unsupported entry for it)",
        )
    if error.get("origin") == "adapter":
        return "crash", "raised in adapter code"
    if error.get("type") in CRASH_TYPES:
        if rule is not None and _deliberate(rule):
            return "refusal", rule.reason or ""
        return "crash", f"{error.get('type')} is a crash, not a refusal{_site(error)}"
    if rule is not None and rule.category == "crash":
        return "crash", rule.reason or ""
    if rule is not None and rule.category == "unsupported":
        return "unsupported", rule.reason or ""
    return "refusal", ""
