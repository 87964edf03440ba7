"""Store kind in the report: a case re-run over HTTP or S3 is its own record (same case id,
another store kind), shown per implementation and store kind, and not counted twice in the
headline."""

from __future__ import annotations

from conformance.harness.records import make_record, summary_table
from conformance.report import matrices as m
from conformance.report.compare import identity
from conformance.report.publish import stores_markdown


def record(kind: str, outcome: str, impl: str = "alpha") -> dict:
    return make_record(
        run_id="r",
        test="read",
        case="v3/sharding/inner-crc32c",
        impl=impl,
        outcome=outcome,
        tier="required",
        format="v3",
        store={"kind": kind},
    )


RECORDS = [
    record("directory", "passed"),
    record("http", "wrong-data"),
    record("s3", "passed"),
    record("directory", "passed", "beta"),
]


def test_same_case_over_each_store_kind_is_a_record_of_its_own():
    assert len({identity(r) for r in RECORDS}) == len(RECORDS)


def test_table_per_implementation_and_store_kind():
    table = m.store_kinds(RECORDS)
    assert table["alpha"]["http"].counts["wrong-data"] == 1
    assert table["alpha"]["directory"].passed == table["alpha"]["s3"].passed == 1
    assert "http" not in table["beta"]
    assert m.kinds_present(RECORDS) == ["directory", "http", "s3"]
    text = stores_markdown(RECORDS)
    assert "| alpha | 1/1 | 0/1 (1 wrong-data) | 1/1 |" in text
    assert "| beta | 1/1 | – | – |" in text


def test_headline_counts_each_case_once_on_its_own_store():
    cell = m.headline(RECORDS)["alpha"]["v3"]["required"]
    assert cell.total == 1 and cell.passed == 1  # the HTTP wrong data is in the store table


def test_summary_has_rows_per_remote_store_kind():
    lines = summary_table(RECORDS).splitlines()
    http = next(line for line in lines if line.startswith("alpha @http"))
    assert http.split()[2] == "1"  # the wrong-data column
    assert not any(line.startswith("beta @") for line in lines)
