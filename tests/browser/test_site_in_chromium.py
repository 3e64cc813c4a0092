"""The documentation site in a real browser (issue 42, part 3).

The site is built with ``python -m sphinx -W`` (warnings are errors), or taken from
``PACKSCHED_DOCS_HTML`` when CI has just built it with the README's command. Headless
Chromium then loads the index, one page of each kind (tutorial, how-to, reference,
background, benchmarks, the report) and every gallery page, and asserts: no console
error, every image loaded (non-zero natural width), every internal link resolving to a
file of the site and, where it has a fragment, to an element of that page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from test_report_in_chromium import _browser

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("PACKSCHED_BROWSER_TESTS") == "required"

ONE_OF_EACH_KIND = ["index.html", "tutorial.html", "howto/index.html",
                    "howto/size-laws.html", "reference/index.html",
                    "reference/generated/capacity.rho_star.html", "background/index.html",
                    "background/pg21.html", "background/errata.html", "benchmarks.html",
                    "report.html", "report/index.html", "gallery/index.html"]


@pytest.fixture(scope="module")
def site(tmp_path_factory, figure_out):
    given = os.environ.get("PACKSCHED_DOCS_HTML")
    if given:
        return Path(given).resolve()
    try:
        import myst_nb  # noqa: F401
        import pydata_sphinx_theme  # noqa: F401
    except ImportError:
        if REQUIRED:
            pytest.fail("the docs extra is required: pip install -e '.[docs]'")
        pytest.skip("no Sphinx here: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PACKSCHED_FIGURES_OUT": str(figure_out)}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q",
                           "-b", "html", str(ROOT / "docs"), str(out)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-5000:]
    return out


@pytest.fixture(scope="module")
def browser():
    b = _browser()
    yield b
    b.quit()


def gallery_pages(site: Path) -> list[str]:
    return sorted(f"gallery/{p.name}" for p in (site / "gallery").glob("*.html"))


@cache
def _ids(page: Path) -> frozenset[str]:
    return frozenset(re.findall(r"""\bid=["']([^"']+)["']""", page.read_text(errors="replace")))


def dangling_links(site: Path, hrefs: list[str]) -> list[str]:
    """The internal links (absolute file: URLs into the site) that do not resolve."""
    bad = []
    for href in hrefs:
        parts = urlsplit(href)
        if parts.scheme != "file":
            continue
        target = Path(unquote(parts.path))
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            bad.append(href)
        elif parts.fragment and target.suffix == ".html" and \
                unquote(parts.fragment) not in _ids(target):
            bad.append(href)
    return bad


def test_every_page_kind_and_gallery_page_exists(site):
    missing = [p for p in ONE_OF_EACH_KIND if not (site / p).is_file()]
    assert missing == []
    from proofs_checks.figures import FIGURES, figure

    offered = [k for k in FIGURES if not figure(k).unavailable]
    assert sorted(f"gallery/{k}.html" for k in offered) == \
        [p for p in gallery_pages(site) if p != "gallery/index.html"]


def test_pages_load_with_images_links_and_no_console_error(site, browser):
    problems = []
    for page in ONE_OF_EACH_KIND + gallery_pages(site):
        browser.get_log("browser")  # drop what earlier pages logged
        browser.get((site / page).as_uri())
        errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        broken = browser.execute_script(
            "return Array.from(document.images).filter(i => !i.complete || "
            "i.naturalWidth === 0).map(i => i.src)")
        hrefs = browser.execute_script(
            "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
        bad = dangling_links(site, hrefs)
        if errors or broken or bad:
            problems.append(f"{page}: console {errors}, images {broken}, links {bad}")
    assert problems == [], "\n".join(problems)


def test_the_link_check_can_fail(site):
    page = (site / "index.html").as_uri()
    assert dangling_links(site, [page]) == []
    assert dangling_links(site, [page.replace("index.html", "no-such-page.html")]) != []
    assert dangling_links(site, [page + "#no-such-anchor"]) != []
