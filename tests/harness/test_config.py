"""adapter.toml: the schema, the capability vocabulary, known-failure matching, adapter lookup."""

from __future__ import annotations

import textwrap

import pytest

from conformance.corpus.capabilities import VOCABULARY
from conformance.harness.config import (ADAPTERS_DIR, AdapterConfigError, KnownFailure, all_adapters, find_adapter,
                                        load_adapter_config)

MINIMAL = 'name = "{name}"\ndescription = "d"\ntransport = "python"\n'


def write(tmp_path, text, name="x", module=True):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "adapter.toml").write_text(textwrap.dedent(text))
    if module:
        (folder / "adapter.py").write_text("class Adapter: pass\n")
    return folder


def test_every_adapter_in_the_repo_is_valid():
    configs = all_adapters()  # raises on the first invalid one
    assert "reference" in {c.name for c in configs}


def test_reference_claims_the_whole_vocabulary():
    # A new capability name must not silently turn reference cases into `unsupported`.
    assert load_adapter_config(ADAPTERS_DIR / "reference").capabilities >= VOCABULARY


@pytest.mark.parametrize("extra, message", [
    ('capabilities = ["codec:gzipp"]\n', "unknown capability 'codec:gzipp'"),
    ('requirements = ["zarr>=3"]\n', "requirements/0"),
    ('npm = ["zarrita"]\n', "npm"),
    ('[[known_failures]]\ncase = "v3/*"\nreason = "r"\n', "'issue' is a required property"),
    ('[[known_failures]]\ncase = "v3/*"\nreason = "r"\nissue = "not a url"\n', "known_failures/0/issue"),
    ('[[known_failures]]\ncase = "v3/*"\nreason = "r"\nissue = "https://x/1"\ntest = "reading"\n', "known_failures/0/test"),
    ('colour = "blue"\n', "Additional properties"),
    ('command = ["node", "x.mjs"]\n', "(root)"),
])
def test_bad_adapter_toml_is_refused(tmp_path, extra, message):
    folder = write(tmp_path, MINIMAL.format(name="x") + extra)
    with pytest.raises(AdapterConfigError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        load_adapter_config(folder)


def test_name_must_match_the_folder(tmp_path):
    with pytest.raises(AdapterConfigError, match="must equal the folder name"):
        load_adapter_config(write(tmp_path, MINIMAL.format(name="other")))


def test_python_adapter_needs_its_module(tmp_path):
    with pytest.raises(AdapterConfigError, match="does not exist"):
        load_adapter_config(write(tmp_path, MINIMAL.format(name="x"), module=False))


def test_command_adapter(tmp_path):
    folder = write(tmp_path, '''\
        name = "js"
        description = "d"
        transport = "command"
        command = ["node", "harness.mjs"]
        npm = ["zarrita@0.7.5", "@zarrita/storage@0.1.4"]
        requirements = []
        ''', name="js", module=False)
    config = load_adapter_config(folder)
    assert config.command == ("node", "harness.mjs") and config.npm == ("zarrita@0.7.5", "@zarrita/storage@0.1.4")


def test_known_failure_matching():
    entry = KnownFailure(id="t", cases=("v3/codecs/transpose-*",), reason="r", issue="https://x/1", test="read")
    assert entry.matches("read", "v3/codecs/transpose-120")
    assert not entry.matches("write", "v3/codecs/transpose-120")
    assert not entry.matches("read", "v3/codecs/gzip")
    exact = KnownFailure(id="t", cases=("v2/a[1]",), reason="r", issue="https://x/1")  # ids are tried verbatim first
    assert exact.matches("read", "v2/a[1]")
    cross = KnownFailure(id="t", cases=("*",), reason="r", issue="https://x/1", test="cross", role="reader", peer="tensor*")
    assert cross.matches("cross", "v3/x", "reader", "tensorstore")
    assert not cross.matches("cross", "v3/x", "writer", "tensorstore")
    assert not cross.matches("cross", "v3/x", "reader", "zarrs")


def test_find_adapter_by_name_path_and_search_path(tmp_path, monkeypatch):
    assert find_adapter("reference").folder == ADAPTERS_DIR / "reference"
    folder = write(tmp_path, MINIMAL.format(name="mine"), name="mine")
    assert find_adapter(str(folder)).name == "mine"
    monkeypatch.setenv("ZARR_CONFORMANCE_ADAPTERS", str(tmp_path))
    assert find_adapter("mine").folder == folder
    with pytest.raises(AdapterConfigError, match="no adapter 'nope'"):
        find_adapter("nope")
