"""The case format and its loader (the consumer contract is fixtures/README.md)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..model import CaseKind, Tier, parse_case

KINDS = tuple(k.value for k in CaseKind)
TIERS = tuple(t.value for t in Tier if t is not Tier.HOSTILE)  # a case's tier


def default_root() -> Path:
    from conformance.resources import (
        fixtures_dir,  # the checkout's fixtures/, or the wheel's bundled copy
    )

    return Path(os.environ.get("ZARR_CONFORMANCE_FIXTURES") or fixtures_dir())


@dataclass(frozen=True)
class WriteRequest:
    node_type: str
    path: str
    metadata: dict | None
    attributes: dict
    data: np.ndarray | None
    steps: tuple[
        dict, ...
    ] = ()  # after creation: {"op": "write", "region", "data"} | {"op": "resize", "shape"}


@dataclass
class Case:
    id: str
    kind: str
    format: str
    tier: str
    description: str
    requirements: list[str]
    needs: frozenset[str]
    dir: Path
    store: str
    node: str
    expect: dict
    provenance: dict | None = None
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def store_path(self) -> Path:
        return self.dir / self.store

    @property
    def store_kind(self) -> str:
        return "zip" if self.store.endswith(".zip") else "directory"

    def expected_data(self) -> np.ndarray | Any:
        """The exact expected array (object arrays come from a JSON list: .npy would need pickle)."""
        return load_array(self.dir, self.expect)

    def write_request(self) -> WriteRequest:
        req = self.expect["request"]
        data = load_array(self.dir, req) if req.get("data") or req.get("data_json") else None
        return WriteRequest(
            req["node_type"],
            req.get("path", ""),
            req.get("metadata"),
            req.get("attributes", {}),
            data,
            tuple(req.get("steps", ())),
        )

    def expected_result(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """A write case's array as the reference must read it at the end: (data, the boolean mask
        of elements the spec leaves undefined, or None). Without steps: the request's data."""
        result = self.expect.get("result")
        if result is None:
            return self.write_request().data, None
        undefined = result.get("undefined")
        return load_array(self.dir, result), (
            np.load(self.dir / undefined, allow_pickle=False) if undefined else None
        )

    @classmethod
    def from_dir(cls, folder: Path, root: Path) -> Case:
        """The case in `folder`, validated by the case model (CaseError names what is wrong)."""
        doc = json.loads((folder / "case.json").read_text("utf-8"))
        if cls is Case and not _in_hostile_area(folder, root):  # hostile cases: their own format
            parse_case(doc, str(folder / "case.json"))
        return cls(
            id=doc["id"],
            kind=doc["kind"],
            format=doc["format"],
            tier=doc["tier"],
            description=doc["description"],
            requirements=list(doc["requirements"]),
            needs=frozenset(doc.get("needs", ())),
            dir=folder,
            store=doc.get("store", "store"),
            node=doc.get("node", ""),
            expect=doc["expect"],
            provenance=doc.get("provenance"),
            raw=doc,
        )


def _in_hostile_area(folder: Path, root: Path) -> bool:
    try:
        return Path(folder).relative_to(root).parts[:1] == ("hostile",)
    except ValueError:
        return False


def load_array(folder: Path, spec: dict) -> Any:
    if spec.get("data_json"):
        values = json.loads((folder / spec["data_json"]).read_text("utf-8"))
        arr = np.empty(len(values), dtype=object)
        for i, v in enumerate(values):
            arr[i] = v.encode("latin-1") if spec.get("data_json_bytes") else v
        return arr.reshape(spec["shape"])
    return np.load(folder / spec["data"], allow_pickle=False)


def load_cases(root: str | os.PathLike | None = None, kinds=None) -> list[Case]:
    """Every case under `root` (default: the repo's fixtures/), sorted by id."""
    root = Path(root) if root is not None else default_root()
    cases = []
    for case_json in sorted(root.rglob("case.json")):
        parts = case_json.relative_to(root).parts
        if "store" in parts[:-1]:
            continue  # a file named case.json inside some store is data, not a case
        if parts[0] == "hostile":
            continue  # the hostile area is not conformance cases (conformance.corpus.hostile)
        case = Case.from_dir(case_json.parent, root)
        if kinds is None or case.kind in kinds:
            cases.append(case)
    return cases
