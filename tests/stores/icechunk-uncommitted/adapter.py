"""Bug: writes into an Icechunk repository go through the session's store but are never committed,
so the branch never holds them; everything else is zarr-python's own adapter."""

import sys

from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

ZarrPython = load_adapter_class(ADAPTERS_DIR / "zarr-python")
# The zarr-python adapter commits through its module's commit(): make it forget to.
sys.modules[ZarrPython.__module__].commit = lambda store, spec: None


class Adapter(ZarrPython):
    pass
