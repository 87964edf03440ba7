"""Writes the published report from a results file: the site (conformance/report/site/: index.html
and its pages, the JSON API under api/v1/), README.md (the headline figures in Markdown),
results.json (the figures and counts behind them, with their definitions) and per implementation a
shields.io endpoint badge and a static SVG badge under badges/. Every figure comes from
conformance/report/scores.py, so page, badge, README.md and results.json agree."""

from __future__ import annotations

import functools
import json
import re
import time
from pathlib import Path

from . import hostile as h
from . import matrices as m
from . import scores as s
from . import verdicts as v
from .sweep import markdown as sweep_markdown

# Absolute paths of the machine that ran (its checkout, scratch folders) say nothing to a reader and
# must not be published: they become paths relative to the checkout, or <scratch>.
# At least one folder before fixtures/...: a path made relative already stays as it is (redacting
# twice changes nothing).
_CHECKOUT_PATH = re.compile(r"/(?:[^\s\"'/\\]+/)+?((?:fixtures|adapters|reports|\.cache)/)")
_SCRATCH_PATH = re.compile(r"/(?:dev/shm|tmp)/[^\s\"'\\]+")
_HOME_PATH = re.compile(r"/(?:root|home/[^/\s]+)/[^\s\"'\\]+")  # interpreters, site-packages


@functools.cache
def _machine_prefixes() -> tuple[tuple[str, str], ...]:
    """This machine's adapter cache (wherever ZARR_CONFORMANCE_CACHE puts it) and checkout."""
    from conformance.harness.envs import cache_root
    from conformance.resources import REPO_ROOT

    return ((f"{cache_root()}/", "<cache>/"), (f"{REPO_ROOT}/", ""))


def redact(text: str) -> str:
    for prefix, replacement in _machine_prefixes():
        text = text.replace(prefix, replacement)
    return _HOME_PATH.sub("<home>", _SCRATCH_PATH.sub("<scratch>", _CHECKOUT_PATH.sub(r"\1", text)))


def redacted(value):
    """A JSON value with every string redacted."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: redacted(v) for k, v in value.items()}
    return value


def adapter_facts() -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, str]]]:
    """(descriptions, metadata parser, current release not tested: adapter.toml `current`) of
    every adapter on the search path."""
    from conformance.harness.config import all_adapters

    descriptions, parsers, current = {}, {}, {}
    for config in all_adapters(strict=False):
        descriptions[config.name] = config.description
        parsers[config.name] = config.raw.get("parser", config.name)
        if "current" in config.raw:
            current[config.name] = dict(config.raw["current"])
    return descriptions, parsers, current


def run_meta(results: Path, records: list[dict], fixtures: Path) -> dict:
    """The run's own facts (written beside the results by the run), else what can be said now."""
    side = results.with_suffix(".meta.json")
    meta = json.loads(side.read_text("utf-8")) if side.is_file() else {}
    if "machine" not in meta:
        from conformance.bench.machine import machine_facts

        meta["machine"] = machine_facts()
    meta.setdefault("run_id", records[0].get("run_id", "?") if records else "?")
    meta.setdefault("date", time.strftime("%Y-%m-%d", time.gmtime(results.stat().st_mtime)))
    version_file = fixtures / "VERSION"
    meta.setdefault(
        "corpus_version",
        version_file.read_text().strip() if version_file.is_file() else "unversioned",
    )
    return meta


def publish_results(
    records: list[dict], meta: dict | None, folder: Path, name: str = "results"
) -> list[Path]:
    """The results the report was rendered from, redacted, beside it (`latest/results.jsonl` and
    its `.meta.json`; `latest/hostile.jsonl` likewise): anyone can re-render or --compare against
    the published run, and tests/report/test_published.py checks that the committed pages are
    exactly what they render."""
    folder.mkdir(parents=True, exist_ok=True)
    jsonl, side = folder / f"{name}.jsonl", folder / f"{name}.meta.json"
    lines = (json.dumps(redacted(r), sort_keys=True, ensure_ascii=False) + "\n" for r in records)
    jsonl.write_text("".join(lines), "utf-8")
    if meta is None:
        return [jsonl]
    side.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", "utf-8")
    return [jsonl, side]


def stores_markdown(records: list[dict]) -> str:
    table = m.store_kinds(records)
    kinds = m.kinds_present(records)
    lines = [
        "| implementation | " + " | ".join(kinds) + " |",
        "|---|" + "---|" * len(kinds),
    ]
    for name in sorted(table):
        cells = []
        for kind in kinds:
            cell = table[name][kind]
            if not cell.total:
                cells.append("–")
                continue
            bad = ", ".join(f"{cell.counts[o]} {o}" for o in m.WORST_FIRST[:-1] if cell.counts[o])
            cells.append(f"{cell.passed}/{cell.total}" + (f" ({bad})" if bad else ""))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ranges_markdown(ranges: dict) -> str:
    lines = [
        "| implementation | bytes fetched | bytes needed | ratio | GET requests (ranged) |",
        "|---|---|---|---|---|",
    ]
    for name, r in sorted((ranges.get("adapters") or {}).items()):
        if r.get("status") == "measured":
            lines.append(
                f"| {name} | {r['bytes_fetched']} | {r['bytes_needed']} | {r['ratio']:.2f} | "
                f"{r['requests']} ({r['ranged_requests']}) |"
            )
        else:
            message = (r.get("message") or "").replace("|", "/")[:120]
            lines.append(f"| {name} | {r.get('status')}: {message} | | | |")
    return "\n".join(lines)


def load_ranges(results: Path) -> dict | None:
    """The range-request measurement beside the results (conformance.bench.ranges), if any."""
    path = Path(results).with_name("ranges.json")
    return json.loads(path.read_text("utf-8")) if path.is_file() else None


def column_versions(records: list[dict]) -> dict[str, str]:
    """column -> the version of the implementation it tested: its main package's version as the
    records report it (sweep.columns), else the version its adapter reported under its own name."""
    from .sweep import columns

    found = {c.name: c.version for c in columns(records)}
    for name, versions in m.versions(records).items():
        if name not in found and isinstance(versions, dict):
            own = versions.get(name) or versions.get(v.base_name(name))
            if own:
                found[name] = str(own)
    return found


def conformance_markdown(site) -> str:
    lines = [
        "| implementation | version | read (required) | write (required) | reject (required) "
        "| silent wrong data | crashes | formats |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in site.names:
        sc = site.scores[name]
        shares = [
            f"{s.percent(x.passed, x.total)} ({x.passed}/{x.total})" if x.total else "–"
            for x in (sc.read, sc.write, sc.reject)
        ]
        wrong = f"**{sc.wrong_data.n}**" if sc.wrong_data.n else "0"
        if sc.wrong_data.known:
            wrong += f" ({sc.wrong_data.known} known)"
        crashed = f"**{sc.crashes.n}**" if sc.crashes.n else "0"
        formats = sorted({f for t in s.CONFORMANCE_TESTS for f in getattr(sc, t).formats})
        lines.append(
            f"| {name} | {site.versions.get(name, '') or '–'} | "
            + " | ".join(shares)
            + f" | {wrong} | {crashed} | {', '.join(formats) or '–'} |"
        )
    return "\n".join(lines)


def interop_markdown(site) -> str:
    lines = []
    for fmt in site.formats:
        grid = s.grid(site.records, fmt)
        if not grid:
            continue
        score = s.interop(site.records, fmt, site.parsers)
        writers, readers = s.grid_axes(grid, site.names)
        lines += [f"### {fmt}", ""]
        if score.share is not None:
            lines += [
                f"Interop score: {s.percent(score.passed, score.attempts)} ({score.passed} of "
                f"{score.attempts} attempts) among {', '.join(score.members)}; not attempted: "
                f"{score.cannot_write} cannot write, {score.cannot_read} cannot read.",
                "",
            ]
        lines.append("| writer \\ reader | " + " | ".join(readers) + " |")
        lines.append("|---|" + "---|" * len(readers))
        for w in writers:
            cells = []
            for r in readers:
                cell = grid.get((w, r), {})
                attempts = sum(n for k, n in cell.items() if not k.startswith("cannot"))
                text = f"{cell.get('passed', 0)}/{attempts}" if attempts else "–"
                extra = [f"{cell[k]} {k}" for k in ("cannot-write", "cannot-read") if cell.get(k)]
                text += f" ({', '.join(extra)})" if extra else ""
                cells.append(f"self {text}" if w == r else text)
            lines.append(f"| {w} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def definitions_markdown() -> str:
    return "\n".join(
        f"- **{key.replace('_', ' ')}**: {text}" for key, text in s.DEFINITIONS.items()
    )


def summary_json(site, ranges: dict | None, hostile_records: list[dict]) -> dict:
    """results.json: the figures of every column (scores.py), the outcome counts behind them, the
    interop grids and scores, store kinds, requirements, and the definitions of all of them."""
    from .site.requirements import summary as requirements_summary

    out: dict = {
        "schema": "zarr-conformance-results/2",
        "meta": site.meta,
        "definitions": s.DEFINITIONS,
        "scopes": s.SCOPE,
        "outcomes": v.OUTCOMES,
        "implementations": {},
    }
    for name in site.names:
        counts: dict = {}
        for r in site.by_impl.get(name, []):
            if r["test"] in v.SINGLE_TESTS and v.own_store(r) and r.get("tier"):
                at = counts.setdefault(r.get("format") or "?", {}).setdefault(r["tier"], {})
                at.setdefault(r["test"], {}).setdefault(r["outcome"], 0)
                at[r["test"]][r["outcome"]] += 1
        out["implementations"][name] = {
            "version": site.versions.get(name, ""),
            "scores": site.scores[name].as_json(),
            "outcomes": counts,
        }
    out["interop"] = {}
    for fmt in site.formats:
        grid = s.grid(site.records, fmt)
        if grid:
            out["interop"][fmt] = {
                "score": s.interop(site.records, fmt, site.parsers).as_json(),
                "pairs": {f"{w}->{r}": cell for (w, r), cell in grid.items()},
            }
    out["store_kinds"] = {
        name: {kind: dict(cell.counts) for kind, cell in kinds.items()}
        for name, kinds in m.store_kinds(site.records).items()
    }
    out["requirements"] = requirements_summary(site)
    if ranges:
        out["ranges"] = ranges
    if hostile_records:
        out["hostile"] = h.summary(hostile_records)
    return out


def readme(site, ranges: dict | None, hostile_records: list[dict]) -> str:
    meta = site.meta
    return (
        "# Zarr compatibility report\n\n"
        "Generated by `zarr-conformance report` from recorded results; do not edit by hand. "
        "The site (`index.html`, a page per implementation, case, feature and requirement) has "
        "every figure's evidence; `results.json` and `api/v1/` have them as JSON.\n\n"
        f"Run `{meta.get('run_id')}` on {meta.get('date')}, corpus {meta.get('corpus_version')}.\n\n"
        "## Conformance\n\n" + conformance_markdown(site) + "\n\n"
        "Counts: read, write and reject: "
        + s.SCOPE["read"].split(" · ", 1)[0]
        + ", each case once on its own store; silent wrong data and crashes: "
        + s.SCOPE["wrong_data"]
        + ". Version rows (name@version) run an older release with the current release's known "
        "failures.\n\n"
        "## Who reads whose output (cross tests; the diagonal is a self round trip)\n\n"
        "Cells: read back exactly / attempts; cases the writer cannot write and the reader cannot "
        "read are counted apart, not as attempts.\n\n"
        + interop_markdown(site)
        + "\n## Per store kind (passed / records of read, reject, write and zom tests)\n\n"
        "Directory cases run again over a loopback HTTP server (read, reject) and S3 server "
        "(read; write where the implementation writes to S3) for implementations declaring "
        "`store:http` / `store:s3`; the conformance table above counts each case once, on its "
        "own store.\n\n"
        + stores_markdown(site.records)
        + "\n"
        + (
            "\n## Range requests: one inner chunk of a sharded array over HTTP\n\n"
            + ranges_markdown(ranges)
            + "\n"
            if ranges
            else ""
        )
        + (
            "\n## Hostile stores and faults (passed / records; not gating)\n\n"
            + h.markdown(hostile_records, site.hostile_run)
            if hostile_records
            else ""
        )
        + (
            "\n## Version sweep (cases whose outcome changed between versions)\n\n" + sweep_md
            if (sweep_md := sweep_markdown(site.records))
            else ""
        )
        + "\n## Definitions\n\n"
        + definitions_markdown()
        + "\n"
    )


def load_site(
    results: Path,
    fixtures: Path,
    bench: dict | None = None,
    ranges: dict | None = None,
    hostile: Path | None = None,
    repo_url: str = "../",
    site_url: str | None = None,
):
    """Everything the report is rendered from (site.context.Site), redacted: the records, the
    run's facts, the corpus's cases, the catalogue, the adapters' descriptions; and the raw records
    and hostile run that `publish` republishes beside it."""
    from conformance.corpus.requirements import load_requirements

    from .site.context import Site, load_cases

    ranges = redacted(ranges if ranges is not None else load_ranges(results))
    raw = m.load_records(results)
    meta = redacted(run_meta(results, raw, fixtures))
    hostile = Path(hostile) if hostile is not None else h.default_file(results)
    extra, hostile_run = h.load(hostile) if hostile.is_file() else ([], None)
    hostile_run = redacted(hostile_run)
    hostile_records = [dict(r, message=redact(r.get("message") or "")) for r in h.merge(raw, extra)]
    records = [
        dict(r, message=redact(r.get("message") or ""))
        for r in raw
        if not h.is_hostile(r) and r.get("tier") != "hostile"
    ]
    descriptions, parsers, current = adapter_facts()
    cases = load_cases(fixtures)
    meta["cases"] = sum(not c.startswith("hostile/") for c in cases)  # the conformance cases
    cases.update(h.case_details(hostile_records, cases))  # fault cases: no case.json of their own
    site = Site(
        records=records,
        meta=meta,
        cases=cases,
        requirements=load_requirements(),
        descriptions=descriptions,
        current=current,
        parsers=parsers,
        versions=column_versions(raw),
        hostile=hostile_records,
        hostile_run=hostile_run,
        bench=redacted(bench) if bench else None,
        ranges=ranges,
        repo_url=repo_url,
        site_url=site_url,
    )
    return site, raw, extra


# What a gate run (`./dev test`: no probes, 25 property examples per pair, failures not shrunk)
# and the report's full run both record the same way: results.json's "gate" figures cover these,
# so that a gate run can check the published report (tests/report/test_published.py).
GATE_SCOPE = (
    "records a gate run (./dev test) and the report's run share: no property tests (the report "
    "draws more examples), no probes of undeclared capabilities and no unsupported records"
)


def in_gate_scope(record: dict) -> bool:
    return (
        record.get("test") != "property"
        and not record.get("probe")
        and record.get("outcome") != "unsupported"
    )


def figures(records: list[dict], fixtures: Path) -> dict:
    """results.json's implementation figures and interop grids for these records alone."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
        site, _, _ = load_site(path, fixtures, hostile=Path(tmp) / "none.jsonl")
        summary = json.loads(json.dumps(summary_json(site, None, []), sort_keys=True))
    return {"implementations": summary["implementations"], "interop": summary.get("interop", {})}


def gate_figures(records: list[dict], fixtures: Path) -> dict:
    return {"scope": GATE_SCOPE, **figures([r for r in records if in_gate_scope(r)], fixtures)}


def publish(
    results: Path,
    out: Path,
    fixtures: Path,
    bench: dict | None = None,
    ranges: dict | None = None,
    hostile: Path | None = None,
    repo_url: str = "../",
    site_url: str | None = None,
) -> list[Path]:
    """Render the site, README.md, results.json and badges into `out` from the results file, and
    republish the results beside it (`latest/`). `hostile`: the records of `--kinds hostile,fault`
    (default: hostile.jsonl beside the results, if there); hostile and fault records in the
    results themselves are shown too. `repo_url`: where the repository's files (fixtures/,
    adapters/, reports/upstream/) are, from `out`."""
    from .site import render as render_site

    site, raw, extra = load_site(results, fixtures, bench, ranges, hostile, repo_url, site_url)
    written = publish_results(raw, site.meta, out / "latest")
    if site.ranges:
        written.append(out / "latest" / "ranges.json")
        written[-1].write_text(json.dumps(site.ranges, indent=1, sort_keys=True) + "\n", "utf-8")
    if extra:
        written += publish_results(extra, site.hostile_run, out / "latest", "hostile")
    out.mkdir(parents=True, exist_ok=True)
    written += render_site(site, out)
    (out / "README.md").write_text(readme(site, site.ranges, site.hostile), "utf-8")
    written.append(out / "README.md")
    summary = summary_json(site, site.ranges, site.hostile)
    summary["gate"] = gate_figures(raw, fixtures)
    (out / "results.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", "utf-8")
    written.append(out / "results.json")
    (out / "badges").mkdir(exist_ok=True)
    for name in site.names:
        path = out / "badges" / f"{name}.json"
        path.write_text(
            json.dumps(s.badge(name, site.scores[name]), sort_keys=True) + "\n", "utf-8"
        )
        written.append(path)
    return written
