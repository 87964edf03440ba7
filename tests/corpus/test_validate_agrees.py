"""`zarr-conformance validate` agrees with every case's verdict: valid stores pass (exit 0),
must-reject stores fail (exit 1) naming the case's reason code."""

from __future__ import annotations

import io

import pytest

from conformance.corpus import default_root, load_cases
from conformance.validate.runner import validate

CASES = [c for c in load_cases(default_root()) if c.kind in ("read", "reject")]

# Read cases whose store breaks a requirement on purpose, to check how readers cope with it.
READ_CASES_THAT_BREAK_THE_SPEC = {
    "v3/groups/implicit-parent-not-listed": "no a/zarr.json above a/b (V3-GRP-005); readers must not list it",
    "v2/groups/members": "foo/qux/quux/.zarray without foo/qux/.zgroup (V2-GROUP-005's own fixture)",
    "v2/groups/root-skips-non-group": "a/b/.zarray without a/.zgroup (V2-GROUP-001's own fixture)",
}

# Reject cases whose store breaks no requirement: readers must refuse them for another reason.
REJECT_CASES_WITHOUT_A_VIOLATION = {
    "v2/objects/reject-pickle-object-codec": "unpickling runs code from the store (question "
    "code-execution): refused for safety, not by a spec sentence, so validate cannot check it",
}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_validate_agrees_with_case(case):
    result = validate(str(case.store_path), format=case.format, path=case.node, out=io.StringIO())
    errors = [f for f in result.findings if f.level == "ERROR"]
    if case.id in READ_CASES_THAT_BREAK_THE_SPEC:
        assert result.exit_code == 1, (
            "validate missed the deliberate violation: " + READ_CASES_THAT_BREAK_THE_SPEC[case.id]
        )
    elif case.id in REJECT_CASES_WITHOUT_A_VIOLATION:
        assert result.exit_code == 3, "validate should say it cannot check the store (exit 3)"
    elif case.kind == "read":
        assert result.exit_code == 0, "a valid store was reported broken:\n" + "\n".join(
            f.line() for f in errors
        )
    else:
        assert result.exit_code == 1, (
            f"a store that must be rejected ({case.expect['reason']}) passed validation"
        )
        reasons = {f.reason for f in errors}
        assert case.expect["reason"] in reasons, (
            f"expected reason {case.expect['reason']!r}, got {sorted(reasons)}"
        )
