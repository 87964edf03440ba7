"""`zarr-conformance bench`: throughput of every implementation that can write or read, through
its adapter, beside the physical limits of the machine; `--compare` checks that two runs rank
alike wherever their intervals say anything."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_OUT = Path("reports/bench/bench.json")

DESCRIPTION = """\
Measure how fast every implementation writes and reads, each through its adapter's `bench`
operation (adapters/README.md), on the same data and the same machine, in one run.

workloads
  data        a float32 array of --size MiB (a smooth field plus noise, rounded to 0.01: it
              compresses like measurements, not like zeros) in 1 MiB chunks (512 x 512);
              sharded codecs use 16 MiB shards of 4 x 4 such chunks
  codecs      none, zstd (level 0), gzip (level 1), blosc-zstd (clevel 5, byte shuffle),
              sharded-zstd, sharded-blosc-zstd (crc32c shard index)
  operations  write (the whole array in one call), read (the whole array in one call),
              read-random (1%% of the chunks at random, one call each), read-chunk (one chunk;
              with sharding one inner chunk)
  stores      directory (a local folder; page cache warm, no fsync) and memory (the
              implementation's own in-memory store, filled untimed before a read)
  validate    `zarr-conformance validate` of a --validate-size MiB v3 store of each codec, and of
              the zstd one over HTTP, against reading that store with the fastest v3 reader of
              the main run (and the reference): the ratio of their median times
An implementation takes part in every workload its adapter.toml declares the operation, format
(v3, else v2) and codecs of; a codec it does not declare is probed once, and a refusal is
recorded as n/a with the implementation's own message. Every read is compared bit for bit and
every write is read back by the reference: a wrong answer is reported as WRONG DATA, never as a
speed.

repetitions
  --repeat N runs each workload N times (a workload whose operations have taken
  --workload-budget seconds in all stops at 3), each repetition in a fresh adapter process after an
  untimed warm-up, interleaved across implementations (rep 1: A B C, rep 2: B C A, ...), so
  that load coming and going hits all alike. The adapter times the operation alone: wall time,
  and CPU time (user + system of its process, every thread, and of the children it waited for),
  which other load moves far less. Figures are medians with the order-statistic confidence
  interval of the median (95 %% where N allows; N = 5 gives [min, max] at 93.8 %%); where the
  intervals of two implementations overlap they are within noise and not ranked. The load
  average (and CPU pressure) at every step is recorded with the machine.

output
  --out FILE (default %(default_out)s) is JSON, schema "zarr-conformance-bench/2" (member
  `schema`), documented in conformance/bench/README.md; beside it FILE.md (markdown tables) and
  one SVG plot per store. Progress goes to stderr. Exit 1 if any result is wrong or errored.

duration
  (implementations x codecs x repetitions) adapter processes: with the defaults (14 adapters,
  128 MiB, 5 repetitions, 1 GiB validate stores) about an hour on an idle 2-core machine
  (estimated from the CPU time of a 16 MiB run: 2 minutes of CPU per repetition at 16 MiB, of
  which zarr.js's writes take the most); a quick look: --size 16 --repeat 3 --validate-size 64
  (about 10 minutes)

comparing two runs
  zarr-conformance bench --compare A.json B.json: for every cell, every pair of implementations
  whose intervals do not overlap in one run must be in the same order in the other; prints each
  disagreement, exit 1 if there is one."""


def register(sub) -> None:
    from .workloads import CODECS, OPERATIONS, STORES

    p = sub.add_parser(
        "bench",
        help="measure write/read throughput of every implementation through its adapter",
        description=DESCRIPTION.replace("%(default_out)s", str(DEFAULT_OUT)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--size",
        type=int,
        default=128,
        metavar="MIB",
        help="array size in MiB (default 128)",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="repetitions, each in a fresh adapter process (default 5)",
    )
    p.add_argument(
        "--impl",
        action="append",
        metavar="NAME",
        help="an adapter (repeatable; default: every adapter that can write or read)",
    )
    p.add_argument(
        "--codec", action="append", choices=CODECS, help="codecs (repeatable; default: all)"
    )
    p.add_argument(
        "--store", action="append", choices=STORES, help="stores (repeatable; default: both)"
    )
    p.add_argument(
        "--operation",
        action="append",
        choices=OPERATIONS,
        help="operations (repeatable; default: all)",
    )
    p.add_argument(
        "--validate-size",
        type=int,
        default=1024,
        metavar="MIB",
        help="store size of the validate rows (default 1024; 0: no validate rows)",
    )
    p.add_argument(
        "--workload-budget",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a workload whose timed operations have taken this long in all stops at 3 "
        "repetitions (default 60; recorded in its `runs`)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="IMPL/CODEC/STORE/OP",
        help="skip matching workloads (fnmatch pattern, e.g. 'zarr-python2/*/memory/*'); recorded as "
        "skipped with the pattern",
    )
    p.add_argument(
        "--repeat-for",
        action="append",
        default=[],
        metavar="IMPL=N",
        help="fewer repetitions for one implementation (recorded)",
    )
    p.add_argument(
        "--scratch",
        type=Path,
        default=None,
        help="folder for the stores (default: the system temp dir)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=900.0,
        help="seconds one adapter request may take (default 900)",
    )
    p.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"JSON output (default {DEFAULT_OUT})"
    )
    p.add_argument(
        "--plots",
        type=Path,
        default=None,
        help="folder for the plots (default: beside --out)",
    )
    p.add_argument("--no-plots", action="store_true", help="write no plots")
    p.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("A.json", "B.json"),
        help="run nothing: check that two bench results rank alike wherever their intervals do "
        "not overlap (exit 1 on a disagreement)",
    )
    p.set_defaults(func=run)


def _repeat_for(items: list[str]) -> dict[str, int]:
    out = {}
    for item in items:
        name, _, count = item.partition("=")
        if not name or not count.isdigit() or int(count) < 1:
            raise SystemExit(f"--repeat-for {item!r}: expected IMPL=N with N >= 1")
        out[name] = int(count)
    return out


def compare(paths: list[Path]) -> int:
    import json

    from .runner import SCHEMA
    from .stats import compare as compare_runs
    from .stats import describe_comparison

    reports = []
    for path in paths:
        try:
            report = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise SystemExit(f"bench --compare: cannot read {path}: {exc}") from None
        if report.get("schema") != SCHEMA:
            raise SystemExit(
                f"bench --compare: {path} has schema {report.get('schema')!r}; expected {SCHEMA!r}"
            )
        reports.append(report)
    result = compare_runs(*reports)
    print(describe_comparison(result, (str(paths[0]), str(paths[1]))))
    return 1 if result["disagreements"] else 0


def run(args) -> int:
    if args.compare:
        return compare(args.compare)
    from .html import markdown_table
    from .runner import Bench, Options, Progress, gating, write_json
    from .workloads import CODECS, OPERATIONS, STORES

    if args.repeat < 1:
        raise SystemExit("--repeat must be at least 1")
    if args.validate_size < 0:
        raise SystemExit("--validate-size must be 0 (none) or more")
    options = Options(
        size_mib=args.size,
        repeat=args.repeat,
        impls=args.impl,
        codecs=[c for c in CODECS if c in (args.codec or CODECS)],
        stores=[s for s in STORES if s in (args.store or STORES)],
        operations=[o for o in OPERATIONS if o in (args.operation or OPERATIONS)],
        exclude=list(args.exclude),
        repeat_for=_repeat_for(args.repeat_for),
        scratch=args.scratch,
        timeout=args.timeout,
        validate_size_mib=args.validate_size,
        workload_budget_s=args.workload_budget,
    )
    progress = Progress()
    report = Bench(options, progress).run()
    report["arguments"] = {
        key: str(value) if isinstance(value, Path) else value
        for key, value in vars(args).items()
        if key not in ("func", "command", "compare")
    }
    written = [args.out]
    if not args.no_plots:
        try:
            from .plots import write_plots
        except ImportError as exc:  # matplotlib is in the `report` extra
            progress(f"no plots: {exc} (pip install 'zarr-conformance[report]')")
        else:
            paths = write_plots(report, args.plots or args.out.parent, stem=args.out.stem)
            report["plots"] = [str(p) for p in paths]
            written += paths
    write_json(report, args.out)
    markdown = args.out.with_suffix(".md")
    markdown.write_text(markdown_table(report), "utf-8")
    written.append(markdown)
    print(markdown_table(report))
    bad = [r for r in report["results"] if gating(r)]
    bad += [
        {**r, "impl": "validate", "operation": "validate"}
        for r in (report.get("validate") or {}).get("rows", [])
        if r["status"] in ("wrong-data", "errored")
    ]
    for r in bad:
        progress(
            f"{r['status'].upper()}: {r['impl']} {r['codec']} {r['store']} {r['operation']}: {r.get('reason', '')[:300]}"
        )
    progress(f"done in {report['duration_s']:.0f} s; wrote {', '.join(str(p) for p in written)}")
    return 1 if bad else 0
