"""Bug: drops user attributes on read and on write (V3-ATTR-002, V2-ATTR-001, V1-ATTR-001)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import Reference


class Adapter(Reference):
    def read(self, request):
        response = super().read(request)
        response["attributes"] = {}
        return response

    def write(self, request):
        return super().write(dict(request, attributes={}))
