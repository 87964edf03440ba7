"""adapter.toml and known-failures.toml: the schemas, the capability vocabulary, error rules,
known-failure matching, adapter lookup."""

from __future__ import annotations

import re
import textwrap

import pytest

from conformance.corpus.capabilities import VOCABULARY
from conformance.harness.config import (
    ADAPTERS_DIR,
    AdapterConfigError,
    ErrorRule,
    KnownFailure,
    all_adapters,
    find_adapter,
    load_adapter_config,
)

MINIMAL = 'name = "{name}"\ndescription = "d"\ntransport = "python"\n'


def write(tmp_path, text, name="x", module=True, known=None):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "adapter.toml").write_text(textwrap.dedent(text))
    if module:
        (folder / "adapter.py").write_text("class Adapter: pass\n")
    if known is not None:
        (folder / "known-failures.toml").write_text(textwrap.dedent(known))
    return folder


def test_every_adapter_in_the_repo_is_valid():
    configs = all_adapters()  # raises on the first invalid one
    assert "reference" in {c.name for c in configs}


# The reference's URL store reads only: writes over S3 are for implementations that write there.
# Icechunk repositories are read through Icechunk's own library (Python >= 3.12), which the
# reference, in the harness's interpreter, does not have.
NOT_CLAIMED_BY_THE_REFERENCE = {"feature:s3-write", "store:icechunk", "feature:icechunk-write"}


def test_reference_claims_the_whole_vocabulary():
    # A new capability name must not silently turn reference cases into `unsupported`.
    claimed = load_adapter_config(ADAPTERS_DIR / "reference").capabilities
    assert claimed >= VOCABULARY - NOT_CLAIMED_BY_THE_REFERENCE


@pytest.mark.parametrize(
    "extra, message",
    [
        ('capabilities = ["codec:gzipp"]\n', "unknown capability 'codec:gzipp'"),
        ('requirements = ["zarr>=3"]\n', "requirements/0"),
        ('npm = ["zarrita"]\n', "npm"),
        (
            '[[known_failures]]\nid = "x"\ncases = ["v3/*"]\nreason = "known failures belong in their own file"\n'
            'issue = "unreported"\n',
            "Additional properties",
        ),
        (
            '[[errors]]\ntype = "ValueError"\ncategory = "unsupported"\n',
            "'reason' is a required property",
        ),
        (
            '[[errors]]\ntype = "ValueError"\ncategory = "crash"\n',
            "'reason' is a required property",
        ),
        ('[[errors]]\ntype = "ValueError"\ncategory = "format"\n', "errors/0/category"),
        (
            '[[errors]]\ntype = "ValueError"\ncategory = "metadata"\nmessage = "unclosed ("\n',
            "not a regular expression",
        ),
        ('parser = "Zarr Python"\n', "parser"),
        ('colour = "blue"\n', "Additional properties"),
        ('command = ["node", "x.mjs"]\n', "(root)"),
    ],
)
def test_bad_adapter_toml_is_refused(tmp_path, extra, message):
    folder = write(tmp_path, MINIMAL.format(name="x") + extra)
    with pytest.raises(
        AdapterConfigError,
        match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*"),
    ):
        load_adapter_config(folder)


KNOWN = """\
    [[known_failures]]
    id = "transpose-inverted"
    cases = ["v3/codecs/transpose-*"]
    reason = "transpose order applied inverted on read"
    {extra}
    """


@pytest.mark.parametrize(
    "extra, message",
    [
        ("", "'issue' is a required property"),
        ('issue = "not a url"', "known_failures/0/issue"),
        (
            'issue = "https://github.com/google/tensorstore/issues"',
            "known_failures/0/issue",
        ),  # a tracker, not a bug
        ('issue = "https://github.com/zarr-developers/zarr-python"', "known_failures/0/issue"),
        ('issue = "unreported"', "'report' is a required property"),
        ('issue = "unreported"\nreport = "notes.txt"', "known_failures/0/report"),
        ('issue = "https://x.org/o/r/issues/1"\ntest = "reading"', "known_failures/0/test"),
        ('issue = "https://x.org/o/r/issues/1"\ncase = "v3/*"', "Additional properties"),
    ],
)
def test_bad_known_failures_toml_is_refused(tmp_path, extra, message):
    folder = write(tmp_path, MINIMAL.format(name="x"), known=KNOWN.format(extra=extra))
    with pytest.raises(AdapterConfigError, match=re.escape(message)):
        load_adapter_config(folder)


@pytest.mark.parametrize(
    "issue",
    [
        'issue = "https://github.com/google/tensorstore/issues/123"',
        'issue = "https://github.com/zarr-developers/zarr-python/pull/3583"',
        'issue = "https://gitlab.com/o/r/-/issues/7"',
        'issue = "unreported"\nreport = "reports/upstream/zarr-python/transpose-inverted.md"',
    ],
)
def test_known_failures_toml(tmp_path, issue):
    config = load_adapter_config(
        write(tmp_path, MINIMAL.format(name="x"), known=KNOWN.format(extra=issue))
    )
    (entry,) = config.known_failures
    assert entry.id == "transpose-inverted" and entry.matches("read", "v3/codecs/transpose-120")
    record = entry.as_record()
    assert record["id"] == "transpose-inverted" and record["issue"] == entry.issue
    assert ("report" in record) == (entry.issue == "unreported")


def test_parser_and_error_rules(tmp_path):
    config = load_adapter_config(write(tmp_path, MINIMAL.format(name="x")))
    assert config.parser == "x" and config.errors == ()
    config = load_adapter_config(
        write(
            tmp_path,
            MINIMAL.format(name="y")
            + textwrap.dedent("""\
        parser = "zarr-python"
        [[errors]]
        type = "zarr.errors.MetadataValidationError"
        category = "metadata"
        [[errors]]
        type = "Unsupported"
        message = "^store kind"
        category = "unsupported"
        reason = "the adapter drives directory stores only"
        """),
            name="y",
        )
    )
    assert config.parser == "zarr-python"
    by_module, by_message = config.errors
    assert by_module.matches(
        {"type": "MetadataValidationError", "module": "zarr.errors", "message": "m"}
    )
    assert not by_module.matches(
        {"type": "MetadataValidationError", "module": "other", "message": "m"}
    )
    assert by_message.matches({"type": "Unsupported", "message": "store kind 'zip'"})
    assert not by_message.matches({"type": "Unsupported", "message": "no store kind"})
    assert ErrorRule("ValueError", "codec").matches(
        {"type": "ValueError", "module": "builtins", "message": ""}
    )


def test_name_must_match_the_folder(tmp_path):
    with pytest.raises(AdapterConfigError, match="must equal the folder name"):
        load_adapter_config(write(tmp_path, MINIMAL.format(name="other")))


def test_python_adapter_needs_its_module(tmp_path):
    with pytest.raises(AdapterConfigError, match="does not exist"):
        load_adapter_config(write(tmp_path, MINIMAL.format(name="x"), module=False))


def test_command_adapter(tmp_path):
    folder = write(
        tmp_path,
        """\
        name = "js"
        description = "d"
        transport = "command"
        command = ["node", "harness.mjs"]
        npm = ["zarrita@0.7.5", "@zarrita/storage@0.1.4"]
        requirements = []
        """,
        name="js",
        module=False,
    )
    config = load_adapter_config(folder)
    assert config.command == ("node", "harness.mjs") and config.npm == (
        "zarrita@0.7.5",
        "@zarrita/storage@0.1.4",
    )


def test_known_failure_matching():
    entry = KnownFailure(
        id="t", cases=("v3/codecs/transpose-*",), reason="r", issue="https://x/1", test="read"
    )
    assert entry.matches("read", "v3/codecs/transpose-120")
    assert not entry.matches("write", "v3/codecs/transpose-120")
    assert not entry.matches("read", "v3/codecs/gzip")
    exact = KnownFailure(
        id="t", cases=("v2/a[1]",), reason="r", issue="https://x/1"
    )  # ids are tried verbatim first
    assert exact.matches("read", "v2/a[1]")
    cross = KnownFailure(
        id="t",
        cases=("*",),
        reason="r",
        issue="https://x/1",
        test="cross",
        role="reader",
        peer="tensor*",
    )
    assert cross.matches("cross", "v3/x", "reader", "tensorstore")
    assert not cross.matches("cross", "v3/x", "writer", "tensorstore")
    assert not cross.matches("cross", "v3/x", "reader", "zarrs")
    # a pair of one adapter with itself is a roundtrip: "cross" entries do not cover it
    assert not cross.matches("roundtrip", "v3/x", "reader", "tensorstore")
    roundtrip = KnownFailure(
        id="t", cases=("*",), reason="r", issue="https://x/1", test="roundtrip"
    )
    assert roundtrip.matches("roundtrip", "v3/x", "reader", "a") and not roundtrip.matches(
        "cross", "v3/x", "reader", "a"
    )


def test_find_adapter_by_name_path_and_search_path(tmp_path, monkeypatch):
    assert find_adapter("reference").folder == ADAPTERS_DIR / "reference"
    folder = write(tmp_path, MINIMAL.format(name="mine"), name="mine")
    assert find_adapter(str(folder)).name == "mine"
    monkeypatch.setenv("ZARR_CONFORMANCE_ADAPTERS", str(tmp_path))
    assert find_adapter("mine").folder == folder
    with pytest.raises(AdapterConfigError, match="no adapter 'nope'"):
        find_adapter("nope")
