"""Hostile stores: written as real files under tmp_path and judged through the store API, the
reference and the `validate` command."""

from __future__ import annotations

from conformance.testing.fixtures import serve_http, validate_cli  # noqa: F401
