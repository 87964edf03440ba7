"""`zarr-conformance validate`: which spec requirements a store breaks.

    from conformance.validate import validate
    result = validate("data.zarr", out=io.StringIO())   # or a URL or a Store
    result.exit_code, result.findings, result.sink.tally

Modules: runner (one run: open, detect formats, walk, summarise), walker (one format's
hierarchy), chunks (matching keys to grid positions), lint (tolerated deviations and SHOULD
rules), discovery (stores that cannot list), requirement_map (errors to requirement IDs),
findings, budget (time limit and progress), sample (`--sample`), cli.
"""

from typing import Any

__all__ = ["Finding", "Result", "UsageError", "validate"]


def __getattr__(name: str) -> Any:
    # Lazy, so that `zarr-conformance --help` does not import NumPy through this package.
    if name == "Finding":
        from .findings import Finding

        return Finding
    if name in ("validate", "Result", "UsageError"):
        from . import runner

        return getattr(runner, name)
    raise AttributeError(name)
