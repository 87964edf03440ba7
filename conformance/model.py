"""The words a verdict is made of, declared once: test kinds, roles, tiers, outcomes, blame, store
kinds, and the result record itself (one line of a results stream).

Everything that writes or reads records uses these names: the harness that makes them, the gate,
the summary, the report, `report --compare`, the bench, `corpus disputes`, `audit`. The JSON
Schema of a record (conformance/harness/schemas/result-record.json) is generated from `Record`
(`python -m conformance.model --write`; tests/harness/test_model.py keeps the file in step), and
`load_records` is the one validating loader.

Nothing here imports the rest of the package: every layer may import it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SCHEMA_VERSION = 2


class TestKind(StrEnum):
    __test__ = False  # not a test class, whatever pytest thinks of the name

    READ = "read"
    REJECT = "reject"
    WRITE = "write"
    CROSS = "cross"  # one adapter writes a write case, another reads it
    ROUNDTRIP = "roundtrip"  # a cross test of an adapter with itself (proves no interoperability)
    PROPERTY = "property"  # hypothesis-generated arrays through a writer/reader pair
    ZOM = "zom"
    HOSTILE = "hostile"  # the hostile area (opt-in, never gating)
    FAULT = "fault"  # faults injected into valid stores (opt-in, never gating)


# Selected by default (--kinds); the opt-in kinds run only when named.
DEFAULT_KINDS = (
    TestKind.READ,
    TestKind.REJECT,
    TestKind.WRITE,
    TestKind.CROSS,
    TestKind.PROPERTY,
    TestKind.ZOM,
)
OPT_IN_KINDS = (TestKind.HOSTILE, TestKind.FAULT)
PAIR_KINDS = frozenset({TestKind.CROSS, TestKind.ROUNDTRIP, TestKind.PROPERTY})


class CaseKind(StrEnum):
    READ = "read"
    REJECT = "reject"
    WRITE = "write"
    ZOM = "zom"


class Side(StrEnum):
    """The side of a test a verdict is about: who read, or who wrote."""

    WRITER = "writer"
    READER = "reader"


class Tier(StrEnum):
    """How much a case weighs (fixtures/README.md, "Tiers"). A tier says whether *refusing* (or,
    for a store that must be refused, *accepting*) is allowed; it never makes a wrong answer
    acceptable."""

    REQUIRED = "required"  # what the spec demands of every reader or writer
    STRICT = "strict"  # a document-level MUST with exactly one reading left: accepting is lenient
    OPTIONAL = "optional"  # a SHOULD/MAY, or where the spec is silent or its versions disagree
    EXTENSION = "extension"  # zarr-extensions registrations: never required
    HOSTILE = "hostile"  # the hostile area and faults: recorded, never gating


# Tiers in which the spec allows a reader to refuse a valid store (or a writer a valid request),
# and in which accepting a store the reference refuses is allowed. Not extension for refusing: an
# implementation that does not implement an extension says so (its capabilities, `unsupported`);
# one that declares it and refuses valid data of it has failed at what it claims.
MAY_REFUSE = frozenset({Tier.OPTIONAL})
MAY_ACCEPT = frozenset({Tier.STRICT, Tier.OPTIONAL, Tier.EXTENSION})


class Outcome(StrEnum):
    """What happened, worst first (the order of summary columns, and of the worst of several)."""

    WRONG_DATA = "wrong-data"
    ERRORED = "errored"
    FAILED = "failed"
    KNOWN_FAILURE = "known-failure"
    TYPE_CHANGED = "type-changed"
    LENIENT = "lenient"
    DECLINED = "declined"
    UNSUPPORTED = "unsupported"
    PASSED = "passed"


OUTCOMES = tuple(Outcome)

# One sentence per outcome, shown wherever outcomes are explained (the summary's legend, the
# report, fixtures/README.md, docs/ci.md): one definition, everywhere.
MEANING = {
    Outcome.WRONG_DATA: "values returned or written differ, bit for bit after a lossless widening, "
    "from the spec's answer, with no error: a silent corruption",
    Outcome.ERRORED: "a crash, a hang, running out of memory, or an adapter bug, where an answer "
    "or a clean refusal was due",
    Outcome.FAILED: "a behaviour the spec forbids on this case, with no known-failure entry of the "
    "side at fault explaining it: a valid store refused where the tier requires reading it, an "
    "invalid one accepted where the spec demands refusal, wrong metadata, attributes or keys",
    Outcome.KNOWN_FAILURE: "a failure explained by a known-failures.toml entry of the side at "
    "fault whose pattern matches what was observed (an upstream issue or a ready-to-file report)",
    Outcome.TYPE_CHANGED: "every value exact, returned in another data type (both named): a "
    "visible type mapping, not a corruption",
    Outcome.LENIENT: "accepted a store or request the reference refuses, where the tier allows "
    "accepting it (strict: one reading remains; optional, extension: the spec does not demand "
    "refusal)",
    Outcome.DECLINED: "cleanly refused a valid optional case, which the spec allows",
    Outcome.UNSUPPORTED: "needs a capability the implementation does not declare, and it refused "
    "cleanly (or was not asked)",
    Outcome.PASSED: "did what the case expects",
}

# Outcomes that are not failures of the implementation: profiles of allowed behaviour.
PROFILES = frozenset({Outcome.TYPE_CHANGED, Outcome.LENIENT, Outcome.DECLINED})


class Behaviour(StrEnum):
    """What an implementation did where the tier allows either answer (records' `behaviour`)."""

    ACCEPTS = "accepts"
    REFUSES = "refuses"
    # a passed read of numbers beyond what doubles hold exactly, returned as their nearest
    # doubles: RFC 8259 lets JSON parsers limit precision (question json-number-precision)
    APPROXIMATES = "approximates"


class StoreKind(StrEnum):
    DIRECTORY = "directory"
    ZIP = "zip"
    HTTP = "http"
    S3 = "s3"
    ICECHUNK = "icechunk"


REMOTE_STORE_KINDS = (StoreKind.HTTP, StoreKind.S3)


class RefusalCategory(StrEnum):
    METADATA = "metadata"
    CODEC = "codec"
    CHUNK_DATA = "chunk-data"
    IO = "io"
    UNSUPPORTED = "unsupported"
    CRASH = "crash"


# ---- the record ------------------------------------------------------------------------------


class _Part(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Store(_Part):
    kind: StoreKind = Field(description="the store the case went through")
    location: str | None = None


class Blame(_Part):
    side: Side = Field(description="the side of the test the verdict is about")
    evidence: str = Field(
        "", description="why that side: for pairs, what the reference read from the written store"
    )


class KnownFailureRef(_Part):
    id: str
    owner: str | None = Field(
        None, description="the adapter whose known-failures.toml holds the entry"
    )
    reason: str
    issue: str = Field(description="the upstream issue about this very bug, or 'unreported'")
    report: str | None = Field(None, description="the ready-to-file report of an unreported bug")
    strict: bool = True


class RefusalRef(_Part):
    type: str
    message: str
    category: RefusalCategory | None = None
    expected_category: RefusalCategory | None = None
    right_reason: bool | None = None


class Types(_Part):
    expected: str = Field(description="the data type the case expects (NumPy form)")
    observed: str = Field(description="the data type the implementation returned")


class Record(BaseModel):
    """One test of one case (or property) by one implementation or writer/reader pair."""

    model_config = ConfigDict(extra="allow", frozen=True, use_enum_values=False)

    schema_: int = Field(SCHEMA_VERSION, alias="schema")
    run_id: str = Field(min_length=1, description="shared by every record of one run")
    test: TestKind
    case: str = Field(min_length=1, description="case id; property tests: 'property/<name>'")
    impl: str = Field(
        min_length=1,
        description="the implementation the verdict is about: for a pair record that did not "
        "pass, the side at fault (blame); for a passed pair record, the reader",
    )
    writer: str | None = None
    reader: str | None = None
    outcome: Outcome
    message: str = ""
    requirements: list[str] = Field(default_factory=list)
    elapsed: float = Field(0.0, ge=0)
    adapter_elapsed: float | None = Field(None, ge=0)
    versions: dict[str, dict[str, str]] = Field(default_factory=dict)
    tier: Tier | None = None
    format: str | None = None
    store: Store = Store(kind=StoreKind.DIRECTORY)
    blame: Blame | None = None
    behaviour: Behaviour | None = Field(
        None,
        description="what the implementation did where the spec allows either answer: lenient "
        "and declined records, and passed ones that approximate big JSON numbers",
    )
    types: Types | None = Field(None, description="type-changed records: the two data types")
    known_failure: KnownFailureRef | None = None
    probe: bool | None = None
    refusal: RefusalRef | None = None
    unchecked: list[str] | None = None
    pair: str | None = None
    metrics: dict[str, Any] | None = None
    example: str | None = None
    nodeid: str | None = None
    worker: str | None = None

    @property
    def is_pair(self) -> bool:
        return self.test in PAIR_KINDS

    @property
    def side(self) -> Side | None:
        return self.blame.side if self.blame is not None else None

    def counted_for(self) -> tuple[str, ...]:
        """The implementations a record counts for: its subject, and for a passed pair record
        both sides (each did its part). A pair that did not pass counts only for the side at
        fault."""
        if self.is_pair and self.outcome is Outcome.PASSED:
            return tuple(dict.fromkeys(n for n in (self.writer, self.reader) if n))
        return (self.impl,)

    def gates(self) -> bool:
        return gates(self)

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


STALE_ENTRY = "known failure now passes"


def gates(record: Record | dict[str, Any]) -> bool:
    """Whether a record (a model, or its JSON object) fails a run: anything errored; wrong data
    or a failure that no known-failure entry explains (on every tier: a tier allows refusing,
    never a wrong answer); a strict known-failure entry whose case now passes (recorded as
    `failed`). Never a hostile record."""
    if isinstance(record, Record):
        outcome, tier, known = record.outcome, record.tier, record.known_failure is not None
    else:
        outcome, tier = record["outcome"], record.get("tier")
        known = bool(record.get("known_failure"))
    if tier == Tier.HOSTILE:
        return False
    if outcome == Outcome.ERRORED or outcome == Outcome.FAILED:
        return True
    return outcome == Outcome.WRONG_DATA and not known


class RecordError(ValueError):
    """A results file holds a line that is not a valid record."""


def parse_record(doc: dict[str, Any], where: str = "record") -> Record:
    if doc.get("schema") not in (None, SCHEMA_VERSION):
        raise RecordError(
            f"{where}: record schema {doc.get('schema')!r}; this version reads schema "
            f"{SCHEMA_VERSION} (re-run the matrix, or re-render with the version that wrote it)"
        )
    try:
        return Record.model_validate(doc)
    except ValidationError as exc:
        raise RecordError(f"{where}: not a valid result record: {exc}") from None


def iter_records(path: str | os.PathLike[str]) -> Iterator[Record]:
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    doc = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"{path}:{number}: not JSON: {exc}") from None
                yield parse_record(doc, f"{path}:{number}")


def load_records(path: str | os.PathLike[str]) -> list[Record]:
    """Every record of a JSONL results file, validated (RecordError names the bad line)."""
    return list(iter_records(path))


def dump_records(records: Iterable[Record]) -> str:
    return "".join(
        json.dumps(r.as_json(), sort_keys=True, ensure_ascii=False) + "\n" for r in records
    )


# ---- the schema file ---------------------------------------------------------------------------

SCHEMA_FILE = Path(__file__).parent / "harness" / "schemas" / "result-record.json"


def record_schema() -> dict[str, Any]:
    schema = Record.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zarr-conformance/schemas/result-record.json",
        "title": "One line of a results stream (JSONL): one test of one case by one "
        "implementation or writer/reader pair",
        "description": "Generated from conformance/model.py (python -m conformance.model "
        "--write). Outcomes, worst first: "
        + "; ".join(f"{o.value}: {MEANING[o]}" for o in Outcome)
        + ". Readers ignore members they do not know.",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }


def schema_text() -> str:
    return json.dumps(record_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# Documents that show the outcome vocabulary: the block between the markers is generated from
# MEANING (python -m conformance.model --write), so the words are written once.
REPO = Path(__file__).parent.parent
OUTCOME_DOCS = ("fixtures/README.md", "conformance/harness/README.md", "docs/ci.md")
BEGIN, END = "<!-- outcomes: generated from conformance/model.py -->", "<!-- outcomes: end -->"


def outcome_table() -> str:
    rows = [f"| `{o.value}` | {MEANING[o]} | {_gating(o) or 'no'} |" for o in Outcome]
    return "\n".join(
        [
            "| outcome (worst first) | what happened | fails a run |",
            "|---|---|---|",
            *rows,
        ]
    )


def _gating(outcome: Outcome) -> str:
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
        description="Write (or check) what is generated from the model: the JSON Schema of "
        "result records and the outcome tables of the documentation.",
    )
    parser.add_argument("--write", action="store_true", help="write them (default: check)")
    args = parser.parse_args(argv)
    targets = {SCHEMA_FILE: schema_text()}
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


if __name__ == "__main__":
    raise SystemExit(main())
