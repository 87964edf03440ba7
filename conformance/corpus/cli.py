"""`zarr-conformance corpus generate | check | coverage | list`."""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "corpus",
        help="generate, check and measure the golden fixture corpus",
        description="Work with the golden corpus in fixtures/ (or --root).",
    )
    p.add_argument("--root", type=Path, default=None, help="corpus folder (default: the repo's fixtures/)")
    s = p.add_subparsers(dest="corpus_command", metavar="ACTION", required=True)
    g = s.add_parser("generate", help="rebuild every generated case deterministically (gold stores are kept)")
    g.add_argument("--only", metavar="PREFIX", help="only cases whose id starts with PREFIX")
    g.set_defaults(func=_generate)
    c = s.add_parser("check", help="regenerate into a temporary folder and fail on any byte difference")
    c.set_defaults(func=_check)
    v = s.add_parser("coverage", help="share of testable requirements cited by at least one case, per family")
    v.set_defaults(func=_coverage)
    l = s.add_parser("list", help="list cases (id, kind, tier, requirements)")
    l.add_argument("--kind", choices=["read", "reject", "write", "zom"])
    l.set_defaults(func=_list)


def _root(args) -> Path:
    from .case import default_root

    return args.root or default_root()


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _generate(args) -> int:
    from .generator import generate

    n = generate(_root(args), progress=_say, only=args.only)
    print(f"generated {n} cases into {_root(args)}")
    return 0


def _check(args) -> int:
    import tempfile

    from .generator import generate, snapshot

    root = _root(args)
    with tempfile.TemporaryDirectory() as tmp:
        n = generate(Path(tmp), progress=_say)
        fresh, committed = snapshot(Path(tmp)), snapshot(root)
    differ = sorted(k for k in fresh.keys() & committed.keys() if fresh[k] != committed[k])
    only_fresh = sorted(fresh.keys() - committed.keys())
    only_committed = sorted(committed.keys() - fresh.keys())
    for label, keys in (("differs", differ), ("missing from corpus", only_fresh), ("stale in corpus", only_committed)):
        for k in keys[:20]:
            print(f"{label}: {k}")
        if len(keys) > 20:
            print(f"{label}: ... and {len(keys) - 20} more")
    if differ or only_fresh or only_committed:
        print(f"corpus check FAILED: {len(differ)} differing, {len(only_fresh)} missing, {len(only_committed)} stale files; "
              "run `zarr-conformance corpus generate`")
        return 1
    print(f"corpus check ok: {n} generated cases, {len(fresh)} files identical")
    return 0


def _coverage(args) -> int:
    from .case import load_cases
    from .coverage import coverage, render, unknown_ids

    cases = load_cases(_root(args))
    bad = unknown_ids(cases)
    for case_id, ids in bad.items():
        print(f"unknown requirement IDs in {case_id}: {' '.join(ids)}")
    print(f"{len(cases)} cases")
    print(render(coverage(cases)))
    return 1 if bad else 0


def _list(args) -> int:
    from .case import load_cases

    for c in load_cases(_root(args), kinds=[args.kind] if args.kind else None):
        print(f"{c.id}\t{c.kind}\t{c.tier}\t{' '.join(c.requirements)}")
    return 0
