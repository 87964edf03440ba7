"""The conformance tests themselves, run through the harness's pytest plugin:

    pytest --pyargs conformance.suite --impl <adapter>      (or: zarr-conformance run --impl <adapter>)

Each test module checks one kind of behaviour (read, reject, write, cross, zom, property) and is
parametrised by the plugin over the selected adapters and the corpus cases of that kind.

(Property test ids and example settings live in conformance.harness.properties: the harness needs
them without importing the tests.)
"""
