"""Loopback HTTP / S3 servers for the store tests (see conformance/testing/fixtures.py)."""

from conformance.testing.fixtures import moto_s3, serve_http, serve_s3  # noqa: F401
