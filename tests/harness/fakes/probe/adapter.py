"""Does not declare dtype:int32, so int32 cases are probes: it refuses them cleanly in the pretend
library, except on a trigger store, where it reads them and flips one bit (wrong data)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference, library_refuses, triggered

from conformance.harness.adapter_api import load_data, save_data


class Adapter(Reference):
    def read(self, request):
        response = super().read(request)
        if response["node_type"] == "array" and response["dtype"] == "<i4":
            if not triggered(request):
                library_refuses("int32")
            data = np.array(load_data(response["data"]))
            data.reshape(-1).view(np.uint8)[0] ^= 1
            save_data(response["data"], data)
        return response
