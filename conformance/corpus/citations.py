"""Citations: which spec sentence a case rests on.

`citations.toml` (beside this module) maps a requirement ID to the sentence that states it:

    [V3-FILL-002]
    spec = "zarr-specs-v3.0/docs/v3/core/v3.0.rst"   # relative to the specs folder
    section = "fill_value"
    quote = "The value must be a JSON number with no fraction or exponent part ..."

(an array of tables, `[[V3-BLOSC-001]]`, gives several sentences; a sentence with `key = "clevel"`
decides only the cases that test that member, e.g. "clevel: An integer from 0 to 9 ..."). The
generator copies the entries of a case's requirements into its case.json `citation` list: the
unkeyed ones, and the ones keyed by the member or property the case `tests` (`picks`). `corpus check` then verifies that every
required and strict case carries one and, when the spec texts are at hand, that every quote occurs
in its file: the specs folder is $ZARR_CONFORMANCE_SPECS, else `../shared/specs` beside the
repository. Quotes are compared after collapsing whitespace and dropping RST inline markup
(``literal``, *emphasis*, `text`_, :ref:`label <target>`) and Markdown links ([text](target), in
the zarr-extensions READMEs), so a quote may be written as it reads.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path

from ..resources import REPO_ROOT

TABLE = Path(__file__).with_name("citations.toml")
CITATION_KEYS = ("requirement", "spec", "section", "quote")


@cache
def load_table(path: str | None = None) -> dict[str, tuple[dict, ...]]:
    """Requirement ID -> its citation entries ({spec, section, quote}); {} when there is no table."""
    file = Path(path) if path else TABLE
    if not file.exists():
        return {}
    raw = tomllib.loads(file.read_text("utf-8"))
    out: dict[str, tuple[dict, ...]] = {}
    for rid, value in raw.items():
        entries = value if isinstance(value, list) else [value]
        out[rid] = tuple(
            {k: e[k] for k in ("key", "spec", "section", "quote") if k in e} for e in entries
        )
    return out


def _words(text: str) -> str:
    return normalize(text).replace("_", " ").casefold()


def names(text: str, tests: str) -> bool:
    """Whether `text` (a quote or a section heading, as it reads) names `tests`: the words, in any
    letter case, a member's underscores read as spaces (`fill_value` is named by "fill value"), not
    part of a longer name (`level` is not in `clevel`)."""
    pattern = rf"(?<![\w-]){re.escape(_words(tests))}(?![\w-])"
    return re.search(pattern, _words(text)) is not None


def picks(entries, tests: str | None) -> list[dict]:
    """Of one requirement's sentences, those that decide a case: every sentence without a `key`, and
    the sentences keyed by the member or property the case `tests`; a requirement whose sentences
    are all keyed and none of them the case's gives them all."""
    entries = list(entries)
    chosen = [e for e in entries if "key" not in e or e["key"] == tests]
    return chosen or entries


def citations_for(requirements, table: dict | None = None, tests: str | None = None) -> list[dict]:
    """The citation entries of `requirements`, in order, each with its requirement ID; of a
    requirement with sentences keyed by member, those of the member the case `tests` (`picks`)."""
    table = load_table() if table is None else table
    out = []
    for rid in requirements:
        for entry in picks(table.get(rid, ()), tests):
            out.append({"requirement": rid, **{k: v for k, v in entry.items() if k != "key"}})
    return out


def specs_root() -> Path | None:
    """The folder holding the spec texts, or None when it is not at hand."""
    env = os.environ.get("ZARR_CONFORMANCE_SPECS")
    if env:
        return Path(env)
    beside = REPO_ROOT.parent / "shared" / "specs"
    return beside if beside.is_dir() else None


_ROLE = re.compile(r":[a-zA-Z:_-]+:`([^`<]*?)\s*(?:<[^`>]*>)?`")
_LINK = re.compile(r"`([^`<]*?)\s*(?:<[^`>]*>)?`__?")
_MARKDOWN_LINK = re.compile(r"\[([^\]\[\n]*)\]\([^)\s]*\)")  # one line, no nested brackets


def normalize(text: str) -> str:
    """Text as it reads: RST roles, links and inline markup and Markdown links dropped,
    whitespace collapsed."""
    text = _MARKDOWN_LINK.sub(r"\1", text)
    text = _ROLE.sub(r"\1", text)
    text = text.replace("``", "")
    text = _LINK.sub(r"\1", text)
    text = text.replace("`", "").replace("*", "")
    return " ".join(text.split())


@cache
def _spec_text(path: str) -> str | None:
    file = Path(path)
    return normalize(file.read_text("utf-8")) if file.is_file() else None


def quote_problem(citation: dict, root: Path) -> str | None:
    """Why a citation's quote cannot be found in its spec file under `root` (None: found)."""
    missing = [
        k for k in ("spec", "quote") if not isinstance(citation.get(k), str) or not citation.get(k)
    ]
    if missing:
        return f"citation lacks {', '.join(missing)}"
    text = _spec_text(str(root / citation["spec"]))
    if text is None:
        return f"spec file {citation['spec']!r} does not exist under the specs folder"
    if normalize(citation["quote"]) not in text:
        return f"quote not found in {citation['spec']}: {citation['quote'][:80]!r}"
    return None
