"""The reference behind a check of every incoming request against schemas/request.json (so the
suite's requests are proven to follow the contract). It lacks op:zom, so zom cases go through the
harness's list + read path."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fakebase import Reference

from conformance.harness.adapter_api import ProtocolError
from conformance.harness.schemas import problems


class Adapter(Reference):
    def __getattribute__(self, name):
        attr = super().__getattribute__(name)
        if name in ("describe", "read", "write", "list", "validate"):

            def checked(request, _method=attr):
                found = problems("request", request)
                if found:
                    raise ProtocolError(f"request breaks request.json: {found}")
                return _method(request)

            return checked
        return attr
