"""The site without a browser: every figure follows its one definition and agrees across page,
badge, README.md and results.json; every link resolves; pages stay within their weight; the site
is byte-reproducible; text from records and specs is escaped or rendered, never injected."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import report_data

from conformance.report import scores as s
from conformance.report import verdicts as v
from conformance.report.site.text import inline, spec_url

KB = 1000


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return report_data.render(tmp_path_factory.mktemp("site"))


def summary(site: Path) -> dict:
    return json.loads((site / "results.json").read_text("utf-8"))


# ---- the definitions ------------------------------------------------------------------------------


def figures() -> dict[str, s.Scores]:
    return {n: s.scores(rs) for n, rs in s.by_implementation(report_data.records()).items()}


def test_conformance_counts_required_cases_of_the_formats_it_reads():
    f = figures()
    # zarr-python: v3 zstd passed, v3 group failed (the extension case does not count), v2 passed
    assert (f["zarr-python"].read.passed, f["zarr-python"].read.total) == (2, 3)
    assert (f["zarr-python"].reject.passed, f["zarr-python"].reject.total) == (0, 2)  # not strict
    # tensorstore refuses all of v2 as unsupported: v2 is not a format it reads, so not counted;
    # a value-exact type change is not a pass
    assert f["tensorstore"].read.formats == {"v3": [1, 2]}


def test_wrong_data_and_crashes_are_distinct_cases_under_the_side_at_fault():
    f = figures()
    # zarrita-js: its own wrong read, and the store tensorstore wrote that zarrita-js misread
    assert f["zarrita-js"].wrong_data.cases == ["v3/sharding/string-zstd", "v3/write/int32"]
    assert f["tensorstore"].wrong_data.n == 0  # the writer is not blamed for the reader's fault
    assert f["tensorstore"].read.total and "type-changed" not in f["tensorstore"].wrong_data.cases
    # a crash on the directory store and again over HTTP is one case
    assert f["zarrita-js"].crashes.cases == ["v2/dtypes/int16"]
    # a known failure seen on two store kinds is one case too, counted under its owner
    assert f["zarr-python"].wrong_data.n == 0


def test_a_passed_pair_counts_for_both_sides_a_failed_one_for_the_blamed_side_only():
    rec = {"test": "cross", "writer": "a", "reader": "b", "impl": "b", "outcome": "passed"}
    assert v.counted_for(rec) == ("a", "b")
    assert v.counted_for(dict(rec, outcome="wrong-data", blame={"side": "writer"}, impl="a")) == (
        "a",
    )
    # a pair skipped because a side lacks a capability is that side's (its record's impl)
    lacking = dict(rec, outcome="unsupported", impl="a", blame={"side": "writer"})
    assert v.counted_for(lacking) == ("a",)


def test_interop_leaves_out_version_rows_the_reference_and_refusals():
    score = s.interop(report_data.records(), "v3", {})
    assert score.members == ["tensorstore", "zarr-python"]  # zarrita-js writes nothing
    assert (score.passed, score.attempts) == (2, 2)
    grid = s.grid(report_data.records(), "v3")
    assert not any(report_data.VERSION_ROW in pair for pair in grid)
    assert grid[("zarrita-js", "zarr-python")] == {"cannot-write": 1}
    assert grid[("tensorstore", "zarrita-js")] == {"wrong-data": 1}


def test_badge_page_readme_and_results_json_show_the_same_figures(site):
    published = summary(site)["implementations"]
    front = (site / "index.html").read_text("utf-8")
    readme = (site / "README.md").read_text("utf-8")
    for name, figures_ in published.items():
        read = figures_["scores"]["read"]
        if not read["total"]:
            continue
        shown = s.percent(read["passed"], read["total"])
        badge = json.loads((site / "badges" / f"{name}.json").read_text("utf-8"))
        assert f"read {shown}" in badge["message"], (name, badge)
        assert f"{shown} ({read['passed']}/{read['total']})" in readme, name
        assert (
            f'<strong>{shown}</strong><span class="small"> {read["passed"]}/{read["total"]}</span>'
            in front
        ), name
    assert summary(site)["definitions"] == s.DEFINITIONS
    for text in s.DEFINITIONS.values():
        assert text in readme


def test_percent_never_rounds_to_all_or_nothing():
    assert s.percent(999, 1000) == ">99%" and s.percent(1, 1000) == "<1%" and s.percent(0, 0) == "–"


# ---- pages ----------------------------------------------------------------------------------------


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(a[key])


def parsed(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text("utf-8"))
    return p


def test_every_link_resolves_to_a_file_and_an_anchor(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    cache: dict[Path, Links] = {}
    broken = []
    for page in pages:
        for href in parsed(page).links:
            url = urlsplit(href)
            if url.scheme in ("http", "https"):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            if not target.exists():
                broken.append(f"{page.relative_to(site)}: {href}")
                continue
            if url.fragment and target.suffix == ".html":
                ids = cache.setdefault(target, parsed(target)).ids
                if unquote(url.fragment) not in ids:
                    broken.append(f"{page.relative_to(site)}: {href} (no such id)")
    assert not broken, "\n".join(broken[:30])


def test_a_broken_link_is_caught(tmp_path):
    """The check above is not vacuous."""
    (tmp_path / "a.html").write_text('<a href="b.html#x">b</a><a href="missing.html">m</a>')
    (tmp_path / "b.html").write_text('<p id="y">')
    links = parsed(tmp_path / "a.html").links
    assert not (tmp_path / links[1]).exists() and "x" not in parsed(tmp_path / "b.html").ids


def test_page_weights(site):
    assert (site / "index.html").stat().st_size < 500 * KB
    heavy = [p for p in site.rglob("*.html") if p.stat().st_size > 2000 * KB]
    assert not heavy


def test_record_text_is_escaped_everywhere(site):
    for page in site.rglob("*.html"):
        text = page.read_text("utf-8")
        assert "<script>alert(1)</script>" not in text, page
    case = (site / "case" / "v3" / "groups" / "members.html").read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in case


def test_spec_quotes_rendered_and_linked(site):
    case = (site / "case" / "v3" / "fill" / "reject-bool-0.html").read_text("utf-8")
    assert "<code>false</code> or <code>true</code>" in case and "``" not in case
    assert (
        'href="https://github.com/zarr-developers/zarr-specs/blob/52610ba/docs/v3/core/v3.0.rst#fill-value"'
        in case
    )
    assert "why v3/fill/reject-bool-0 is required" in case  # the tier and why


def test_inline_markup():
    assert inline("a ``b<c>`` and `d <https://x.org/>`_, :ref:`e <f>` **g** *h*") == (
        'a <code>b&lt;c&gt;</code> and <a href="https://x.org/">d</a>, e <strong>g</strong> <em>h</em>'
    )
    assert inline("`x` and [y](https://y.org) _z_", markdown=True) == (
        '<code>x</code> and <a href="https://y.org">y</a> <em>z</em>'
    )
    assert inline("see `Array metadata`_ and `NaT`") == "see Array metadata and <code>NaT</code>"
    assert spec_url("zarr-extensions/codecs/zstd/README.md", "Configuration parameters") == (
        "https://github.com/zarr-developers/zarr-extensions/blob/4da7b37/codecs/zstd/README.md#configuration-parameters"
    )
    assert spec_url("../seeds/000_19436ea021b9e529.txt", "x") is None


def test_no_path_of_this_machine_in_the_site(site):
    home = re.compile(r"(?<![\w.-])" + re.escape(str(Path.home()) + "/"))  # not "meta/root/"
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".json", ".js", ".md"):
            text = path.read_text("utf-8")
            assert str(site.parent) not in text and "/tmp/" not in text, path
            assert not home.search(text), path


def test_site_is_byte_reproducible(tmp_path):
    """Two renders in processes with different hash seeds write identical files."""
    trees = []
    for seed in ("1", "2"):
        root = tmp_path / seed
        root.mkdir()
        code = "import sys, report_data; from pathlib import Path; report_data.render(Path(sys.argv[1]))"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run(
            [sys.executable, "-c", code, str(root)], cwd=Path(__file__).parent, env=env, check=True
        )
        out = root / "repo" / "reports"
        trees.append(
            {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        )
    assert trees[0].keys() == trees[1].keys()
    differ = [str(k) for k in trees[0] if trees[0][k] != trees[1][k]]
    assert not differ, differ[:10]


def test_api_is_versioned_and_complete(site):
    index = json.loads((site / "api" / "v1" / "index.json").read_text("utf-8"))
    assert index["api"] == 1 and index["definitions"] == s.DEFINITIONS
    zp = json.loads((site / index["implementations"]["zarr-python"]["api"]).read_text("utf-8"))
    rows = [dict(zip(zp["fields"], r)) for r in zp["records"]]
    assert {r["known_failure"] for r in rows if r["known_failure"]} == {
        "zarr-python/fill-bool-accepts-any-json-value",
        "zarr-python/fill-numbers-as-strings-accepted",
    }
    assert zp["scores"] == summary(site)["implementations"]["zarr-python"]["scores"]
    case = json.loads((site / index["cases"]["v3/write/int32"]["api"]).read_text("utf-8"))
    assert len(case["records"]) == len(
        [r for r in report_data.records() if r["case"] == "v3/write/int32"]
    )


def test_scores_follow_their_definitions_on_every_page(site):
    """The impl page says the same as the front page."""
    page = (site / "impl" / "zarrita-js.html").read_text("utf-8")
    assert re.search(r"Silent wrong data: 2 case\(s\)", page)
    assert "Crashes: 1 case(s)" in page


def test_every_figure_has_a_permalink(site):
    ids = parsed(site / "index.html").ids
    for name in ("zarr-python", "zarrita-js", "tensorstore"):
        assert {f"{name}--{k}" for k in ("read", "write", "reject", "wrong-data", "crashes")} <= ids
    assert "V3-FILL-001--zarr-python" in parsed(site / "requirements.html").ids
    assert "dtype_3astring--zarr-python--read" in parsed(site / "features" / "v3.html").ids
    assert "v3--tensorstore--zarrita-js" in parsed(site / "interop.html").ids
    assert (
        "zarr-python--reject--http"
        in parsed(site / "case" / "v3" / "fill" / "reject-bool-0.html").ids
    )


def test_a_column_that_cannot_test_the_current_release_says_so():
    from types import SimpleNamespace

    from conformance.report.publish import adapter_facts
    from conformance.report.site import front

    current = adapter_facts()[2]
    assert current["gdal-debian"]["release"] == "3.13.3"  # adapters/gdal-debian/adapter.toml
    site = SimpleNamespace(current=current)
    shown = str(front._behind(site, "gdal-debian"))
    assert "not current (current: 3.13.3)" in shown and "cannot be tested here" in shown
    assert front._behind(site, "zarr-python") == ""
