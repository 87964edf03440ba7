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

from .budget import DEFAULT_TIME_BUDGET

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
     (network error: an io-error finding); or the time budget ran out first
  2  usage error: no such path, unknown URL scheme, bad options
  3  nothing is broken, but some of the store could not be checked (CANNOT-CHECK findings)

limits (each has a default):
  --timeout SECONDS      the whole run, network requests included: {budget:g} s unless given
                         (0 = none); a run that reaches it reports what it checked, exit 1
  --max-value-bytes N    the largest chunk or shard read: {value} unless given
                         (or ${env_value})
  --max-metadata-bytes N the largest metadata document read: {metadata} unless given
                         (or ${env_metadata})
  a value over its limit is refused unread; sizes may say 512KiB, 64MiB, 2GiB

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
        epilog=_epilog(),
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
        "--timeout",
        "--time-budget",
        dest="timeout",
        type=_seconds,
        default=DEFAULT_TIME_BUDGET,
        metavar="SECONDS",
        help=f"a time budget for the whole run (default {DEFAULT_TIME_BUDGET:g}; 0 = none)",
    )
    parser.add_argument(
        "--max-value-bytes",
        type=_size,
        metavar="N",
        help="refuse to read a chunk or shard larger than this",
    )
    parser.add_argument(
        "--max-metadata-bytes",
        type=_size,
        metavar="N",
        help="refuse to read a metadata document larger than this",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="also print one line per node")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    parser.set_defaults(func=run)


def _epilog() -> str:
    from conformance.reference.stores import base

    return EPILOG.format(
        budget=DEFAULT_TIME_BUDGET,
        value=_size_text(base.DEFAULT_MAX_VALUE_BYTES),
        metadata=_size_text(base.DEFAULT_MAX_METADATA_BYTES),
        env_value=base.ENV_MAX_VALUE_BYTES,
        env_metadata=base.ENV_MAX_METADATA_BYTES,
    )


def _seconds(text: str) -> float | None:
    """A positive number of seconds; 0 means no budget (None)."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value == 0:
        return None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(
            f"the time budget must be a positive number of seconds (or 0: none), got {text!r}"
        )
    return value


_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def _size(text: str) -> int:
    """A number of bytes: 1048576, 1MiB, 1M, 64k (powers of 1024)."""
    import argparse
    import re

    match = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a number of bytes: {text!r} (e.g. 64MiB)")
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def _size_text(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"


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

    from conformance.reference.errors import ZarrError

    from .budget import Progress
    from .runner import UsageError, open_location, summary_json, summary_line, validate

    try:
        store = open_location(location, args.timeout)
        store.set_limits(args.max_value_bytes, args.max_metadata_bytes)
    except UsageError as exc:
        return _usage_error(str(exc))
    except ZarrError as exc:  # nothing can be opened there: a FIFO, a broken archive, a bad URL
        return _usage_error(exc.message)
    except ValueError as exc:  # a ZARR_CONFORMANCE_MAX_* variable that is no number
        return _usage_error(str(exc))
    try:
        result = validate(
            store,
            format=args.format,
            path=args.path,
            decode=not args.no_data,
            timeout=args.timeout,
            as_json=args.json,
            progress=Progress(enabled=not args.quiet),
            model=args.model,
            verbose=args.verbose if verbose is None else verbose,
            label=label or str(location),
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
