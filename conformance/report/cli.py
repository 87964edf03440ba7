"""`zarr-conformance report`: render the published report from recorded results, or compare two
recorded runs (`--compare OLD NEW`). Nothing is re-run."""

from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    report = subparsers.add_parser(
        "report",
        help="render the compatibility report from recorded results, or compare two runs",
        description="Render the compatibility report as a static site from a JSONL results file of "
        "`zarr-conformance run`, with hostile.jsonl and ranges.json beside it when present (nothing is "
        "re-run): index.html (the overview), a page per implementation, case, feature and format, "
        "requirements, interop, bench and hostile pages, a JSON API (api/v1/), README.md, results.json "
        "and badges. The site works from disk and from any static host. With --compare OLD NEW, print what "
        "changed between two results files instead; exit status 1 when any record got worse "
        "(passed -> anything else, a new failure, crash or unexplained wrong data).",
    )
    report.add_argument(
        "--results",
        metavar="FILE",
        default="reports/latest/results.jsonl",
        help="the results to render (default: reports/latest/results.jsonl)",
    )
    report.add_argument(
        "--out", metavar="DIR", default="reports", help="where the report goes (default: reports/)"
    )
    report.add_argument(
        "--fixtures",
        metavar="DIR",
        help="the corpus the results were recorded on (default: fixtures/)",
    )
    report.add_argument(
        "--bench",
        metavar="FILE",
        default="reports/bench/bench.json",
        help="throughput figures of `zarr-conformance bench` to embed (default: reports/bench/bench.json, if present)",
    )
    report.add_argument(
        "--hostile",
        metavar="FILE",
        help="records of `zarr-conformance run --kinds hostile,fault` for the section on hostile "
        "stores and faults (default: hostile.jsonl beside the results, if present; hostile and "
        "fault records in the results themselves are shown as well)",
    )
    report.add_argument(
        "--repo-url",
        metavar="URL",
        default="../",
        help="where links to repository files (fixtures/, adapters/, reports/upstream/) point: a path "
        "relative to the output folder (default ../, the checkout around reports/) or a URL such as "
        "https://github.com/OWNER/REPO/blob/COMMIT/",
    )
    report.add_argument(
        "--site-url",
        metavar="URL",
        help="where the site will be published, for the badge embed code on implementation pages",
    )
    report.add_argument(
        "--compare", nargs=2, metavar=("OLD", "NEW"), help="compare two results files instead"
    )
    report.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="with --compare: an adapter renamed between the runs (e.g. zarrs=zarrs-python); repeatable",
    )
    report.add_argument(
        "--limit",
        type=int,
        default=200,
        metavar="N",
        help="with --compare: lines per section (default 200)",
    )
    report.set_defaults(func=report_command)


def report_command(args) -> int:
    if args.compare:
        from .compare import render

        renames = dict(item.split("=", 1) for item in args.rename if "=" in item)
        text, regressed = render(args.compare[0], args.compare[1], renames, args.limit)
        print(text)
        return 1 if regressed else 0
    from conformance.corpus import default_root

    from .publish import publish

    results = Path(args.results)
    if not results.is_file():
        print(
            f"report: no results at {results}: record a run first (zarr-conformance run --impl all --results {results})"
        )
        return 2
    hostile = Path(args.hostile) if args.hostile else None
    if hostile is not None and not hostile.is_file():
        print(f"report: no hostile results at {hostile}")
        return 2
    fixtures = Path(args.fixtures) if args.fixtures else default_root()
    bench = None
    if Path(args.bench).is_file():
        import json

        bench = json.loads(Path(args.bench).read_text("utf-8"))
    written = publish(
        results,
        Path(args.out),
        fixtures,
        bench,
        hostile=hostile,
        repo_url=getattr(args, "repo_url", "../"),
        site_url=getattr(args, "site_url", None),
    )
    pages = [p for p in written if p.suffix == ".html"]
    size = sum(p.stat().st_size for p in written)
    print(
        f"wrote {len(written)} files ({len(pages)} pages, {size / 1e6:.1f} MB) into {args.out}; open {Path(args.out) / 'index.html'}"
    )
    return 0
