"""A small corpus and a results file with every kind of verdict the site shows, for the report's
tests: real requirement IDs and a real ready-to-file report (so the reproducer is the real one),
invented implementations' outcomes."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.report.publish import publish

CHECKOUT = Path(__file__).resolve().parents[2]

REPORT = "reports/upstream/zarr-python/fill-bool-accepts-any-json-value.md"
FILL_BOOL = {
    "id": "fill-bool-accepts-any-json-value",
    "issue": "unreported",
    "report": REPORT,
    "reason": "a bool fill_value is accepted whatever its JSON type",
    "strict": True,
    "owner": "zarr-python",
}
NUMBERS = {
    "id": "fill-numbers-as-strings-accepted",
    "issue": "https://github.com/zarr-developers/zarr-python/issues/3356",
    "reason": "numeric fill values are parsed leniently",
    "strict": True,
    "owner": "zarr-python",
}
CITATION = {
    "quote": "The value must be a JSON boolean (``false`` or ``true``).",
    "requirement": "V3-FILL-001",
    "section": "fill_value",
    "spec": "zarr-specs-v3.0/docs/v3/core/v3.0.rst",
}
CASES = {
    "v3/sharding/string-zstd": (
        "read",
        "extension",
        ["codec:sharding_indexed", "codec:vlen-utf8", "codec:zstd", "dtype:string"],
        ["V3-SHARD-001"],
    ),
    "v3/codecs/zstd-int32": (
        "read",
        "required",
        ["codec:bytes", "codec:zstd", "dtype:int32"],
        ["V3-BYTES-001"],
    ),
    "v3/fill/reject-bool-0": ("reject", "required", ["codec:bytes", "dtype:bool"], ["V3-FILL-001"]),
    "v3/fill/reject-int-string": (
        "reject",
        "required",
        ["codec:bytes", "dtype:int32"],
        ["V3-FILL-002"],
    ),
    "v3/groups/members": ("read", "required", ["node:group"], ["V3-GRP-001"]),
    "v3/names/reject-strict": ("reject", "strict", ["codec:bytes", "dtype:int32"], ["V3-ARR-001"]),
    "v3/dtypes/float16": ("read", "optional", ["codec:bytes", "dtype:float16"], ["V3-DT-001"]),
    "v3/write/int32": (
        "write",
        "required",
        ["codec:bytes", "dtype:int32", "op:write"],
        ["V3-ARR-001"],
    ),
    "v2/dtypes/int16": ("read", "required", ["dtype:int16"], ["V2-DTYPE-001"]),
}
IMPLS = ("reference", "zarr-python", "tensorstore", "zarrita-js")
# case -> impl -> (outcome, message, extra members)
SINGLE = {
    "v3/sharding/string-zstd": {
        "zarr-python": ("passed", "", {}),
        "tensorstore": ("unsupported", "unsupported: tensorstore lacks dtype:string", {}),
        "zarrita-js": ("wrong-data", "data: 3 of 4 elements differ", {}),
    },
    "v3/codecs/zstd-int32": {
        "tensorstore": (
            "type-changed",
            "values exact",
            {"types": {"expected": "int32", "observed": "int64"}},
        ),
    },
    "v3/fill/reject-bool-0": {
        "zarr-python": (
            "known-failure",
            "opened: fill_value 0 accepted as False",
            {"known_failure": FILL_BOOL},
        ),
    },
    "v3/fill/reject-int-string": {
        "zarr-python": (
            "known-failure",
            "opened: fill_value '1' accepted",
            {"known_failure": NUMBERS},
        ),
    },
    "v3/groups/members": {
        "zarr-python": (
            "failed",
            "members: got {'a': 'array'}\nexpected {'a': 'array', 'b': 'group'} <script>alert(1)</script>",
            {},
        ),
    },
    "v3/names/reject-strict": {"zarr-python": ("lenient", "opened a strict-invalid document", {})},
    "v3/dtypes/float16": {"zarr-python": ("declined", "refused cleanly: float16 is optional", {})},
    "v3/write/int32": {"zarrita-js": ("failed", "written keys differ: c/0 missing", {})},
    "v2/dtypes/int16": {
        "zarrita-js": ("errored", "crashed: TypeError in decode", {}),
        "tensorstore": ("unsupported", "unsupported: tensorstore lacks format:v2", {}),
    },
}
VERSION_ROW = "zarr-python@3.0.10"


def record(test, case, impl, outcome, message="", **extra) -> dict:
    _kind, tier, _needs, requirements = CASES[case]
    return {
        "schema": 2,
        "run_id": "20261128T083200Z-test",
        "test": test,
        "case": case,
        "impl": impl,
        "writer": extra.pop("writer", None),
        "reader": extra.pop("reader", None),
        "outcome": outcome,
        "message": message,
        "requirements": requirements,
        "tier": tier,
        "format": case.split("/")[0],
        "store": {"kind": extra.pop("store", "directory")},
        "versions": {
            impl: {
                "zarr" if "zarr-python" in impl else impl: impl.split("@")[1]
                if "@" in impl
                else "9.9"
            }
        },
        **extra,
    }


def records() -> list[dict]:
    out = []
    for case, (kind, *_rest) in CASES.items():
        for impl in IMPLS:
            outcome, message, extra = SINGLE.get(case, {}).get(impl, ("passed", "", {}))
            out.append(record(kind, case, impl, outcome, message, **extra))
    # the same known failure seen again over HTTP, and a crash seen on two store kinds: one case each
    out.append(
        record(
            "reject",
            "v3/fill/reject-bool-0",
            "zarr-python",
            "known-failure",
            "opened",
            store="http",
            known_failure=FILL_BOOL,
        )
    )
    out.append(
        record(
            "read", "v2/dtypes/int16", "zarrita-js", "errored", "crashed: TypeError", store="http"
        )
    )
    # who reads whose output
    writers = ("reference", "zarr-python", "tensorstore", "zarrita-js")
    for w in writers:
        for r in writers:
            test = "roundtrip" if w == r else "cross"
            blame = {"side": "reader", "evidence": "the reference reads what was written"}
            if (w, r) == ("tensorstore", "zarrita-js"):
                out.append(
                    record(
                        test,
                        "v3/write/int32",
                        "zarrita-js",
                        "wrong-data",
                        "data: 1 of 4 elements differ",
                        writer=w,
                        reader=r,
                        blame=blame,
                    )
                )
            elif w == "zarrita-js":
                out.append(
                    record(
                        test,
                        "v3/write/int32",
                        w,
                        "unsupported",
                        "unsupported: zarrita-js (writer) lacks op:write",
                        writer=w,
                        reader=r,
                        blame={"side": "writer", "evidence": "refused"},
                    )
                )
            else:
                out.append(
                    record(test, "v3/write/int32", r, "passed", writer=w, reader=r, blame=blame)
                )
    # a version row: its own single records, and a cross record that must stay out of interop
    for case, (kind, *_rest) in CASES.items():
        outcome = {
            "v3/sharding/string-zstd": "errored",
            "v3/fill/reject-bool-0": "known-failure",
        }.get(case, "passed")
        extra = {"known_failure": FILL_BOOL} if outcome == "known-failure" else {}
        out.append(
            record(
                kind,
                case,
                VERSION_ROW,
                outcome,
                "crashed: KeyError" if outcome == "errored" else "",
                **extra,
            )
        )
    out.append(
        record(
            "cross",
            "v3/write/int32",
            "tensorstore",
            "failed",
            "could not read",
            writer=VERSION_ROW,
            reader="tensorstore",
            blame={"side": "reader", "evidence": "x"},
        )
    )
    return out


def write_corpus(root: Path) -> Path:
    fixtures = root / "fixtures"
    for cid, (kind, tier, needs, requirements) in CASES.items():
        folder = fixtures / cid
        (folder / "store").mkdir(parents=True)
        (folder / "store" / "zarr.json").write_text("{}", "utf-8")
        doc = {
            "id": cid,
            "description": f"{cid.rsplit('/', 1)[1]} ({kind})",
            "kind": kind,
            "format": cid.split("/")[0],
            "tier": tier,
            "tier_reason": f"why {cid} is {tier}",
            "needs": [*needs, f"format:{cid.split('/')[0]}", "store:directory"],
            "requirements": requirements,
            "store": "store",
            "node": "",
            "expect": {"reason": "invalid-fill-value", "stage": "open"}
            if kind == "reject"
            else {"node_type": "array", "dtype": "<i4", "shape": [4]},
        }
        if cid == "v3/fill/reject-bool-0":
            doc["citation"] = [CITATION]
        (folder / "case.json").write_text(json.dumps(doc), "utf-8")
    (fixtures / "VERSION").write_text("9.1.0\n", "utf-8")
    (fixtures / "README.md").write_text("# The corpus\n\n## Tiers\n", "utf-8")
    (root / "adapters").symlink_to(CHECKOUT / "adapters")
    report = root / REPORT  # the real ready-to-file report, where the pages link to it
    report.parent.mkdir(parents=True)
    report.write_text((CHECKOUT / REPORT).read_text("utf-8"), "utf-8")
    return fixtures


def render(root: Path, **kwargs) -> Path:
    """The site for these records under root/repo/reports (root/repo stands for the checkout:
    links to fixture files resolve inside it)."""
    repo = root / "repo"
    fixtures = write_corpus(repo)
    results = root / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records()), "utf-8")
    (root / "results.meta.json").write_text(
        json.dumps(
            {
                "run_id": "20261128T083200Z-test",
                "date": "2026-11-28",
                "corpus_version": "9.1.0",
                "machine": {"cpu": "test", "cores": 2},
            }
        ),
        "utf-8",
    )
    out = repo / "reports"
    publish(results, out, fixtures, **kwargs)
    return out
