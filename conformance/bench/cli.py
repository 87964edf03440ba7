"""`zarr-conformance bench`: reference and zarr-python throughput side by side."""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="measure whole-array write/read throughput of implementations side by side",
        description="Write then read a float32 array (default 256 MiB in 1 MiB chunks) to a local "
        "directory with each implementation, uncompressed and with zstd, and print MiB/s and the "
        "ratio to zarr-python. Results are checked bit-for-bit. Figures go to --out as JSON with "
        "the machine's facts and package versions.",
    )
    p.add_argument("--size-mib", type=int, default=256, help="array size in MiB (default 256)")
    p.add_argument("--chunk-mib", type=float, default=1.0, help="chunk size in MiB (default 1)")
    p.add_argument("--impl", action="append", choices=["files", "reference", "zarr-python"],
                   help="implementations (default: all; 'files' is the raw-file baseline)")
    p.add_argument("--codec", action="append", choices=["none", "zstd"], help="codecs (default: both)")
    p.add_argument("--repeat", type=int, default=5, help="runs per figure, interleaved; the best is kept (default 5)")
    p.add_argument("--scratch", type=Path, default=None, help="folder for the stores (default: a temp dir)")
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    p.set_defaults(func=run)


def _side(size_mib: float) -> int:
    import math

    return int(math.sqrt(size_mib * 2**20 / 4))


def run(args) -> int:
    import json
    import tempfile

    from .machine import machine_facts
    from .workloads import Workload, make_data, run_once

    side, chunk = _side(args.size_mib), _side(args.chunk_mib)
    impls = args.impl or ["files", "reference", "zarr-python"]
    codecs = args.codec or ["none", "zstd"]
    print(f"bench: float32 ({side}, {side}) = {side*side*4/2**20:.0f} MiB in ({chunk}, {chunk}) chunks, best of {args.repeat} interleaved runs", file=sys.stderr)
    data = make_data((side, side))
    rows = []
    with tempfile.TemporaryDirectory(dir=args.scratch) as tmp:
        for codec in codecs:
            workload = Workload((side, side), (chunk, chunk), codec)
            names = [i for i in impls if not (i == "files" and codec != "none")]
            # Interleaved (a b c a b c ...) so that drift in the machine's speed hits every
            # implementation alike; the best run of each is kept.
            runs = {name: [] for name in names}
            for _ in range(args.repeat):
                for name in names:
                    runs[name].append(run_once(name, workload, data, Path(tmp)))
            for impl in names:
                got = runs[impl]
                best = {**got[0], "write_s": min(r["write_s"] for r in got), "read_s": min(r["read_s"] for r in got),
                        "exact": all(r["exact"] for r in got), "runs": len(got)}
                mib = workload.nbytes / 2**20
                best["write_mib_s"], best["read_mib_s"] = mib / best["write_s"], mib / best["read_s"]
                rows.append(best)
                print(f"  {impl:12} {codec:5} write {best['write_mib_s']:8.1f} MiB/s  read {best['read_mib_s']:8.1f} MiB/s"
                      f"  {'exact' if best['exact'] else 'WRONG DATA'}", file=sys.stderr)
    base = {(r["codec"]): r for r in rows if r["impl"] == "zarr-python"}
    print(f"{'impl':12} {'codec':5} {'write MiB/s':>12} {'read MiB/s':>11} {'write x zp':>10} {'read x zp':>9}")
    for r in rows:
        zp = base.get(r["codec"])
        wr = f"{r['write_mib_s'] / zp['write_mib_s']:.2f}" if zp else "-"
        rr = f"{r['read_mib_s'] / zp['read_mib_s']:.2f}" if zp else "-"
        print(f"{r['impl']:12} {r['codec']:5} {r['write_mib_s']:12.1f} {r['read_mib_s']:11.1f} {wr:>10} {rr:>9}")
    report = {"workload": {"dtype": "float32", "shape": [side, side], "chunks": [chunk, chunk], "repeat": args.repeat},
              "machine": machine_facts(), "results": rows}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if all(r["exact"] for r in rows) else 1
