"""One check: validate the store with the reference, refuse what must not be opened, then have
each implementation read every node through its held adapter process and compare.

    report = check("data.zarr", Options(impls=["zarr-python"]))
    report.exit_code, report.to_text(), report.as_json()

Implementations run one after the other, each in its own process tree (memory cap, per-request
timeout, killed and reaped after its turn), so that the check never holds more than one of them
and the reference's digests. Nothing is written in or beside the store: answers go to a private
temporary folder, removed at the end.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.corpus.jsonstrict import differences
from conformance.harness import envs
from conformance.harness.config import AdapterConfig, AdapterConfigError, find_adapter
from conformance.harness.isolation import disk_temp_dir
from conformance.harness.transport import AdapterErrored
from conformance.reference import get_format
from conformance.reference.array import Array
from conformance.reference.errors import ZarrError
from conformance.reference.stores import Store
from conformance.validate.budget import DEFAULT_TIME_BUDGET, Progress
from conformance.validate.findings import ERROR, Finding
from conformance.validate.runner import Run, UsageError, open_location

from . import advice as advice_mod
from . import safety
from .compare import compare
from .features import array_features, group_features
from .reads import Answer, Reader
from .reference_side import ArraySide, RegionRead, defined_mask, digest, plan_regions
from .report import Cell, Implementation, Node, Report

MiB = 1 << 20
DEFAULT_BUDGET = 128 * MiB
DEFAULT_TIMEOUT = 600.0  # the whole check
REQUEST_TIMEOUT = 60.0  # one implementation reading one node, at most (as `run --timeout`)
# The reference's refusals that leave nothing safe or meaningful to hand over: its limits, a
# store it cannot reach, a path that leaves the store.
HELD = frozenset({"too-large", "io-error", "invalid-path"})
# Refusals of chunk data: an implementation returning values there returns corrupt data.
CHUNK_REASONS = frozenset({"corrupt-chunk", "checksum-mismatch", "corrupt-shard-index"})
PROGRESS_EVERY = 2.0


@dataclass
class Options:
    impls: list[str] = field(default_factory=list)  # empty: every available one that fits
    sample: int | None = None
    budget: int = DEFAULT_BUDGET
    timeout: float | None = DEFAULT_TIMEOUT  # the whole check (None: no limit)
    memory: int | None = None  # the adapter's process tree; None: memory_for(budget)
    progress: bool = True


def memory_for(budget: int) -> int:
    """An implementation's memory cap: room for its interpreter and twice what it reads."""
    return 512 * MiB + 2 * budget


def store_spec(location: str, store: Store) -> tuple[dict[str, Any], str, Path | None]:
    """(the request's store, the store kind, the local path) for a location open_location took."""
    if "://" in location and not location.lower().startswith("file://"):
        url = location.rstrip("/")
        kind = "s3" if url.lower().startswith("s3://") else "http"
        options = s3_options() if kind == "s3" else {}
        return {"kind": "url", "location": url, "storage_options": options}, kind, None
    path = Path(location[len("file://") :] if location.lower().startswith("file://") else location)
    path = path.resolve()
    kind = "directory" if path.is_dir() else "zip"
    return {"kind": kind, "location": str(path)}, kind, path


def s3_options() -> dict[str, Any]:
    """The neutral storage_options of adapters/README.md, from the environment the reference's
    URL store reads (AWS_ENDPOINT_URL[_S3], credentials; none: anonymous)."""
    env = os.environ
    key, secret = env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY")
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
    out: dict[str, Any] = {"anon": not (key and secret)}
    if endpoint:
        out["endpoint_url"] = endpoint
    if key and secret:
        out |= {"key": key, "secret": secret}
    region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if region or endpoint:
        out["region"] = region or "us-east-1"
    return out


class _Validation(Run):
    """validate's run, quiet, collecting the nodes its walk visits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.visited: list[dict[str, Any]] = []

    def _node_line(self, info: dict[str, Any]) -> None:
        self.visited.append(info)


class Check:
    def __init__(self, location: str, options: Options):
        self.location = location
        self.options = options
        self.progress = _Progress(options.progress)
        self.report = Report(location=location, store_kind="")
        self.sides: dict[str, ArraySide] = {}
        self.store: Store | None = None
        self.features: dict[str, set[str]] = {}
        self.deadline: float | None = None
        self.held: dict[str, Finding] = {}  # node path -> where validate met a limit

    def run(self) -> Report:
        started = time.monotonic()
        timeout = self.options.timeout
        self.deadline = None if not timeout else started + timeout
        try:
            self._run()
        finally:
            self.report.seconds = time.monotonic() - started
        return self.report

    def _run(self) -> None:
        options = self.options
        try:
            store = open_location(self.location, self._validate_timeout())  # UsageError: exit 2
        except ZarrError as exc:  # nothing can be opened there: a FIFO, a broken archive
            raise UsageError(exc.message) from None
        self.store = store
        spec, kind, local = store_spec(self.location, store)
        self.report.store_kind = kind
        self.report.options = {
            "budget": options.budget,
            "sample": options.sample,
            "timeout": options.timeout,
            "memory": options.memory or memory_for(options.budget),
        }
        configs = self._implementations(kind)  # UsageError for a named one that cannot run
        self.progress.say(f"validating {self.location} with the reference")
        visited = self._validate(store)
        if not visited:
            return
        self._nodes(store, visited)
        found = safety.problems(store, local, [(n.format, n.path) for n in self.report.nodes])
        if found:
            self.report.refused = found
            return
        if not configs:
            self.report.incomplete.append("no implementation to check with")
            return
        self._read_with(configs, spec)

    def _validate_timeout(self) -> float:
        """validate's own budget, within the check's."""
        left = self._left()
        return DEFAULT_TIME_BUDGET if left is None else max(min(DEFAULT_TIME_BUDGET, left), 1.0)

    def _left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def _out_of_time(self) -> bool:
        """Whether the check's time budget is spent (said once among the incomplete notes)."""
        left = self._left()
        if left is None or left >= 1.0:
            return False
        note = f"the time budget of {self.options.timeout:g} s ran out (--timeout)"
        if note not in self.report.incomplete:
            self.report.incomplete.append(note)
        return True

    # ---- implementations -------------------------------------------------------------------------
    def _implementations(self, kind: str) -> list[tuple[AdapterConfig, bool]]:
        named = [n for n in self.options.impls if n != "all"]
        out: list[tuple[AdapterConfig, bool]] = []
        for name in named:
            try:
                config = find_adapter(name)
            except AdapterConfigError as exc:
                raise UsageError(str(exc)) from None
            found = envs.availability(config)
            if not found.available:
                raise UsageError(f"{name} cannot run here: {found.describe()}")
            out.append((config, True))
        if named and "all" not in self.options.impls:
            return out
        selection = envs.select_adapters(["all"])
        other_kind: list[str] = []
        for name, found in selection.unavailable.items():
            self.report.implementations.append(Implementation(name, status=found.describe()))
        for name in selection.names:
            if name in named or name == "reference":
                continue
            try:
                config = find_adapter(name)
            except AdapterConfigError:
                continue
            if "op:read" not in config.capabilities:
                continue
            if f"store:{kind}" in config.capabilities:
                out.append((config, False))
            else:
                other_kind.append(name)
        if other_kind:
            self.report.notes.append(
                f"not checked, as they do not read {kind} stores: {', '.join(other_kind)}"
            )
        return out

    # ---- the reference ----------------------------------------------------------------------------
    def _validate(self, store: Store) -> list[dict[str, Any]]:
        run = _Validation(
            store,
            timeout=self._validate_timeout(),
            out=io.StringIO(),
            progress=Progress(enabled=self.options.progress),
            verbose=True,
            label=self.location,
        )
        result = run.execute()
        tally = result.sink.tally
        self.report.formats = list(result.formats)
        self.report.validation = {
            "verdict": result.verdict,
            "exit_code": result.exit_code,
            "errors": tally.errors,
            "cannot_check": tally.cannot_check,
            "warnings": tally.warnings,
            "complete": result.complete,
        }
        for finding in result.findings:  # where the reference stopped: not decoded again
            if finding.level == ERROR and finding.reason in HELD:
                self.held.setdefault(finding.path, finding)
        errors = [f.line() for f in result.findings if f.level == ERROR]
        self.report.findings = errors[:5] + (
            [f"... and {len(errors) - 5} more (zarr-conformance validate lists them)"]
            if len(errors) > 5
            else []
        )
        if not result.complete:
            self.report.incomplete.append("validation did not finish within its time budget")
        return [v for v in run.visited if v.get("kind") in ("array", "group", "node")]

    def _nodes(self, store: Store, visited: list[dict[str, Any]]) -> None:
        for info in visited:
            node = Node(path=info["path"], format=info["format"], kind=info["kind"])
            self.report.nodes.append(node)
            fmt = get_format(node.format)
            try:
                opened = fmt.open_node(store, node.path)
            except ZarrError as exc:
                node.reference, node.reason = f"[{exc.reason}] {exc.message}", exc.reason
                self.features[node.path] = {f"format:{node.format}"}
                continue
            except Exception as exc:  # the reference failed on it: validate said where
                node.reference, node.reason = f"{type(exc).__name__}: {exc}", "invalid-metadata"
                self.features[node.path] = {f"format:{node.format}"}
                continue
            if isinstance(opened, Array):
                node.kind = "array"
                needs, traits = array_features(opened)
                node.needs, node.traits = sorted(needs), sorted(traits)
                self.features[node.path] = needs | traits
                node.summary = _summary(opened, needs)
                stopped = self.held.get(node.path)
                if stopped is None:
                    self._reference_reads(node, opened)
                else:  # validate found the reference's limit here: neither side reads on
                    node.reference = f"[{stopped.reason}] {stopped.message}"
                    node.reason = stopped.reason
            else:
                node.kind = "group"
                doc = opened.metadata if isinstance(opened.metadata, dict) else None
                needs = group_features(node.format, node.path, doc)
                node.needs = sorted(needs)
                self.features[node.path] = needs

    def _reference_reads(self, node: Node, array: Array) -> None:
        regions, whole = plan_regions(array, self.options.budget, self.options.sample)
        side = ArraySide(array, whole=whole)
        total = sum(_bytes(array, r) for r in regions)
        node.read = (
            "whole"
            if whole
            else (
                f"a sample of {len(regions)} chunk regions, {total} of "
                f"{_bytes(array, tuple((0, n) for n in array.shape))} bytes"
            )
        )
        for region in regions:
            read = RegionRead(region)
            try:
                read.defined = defined_mask(array, region)
                read.digest = digest(side.decode(read), array.dtype, read.defined)
            except ZarrError as exc:
                read.error, read.reason = f"[{exc.reason}] {exc.message}", exc.reason
            except Exception as exc:  # the reference failed: validate reports where
                read.error, read.reason = f"{type(exc).__name__}: {exc}", "corrupt-chunk"
            side.regions.append(read)
        self.sides[node.path] = side

    # ---- the implementations' reads -----------------------------------------------------------------
    def _read_with(self, configs: list[tuple[AdapterConfig, bool]], spec: dict[str, Any]) -> None:
        options = self.options
        memory = options.memory or memory_for(options.budget)
        base = tempfile.mkdtemp(prefix="zarr-conformance-check-", dir=disk_temp_dir())
        unclaimed = [
            c.name for c, named in configs if not named and not _claims_any(c, self.report.formats)
        ]
        if unclaimed:
            formats = " or ".join(self.report.formats)
            self.report.notes.append(
                f"not checked, as they declare no format {formats}: {', '.join(unclaimed)}"
            )
        try:
            with _child_tmpdir(Path(base) / "tmp"):  # what a killed adapter leaves, goes with base
                self._each(configs, spec, Path(base), memory)
        finally:
            shutil.rmtree(base, ignore_errors=True)

    def _each(
        self,
        configs: list[tuple[AdapterConfig, bool]],
        spec: dict[str, Any],
        base: Path,
        memory: int,
    ) -> None:
        """Each implementation in turn, in its own held process tree, closed after its turn."""
        for config, named in configs:
            if not named and not _claims_any(config, self.report.formats):
                continue
            impl = Implementation(config.name, named=named)
            self.report.implementations.append(impl)
            if self._out_of_time():
                impl.status = "not run: the time budget ran out"
                continue
            folder = base / config.name
            logs = folder / "logs"
            logs.mkdir(parents=True)
            reader = Reader(config, folder / "work", memory, REQUEST_TIMEOUT, logs)
            try:
                self._one_implementation(reader, impl, named, spec)
            finally:
                reader.close()

    def _one_implementation(
        self, reader: Reader, impl: Implementation, named: bool, spec: dict[str, Any]
    ) -> None:
        self.progress.say(f"{impl.name}: starting")
        try:
            description = reader.describe()
        except envs.ProvisioningError as exc:
            impl.status = f"its environment cannot be made: {exc}"
            self.report.incomplete.append(f"{impl.name} did not run: {impl.status}")
            return
        except AdapterErrored as exc:
            impl.status = f"did not start: {exc}"
            description = None
        if description is not None:
            impl.version = description.version
        caps = description.capabilities if description else reader.config.capabilities
        total = len(self.report.nodes)
        for i, node in enumerate(self.report.nodes, 1):
            self.progress.say(f"{impl.name} {impl.version}: node {i}/{total} {node.display}", i)
            cell = Cell(node=node.path, impl=impl.name, outcome="skipped")
            lacking = _structural_gap(node, caps)
            if self._out_of_time():
                cell.message = "not read: the time budget ran out"
            elif lacking:
                cell.counted = named
                cell.message = f"{impl.name} does not declare {lacking}"
            elif description is None:
                cell.outcome, cell.message = "crashed", impl.status
            else:
                self._read_node(reader, node, spec, cell)
            if cell.outcome not in ("exact", "skipped", "unverified", "metadata-differs"):
                cell.advice = advice_mod.advise(
                    reader.config,
                    caps,
                    self.features.get(node.path, set()),
                    self.report.store_kind,
                    cell.message,
                )
            self.report.cells.append(cell)

    def _read_node(self, reader: Reader, node: Node, spec: dict[str, Any], cell: Cell) -> None:
        if node.reason in HELD:
            cell.message = f"not handed over: the reference stops there ({node.reason})"
            return
        side = self.sides.get(node.path)
        if side is None:  # a group, or a node the reference refuses
            answer = reader.read(spec, node.format, node.path, self.options.budget, self.deadline)
            cell.seconds = answer.seconds
            if node.kind == "group" and not node.reference:
                self._judge_group(node, answer, cell)
            else:
                _judge_refused_node(node, answer, cell)
            return
        self._read_array(reader, node, side, spec, cell)

    def _read_array(
        self, reader: Reader, node: Node, side: ArraySide, spec: dict[str, Any], cell: Cell
    ) -> None:
        array, worst, messages = side.array, "exact", []
        body: dict[str, Any] | None = None
        for read in side.regions:
            if read.reason in HELD:
                cell.outcome = "skipped"
                cell.message = f"not handed over: the reference stops there: {read.error}"
                return
            limit = _bytes(array, read.region) if not array.dtype.hasobject else self.options.budget
            if side.whole:
                answer = reader.read(spec, node.format, node.path, limit, self.deadline)
            else:
                answer = reader.read_region(
                    spec,
                    node.format,
                    node.path,
                    array.metadata,
                    list(read.region),
                    limit,
                    self.deadline,
                )
                if answer.outcome == "no-regions":
                    self._whole_instead(reader, node, side, spec, cell)
                    return
            cell.seconds += answer.seconds
            outcome, message, comparison = self._judge_region(side, read, answer)
            if answer.body is not None:
                body = answer.body
            if _rank(outcome) < _rank(worst):
                worst, cell.comparison = outcome, comparison
            if message:
                messages.append(message)
            if outcome in ("refused", "crashed", "timed-out"):
                break  # the rest would tell the same
        cell.outcome = worst
        cell.message = "; ".join(dict.fromkeys(messages))[:2000]
        if worst in ("exact", "type-changed") and body is not None:
            found = _attribute_differences(array.attrs, body.get("attributes"))
            if found:
                cell.outcome = "metadata-differs" if worst == "exact" else worst
                cell.message = "; ".join(filter(None, [cell.message, *found]))

    def _whole_instead(
        self, reader: Reader, node: Node, side: ArraySide, spec: dict[str, Any], cell: Cell
    ) -> None:
        """An adapter without region reads reads the whole array, if that fits the budget."""
        array = side.array
        size = _bytes(array, tuple((0, n) for n in array.shape))
        if size > self.options.budget:
            cell.outcome = "skipped"
            cell.message = (
                f"{size} bytes is over the budget of {self.options.budget}, and {reader.name}'s "
                "adapter reads whole arrays only (no bench op)"
            )
            return
        whole = ArraySide(array, whole=True)
        full = tuple((0, n) for n in array.shape)
        read = RegionRead(full, defined=defined_mask(array, full))
        try:
            read.digest = digest(whole.decode(read), array.dtype, read.defined)
        except ZarrError as exc:
            read.error, read.reason = f"[{exc.reason}] {exc.message}", exc.reason
        whole.regions.append(read)
        self._read_array(reader, node, whole, spec, cell)

    def _judge_region(
        self, side: ArraySide, read: RegionRead, answer: Answer
    ) -> tuple[str, str, dict[str, Any]]:
        if answer.outcome == "too-much":
            return "wrong-data", answer.message, {}
        if answer.outcome != "read":
            return answer.outcome, answer.message, {}
        body = answer.body or {}
        if body.get("node_type", "array") != "array":  # (bench answers carry no node_type)
            return "wrong-data", f"opened as a {body.get('node_type')}, not an array", {}
        where = _region_text(read.region) if not side.whole else ""
        if read.error:
            if read.reason in CHUNK_REASONS:
                return (
                    "wrong-data",
                    f"returned data{where} where the reference finds the chunks corrupt: {read.error}",
                    {},
                )
            return "unverified", f"read{where}; the reference cannot decode it: {read.error}", {}
        observed = answer.data
        if digest(observed, side.array.dtype, read.defined) == read.digest:
            return "exact", "", {}
        result = compare(
            side.decode(read), observed, read.defined, tuple(a for a, _ in read.region)
        )
        message = result.message + (f" (in the region {where.strip()})" if where else "")
        return result.outcome, message, result.as_json()

    def _judge_group(self, node: Node, answer: Answer, cell: Cell) -> None:
        if answer.outcome != "read":
            cell.outcome, cell.message = _plain(answer)
            return
        body = answer.body or {}
        if body.get("node_type") != "group":
            cell.outcome, cell.message = "wrong-data", f"opened as a {body.get('node_type')}"
            return
        store = self.store
        assert store is not None  # opened first
        fmt = get_format(node.format)
        found = []
        members = body.get("members")
        if members is not None:
            try:
                expected = fmt.children(store, node.path)
            except ZarrError:
                expected = None
            if expected is not None:
                found += [f"members: {d}" for d in differences(dict(expected), members)]
        else:
            cell.message = "members not listed (the store cannot be listed there)"
        try:
            attrs = fmt.open_node(store, node.path).attrs
        except ZarrError:
            attrs = None
        if attrs is not None:
            found += _attribute_differences(attrs, body.get("attributes"))
        cell.outcome = "metadata-differs" if found else "exact"
        if found:
            cell.message = "; ".join(found)[:2000]


def _judge_refused_node(node: Node, answer: Answer, cell: Cell) -> None:
    """A node the reference refuses (its metadata): a refusal is right; data cannot be judged."""
    if answer.outcome != "read":
        cell.outcome, cell.message = _plain(answer)
        return
    cell.outcome = "unverified"
    cell.message = f"opened although the reference refuses it: {node.reference}"


def _plain(answer: Answer) -> tuple[str, str]:
    outcome = "wrong-data" if answer.outcome == "too-much" else answer.outcome
    return outcome, answer.message


def _attribute_differences(expected: Any, got: Any) -> list[str]:
    if got is None or expected is None:
        return []  # its API cannot say
    return [f"attributes: {d}" for d in differences(dict(expected), got)][:5]


def _claims_any(config: AdapterConfig, formats: list[str]) -> bool:
    return any(f"format:{f}" in config.capabilities for f in formats) or not formats


def _structural_gap(node: Node, caps: frozenset[str]) -> str:
    """A capability without which the adapter has no way to be asked for the node."""
    if f"format:{node.format}" not in caps:
        return f"format:{node.format}"
    if node.kind == "group" and "node:group" not in caps:
        return "node:group"
    return ""


def _rank(outcome: str) -> int:
    from .report import OUTCOMES

    return OUTCOMES.index(outcome)


def _bytes(array: Array, region: tuple[tuple[int, int], ...]) -> int:
    from .reference_side import region_bytes

    return region_bytes(array, region)


def _region_text(region: tuple[tuple[int, int], ...]) -> str:
    return " [" + ", ".join(f"{a}:{b}" for a, b in region) + "]"


def _summary(array: Array, needs: set[str]) -> str:
    codecs = sorted(n.split(":", 1)[1] for n in needs if n.startswith("codec:"))
    return (
        f"{array.dtype.str if not array.dtype.fields else 'structured'} {tuple(array.shape)} in "
        f"{tuple(array.chunks)} chunks" + (f"; {', '.join(codecs)}" if codecs else "")
    )


@contextmanager
def _child_tmpdir(path: Path) -> Iterator[None]:
    """TMPDIR for the adapters started meanwhile (they inherit this environment)."""
    path.mkdir()
    saved = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(path)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved


class _Progress:
    """A line on stderr now and then, so that a long check shows it is alive."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.last = 0.0

    def say(self, text: str, step: int | None = None) -> None:
        now = time.monotonic()
        if not self.enabled or (step not in (None, 1) and now - self.last < PROGRESS_EVERY):
            return
        self.last = now
        print(f"check: {text}", file=sys.stderr, flush=True)


def check(location: str, options: Options | None = None) -> Report:
    """Check the store at `location` (a path or URL); UsageError when it cannot be opened."""
    return Check(location, options or Options()).run()
