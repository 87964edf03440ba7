import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered


class Adapter(Reference):
    def read(self, request):
        if triggered(request):
            print("about to crash", file=sys.stderr, flush=True)
            os._exit(3)
        return super().read(request)
