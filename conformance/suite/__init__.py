"""The conformance tests themselves, run through the harness's pytest plugin:

    pytest --pyargs conformance.suite --impl <adapter>      (or: zarr-conformance run --impl <adapter>)

Each test module checks one kind of behaviour (read, reject, write, cross, zom, property) and is
parametrised by the plugin over the selected adapters and the corpus cases of that kind.
"""

from __future__ import annotations

# Property tests are recorded like cases, under these ids (known failures can name them).
PROPERTY_FORMATS = {"property/roundtrip-v3": "v3", "property/roundtrip-v2": "v2"}
PROPERTIES = tuple(PROPERTY_FORMATS)


def property_id(function_name: str) -> str:
    """`test_property_roundtrip_v3` -> `property/roundtrip-v3`."""
    name = function_name.removeprefix("test_property_").replace("_", "-")
    return f"property/{name}"
