"""The benchmark run: every implementation through its adapter's `bench` operation, each
repetition in a fresh adapter process, interleaved across implementations, every read and every
write checked bit for bit, beside the physical limits measured in the same run.

Repetitions are interleaved (rep 1: A B C, rep 2: B C A, ...: load that comes and goes hits
every implementation alike). One adapter process serves one (repetition, codec, implementation):
an untimed warm-up (a small array written and read once, so that lazy imports, thread pools and
the JIT are not timed), then each (store, operation). The adapter times the operation alone, wall
(perf_counter) and CPU (user + system of its process, every thread, and of children it waited
for: adapter_api.OperationTimer). Reads of the directory store read a canonical store written
once by the reference (every implementation reads the same bytes); reads of the in-memory store
fill the implementation's own memory store from those files first (untimed; for the partial reads
only with the metadata and the chunks or shards they read). Writes go to a fresh directory (or
memory store, copied out afterwards, untimed) and are read back by the reference: a write that
does not read back exactly, or that stored other codecs than asked for, is `wrong-data`, never a
speed. So is a read whose output is not bit-identical.

Which workloads an implementation runs: those its adapter.toml declares the operation, format and
codecs of. A codec it does not declare is probed once (first repetition): a clean refusal is
`not-applicable` with the implementation's own reason; wrong data is recorded as such but, the
capability being undeclared, does not fail the run (as a probe in the matrix); an exact answer is
measured like any other. A workload refused in the first repetition is not asked again.
"""

from __future__ import annotations

import fnmatch
import json
import math
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from . import limits as physical
from . import stats
from .machine import load_sample, machine_facts
from .workloads import (
    CODEC_LABELS,
    CODECS,
    OPERATION_LABELS,
    OPERATIONS,
    STORE_LABELS,
    STORES,
    Geometry,
    array_document,
    capabilities_needed,
    make_data,
    not_applicable,
)

SCHEMA = "zarr-conformance-bench/2"
MIN_REPEAT = 3  # repetitions a workload gets even when it is over its time budget
MB = 1e6
WRITE_NODE = "bench"  # where writers that cannot put an array at the store root write it


@dataclass
class Options:
    size_mib: int = 128
    repeat: int = 5
    impls: list[str] | None = None  # None: every adapter that can write or read
    codecs: list[str] = field(default_factory=lambda: list(CODECS))
    stores: list[str] = field(default_factory=lambda: list(STORES))
    operations: list[str] = field(default_factory=lambda: list(OPERATIONS))
    exclude: list[str] = field(
        default_factory=list
    )  # "impl/codec/store/operation" fnmatch patterns
    repeat_for: dict[str, int] = field(
        default_factory=dict
    )  # fewer repetitions for some implementations
    scratch: Path | None = None
    timeout: float = 900.0
    warmup: bool = True
    validate_size_mib: int = 1024  # the validate rows' store (0: no validate rows)
    # A workload whose timed operations have taken this many seconds in all stops at
    # MIN_REPEAT repetitions (recorded in its entry's `runs`): slow implementations would
    # otherwise take most of the run.
    workload_budget_s: float = 60.0


class Progress:
    """Progress lines on stderr: what runs now, n of N, elapsed."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()

    def elapsed(self) -> str:
        seconds = int(time.monotonic() - self.start)
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    def __call__(self, message: str) -> None:
        print(f"[{self.elapsed()}] {message}", file=self.stream, flush=True)


# ---- adapters -----------------------------------------------------------------------------------


def select_adapters(names: list[str] | None):
    """(chosen [(config, format)], not benchmarked {name: {"status", "reason"}}). Default: every
    adapter folder (adapter.toml `default` is about the matrix's cost, not the bench's); those that
    neither write nor read arrays, or whose environment this machine lacks, with the reason."""
    from conformance.harness import envs
    from conformance.harness.config import all_adapters, find_adapter

    configs = [find_adapter(n) for n in names] if names else all_adapters(strict=False)
    chosen, skipped = [], {}
    for config in configs:
        caps = config.capabilities
        fmt = "v3" if "format:v3" in caps else "v2" if "format:v2" in caps else None
        if "op:read" not in caps and "op:write" not in caps:
            skipped[config.name] = {
                "status": "not-applicable",
                "reason": "reads and writes no arrays (adapter.toml declares neither op:read nor op:write)",
            }
        elif fmt is None:
            skipped[config.name] = {
                "status": "not-applicable",
                "reason": "implements neither format v3 nor v2",
            }
        else:
            try:
                envs.require_available(config)
            except envs.Unavailable as exc:
                skipped[config.name] = {"status": "unavailable", "reason": str(exc)}
                continue
            chosen.append((config, fmt))
    chosen.sort(key=lambda cf: (cf[0].name != "reference", cf[0].name))
    return chosen, skipped


def plan(config, fmt: str, codec: str, operation: str) -> tuple[str, str]:
    """How a workload is run for an adapter: ("run", ""), ("probe", the undeclared capabilities)
    or ("not-applicable", why)."""
    caps = config.capabilities
    op = "op:write" if operation == "write" else "op:read"
    if op not in caps:
        verb = "write" if operation == "write" else "read"
        return "not-applicable", f"{config.name} does not {verb} arrays (adapter.toml: no {op})"
    reason = not_applicable(fmt, codec)
    if reason:
        return "not-applicable", f"{reason} ({config.name} runs format {fmt})"
    missing = [c for c in capabilities_needed(codec) if c not in caps]
    if missing:
        return "probe", ", ".join(missing)
    return "run", ""


def classify_error(config, body: dict, probe: bool = False) -> tuple[str, str]:
    """An error response (judged as the matrix judges one: conformance.harness.refusals):
    `not-applicable` when adapter.toml declares it a refusal (category unsupported, with its
    reason), or when the implementation refused a probe of an undeclared capability cleanly
    (with its own message); else `errored`."""
    from conformance.harness.refusals import judge_refusal

    refusal = judge_refusal(config, body)
    said = f"{refusal.type}: {refusal.message}"
    if refusal.verdict == "unsupported":
        return "not-applicable", f"{refusal.why or 'declared unsupported'} ({said})"
    if refusal.verdict == "refusal" and probe:
        return "not-applicable", f"refused by the implementation: {said}"
    if refusal.verdict == "refusal":
        return "errored", f"refused a workload its adapter.toml declares: {said}"
    return "errored", f"{said} ({refusal.why})" if refusal.why else said


def write_node(config) -> str:
    """Where an adapter writes the bench array: the store root, or one array below a root group
    for writers that always write a root group (GDAL, NCZarr)."""
    return "" if "feature:write-root-array" in config.capabilities else WRITE_NODE


# ---- checks -------------------------------------------------------------------------------------


def codec_names(fmt: str, document: dict | None) -> list:
    """The codec chain of a metadata document, by name (nested for sharding)."""
    if not isinstance(document, dict):
        return []
    if fmt == "v2":
        compressor = document.get("compressor")
        return [
            compressor.get("id") if isinstance(compressor, dict) else None,
            [f.get("id") for f in document.get("filters") or [] if isinstance(f, dict)],
        ]

    def names(codecs):
        out = []
        for codec in codecs or []:
            name = codec.get("name") if isinstance(codec, dict) else codec
            conf = codec.get("configuration", {}) if isinstance(codec, dict) else {}
            out.append(
                [name, names(conf.get("codecs")), names(conf.get("index_codecs"))]
                if name == "sharding_indexed"
                else name
            )
        return out

    return names(document.get("codecs"))


def check_written(
    path: Path, fmt: str, document: dict, data: np.ndarray, node: str = ""
) -> tuple[bool, str, int]:
    """(exact, message, stored bytes) of what an implementation wrote: read back by the
    reference, bit for bit, with the codecs that were asked for."""
    from conformance.reference import DirectoryStore, get_format

    stored = sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else 0
    store = DirectoryStore(path, read_only=True)
    try:
        array = get_format(fmt).open_node(store, node)
        written = codec_names(fmt, array.metadata)
        if written != codec_names(fmt, document):
            return False, f"stored codecs {written} instead of {codec_names(fmt, document)}", stored
        out = array.read()
    except Exception as exc:  # the reference refuses what was written: the write is wrong
        return (
            False,
            f"the reference cannot read what was written: {type(exc).__name__}: {exc}",
            stored,
        )
    finally:
        store.close()
    return (*same_bits(out, data), stored)


def same_bits(out: np.ndarray, expected: np.ndarray) -> tuple[bool, str]:
    if out.dtype != expected.dtype or out.shape != expected.shape:
        return False, f"got {out.dtype} {out.shape}, expected {expected.dtype} {expected.shape}"
    a = np.ascontiguousarray(out).view(np.uint8)
    b = np.ascontiguousarray(expected).view(np.uint8)
    if np.array_equal(a, b):
        return True, ""
    wrong = int(np.count_nonzero(out.view(np.uint32) != expected.view(np.uint32)))
    return False, f"{wrong} of {expected.size} values differ (bit for bit)"


def check_read(path: str | None, expected: np.ndarray) -> tuple[bool, str]:
    if not path or not os.path.isfile(path) or not path.endswith(".npy"):
        return False, f"no array file was written ({path!r})"
    try:
        out = np.load(path, allow_pickle=False)
    except Exception as exc:
        return False, f"unreadable array file: {exc}"
    return same_bits(out, expected)


# ---- the run ------------------------------------------------------------------------------------


class Bench:
    def __init__(self, options: Options, progress: Progress | None = None):
        self.options = options
        self.say = progress or Progress()
        self.geometry = Geometry.for_size(options.size_mib)
        self.runs: dict[tuple, list[dict]] = {}
        self.impls: dict[str, dict] = {}
        self.loads: list[dict] = []

    # -- bookkeeping --
    def record(self, key: tuple, run: dict) -> None:
        self.runs.setdefault(key, []).append(run)

    def sample_load(self, when: str) -> dict:
        sample = {"at": when, "elapsed_s": round(time.monotonic() - self.t0, 1)}
        sample.update(load_sample())
        self.loads.append(sample)
        return sample

    def excluded(self, name: str, codec: str, store: str, operation: str) -> str | None:
        path = f"{name}/{codec}/{store}/{operation}"
        for pattern in self.options.exclude:
            if fnmatch.fnmatchcase(path, pattern):
                return pattern
        return None

    def repeats(self, name: str) -> int:
        return min(self.options.repeat, self.options.repeat_for.get(name, self.options.repeat))

    def settled(self, key: tuple) -> bool:
        """Whether a workload needs no more repetitions: refused (not applicable), excluded, or
        a probe of an undeclared capability that did not come out exact."""
        runs = self.runs.get(key, [])
        if not runs:
            return False
        first = runs[0]
        if first["status"] in ("not-applicable", "not-measured", "skipped"):
            return True
        if first.get("probe") and first["status"] != "ok":
            return True
        timed = [r["seconds"] for r in runs if r["status"] == "ok"]
        return len(timed) >= MIN_REPEAT and sum(timed) >= self.options.workload_budget_s

    # -- main --
    def run(self) -> dict:
        opts, geometry = self.options, self.geometry
        started = datetime.now(UTC)
        self.t0 = time.monotonic()
        self.sample_load("start")
        chosen, skipped = select_adapters(opts.impls)
        self.impls.update(skipped)
        for config, fmt in chosen:
            self.impls[config.name] = {
                "status": "ok",
                "format": fmt,
                "description": config.description,
                "repetitions": self.repeats(config.name),
                "write_node": write_node(config),
            }
        self.say(
            f"bench: float32 {geometry.shape[0]} x {geometry.shape[1]} ({geometry.nbytes / 2**20:.0f} MiB) in "
            f"{geometry.chunk_shape[0]} x {geometry.chunk_shape[1]} chunks (1 MiB), shards "
            f"{geometry.shard_shape[0]} x {geometry.shard_shape[1]}; {len(chosen)} implementations "
            f"({', '.join(c.name for c, _ in chosen)}), {opts.repeat} repetitions, codecs {', '.join(opts.codecs)}, "
            f"stores {', '.join(opts.stores)}"
        )
        for name, info in skipped.items():
            self.say(f"    {name}: not benchmarked ({info['status']}): {info['reason']}")
        scratch = Path(tempfile.mkdtemp(prefix="zarr-bench-", dir=opts.scratch))
        limit_runs = []
        validate_rows: dict = {}
        try:
            self.scratch = scratch
            self.data = make_data(geometry.shape)
            self.input = scratch / "input.npy"
            np.save(self.input, self.data)
            self.expected = {op: self.expected_read(op) for op in opts.operations if op != "write"}
            formats = sorted({fmt for _, fmt in chosen})
            self.canonical = self.write_canonical(formats)
            self.warm = self.write_warmup_inputs()
            os.sync()
            total = sum(self.repeats(c.name) for c, _ in chosen) * len(opts.codecs)
            n = 0
            for rep in range(opts.repeat):
                load = self.sample_load(f"repetition {rep + 1}")
                self.say(
                    f"rep {rep + 1}/{opts.repeat}: physical limits (memcpy, file write/read, single-thread codecs); "
                    f"load average {load.get('load_1min')}"
                )
                limit_runs.append(physical.measure(self.data, geometry, opts.codecs, scratch))
                for codec in opts.codecs:
                    # interleaved: each repetition starts with another implementation
                    order = (
                        chosen[rep % len(chosen) :] + chosen[: rep % len(chosen)] if chosen else []
                    )
                    for config, fmt in order:
                        if rep >= self.repeats(config.name):
                            continue
                        n += 1
                        self.say(
                            f"({n}/{total}) rep {rep + 1}/{opts.repeat} {codec} {config.name} ({fmt})"
                        )
                        self.run_process(config, fmt, codec, rep)
            # free the main workload's arrays before the validate rows make their own
            self.data = self.expected = None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        limits = physical.summarize(limit_runs, opts.codecs) if limit_runs else None
        results = [self.aggregate(key, runs, limits) for key, runs in self.runs.items()]
        order = {name: i for i, name in enumerate(self.impls)}
        results.sort(
            key=lambda r: (
                opts.codecs.index(r["codec"]),
                opts.stores.index(r["store"]),
                opts.operations.index(r["operation"]),
                order.get(r["impl"], 99),
            )
        )
        rankings = stats.rankings(results)
        attach_ranks(results, rankings)
        if opts.validate_size_mib:
            from .validate_rows import ValidateRows

            validate_rows = ValidateRows(self, chosen, results).run()
        self.sample_load("end")
        bad = [r for r in results if gating(r)]
        bad += [
            r for r in validate_rows.get("rows", []) if r["status"] in ("wrong-data", "errored")
        ]
        return {
            "schema": SCHEMA,
            "created": started.isoformat(timespec="seconds"),
            "duration_s": round(time.monotonic() - self.t0, 1),
            "ok": not bad,
            "options": {
                "size_mib": opts.size_mib,
                "repeat": opts.repeat,
                "repeat_for": opts.repeat_for,
                "codecs": opts.codecs,
                "stores": opts.stores,
                "operations": opts.operations,
                "exclude": opts.exclude,
                "warmup": opts.warmup,
                "timeout_s": opts.timeout,
                "validate_size_mib": opts.validate_size_mib,
                "workload_budget_s": opts.workload_budget_s,
                "min_repeat": MIN_REPEAT,
            },
            "workload": {
                **geometry.as_json(),
                "codecs": {
                    c: {
                        "label": CODEC_LABELS[c],
                        "v3": array_document("v3", c, geometry)["codecs"],
                        **(
                            {"v2": array_document("v2", c, geometry)["compressor"]}
                            if not not_applicable("v2", c)
                            else {}
                        ),
                    }
                    for c in opts.codecs
                },
                "operations": {o: OPERATION_LABELS[o] for o in opts.operations},
                "stores": {s: STORE_LABELS[s] for s in opts.stores},
                "units": "MB/s = 10^6 bytes of array data (decoded) per second",
                "timing": "the adapter times the operation alone in a fresh process per repetition, after an "
                "untimed warm-up: wall time with perf_counter (JS: performance.now()), CPU time as user + "
                "system of its process (every thread) and of the children it waited for (getrusage; JS: "
                "process.cpuUsage()); metadata creation, opening, loading input and saving output are not timed",
                "statistics": f"median over the repetitions with the order-statistic confidence interval of "
                f"the median (distribution-free: [x(k), x(n+1-k)], the narrowest reaching {stats.LEVEL:.0%}, "
                f"else [min, max] with the confidence it has: ci_level); figures whose intervals overlap are "
                f"within noise of each other and not ranked against each other",
            },
            "machine": {
                **machine_facts(),
                "filesystem": filesystem_of(opts.scratch or Path(tempfile.gettempdir())),
                # Above the core count, other processes competed for the CPU during the run.
                "load_average_1min": [s.get("load_1min") for s in self.loads],
                "load": self.loads,
            },
            "limits": limits,
            "implementations": self.impls,
            "results": results,
            "rankings": rankings,
            "validate": validate_rows,
        }

    def expected_read(self, operation: str) -> np.ndarray:
        regions = self.geometry.regions(operation)
        if regions is None:
            return self.data
        return np.stack([self.data[tuple(slice(a, b) for a, b in region)] for region in regions])

    def write_canonical(self, formats: list[str]) -> dict:
        """The stores every implementation reads: written once by the reference (untimed)."""
        out = {}
        for fmt in formats:
            for codec in self.options.codecs:
                if not_applicable(fmt, codec):
                    continue
                path = self.scratch / "canonical" / f"{fmt}-{codec}"
                self.say(f"canonical store {fmt} {codec} (written by the reference, untimed)")
                write_reference_store(
                    path, fmt, array_document(fmt, codec, self.geometry), self.data
                )
                out[(fmt, codec)] = path
                for operation in ("read-random", "read-chunk"):
                    if operation in self.options.operations:
                        out[(fmt, codec, operation)] = self.partial_copy(path, fmt, operation)
        return out

    def partial_copy(self, path: Path, fmt: str, operation: str) -> Path:
        """The canonical store reduced to its metadata and the chunks (shards) that `operation`
        reads, hard-linked: what a memory store is filled with before a partial read, so that
        filling it (untimed) does not cost a copy of the whole array. A chunk missing there
        would read as fill value and be caught as wrong data."""
        from conformance.reference import DirectoryStore, get_format

        target = path.with_name(f"{path.name}-{operation}")
        store = DirectoryStore(path, read_only=True)
        try:
            array = get_format(fmt).open_node(store, "")
            keys = {
                array.chunk_key(tuple(start // c for (start, _), c in zip(region, array.chunks)))
                for region in self.geometry.regions(operation)
            }
        finally:
            store.close()
        keys |= {p.name for p in path.iterdir() if p.is_file()}  # zarr.json / .zarray / .zattrs
        for key in sorted(keys):
            source, dest = path / key, target / key
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source, dest)
            except OSError:
                shutil.copyfile(source, dest)
        return target

    def write_warmup_inputs(self) -> dict:
        out = {}
        for codec in self.options.codecs:
            geometry = self.geometry.warmup(codec)
            path = self.scratch / f"warm-{geometry.shape[0]}x{geometry.shape[1]}.npy"
            if not path.exists():
                np.save(path, self.data[: geometry.shape[0], : geometry.shape[1]])
            out[codec] = (geometry, path)
        return out

    # -- one adapter process --
    def run_process(self, config, fmt: str, codec: str, rep: int) -> None:
        from conformance.harness.client import AdapterClient, make_transport
        from conformance.harness.transport import DEFAULT_MEMORY_LIMIT, AdapterErrored

        name, opts = config.name, self.options
        pending = []
        for store in opts.stores:
            for operation in opts.operations:
                key = (name, codec, store, operation)
                if self.settled(key):
                    continue
                how, why = plan(config, fmt, codec, operation)
                pattern = self.excluded(name, codec, store, operation)
                if how == "not-applicable":
                    self.record(key, {"status": "not-applicable", "reason": why})
                elif pattern:
                    self.record(
                        key,
                        {
                            "status": "skipped",
                            "reason": f"excluded by --exclude {pattern} (time budget)",
                        },
                    )
                elif how == "probe" and rep > 0 and not self.runs.get(key):
                    continue  # a probe is made in the first repetition only
                else:
                    pending.append((store, operation, why if how == "probe" else ""))
        if not pending:
            self.say("    nothing to run: every workload is settled")
            return
        memory_limit = max(DEFAULT_MEMORY_LIMIT, 12 * self.geometry.nbytes)
        try:
            transport = make_transport(config, memory_limit=memory_limit)
        except (
            Exception
        ) as exc:  # its environment cannot be made: this adapter errors, the run goes on
            for store, operation, _ in pending:
                self.record(
                    (name, codec, store, operation),
                    {
                        "status": "errored",
                        "reason": f"cannot start the adapter: {type(exc).__name__}: {exc}",
                    },
                )
            self.say(f"    errored: cannot start the adapter: {type(exc).__name__}: {exc}")
            return
        client = AdapterClient(config, transport, timeout=opts.timeout)
        try:
            try:
                description = client.describe()
            except AdapterErrored as exc:
                for store, operation, _ in pending:
                    self.record(
                        (name, codec, store, operation),
                        {"status": "errored", "reason": f"describe: {exc}"},
                    )
                self.say(f"    errored: {exc}")
                return
            info = self.impls[name]
            info.setdefault("version", description.version)
            info.setdefault("versions", description.versions)
            if opts.warmup:
                self.warm_up(client, config, fmt, codec)
            for store, operation, probe in pending:
                load = load_sample()
                run = self.measure(client, config, fmt, codec, store, operation, bool(probe))
                run["load_1min"] = load.get("load_1min")
                if probe:
                    run["probe"] = probe
                self.record((name, codec, store, operation), run)
                if run.get("settings"):
                    info.setdefault("settings", {}).setdefault(store, run["settings"])
                self.say(
                    "    " + describe_run(store, operation, run, self.geometry.bytes_of(operation))
                )
        finally:
            # shutdown, then kill after 2 s (a node child may linger on its open stdin; nothing is
            # timed any more, so waiting the transport's default 5 s would only cost wall time)
            close = client.transport.close
            try:
                close(timeout=2.0)
            except TypeError:  # an in-process transport
                close()

    def warm_up(self, client, config, fmt: str, codec: str) -> None:
        """A small write and read, untimed and unchecked: imports, thread pools, JIT."""
        from conformance.harness.transport import AdapterErrored

        geometry, path = self.warm[codec]
        target, source = self.scratch / "warm-store", self.scratch / "warm-source"
        document = array_document(fmt, codec, geometry)
        target.mkdir(exist_ok=True)
        try:
            if "op:write" in config.capabilities:
                client.call(
                    "bench",
                    operation="write",
                    store={"kind": "directory", "location": str(target)},
                    data=str(path),
                    format=fmt,
                    path=write_node(config),
                    metadata=document,
                )
            if "op:read" in config.capabilities:
                write_reference_store(source, fmt, document, np.load(path), check=False)
                client.call(
                    "bench",
                    operation="read",
                    store={"kind": "directory", "location": str(source)},
                    regions=[geometry.chunk_region((0, 0))],
                    output=str(self.scratch / "warm-out.npy"),
                    format=fmt,
                    path="",
                    metadata=document,
                )
        except AdapterErrored:
            pass  # the measured operations will say what is wrong
        finally:
            shutil.rmtree(target, ignore_errors=True)
            shutil.rmtree(source, ignore_errors=True)
            (self.scratch / "warm-out.npy").unlink(missing_ok=True)

    def measure(
        self, client, config, fmt: str, codec: str, store: str, operation: str, probe: bool = False
    ) -> dict:
        from conformance.harness.transport import AdapterErrored

        document = array_document(fmt, codec, self.geometry)
        written = self.scratch / "written"
        output = self.scratch / "out.npy"
        shutil.rmtree(written, ignore_errors=True)
        output.unlink(missing_ok=True)
        if operation == "write" and store == "directory":
            written.mkdir()  # a write request gets an empty directory (adapters/README.md)
        source = self.canonical.get((fmt, codec))
        if store == "memory":  # a memory store is filled with the keys the operation reads only
            source = self.canonical.get((fmt, codec, operation), source)
        node = write_node(config) if operation == "write" else ""
        request = bench_request(
            self.geometry,
            fmt,
            codec,
            store,
            operation,
            data=self.input,
            source=source,
            written=written,
            output=output,
            node=node,
        )
        try:
            response = client.call("bench", **request)
        except AdapterErrored as exc:
            if "unknown or unimplemented op" in str(exc):
                return {
                    "status": "not-measured",
                    "reason": "the adapter implements no bench operation",
                }
            return {"status": "errored", "reason": str(exc)[:2000]}
        try:
            if not response.ok:
                status, reason = classify_error(config, response.body, probe)
                return {"status": status, "reason": reason[:2000]}
            run = timing_of(response.body)
            if operation == "write":
                exact, message, stored = check_written(written, fmt, document, self.data, node)
                run["stored_bytes"] = stored
            else:
                exact, message = check_read(response.body.get("data"), self.expected[operation])
            run["status"] = "ok" if exact else "wrong-data"
            if not exact:
                run["reason"] = message
            return run
        finally:
            shutil.rmtree(written, ignore_errors=True)
            output.unlink(missing_ok=True)
            if operation == "write":
                os.sync()  # the written pages' writeback must not run during the next timing

    # -- figures --
    def aggregate(self, key: tuple, runs: list[dict], limits: dict | None) -> dict:
        name, codec, store, operation = key
        nbytes = self.geometry.bytes_of(operation)
        entry = {
            "impl": name,
            "codec": codec,
            "store": store,
            "operation": operation,
            "format": self.impls.get(name, {}).get("format"),
            "bytes": nbytes,
        }
        probe = next((r["probe"] for r in runs if r.get("probe")), None)
        if probe:
            entry["undeclared"] = probe
        statuses = [r["status"] for r in runs]
        for status in ("wrong-data", "errored"):
            if status in statuses:
                bad = next(r for r in runs if r["status"] == status)
                return {
                    **entry,
                    "status": status,
                    "reason": bad.get("reason", ""),
                    "runs": len(runs),
                    "failed_runs": statuses.count(status),
                }
        ok = [r for r in runs if r["status"] == "ok"]
        if not ok:
            return {**entry, "status": statuses[0], "reason": runs[0].get("reason", "")}
        entry.update(figures(ok, nbytes))
        entry["settings"] = ok[0].get("settings", {})
        if operation == "write":
            stored = sorted(r["stored_bytes"] for r in ok)
            entry["stored_bytes"] = stored[len(stored) // 2]
            entry["compression_ratio"] = (
                self.geometry.nbytes / entry["stored_bytes"] if entry["stored_bytes"] else None
            )
        if limits is not None:
            limit, basis = physical.limit_mb_s(limits, codec, store, operation)
            rate = entry["mb_s"]
            entry.update(
                limit_mb_s=limit,
                limit_basis=basis,
                ratio_to_limit={
                    **{k: rate[k] / limit for k in ("min", "median", "max")},
                    "ci": [v / limit for v in rate["ci"]],
                },
            )
        return entry


def timing_of(body: dict) -> dict:
    """Wall and CPU seconds of a bench response (cpu None when the adapter reports none)."""
    run: dict = {"seconds": float(body["seconds"]), "settings": body.get("settings") or {}}
    cpu = body.get("cpu")
    if cpu is not None:
        run["cpu"] = {"user": float(cpu["user"]), "system": float(cpu["system"])}
        run["cpu_s"] = run["cpu"]["user"] + run["cpu"]["system"]
    return run


def figures(ok: list[dict], nbytes: int) -> dict:
    """The figures of a workload's exact runs: wall and CPU, medians with intervals."""
    seconds = [r["seconds"] for r in ok]
    out: dict = {
        "status": "ok",
        "runs": len(ok),
        "runs_s": seconds,
        "seconds": stats.summary(seconds),
        "mb_s": stats.summary([nbytes / s / MB for s in seconds]),
        "load_1min": [r.get("load_1min") for r in ok],
    }
    cpu = [r["cpu_s"] for r in ok if "cpu_s" in r]
    if len(cpu) == len(ok):
        out["cpu_runs_s"] = cpu
        out["cpu_s"] = stats.summary(cpu)
        out["cpu_user_s"] = stats.median([r["cpu"]["user"] for r in ok])
        out["cpu_system_s"] = stats.median([r["cpu"]["system"] for r in ok])
        # a CPU time of 0 (below the clock's resolution) says nothing about a rate
        if all(c > 0 for c in cpu):
            out["mb_per_cpu_s"] = stats.summary([nbytes / c / MB for c in cpu])
        out["cores_used"] = stats.median([c / s for c, s in zip(cpu, seconds)])
    return out


def attach_ranks(results: list[dict], rankings: list[dict]) -> None:
    """Each measured entry's place in its cell, per metric, and whom it is within noise of."""
    places = {}
    for ranking in rankings:
        for item in ranking["order"]:
            key = (item["impl"], ranking["codec"], ranking["store"], ranking["operation"])
            places.setdefault(key, {})[ranking["metric"]] = item
    for entry in results:
        found = places.get((entry["impl"], entry["codec"], entry["store"], entry["operation"]))
        if found:
            entry["rank"] = {metric: item["rank"] for metric, item in found.items()}
            entry["within_noise_of"] = {
                metric: item["within_noise_of"] for metric, item in found.items()
            }


def gating(entry: dict) -> bool:
    """Whether an entry fails the run: wrong data or an error, except in a probe of a capability
    the adapter does not declare (as in the matrix, a probe informs and never gates)."""
    return entry["status"] in ("wrong-data", "errored") and not entry.get("undeclared")


def write_reference_store(
    path: Path, fmt: str, document: dict, data: np.ndarray, check: bool = True
) -> None:
    """An array written by the reference (and read back exactly, unless check is False)."""
    from conformance.reference import DirectoryStore, get_format

    store = DirectoryStore(path)
    get_format(fmt).create_array(store, "", document, {}).write(None, data)
    store.close()
    if check:
        exact, message, _ = check_written(path, fmt, document, data)
        if not exact:
            raise RuntimeError(f"the reference wrote a wrong store at {path}: {message}")


def bench_request(
    geometry: Geometry,
    fmt: str,
    codec: str,
    store: str,
    operation: str,
    *,
    data: Path,
    source: Path | None,
    written: Path,
    output: Path,
    node: str = "",
) -> dict:
    """The `bench` request of one workload (without id and op; see schemas/request.json). Writes
    go to `written` (a directory, or the dump of a memory store) at `node`, reads read `source`
    (the canonical store: directly, or loaded into a memory store) and save to `output`."""
    request = {"format": fmt, "path": "", "metadata": array_document(fmt, codec, geometry)}
    if operation == "write":
        request.update(operation="write", data=str(data), path=node)
        if store == "directory":
            request["store"] = {"kind": "directory", "location": str(written)}
        else:
            request.update(store={"kind": "memory", "location": "bench"}, dump=str(written))
    else:
        request.update(operation="read", regions=geometry.regions(operation), output=str(output))
        if store == "directory":
            request["store"] = {"kind": "directory", "location": str(source)}
        else:
            request.update(store={"kind": "memory", "location": "bench"}, source=str(source))
    return request


def describe_run(store: str, operation: str, run: dict, nbytes: int) -> str:
    head = f"{store:9} {operation:11}"
    if run["status"] == "ok":
        extra = f"  stored {run['stored_bytes'] / MB:.1f} MB" if "stored_bytes" in run else ""
        cpu = f"  cpu {run['cpu_s']:.4f} s" if "cpu_s" in run else "  (no cpu time)"
        return f"{head} {run['seconds']:8.4f} s {nbytes / run['seconds'] / MB:9.1f} MB/s{cpu}  exact{extra}"
    reason = run.get("reason", "")
    probe = f" (probe: {run['probe']} undeclared)" if run.get("probe") else ""
    return f"{head} {run['status'].upper()}{probe}: {reason if len(reason) < 200 else reason[:197] + '...'}"


def filesystem_of(path: Path) -> dict:
    """The mount (device, type) holding `path`, from /proc/mounts."""
    path = Path(path).resolve()
    best = {"mount": "?", "type": "?", "device": "?"}
    try:
        with open("/proc/mounts") as f:
            mounts = [line.split()[:3] for line in f]
    except OSError:
        return best
    length = -1
    for device, mount, fstype in mounts:
        if (path == Path(mount) or Path(mount) in path.parents) and len(mount) > length:
            best, length = {"mount": mount, "type": fstype, "device": device}, len(mount)
    return best


def write_json(report: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, default=_json_default) + "\n", "utf-8")


def _json_default(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON: {type(value).__name__}")
