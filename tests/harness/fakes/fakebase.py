"""Shared by the fake adapters: the reference adapter, which they misbehave around. A fake does
its trick only when the store it is asked about has "trigger" in its path, so that a run over
several cases shows both the errored case and the others passing after the restart."""

from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")


def triggered(request: dict) -> bool:
    return "trigger" in request.get("store", {}).get("location", "")


# A stand-in for the library under test: code outside the fake's own folder, so that what it
# raises has origin "implementation" (see conformance.harness.adapter_api.raised_in_adapter).
class LibraryError(Exception):
    """How the pretend library refuses something: a clean refusal, not a crash type."""


def library_refuses(what: str):
    raise LibraryError(f"cannot handle {what}")


def library_crashes(value=None):
    return value.shape  # AttributeError: a library bug, whatever the input
