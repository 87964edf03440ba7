"""Writes the published report from a results file: reports/index.html, reports/README.md (the
headline tables in Markdown), reports/results.json (the counts behind them) and one shields.io
endpoint badge per implementation under reports/badges/."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from . import hostile as h
from . import matrices as m
from .html import render as render_html
from .sweep import markdown as sweep_markdown

# Absolute paths of the machine that ran (its checkout, scratch folders) say nothing to a reader and
# must not be published: they become paths relative to the checkout, or <scratch>.
_CHECKOUT_PATH = re.compile(r"/(?:[^\s\"'/\\]+/)*?((?:fixtures|adapters|reports|\.cache)/)")
_SCRATCH_PATH = re.compile(r"/(?:dev/shm|tmp)/[^\s\"'\\]+")
_HOME_PATH = re.compile(r"/(?:root|home/[^/\s]+)/[^\s\"'\\]+")  # interpreters, site-packages


def redact(text: str) -> str:
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


def case_details(fixtures: Path) -> dict[str, dict]:
    """What the drill-down shows of each case: description, tier, requirements, citation."""
    out = {}
    for path in sorted(fixtures.rglob("case.json")):
        if "store" in path.relative_to(fixtures).parts[:-1]:
            continue
        doc = json.loads(path.read_text("utf-8"))
        out[doc["id"]] = {
            k: doc[k]
            for k in ("description", "tier", "requirements", "citation", "adjudication")
            if k in doc
        }
    return out


def adapter_facts() -> tuple[dict[str, str], dict[str, str]]:
    """(descriptions, metadata parser) of every adapter on the search path."""
    from conformance.harness.config import all_adapters

    descriptions, parsers = {}, {}
    for config in all_adapters(strict=False):
        descriptions[config.name] = config.description
        parsers[config.name] = config.raw.get("parser", config.name)
    return descriptions, parsers


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


def headline_markdown(records: list[dict]) -> str:
    table = m.headline(records)
    formats = [f for f in m.FORMATS if any(f in table[n] for n in table)]
    lines = [
        "| implementation | wrong data | crashes | "
        + " | ".join(f"{f} required | {f} strict" for f in formats)
        + " |",
        "|---|---|---|" + "---|---|" * len(formats),
    ]
    for name in sorted(table):
        totals = m.Cell()
        for f in formats:
            for t in m.TIERS:
                totals.counts.update(table[name][f][t].counts)
        cells = []
        for f in formats:
            for t in ("required", "strict"):
                cell = table[name][f][t]
                cells.append("–" if not cell.total else f"{cell.passed}/{cell.total}")
        wrong, crashed = totals.counts["wrong-data"], totals.counts["errored"]
        lines.append(
            f"| {name} | {'**' + str(wrong) + '**' if wrong else 0} | {'**' + str(crashed) + '**' if crashed else 0} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def interop_markdown(records: list[dict], parsers: dict[str, str]) -> str:
    lines = []
    for fmt, grid in sorted(m.interop(records).items()):
        writers, readers = m.interop_participants(records, fmt)
        score, stores, members = m.interop_score(records, parsers, fmt)
        lines += [f"### {fmt}", ""]
        if score is not None:
            lines += [
                f"Interop score: {100 * score:.0f}% of {stores} valid stores are read exactly by every pair of "
                f"{', '.join(members)} (one implementation per metadata parser).",
                "",
            ]
        lines.append("| writer \\ reader | " + " | ".join(readers) + " |")
        lines.append("|---|" + "---|" * len(readers))
        for w in writers:
            cells = []
            for r in readers:
                cell = grid.get((w, r), m.Cell())
                text = "–" if not cell.total else f"{cell.passed}/{cell.total}"
                cells.append(f"({text})" if w == r else text)
            lines.append(f"| {w} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def badge(name: str, records: list[dict]) -> dict:
    """shields.io endpoint JSON: required-tier conformance, red on wrong data or crashes."""
    cell = m.Cell()
    for r in records:
        if r["impl"] == name and r["test"] in m.SINGLE_TESTS and r.get("tier") == "required":
            cell.add(r)
    share = cell.share()
    message = "no data" if share is None else f"{100 * share:.0f}% required"
    if cell.counts["wrong-data"]:
        color = "red"
        message += f", {cell.counts['wrong-data']} wrong data"
    elif share is not None and share >= 0.95:
        color = "brightgreen"
    elif share is not None and share >= 0.8:
        color = "yellow"
    else:
        color = "orange"
    return {
        "schemaVersion": 1,
        "label": f"zarr conformance: {name}",
        "message": message,
        "color": color,
    }


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


def publish(
    results: Path,
    out: Path,
    fixtures: Path,
    bench_html: str = "",
    ranges: dict | None = None,
    hostile: Path | None = None,
) -> list[Path]:
    """`hostile`: the records of `--kinds hostile,fault` (default: hostile.jsonl beside the
    results, if there); hostile and fault records in the results themselves are shown too."""
    ranges = redacted(ranges if ranges is not None else load_ranges(results))
    raw = m.load_records(results)
    meta = redacted(run_meta(results, raw, fixtures))
    written = publish_results(raw, meta, out / "latest")
    if ranges:
        written.append(out / "latest" / "ranges.json")
        written[-1].write_text(json.dumps(ranges, indent=1, sort_keys=True) + "\n", "utf-8")
    hostile = Path(hostile) if hostile is not None else h.default_file(results)
    extra, hostile_run = h.load(hostile) if hostile.is_file() else ([], None)
    if extra:
        hostile_run = redacted(hostile_run)
        written += publish_results(extra, hostile_run, out / "latest", "hostile")
    hostile_records = [dict(r, message=redact(r.get("message") or "")) for r in h.merge(raw, extra)]
    records = [dict(r, message=redact(r.get("message") or "")) for r in raw]
    descriptions, parsers = adapter_facts()
    meta.setdefault("descriptions", descriptions)
    details = case_details(fixtures)
    meta["cases"] = sum(not c.startswith("hostile/") for c in details)  # the conformance cases
    details.update(h.case_details(hostile_records, details))
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(
        render_html(
            records, meta, details, parsers, bench_html, ranges, hostile_records, hostile_run
        ),
        "utf-8",
    )
    written.append(page)
    readme = out / "README.md"
    sweep_md = sweep_markdown(records)
    readme.write_text(
        "# Zarr compatibility report\n\n"
        "Generated by `zarr-conformance report` from recorded results; do not edit by hand. "
        "The full page with drill-downs is `index.html`.\n\n"
        f"Run `{meta.get('run_id')}` on {meta.get('date')}, corpus {meta.get('corpus_version')}.\n\n"
        "## Conformance (cases passed / cases, per tier)\n\n" + headline_markdown(records) + "\n\n"
        "## Who reads whose output (cross tests; self round trips in brackets)\n\n"
        + interop_markdown(records, parsers)
        + "\n\n## Per store kind (passed / records of read, reject, write and zom tests)\n\n"
        "Directory cases run again over a loopback HTTP server (read, reject) and S3 server "
        "(read; write where the implementation writes to S3) for implementations declaring "
        "`store:http` / `store:s3`; the conformance table above counts each case once, on its "
        "own store.\n\n"
        + stores_markdown(records)
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
            + h.markdown(hostile_records, hostile_run)
            if hostile_records
            else ""
        )
        + (
            "\n## Version sweep (cases passed / run per tier; changes between versions)\n\n"
            + sweep_md
            if sweep_md
            else ""
        ),
        "utf-8",
    )
    written.append(readme)
    summary = {"meta": meta, "implementations": {}}
    for name, formats in m.headline(records).items():
        summary["implementations"][name] = {
            f: {t: dict(cell.counts) for t, cell in tiers.items()} for f, tiers in formats.items()
        }
    summary["interop"] = {
        fmt: {f"{w}->{r}": dict(cell.counts) for (w, r), cell in sorted(pairs.items())}
        for fmt, pairs in m.interop(records).items()
    }
    summary["store_kinds"] = {
        name: {kind: dict(cell.counts) for kind, cell in kinds.items()}
        for name, kinds in m.store_kinds(records).items()
    }
    if ranges:
        summary["ranges"] = ranges
    if hostile_records:
        summary["hostile"] = h.summary(hostile_records)
    (out / "results.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", "utf-8")
    written.append(out / "results.json")
    badges = out / "badges"
    badges.mkdir(exist_ok=True)
    for name in m.implementations(records):
        path = badges / f"{name}.json"
        path.write_text(json.dumps(badge(name, records), sort_keys=True) + "\n", "utf-8")
        written.append(path)
    return written
