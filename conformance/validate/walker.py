"""Walking one format's hierarchy: every node is opened with the reference and every stored
chunk decoded; whatever goes wrong becomes a Finding and the walk goes on.

For v2 and v3 the walker finds children from the store's keys itself rather than only through
the reference's `children`, so that a child with a broken document is still visited (and
reported), and nodes below a prefix with no metadata (an implicit group, V3-GRP-005 /
V2-GROUP-004) are reported and validated too.
"""

from __future__ import annotations

import contextlib
import math
import re
import traceback
import zipfile
from collections import deque
from collections.abc import Callable, Generator
from typing import Any

from conformance.reference import get_format
from conformance.reference.array import MAX_CHUNK_BYTES, Array, ArrayLayout, Group
from conformance.reference.errors import ExtensionNotImplemented, UnsupportedError, ZarrError
from conformance.reference.stores import Store

from . import chunks as chunk_scan
from . import decoding
from .budget import Budget, BudgetExceeded, Progress
from .findings import CANNOT_CHECK, ERROR, NOTE, WARNING, Finding, Sink
from .lint import cited_requirement, lint_node
from .requirement_map import SHOULD_LEVEL, requirement_for

# Formats whose hierarchy the walker discovers from keys: node documents and group-level keys.
NODE_DOCUMENTS = {"v3": ("zarr.json",), "v2": (".zarray", ".zgroup")}
GROUP_KEYS = {"v3": {"zarr.json"}, "v2": {".zgroup", ".zattrs", ".zmetadata"}}
FOREIGN_KEYS = {"v3": {".zarray", ".zgroup", ".zattrs", ".zmetadata"}, "v2": {"zarr.json"}}


KEY_CHARACTERS = {
    "v2": ("V2-STORE-001", re.compile(r"[\x00-\x7f]*"), "ASCII"),
    "v3-draft": ("V3DRAFT-KEY-007", re.compile(r"[A-Za-z0-9/._-]*"), "[A-Za-z0-9/._-]"),
}
MAX_KEY_FINDINGS = 10
GROUP_EXAMPLE_KEYS = 3  # keys named in a finding shared by many chunks


def node_prefix(path: str) -> str:
    return f"{path}/" if path else ""


def shorten(text: str, limit: int = 400) -> str:
    """Hostile metadata makes huge messages (a 10000-element shape): keep findings readable."""
    return text if len(text) <= limit else text[: limit - 25] + f"... ({len(text)} characters)"


def where(exc: BaseException) -> str:
    """'file.py:123 in function' of the innermost frame: enough to find a reference bug."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "unknown location"
    last = frames[-1]
    return f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno} in {last.name}"


class Walker:
    def __init__(
        self,
        store: Store,
        format: str,
        sink: Sink,
        budget: Budget | None = None,
        progress: Progress | None = None,
        decode: bool = True,
    ):
        self.store = store
        self.format = format
        self.fmt = get_format(format)
        self.sink = sink
        self.budget = budget or Budget()
        self.progress = progress or Progress(enabled=False)
        self.decode = decode
        self.queue: deque[str] = deque()
        self.visited: set[str] = set()
        self.can_list = True
        self.on_node: Callable[[dict[str, Any]], None] | None = (
            None  # called with a dict describing each node visited (verbose output)
        )

    # ---- reporting ------------------------------------------------------------------------
    def report(
        self,
        level: str,
        requirement: str | None,
        reason: str,
        path: str,
        message: str,
        key: str | None = None,
    ) -> None:
        finding = Finding(level, requirement, reason, path, shorten(message), key, self.format)
        if self._collected is not None:
            self._collected.append(finding)
        else:
            self.sink.add(finding)

    _collected: list[Any] | None = None

    def _collect(self) -> None:
        """Hold chunk-level findings back, so that one problem shared by many chunks or keys is
        reported once, with a count (see `_flush`)."""
        self._collected = []

    def _flush(self) -> None:
        collected, self._collected = self._collected or [], None
        groups: dict[tuple[Any, ...], list[Finding]] = {}
        for finding in collected:
            groups.setdefault(
                (finding.level, finding.requirement, finding.reason, finding.path), []
            ).append(finding)
        for (level, requirement, reason, path), items in groups.items():
            if len(items) == 1:
                self.sink.add(items[0])
                continue
            first = items[0]
            keys = [f.key for f in items if f.key]
            named = ", ".join(repr(k) for k in keys[:GROUP_EXAMPLE_KEYS])
            more = (
                f" and {len(keys) - GROUP_EXAMPLE_KEYS} more"
                if len(keys) > GROUP_EXAMPLE_KEYS
                else ""
            )
            message = (
                first.message
                if not first.key or first.key in first.message
                else f"key {first.key!r}: {first.message}"
            )
            text = f"{len(items)} chunks or keys share this problem ({named}{more}); the first: {message}"
            self.sink.add(
                Finding(
                    level,
                    requirement,
                    reason,
                    path,
                    shorten(text, 600),
                    None,
                    self.format,
                    len(items),
                )
            )

    def report_exception(
        self,
        exc: BaseException,
        path: str,
        kind: str | None,
        key: str | None = None,
        context: str = "metadata",
    ) -> None:
        if isinstance(exc, BudgetExceeded):
            raise exc
        if isinstance(exc, ZarrError):
            requirement, note = requirement_for(self.format, kind, exc.reason, exc.requirement)
            if exc.reason == "too-large":  # the reference's own limit, not a broken requirement
                requirement, note = None, ""
            if isinstance(exc, ExtensionNotImplemented) or exc.reason == "unsupported":
                # Valid, perhaps, but this reference cannot check it: the spec asks only that a
                # reader lacking an extension refuse the array, which breaks nothing in the store.
                level = CANNOT_CHECK
                if isinstance(exc, ExtensionNotImplemented):
                    note += " (cannot check this extension: that is not a violation)"
            else:
                level = WARNING if requirement in SHOULD_LEVEL else ERROR
            self.report(level, requirement, exc.reason, path, exc.message + note, key)
            return
        if isinstance(exc, (OSError, EOFError, zipfile.BadZipFile)):  # the store, not the reference
            self.report(
                ERROR,
                None,
                "io-error",
                path,
                f"the store could not be read: {type(exc).__name__}: {exc}",
                key,
            )
            return
        # Not a ZarrError: the reference itself failed on this input. Never crash; say where.
        reason = "corrupt-chunk" if context == "chunk" else "invalid-metadata"
        self.report(
            ERROR,
            None,
            reason,
            path,
            f"the reference failed unexpectedly ({type(exc).__name__}: {exc}) at {where(exc)}",
            key,
        )

    # ---- the walk -------------------------------------------------------------------------
    def run(self, path: str = "") -> None:
        try:
            root = self.fmt.normalize_path(path)
        except Exception as exc:
            self.report_exception(exc, path.strip("/"), None)
            return
        if self._exists(root):
            self.queue.append(root)
        else:
            # The start node itself is missing: first what the reference says about opening it
            # ('node-not-found', or 'implicit-group' for a v3 prefix without metadata), then the
            # nodes below it, if any, are still validated.
            try:
                self.fmt.open_node(self.store, root)
            except Exception as exc:
                self.report_exception(exc, root, None)
            else:
                self.report(ERROR, None, "node-not-found", root, f"no {self.format} node here")
            if not self._adopt_orphans(root):
                return
        self._check_key_characters(root)
        while self.queue:
            self.budget.check()
            self._visit(self.queue.popleft())

    def _check_key_characters(self, root: str) -> None:
        """v2 keys are ASCII (V2-STORE-001); draft keys use only [A-Za-z0-9/._-] (V3DRAFT-KEY-007)."""
        rule = KEY_CHARACTERS.get(self.format)
        if rule is None or not self.can_list or not getattr(self.store, "lists_chunks", True):
            return
        requirement, pattern, allowed = rule
        try:
            keys = self.store.list_prefix("" if self.format == "v3-draft" else node_prefix(root))
        except BudgetExceeded:
            raise
        except ZarrError:
            return
        bad = [k for k in keys if not pattern.fullmatch(k)]
        for key in bad[:MAX_KEY_FINDINGS]:
            self.report(
                ERROR,
                requirement,
                "invalid-path",
                root,
                f"a store key with characters outside {allowed}",
                key,
            )
        if len(bad) > MAX_KEY_FINDINGS:
            self.report(
                ERROR,
                requirement,
                "invalid-path",
                root,
                f"{len(bad) - MAX_KEY_FINDINGS} more keys with characters outside {allowed}",
            )

    def _exists(self, path: str) -> bool:
        try:
            if self.fmt.node_kind(self.store, path) is not None:
                return True
        except BudgetExceeded:
            raise
        except Exception:
            return True  # something is there, though broken: the visit reports it
        return any(
            self.store.contains(node_prefix(path) + name)
            for name in NODE_DOCUMENTS.get(self.format, ())
        )

    def _visit(self, path: str) -> None:
        if path in self.visited:
            return
        self.visited.add(path)
        self.progress.node()
        try:
            kind = self.fmt.node_kind(self.store, path)
        except BudgetExceeded:
            raise
        except Exception as exc:
            self.report_exception(exc, path, None)
            if self.on_node is not None:
                self.on_node(
                    {
                        "format": self.format,
                        "kind": "node",
                        "path": path,
                        "status": "unreadable",
                        "detail": "metadata cannot be read (1 error)",
                    }
                )
            if self.format in NODE_DOCUMENTS:
                self._discover_children(path)  # a broken document does not hide its subtree
            return
        if kind is None:
            self.report(
                ERROR, None, "node-not-found", path, "listed as a node but has no readable metadata"
            )
            return
        errors_before = self.sink.tally.errors
        node = self._open(path, kind)
        if kind == "array":
            self.sink.tally.arrays += 1
            checked = self._check_array(node) if isinstance(node, Array) else 0
            detail = (
                ""
                if not isinstance(node, Array)
                else (
                    f"{node.layout.dtype} shape {tuple(node.layout.shape)} chunks {tuple(node.layout.chunk_shape)}; "
                    f"{checked} stored chunk{'' if checked == 1 else 's'} checked"
                )
            )
        else:
            self.sink.tally.groups += 1
            queued = len(self.queue)
            self._discover_children(path)
            found = len(self.queue) - queued
            detail = f"{found} member{'' if found == 1 else 's'}"
        if self.on_node is not None:
            errors = self.sink.tally.errors - errors_before
            status = "ok" if not errors else f"{errors} error{'' if errors == 1 else 's'}"
            self.on_node(
                {
                    "format": self.format,
                    "kind": kind,
                    "path": path,
                    "status": status,
                    "detail": f"{detail} ({status})" if detail else status,
                }
            )

    def _open(self, path: str, kind: str) -> Array | Group | None:
        try:
            node = (
                self.fmt.open_array(self.store, path)
                if kind == "array"
                else self.fmt.open_group(self.store, path)
            )
        except BudgetExceeded:
            raise
        except Exception as exc:
            self.report_exception(exc, path, kind)
            return None
        try:
            for finding in lint_node(node, self.format):
                self.sink.add(finding)
        except Exception as exc:  # a lint must never stop the walk
            self.report_exception(exc, path, kind)
        return node

    # ---- children -------------------------------------------------------------------------
    def _discover_children(self, path: str) -> None:
        if self.format in NODE_DOCUMENTS:
            children = self._children_from_keys(path)
        else:
            try:
                children = sorted(self.fmt.children(self.store, path))
            except BudgetExceeded:
                raise
            except UnsupportedError as exc:
                self.report(
                    NOTE, None, "unsupported", path, f"children cannot be listed: {exc.message}"
                )
                return
            except Exception as exc:
                self.report_exception(exc, path, "group")
                return
            children = [f"{path}/{name}" if path else name for name in children]
        for child in children:
            if child not in self.visited:
                self.queue.append(child)

    def _children_from_keys(self, path: str) -> list[str]:
        prefix = node_prefix(path)
        try:
            keys, dirs = self.store.list_dir(prefix)
        except BudgetExceeded:
            raise
        except UnsupportedError as exc:
            if self.can_list:
                self.report(
                    NOTE, None, "unsupported", path, f"children cannot be listed: {exc.message}"
                )
            self.can_list = False
            return []
        except Exception as exc:
            self.report_exception(exc, path, "group")
            return []
        self._check_group_keys(path, keys)
        children = []
        for name in dirs:
            self.budget.check()
            if self.format == "v3" and name.startswith("__"):
                # Reserved for extensions, never a child (V3-GRP-008); a node document there
                # means someone created a node with a reserved name (V3-NAME-004).
                if self.store.contains(f"{prefix}{name}/zarr.json"):
                    self.report(
                        WARNING,
                        "V3-NAME-004",
                        "invalid-node-name",
                        prefix + name,
                        "a zarr.json under a reserved '__' name: readers ignore this node",
                    )
                continue
            child = prefix + name
            if any(self.store.contains(f"{child}/{doc}") for doc in NODE_DOCUMENTS[self.format]):
                if self._valid_child_name(child, name):
                    children.append(child)
            else:
                self._adopt_orphans(child)
        return children

    def _valid_child_name(self, child: str, name: str) -> bool:
        if self.format != "v3":
            return True
        try:
            from conformance.reference.formats.v3.names import name_problem
        except ImportError:
            return True
        problem = name_problem(name)
        if problem:
            self.report(
                ERROR,
                cited_requirement(problem),
                "invalid-node-name",
                child,
                f"a zarr.json exists under an invalid node name: {problem}",
            )
            return False
        return True

    def _check_group_keys(self, path: str, keys: list[str]) -> None:
        """Keys directly in a group that are not its documents: another format's metadata (a
        warning: mixed formats) or stray keys (a warning: readers ignore them)."""
        expected = GROUP_KEYS[self.format] | set(NODE_DOCUMENTS[self.format])
        foreign = sorted(k for k in keys if k in FOREIGN_KEYS[self.format])
        if foreign:
            self.report(
                WARNING,
                None,
                "mixed-formats",
                path,
                f"this {self.format} group also holds metadata of another format: {foreign}",
            )
        for key in keys:
            if key not in expected and key not in FOREIGN_KEYS[self.format]:
                self.report(
                    WARNING,
                    None,
                    "stray-key",
                    path,
                    "a key in the group that is not metadata of this format",
                    node_prefix(path) + key,
                )

    def _adopt_orphans(self, missing: str) -> bool:
        """Nodes below a path that has no metadata of its own: report the implicit group and
        validate them anyway. Returns whether any were found."""
        if self.format not in NODE_DOCUMENTS:
            return False
        try:
            keys = self.store.list_prefix(node_prefix(missing))
        except BudgetExceeded:
            raise
        except UnsupportedError:
            return False
        except Exception as exc:
            self.report_exception(exc, missing, "group")
            return False
        documents = NODE_DOCUMENTS[self.format]
        found = set()
        for key in keys:
            if "/" not in key or key.rsplit("/", 1)[-1] not in documents:
                continue
            if self.store.contains(key):
                found.add(key.rsplit("/", 1)[0])
            else:
                self.report(
                    WARNING,
                    None,
                    "invalid-path",
                    missing,
                    "a metadata key is listed but cannot be read (a symlink out of the store?)",
                    key,
                )
        # Only the topmost ones: the walk reaches the others through them.
        tops = sorted(p for p in found if not any(p.startswith(q + "/") for q in found))
        requirement, _ = requirement_for(self.format, "group", "implicit-group")
        for orphan in tops:
            self.report(
                ERROR,
                requirement,
                "implicit-group",
                missing,
                f"no group metadata here, but the node /{orphan} lies below it: "
                "every ancestor of a node needs its own group document",
            )
            self.queue.append(orphan)
        if not tops and keys and missing:
            # Keys under a prefix that is no node and holds none: no reader will ever see them.
            examples = ", ".join(repr(k) for k in keys[:3]) + (", ..." if len(keys) > 3 else "")
            self.report(
                WARNING,
                None,
                "stray-key",
                missing,
                f"{len(keys)} key{'' if len(keys) == 1 else 's'} below a prefix that is no node: {examples}",
            )
        return bool(tops)

    # ---- chunks ---------------------------------------------------------------------------
    def _check_array(self, array: Array) -> int:
        """Report stray keys and decode every stored chunk; returns how many were checked."""
        layout = array.layout
        ndim = len(layout.shape)
        chunk_bytes = math.prod(layout.chunk_shape) * max(layout.dtype.itemsize, 1)
        decode = self.decode
        too_large = decode and chunk_bytes > MAX_CHUNK_BYTES
        try:
            scan = self._find_chunks(array, ndim)
        except BudgetExceeded:
            raise
        except Exception as exc:
            self.report_exception(exc, array.path, "array", context="chunk")
            return 0
        self._collect()
        try:
            checked = self._check_chunks(array, scan, layout, decode, too_large, chunk_bytes)
        finally:
            self._flush()
        return checked

    def _check_chunks(
        self,
        array: Array,
        scan: chunk_scan.ChunkScan,
        layout: ArrayLayout,
        decode: bool,
        too_large: bool,
        chunk_bytes: int,
    ) -> int:
        for key, why, requirement in scan.stray:
            self.report(WARNING, requirement, "stray-key", array.path, f"{key!r} {why}", key)
        if scan.unchecked:
            self.report(NOTE, None, "unsupported", array.path, scan.unchecked)
        if too_large:
            # Valid metadata, but no stored chunk of this size can be checked here: an error
            # only when there are stored chunks that go unchecked.
            level = ERROR if scan.chunks else NOTE
            self.report(
                level,
                None,
                "too-large",
                array.path,
                f"chunks of {tuple(layout.chunk_shape)} {layout.dtype} ({chunk_bytes} bytes) exceed the "
                f"reference's limit of {MAX_CHUNK_BYTES} bytes; "
                + (
                    f"{len(scan.chunks)} stored chunks not decoded"
                    if scan.chunks
                    else "none is stored"
                ),
            )
            decode = False
        if scan.positions_only:
            return self._check_every_position(array, decode)
        checked = 0
        failed: set[str] = set()  # keys with a finding: one per stored key is enough
        chunks = ((key, index) for key, positions in scan.chunks.items() for index in positions)
        if not decode:
            results: Generator[tuple[tuple[str, tuple[int, ...]], bool | None, Any], None, None] = (
                (chunk, True, None) for chunk in chunks
            )
        else:
            count = sum(len(positions) for positions in scan.chunks.values())
            results = decoding.in_order(
                lambda chunk: array.read_chunk(chunk[1]) is not None,
                chunks,
                decoding.workers_for(chunk_bytes, self.store.remote) if count > 1 else 1,
            )
        with contextlib.closing(results):
            for n, ((key, _index), found, error) in enumerate(results):
                if n:  # as a serial walk: the budget is checked before each chunk but the first
                    self.budget.check()
                if key in failed or (scan.unlisted and error is None and not found):
                    continue  # a finding made already, or a position with nothing stored
                self.progress.chunk()
                self.sink.tally.chunks += 1
                checked += 1
                if not self._decoded(array, key, found, error):
                    failed.add(key)
        return checked

    def _find_chunks(self, array: Array, ndim: int) -> chunk_scan.ChunkScan:
        layout = array.layout
        prefix = chunk_scan.chunk_prefix(layout.chunk_key, ndim)
        injective = chunk_scan.is_injective_sample(layout.chunk_key, ndim)
        positions = chunk_scan.grid_size(layout.shape, layout.chunk_shape)
        if _has_storage_transformers(array):
            # The transformer (the draft's sharding) maps positions to stored keys itself, so a
            # stored key does not name one position: ask the reference for every position.
            if positions > chunk_scan.MAX_ENUMERATED_POSITIONS:
                return chunk_scan.ChunkScan(
                    unchecked=(
                        f"a storage transformer maps the {positions} grid positions to keys; too many to read each"
                    )
                )
            return chunk_scan.ChunkScan(positions_only=True)
        listed = None
        if self.can_list and getattr(self.store, "lists_chunks", True):
            try:
                listed = self.store.list_prefix(prefix)
            except UnsupportedError:
                self.can_list = False
        if listed is not None:
            if injective:
                return chunk_scan.classify(
                    listed, layout.chunk_key, layout.shape, layout.chunk_shape, prefix, self.format
                )
            if positions <= chunk_scan.MAX_ENUMERATED_POSITIONS:
                return chunk_scan.enumerate_positions(
                    set(listed), layout.chunk_key, layout.shape, layout.chunk_shape, self.budget
                )
            return chunk_scan.ChunkScan(
                unchecked=f"{positions} grid positions share keys; too many to map, chunks not checked"
            )
        if positions > chunk_scan.MAX_PROBED_POSITIONS:
            return chunk_scan.ChunkScan(
                unchecked=(
                    f"the store cannot be listed and the grid has {positions} positions "
                    f"(more than {chunk_scan.MAX_PROBED_POSITIONS} to probe): chunks not checked"
                )
            )
        scan = chunk_scan.enumerate_positions(
            None, layout.chunk_key, layout.shape, layout.chunk_shape, self.budget
        )
        if self.decode:
            # reading each position says whether it is stored: no request to ask first
            scan.unlisted = True
            return scan
        present = {}
        for key, indices in scan.chunks.items():
            self.budget.check()
            if self.store.contains(key):
                present[key] = indices
        scan.chunks = present
        return scan

    def _check_every_position(self, array: Array, decode: bool) -> int:
        """Read every grid position through the reference; count the ones that hold data."""
        checked = 0
        for index in array.chunk_indices():
            self.budget.check()
            key = array.chunk_key(index)
            try:
                found = array.read_chunk(index) is not None if decode else self.store.contains(key)
            except BudgetExceeded:
                raise
            except Exception as exc:
                self.report_exception(exc, array.path, "array", key=key, context="chunk")
                found = True
            if found:
                checked += 1
                self.sink.tally.chunks += 1
                self.progress.chunk()
        return checked

    def _decoded(
        self, array: Array, key: str, found: bool | None, error: BaseException | None
    ) -> bool:
        """Report what decoding one stored chunk came to; False if that was a finding."""
        if isinstance(error, BudgetExceeded):
            raise error
        if error is not None:
            self.report_exception(error, array.path, "array", key=key, context="chunk")
            return False
        if not found:  # listed, yet unreadable: a symlink out of the store?
            self.report(
                WARNING,
                None,
                "invalid-path",
                array.path,
                "the key is listed but cannot be read (readers will see the fill value)",
                key,
            )
            return False
        return True


def _has_storage_transformers(array: Array) -> bool:
    document = array.metadata if isinstance(array.metadata, dict) else {}
    return bool(document.get("storage_transformers"))
