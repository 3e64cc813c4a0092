"""The catalogue's HTML report in a real browser: headless Chromium (Debian's
``chromium`` and ``chromium-driver``, which ``.ci/run`` installs) driven by Selenium loads
``verify --quick --report``'s page and finds no console error, every claim id of
``verify --list``, every image loaded and every internal link resolving.

Without Chromium the tests skip, unless ``PACKSCHED_BROWSER_TESTS=required`` (set by
``.ci/run``), when a missing browser is a failure."""

from __future__ import annotations

import os
import shutil

import pytest

from packsched.cli import main

REQUIRED = os.environ.get("PACKSCHED_BROWSER_TESTS") == "required"


def _browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        if REQUIRED:
            pytest.fail("Chromium and chromedriver are required (PACKSCHED_BROWSER_TESTS="
                        "required): apt-get install chromium chromium-driver")
        pytest.skip("no Chromium here: apt-get install chromium chromium-driver")
    from selenium import webdriver  # the test extra installs it
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    assert main(["verify", "--quick", "--report", str(out)]) == 0
    return out / "index.html"


@pytest.fixture(scope="module")
def browser():
    b = _browser()
    yield b
    b.quit()


def test_the_report_loads_with_every_claim_and_no_console_error(report, browser):
    from proofs_checks.registry import select_checks

    browser.get(report.as_uri())
    assert browser.title.startswith("packsched")
    body = browser.find_element("tag name", "body").text
    ids = [c.id for c in select_checks()]
    assert len(ids) >= 61 and not [i for i in ids if i not in body]
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_every_image_loads_and_every_internal_link_resolves(report, browser):
    browser.get(report.as_uri())
    broken = browser.execute_script(
        "return Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
        ".map(i => i.src)")
    assert broken == []
    dangling = browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href^=\"#\"]'))"
        ".map(a => a.getAttribute('href').slice(1))"
        ".filter(id => !document.getElementById(id))")
    links = browser.execute_script("return document.querySelectorAll('a[href^=\"#\"]').length")
    assert links > 61 and dangling == []
