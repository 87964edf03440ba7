"""The verdict members of gold cases (cases with `provenance`, written once by real implementations).

Gold stores are never regenerated, so what the generator adds to every case.json besides the store
(the question, tier and tier_reason, `citation`, `adjudication`, and the read expectations
`chunk_shape`, `fill_value` and `dimension_names` the reference computes from the store) is added to
gold case.json files by `scripts/gold_verdicts.py`, touching no other member; `corpus check` fails
while one is stale. A gold case's question comes from what its store holds (conventions.py): a store
relying on a convention the corpus tiers optional elsewhere is optional here too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .case import Case


def gold_question(case: Case) -> str:
    """What a gold case asks: the first convention it relies on (conventions.py, in the order of
    CONVENTIONS: a registered extension, an optional data type, then the rest), else that every
    reader must read what real writers write (write cases saved by property tests: that every
    writer must write the request)."""
    from .conventions import questions_found

    found = questions_found(case)
    if found:
        return found[0]
    return "spec-write" if case.kind == "write" else "writer-store"


def gold_updates(case: Case) -> dict[str, Any]:
    """Dotted member path -> the value the gold case.json must hold."""
    from .generator import verdict_members
    from .questions import accepting

    question = gold_question(case)
    tier, reason = accepting(question)
    members = verdict_members(case.id, tier, case.requirements, question, reason, None)
    out: dict[str, Any] = {"tier": tier, "question": question, "tier_reason": reason}
    for key in ("citation", "adjudication"):
        if key in members:
            out[key] = members[key]
    if case.kind == "read" and case.expect.get("node_type") == "array":
        for key, value in read_facts(case).items():
            out[f"expect.{key}"] = value
    return out


def read_facts(case: Case) -> dict:
    from conformance.reference import get_format, open_store

    from .write_semantics import read_expectations

    fmt = get_format(case.format)
    store = open_store(case.store_path)
    try:
        return read_expectations(fmt.open_node(store, fmt.normalize_path(case.node)))
    finally:
        store.close()


def apply_gold_updates(case_dir: Path) -> bool:
    """Write the gold updates into `case_dir`/case.json; True when the file changed."""
    path = Path(case_dir) / "case.json"
    before = path.read_text("utf-8")
    doc = json.loads(before)
    case = Case.from_dir(Path(case_dir), Path(case_dir).parent)
    for dotted, value in gold_updates(case).items():
        target = doc
        *parents, last = dotted.split(".")
        for part in parents:
            target = target.setdefault(part, {})
        target[last] = value
    if case.kind == "read" and case.expect.get("node_type") == "array":
        # what the reference reads by a convention the spec does not decide is not expected
        facts = read_facts(case)
        for key in ("fill_value", "dimension_names"):
            if key not in facts:
                doc["expect"].pop(key, None)
    after = json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    if after != before:
        path.write_text(after, "utf-8")
    return after != before
