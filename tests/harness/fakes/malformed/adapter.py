import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered


class Adapter(Reference):
    def read(self, request):
        response = super().read(request)
        if triggered(request):
            response.pop("attributes", None)
            response["shape"] = "ten"
        return response
