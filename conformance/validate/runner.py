"""One validation run: open the store, find which formats are there, walk each, summarise.

    result = validate("data.zarr")            # or a URL, a Store; prints findings as it goes
    result.exit_code                           # 0: no MUST broken, 1: some MUST broken

The walk runs in a worker thread so that a time budget is a hard limit: if the walk has not
stopped by itself shortly after the deadline, the run reports what it has and returns anyway.
"""

from __future__ import annotations

import os
import threading
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from conformance.reference import FORMAT_NAMES, get_format
from conformance.reference.errors import ZarrError
from conformance.reference.stores import DirectoryStore, Store, ZipStore
from conformance.reference.stores.local import check_store_path

from .budget import Budget, BudgetExceeded, Progress
from .discovery import can_list, known_keys_view
from .findings import ERROR, NOTE, WARNING, Finding, Sink
from .walker import NODE_DOCUMENTS, Walker, node_prefix

GRACE_SECONDS = 2.0  # how long past the deadline a walk may take to notice it


class UsageError(Exception):
    """The command was asked for something impossible (exit code 2)."""


@dataclass
class Result:
    location: str
    formats: list[str]
    sink: Sink
    seconds: float
    complete: bool = True
    extra: dict[str, Any] = field(default_factory=dict)

    failure: BaseException | None = None  # the walk died in a way that could not be reported

    @property
    def exit_code(self) -> int:
        """0 valid; 1 a MUST is broken (or the run failed); 3 nothing broken, but some feature
        (a registered extension the reference does not implement) could not be checked."""
        if self.sink.tally.errors or self.failure is not None:
            return 1
        return 3 if self.sink.tally.cannot_check else 0

    @property
    def verdict(self) -> str:
        return {0: "pass", 1: "fail", 3: "cannot-check"}[self.exit_code]

    @property
    def findings(self) -> list[Finding]:
        return self.sink.findings


def open_location(location: str | os.PathLike[str] | Store, timeout: float | None = None) -> Store:
    """A read-only store for a directory, a zip file or a URL; UsageError when there is nothing
    to open (a missing path, an unknown URL scheme)."""
    if isinstance(location, Store):
        return location
    text = os.fspath(location)
    if "://" in text:
        from conformance.reference.stores.url import DEFAULT_TIMEOUT, SCHEMES, URLStore, url_scheme

        if url_scheme(text) not in SCHEMES:
            raise UsageError(
                f"unsupported URL scheme in {text!r}; use one of {', '.join(s + '://' for s in SCHEMES)}"
            )
        request_timeout = min(DEFAULT_TIMEOUT, timeout) if timeout else DEFAULT_TIMEOUT
        return URLStore(text, timeout=request_timeout)
    path = Path(text)
    if not path.exists():
        raise UsageError(f"no such file or directory: {text}")
    if path.is_dir():
        return DirectoryStore(path, read_only=True)
    check_store_path(
        path
    )  # a FIFO, socket or device: PathError, never opened (is_zipfile would block)
    if zipfile.is_zipfile(path):
        return ZipStore(path, "r")
    raise UsageError(f"{text} is neither a directory nor a zip archive")


def formats_at(store: Store, path: str) -> tuple[list[str], list[str]]:
    """(formats with a node at `path`, formats unavailable in this build). A document that
    cannot be parsed counts when no format parses: the first format claiming it is chosen
    (a broken zarr.json may be v3 or a v3-draft entry point; the walk reports why it is broken)."""
    present, broken, unavailable = [], [], []
    for name in FORMAT_NAMES:
        try:
            fmt = get_format(name)
        except ImportError:
            unavailable.append(name)
            continue
        try:
            node_path = fmt.normalize_path(path)
        except ZarrError:
            continue
        try:
            if fmt.node_kind(store, node_path) is not None:
                present.append(name)
                continue
        except ZarrError as exc:
            if exc.reason == "io-error":  # the store cannot be read at all
                raise
            broken.append(name)
            continue
        if any(
            store.contains(node_prefix(node_path) + doc) for doc in NODE_DOCUMENTS.get(name, ())
        ):
            broken.append(name)
    return (present or broken[:1]), unavailable


def formats_below(store: Store, path: str) -> list[str]:
    """Formats whose node documents appear somewhere below `path` (for a root with no metadata)."""
    try:
        keys = store.list_prefix(node_prefix(path.strip("/")))
    except ZarrError:
        return []
    names = {k.rsplit("/", 1)[-1] for k in keys}
    return [f for f in ("v3", "v2") if names & set(NODE_DOCUMENTS[f])]


class Run:
    def __init__(
        self,
        location: str | os.PathLike[str] | Store,
        format: str | None = None,
        path: str = "",
        decode: bool = True,
        timeout: float | None = None,
        out: TextIO | None = None,
        as_json: bool = False,
        progress: Progress | None = None,
        model: str | None = None,
        verbose: bool = False,
        label: str | None = None,
    ):
        self.location = location
        self.label = label or str(location)  # how the summary names the store
        self.format = format
        self.path = path or ""
        self.decode = decode
        self.budget = Budget(timeout)
        self.sink = Sink(out, as_json)
        self.sink.on_broken = self.budget.cancelled.set  # nobody is reading: stop walking
        self.progress = progress or Progress(enabled=False)
        self.model = model
        self.verbose = verbose
        self.formats: list[str] = []
        self.store: Store | None = None
        self.complete = True
        self.failure: BaseException | None = None

    def execute(self) -> Result:
        """Open the store (UsageError escapes: exit 2), then walk under the time budget."""
        try:
            self.store = open_location(self.location, self.budget.seconds)
        except (
            ZarrError
        ) as exc:  # no store can be opened there: a FIFO, an unreadable archive, a bad URL
            raise UsageError(exc.message) from None
        worker = threading.Thread(target=self._guarded_walk, name="zarr-validate", daemon=True)
        worker.start()
        remaining = self.budget.remaining()
        worker.join(None if remaining is None else remaining + GRACE_SECONDS)
        if worker.is_alive():  # stuck inside one request or one decode: give up on it
            self.budget.cancelled.set()
            self._budget_finding()
            self.sink.close()
        return Result(
            self.label,
            self.formats,
            self.sink,
            self.budget.elapsed,
            self.complete,
            extra={"decoded": self.decode},
            failure=self.failure,
        )

    def _budget_finding(self) -> None:
        if self.complete:
            self.complete = False
            if self.budget.seconds is None:  # cancelled because nobody reads the output any more
                return
            self.sink.add(
                Finding(
                    ERROR,
                    None,
                    "too-large",
                    self.path.strip("/"),
                    f"the time budget of {self.budget.seconds:g} s ran out: validation is "
                    "incomplete, so conformance cannot be confirmed",
                )
            )

    def _guarded_walk(self) -> None:
        try:
            try:
                self._walk()
            except BudgetExceeded:
                self._budget_finding()
            except ZarrError as exc:  # the store failed under the walk (a network error, say)
                self.sink.add(
                    Finding(
                        ERROR,
                        None,
                        exc.reason,
                        self.path.strip("/"),
                        f"validation stopped: {exc.message}",
                    )
                )
            except Exception as exc:  # the last line of defence: a finding, never a traceback
                from .walker import where

                self.sink.add(
                    Finding(
                        ERROR,
                        None,
                        "io-error" if isinstance(exc, OSError) else "invalid-metadata",
                        self.path.strip("/"),
                        f"validation stopped: {type(exc).__name__}: {exc} at {where(exc)}",
                    )
                )
        except (
            BaseException
        ) as exc:  # even reporting failed (MemoryError...): keep it off the screen
            self.failure = exc
            self.complete = False

    def _walk(self) -> None:
        store = self.store
        assert store is not None  # opened by execute() before the walk starts
        try:
            present, unavailable = formats_at(store, self.path)
        except ZarrError as exc:  # the store itself cannot be read (network, permissions)
            self.sink.add(Finding(ERROR, None, exc.reason, self.path.strip("/"), exc.message))
            return
        if self.format:
            formats = [self.format]
        else:
            formats = present or formats_below(store, self.path)
        if not formats:
            missing = (
                f" (formats not available in this build: {', '.join(unavailable)})"
                if unavailable
                else ""
            )
            self.sink.add(
                Finding(
                    ERROR,
                    None,
                    "node-not-found",
                    self.path.strip("/"),
                    f"no Zarr metadata of any format here{missing}",
                )
            )
            return
        if len(present) > 1 and not self.format:
            self.sink.add(
                Finding(
                    WARNING,
                    None,
                    "mixed-formats",
                    self.path.strip("/"),
                    f"metadata of several formats describe this node: {', '.join(present)}; "
                    "each is validated in turn (choose one with --format)",
                )
            )
        if not can_list(store):
            store, note = known_keys_view(store, formats, self.path.strip("/"))
            self.sink.add(Finding(NOTE, None, "unsupported", self.path.strip("/"), note))
        self.formats = formats
        self.sink.tally.formats = list(formats)
        for name in formats:
            walker = Walker(store, name, self.sink, self.budget, self.progress, self.decode)
            if self.verbose:
                walker.on_node = self._node_line
            walker.run(self.path)
        if self.model:
            self._check_model(store)

    def _node_line(self, info: dict[str, Any]) -> None:
        import json

        if self.sink.as_json:
            self.sink.write_line(json.dumps({"type": "node", **info}, ensure_ascii=False))
            return
        detail = info.get("detail", "")
        self.sink.write_line(
            f"NODE {info['format']} {info['kind']} /{info['path']}{': ' + detail if detail else ''}"
        )

    def _check_model(self, store: Store) -> None:
        try:
            from conformance.reference.zom import validate_model_file
        except ImportError as exc:
            self.sink.add(
                Finding(
                    ERROR,
                    None,
                    "unsupported",
                    self.path.strip("/"),
                    f"--model needs conformance.reference.zom.validate_model_file, which is not available ({exc})",
                )
            )
            return
        try:
            assert self.model is not None  # only called with --model
            findings = validate_model_file(store, self.model, self.path.strip("/"))
        except ZarrError as exc:
            self.sink.add(
                Finding(
                    ERROR,
                    None,
                    exc.reason,
                    self.path.strip("/"),
                    f"model file {self.model}: {exc.message}",
                )
            )
            return
        for item in findings:
            self.sink.add(Finding.coerce(item, format="zom"))


def validate(location: str | os.PathLike[str] | Store, **options: Any) -> Result:
    """Validate a store, path or URL; see `Run` for the options."""
    return Run(location, **options).execute()


def summary_line(result: Result) -> str:
    tally = result.sink.tally
    verdict = result.verdict.upper()
    formats = "+".join(result.formats) if result.formats else "none found"

    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    unchecked = f", {tally.cannot_check} cannot-check" if tally.cannot_check else ""
    parts = [
        f"SUMMARY {verdict}: {plural(tally.errors, 'error')}{unchecked}, {plural(tally.warnings, 'warning')}",
        f"format {formats}",
        f"{plural(tally.nodes, 'node')} ({plural(tally.groups, 'group')}, {plural(tally.arrays, 'array')})",
        f"{plural(tally.chunks, 'chunk')} checked"
        if result.extra.get("decoded", True)
        else f"{plural(tally.chunks, 'chunk')} found (not decoded: --no-data)",
        f"{result.seconds:.1f} s",
    ]
    if not result.complete:
        parts.append("INCOMPLETE (time budget)")
    return "; ".join(parts) + f" [{result.location}]"


def summary_json(result: Result) -> dict[str, Any]:
    tally = result.sink.tally
    return {
        "type": "summary",
        "verdict": result.verdict,
        "exit_code": result.exit_code,
        "location": result.location,
        "formats": result.formats,
        "errors": tally.errors,
        "cannot_check": tally.cannot_check,
        "warnings": tally.warnings,
        "notes": tally.notes,
        "groups": tally.groups,
        "arrays": tally.arrays,
        "chunks": tally.chunks,
        "chunks_decoded": bool(result.extra.get("decoded", True)),
        "seconds": round(result.seconds, 3),
        "complete": result.complete,
    }
