"""The copy-paste reproducer shown beside a verdict: the standalone script of a known failure's
ready-to-file report (its ```python reproduce``` block, which tests/upstream runs against the
pinned version), or the script `zarr-conformance reproduce` prints for the record."""

from __future__ import annotations

import re
from functools import cache

from conformance.resources import checkout_root

_BLOCK = re.compile(r"^```(?:python|js|javascript)[ \t]+reproduce[ \t]*\n(.*?)^```", re.M | re.S)


@cache
def report_block(report: str) -> str | None:
    """The reproduce block of a report under reports/upstream/, when the checkout has it."""
    root = checkout_root()
    if root is None or not report:
        return None
    path = (root / report).resolve()
    if root.resolve() not in path.parents or not path.is_file():
        return None
    found = _BLOCK.search(path.read_text("utf-8"))
    return found.group(1) if found else None


def tool_script(record: dict) -> str | None:
    """What `zarr-conformance reproduce RESULTS CASE --impl NAME` prints for this record.
    Not available in this version: the command comes with the verdict model (issue 16)."""
    return None


def reproducer(record: dict) -> tuple[str, str] | None:
    """(where it comes from, the script) for a record, or None when there is none yet."""
    kf = record.get("known_failure") or {}
    script = tool_script(record)
    if script:
        return ("zarr-conformance reproduce", script)
    block = report_block(kf.get("report") or "")
    if block:
        return (kf["report"], block)
    return None
