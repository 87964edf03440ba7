"""A reader that trusts its input, to prove the hostile suite tells it apart from a careful one: it
joins node paths as given ('..' included), follows symbolic links, parses metadata with Python's
lenient json (NaN tokens), lists every directory as a member and reads chunk c/0 as raw int32."""

import json
import os

import numpy as np

from conformance.harness.adapter_api import save_data


class Adapter:
    def describe(self, request):
        return {"name": "naive", "version": "0", "versions": {}}

    def read(self, request):
        node = os.path.join(request["store"]["location"], request["node"])
        with open(os.path.join(node, "zarr.json"), "rb") as f:
            doc = json.loads(f.read())
        if doc["node_type"] == "group":
            members = {
                name: "group"
                for name in sorted(os.listdir(node))
                if os.path.isdir(os.path.join(node, name))
            }
            return {
                "node_type": "group",
                "metadata": doc,
                "attributes": doc.get("attributes", {}),
                "members": members,
            }
        shape = doc["shape"]
        chunk = os.path.join(node, "c", "0")
        if os.path.exists(chunk):
            with open(chunk, "rb") as f:
                data = np.frombuffer(f.read(), "<i4").reshape(shape)
        else:
            data = np.full(shape, doc["fill_value"], "<i4")
        return {
            "node_type": "array",
            "metadata": doc,
            "attributes": doc.get("attributes", {}),
            "data": save_data(request["output"], data),
            "shape": list(data.shape),
            "dtype": "<i4",
        }
