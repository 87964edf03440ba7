"""Reads like the reference, then flips one bit of the first element (a silent data bug)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference

from conformance.harness.adapter_api import load_data, save_data


class Adapter(Reference):
    def read(self, request):
        response = super().read(request)
        if response["node_type"] == "array":
            data = np.array(load_data(response["data"]))
            if data.size and not data.dtype.hasobject:
                data.reshape(-1).view(np.uint8)[0] ^= 1
                save_data(response["data"], data)
        return response
