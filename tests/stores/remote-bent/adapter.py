"""Bug: reads over a URL store return wrong data (the first element's bits flipped); reads of a
directory are right. A matrix that runs only local stores cannot see it."""

import numpy as np

from conformance.harness.adapter_api import load_data, save_data
from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")


class Adapter(Reference):
    def read(self, request: dict) -> dict:
        response = super().read(request)
        if request["store"]["kind"] == "url" and response.get("node_type") == "array":
            data = np.array(load_data(response["data"]))
            if data.size:
                flat = data.reshape(-1).view(np.uint8)
                flat[0] ^= 0xFF
                save_data(request["output"], data)
        return response
