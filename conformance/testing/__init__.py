"""Helpers for test suites: loopback HTTP and S3 servers (servers.py) and pytest fixtures
wrapping them (fixtures.py, usable through `pytest_plugins = ["conformance.testing.fixtures"]`)."""
