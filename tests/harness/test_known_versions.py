"""Known failures with version ranges (`versions = "<PEP 440 specifier>"`): an entry applies only
to a run of a release inside its range; a bug fixed in a later release is a plain pass there that
says where it was fixed, never a stale "known failure now passes"."""

from __future__ import annotations

import json
import os
from importlib.metadata import version as installed
from pathlib import Path

import pytest
from test_run import ADAPTER, CAPS, make_adapter, run_cli

from conformance.harness.config import AdapterConfigError, KnownFailure, known_failures_of


def entry(**extra) -> KnownFailure:
    fields = {"id": "x", "cases": ("v3/a",), "reason": "r" * 10, "issue": "unreported", **extra}
    return KnownFailure(**fields)


def test_holds_for():
    ranged = entry(versions=">=3.0,<3.3")
    assert ranged.holds_for("3.0.10") and ranged.holds_for("3.2.1")
    assert not ranged.holds_for("3.3.0") and not ranged.holds_for("2.18.7")
    assert ranged.holds_for("3.3.0.dev4") is False  # a pre-release of the fixed one: fixed
    assert ranged.holds_for("3.1.0rc1")  # pre-releases inside the range count
    assert entry().holds_for("9.9") and entry().holds_for(None)  # no range: every release
    assert ranged.holds_for(None)  # the version is unknown: apply as written
    assert ranged.holds_for("1:3.6.2-1")  # not a PEP 440 version (a Debian epoch): apply


def test_fixed_in_is_the_upper_bound():
    assert entry(versions="<3.3").fixed_in() == "3.3"
    assert entry(versions=">=3.0,<3.4.1").fixed_in() == "3.4.1"
    assert entry(versions=">=3.4").fixed_in() is None and entry().fixed_in() is None
    assert (
        entry(versions="<3.3").describe_fixed("3.4.2").startswith("fixed in 3.3: known failure x")
    )


def test_at_release_sets_fixed_entries_aside():
    from conformance.harness.config import AdapterConfig

    config = AdapterConfig(
        name="a",
        folder=Path("."),
        description="d",
        transport="python",
        known_failures=(entry(versions="<3.3"), entry(id="y", versions=">=3.3")),
    )
    new = config.at_release("3.4.2")
    assert [k.id for k in new.known_failures] == ["y"]
    assert [k.id for k in new.fixed_failures] == ["x"]
    assert (
        new.fixed_failure("read", "v3/a").id == "x"
        and new.known_failures_for("read", "v3/a")[0].id == "y"
    )
    old = new.at_release("3.2.1")  # nothing is lost between releases
    assert [k.id for k in old.known_failures] == ["x"] and old.impl_version == "3.2.1"


def test_a_range_must_be_a_specifier():
    doc = {
        "known_failures": [
            {
                "id": "x",
                "cases": ["a"],
                "reason": "r" * 10,
                "issue": "unreported",
                "report": "reports/upstream/a/x.md",
                "versions": "3.3 or later",
            }
        ]
    }
    with pytest.raises(AdapterConfigError, match="not a PEP 440 specifier"):
        known_failures_of(doc, "here")


@pytest.fixture(scope="module")
def ranged_run(mini_corpus, tmp_path_factory):
    """An adapter that drops array attributes, "pinning" the numpy installed here and run with
    --impl-env current, so that the release under test is that numpy's version."""
    numpy = installed("numpy")
    tmp = tmp_path_factory.mktemp("ranged")
    adapters = tmp / "adapters"
    make_adapter(
        adapters,
        "ranged",
        CAPS,
        known=f"""\
        [[known_failures]]
        id = "dropped-here"
        cases = ["v3/read/plain-a"]
        test = "read"
        reason = "attributes are dropped on read (this release)"
        issue = "https://example.org/o/r/issues/1"
        versions = "=={numpy}"

        [[known_failures]]
        id = "dropped-before"
        cases = ["v3/read/plain-b"]
        test = "read"
        reason = "attributes were dropped on read by old releases"
        issue = "https://example.org/o/r/issues/2"
        versions = "<1.0"

        [[known_failures]]
        id = "group-fixed"
        cases = ["v3/read/group"]
        test = "read"
        reason = "group reads failed in old releases"
        issue = "https://example.org/o/r/issues/3"
        versions = ">=0.1,<1.5"
        """,
        code=ADAPTER.replace(
            'response["attributes"] = {}',
            'response["attributes"] = {} if response["node_type"] == "array" else response["attributes"]',
        ),
    )
    toml = adapters / "ranged" / "adapter.toml"
    toml.write_text(toml.read_text() + f'requirements = ["numpy=={numpy}"]\n')
    results = tmp / "results.jsonl"
    proc = run_cli(
        "--impl",
        "ranged",
        "--impl-env",
        "current",
        "--fixtures",
        str(mini_corpus),
        "--kinds",
        "read",
        "--cases",
        "v3/read/*",
        "--results",
        str(results),
        env_extra={"ZARR_CONFORMANCE_ADAPTERS": os.pathsep.join([str(adapters)])},
        cwd=tmp,
    )
    records = {
        json.loads(line)["case"]: json.loads(line) for line in results.read_text().splitlines()
    }
    return proc, records


def test_an_entry_applies_only_inside_its_range(ranged_run):
    proc, records = ranged_run
    here = records["v3/read/plain-a"]
    assert here["outcome"] == "known-failure" and here["known_failure"]["id"] == "dropped-here"
    # the bug is real on this release, but its entry says it was fixed: a plain failure
    before = records["v3/read/plain-b"]
    assert before["outcome"] == "failed" and "known_failure" not in before
    assert proc.returncode == 1 and "v3/read/plain-b" in proc.stdout


def test_a_bug_fixed_in_a_later_release_is_a_pass_that_says_so(ranged_run):
    proc, records = ranged_run
    group = records["v3/read/group"]
    assert group["outcome"] == "passed" and "known_failure" not in group
    assert group["message"].startswith("fixed in 1.5: known failure group-fixed does not hold")
    assert "now passes" not in proc.stdout and "matches no case" not in proc.stdout
