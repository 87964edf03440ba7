"""Reports integer attributes as floats (1 -> 1.0), or as booleans on a trigger store (1 -> true):
Python's == would call both equal."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered


class Adapter(Reference):
    def read(self, request):
        response = super().read(request)
        retype = bool if triggered(request) else float
        response["attributes"] = {
            k: retype(v) if type(v) is int else v for k, v in response["attributes"].items()
        }
        return response
