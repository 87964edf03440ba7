import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, triggered


class Adapter(Reference):
    """Dies of SIGSEGV on a trigger case, as a C library does on input it cannot handle."""

    def read(self, request):
        if triggered(request):
            print("about to segfault", file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGSEGV)
        return super().read(request)
