"""`zarr-conformance validate`: which spec requirements a store breaks.

Exit codes: 0 no MUST-level requirement is broken (warnings may remain); 1 at least one is, or
the store holds no Zarr metadata at all, or cannot be read (network), or the time budget ran out
before the check finished (conformance then cannot be confirmed); 2 usage errors (no such path,
an unknown URL scheme, bad options); 3 nothing is broken, but the store uses a valid feature (a
registered zarr-extensions extension) that this validator does not implement, so that part
could not be checked.
"""

from __future__ import annotations

import sys

FORMAT_CHOICES = ("v3", "v2", "v3-draft", "v1")

EPILOG = """\
output: one line per finding,
  ERROR|CANNOT-CHECK|WARNING|NOTE <requirement-id or -> <reason-code> </node/path>: <message>
then a SUMMARY line (with --json: one JSON object per line, the last of type "summary").
ERROR: a MUST-level requirement is broken.
CANNOT-CHECK: the store uses a valid feature this validator does not implement (an extension
  registered in zarr-extensions, e.g. a codec mode the reference refuses); the spec only asks a
  reader lacking an extension to refuse the array, so this is not a violation, but conformance
  of that array is not established.
WARNING: a SHOULD-level requirement is broken, or something readers ignore (stray keys) or
  read differently (e.g. a v2 string array whose fill_value is the number 0).
NOTE: information (e.g. an extension name that is not registered in zarr-extensions).
A problem shared by many chunks or keys of one array is one finding that says how many.
An unknown extension that is not registered is an ERROR where the spec makes readers refuse it
(V3-DT-008 data types, V3-EXT-004 codecs, V3-EXT-005 chunk grids and key encodings, V3-ARR-007
storage transformers), or a name no extension may have (V3-EXT-006).

exit codes:
  0  no MUST-level requirement is broken and everything was checked
  1  at least one is; or there is no Zarr metadata there; or the store cannot be read
     (network error: an io-error finding); or --timeout ran out first
  2  usage error: no such path, unknown URL scheme, bad options
  3  nothing is broken, but some of the store could not be checked (CANNOT-CHECK findings)

URLs: file://, http(s):// (cannot be listed: the hierarchy comes from consolidated metadata and
chunks are probed), s3:// (credentials from the environment, else anonymous; an endpoint from
AWS_ENDPOINT_URL)."""


def register(subparsers) -> None:
    import argparse

    parser = subparsers.add_parser(
        "validate",
        help="check a Zarr store (directory, zip or URL) against the spec requirements",
        description="Walk a Zarr hierarchy, open every node and decode every stored chunk with the "
        "reference implementation, and report each broken requirement.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "location", nargs="?", metavar="PATH_OR_URL", help="a directory, a .zip file or a URL"
    )
    parser.add_argument(
        "--format", choices=FORMAT_CHOICES, help="validate as this format (default: detect)"
    )
    parser.add_argument(
        "--path", default="", metavar="P", help="start at this node instead of the root"
    )
    parser.add_argument(
        "--model", metavar="MODEL.json", help="also check the hierarchy against a ZOM model file"
    )
    parser.add_argument("--json", action="store_true", help="print findings as JSON lines")
    parser.add_argument(
        "--no-data", action="store_true", help="check metadata and chunk keys, do not decode chunks"
    )
    parser.add_argument(
        "--sample",
        action="store_true",
        help="write a small sample hierarchy to a temporary directory and validate it",
    )
    parser.add_argument(
        "--timeout", type=_seconds, metavar="SECONDS", help="a time budget for the whole run"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="also print one line per node")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    parser.set_defaults(func=run)


def _seconds(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(
            f"the time budget must be a positive number of seconds, got {text!r}"
        )
    return value


def _usage_error(message: str) -> int:
    print(f"zarr-conformance validate: error: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    from pathlib import Path

    if args.sample == bool(args.location):
        return _usage_error("give exactly one of PATH_OR_URL and --sample")
    if args.model and not Path(args.model).is_file():
        return _usage_error(f"no such model file: {args.model}")
    segments = args.path.replace("\\", "/").strip("/").split("/")
    if args.path and ("\x00" in args.path or any(s in (".", "..") for s in segments)):
        return _usage_error(f"--path {args.path!r} has a '.' or '..' segment")
    if args.sample:
        return _run_sample(args)
    return _run(args, args.location)


def _run(args, location, verbose: bool | None = None, label: str | None = None) -> int:
    import json

    from .budget import Progress
    from .runner import UsageError, summary_json, summary_line, validate

    try:
        result = validate(
            location,
            format=args.format,
            path=args.path,
            decode=not args.no_data,
            timeout=args.timeout,
            as_json=args.json,
            progress=Progress(enabled=not args.quiet),
            model=args.model,
            verbose=args.verbose if verbose is None else verbose,
            label=label,
        )
    except UsageError as exc:
        return _usage_error(str(exc))
    result.sink.write_final(
        json.dumps(summary_json(result), ensure_ascii=False) if args.json else summary_line(result)
    )
    return result.exit_code


def _run_sample(args) -> int:
    import tempfile
    from pathlib import Path

    from .sample import write_sample

    with tempfile.TemporaryDirectory(prefix="zarr-conformance-sample-") as tmp:
        directory = Path(tmp) / "sample.zarr"
        info = write_sample(directory)
        if not args.json:
            sharding = (
                "sharded" if info["sharded"] else "not sharded: this reference has no sharding"
            )
            print(
                f"sample: wrote a {info['format']} group with arrays {', '.join(info['arrays'])} "
                f"('counts' {sharding}) to a temporary directory; validating it with the reference"
            )
        return _run(args, directory, verbose=True, label="sample.zarr in a temporary directory")
