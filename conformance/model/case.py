"""A corpus case (fixtures/<format>/<area>/<case>/case.json): what it is, why its verdict holds
(question, tier, citation), and what it expects, by kind. fixtures/case.schema.json is generated
from these models (conformance.model.schemas); conformance.corpus.case loads every case through
`parse_case`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .words import CaseKind, Tier

REQUIREMENT_ID = r"^(V1|V2|V3|V3HIST|V3DRAFT|ZOM)(-[A-Z0-9]+)+$"
CASE_TIERS = Literal["required", "strict", "optional", "extension"]
Extent = Annotated[int, Field(ge=0)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Quote(_Open):
    spec: str = Field(
        description="path of the spec text, relative to the specs folder (../shared/specs beside "
        "the repository)"
    )
    section: str | None = None
    quote: str = Field(
        min_length=1,
        description="a sentence of that file (compared after collapsing whitespace and dropping "
        "RST inline markup)",
    )


class Citation(Quote):
    requirement: str = Field(pattern=REQUIREMENT_ID)


class Adjudication(_Doc):
    verdict: Literal["implementations-wrong", "case-fixed", "retiered"]
    reason: str = Field(min_length=8)
    citation: Quote


class Provenance(_Open):
    writer: str
    version: str
    script: str | None = None
    versions: dict[str, str] | None = None


class FillBytes(_Doc):
    bytes: str = Field(pattern=r"^([0-9a-f]{2})*$")


class FillValue(_Doc):
    value: Any


class _ArrayFiles(_Open):
    """Exact data: .npy with raw little-endian bytes beside it, or a JSON list."""

    data: str | None = Field(None, pattern=r"\.npy$")
    raw: str | None = Field(None, pattern=r"\.bin$")
    data_json: str | None = Field(None, pattern=r"\.json$")
    data_json_bytes: bool | None = None

    @model_validator(mode="after")
    def _one_form(self) -> _ArrayFiles:
        npy = self.data is not None and self.raw is not None
        text = self.data_json is not None
        if npy == text:
            raise ValueError("exactly one of data + raw (.npy, .bin) or data_json (.json)")
        return self


class ReadArray(_ArrayFiles):
    node_type: Literal["array"]
    shape: list[Extent]
    dtype: Any
    attributes: dict[str, Any]
    metadata: dict[str, Any] | None = None
    undefined: str | None = Field(None, pattern=r"\.npy$")
    model: str | None = None
    chunk_shape: list[Extent] | None = Field(
        None,
        description="the chunk grid's chunk shape (v3 sharded: the shard shape), as the "
        "reference reads it",
    )
    fill_value: FillBytes | FillValue | None = None
    dimension_names: list[str | None] | None = None


class ReadGroup(_Open):
    node_type: Literal["group"]
    attributes: dict[str, Any]
    members: dict[str, Literal["array", "group"]]
    model: str | None = None


class Reject(_Doc):
    reason: str
    stage: Literal["open", "read"]


class WriteStep(_Doc):
    """Write the values of `data` (shaped as the region selects) into `region` of the array."""

    op: Literal["write"]
    region: list[Extent | Annotated[list[Extent], Field(min_length=2, max_length=2)]] = Field(
        description="one entry per dimension: an index (the dimension is dropped from the values' "
        "shape) or [start, stop] (stop exclusive)"
    )
    data: str = Field(pattern=r"\.npy$")
    raw: str = Field(pattern=r"\.bin$")


class ResizeStep(_Doc):
    """Give the array a new shape of the same rank (the implementation's resize)."""

    op: Literal["resize"]
    shape: list[Extent]


class WriteRequest(_Open):
    node_type: Literal["array", "group"]
    path: str
    metadata: dict[str, Any] | None
    attributes: dict[str, Any]
    data: str | None = None
    steps: list[WriteStep | ResizeStep] | None = Field(
        None,
        min_length=1,
        description="after creating the array (and writing `data` over it), in order: regions "
        "written, resizes",
    )


class StoredCheck(_Doc):
    equals: str | None = None
    size: Extent | None = None
    prefix: str | None = Field(None, pattern=r"^([0-9a-f]{2})+$")
    crc32c_suffix: Literal[True] | None = None


class WriteResult(_ArrayFiles):
    """A case with steps: the array the reference must read at the end."""

    shape: list[Extent]
    dtype: Any
    undefined: str | None = Field(
        None,
        pattern=r"\.npy$",
        description="boolean mask: elements whose value the spec leaves open (not compared)",
    )


class Write(_Doc):
    request: WriteRequest
    keys: list[str] | None
    required_keys: list[str]
    forbidden_keys: list[str]
    optional_keys: list[str] | None = None
    exact_basis: list[str] | None = Field(
        None,
        min_length=1,
        description="requirement IDs (of the case, cited) whose sentences demand the exact "
        "documents, members or stored bytes",
    )
    documents: dict[str, Any]
    document_members: dict[str, dict[str, Any]]
    stored: dict[str, StoredCheck] | None = None
    must_fail: str | None = None
    result: WriteResult | None = None

    @model_validator(mode="after")
    def _steps_have_a_result(self) -> Write:
        if self.request.steps and self.result is None:
            raise ValueError("a request with steps needs the `result` it leads to")
        return self


class ZomDocument(_Open):
    model: str
    schema_version: Literal[2, 3]
    valid: bool
    schema_: Literal["fixed", "zep6-original"] | None = Field(None, alias="schema")


# What each kind of case may expect (the first model that fits, in this order).
EXPECT: dict[CaseKind, tuple[type[BaseModel], ...]] = {
    CaseKind.READ: (ReadArray, ReadGroup),
    CaseKind.REJECT: (Reject,),
    CaseKind.WRITE: (Write,),
    CaseKind.ZOM: (ZomDocument, ReadGroup, ReadArray),
}


class CaseDoc(_Doc):
    """One golden case. A case's tier comes from the question its builder row names, or from a
    tier_reason of its own: there is no default tier."""

    # its folder below the corpus root: <format>/<area>/<case> in fixtures/; saved property
    # failures (.cache/failures) have longer ids of their own
    id: str = Field(pattern=r"^[a-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9._-]+)+$")
    description: str = Field(min_length=8)
    kind: CaseKind
    format: Literal["v1", "v2", "v3", "v3-draft"]
    tier: CASE_TIERS
    question: str | None = Field(
        None,
        pattern=r"^[a-z0-9.-]+$",
        description="what the case asks; cases asking one question share a tier "
        "(conformance/corpus/questions.py, fixtures/questions.json)",
    )
    tier_reason: str | None = Field(None, min_length=8, description="why the case has its tier")
    tests: str | None = Field(
        None,
        min_length=1,
        description="the member or property a reject case tests; a cited sentence names it in "
        "its quote or section",
    )
    citation_note: str | None = Field(
        None, min_length=8, description="why no cited sentence can name what the case tests"
    )
    citation: list[Citation] | None = Field(
        None,
        min_length=1,
        description="the spec sentences the case rests on (every required and strict case has one)",
    )
    adjudication: Adjudication | None = Field(
        None,
        description="how a dispute between implementations and the reference about this case "
        "was settled",
    )
    requirements: list[Annotated[str, Field(pattern=REQUIREMENT_ID)]] = Field(min_length=1)
    needs: list[Annotated[str, Field(pattern=r"^[a-z]+:[A-Za-z0-9.*_-]+$")]]
    store: Literal["store", "store.zip"]
    node: str
    provenance: Provenance | None = None
    expect: dict[str, Any]

    @model_validator(mode="after")
    def _deliberate_and_well_formed(self) -> CaseDoc:
        if self.question is None and self.tier_reason is None:
            raise ValueError("a case names its question, or gives a tier_reason of its own")
        if len(set(self.requirements)) != len(self.requirements):
            raise ValueError("requirements repeat")
        if len(set(self.needs)) != len(self.needs):
            raise ValueError("needs repeat")
        expect_model(self.kind, self.expect)
        return self

    @property
    def tier_enum(self) -> Tier:
        return Tier(self.tier)


def expect_model(kind: CaseKind, expect: dict[str, Any]) -> BaseModel:
    """The expectation of a case of this kind, validated (ValueError: it fits none)."""
    errors = []
    for model in EXPECT[kind]:
        try:
            return model.model_validate(expect)
        except ValidationError as exc:
            errors.append(
                f"as {model.__name__}: {exc.errors()[0]['msg']} at {exc.errors()[0]['loc']}"
            )
    raise ValueError(f"expect of a {kind.value} case: " + "; ".join(errors))


class CaseError(ValueError):
    """A case.json that breaks the case model."""


def parse_case(doc: dict[str, Any], where: str = "case.json") -> CaseDoc:
    try:
        return CaseDoc.model_validate(doc)
    except ValidationError as exc:
        raise CaseError(f"{where}: not a valid case: {exc}") from None
