"""What every format's kit shares: case tables (builder modules list their cases as rows of data and
turn each row into a case with one small function) and reject cases."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable

from ..generator import VERDICT_MEMBERS, add_case, verdict


def each(build: Callable, table: Iterable[tuple], **table_verdict: str) -> None:
    """Call `build` once per row. A row holds `build`'s required arguments in order, optionally
    followed by one dict of keyword arguments (tier, needs, shapes: whatever `build` takes).

    `question`, `tier_reason`, `tests` and `citation_note` (generator.VERDICT_MEMBERS) say what the
    cases ask: given here they hold for the whole table, in a row's dict for that row (the row
    wins); `build` never sees them."""
    required = [
        p
        for p in inspect.signature(build).parameters.values()
        if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD
    ]
    for row in table:
        args, rest = row[: len(required)], row[len(required) :]
        if len(args) < len(required) or len(rest) > 1 or (rest and not isinstance(rest[0], dict)):
            raise ValueError(f"{build.__name__}: row {row[:1]} does not match its arguments")
        options = dict(rest[0]) if rest else {}
        row_verdict = {k: options.pop(k) for k in VERDICT_MEMBERS if k in options}
        with verdict(**{**table_verdict, **row_verdict}):
            build(*args, **options)


def add_reject(
    case_id: str,
    fill: Callable,
    reason: str,
    requirements,
    description: str,
    *,
    node: str = "",
    needs=(),
    tier: str | None = None,
    stage: str = "open",
) -> None:
    """A reject case of any format: `fill(w)` writes the store, and opening (or reading, with stage
    'read') `node` must fail with `reason`."""

    def build(w):
        fill(w)
        w.node = node
        w.expect_reject(reason, stage)

    add_case(
        case_id,
        kind="reject",
        build=build,
        needs=needs,
        tier=tier,
        requirements=requirements,
        description=description,
    )


# ---- hand-built stores as data -------------------------------------------------------------------


def array(value, **members) -> tuple:
    """The expectation of a `hand_case`: the node reads as `value` (with `members`, e.g. attributes)."""
    return "read", "expect_array", (value,), members


def group(**members) -> tuple:
    """The expectation of a `hand_case`: the node opens as a group with these members."""
    return "read", "expect_group", (), members


def reject(reason: str, stage: str = "open") -> tuple:
    """The expectation of a `hand_case`: opening (or reading) the node fails with `reason`."""
    return "reject", "expect_reject", (reason, stage), {}


def hand_case(
    case_id, needs, requirements, description, files: dict, expect: tuple, *, node="", **options
) -> None:
    """A store given key by key: `files` maps each key to a document (written as JSON) or to its
    bytes; `expect` is array(...), group(...) or reject(...). `zip=True` stores it zipped."""
    kind, method, args, members = expect
    zipped = options.pop("zip", False)

    def build(w):
        for key, value in files.items():
            if isinstance(value, (bytes, bytearray)):
                w.put(key, value)
            else:
                w.put_json(key, value)
        w.node, w.zip = node, zipped
        getattr(w, method)(*args, **members)

    add_case(
        case_id,
        kind=kind,
        build=build,
        needs=needs,
        requirements=requirements,
        description=description,
        **options,
    )
