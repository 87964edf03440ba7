"""Adjudications: how a dispute between implementations and the reference was settled.

`adjudications.toml` (beside this module) is a list of settlements:

    [[adjudication]]
    cases = ["v3/codecs/write-blosc-noshuffle-no-typesize"]   # exact case ids
    verdict = "case-fixed"        # implementations-wrong | case-fixed | retiered
    reason = "..."
    citation = {spec = "zarr-specs-v3.0/docs/v3/codecs/blosc/v1.0.rst", section = "...", quote = "..."}

The generator copies the settlement (without `cases`) into the case.json of each case it names
(scripts/gold_verdicts.py does the same for gold cases), and `zarr-conformance corpus disputes`
lists a disputed case that carries one as resolved. `corpus check` fails on an id that names no
case or is settled twice, and checks the quotes against the spec texts.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

TABLE = Path(__file__).with_name("adjudications.toml")
VERDICTS = ("implementations-wrong", "case-fixed", "retiered")


@cache
def load_adjudications(path: str | None = None) -> dict[str, dict]:
    """Case id -> its adjudication ({verdict, reason, citation})."""
    file = Path(path) if path else TABLE
    if not file.exists():
        return {}
    out: dict[str, dict] = {}
    for i, entry in enumerate(tomllib.loads(file.read_text("utf-8")).get("adjudication", [])):
        where = f"{file.name}: adjudication #{i + 1}"
        if entry.get("verdict") not in VERDICTS or not isinstance(entry.get("reason"), str):
            raise ValueError(f"{where}: needs a verdict in {VERDICTS} and a reason")
        citation = entry.get("citation")
        if not isinstance(citation, dict) or not {"spec", "section", "quote"} <= set(citation):
            raise ValueError(f"{where}: needs a citation {{spec, section, quote}}")
        cases = entry.get("cases")
        if not isinstance(cases, list) or not cases or not all(isinstance(c, str) for c in cases):
            raise ValueError(f"{where}: needs a non-empty list of case ids")
        for case_id in cases:
            if case_id in out:
                raise ValueError(f"{where}: {case_id} is adjudicated twice")
            out[case_id] = {k: entry[k] for k in ("verdict", "reason", "citation")}
    return out


def adjudication_for(case_id: str, table: dict | None = None) -> dict | None:
    table = load_adjudications() if table is None else table
    entry = table.get(case_id)
    return None if entry is None else {**entry, "citation": dict(entry["citation"])}


def unused_keys(case_ids, table: dict | None = None) -> list[str]:
    """Case ids the table settles that are not cases (a typo, or a case that was renamed)."""
    table = load_adjudications() if table is None else table
    ids = set(case_ids)
    return sorted(key for key in table if key not in ids)
