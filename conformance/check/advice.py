"""Advice from what the corpus knows: which feature of a store makes an implementation refuse or
misread it, and what its producer could change to be read.

Two sources:

- the implementation's capabilities (adapter.toml): a node needing one it does not declare;
- its known failures (known-failures.toml): each entry names the corpus cases that show the bug.
  The features those read cases share (features.py, computed from their stores exactly as for
  the store under check) are the bug's signature; an entry applies to a node that has them all.
  Only distinctive features count: one that most of the corpus has (format:v3, codec:bytes)
  says nothing about a bug, and an entry whose cases share nothing distinctive is not matched.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache

from conformance.harness.config import AdapterConfig, KnownFailure

# A feature of more than this share of the corpus's read cases is not distinctive (int32, the
# builders' default data type, is in a fifth of them); a signature names the bug only with one
# feature rarer than SPECIFIC (zlib, in a tenth of them, alone would match most v2 stores).
COMMON = 0.15
SPECIFIC = 0.05
FEATURES_VERSION = "1"  # bump when features.py describes stores differently


@dataclass(frozen=True)
class Advice:
    cause: str  # what about the store, in words
    features: tuple[str, ...]  # the features (capability names, fill traits) concerned
    change: str  # what the producer could change, or "" when nothing would help
    source: str  # "capabilities" or "known failure <id>"
    issue: str = ""  # the entry's issue URL, or "unreported"
    report: str = ""  # the ready-to-file report of an unreported entry

    def as_json(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if v not in ("", ())} | {
            "features": list(self.features)
        }


# ---- the corpus's side: features of the cases an entry names ----------------------------------------
@cache
def corpus_features() -> dict[str, frozenset[str]]:
    """Needs and traits of every v2/v3 read case of an array, by case id; kept in the cache
    folder per state of the corpus (opening 700 stores takes seconds)."""
    import hashlib
    import json

    from conformance.corpus.case import default_root
    from conformance.harness.envs import cache_root

    root = default_root()
    state = hashlib.sha256(f"{FEATURES_VERSION} {root}".encode())
    for area in sorted(root.glob("*/*")):  # `corpus generate` swaps areas in whole: new inodes
        info = area.stat()
        state.update(f"{area.relative_to(root)} {info.st_ino} {info.st_mtime_ns}\n".encode())
    saved = cache_root() / "check" / f"corpus-features-{state.hexdigest()[:16]}.json"
    try:
        return {k: frozenset(v) for k, v in json.loads(saved.read_text("utf-8")).items()}
    except (OSError, ValueError):
        pass
    out = _corpus_features()
    try:
        saved.parent.mkdir(parents=True, exist_ok=True)
        partial = saved.with_suffix(f".{os.getpid()}.partial")
        partial.write_text(json.dumps({k: sorted(v) for k, v in out.items()}), "utf-8")
        os.replace(partial, saved)
    except OSError:
        pass  # a read-only cache: computed again next time
    return out


def _corpus_features() -> dict[str, frozenset[str]]:
    from conformance.corpus.case import load_cases
    from conformance.reference import get_format, open_store
    from conformance.reference.errors import ZarrError

    from .features import array_features

    out: dict[str, frozenset[str]] = {}
    for case in load_cases(kinds=["read"]):
        if case.format not in ("v2", "v3") or case.expect.get("node_type") != "array":
            continue
        try:
            fmt = get_format(case.format)
            with open_store(case.store_path) as store:
                array = fmt.open_array(store, fmt.normalize_path(case.node))
                needs, traits = array_features(array)
        except (ZarrError, OSError, ValueError):
            continue
        out[case.id] = frozenset(needs | traits)
    return out


@cache
def frequencies() -> dict[str, float]:
    """The share of the corpus's read cases that have each feature."""
    cases = corpus_features()
    counts = Counter(f for features in cases.values() for f in features)
    return {f: n / max(len(cases), 1) for f, n in counts.items()}


def common_features() -> frozenset[str]:
    return frozenset(f for f, share in frequencies().items() if share > COMMON)


def signature(entry: KnownFailure) -> frozenset[str]:
    """The distinctive features every read case of the entry shares (empty: none, or no case)."""
    if entry.test not in (None, "read"):
        return frozenset()
    cases = corpus_features()
    matched = [
        features
        for case_id, features in cases.items()
        if any(case_id == p or fnmatchcase(case_id, p) for p in entry.cases)
    ]
    if not matched:
        return frozenset()
    found = frozenset.intersection(*matched) - common_features()
    specific = [f for f in found if frequencies().get(f, 0.0) < SPECIFIC]
    return found if specific else frozenset()


# ---- the store's side -------------------------------------------------------------------------------
def advise(
    config: AdapterConfig,
    capabilities: frozenset[str],
    features: set[str],
    store_kind: str,
    message: str = "",
) -> list[Advice]:
    """What is known about `config`'s implementation and a node with `features`, where it
    answered `message`."""
    from .features import known

    out = []
    for entry in config.known_failures:
        if entry.stores is not None and store_kind not in entry.stores:
            continue
        # not the entries' `observed` patterns: they match the suite's messages, and check words
        # its own; the store's features decide here
        found = signature(entry)
        if found and found <= features:
            out.append(
                Advice(
                    cause=f"{entry.reason}",
                    features=tuple(sorted(found)),
                    change=_change(sorted(found), capabilities),
                    source=f"known failure {entry.id}",
                    issue=entry.issue,
                    report=entry.report or "",
                )
            )
    lacking = sorted(known(features) - capabilities - {"op:read"})
    if lacking:
        out.append(
            Advice(
                cause=f"{config.name} does not declare {', '.join(lacking)} (adapter.toml)",
                features=tuple(lacking),
                change=_change(lacking, capabilities),
                source="capabilities",
            )
        )
    return out


# What to write instead, per feature (codecs and data types: what the implementation declares).
COMPRESSORS = ("zstd", "blosc", "gzip", "zlib", "lz4", "bz2", "lzma")
CHECKSUMS = ("crc32c", "crc32", "adler32")
SAME_KIND = {
    "dtype:string": ("dtype:fixed_length_utf32", "dtype:fixed-unicode"),
    "dtype:bytes": ("dtype:fixed-bytes", "dtype:raw_bytes"),
    "dtype:object": ("dtype:fixed-unicode", "dtype:fixed-bytes"),
    "dtype:fixed-unicode": ("dtype:object",),
    "dtype:fixed-bytes": ("dtype:object",),
    "dtype:numpy.datetime64": ("dtype:int64",),
    "dtype:datetime64": ("dtype:int64",),
    "dtype:float16": ("dtype:float32",),
    "dtype:uint64": ("dtype:int64", "dtype:float64"),
    "dtype:int64": ("dtype:int32", "dtype:float64"),
}
FIXED = {
    "fill:beyond-2^53": "a fill value within +-2^53 (0, say): larger integers do not survive a "
    "JSON parser that reads numbers as doubles",
    "fill:nan-payload": 'the canonical NaN ("NaN") as the fill value',
    "fill:nan": "a number as the fill value",
    "fill:infinity": "a finite fill value",
    "fill:negative-zero": "0.0 rather than -0.0 as the fill value",
    "fill:hex-string": "the fill value as a JSON number rather than a hex string",
    "fill:base64": "an empty fill value (or write every chunk)",
    "fill:nonzero": "fill value 0 (or write every chunk, so that no reader needs it)",
    "fill:null": "a concrete fill value instead of null",
    "feature:fill-null": "a concrete fill value instead of null",
    "feature:order-F": 'order "C"',
    "feature:sharding-index-start": 'index_location "end" (the default)',
    "feature:sharding-nested": "one level of sharding",
    "codec:sharding_indexed": "no sharding (plain chunks)",
    "codec:transpose": "no transpose codec (write the data in C order)",
    "dtype:big-endian": "little-endian data (bytes codec endian 'little', or a '<' dtype)",
    "feature:dimension-separator-slash": "dimension_separator '.'",
    "feature:chunk-key-encoding-v2": "the default chunk key encoding",
    "feature:unicode-names": "ASCII node names",
    "feature:shorthand-names": "codecs, grid and key encoding spelled as objects",
    "feature:must-understand-false": "no optional extension members",
    "feature:storage-transformers": "no storage transformers",
    "feature:dimension-names": "no dimension_names",
    "feature:consolidated": "no consolidated metadata (or both)",
}


def _change(features: list[str], capabilities: frozenset[str]) -> str:
    """What the producer could write instead, feature by feature; "" when no change is known."""
    out = []
    for feature in features:
        family, _, name = feature.partition(":")
        if feature in FIXED:
            out.append(FIXED[feature])
        elif family == "codec" and name in COMPRESSORS + CHECKSUMS:
            pool = COMPRESSORS if name in COMPRESSORS else CHECKSUMS
            alternatives = [c for c in pool if c != name and f"codec:{c}" in capabilities]
            out.append(
                f"{' or '.join(alternatives)} instead of {name}"
                if alternatives
                else f"no {name} codec"
            )
        elif family == "codec":
            out.append(f"no {name} codec")
        elif family == "dtype":
            alternatives = [a for a in SAME_KIND.get(feature, ()) if a in capabilities]
            if alternatives:
                choices = " or ".join(a.split(":", 1)[1] for a in alternatives)
                out.append(f"data type {choices} instead of {name}")
        elif family == "format":
            formats = sorted(c.split(":", 1)[1] for c in capabilities if c.startswith("format:"))
            if formats:
                out.append(f"format {' or '.join(formats)} instead of {name}")
    return "; ".join(dict.fromkeys(out))
