"""Running `zarr-conformance validate` in-process in a test and reading its output."""

from __future__ import annotations

import re

FINDING_LINE = re.compile(r"^(ERROR|CANNOT-CHECK|WARNING|NOTE) (\S+) ([a-z0-9-]+) (/[^:]*): (.+)$")


class CLIOutput:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err
        self.lines = [line for line in out.splitlines() if line]
        # (level, requirement or '-', reason, node path, message)
        self.findings = [m.groups() for m in map(FINDING_LINE.match, self.lines) if m]

    def has(
        self, level: str, requirement: str | None, reason: str, path: str | None = None
    ) -> bool:
        return any(
            f[0] == level
            and f[1] == (requirement or "-")
            and f[2] == reason
            and (path is None or f[3] == path)
            for f in self.findings
        )

    @property
    def summary(self) -> str:
        summaries = [line for line in self.lines if line.startswith("SUMMARY")]
        return summaries[-1] if summaries else ""

    def __repr__(self) -> str:
        return f"exit {self.code}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def run_validate(capsys, *args) -> CLIOutput:
    """`zarr-conformance validate ARGS` through conformance.cli.main; usage errors give code 2."""
    from conformance.cli import main

    try:
        code = main(["validate", *map(str, args)])
    except SystemExit as exc:  # argparse
        code = exc.code
    captured = capsys.readouterr()
    return CLIOutput(code, captured.out, captured.err)
