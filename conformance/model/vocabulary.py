"""The vocabularies of fixtures/, as JSON a runner in any language can read: capabilities,
reason codes, requirements with the sentences they cite, questions with their tiers, tiers and
outcomes. Each is generated from the one place the project keeps it (python -m conformance.model
--write), never written by hand, and fixtures/vocabulary.schema.json describes them all."""

from __future__ import annotations

import re
from typing import Any

SCHEMA_NAME = "vocabulary.schema.json"
_SRC = re.compile(r"\s*\*Src:\*\s*")
_TEST = re.compile(r"\s*\*Test:\*\s*")


def _head(name: str, made_from: str, description: str) -> dict[str, Any]:
    return {
        "$schema": f"{SCHEMA_NAME}#/$defs/{name}",
        "vocabulary": name,
        "description": f"{description} Generated from {made_from} (python -m conformance.model "
        "--write): do not edit.",
    }


def capabilities() -> dict[str, Any]:
    from ..corpus import capabilities as caps

    return {
        **_head(
            "capabilities",
            "conformance/corpus/capabilities.py",
            "Capability names: what a case `needs` and an implementation declares, as "
            "<family>:<value>. A case needing a name the implementation does not declare is "
            "not run: its outcome is `unsupported`.",
        ),
        "families": dict(caps.FAMILIES),
        "capabilities": {
            name: {"family": name.split(":", 1)[0], "meaning": caps.meaning(name)}
            for name in sorted(caps.VOCABULARY)
        },
    }


def reasons() -> dict[str, Any]:
    from ..reference.errors import REASONS

    return {
        **_head(
            "reasons",
            "conformance/reference/errors.py",
            "Reason codes: why the reference refuses a store (a reject case's expect.reason, a "
            "write case's must_fail). Any clean error of another implementation counts as a "
            "refusal; the code is for diagnosis.",
        ),
        "reasons": dict(sorted(REASONS.items())),
    }


def requirements() -> dict[str, Any]:
    from ..corpus.citations import load_table
    from ..corpus.requirements import load_requirements

    table = load_table()
    out = {}
    for rid, req in sorted(load_requirements().items()):
        statement, _, cited = (_TEST.split(req.text, 1)[0] + " *Src:* ").partition("*Src:*")
        source = cited.replace("*Src:*", "")
        out[rid] = {
            "level": req.level,
            "statement": statement.strip(),
            "source": source.strip().rstrip("."),
            "test": req.test,
            "testable": req.testable,
            "citations": [dict(sorted(c.items())) for c in table.get(rid, ())],
        }
    return {
        **_head(
            "requirements",
            "conformance/requirements.md and conformance/corpus/citations.toml",
            "Requirement IDs (a case's `requirements`): the catalogue's statement, its source, how "
            "a black-box test checks it, and the spec sentences it cites (`spec` is relative to "
            "the specs folder; a citation with `key` decides only cases that test that member).",
        ),
        "requirements": out,
    }


def questions() -> dict[str, Any]:
    from ..corpus.questions import ACCEPTING_STRICT, QUESTIONS

    return {
        **_head(
            "questions",
            "conformance/corpus/questions.py",
            "Questions (a case's `question`): the tier every case asking it gets and why. A "
            "read, write or zom case asking a strict question is optional instead (its "
            "tier_reason then ends with `accepting_strict`).",
        ),
        "accepting_strict": ACCEPTING_STRICT,
        "questions": {
            name: {
                "tier": q.tier,
                "reason": q.reason,
                "citations": [dict(sorted(c.items())) for c in q.citation],
            }
            for name, q in sorted(QUESTIONS.items())
        },
    }


def outcomes() -> dict[str, Any]:
    from .schemas import gating
    from .words import MAY_ACCEPT, MAY_REFUSE, MEANING, TIER_MEANING, Outcome, Tier

    return {
        **_head(
            "outcomes",
            "conformance/model/words.py",
            "Tiers (how much a case weighs) and outcomes (what a runner records per case), "
            "worst outcome first.",
        ),
        "tiers": {
            t.value: {
                "meaning": TIER_MEANING[t],
                "may_refuse": t in MAY_REFUSE,
                "may_accept": t in MAY_ACCEPT,
            }
            for t in Tier
        },
        "outcomes": [
            {"outcome": o.value, "meaning": MEANING[o], "fails_a_run": gating(o) or "no"}
            for o in Outcome
        ],
    }


VOCABULARIES = {
    "capabilities": capabilities,
    "reasons": reasons,
    "requirements": requirements,
    "questions": questions,
    "outcomes": outcomes,
}


def _strings(**extra: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": {"type": "string", **extra}}


def _doc(name: str, members: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["$schema", "vocabulary", "description", *members],
        "properties": {
            "$schema": {"const": f"{SCHEMA_NAME}#/$defs/{name}"},
            "vocabulary": {"const": name},
            "description": {"type": "string"},
            **members,
        },
    }


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": sorted(properties),
        "properties": properties,
    }


def _map(pattern: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "propertyNames": {"pattern": pattern}, "additionalProperties": value}


TEXT = {"type": "string", "minLength": 1}
CITATION = {
    "type": "object",
    "additionalProperties": False,
    "required": ["spec", "quote"],
    "properties": {"key": TEXT, "spec": TEXT, "section": TEXT, "quote": TEXT},
}


def schema() -> dict[str, Any]:
    from .case import REQUIREMENT_ID

    defs = {
        "capabilities": _doc(
            "capabilities",
            {
                "families": _strings(),
                "capabilities": _map(
                    r"^[a-z]+:[A-Za-z0-9.*_-]+$", _object({"family": TEXT, "meaning": TEXT})
                ),
            },
        ),
        "reasons": _doc("reasons", {"reasons": _map(r"^[a-z0-9-]+$", TEXT)}),
        "requirements": _doc(
            "requirements",
            {
                "requirements": _map(
                    REQUIREMENT_ID,
                    _object(
                        {
                            "level": TEXT,
                            "statement": TEXT,
                            "source": {"type": "string"},
                            "test": {"type": "string"},
                            "testable": {"type": "boolean"},
                            "citations": {"type": "array", "items": {"$ref": "#/$defs/citation"}},
                        }
                    ),
                )
            },
        ),
        "questions": _doc(
            "questions",
            {
                "accepting_strict": TEXT,
                "questions": _map(
                    r"^[a-z0-9.-]+$",
                    _object(
                        {
                            "tier": {"enum": ["required", "strict", "optional", "extension"]},
                            "reason": TEXT,
                            "citations": {"type": "array", "items": {"$ref": "#/$defs/citation"}},
                        }
                    ),
                ),
            },
        ),
        "outcomes": _doc(
            "outcomes",
            {
                "tiers": _map(
                    r"^[a-z]+$",
                    _object(
                        {
                            "meaning": TEXT,
                            "may_refuse": {"type": "boolean"},
                            "may_accept": {"type": "boolean"},
                        }
                    ),
                ),
                "outcomes": {
                    "type": "array",
                    "items": _object({"outcome": TEXT, "meaning": TEXT, "fails_a_run": TEXT}),
                },
            },
        ),
        "citation": CITATION,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zarr-conformance.invalid/vocabulary.schema.json",
        "title": "zarr-conformance vocabularies",
        "description": "The vocabulary files beside case.schema.json (capabilities.json, "
        "reasons.json, requirements.json, questions.json, outcomes.json); each names its "
        "definition in `$schema`. Generated from conformance/model/vocabulary.py (python -m "
        "conformance.model --write).",
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in VOCABULARIES],
        "$defs": defs,
    }
