"""`zarr-conformance corpus generate | check | coverage | list | disputes`."""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "corpus",
        help="generate, check and measure the golden fixture corpus",
        description="Work with the golden corpus in fixtures/ (or --root).",
    )
    p.add_argument(
        "--root", type=Path, default=None, help="corpus folder (default: the repo's fixtures/)"
    )
    s = p.add_subparsers(dest="corpus_command", metavar="ACTION", required=True)
    g = s.add_parser(
        "generate", help="rebuild every generated case deterministically (gold stores are kept)"
    )
    g.add_argument("--only", metavar="PREFIX", help="only cases whose id starts with PREFIX")
    g.set_defaults(func=_generate)
    c = s.add_parser(
        "check",
        help="regenerate into a temporary folder and fail on any byte difference; check "
        "citations, tier consistency, exact-check bases, adjudications and gold cases",
    )
    c.set_defaults(func=_check)
    v = s.add_parser(
        "coverage", help="share of testable requirements cited by at least one case, per family"
    )
    v.set_defaults(func=_coverage)
    list_parser = s.add_parser("list", help="list cases (id, kind, tier, requirements)")
    list_parser.add_argument("--kind", choices=["read", "reject", "write", "zom"])
    list_parser.set_defaults(func=_list)
    d = s.add_parser(
        "disputes",
        help="cases where two or more independent implementations disagree with the reference",
        description="List each case where the reference passes and two or more independent "
        "implementations (columns sharing a metadata parser count once) record an outcome "
        "other than passed/unsupported. Cases with an adjudication in case.json are resolved "
        "(shown with --all). Exit 1 while an unresolved dispute remains.",
    )
    d.add_argument(
        "--results",
        action="append",
        type=Path,
        metavar="FILE",
        help="results JSONL (repeatable; default: reports/latest/results.jsonl or results/matrix.jsonl)",
    )
    d.add_argument("--all", action="store_true", help="also list adjudicated disputes")
    d.set_defaults(func=_disputes)


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
    for label, keys in (
        ("differs", differ),
        ("missing from corpus", only_fresh),
        ("stale in corpus", only_committed),
    ):
        for k in keys[:20]:
            print(f"{label}: {k}")
        if len(keys) > 20:
            print(f"{label}: ... and {len(keys) - 20} more")
    failed = False
    if differ or only_fresh or only_committed:
        print(
            f"corpus check FAILED: {len(differ)} differing, {len(only_fresh)} missing, {len(only_committed)} stale files; "
            "run `zarr-conformance corpus generate`"
        )
        failed = True
    failed = _verdict_checks(root) or failed
    if failed:
        return 1
    print(
        f"corpus check ok: {n} generated cases, {len(fresh)} files identical; citations, tiers, exact-check "
        "bases, adjudications and gold cases consistent"
    )
    return 0


def _verdict_checks(root: Path) -> bool:
    """The checks of conformance.corpus.checks on the corpus at `root`; True when any fails."""
    from .case import load_cases
    from .checks import all_problems
    from .citations import specs_root

    specs = specs_root()
    if specs is None:
        _say("spec texts not found (set ZARR_CONFORMANCE_SPECS): citation quotes are not checked")
    failed = False
    for name, problems in all_problems(load_cases(root), specs).items():
        for line in problems[:30]:
            print(f"{name}: {line}")
        if len(problems) > 30:
            print(f"{name}: ... and {len(problems) - 30} more")
        if problems:
            print(f"corpus check FAILED: {len(problems)} {name} problems")
            failed = True
    return failed


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


def _disputes(args) -> int:
    from .case import load_cases
    from .disputes import default_results, find_disputes, load_records, parsers, render

    paths = args.results or default_results()
    if not paths:
        print(
            "no results file: pass --results FILE (reports/latest/results.jsonl and results/matrix.jsonl do not exist)"
        )
        return 2
    cases = {c.id: c for c in load_cases(_root(args))}
    disputes = find_disputes(load_records(paths), cases, parsers())
    print(render(disputes, show_all=args.all))
    return 1 if any(d.in_corpus and not d.resolved for d in disputes) else 0


def _list(args) -> int:
    from .case import load_cases

    for c in load_cases(_root(args), kinds=[args.kind] if args.kind else None):
        print(f"{c.id}\t{c.kind}\t{c.tier}\t{' '.join(c.requirements)}")
    return 0
