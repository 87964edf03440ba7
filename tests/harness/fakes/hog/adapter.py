import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered

HOLD = []


class Adapter(Reference):
    def read(self, request):
        if triggered(request):
            # 10 GiB of zeros: calloc maps fresh pages without touching them, so without the cap this
            # costs nothing (bytearray would memset and really use the memory).
            import numpy as np

            HOLD.append(np.zeros(10 << 30, dtype=np.uint8))
        return super().read(request)
