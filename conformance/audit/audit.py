"""Re-running a stratified sample of non-pass verdicts through their reproducers
(`zarr-conformance audit`).

Each sampled record's script (reproduce.py) runs in the implementation's environment (the
adapter's venv, its adapter.toml `python`, or node with its npm folder), isolated as adapters are
(conformance/harness/isolation.py: the whole process tree held, a memory cap, a timeout). What the
script printed is a behaviour, which the audit then completes:

- an exception the script reports is judged by the adapter's [[errors]] rules
  (conformance/harness/refusals.py): a crash type is `crashed`, a declared unsupported one
  `unsupported`, any other `refused`; a script killed (signal, timeout, memory cap) is `crashed`;
- a written store is judged by the reference: a write case by judge_write, the writer of a pair
  test by reading its node back (data bit for bit, attributes), as the pair test does.

The record's outcome says which behaviours reproduce it (`expected_behaviours`): wrong-data
needs values that differ, type-changed exact values in another type, lenient an accepted store,
declined a refusal, errored a crash, a failed or known-failure record the failure its message
describes (a refusal, an acceptance, another mismatch; a crash for a `crashes` entry; and for a
stale entry, `known failure now passes`, a pass)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.harness.config import AdapterConfig
from conformance.model import STALE_ENTRY, Outcome, Record

from .check import MARK
from .reproduce import NotReproducible, Target, not_reproducible, script_text, target_of

DEFAULT_TIMEOUT = 120.0
DEFAULT_MEMORY = 4 << 30
BEHAVIOURS = (
    "passed",
    "wrong-data",
    "type-changed",
    "mismatch",
    "refused",
    "accepted",
    "unsupported",
    "crashed",
)

# ---- what a record says happened -----------------------------------------------------------------


def expected_behaviours(record: Record, config: AdapterConfig | None = None) -> frozenset[str]:
    """The behaviours of the implementation that reproduce a record's outcome."""
    outcome, message = record.outcome, (record.message or "").lstrip()
    simple = {
        Outcome.PASSED: {"passed"},
        Outcome.WRONG_DATA: {"wrong-data"},
        Outcome.TYPE_CHANGED: {"type-changed"},
        Outcome.LENIENT: {"accepted"},
        Outcome.DECLINED: {"refused"},
        Outcome.UNSUPPORTED: {"refused", "unsupported"},
        Outcome.ERRORED: {"crashed"},
    }
    if outcome in simple:
        return frozenset(simple[outcome])
    if message.startswith(STALE_ENTRY):
        return frozenset({"passed"})
    if outcome is Outcome.KNOWN_FAILURE and config is not None and record.known_failure:
        entry = next((e for e in config.known_failures if e.id == record.known_failure.id), None)
        if entry is not None and entry.crashes and _crash_message(message):
            return frozenset({"crashed"})
    if message.startswith("accepted"):
        return frozenset({"accepted"})
    if message.startswith(("could not read", "could not write", "refused")) or (
        " could not read what " in message or " could not write: " in message
    ):
        return frozenset({"refused"})
    return frozenset({"mismatch"})


def _crash_message(message: str) -> bool:
    return any(
        word in message
        for word in ("crash", "hang:", "out of memory", "killed by", "malformed response")
    )


# ---- running one script --------------------------------------------------------------------------


@dataclass
class Run:
    """What one script run showed."""

    behaviour: str  # one of BEHAVIOURS, or "broken": the script failed before answering
    detail: str = ""
    error: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    output: str = ""


def interpreter(config: AdapterConfig) -> list[str]:
    """The command that runs a script in the implementation's environment."""
    from conformance.harness.envs import adapter_python, ensure_npm

    if config.transport == "command":
        if config.npm:
            ensure_npm(config)
        return ["node"]
    if not config.requirements and config.python is None:
        return [sys.executable]  # the reference: this environment, where it is installed
    return [str(adapter_python(config))]


def prepare(config: AdapterConfig, folder: Path, text: str, language: str) -> Path:
    """The script in `folder`; a JS script gets the adapter's node_modules beside it (ESM finds
    bare imports from the importing file's folder)."""
    script = folder / f"reproduce.{language}"
    script.write_text(text, "utf-8")
    if language == "mjs" and config.npm:
        from conformance.harness.envs import npm_dir

        link = folder / "node_modules"
        if not link.exists():
            link.symlink_to(npm_dir(config) / "node_modules", target_is_directory=True)
    return script


def run_isolated(
    argv: list[str], cwd: Path, timeout: float, memory: int | None
) -> tuple[int | None, str, str]:
    """(exit status or None when killed, stdout, why it was killed or stderr's tail): the process
    tree held as adapters are (a memory cap on the whole tree, everything killed at the end)."""
    from conformance.harness.isolation import (
        TOKEN_VARIABLE,
        ProcessTree,
        Watchdog,
        become_subreaper,
        new_token,
        size_text,
    )
    from conformance.harness.transport import _child_setup

    become_subreaper()
    token = new_token()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the script stands alone
    env[TOKEN_VARIABLE] = token
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=_child_setup(memory),
        )
        tree = ProcessTree(proc.pid, token)
        watchdog = Watchdog(tree, memory)
        watchdog.start()
        killed = ""
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            killed = f"hang: no answer within {timeout:g} s (killed)"
        finally:
            watchdog.stop()
            tree.kill()
            proc.wait()
        if watchdog.exceeded is not None:
            used, count = watchdog.exceeded
            killed = (
                f"out of memory: cap {size_text(memory or 0)} exceeded by {count} process(es) "
                f"using {size_text(used)} (killed)"
            )
        out.seek(0)
        err.seek(0)
        stdout = out.read(1 << 22).decode("utf-8", "replace")
        stderr = err.read()[-4000:].decode("utf-8", "replace")
    code = None if killed else proc.returncode
    if code is not None and code < 0:
        killed = f"killed by signal {-code}"
        code = None
    return code, stdout, killed or stderr


def parse_output(code: int | None, stdout: str, tail: str) -> Run:
    """The script's last machine-readable line; a death or a script that never answered."""
    found = None
    for line in stdout.splitlines():
        if line.startswith(MARK):
            found = line[len(MARK) :]
    if code is None:
        return Run("crashed", tail, output=stdout)
    if found is None:
        last = " | ".join(tail.strip().splitlines()[-4:])
        return Run("broken", f"no answer (exit status {code}): {last[-600:]}", output=stdout)
    doc = json.loads(found)
    return Run(
        doc["behaviour"], "", doc.get("error"), list(doc.get("problems") or ()), output=stdout
    )


def classify_error(config: AdapterConfig, run: Run) -> Run:
    """A refusal judged as the harness judges one: crash, declared unsupported, or clean."""
    from conformance.harness.refusals import judge_refusal

    if run.behaviour != "refused" or run.error is None:
        return run
    error = dict(run.error, origin="implementation", reason=None)
    verdict = judge_refusal(config, {"error": error}).verdict
    if verdict == "crash":
        run.behaviour = "crashed"
    elif verdict == "unsupported":
        run.behaviour = "unsupported"
    run.detail = f"{error.get('type')}: {error.get('message', '')}"
    return run


def judge_written(target: Target, store: Path) -> tuple[str, list[str]]:
    """What the reference makes of a written store: the write case's judge, or for a pair test's
    writer, whether the node reads back as the input (data bit for bit, attributes)."""
    from conformance.corpus.jsonstrict import differences
    from conformance.corpus.judge import DataProblem, TypeProblem, compare_arrays, judge_write
    from conformance.reference import get_format, open_store
    from conformance.reference.array import Array
    from conformance.reference.errors import ZarrError

    case = target.source
    assert case is not None
    if not target.pair:
        problems = judge_write(case, store)
    else:
        request = case.write_request()
        problems = []
        try:
            opened = open_store(store)
            try:
                fmt = get_format(case.format)
                node = fmt.open_node(opened, fmt.normalize_path(request.path))
                problems += differences(request.attributes or {}, node.attrs, "attributes")
                if request.data is not None:
                    if isinstance(node, Array):
                        problems += compare_arrays(request.data, node.read(), "data read back")
                    else:
                        problems.append(f"the reference opens a {node.kind}, not the array written")
            finally:
                opened.close()
        except (ZarrError, OSError) as exc:
            problems.append(f"the reference cannot read what was written: {exc}")
    if any(isinstance(p, DataProblem) for p in problems):
        return "wrong-data", problems
    if problems and all(isinstance(p, TypeProblem) for p in problems):
        return "type-changed", problems
    return ("mismatch" if problems else "passed"), problems


def run_target(
    target: Target,
    config_of: Any,
    record: Record | None,
    work: Path,
    timeout: float,
    memory: int | None,
    impl_env: str = "pinned",
) -> Run:
    """Run a target's script (and before it, the script that makes its store, if any)."""
    started = time.monotonic()
    if target.store_from is not None:
        writer, write_case = target.store_from
        from .reproduce import case_value

        maker = Target(writer, "write", case_value(write_case), source=write_case, pair=True)
        made = work / "writer"
        made.mkdir()
        store = work / "store"
        first = _run_one(maker, config_of(writer), None, made, timeout, memory, [str(store)])
        if first.behaviour != "written":
            return Run(
                "broken",
                f"{writer}'s write script did not make the store: {first.behaviour} "
                f"{first.detail}".strip(),
            )
        target.case["store"] = str(store)
    folder = work / "script"
    folder.mkdir()
    args = [str(work / "written")] if target.script == "write" else []
    run = _run_one(target, config_of(target.impl), record, folder, timeout, memory, args, impl_env)
    if run.behaviour == "written":
        run.behaviour, run.problems = judge_written(target, work / "written")
    run.seconds = time.monotonic() - started
    return run


def _run_one(
    target: Target,
    config: AdapterConfig,
    record: Record | None,
    folder: Path,
    timeout: float,
    memory: int | None,
    args: list[str],
    impl_env: str = "pinned",
) -> Run:
    text, language = script_text(target, config, record, impl_env)
    script = prepare(config, folder, text, language)
    code, stdout, tail = run_isolated(
        [*interpreter(config), str(script), *args], folder, timeout, memory
    )
    return classify_error(config, parse_output(code, stdout, tail))


# ---- the sample ----------------------------------------------------------------------------------


def stratum(record: Record) -> tuple[str, str, str]:
    return (record.impl, record.outcome.value, record.test.value)


def draw(records: Iterable[Record], size: int, seed: int) -> list[Record]:
    """A stratified random sample of `size` records, strata adapter x outcome x test kind: each
    stratum gets one record (strata drawn at random, weighted by their size, when there are more
    strata than `size`), the rest is shared in proportion to the strata's sizes (largest
    remainders), each stratum's records drawn at random. The same seed draws the same sample."""
    rng = random.Random(seed)
    strata: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for record in records:
        strata[stratum(record)].append(record)
    keys = sorted(strata)
    total = sum(len(strata[k]) for k in keys)
    if size <= 0 or total == 0:
        return []
    size = min(size, total)
    share: Counter[tuple[str, str, str]] = Counter()
    if size < len(keys):
        pool = list(keys)
        for _ in range(size):
            key = rng.choices(pool, weights=[len(strata[k]) for k in pool])[0]
            pool.remove(key)
            share[key] = 1
    else:
        share.update({k: 1 for k in keys})
        rest = size - len(keys)
        quotas = {k: rest * (len(strata[k]) - 1) / max(total - len(keys), 1) for k in keys}
        for k in keys:
            share[k] += int(quotas[k])
        left = size - sum(share.values())
        for k in sorted(keys, key=lambda k: (-(quotas[k] - int(quotas[k])), k))[:left]:
            share[k] += 1
    sample = []
    for key in keys:
        if share[key]:
            sample += rng.sample(strata[key], min(share[key], len(strata[key])))
    return sample


@dataclass
class Entry:
    record: Record
    expected: frozenset[str]
    run: Run | None = None
    skipped: str = ""  # why the record could not be re-run

    @property
    def reproduced(self) -> bool:
        return self.run is not None and self.run.behaviour in self.expected


@dataclass
class Audit:
    entries: list[Entry]
    excluded: Counter[str]  # why non-pass records were not eligible
    candidates: int
    strata: dict[tuple[str, str, str], int]
    seed: int

    @property
    def reproduced(self) -> int:
        return sum(e.reproduced for e in self.entries)

    @property
    def ok(self) -> bool:
        return all(e.reproduced for e in self.entries)


def eligible(
    records: Iterable[Record],
    impls: Iterable[str] = (),
    tests: Iterable[str] = (),
    store_kinds: Iterable[str] = (),
    passed: bool = False,
) -> tuple[list[Record], Counter[str]]:
    """The non-pass records (with `passed`, all records) a reproducer can show, and why the
    others cannot."""
    wanted, kinds, stores = set(impls), set(tests), set(store_kinds)
    out, excluded = [], Counter[str]()
    for record in records:
        if record.outcome is Outcome.PASSED and not passed:
            continue
        if wanted and record.impl not in wanted:
            continue
        if kinds and record.test.value not in kinds:
            continue
        if stores and record.store.kind.value not in stores:
            continue
        why = not_reproducible(record)
        if why is not None:
            excluded[why] += 1
            continue
        out.append(record)
    return out, excluded


def run_audit(
    records: list[Record],
    root: Path,
    *,
    size: int,
    seed: int,
    impls: Iterable[str] = (),
    tests: Iterable[str] = (),
    store_kinds: Iterable[str] = (),
    timeout: float = DEFAULT_TIMEOUT,
    memory: int | None = DEFAULT_MEMORY,
    impl_env: str = "pinned",
    passed: bool = False,
    progress: Any = None,
) -> Audit:
    from conformance.harness.envs import cache_root
    from conformance.harness.variants import resolve_adapter

    candidates, excluded = eligible(records, impls, tests, store_kinds, passed)
    strata = Counter(stratum(r) for r in candidates)
    sample = draw(candidates, size, seed)
    configs: dict[str, AdapterConfig] = {}

    def config_of(name: str) -> AdapterConfig:
        if name not in configs:
            configs[name] = resolve_adapter(name, impl_env)
        return configs[name]

    entries = []
    scratch = cache_root() / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    for number, record in enumerate(sample, 1):
        config = config_of(record.impl)
        entry = Entry(record, expected_behaviours(record, config))
        work = Path(tempfile.mkdtemp(prefix="audit-", dir=scratch))
        try:
            target = target_of(record, root)
            entry.run = run_target(target, config_of, record, work, timeout, memory, impl_env)
        except NotReproducible as exc:
            entry.skipped = str(exc)
        except Exception as exc:  # an environment that cannot be made, a broken template
            entry.run = Run("broken", f"{type(exc).__name__}: {exc}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        entries.append(entry)
        if progress is not None:
            progress(number, len(sample), entry)
    return Audit(entries, excluded, len(candidates), dict(strata), seed)


# ---- output -------------------------------------------------------------------------------------


def entry_json(entry: Entry) -> dict[str, Any]:
    r, run = entry.record, entry.run
    return {
        "impl": r.impl,
        "test": r.test.value,
        "case": r.case,
        "store": r.store.kind.value,
        "writer": r.writer,
        "reader": r.reader,
        "side": r.side.value if r.side else None,
        "outcome": r.outcome.value,
        "expected": sorted(entry.expected),
        "observed": run.behaviour if run else None,
        "reproduced": entry.reproduced,
        "detail": (run.detail if run else entry.skipped),
        "problems": run.problems[:5] if run else [],
        "seconds": round(run.seconds, 3) if run else None,
    }


def as_json(audit: Audit) -> dict[str, Any]:
    n = len(audit.entries)
    return {
        "seed": audit.seed,
        "sampled": n,
        "reproduced": audit.reproduced,
        "rate": (audit.reproduced / n) if n else None,
        "candidates": audit.candidates,
        "strata": [
            {"impl": k[0], "outcome": k[1], "test": k[2], "records": v}
            for k, v in sorted(audit.strata.items())
        ],
        "excluded": dict(audit.excluded),
        "entries": [entry_json(e) for e in audit.entries],
    }


def table(audit: Audit) -> str:
    rows = [("impl", "test", "case", "store", "recorded", "expected", "observed", "ok")]
    for e in audit.entries:
        r = e.record
        rows.append(
            (
                r.impl,
                r.test.value + (f" ({r.side.value})" if r.is_pair and r.side else ""),
                r.case,
                r.store.kind.value,
                r.outcome.value,
                "|".join(sorted(e.expected)),
                e.run.behaviour if e.run else "skipped",
                "yes" if e.reproduced else "NO",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "-" * len(lines[0]))
    n = len(audit.entries)
    lines.append("")
    strata = len(audit.strata)
    lines.append(
        f"sample: {n} of {audit.candidates} reproducible records, {strata} strata "
        f"(adapter x outcome x test kind), seed {audit.seed}"
    )
    for why, count in sorted(audit.excluded.items()):
        lines.append(f"not eligible: {count} records: {why}")
    rate = f"{audit.reproduced / n:.0%}" if n else "n/a"
    lines.append(f"reproduced as recorded: {audit.reproduced} of {n} ({rate})")
    for e in audit.entries:
        if e.reproduced:
            continue
        r = e.record
        lines.append("")
        lines.append(
            f"MISMATCH {r.impl} {r.test.value} {r.case} [{r.store.kind.value}]: recorded "
            f"{r.outcome.value} (expects {'|'.join(sorted(e.expected))}), reproduced "
            f"{e.run.behaviour if e.run else 'nothing'}"
        )
        lines.append(
            f"  recorded: {(r.message or '').strip().splitlines()[0][:200] if r.message else ''}"
        )
        detail = e.run.detail if e.run else e.skipped
        if detail:
            lines.append(f"  reproduced: {detail.strip()[:400]}")
        for p in (e.run.problems if e.run else [])[:3]:
            lines.append(f"  - {str(p)[:300]}")
        lines.append(
            f"  script: zarr-conformance reproduce RESULTS {r.case} --impl {r.impl} "
            f"--test {r.test.value} --store-kind {r.store.kind.value}"
            + (f" --writer {r.writer} --reader {r.reader}" if r.is_pair else "")
        )
    return "\n".join(lines)
