"""Fixtures for the adapter self-tests: adapter clients started through the harness, which
provisions each adapter's own environment on first use."""

from __future__ import annotations

import pytest

from conformance.harness.client import AdapterClient, make_transport
from conformance.harness.config import find_adapter


@pytest.fixture(scope="session")
def adapter_clients():
    clients: dict[str, AdapterClient] = {}

    def get(name: str) -> AdapterClient:
        if name not in clients:
            config = find_adapter(name)
            clients[name] = AdapterClient(config, make_transport(config))
        return clients[name]

    yield get
    for client in clients.values():
        client.close()
