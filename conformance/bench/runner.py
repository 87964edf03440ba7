"""The benchmark run: every implementation through its adapter's `bench` operation, each
repetition in a fresh adapter process, interleaved across implementations, every read and every
write checked bit for bit, beside the physical limits measured in the same run.

One adapter process serves one (repetition, codec, implementation): an untimed warm-up (a small
array written and read once, so that lazy imports, thread pools and the JIT are not timed), then
each (store, operation). Reads of the directory store read a canonical store written once by
the reference (every implementation reads the same bytes); reads of the in-memory store fill the
implementation's own memory store from those files first (untimed; for the partial reads only with
the metadata and the chunks or shards they read). Writes go to a fresh
directory (or memory store, copied out afterwards, untimed) and are read back by the reference:
a write that does not read back exactly, or that stored other codecs than asked for, is
`wrong-data`, never a speed. So is a read whose output is not bit-identical.
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
from .machine import machine_facts
from .workloads import (
    CODEC_LABELS,
    CODECS,
    OPERATION_LABELS,
    OPERATIONS,
    STORE_LABELS,
    STORES,
    Geometry,
    array_document,
    make_data,
    not_applicable,
)

SCHEMA = "zarr-conformance-bench/1"
MB = 1e6


@dataclass
class Options:
    size_mib: int = 256
    repeat: int = 3
    impls: list[str] | None = None  # None: every adapter that can write and read
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
    """(chosen [(config, format)], not applicable {name: reason}). Default: every adapter; those
    that cannot both write and read arrays are recorded as not applicable, with the reason."""
    from conformance.harness.config import all_adapters, find_adapter

    configs = [find_adapter(n) for n in names] if names else all_adapters(strict=False)
    chosen, skipped = [], {}
    for config in configs:
        if not names and not getattr(config, "default", True):
            skipped[config.name] = (
                "not in the default set (adapter.toml default = false); name it with --impl"
            )
            continue
        caps = config.capabilities
        missing = [c for c in ("op:read", "op:write") if c not in caps]
        fmt = "v3" if "format:v3" in caps else "v2" if "format:v2" in caps else None
        if missing:
            skipped[config.name] = (
                f"does not write and read arrays (adapter.toml lacks {', '.join(missing)})"
            )
        elif fmt is None:
            skipped[config.name] = "implements neither format v3 nor v2"
        else:
            chosen.append((config, fmt))
    chosen.sort(key=lambda cf: (cf[0].name != "reference", cf[0].name))
    return chosen, skipped


def classify_error(config, body: dict) -> tuple[str, str]:
    """An error response: `not-applicable` when adapter.toml declares it a refusal (category
    unsupported, with its reason), else `errored`."""
    error = body.get("error") or {}
    said = f"{error.get('type')}: {error.get('message')}"
    for rule in config.errors:
        if rule.matches(error):
            if rule.category == "unsupported":
                return "not-applicable", f"{rule.reason or 'declared unsupported'} ({said})"
            break
    return "errored", said


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


def check_written(path: Path, fmt: str, document: dict, data: np.ndarray) -> tuple[bool, str, int]:
    """(exact, message, stored bytes) of what an implementation wrote: read back by the
    reference, bit for bit, with the codecs that were asked for."""
    from conformance.reference import DirectoryStore, get_format

    stored = sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else 0
    store = DirectoryStore(path, read_only=True)
    try:
        array = get_format(fmt).open_node(store, "")
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

    # -- bookkeeping --
    def record(self, key: tuple, run: dict) -> None:
        self.runs.setdefault(key, []).append(run)

    def excluded(self, name: str, codec: str, store: str, operation: str) -> str | None:
        path = f"{name}/{codec}/{store}/{operation}"
        for pattern in self.options.exclude:
            if fnmatch.fnmatchcase(path, pattern):
                return pattern
        return None

    def repeats(self, name: str) -> int:
        return min(self.options.repeat, self.options.repeat_for.get(name, self.options.repeat))

    # -- main --
    def run(self) -> dict:
        opts, geometry = self.options, self.geometry
        started = datetime.now(UTC)
        t0 = time.monotonic()
        self.load = [_loadavg()]
        chosen, skipped = select_adapters(opts.impls)
        for name, reason in skipped.items():
            self.impls[name] = {"status": "not-applicable", "reason": reason}
        for config, fmt in chosen:
            self.impls[config.name] = {
                "status": "ok",
                "format": fmt,
                "description": config.description,
                "repetitions": self.repeats(config.name),
            }
        self.say(
            f"bench: float32 {geometry.shape[0]} x {geometry.shape[1]} ({geometry.nbytes / 2**20:.0f} MiB) in "
            f"{geometry.chunk_shape[0]} x {geometry.chunk_shape[1]} chunks (1 MiB), shards "
            f"{geometry.shard_shape[0]} x {geometry.shard_shape[1]}; {len(chosen)} implementations "
            f"({', '.join(c.name for c, _ in chosen)}), {opts.repeat} repetitions, codecs {', '.join(opts.codecs)}, "
            f"stores {', '.join(opts.stores)}"
        )
        scratch = Path(tempfile.mkdtemp(prefix="zarr-bench-", dir=opts.scratch))
        limit_runs = []
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
                self.load.append(_loadavg())
                self.say(
                    f"rep {rep + 1}/{opts.repeat}: physical limits (memcpy, file write/read, single-thread codecs); "
                    f"load average {self.load[-1]}"
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
                        self.run_process(config, fmt, codec)
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
        bad = [r for r in results if r["status"] in ("wrong-data", "errored")]
        return {
            "schema": SCHEMA,
            "created": started.isoformat(timespec="seconds"),
            "duration_s": round(time.monotonic() - t0, 1),
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
                "timing": "the adapter times the operation alone (perf_counter; JS performance.now()) in a "
                "fresh process per repetition, after an untimed warm-up; metadata creation, "
                "opening, loading input and saving output are not timed",
            },
            "machine": {
                **machine_facts(),
                "filesystem": filesystem_of(opts.scratch or Path(tempfile.gettempdir())),
                # 1-minute load averages: at the start, at each repetition, at the end. Above
                # the core count, other processes competed for the CPU during the run.
                "load_average_1min": [*self.load, _loadavg()],
            },
            "limits": limits,
            "implementations": self.impls,
            "results": results,
        }

    def expected_read(self, operation: str) -> np.ndarray:
        regions = self.geometry.regions(operation)
        if regions is None:
            return self.data
        return np.stack([self.data[tuple(slice(a, b) for a, b in region)] for region in regions])

    def write_canonical(self, formats: list[str]) -> dict:
        """The stores every implementation reads: written once by the reference (untimed)."""
        from conformance.reference import DirectoryStore, get_format

        out = {}
        for fmt in formats:
            for codec in self.options.codecs:
                if not_applicable(fmt, codec):
                    continue
                path = self.scratch / "canonical" / f"{fmt}-{codec}"
                self.say(f"canonical store {fmt} {codec} (written by the reference, untimed)")
                store = DirectoryStore(path)
                document = array_document(fmt, codec, self.geometry)
                get_format(fmt).create_array(store, "", document, {}).write(None, self.data)
                store.close()
                exact, message, _ = check_written(path, fmt, document, self.data)
                if not exact:
                    raise RuntimeError(
                        f"the reference wrote a wrong canonical store ({fmt} {codec}): {message}"
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
    def run_process(self, config, fmt: str, codec: str) -> None:
        from conformance.harness.client import AdapterClient, make_transport
        from conformance.harness.transport import DEFAULT_MEMORY_LIMIT, AdapterErrored

        name, opts = config.name, self.options
        workloads = [(s, o) for s in opts.stores for o in opts.operations]
        reason = not_applicable(fmt, codec)
        pending = []
        for store, operation in workloads:
            key = (name, codec, store, operation)
            pattern = self.excluded(name, codec, store, operation)
            if reason:
                self.record(
                    key,
                    {"status": "not-applicable", "reason": f"{reason} ({name} runs format {fmt})"},
                )
            elif pattern:
                self.record(
                    key,
                    {
                        "status": "skipped",
                        "reason": f"excluded by --exclude {pattern} (time budget)",
                    },
                )
            else:
                pending.append((store, operation))
        if not pending:
            self.say(f"    not run: {reason or 'every workload excluded'}")
            return
        memory_limit = max(DEFAULT_MEMORY_LIMIT, 12 * self.geometry.nbytes)
        try:
            transport = make_transport(config, memory_limit=memory_limit)
        except (
            Exception
        ) as exc:  # its environment cannot be made: this adapter errors, the run goes on
            for store, operation in pending:
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
                for store, operation in pending:
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
                self.warm_up(client, fmt, codec)
            for store, operation in pending:
                run = self.measure(client, config, fmt, codec, store, operation)
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

    def warm_up(self, client, fmt: str, codec: str) -> None:
        """A small write and read, untimed and unchecked: imports, thread pools, JIT."""
        from conformance.harness.transport import AdapterErrored

        geometry, path = self.warm[codec]
        target = self.scratch / "warm-store"
        shutil.rmtree(target, ignore_errors=True)
        document = array_document(fmt, codec, geometry)
        base = {"format": fmt, "path": "", "metadata": document}
        try:
            written = client.call(
                "bench",
                operation="write",
                store={"kind": "directory", "location": str(target)},
                data=str(path),
                **base,
            )
            if written.ok:
                client.call(
                    "bench",
                    operation="read",
                    store={"kind": "directory", "location": str(target)},
                    regions=[geometry.chunk_region((0, 0))],
                    output=str(self.scratch / "warm-out.npy"),
                    **base,
                )
        except AdapterErrored:
            pass  # the measured operations will say what is wrong
        finally:
            shutil.rmtree(target, ignore_errors=True)
            (self.scratch / "warm-out.npy").unlink(missing_ok=True)

    def measure(self, client, config, fmt: str, codec: str, store: str, operation: str) -> dict:
        from conformance.harness.schemas import problems
        from conformance.harness.transport import AdapterErrored

        document = array_document(fmt, codec, self.geometry)
        written = self.scratch / "written"
        output = self.scratch / "out.npy"
        shutil.rmtree(written, ignore_errors=True)
        output.unlink(missing_ok=True)
        source = self.canonical.get((fmt, codec))
        if store == "memory":  # a memory store is filled with the keys the operation reads only
            source = self.canonical.get((fmt, codec, operation), source)
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
        )
        try:
            response = client.call("bench", **request)
        except AdapterErrored as exc:
            if "unknown or unimplemented op" in str(exc):
                return {
                    "status": "not-applicable",
                    "reason": "the adapter implements no bench operation",
                }
            return {"status": "errored", "reason": str(exc)[:2000]}
        try:
            if not response.ok:
                status, reason = classify_error(config, response.body)
                return {"status": status, "reason": reason[:2000]}
            found = problems("response-bench", response.body)
            if found:
                return {
                    "status": "errored",
                    "reason": "malformed bench response: " + "; ".join(found[:3]),
                }
            run = {
                "seconds": float(response.body["seconds"]),
                "settings": response.body.get("settings") or {},
            }
            if operation == "write":
                exact, message, stored = check_written(written, fmt, document, self.data)
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
        seconds = sorted(r["seconds"] for r in ok)
        rates = sorted(nbytes / s / MB for s in seconds)
        entry.update(
            status="ok",
            runs=len(ok),
            runs_s=[r["seconds"] for r in ok],
            seconds={"min": seconds[0], "median": float(np.median(seconds)), "max": seconds[-1]},
            mb_s={"min": rates[0], "median": float(np.median(rates)), "max": rates[-1]},
            settings=ok[0].get("settings", {}),
        )
        if operation == "write":
            stored = sorted(r["stored_bytes"] for r in ok)
            entry["stored_bytes"] = stored[len(stored) // 2]
            entry["compression_ratio"] = (
                self.geometry.nbytes / entry["stored_bytes"] if entry["stored_bytes"] else None
            )
        if limits is not None:
            limit, basis = physical.limit_mb_s(limits, codec, store, operation)
            entry.update(
                limit_mb_s=limit,
                limit_basis=basis,
                ratio_to_limit={k: v / limit for k, v in entry["mb_s"].items()},
            )
        return entry


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
) -> dict:
    """The `bench` request of one workload (without id and op; see schemas/request.json). Writes
    go to `written` (a directory, or the dump of a memory store), reads read `source` (the
    canonical store: directly, or loaded into a memory store) and save to `output`."""
    request = {"format": fmt, "path": "", "metadata": array_document(fmt, codec, geometry)}
    if operation == "write":
        request.update(operation="write", data=str(data))
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
        return (
            f"{head} {run['seconds']:8.4f} s {nbytes / run['seconds'] / MB:9.1f} MB/s  exact{extra}"
        )
    reason = run.get("reason", "")
    return (
        f"{head} {run['status'].upper()}: {reason if len(reason) < 200 else reason[:197] + '...'}"
    )


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


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
