"""The versioned JSON API under api/v1/: an index, one file per implementation and one per case.
Records keep the members of the result record a reader needs (the run-specific ones, such as
timings, node ids and workers, stay in the published results file), each said once: a record's
message is in its case's file, an implementation's file says which records count for it."""

from __future__ import annotations

import json

from .. import scores as s
from .. import verdicts as v
from . import paths

VERSION = 1
# A record is a row of these members (null where it has none), so a file does not repeat the
# member names; known failures are listed once per file and rows name them by "owner/id".
FIELDS = (
    "test",
    "case",
    "impl",
    "writer",
    "reader",
    "store",
    "outcome",
    "tier",
    "format",
    "message",
    "known_failure",
    "blame",
    "types",
    "probe",
    "refusal",
    "unchecked",
)


def table(records: list[dict], fields: tuple[str, ...] = FIELDS) -> dict:
    """{"fields", "records", "known_failures"} for a list of records."""
    known: dict[str, dict] = {}
    rows = []
    for r in records:
        row = []
        for f in fields:
            value = r.get(f)
            if f == "store":
                value = v.store_kind(r)
            elif f == "refusal" and value:
                value = {
                    k: x for k, x in value.items() if k != "message"
                }  # the record's message has it
            elif f == "known_failure" and value:
                key = f"{value.get('owner') or v.blamed(r)}/{value.get('id', '?')}"
                known.setdefault(key, value)
                value = key
            row.append(value if value not in ("", [], {}) else None)
        rows.append(row)
    return {"fields": list(fields), "records": rows, "known_failures": dict(sorted(known.items()))}


# A case's file leaves out what the case says once (its id, format and tier); an implementation's
# file leaves out the message and the refusal, which its case's file has.
CASE_FIELDS = tuple(f for f in FIELDS if f not in ("case", "format", "tier"))
IMPL_FIELDS = tuple(f for f in FIELDS if f not in ("message", "refusal", "unchecked"))


def dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def files(site) -> dict[str, str]:
    """site path -> JSON text, for every file of the API."""
    out = {}
    implementations = {}
    for name in site.names:
        sc = site.scores[name]
        implementations[name] = {
            "version": site.versions.get(name, ""),
            "version_row": v.is_version_row(name),
            "scores": sc.as_json(),
            "badge": s.badge(name, sc),
            "page": paths.impl(name),
            "api": paths.api_impl(name),
        }
        out[paths.api_impl(name)] = dump(
            {
                "api": VERSION,
                "implementation": name,
                **implementations[name],
                **table(site.by_impl.get(name, []), IMPL_FIELDS),
            }
        )
    cases = {}
    for cid in sorted(set(site.cases) | set(site.by_case)):
        doc = site.cases.get(cid, {})
        facts = {
            k: doc[k]
            for k in (
                "description",
                "kind",
                "format",
                "tier",
                "tier_reason",
                "question",
                "requirements",
                "needs",
                "citation",
                "adjudication",
            )
            if k in doc
        }
        cases[cid] = {
            "format": doc.get("format"),
            "kind": doc.get("kind"),
            "tier": doc.get("tier"),
            "page": paths.case(cid),
            "api": paths.api_case(cid),
        }
        out[paths.api_case(cid)] = dump(
            {"api": VERSION, "case": cid, **facts, **table(site.by_case.get(cid, []), CASE_FIELDS)}
        )
    out[f"{paths.API}/index.json"] = dump(
        {
            "api": VERSION,
            "run": {k: site.meta.get(k) for k in ("run_id", "date", "corpus_version", "cases")},
            "definitions": s.DEFINITIONS,
            "outcomes": v.OUTCOMES,
            "implementations": implementations,
            "cases": cases,
        }
    )
    return out
