"""Known-failure entries limited to store kinds (`stores`): one bug may show as a crash on a file
and as wrong data over HTTP, where a second bug of the same reader joins in."""

from conformance.harness.config import KnownFailure


def entry(**extra):
    return KnownFailure(id="x", cases=("v3/a",), reason="r", issue="unreported", **extra)


def test_an_entry_without_stores_covers_every_store_kind():
    assert all(entry().matches("read", "v3/a", store=s) for s in ("directory", "http", None))


def test_an_entry_with_stores_covers_only_those():
    remote = entry(stores=("http", "s3"))
    assert remote.matches("read", "v3/a", store="http")
    assert remote.matches("read", "v3/a", store="s3")
    assert not remote.matches("read", "v3/a", store="directory")
    assert not remote.matches("read", "v3/b", store="http")
