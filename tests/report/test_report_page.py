"""The published page in a real headless browser (Debian's chromium, installed here when missing):
the headline table renders, a cell's drill-down opens, the interop grid shows every implementation."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from conformance.report.publish import publish

CHROMIUM = "/usr/bin/chromium"
IMPLS = ("alpha", "beta", "gamma")


def ensure_chromium() -> str:
    if not os.path.exists(CHROMIUM) and shutil.which("apt-get") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"],
            env=env,
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=900,
        )
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            "chromium is not installed and could not be installed (apt-get install chromium)"
        )
    return CHROMIUM


def records() -> list[dict]:
    out = []
    for i, impl in enumerate(IMPLS):
        for n in range(3):
            outcome = "wrong-data" if (impl, n) == ("gamma", 0) else "passed"
            out.append(
                {
                    "test": "read",
                    "case": f"v3/codecs/case-{n}",
                    "impl": impl,
                    "writer": None,
                    "reader": None,
                    "outcome": outcome,
                    "message": "data: 1 of 4 elements differ" if outcome != "passed" else "",
                    "requirements": ["V3-PIPE-002"],
                    "tier": "required",
                    "format": "v3",
                    "store": {"kind": "directory"},
                    "versions": {impl: {impl: f"1.{i}"}},
                    "run_id": "test-run",
                }
            )
        for reader in IMPLS:
            out.append(
                {
                    "test": "roundtrip" if reader == impl else "cross",
                    "case": "v3/write/a",
                    "impl": reader,
                    "writer": impl,
                    "reader": reader,
                    "outcome": "passed",
                    "message": "",
                    "requirements": [],
                    "tier": "required",
                    "format": "v3",
                    "store": {"kind": "directory"},
                    "run_id": "test-run",
                }
            )
    return out


@pytest.fixture(scope="module")
def page_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    results = folder / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records()))
    fixtures = folder / "fixtures"
    fixtures.mkdir()
    publish(results, folder / "out", fixtures)
    return (folder / "out" / "index.html").as_uri()


def test_page_in_headless_chromium(page_url, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = ensure_chromium()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=executable,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(page_url)
            headline = page.locator("h2", has_text="Conformance per format and tier").locator(
                "xpath=following-sibling::table[1]"
            )
            rows = headline.locator("tr").all_inner_texts()
            assert all(any(r.startswith(impl) for r in rows) for impl in IMPLS), rows
            gamma = headline.locator("tr", has_text="gamma")
            assert gamma.locator("td.bad").count() >= 1  # wrong data is shown in red

            assert not page.locator("#detail").is_visible()
            gamma.locator("td.cell").first.click()
            detail = page.locator("#detail")
            assert detail.is_visible()
            assert "wrong-data" in detail.inner_text() and "v3/codecs/case-0" in detail.inner_text()

            grid = page.locator("h3", has_text="v3").locator("xpath=following-sibling::table[1]")
            header = grid.locator("tr").first.inner_text()
            assert all(impl in header for impl in IMPLS), header
            assert grid.locator("tr").count() == 1 + len(IMPLS)
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()
