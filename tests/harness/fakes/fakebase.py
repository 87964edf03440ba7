"""Shared by the fake adapters: the reference adapter, which they misbehave around. A fake does
its trick only when the store it is asked about has "trigger" in its path, so that a run over
several cases shows both the errored case and the others passing after the restart."""

from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")


def triggered(request: dict) -> bool:
    return "trigger" in request.get("store", {}).get("location", "")
