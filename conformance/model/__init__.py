"""The words a verdict is made of, declared once: test kinds, roles, tiers, outcomes, blame, store
kinds (words), the result record and its one validating loader (record), the corpus case
(case), and what is generated from them (schemas: the JSON Schemas of records and of case.json,
the outcome tables of the documentation; `python -m conformance.model --write`).

Everything that writes or reads records or cases uses these names: the harness, the gate, the
summary, the report, `report --compare`, the bench, `corpus disputes`, `audit`, `check`. Nothing
here imports the rest of the package at import time: every layer may import it (the command
alone, `python -m conformance.model`, reaches into the corpus and the reference to write the
vocabularies of fixtures/, whose words live there)."""

from .case import CaseDoc, CaseError, parse_case
from .record import (
    SCHEMA_VERSION,
    STALE_ENTRY,
    Blame,
    KnownFailureRef,
    Record,
    RecordError,
    RefusalRef,
    Store,
    Types,
    dump_records,
    gates,
    iter_records,
    load_records,
    parse_record,
)
from .schemas import OUTCOME_DOCS, REPO, main, outcome_table
from .words import (
    DEFAULT_KINDS,
    MAY_ACCEPT,
    MAY_REFUSE,
    MEANING,
    OPT_IN_KINDS,
    OUTCOMES,
    PAIR_KINDS,
    PROFILES,
    REMOTE_STORE_KINDS,
    Behaviour,
    CaseKind,
    Outcome,
    RefusalCategory,
    Side,
    StoreKind,
    TestKind,
    Tier,
)

__all__ = [
    "DEFAULT_KINDS",
    "MAY_ACCEPT",
    "MAY_REFUSE",
    "MEANING",
    "OPT_IN_KINDS",
    "OUTCOMES",
    "OUTCOME_DOCS",
    "PAIR_KINDS",
    "PROFILES",
    "REMOTE_STORE_KINDS",
    "REPO",
    "SCHEMA_VERSION",
    "STALE_ENTRY",
    "Behaviour",
    "Blame",
    "CaseDoc",
    "CaseError",
    "CaseKind",
    "KnownFailureRef",
    "Outcome",
    "Record",
    "RecordError",
    "RefusalCategory",
    "RefusalRef",
    "Side",
    "Store",
    "StoreKind",
    "TestKind",
    "Tier",
    "Types",
    "dump_records",
    "gates",
    "iter_records",
    "load_records",
    "main",
    "outcome_table",
    "parse_case",
    "parse_record",
]
