"""pytest fixtures around the loopback servers.

Also `validate_cli`, which runs `zarr-conformance validate` in-process (conformance/testing/cli.py).

Enable with `pytest_plugins = ["conformance.testing.fixtures"]` in a root conftest.py, or import
the fixtures into a conftest (`from conformance.testing.fixtures import *`).

    def test_over_http(serve_http, tmp_path):
        server = serve_http(tmp_path)            # stopped at the end of the test
        store = URLStore(server.url)

    def test_over_s3(serve_s3, tmp_path):
        url, options = serve_s3(tmp_path)        # a fresh bucket on a session-wide moto server
        store = URLStore(url, storage_options=options)
"""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from .servers import S3ServerHandle, http_server, s3_server

__all__ = ["moto_s3", "serve_http", "serve_s3", "validate_cli"]


@pytest.fixture
def serve_http():
    """A function (root_dir, ranges=True, delay=0.0) -> HTTPServerHandle."""
    with ExitStack() as stack:
        yield lambda root_dir, **options: stack.enter_context(http_server(root_dir, **options))


@pytest.fixture(scope="session")
def moto_s3() -> S3ServerHandle:
    """One moto S3 server for the whole session (starting one takes about a second)."""
    with s3_server() as handle:
        yield handle


@pytest.fixture
def serve_s3(moto_s3):
    """A function (root_dir, prefix='') -> (s3:// URL, storage_options), uploading the tree
    into a new bucket."""

    def serve(root_dir, prefix: str = ""):
        return moto_s3.upload_tree(root_dir, prefix=prefix), moto_s3.storage_options

    return serve


@pytest.fixture
def validate_cli(capsys):
    """A function (*args) -> CLIOutput running `zarr-conformance validate ARGS` in-process."""
    from .cli import run_validate

    return lambda *args: run_validate(capsys, *args)
