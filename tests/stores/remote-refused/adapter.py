"""Bug: turns every URL store into an `unsupported` answer although it declares store:http and
store:s3 (what an adapter must never do with a URL it was asked to open)."""

from conformance.harness.adapter_api import Unsupported
from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")


class Adapter(Reference):
    def read(self, request: dict) -> dict:
        if request["store"]["kind"] == "url":
            raise Unsupported(f"no URL stores: {request['store']['location']}")
        return super().read(request)
