"""The result record (one line of a results stream) and its one validating loader."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .words import (
    PAIR_KINDS,
    Behaviour,
    Outcome,
    RefusalCategory,
    Side,
    StoreKind,
    TestKind,
    Tier,
)

SCHEMA_VERSION = 2


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
