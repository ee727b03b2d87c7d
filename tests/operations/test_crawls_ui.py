"""The crawls pages of `scrapy serve`: Flask views, and headless Chromium checking that
every chart image really loads (its natural size), at desktop and phone widths."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from scrapy.settings import Settings

from crawler.search import open_index
from crawler.web.app import create_app
from tests.commands import scrapy_env
from tests.operations.conftest import png_size

CHART_SIZE = (800, 360)


@pytest.fixture
def client(crawls, database_url, tmp_path: Path):
    ix = open_index(tmp_path / "index")
    app = create_app(Settings({"CRAWLER_DATABASE_URL": database_url}), ix)
    yield app.test_client()
    app.config["SEARCH_ENGINE"].close()
    ix.close()


def test_crawl_list_and_page(client) -> None:
    listing = client.get("/crawls").get_data(as_text=True)
    rows = re.findall(r'<a href="/crawls/(html-[a-z]+)">.*?<td class="status">([^<]+)</td>',
                      listing, re.S)
    assert dict(rows) == {"html-a": "finished (finished)", "html-b": "finished (finished)",
                          "html-running": "running", "html-empty": "finished (None)"}
    page = client.get("/crawls/html-a?interval=60")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    images = re.findall(r'<img src="(/crawls/html-a/charts/(\w+)\.png[^"]*)"', html)
    assert {name for _, name in images} == {
        "pages", "crawled", "errors", "wait", "evicted", "queue", "speed", "sizes", "tlds",
        "duplicates", "order"}
    assert "No data: not a focused crawl." in html
    for src, name in images:
        chart = client.get(src.replace("&amp;", "&"))
        assert chart.status_code == 200 and chart.mimetype == "image/png"
        assert name == "errors" or png_size(chart.data) == CHART_SIZE
    assert client.get("/crawls/nope").status_code == 404
    assert client.get("/crawls/html-a/charts/nope.png").status_code == 404
    assert client.get("/crawls/html-a/charts/harvest.png").status_code == 404
    compared = client.get("/crawls/html-a?compare=html-b").get_data(as_text=True)
    assert "Crawl html-a vs. html-b" in compared
    assert "/crawls/html-a/charts/order.png?compare=html-b" in compared


@pytest.fixture
def serve_url(crawls, database_url, tmp_path: Path) -> Iterator[str]:
    open_index(tmp_path / "index").close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "serve", "--port", "0", "--index",
         str(tmp_path / "index")],
        cwd=tmp_path, env=scrapy_env(database_url), stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, f"scrapy serve did not start: {line!r}"
        yield match.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 390])
def test_browser_crawl_pages_load_their_charts(browser, serve_url: str, tmp_path: Path,
                                               width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(serve_url)
    page.click("a.crawls-link")
    page.wait_for_selector("#crawls")
    statuses = dict(zip(page.locator("#crawls .crawl td:first-child").all_inner_texts(),
                        page.locator("#crawls .crawl .status").all_inner_texts(), strict=True))
    assert statuses["html-running"] == "running"
    assert statuses["html-a"] == "finished (finished)"
    page.click("text=html-a")
    page.wait_for_selector("#crawl-info")
    assert page.inner_text("#pages") == "40"
    page.wait_for_load_state("networkidle")
    images = page.evaluate(
        "Array.from(document.querySelectorAll('figure.chart img')).map(i => "
        "[i.closest('figure').id, i.complete, i.naturalWidth, i.naturalHeight, i.width])"
    )
    assert len(images) == 11
    for figure_id, complete, natural_w, natural_h, shown_w in images:
        assert complete and natural_w > 0, f"{figure_id} did not load"
        if figure_id != "chart-errors":
            assert (natural_w, natural_h) == CHART_SIZE
        assert shown_w <= width  # scaled down on a phone, never wider than the page
    # no horizontal scrollbar at phone width either
    wide = page.evaluate(
        "Array.from(document.querySelectorAll('body *')).filter(e => "
        "e.getBoundingClientRect().right > document.documentElement.clientWidth)"
        ".map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
    shot = tmp_path / f"crawl-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    shot_w, shot_h = png_size(shot.read_bytes())
    assert shot_w == width and shot_h > 11 * 100  # the charts are part of the page
    page.close()
