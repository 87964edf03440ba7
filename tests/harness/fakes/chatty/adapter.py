import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference

libc = ctypes.CDLL(None)


class Adapter(Reference):
    def describe(self, request):
        print("hello from describe")
        return super().describe(request)

    def read(self, request):
        print("{not json", flush=True)
        libc.puts(b"C-level output on fd 1")
        libc.fflush(None)
        os.write(1, b"raw write on fd 1\n")
        return super().read(request)
