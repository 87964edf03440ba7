"""The words a verdict is made of: test kinds, case kinds, sides, tiers, outcomes and what each
means, behaviours, store kinds, refusal categories."""

from __future__ import annotations

from enum import StrEnum


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


# One sentence per tier (fixtures/outcomes.json, fixtures/README.md "Tiers").
TIER_MEANING = {
    Tier.REQUIRED: "what the spec demands of every reader or writer: refusing a valid store "
    "fails, and so does accepting an invalid one",
    Tier.STRICT: "a document-level MUST with exactly one reading left (reject cases only): "
    "refusing is right, accepting is lenient",
    Tier.OPTIONAL: "a SHOULD/MAY, or where the spec is silent or its versions disagree: refusing "
    "a valid store is declined, accepting an invalid one is lenient",
    Tier.EXTENSION: "a zarr-extensions registration, never required: an implementation that "
    "does not declare it is unsupported; one that declares it is held to it, except that "
    "accepting an invalid store is lenient",
    Tier.HOSTILE: "the hostile area and injected faults: recorded, never gating",
}

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


# Store kinds the harness adds to the matrix: a directory case is run again with its store served
# over HTTP or S3, or held in an Icechunk repository (conformance.harness.remote).
REMOTE_STORE_KINDS = (StoreKind.HTTP, StoreKind.S3, StoreKind.ICECHUNK)


class RefusalCategory(StrEnum):
    METADATA = "metadata"
    CODEC = "codec"
    CHUNK_DATA = "chunk-data"
    IO = "io"
    UNSUPPORTED = "unsupported"
    CRASH = "crash"
