"""The deterministic corpus generator.

Case builders are plain functions registered with `@case(...)` in the modules of
`conformance.corpus.builders`. Each gets a `CaseWriter`: it fills an in-memory store (through the
reference or key by key, for hand-built bytes) and states the expectation. Generation writes every
case folder in sorted order with seeded data, sorted JSON and fixed compressor settings, so the same
code and pinned versions give the same bytes (`corpus check` enforces this).

Besides the store and the expectation, every case.json says why its verdict holds: the question
it asks and its tier (questions.py), the spec sentences it rests on (citations.toml), the settlement
of any dispute about it (adjudications.toml), and for array reads the chunk shape and fill value
the reference reads from the store.

Gold stores written by real implementations carry `provenance` in case.json; the generator never
touches them (scripts/gold_verdicts.py adds the verdict members to them).
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import fcntl
import hashlib
import importlib
import json
import os
import pkgutil
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..reference import jsonio
from ..reference.stores import MemoryStore, ZipStore
from .capabilities import unknown
from .case import KINDS, TIERS

MAX_CASE_BYTES = 256 * 1024


@dataclass
class CaseSpec:
    id: str
    kind: str
    format: str
    tier: str
    description: str
    requirements: tuple[str, ...]
    needs: tuple[str, ...]
    build: Callable[[CaseWriter], None]
    question: str | None = None
    tier_reason: str | None = None
    citation: tuple[dict, ...] | None = None  # a builder's own citations (else from citations.toml)
    tests: str | None = None  # the member or property a reject case tests (its quote names it)
    citation_note: str | None = None  # why no quote of the case can name what it tests


REGISTRY: dict[str, CaseSpec] = {}

# What a builder row or table says about the cases it makes (question, tier_reason, tests,
# citation_note): table_kit.each and `verdict` set them for every case registered meanwhile; a
# case's own arguments win.
VERDICT_MEMBERS = ("question", "tier_reason", "tests", "citation_note")
_VERDICT: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
    "verdict", default=MappingProxyType({})
)


@contextlib.contextmanager
def verdict(**members: str | None) -> Iterator[None]:
    """Name the question (and `tier_reason`, `tests`, `citation_note`) of every case registered
    inside: how a builder row or table states what its cases ask."""
    unknown_members = set(members) - set(VERDICT_MEMBERS)
    if unknown_members:
        raise TypeError(f"verdict(): unknown members {sorted(unknown_members)}")
    given = {k: v for k, v in members.items() if v is not None}
    token = _VERDICT.set({**_VERDICT.get(), **given})
    try:
        yield
    finally:
        _VERDICT.reset(token)


def case(
    id: str,
    *,
    kind: str,
    requirements,
    description: str,
    needs=(),
    tier: str | None = None,
    format: str | None = None,
    question: str | None = None,
    tier_reason: str | None = None,
    citation=None,
    tests: str | None = None,
    citation_note: str | None = None,
):
    """Register a case builder. The format defaults to the first segment of the id."""

    def register(build: Callable[[CaseWriter], None]):
        add_case(
            id,
            kind=kind,
            requirements=requirements,
            description=description,
            needs=needs,
            tier=tier,
            format=format,
            build=build,
            question=question,
            tier_reason=tier_reason,
            citation=citation,
            tests=tests,
            citation_note=citation_note,
        )
        return build

    return register


def add_case(
    id,
    *,
    kind,
    requirements,
    description,
    build,
    needs=(),
    tier=None,
    format=None,
    question=None,
    tier_reason=None,
    citation=None,
    tests=None,
    citation_note=None,
) -> None:
    """Register a case directly (for table-driven builders that make many cases in a loop).

    Every case names the question it asks (`question`, here or through the row or table that makes
    it: `verdict`, table_kit.each), and the question of questions.QUESTIONS fixes its tier; there is
    no default. A different tier (other than `extension`) needs a case-specific `tier_reason`; a
    case without a question needs both `tier` and a `tier_reason` of its own. A read, write or zom
    case asking a strict question (a store a reader may refuse) is optional (questions.accepting).
    Reject cases of v3 about a data type the core marks optional are optional
    (questions.OPTIONAL_DATA_TYPES). `citation`: the case's own [{requirement, spec, section,
    quote}] list instead of the citations.toml entries of its requirements; `tests`: the member or
    property a reject case tests, which picks the sentence of a requirement that names it."""
    from .questions import OPTIONAL_DATA_TYPE_REASON, OPTIONAL_DATA_TYPES, QUESTIONS, accepting

    if id in REGISTRY:
        raise ValueError(f"duplicate case id {id}")
    scope = _VERDICT.get()
    question = question or scope.get("question")
    tier_reason = tier_reason or scope.get("tier_reason")
    tests = tests or scope.get("tests")
    citation_note = citation_note or scope.get("citation_note")
    if question is not None and question not in QUESTIONS:
        raise ValueError(f"{id}: unknown question {question!r} (questions.QUESTIONS)")
    if question is None and not (tier and tier_reason):
        raise ValueError(
            f"{id}: name the question the case asks (question=, or its row's or table's), or give "
            "it a tier and a tier_reason of its own"
        )
    policy = QUESTIONS.get(question) if question else None
    if policy is not None:
        own_tier, own_reason = (
            accepting(question) if kind != "reject" else (policy.tier, policy.reason)
        )
        if tier is None:
            tier = own_tier
        elif tier not in (own_tier, "extension") and not tier_reason:
            raise ValueError(
                f"{id}: tier {tier!r} differs from its question {question!r} ({own_tier}) "
                "without a tier_reason"
            )
        if tier == own_tier and not tier_reason:
            tier_reason = own_reason
    fmt = format or id.split("/")[0]
    if (
        kind == "reject"
        and fmt in ("v3", "v3-draft")
        and set(needs) & OPTIONAL_DATA_TYPES
        and tier != "extension"
    ):
        tier, tier_reason = "optional", OPTIONAL_DATA_TYPE_REASON
    if kind not in KINDS or tier not in TIERS:
        raise ValueError(f"{id}: bad kind {kind!r} or tier {tier!r}")
    needs = tuple(sorted(set(needs) | {f"format:{fmt}"}))
    if unknown(needs):
        raise ValueError(f"{id}: unknown capability names {unknown(needs)}")
    REGISTRY[id] = CaseSpec(
        id,
        kind,
        fmt,
        tier,
        description,
        tuple(requirements),
        needs,
        build,
        question,
        tier_reason,
        tuple(citation) if citation is not None else None,
        tests,
        citation_note,
    )


def seed_for(case_id: str) -> int:
    return int.from_bytes(hashlib.sha256(case_id.encode()).digest()[:8], "little")


class CaseWriter:
    """What a builder fills in: the store, the node, the expectation and extra files."""

    def __init__(self, spec: CaseSpec):
        self.spec = spec
        self.store = MemoryStore()
        self.node = ""
        self.zip = False
        self.expect: dict[str, Any] = {}
        self.files: dict[str, bytes] = {}
        self.extra_needs: set[str] = set()
        self.rng = np.random.default_rng(seed_for(spec.id))

    # ---- store content -------------------------------------------------------------------
    def put(self, key: str, value: bytes) -> None:
        self.store.data[key] = bytes(value)  # raw: hand-built stores may hold keys a Store refuses

    def put_json(self, key: str, doc: Any) -> None:
        self.put(key, jsonio.dumps(doc))

    # ---- expectations --------------------------------------------------------------------
    def _array_files(self, data: Any, prefix: str) -> dict[str, Any]:
        arr = np.asarray(data)
        if arr.dtype.hasobject:
            values = [
                v.decode("latin-1") if isinstance(v, bytes) else v for v in arr.ravel().tolist()
            ]
            self.files[f"{prefix}.json"] = json.dumps(values, ensure_ascii=False).encode("utf-8")
            out = {"data_json": f"{prefix}.json", "shape": list(arr.shape)}
            if any(isinstance(v, bytes) for v in arr.ravel()):
                out["data_json_bytes"] = True
            return out
        self.files[f"{prefix}.npy"] = npy_bytes(arr)
        le = (
            arr.dtype.newbyteorder("<")
            if arr.dtype.byteorder in "<>=" or arr.dtype.fields
            else arr.dtype
        )
        self.files[f"{prefix}.bin"] = np.ascontiguousarray(arr.astype(le)).tobytes()
        return {"data": f"{prefix}.npy", "raw": f"{prefix}.bin"}

    def expect_array(
        self,
        data: Any,
        *,
        attributes: dict | None = None,
        metadata: dict | None = None,
        undefined: Any = None,
    ) -> None:
        """`undefined`: a boolean mask of elements whose value the spec leaves undefined (missing
        chunks with a null fill); they are not compared, the rest are."""
        arr = np.asarray(data)
        self.expect = {
            "node_type": "array",
            "shape": list(arr.shape),
            "dtype": dtype_text(arr.dtype),
            **self._array_files(arr, "expected"),
            "attributes": attributes if attributes is not None else {},
        }
        if undefined is not None:
            self.files["undefined.npy"] = npy_bytes(np.asarray(undefined, dtype=bool))
            self.expect["undefined"] = "undefined.npy"
        if metadata is not None:
            self.expect["metadata"] = metadata

    def expect_group(
        self, *, attributes: dict | None = None, members: dict[str, str] | None = None
    ) -> None:
        self.expect = {
            "node_type": "group",
            "attributes": attributes or {},
            "members": dict(sorted((members or {}).items())),
        }

    def expect_reject(self, reason: str, stage: str = "open") -> None:
        from ..reference.errors import REASONS

        if reason not in REASONS or stage not in ("open", "read"):
            raise ValueError(f"{self.spec.id}: bad reject expectation {reason!r} at {stage!r}")
        self.expect = {"reason": reason, "stage": stage}

    def expect_write(
        self,
        *,
        node_type: str = "array",
        path: str = "",
        metadata: dict | None = None,
        attributes: dict | None = None,
        data: Any = None,
        keys=None,
        required_keys=(),
        forbidden_keys=(),
        documents: dict | None = None,
        document_members: dict | None = None,
        stored: dict[str, dict] | None = None,
        must_fail: str | None = None,
        optional_keys=(),
        exact_basis=(),
    ) -> None:
        """`keys`: the exact key set, apart from `optional_keys` (keys a writer may or may not write,
        such as v3 ancestor group documents). `stored`: checks on raw stored values, by key:
        {"equals": bytes} (saved as a file), {"size": n}, {"prefix": bytes}, {"crc32c_suffix": True}
        (last 4 bytes are the LE CRC-32C of the rest). `documents`, `document_members` and `stored`
        hold a writer to exact values, so they need `exact_basis`: the requirement IDs (among the
        case's own) whose cited sentences demand those exact bytes or members; everything else is
        judged by meaning (write_semantics). `must_fail`: the write request itself must be refused
        (a reason code)."""
        if (documents or document_members or stored) and not exact_basis:
            raise ValueError(
                f"{self.spec.id}: exact documents/members/stored values need an exact_basis"
            )
        if set(exact_basis) - set(self.spec.requirements):
            raise ValueError(
                f"{self.spec.id}: exact_basis {sorted(set(exact_basis) - set(self.spec.requirements))} "
                "are not requirements of the case"
            )
        request: dict[str, Any] = {
            "node_type": node_type,
            "path": path,
            "metadata": metadata,
            "attributes": attributes or {},
            "data": None,
        }
        if data is not None:
            files = self._array_files(np.asarray(data), "input")
            request.update(files)
        checks = {}
        for i, (key, check) in enumerate(sorted((stored or {}).items())):
            check = dict(check)
            if "equals" in check:
                self.files[f"stored-{i}.bin"] = bytes(check["equals"])
                check["equals"] = f"stored-{i}.bin"
            if "prefix" in check:
                check["prefix"] = bytes(check["prefix"]).hex()
            checks[key] = check
        self.expect = {
            "request": request,
            "keys": sorted(keys) if keys is not None else None,
            "required_keys": sorted(required_keys),
            "forbidden_keys": sorted(forbidden_keys),
            "documents": documents or {},
            "document_members": document_members or {},
        }
        if checks:
            self.expect["stored"] = checks
        if optional_keys:
            self.expect["optional_keys"] = sorted(optional_keys)
        if exact_basis:
            self.expect["exact_basis"] = sorted(exact_basis)
        if must_fail is not None:
            from ..reference.errors import REASONS

            if must_fail not in REASONS:
                raise ValueError(f"{self.spec.id}: unknown reason {must_fail!r}")
            self.expect["must_fail"] = must_fail

    def expect_update(
        self,
        *,
        metadata: dict,
        steps: list,
        data: Any = None,
        path: str = "",
        attributes: dict | None = None,
    ) -> None:
        """A write case whose writer goes on after creating the array (and writing `data` over it,
        if given): `steps` (updates.Write, updates.Resize) in order. The reference runs them; the
        case then expects the array it reads at the end (`result`, with the elements the spec
        leaves open marked `undefined`) and the keys updates.run_steps works out."""
        from .updates import Write, region_json, run_steps

        arrays = [np.asarray(s.values) for s in steps if isinstance(s, Write)]
        if data is not None:
            arrays.append(np.asarray(data))
        if any(a.dtype.hasobject for a in arrays):
            raise ValueError(f"{self.spec.id}: steps take fixed-size data types only")
        expected = run_steps(self.spec.format, path, metadata, attributes or {}, data, list(steps))
        self.expect_write(
            metadata=metadata,
            data=data,
            path=path,
            attributes=attributes,
            keys=expected.keys,
            optional_keys=expected.optional_keys,
        )
        request_steps = []
        for i, step in enumerate(steps):
            if isinstance(step, Write):
                files = self._array_files(np.asarray(step.values), f"step-{i}")
                request_steps.append({"op": "write", "region": region_json(step.region), **files})
            else:
                request_steps.append({"op": "resize", "shape": [int(n) for n in step.shape]})
        self.expect["request"]["steps"] = request_steps
        result = expected.result
        self.expect["result"] = {
            "shape": list(result.shape),
            "dtype": dtype_text(result.dtype),
            **self._array_files(result, "expected"),
        }
        if expected.undefined.any():
            self.files["undefined.npy"] = npy_bytes(expected.undefined)
            self.expect["result"]["undefined"] = "undefined.npy"

    def expect_zom(
        self, *, model: Any, schema_version: int, valid: bool, schema: str = "fixed"
    ) -> None:
        self.files["model.json"] = json.dumps(model, indent=2, ensure_ascii=False).encode("utf-8")
        self.expect = {
            "model": "model.json",
            "schema_version": schema_version,
            "valid": valid,
            "schema": schema,
        }


def dtype_text(dtype: np.dtype) -> Any:
    return dtype.descr if dtype.fields else dtype.str


def npy_bytes(arr: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, np.asarray(arr, order="C"), allow_pickle=False)  # keeps 0-d arrays 0-d
    return buf.getvalue()


def load_builders() -> dict[str, CaseSpec]:
    import numcodecs.blosc

    from . import builders

    # c-blosc with threads stores blocks in the order its threads finish: bytes would vary.
    numcodecs.blosc.use_threads = False

    for info in sorted(pkgutil.iter_modules(builders.__path__), key=lambda m: m.name):
        importlib.import_module(f"{builders.__name__}.{info.name}")
    return REGISTRY


def build_case(spec: CaseSpec) -> dict[str, bytes]:
    """Every file of a case folder, by relative path."""
    w = CaseWriter(spec)
    spec.build(w)
    if not w.expect:
        raise ValueError(f"{spec.id}: the builder stated no expectation")
    needs = sorted(
        set(spec.needs) | w.extra_needs | ({"store:zip"} if w.zip else {"store:directory"})
    )
    if unknown(needs):
        raise ValueError(f"{spec.id}: unknown capability names {unknown(needs)}")
    files = dict(w.files)
    store_name = "store.zip" if w.zip else "store"
    if w.zip:
        files[store_name] = zip_bytes(w.store.data)
    else:
        for key, value in w.store.data.items():
            files[f"{store_name}/{key}"] = value
    if spec.kind == "read" and w.expect.get("node_type") == "array":
        w.expect.update(reference_read_expectations(spec.format, w.store, w.node))
    doc = {
        "id": spec.id,
        "description": spec.description,
        "kind": spec.kind,
        "format": spec.format,
        "tier": spec.tier,
        "requirements": list(spec.requirements),
        "needs": needs,
        "store": store_name,
        "node": w.node,
        "expect": w.expect,
    }
    doc.update(
        verdict_members(
            spec.id,
            spec.tier,
            spec.requirements,
            spec.question,
            spec.tier_reason,
            spec.citation,
            tests=spec.tests,
            citation_note=spec.citation_note,
        )
    )
    files["case.json"] = (
        json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    ).encode("utf-8")
    size = sum(len(v) for v in files.values())
    if size > MAX_CASE_BYTES:
        raise ValueError(f"{spec.id}: {size} bytes exceeds the {MAX_CASE_BYTES} byte case limit")
    return files


def reference_read_expectations(format_name: str, store, node: str) -> dict:
    """`chunk_shape`, `fill_value` (and `dimension_names`) of the array at `node`, as the reference
    reads them from the case's own store."""
    from ..reference import get_format
    from .write_semantics import read_expectations

    fmt = get_format(format_name)
    with warnings.catch_warnings():  # the draft's fallback data types warn on every open
        warnings.simplefilter("ignore")
        return read_expectations(fmt.open_node(store, fmt.normalize_path(node)))


def verdict_members(
    case_id: str,
    tier: str,
    requirements,
    question: str | None,
    tier_reason: str | None,
    citation,
    *,
    tests: str | None = None,
    citation_note: str | None = None,
) -> dict:
    """The case.json members that say why the verdict holds: `question`, `tier_reason`, `tests`
    (what a reject case tests), `citation` (required and strict cases: the builder's own list, else
    the question's sentences and the citations.toml entries of the requirements, of several the
    ones naming `tests`), `citation_note` and `adjudication` (adjudications.toml)."""
    from .adjudications import adjudication_for
    from .citations import citations_for
    from .questions import QUESTIONS

    out: dict[str, Any] = {}
    if question:
        out["question"] = question
    if tier_reason:
        out["tier_reason"] = tier_reason
    if tests:
        out["tests"] = tests
    if citation_note:
        out["citation_note"] = citation_note
    if citation is None and tier in ("required", "strict"):
        extra = QUESTIONS[question].citation if question in QUESTIONS else ()
        citation = [{"requirement": requirements[0], **c} for c in extra] + citations_for(
            requirements, tests=tests
        )
    if citation:
        unique = []
        for entry in citation:
            if entry not in unique:
                unique.append(dict(entry))
        out["citation"] = unique
    adjudication = adjudication_for(case_id)
    if adjudication is not None:
        out["adjudication"] = adjudication
    return out


def zip_bytes(data: dict[str, bytes]) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "store.zip"
        z = ZipStore(path, "w")
        for key, value in data.items():
            z._pending[key] = value  # raw keys, as in put()
        z.close()
        return path.read_bytes()


def is_generated(case_dir: Path) -> bool:
    try:
        return "provenance" not in json.loads((case_dir / "case.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False


def generate(
    root: Path, progress: Callable[[str], None] | None = None, only: str | None = None
) -> int:
    """(Re)write every generated case under `root`; gold cases (with provenance) are kept.

    Safe to run twice at once on one folder: the second run waits for the first (a lock file in
    `root`). Readers never see half a corpus: each top-level area (v3, v2, hostile, ...) is
    written into a folder beside `root` and swapped into place in one rename."""
    specs = load_builders()
    # Build everything in memory first: a failing builder leaves the corpus on disk untouched.
    built = {}
    for case_id in sorted(specs):
        if only and not case_id.startswith(only):
            continue
        built[case_id] = build_case(specs[case_id])
        if progress and len(built) % 100 == 0:
            progress(f"built {len(built)} cases")
    with_hostile = only is None or "hostile".startswith(only) or only.startswith("hostile")
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    with exclusive(root):
        stale = _selected_generated(root, only)
        areas = {c.split("/", 1)[0] for c in built} | {f.relative_to(root).parts[0] for f in stale}
        if with_hostile:
            from . import (
                hostile,
            )  # the hostile area: its own cases, written under root/hostile only

            areas.add(hostile.AREA)
        for old in root.parent.glob(f".{root.name}.generating-*"):
            shutil.rmtree(old, ignore_errors=True)  # left by a run that was killed
        staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.generating-", dir=root.parent))
        try:
            for area in sorted(areas):
                _stage_area(root / area, staging / area, stale)
            for case_id, files in built.items():
                for rel, value in sorted(files.items()):
                    target = staging / case_id / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.unlink(missing_ok=True)  # never write through a link to the old area
                    target.write_bytes(value)
            count = len(built)
            if with_hostile:
                count += hostile.generate(staging, progress)
            for area in sorted(areas):
                _prune_empty_dirs(staging / area)
                swap_into_place(staging / area, root / area)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return count


def _selected_generated(root: Path, only: str | None) -> set[Path]:
    """The generated case folders under root that this run rewrites."""
    return {
        case_json.parent
        for case_json in root.rglob("case.json")
        if is_generated(case_json.parent)
        and (only is None or case_json.parent.relative_to(root).as_posix().startswith(only))
    }


def _stage_area(area: Path, staging: Path, leave_out: set[Path]) -> None:
    """Start the new area as the old one without the cases about to be rewritten: hard links
    (gold cases and anything else kept), so that staging costs no copy."""
    if not area.is_dir():
        staging.mkdir(parents=True)
        return
    shutil.copytree(
        area,
        staging,
        symlinks=True,
        copy_function=os.link,
        ignore=lambda folder, names: [n for n in names if Path(folder, n) in leave_out],
    )


_RENAME_EXCHANGE = 2


def swap_into_place(new: Path, target: Path) -> None:
    """Make `new` the folder at `target` in one step (renameat2 RENAME_EXCHANGE on Linux): a
    reader sees the old folder or the new one, never none. The old one ends up at `new`."""
    if not target.exists():
        os.rename(new, target)
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        cwd = -100  # AT_FDCWD
        if libc.renameat2(cwd, os.fsencode(new), cwd, os.fsencode(target), _RENAME_EXCHANGE) == 0:
            return
    except (OSError, AttributeError):
        pass
    aside = new.with_name(new.name + ".old")  # no exchange here: a moment without the area
    os.rename(target, aside)
    os.rename(new, target)
    os.rename(aside, new)


LOCK_NAME = ".generate.lock"


@contextlib.contextmanager
def exclusive(root: Path):
    """Hold the generation lock of `root` (flock on root/.generate.lock); a second generator
    waits, saying for whom. The file is removed afterwards: a waiter that then holds a lock on
    a file no longer at that path tries again."""
    path = root / LOCK_NAME
    told = False
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not told:
                    holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
                    print(
                        f"corpus generate: another generator (pid {holder}) is writing into "
                        f"{root}; waiting for it to finish",
                        file=sys.stderr,
                        flush=True,
                    )
                    told = True
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
            if not same:
                continue  # the holder removed it after we opened it: lock the new one
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            try:
                yield
            finally:
                os.unlink(path)
            return
        finally:
            os.close(fd)


def _prune_empty_dirs(root: Path) -> None:
    for folder in sorted(
        (p for p in root.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True
    ):
        if not any(folder.iterdir()):
            folder.rmdir()


def snapshot(root: Path) -> dict[str, bytes]:
    """Bytes of every file belonging to generated cases under root."""
    out = {}
    for case_json in sorted(root.rglob("case.json")):
        folder = case_json.parent
        if not is_generated(folder):
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out
