"""The site in a real browser (Debian's chromium through playwright), doing what its three readers
come for, at a laptop's and a phone's width, with and without JavaScript; checked by axe-core
(no serious or critical accessibility violation) and by the Nu HTML Checker (valid HTML)."""

from __future__ import annotations

from pathlib import Path

import pytest
import report_data
from report_browser import LAUNCH_ARGS, axe_script, ensure_chromium, node_tools, validate_html

sync_api = pytest.importorskip("playwright.sync_api")

PAGES = (
    "index.html",
    "impl/zarr-python.html",
    "case/v3/fill/reject-bool-0.html",
    "case/v3/write/int32.html",
    "cases/v3.html",
    "features/v3.html",
    "feature/v3/dtype/string.html",
    "requirements.html",
    "interop.html",
    "hostile.html",
    "about.html",
    "search.html?q=zstd",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return report_data.render(tmp_path_factory.mktemp("browser"))


@pytest.fixture(scope="module")
def browser():
    executable = ensure_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    yield context.new_page()
    context.close()


def url(site: Path, path: str) -> str:
    return (site / path.split("?")[0]).as_uri() + (
        ("?" + path.split("?", 1)[1]) if "?" in path else ""
    )


def test_maintainer_finds_every_bug_on_one_page_and_a_reproducer(site, page, tmp_path):
    page.goto(url(site, "index.html"))
    page.get_by_role("link", name="zarr-python", exact=True).click()
    assert page.url.endswith("impl/zarr-python.html")
    bugs = page.locator("#bugs ~ section.bug")
    ids = sorted(bugs.locator("h3").all_inner_texts())
    assert ids == ["fill-bool-accepts-any-json-value", "fill-numbers-as-strings-accepted"]
    # each bug says where it is reported: the upstream issue, or the ready-to-file report
    numbers = page.locator("#kf-fill-numbers-as-strings-accepted")
    assert numbers.get_by_role("link", name="zarr-developers/zarr-python/issues/3356").count() == 1
    bool_ = page.locator("#kf-fill-bool-accepts-any-json-value")
    assert bool_.get_by_role("link", name=report_data.REPORT).count() == 1
    # the failure no entry explains is on the same page
    assert "v3/groups/members" in page.locator("#unexplained ~ div.scroll").first.inner_text()
    # the reproducer opens from the keyboard
    summary = bool_.locator("summary", has_text="reproducer")
    summary.focus()
    page.keyboard.press("Enter")
    code = bool_.locator("pre code")
    assert code.is_visible() and "import zarr" in code.inner_text()
    page.screenshot(path=str(tmp_path / "maintainer.png"), full_page=True)


def test_data_producer_finds_who_reads_a_sharded_zstd_string_array(site, page):
    page.goto(url(site, "features/v3.html"))
    for feature in ("dtype:string", "codec:zstd", "codec:sharding_indexed"):
        page.get_by_label(f"combine {feature}").check()
    answer = page.locator("#combo table")
    row = {
        r.locator("th").inner_text(): r.locator("td").first.inner_text()
        for r in answer.locator("tbody tr").all()
    }
    assert row["zarr-python"] == "✓ 1/1"
    assert row["zarrita-js"] == "✗ 0/1"
    assert row["tensorstore"] == "not tried"
    # the choice is in the address: the link reproduces the answer
    assert "need=dtype%3Astring" in page.url and "need=codec%3Azstd" in page.url
    page.goto(page.url)
    assert (
        page.locator("#combo table tbody tr", has_text="zarr-python")
        .locator("td")
        .first.inner_text()
        == "✓ 1/1"
    )


def test_spec_editor_finds_how_many_implementations_satisfy_a_requirement(site, page):
    page.goto(url(site, "case/v3/fill/reject-bool-0.html"))
    page.locator("#main").get_by_role("link", name="V3-FILL-001").first.click()
    assert page.url.endswith("requirements.html#V3-FILL-001")
    row = page.locator("tr#V3-FILL-001")
    assert row.is_visible() and row.locator("td.satisfied").inner_text() == "2 of 3"
    # the filter keeps its state in the address
    page.get_by_label("text or ID").fill("V3-FILL-001")
    assert "q=V3-FILL-001" in page.url
    assert page.locator("#requirements-table tbody tr:not([hidden])").count() == 1


def test_usable_at_a_phone_width(site, browser, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        for path in PAGES:
            page.goto(url(site, path))
            width = page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= 390, f"{path} is {width} px wide: a table does not scroll on its own"
        page.goto(url(site, "features/v3.html"))
        region = page.locator("div.scroll").last
        head = region.locator("thead th").nth(1)
        top = head.bounding_box()["y"]
        region.evaluate("e => { e.scrollTop = 120; e.scrollLeft = 200; }")
        assert abs(head.bounding_box()["y"] - top) < 2  # the header row stays
        first = region.locator("tbody th").nth(3)
        assert first.bounding_box()["x"] <= region.bounding_box()["x"] + 2  # the first column too
        page.screenshot(path=str(tmp_path / "features-390.png"))
    finally:
        context.close()


def test_readable_without_javascript(site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(url(site, "impl/zarr-python.html?outcome=failed"))
        rows = page.locator("#misses-table tbody tr")
        assert rows.count() >= 3 and all(r.is_visible() for r in rows.all())  # no filter applied
        assert not page.locator("form.filter").is_visible()  # a form that would do nothing
        page.goto(url(site, "features/v3.html"))
        assert page.locator("tr", has_text="dtype:string").first.is_visible()
        assert not page.locator("#combo-form").is_visible()
    finally:
        context.close()


def test_keyboard_reaches_the_drill_downs(site, page):
    page.goto(url(site, "index.html"))
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "zarr-python":
            break
    else:
        pytest.fail("the implementation's link is not reachable with Tab")
    page.keyboard.press("Enter")
    page.wait_for_url("**/impl/zarr-python.html")


def axe_violations(page, script: Path) -> list[str]:
    page.add_script_tag(path=str(script))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_no_serious_accessibility_violation(site, page):
    script = axe_script(node_tools())
    problems = []
    for path in PAGES:
        page.goto(url(site, path))
        problems += [f"{path}: {p}" for p in axe_violations(page, script)]
    assert not problems, "\n".join(problems)


def test_axe_catches_a_violation(page, tmp_path):
    """The accessibility check is not vacuous: low contrast and an unlabelled control fail."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!DOCTYPE html><html lang="en"><title>x</title><p style="color:#aaa;background:#fff">grey</p>'
        '<input type="text"></html>'
    )
    page.goto(bad.as_uri())
    found = " ".join(axe_violations(page, axe_script(node_tools())))
    assert "color-contrast" in found and "label" in found


def test_valid_html(site, tmp_path):
    errors = validate_html(node_tools(), site)
    assert not errors, "\n".join(errors[:20])
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "a.html").write_text(
        '<!DOCTYPE html><html lang="en"><title>x</title><p><div id="a"></div><i id="a"></i></p></html>'
    )
    assert validate_html(node_tools(), broken)  # the checker is not vacuous
