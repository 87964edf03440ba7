"""Where the reference refuses a store, crashes inside the pretend library (AttributeError, a crash
type: never a correct rejection); on a trigger store, raises ValueError in its own code (adapter
code: never a refusal either)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, library_crashes, triggered

from conformance.reference.errors import ZarrError


class Adapter(Reference):
    def read(self, request):
        if triggered(request):
            raise ValueError("the adapter mixed up its arguments")
        try:
            return super().read(request)
        except ZarrError:
            library_crashes()
