import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered


class Adapter(Reference):
    def read(self, request):
        if triggered(request):
            while True:
                time.sleep(3600)
        return super().read(request)
