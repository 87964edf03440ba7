"""The reference without the protocol's region read (`bench`): it reads whole arrays only, as an
adapter that has not written a bench op yet."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference


class Adapter(Reference):
    bench = None  # the op is missing: serve answers it as a request it does not know
