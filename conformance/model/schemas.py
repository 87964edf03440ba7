"""What is generated from the model, and the command that writes or checks it: the JSON Schemas of
a result record (conformance/harness/schemas/result-record.json) and of a case
(fixtures/case.schema.json), the vocabularies of fixtures/ (capabilities.json, reasons.json,
requirements.json, questions.json, outcomes.json and their vocabulary.schema.json), and the
outcome tables of the documentation.

    python -m conformance.model            # check (exit 1 when a generated file is stale)
    python -m conformance.model --write    # write them
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .case import EXPECT, CaseDoc
from .record import Record
from .words import MEANING, Outcome

PACKAGE = Path(__file__).parent.parent
REPO = PACKAGE.parent
SCHEMA_FILE = PACKAGE / "harness" / "schemas" / "result-record.json"
CASE_SCHEMA_FILE = REPO / "fixtures" / "case.schema.json"


def record_schema() -> dict[str, Any]:
    schema = Record.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zarr-conformance/schemas/result-record.json",
        "title": "One line of a results stream (JSONL): one test of one case by one "
        "implementation or writer/reader pair",
        "description": "Generated from conformance/model/ (python -m conformance.model "
        "--write). Outcomes, worst first: "
        + "; ".join(f"{o.value}: {MEANING[o]}" for o in Outcome)
        + ". Readers ignore members they do not know.",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }


def case_schema() -> dict[str, Any]:
    """case.json: the models of conformance.model.case, and per kind what `expect` may be."""
    schema = CaseDoc.model_json_schema(by_alias=True)
    defs = schema.setdefault("$defs", {})
    rules = []
    for kind, models in EXPECT.items():
        options = []
        for model in models:
            sub = model.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
            defs.update(sub.pop("$defs", {}))
            defs[model.__name__] = sub
            options.append({"$ref": f"#/$defs/{model.__name__}"})
        rules.append(
            {
                "if": {"properties": {"kind": {"const": kind.value}}},
                "then": {"properties": {"expect": {"anyOf": options}}},
            }
        )
    rules.append({"anyOf": [{"required": ["question"]}, {"required": ["tier_reason"]}]})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zarr-conformance.invalid/case.schema.json",
        "title": "zarr-conformance case",
        "description": "One golden case: fixtures/<format>/<area>/<case>/case.json (see "
        "fixtures/README.md). Generated from conformance/model/case.py "
        "(python -m conformance.model --write).",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
        "allOf": rules,
    }


def _text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def vocabulary_texts(folder: Path) -> dict[Path, str]:
    """The vocabulary files of fixtures/ and their schema (conformance.model.vocabulary)."""
    from . import vocabulary

    out = {folder / vocabulary.SCHEMA_NAME: _text(vocabulary.schema())}
    for name, build in vocabulary.VOCABULARIES.items():
        out[folder / f"{name}.json"] = _text(build())
    return out


def schema_text() -> str:
    return _text(record_schema())


# Documents that show the outcome vocabulary: the block between the markers is generated from
# MEANING (python -m conformance.model --write), so the words are written once.
OUTCOME_DOCS = ("fixtures/README.md", "conformance/harness/README.md", "docs/ci.md")
BEGIN, END = "<!-- outcomes: generated from conformance/model.py -->", "<!-- outcomes: end -->"


def outcome_table() -> str:
    rows = [f"| `{o.value}` | {MEANING[o]} | {gating(o) or 'no'} |" for o in Outcome]
    return "\n".join(
        [
            "| outcome (worst first) | what happened | fails a run |",
            "|---|---|---|",
            *rows,
        ]
    )


def gating(outcome: Outcome) -> str:
    if outcome in (Outcome.ERRORED, Outcome.FAILED):
        return "yes"
    if outcome is Outcome.WRONG_DATA:
        return "unless a known failure explains it"
    return ""


def synced_doc(text: str) -> str:
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        return text
    return text[: begin + len(BEGIN)] + "\n" + outcome_table() + "\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m conformance.model",
        description="Write (or check) what is generated from the model: the JSON Schemas of "
        "result records and cases, the vocabularies of fixtures/ and the outcome tables of the "
        "documentation.",
    )
    parser.add_argument("--write", action="store_true", help="write them (default: check)")
    args = parser.parse_args(argv)
    targets = {SCHEMA_FILE: schema_text()}
    if CASE_SCHEMA_FILE.parent.is_dir():  # a checkout (an installed wheel has no fixtures/)
        targets[CASE_SCHEMA_FILE] = _text(case_schema())
        targets.update(vocabulary_texts(CASE_SCHEMA_FILE.parent))
    for name in OUTCOME_DOCS:
        path = REPO / name
        if path.is_file():
            targets[path] = synced_doc(path.read_text("utf-8"))
    stale = [p for p, text in targets.items() if not p.is_file() or p.read_text("utf-8") != text]
    if args.write:
        for path in stale:
            path.write_text(targets[path], "utf-8")
        return 0
    for path in stale:
        print(f"{path} is out of date: python -m conformance.model --write")
    return 1 if stale else 0
