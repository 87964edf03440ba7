"""`zarr-conformance bench`: throughput of every implementation that can write and read, through
its adapter, beside the physical limits of the machine."""

from __future__ import annotations

from pathlib import Path

DEFAULT_OUT = Path("reports/bench/bench.json")


def register(sub) -> None:
    from .workloads import CODECS, OPERATIONS, STORES

    p = sub.add_parser(
        "bench",
        help="measure write/read throughput of every implementation through its adapter",
        description="Write and read a float32 array (smooth field plus noise; --size MiB in 1 MiB chunks) with "
        "every implementation that can write and read, each through its adapter's `bench` operation: codecs "
        "none, zstd, gzip, blosc-zstd and sharded zstd; whole-array write and read, 1%% of the chunks at random, "
        "one (inner) chunk; a local directory and the implementation's in-memory store. Each repetition runs in "
        "a fresh adapter process, interleaved across implementations; every read and write is checked bit for "
        "bit (a wrong answer is reported as wrong-data, never as a speed). Memory copy, raw file write/read "
        "and single-thread numcodecs encode/decode are measured in the same run as the physical limits. "
        "Figures go to --out as JSON (min/median/max MB/s, ratio to the limit, compressed size, machine facts, "
        "exact versions and settings) with plots beside it; progress goes to stderr.",
    )
    p.add_argument(
        "--size",
        type=int,
        default=256,
        metavar="MIB",
        help="array size in MiB (default 256; quick: 8)",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="repetitions, each in a fresh adapter process (default 3)",
    )
    p.add_argument(
        "--impl",
        action="append",
        metavar="NAME",
        help="an adapter (repeatable; default: every adapter that can write and read)",
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
        help="folder for the plots (default: beside --out); --no-plots to skip",
    )
    p.add_argument("--no-plots", action="store_true", help="write no plots")
    p.set_defaults(func=run)


def _repeat_for(items: list[str]) -> dict[str, int]:
    out = {}
    for item in items:
        name, _, count = item.partition("=")
        if not name or not count.isdigit() or int(count) < 1:
            raise SystemExit(f"--repeat-for {item!r}: expected IMPL=N with N >= 1")
        out[name] = int(count)
    return out


def run(args) -> int:
    from .html import markdown_table
    from .runner import Bench, Options, Progress, write_json
    from .workloads import CODECS, OPERATIONS, STORES

    if args.repeat < 1:
        raise SystemExit("--repeat must be at least 1")
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
    )
    progress = Progress()
    report = Bench(options, progress).run()
    report["arguments"] = {
        key: str(value) if isinstance(value, Path) else value
        for key, value in vars(args).items()
        if key not in ("func", "command")
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
    bad = [r for r in report["results"] if r["status"] in ("wrong-data", "errored")]
    for r in bad:
        progress(
            f"{r['status'].upper()}: {r['impl']} {r['codec']} {r['store']} {r['operation']}: {r.get('reason', '')[:300]}"
        )
    progress(f"done in {report['duration_s']:.0f} s; wrote {', '.join(str(p) for p in written)}")
    return 1 if bad else 0
