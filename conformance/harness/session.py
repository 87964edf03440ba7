"""What one pytest session (one xdist worker) of the suite shares: the options, the selected
adapters and their known failures, the corpus, the adapter processes; and the per-test context
through which the suite's tests talk to adapters."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path

import pytest

from .client import AdapterClient, AdapterPool, Response
from .config import AdapterConfig, AdapterConfigError, find_adapter
from .properties import extra_found_cases, is_found
from .records import TESTS, new_run_id
from .transport import DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT

# Case kinds each test kind draws from.
CASE_KIND = {"read": "read", "reject": "reject", "write": "write", "cross": "write", "zom": "zom"}
# Capabilities a test needs on top of the case's own `needs`, per side.
OP_NEEDS = {"read": {"op:read"}, "reject": {"op:read"}, "write": {"op:write", "store:directory"}}
# What the steps of a write case need of the writer only (regions written into the array it
# created, resizes): a cross test's reader just reads the result.
UPDATE_NEEDS = frozenset({"op:update", "feature:resize"})


@dataclass
class Options:
    impls: list[str] = field(default_factory=lambda: ["reference"])
    results: Path | None = None
    timeout: float = DEFAULT_TIMEOUT
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT
    fixtures: Path | None = None
    kinds: tuple[str, ...] = TESTS
    cases: tuple[str, ...] = ()  # case id globs; empty = all
    in_process: bool = False
    run_id: str = field(default_factory=new_run_id)
    probe: bool = True  # run read/reject/write/zom cases an adapter declines anyway (conformance.harness.plan)
    impl_env: str = "pinned"  # "current": adapters run in the caller's environment (conformance.harness.variants)
    explore: bool = False  # property tests draw fresh examples and save new failures (conformance.suite.failures)
    examples: int | None = (
        None  # examples per property and pair (None: conformance.harness.properties.EXAMPLES)
    )
    shrink: bool = True  # a failing property example is shrunk before it is recorded
    # Remote store kinds the matrix adds for adapters declaring them (conformance.harness.remote).
    store_kinds: tuple[str, ...] = ("http", "s3", "icechunk")
    # Remote store kinds left out of this run, and why (said once, by the process writing records).
    store_notes: dict[str, str] = field(default_factory=dict)
    # Per store kind, the cases the store itself cannot hold, and why: they do not run over it
    # (icechunk: conformance.harness.icechunk_store.IcechunkStores.refusals).
    store_refusals: dict[str, dict[str, str]] = field(default_factory=dict)
    # Files of the implementer's changes to known failures and error rules (harness.overrides).
    overrides: tuple[Path, ...] = ()


class SuiteSession:
    def __init__(self, options: Options):
        self.options = options
        self._pool: AdapterPool | None = None
        self._cases = None
        self._others: dict[str, AdapterConfig] = {}
        self._remote = None
        self._icechunk = None

    @cached_property
    def adapters(self) -> dict[str, AdapterConfig]:
        try:
            from .variants import resolve_adapter  # NAME@VERSION, --impl-env current

            configs = [resolve_adapter(name, self.options.impl_env) for name in self.options.impls]
        except AdapterConfigError as exc:
            raise pytest.UsageError(f"--impl: {exc}") from None
        if self.options.overrides:
            from . import overrides

            try:
                found = overrides.load(self.options.overrides)
                configs = [overrides.apply(config, found) for config in configs]
            except AdapterConfigError as exc:
                raise pytest.UsageError(str(exc)) from None
        out: dict[str, AdapterConfig] = {}
        for config in configs:
            if config.name in out and out[config.name].folder != config.folder:
                raise pytest.UsageError(
                    f"two adapters named {config.name!r}: {out[config.name].folder}, {config.folder}"
                )
            out[config.name] = config
        return out

    def config(self, name: str) -> AdapterConfig:
        """A selected adapter, or another one by name (the reference, as a property-test partner)."""
        if name in self.adapters:
            return self.adapters[name]
        if name not in self._others:
            self._others[name] = find_adapter(name)
        return self._others[name]

    @property
    def pool(self) -> AdapterPool:
        if self._pool is None:
            self._pool = AdapterPool(
                timeout=self.options.timeout,
                memory_limit=self.options.memory_limit,
                in_process=self.options.in_process,
                scratch=scratch_dir(),
            )
        return self._pool

    @property
    def root(self) -> Path:
        from conformance.corpus import default_root

        return Path(self.options.fixtures) if self.options.fixtures else default_root()

    @property
    def remote(self):
        """This session's HTTP and S3 servers (conformance.harness.remote), started on first use."""
        if self._remote is None:
            from .remote import RemoteStores

            self._remote = RemoteStores(self.root)
        return self._remote

    @property
    def icechunk(self):
        """This session's Icechunk repositories (conformance.harness.icechunk_store), made by a
        helper process started on first use."""
        if self._icechunk is None:
            from .icechunk_store import IcechunkStores

            self._icechunk = IcechunkStores(self.pool.scratch / "icechunk")
        return self._icechunk

    def stores(self, kind: str):
        """What serves or holds the store kind `kind` (a remote kind: http, s3, icechunk)."""
        return self.icechunk if kind == "icechunk" else self.remote

    def all_cases(self):
        if self._cases is None:
            from conformance.corpus import load_cases

            root = self.root
            if not root.is_dir():
                raise pytest.UsageError(
                    f"no corpus at {root}: generate it (zarr-conformance corpus generate) or pass --fixtures"
                )
            self._cases = load_cases(root) + extra_found_cases(
                root, explicit=self.options.fixtures is not None
            )
            if not self._cases:
                raise pytest.UsageError(f"the corpus at {root} has no cases")
        return self._cases

    def cases(self, test: str):
        kind = CASE_KIND[test]
        globs = self.options.cases
        return [
            c
            for c in self.all_cases()
            if c.kind == kind
            and (not globs or any(fnmatchcase(c.id, g) for g in globs))
            and not (
                test == "cross" and "must_fail" in c.expect
            )  # nothing is written to cross-read
            and not is_found(c)
        ]  # saved property failures run as property replays (test_properties)

    def close(self) -> None:
        if self._remote is not None:
            self._remote.close()
            self._remote = None
        if self._icechunk is not None:
            self._icechunk.close()
            self._icechunk = None
        if self._pool is not None:
            self._pool.close()
            shutil.rmtree(self._pool.scratch, ignore_errors=True)
            self._pool = None


def scratch_dir() -> Path:
    """A fresh folder for the files of one session's tests: in memory (/dev/shm) where possible,
    because the suite creates and deletes thousands of small files ($ZARR_CONFORMANCE_SCRATCH
    chooses another parent)."""
    parent = os.environ.get("ZARR_CONFORMANCE_SCRATCH")
    if parent is None and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        parent = "/dev/shm"
    return Path(tempfile.mkdtemp(prefix="zarr-conformance-", dir=parent))


def missing(needs, config_or_caps) -> list[str]:
    caps = (
        config_or_caps.capabilities if hasattr(config_or_caps, "capabilities") else config_or_caps
    )
    return sorted(set(needs) - set(caps))


def write_path_needs(case) -> set[str]:
    """What a write case's request path asks of the writer: `feature:write-root-array` for an
    array at the store root (an implementation whose root is always a group, such as netCDF's,
    cannot), `feature:nested-paths` for a node addressed by a path with a separator ('/', or '\\'
    that some cases expect normalised): the writer takes a path, not one name per level."""
    request = case.expect.get("request") or {}
    path = request.get("path", "") or ""
    needs = set()
    if request.get("node_type") == "array" and not path.strip("/"):
        needs.add("feature:write-root-array")
    if "/" in path or "\\" in path:
        needs.add("feature:nested-paths")
    return needs


def path_faults(path: str, format: str) -> list[str]:
    """What is wrong with a node path as a store key path, one rule for every adapter and store
    kind: '.' and '..' segments, empty segments, backslashes, and (v1, v2) a leading or trailing
    '/'. A v3 or v3-draft path may start with one '/' (its absolute form)."""
    if not path:
        return []
    faults = []
    if "\\" in path:
        faults.append("backslash")
    body = path[1:] if format in ("v3", "v3-draft") and path.startswith("/") else path
    if format not in ("v3", "v3-draft") and (path.startswith("/") or path.endswith("/")):
        faults.append("leading or trailing '/'")
        body = body.strip("/")
    segments = body.split("/") if body else []
    if "." in segments:
        faults.append("'.' segment")
    if ".." in segments:
        faults.append("'..' segment")
    if "" in segments:
        faults.append("empty segment")
    return faults


def case_path(case) -> str:
    """The node path a case hands to an implementation: the read node, or the write path."""
    request = case.expect.get("request") or {}
    return request.get("path", "") or "" if case.kind == "write" else case.node or ""


def case_needs(test: str, case, role: str | None = None, store_kind: str | None = None) -> set[str]:
    """Every capability an adapter needs for `test` on `case` (role: cross tests' writer/reader;
    store_kind: a remote store kind the case runs over instead of its own store)."""
    needs = set(case.needs) | {f"format:{case.format}"}
    if path_faults(case_path(case), case.format):
        needs.add("feature:verbatim-paths")
    if test in ("read", "reject"):
        needs |= OP_NEEDS["read"] | {f"store:{store_kind or case.store_kind}"}
    if test == "write" or role == "writer":
        needs |= OP_NEEDS["write"]  # writes go to an empty directory store (or S3 prefix)
        needs |= write_path_needs(case)
        if store_kind:
            needs |= {f"store:{store_kind}", f"feature:{store_kind}-write"}
    if role == "reader":  # reads what the writer made: the writer's steps are not its business
        needs = (needs - UPDATE_NEEDS) | OP_NEEDS["read"] | {"store:directory"}
    if test == "zom":
        # op:zom, or op:list + op:read (then the harness builds the model): see zom_lacks()
        needs |= {f"store:{case.store_kind}"} if case.store_path.exists() else set()
    return needs


def zom_lacks(case, caps) -> list[str]:
    """What an adapter lacks to take part in a zom case, beyond case_needs()."""
    if "op:zom" in caps:
        return []
    if not case.store_path.exists():
        return ["op:zom"]
    return [c for c in ("op:list", "op:read") if c not in caps] and [
        "op:zom (or op:list + op:read)"
    ]


class TestContext:
    """Handed to each suite test as the `harness` fixture; collects what goes into the record.

    `plan` (conformance.harness.plan.Plan) says whether the test is a probe; `case` gives the
    reason code a refusal is compared with."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, session: SuiteSession, plan=None, case=None, store_kind: str | None = None):
        self.session = session
        self.plan = plan
        self.case = case
        self.store_kind = (
            store_kind  # a remote kind (http, s3, icechunk) or None: the store as it is
        )
        self._written: tuple[dict, Path] | None = None  # a remote write's store, its local copy
        self.probed: tuple[str, ...] = (
            plan.lacking if plan is not None and plan.mode == "probe" else ()
        )
        self.used: dict[str, AdapterClient] = {}
        self.fields: dict = {}
        # the step under way in a pair test ("writer" or "reader"): a crash is that side's
        self.step: str | None = None
        self._workdirs: list[Path] = []

    @property
    def probe(self) -> bool:
        return bool(self.probed)

    def adapter(self, name: str, needs=()) -> AdapterClient:
        """The running adapter, after checking the capabilities its describe() reports: one that
        narrows them at run time is skipped, or probed where a probe is allowed."""
        pool = self.session.pool
        if self.store_kind:  # the case's store comes over the remote kind instead
            needs = {n for n in needs if not n.startswith("store:")} | {f"store:{self.store_kind}"}
        pool.register(self.session.config(name))
        client = pool.get(name)
        if name not in self.used:
            client.adapter_elapsed = 0.0
            self.used[name] = client
        description = client.describe()
        lacking = missing(needs, description.capabilities)
        if (
            lacking
            and self.plan is not None
            and self.plan.may_probe(lacking, self.session.options.probe)
        ):
            self.probed = tuple(dict.fromkeys(self.probed + tuple(lacking)))
        elif lacking:
            pytest.skip(f"unsupported: {name} does not report {', '.join(lacking)} at run time")
        return client

    def workdir(self) -> Path:
        path = self.session.pool.workdir()
        self._workdirs.append(path)
        return path

    def store_spec(self, path: Path, write: bool = False) -> dict:
        """The request's store for the local store `path`: itself, or (in a test over a remote
        store kind) the same store served over HTTP or S3, or held in an Icechunk repository; for
        a write, an empty S3 prefix or repository whose keys collect_written() later copies into
        `path`."""
        if self.store_kind is None:
            path = Path(path).resolve()
            kind = "zip" if path.suffix == ".zip" else "directory"
            return {"kind": kind, "location": str(path)}
        stores = self.session.stores(self.store_kind)
        if write:
            self._written = (stores.write_spec(self.store_kind), Path(path))
            return self._written[0]
        return stores.read_spec(self.store_kind, Path(path))

    def collect_written(self) -> None:
        """After a write to a remote store: its keys (an Icechunk repository's: those committed)
        into the local directory the judge reads."""
        if self._written is not None and self.store_kind is not None:
            self.session.stores(self.store_kind).download(*self._written)
            self._written = None

    def refusal(self, name: str, response: Response, record: bool = True):
        """Judge a failed response (None for a successful one): a crash, or an `unsupported` answer
        adapter.toml does not declare, raises Crashed (`errored`); otherwise the Refusal
        (conformance.harness.refusals) is returned, and recorded (`refusal`) if `record`."""
        from .outcomes import Crashed
        from .refusals import judge_refusal

        if response.ok:
            return None
        refusal = judge_refusal(self.session.config(name), response.body)
        if refusal.verdict in ("crash", "undeclared"):
            raise Crashed(f"{name}: {refusal.why}: {refusal.describe()}", side=self.step)
        if record:
            expected = (
                (self.case.expect.get("reason") or self.case.expect.get("must_fail"))
                if self.case is not None
                else None
            )
            self.fields["refusal"] = refusal.as_record(expected)
        return refusal

    def check_response(self, name: str, response: Response):
        """As refusal(), and then a declared unsupported answer, and in a probe any refusal, skips
        the test (`unsupported`): what comes back is a clean refusal for the test to judge."""
        refusal = self.refusal(name, response)
        if refusal is not None and refusal.verdict == "unsupported":
            pytest.skip(f"unsupported: {name}: {refusal.why} ({refusal.describe()})")
        if refusal is not None and self.probe:
            pytest.skip(f"refused cleanly: {refusal.type}: {refusal.message}")
        return refusal

    @property
    def adapter_elapsed(self) -> float | None:
        return sum(c.adapter_elapsed for c in self.used.values()) if self.used else None

    @property
    def versions(self) -> dict:
        return {name: c.versions for name, c in self.used.items() if c.versions}

    def cleanup(self) -> None:
        for path in self._workdirs:
            shutil.rmtree(path, ignore_errors=True)
