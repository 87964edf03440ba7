"""`--adapter-overrides FILE`: an implementer's own known failures and error rules for the build
under test, merged into the installed adapter's (drop fixed entries, add or replace entries, error
rules tried first), from a file in their repository."""

from __future__ import annotations

import json
import os

import pytest
from test_run import ADAPTER, CAPS, make_adapter, run_cli

from conformance.harness import overrides
from conformance.harness.config import AdapterConfigError, load_adapter_config

KNOWN = """\
[[known_failures]]
id = "attributes-dropped"
cases = ["v3/read/plain-a"]
test = "read"
reason = "attributes are dropped on read"
issue = "https://example.org/o/r/issues/1"
"""

OVERRIDES = """\
[drops]
drop = ["attributes-dropped"]

[[drops.known_failures]]
id = "attributes-dropped-b"
cases = ["v3/read/plain-b"]
test = "read"
reason = "this build drops the attributes of plain-b too"
issue = "https://example.org/o/r/issues/7"

[[drops.errors]]
type = "LibraryError"
raised_in = "^fakebase\\\\."
raised_by = "raise"
category = "unsupported"
reason = "this build declines it on purpose"
"""


@pytest.fixture
def adapters(tmp_path):
    code = ADAPTER.replace(
        'response["attributes"] = {}',
        'response["attributes"] = {} if response["node_type"] == "array" else response["attributes"]',
    )
    make_adapter(tmp_path / "adapters", "drops", CAPS, known=KNOWN, code=code)
    (tmp_path / "overrides.toml").write_text(OVERRIDES)
    return tmp_path / "adapters"


def test_load_and_apply(adapters, tmp_path):
    config = load_adapter_config(adapters / "drops").at_release(None)
    found = overrides.load([tmp_path / "overrides.toml"])
    changed = overrides.apply(config, found)
    assert [k.id for k in changed.known_failures] == ["attributes-dropped-b"]
    assert changed.errors[0].type == "LibraryError" and changed.errors[1:] == config.errors
    assert overrides.apply(config, {}) == config


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[drops]\ndrop = [1]\n", "drop"),
        ("[drops]\nknown_failures = [{id = 'x'}]\n", "required"),
        ("[drops]\nerrors = [{type = 'X', category = 'nonsense'}]\n", "nonsense"),
        ("[drops]\nerrors = [{type = 'X', category = 'io', raised_in = '('}]\n", "regular"),
        ("[drops]\nextra = 1\n", "extra"),
        ("not toml [", "Expected"),
    ],
)
def test_a_bad_file_is_a_clear_error(tmp_path, text, problem):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(AdapterConfigError, match=problem):
        overrides.load([path])


def test_drop_must_name_an_installed_entry(adapters, tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text('[drops]\ndrop = ["attributes-droped"]\n')
    config = load_adapter_config(adapters / "drops").at_release(None)
    with pytest.raises(AdapterConfigError, match="attributes-droped"):
        overrides.apply(config, overrides.load([path]))


def test_a_run_with_overrides(adapters, tmp_path, mini_corpus):
    results = tmp_path / "results.jsonl"
    proc = run_cli(
        "--impl",
        "drops",
        "--fixtures",
        str(mini_corpus),
        "--kinds",
        "read",
        "--cases",
        "v3/read/plain-*",
        "--results",
        str(results),
        "--adapter-overrides",
        str(tmp_path / "overrides.toml"),
        env_extra={"ZARR_CONFORMANCE_ADAPTERS": os.pathsep.join([str(adapters)])},
        cwd=tmp_path,
    )
    records = {json.loads(x)["case"]: json.loads(x) for x in results.read_text().splitlines()}
    # the dropped entry no longer absorbs plain-a; the override's entry covers plain-b
    assert records["v3/read/plain-a"]["outcome"] == "failed"
    assert records["v3/read/plain-b"]["outcome"] == "known-failure"
    assert records["v3/read/plain-b"]["known_failure"]["id"] == "attributes-dropped-b"
    assert proc.returncode == 1
    assert "adapter overrides: " in proc.stdout and "1 dropped, 1 known failure(s)" in proc.stdout
    meta = json.loads((tmp_path / "results.meta.json").read_text())
    assert meta["adapter_overrides"] == [str(tmp_path / "overrides.toml")]
