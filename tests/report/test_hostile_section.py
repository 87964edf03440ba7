"""The report's "Hostile stores and faults" section, rendered from a small results file and a
hostile.jsonl beside it (what `./dev report` records): counts per implementation, the drill-down of
what did not pass (messages redacted), the note that these results do not gate, and the caps."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from conformance.report import cli
from conformance.report.publish import publish
from conformance.suite.test_hostile import HOSTILE_TIMEOUT

SCRATCH = "/tmp/pytest-of-someone/store/c/0"  # an absolute path the report must not publish


def record(test: str, case: str, impl: str, outcome: str, message: str = "", **extra) -> dict:
    tier = "hostile" if test in ("hostile", "fault") else "required"
    return {
        "test": test,
        "case": case,
        "impl": impl,
        "outcome": outcome,
        "message": message,
        "tier": tier,
        "format": "v3",
        "requirements": [],
        "store": {"kind": "directory"},
        "run_id": "main-run",
        **extra,
    }


MAIN = [
    record("read", "v3/codecs/a", "alpha", "passed"),
    record("read", "v3/codecs/a", "beta", "passed"),
    # a hostile record recorded with the matrix itself: shown as well
    record("hostile", "hostile/json-nan-token", "beta", "wrong-data", "returned a group"),
]
HOSTILE = [
    record("hostile", "hostile/json-nan-token", "alpha", "passed", "refused: invalid-json"),
    record(
        "hostile",
        "hostile/bomb-v3-zstd-1gib",
        "alpha",
        "errored",
        f"Crashed: MemoryError reading {SCRATCH}",
    ),
    record(
        "hostile",
        "hostile/path-node-dotdot",
        "alpha",
        "wrong-data",
        "returned data from outside the store",
    ),
    record("hostile", "hostile/special-fifo-chunk", "alpha", "unsupported", "no store:fifo"),
    record(
        "fault",
        "fault/http-500/v3/codecs/a",
        "alpha",
        "errored",
        "hung: killed after 40 s",
        store={"kind": "http"},
    ),
    record(
        "fault",
        "fault/directory-truncated-chunk/v3/codecs/a",
        "alpha",
        "passed",
        "refused: short chunk",
    ),
]


@pytest.fixture
def rendered(tmp_path):
    source = tmp_path / "latest"
    source.mkdir()
    (source / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in MAIN), "utf-8")
    (source / "hostile.jsonl").write_text("".join(json.dumps(r) + "\n" for r in HOSTILE), "utf-8")
    (source / "hostile.meta.json").write_text(
        json.dumps({"run_id": "hostile-run", "date": "2026-11-23"}), "utf-8"
    )
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    out = tmp_path / "out"
    publish(source / "results.jsonl", out, fixtures)
    return out


def section(text: str, start: str, end: str) -> str:
    assert start in text, f"no {start!r} in the report"
    body = text.split(start, 1)[1]
    return body.split(end, 1)[0] if end in body else body


def test_markdown_counts_per_implementation(rendered):
    readme = (rendered / "README.md").read_text("utf-8")
    part = section(readme, "## Hostile stores and faults", "\n## ")
    assert "do not gate" in part
    assert f"{HOSTILE_TIMEOUT:g} s per hostile read" in part and "--adapter-memory" in part
    assert "Run `hostile-run` on 2026-11-23" in part
    # hostile stores, faults, passed, errored, wrong data, failed, unsupported
    assert "| alpha | 1/4 | 1/2 | 2 | **2** | **1** | 0 | 1 |" in part
    assert "| beta | 0/1 | – | 0 | 0 | **1** | 0 | 0 |" in part
    alpha = section(part, "### alpha: not passed", "###")
    listed = [line for line in alpha.splitlines() if line.startswith("- ")]
    assert listed == [
        "- wrong-data: `hostile/path-node-dotdot` (hostile): returned data from outside the store",
        "- errored: `fault/http-500/v3/codecs/a` (fault): hung: killed after 40 s",
        "- errored: `hostile/bomb-v3-zstd-1gib` (hostile): Crashed: MemoryError reading <scratch>",
    ]


def test_results_json_counts(rendered):
    summary = json.loads((rendered / "results.json").read_text("utf-8"))
    alpha = summary["hostile"]["alpha"]
    assert alpha["all"] == {"passed": 2, "errored": 2, "wrong-data": 1, "unsupported": 1}
    assert alpha["fault"] == {"passed": 1, "errored": 1}
    assert summary["hostile"]["beta"]["all"] == {"wrong-data": 1}
    # not counted as conformance: the figures hold the read record only
    assert summary["implementations"]["alpha"]["outcomes"] == {
        "v3": {"required": {"read": {"passed": 1}}}
    }
    assert summary["implementations"]["beta"]["scores"]["wrong_data"] == {"cases": 0, "known": 0}


def test_hostile_page_and_case_pages(rendered):
    page = (rendered / "hostile.html").read_text("utf-8")
    assert "do not gate" in page and "--adapter-memory" in page
    row = re.search(
        r'<tr><th scope="row"><a href="impl/alpha.html">alpha</a></th>(.*?)</tr>', page
    ).group(1)
    # hostile stores, faults, then errored, wrong data, failed, unsupported
    assert re.findall(r">([^<>]+)</td>", row) == ["1/4", "1/2", "2", "1", "0", "1"]
    listed = page.split('id="hostile-alpha"', 1)[1].split("</details>", 1)[0]
    assert re.findall(r'<a href="case/([^"]+)\.html"', listed) == [
        "hostile/path-node-dotdot",
        "fault/http-500/v3/codecs/a",
        "hostile/bomb-v3-zstd-1gib",
    ]
    assert "Crashed: MemoryError reading &lt;scratch&gt;" in listed and "/tmp/" not in page
    # a fault case has no case.json: its page still says what the fault was
    fault = (rendered / "case" / "fault" / "http-500" / "v3" / "codecs" / "a.html").read_text(
        "utf-8"
    )
    assert "the chunk&#x27;s GET answers 500" in fault and "hung: killed after 40 s" in fault
    # and hostile records are not in any conformance figure
    index = (rendered / "index.html").read_text("utf-8")
    assert 'href="impl/beta.html?outcome=wrong-data#misses"' not in index


def test_published_beside_the_report_redacted(rendered):
    published = (rendered / "latest" / "hostile.jsonl").read_text("utf-8")
    assert len(published.splitlines()) == len(HOSTILE) and SCRATCH not in published
    assert json.loads((rendered / "latest" / "hostile.meta.json").read_text())["run_id"] == (
        "hostile-run"
    )


def test_no_section_without_hostile_records(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in MAIN[:2]), "utf-8")
    publish(results, tmp_path / "out", tmp_path)
    assert "## Hostile stores" not in (tmp_path / "out" / "README.md").read_text("utf-8")
    assert "No hostile or fault records" in (tmp_path / "out" / "hostile.html").read_text("utf-8")


def test_cli_hostile_option(tmp_path, capsys):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in MAIN[:2]), "utf-8")
    elsewhere = tmp_path / "runs" / "h.jsonl"
    elsewhere.parent.mkdir()
    elsewhere.write_text("".join(json.dumps(r) + "\n" for r in HOSTILE), "utf-8")
    args = SimpleNamespace(
        compare=None,
        results=str(results),
        out=str(tmp_path / "out"),
        fixtures=str(tmp_path),
        bench=str(tmp_path / "none.json"),
        hostile=str(elsewhere),
    )
    assert cli.report_command(args) == 0
    assert "| alpha | 1/4 | 1/2 |" in (tmp_path / "out" / "README.md").read_text("utf-8")
    assert cli.report_command(SimpleNamespace(**{**vars(args), "hostile": "missing.jsonl"})) == 2
