"""Answers `unsupported` (adapter_api.Unsupported) for trigger stores. Its adapter.toml declares no
[[errors]] entry for that answer, so the harness must not take it as `unsupported`
(unsupported-declared is the same adapter with the declaration)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered

from conformance.harness.adapter_api import Unsupported


class Adapter(Reference):
    def read(self, request):
        if triggered(request):
            raise Unsupported("this adapter does not drive trigger stores")
        return super().read(request)
