"""The search web UI: Flask views (test client) and a real browser (headless Debian
Chromium driven by Playwright) against `scrapy serve`."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from scrapy.settings import Settings

from crawler.search import IndexWriter, open_index, page_document
from crawler.search.index import BACKENDS
from crawler.search.pending import clear_pending, note_pending
from crawler.web.app import create_app
from tests.commands import scrapy_env

XSS_TITLE = "<script>window.__xss = 1; alert('xss')</script>"
NOW = datetime.now(UTC)


def pages() -> list[dict]:
    docs = [
        page_document(
            url=f"http://docs.example.test/guide/{i}",
            title=f"Python guide part {i}",
            text=f"Chapter {i} of the python guide explains modules and packages.",
            host="docs.example.test",
            content_type="text/html",
            fetched_at=NOW - timedelta(days=1),
            pagerank=1.0 + i / 10,
        )
        for i in range(1, 24)
    ]
    docs += [
        page_document(
            url="http://zoo.test/snakes",
            title="Python snakes",
            text="The python is a snake of the tropics.",
            host="zoo.test",
            content_type="text/html",
            fetched_at=NOW,
        ),
        page_document(
            url="http://zoo.test/notes.txt",
            title="",
            text="python notes in text",
            host="zoo.test",
            content_type="text/plain",
            fetched_at=NOW,
        ),
        page_document(
            url="http://evil.test/page",
            title=XSS_TITLE,
            text="Visit <img src=x onerror=alert(2)> for the alertness quiz.",
            host="evil.test",
            content_type="text/html",
            fetched_at=NOW,
        ),
    ]
    return docs


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ui") / "index"
    ix = open_index(path)
    IndexWriter(ix).write(pages())
    ix.close()
    return path


# --- Flask views ----------------------------------------------------------------------------


@pytest.fixture(scope="module", params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """The UI's Flask views on an index of each backend."""
    path = tmp_path_factory.mktemp(f"ui-{request.param}") / "index"
    ix = open_index(path, backend=request.param)
    IndexWriter(ix).write(pages())
    ix.close()
    app = create_app(Settings(), open_index(path, create=False))
    yield app.test_client()
    app.config["SEARCH_ENGINE"].close()


def test_results_page_escapes_crawled_text(client) -> None:
    page = client.get("/search?q=alertness")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "&lt;script&gt;window.__xss = 1; alert(&#39;xss&#39;)&lt;/script&gt;" in html
    assert "<script" not in html
    # stemming: "alertness" also matches "alert"
    assert (
        "Visit &lt;img src=x onerror=<mark>alert</mark>(2)&gt; for the <mark>alertness</mark> quiz"
    ) in html
    assert page.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert 'id="count">1</span>' in html


def test_query_text_is_escaped_everywhere(client) -> None:
    html = client.get("/search?q=%22%3E%3Cscript%3Ealert(3)%3C/script%3E").get_data(as_text=True)
    assert "<script" not in html
    assert 'value="&#34;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"' in html


def test_pagination_and_counts(client) -> None:
    html = client.get("/search?q=python&n=10&page=2").get_data(as_text=True)
    assert 'id="count">25</span>' in html and "Results 11&ndash;20 of" in html
    assert '<ol id="results" class="results" start="11">' in html
    assert re.search(r'<span class="current">2</span>', html)
    assert "page=3" in html and "page=1" in html
    assert re.search(r'id="elapsed">\d+\.\d{3}</span> seconds', html)


def test_advanced_form_becomes_a_query(client) -> None:
    reply = client.get(
        "/search?all=python&none=snakes&occur=title&format=html&updated=week&site=&exact=&any=&n=20"
    )
    assert reply.status_code == 302
    query = parse_qs(urlsplit(reply.headers["Location"]).query)
    assert query == {
        "q": ['title:"python" AND format:html AND updated:week -title:"snakes"'],
        "n": ["20"],
    }
    html = client.get(reply.headers["Location"]).get_data(as_text=True)
    assert 'id="count">23</span>' in html  # the 23 guide parts; not the snake, not the .txt


def test_advanced_page_lists_every_field(client) -> None:
    html = client.get("/advanced").get_data(as_text=True)
    for name in ("all", "exact", "any", "none", "format", "updated", "occur", "site", "n"):
        assert f'name="{name}"' in html
    assert '<option value="text">text</option>' in html  # formats found in the index


def test_errors_and_empty_queries(client) -> None:
    html = client.get("/search?q=a+NEAR+title:b+NEAR+body:c").get_data(as_text=True)
    assert 'id="error"' in html and "same field" in html
    assert client.get("/search?q=").status_code == 302


# --- a real browser -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def ui_url(index_dir: Path) -> Iterator[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "serve", "--port", "0", "--index", str(index_dir)],
        cwd=index_dir.parent,
        env=scrapy_env(None),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, f"scrapy serve did not start: {line!r}"
        yield match.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


@pytest.mark.slow
def test_browser_simple_and_advanced_search(browser, ui_url: str) -> None:
    page = browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    # simple search, then the next result page
    page.goto(ui_url)
    page.fill("#q", "python guide")
    page.click("#search-button")
    page.wait_for_selector("#results")
    assert page.inner_text("#count") == "25"
    titles = page.locator(".result .title").all_inner_texts()
    urls = page.locator(".result .url").all_inner_texts()
    assert len(titles) == 10
    assert all(t.startswith("Python guide part") for t in titles)  # all words before any
    assert all(u.startswith("http://docs.example.test/guide/") for u in urls)
    assert page.locator(".result .snippet mark").count() >= 10
    assert float(page.inner_text("#elapsed")) < 5
    page.click("a[rel=next]")
    page.wait_for_selector("#results")
    assert page.locator("#results").get_attribute("start") == "11"

    # "did you mean"
    page.fill("#q", "pyhton")
    page.click("#search-button")
    page.click("#suggestion a")
    page.wait_for_selector("#results")
    assert page.input_value("#q") == "python"

    # advanced search: words in the title, one excluded, 50 per page
    page.goto(ui_url + "advanced")
    page.fill("#all", "python")
    page.fill("#none", "guide")
    page.select_option("#occur", "title")
    page.select_option("#n", "50")
    page.click("#advanced-search-button")
    page.wait_for_selector("#results")
    assert page.input_value("#q") == 'title:"python" -title:"guide"'
    assert page.locator(".result .url").all_inner_texts() == ["http://zoo.test/snakes"]

    # advanced search by file format and site
    page.goto(ui_url + "advanced")
    page.fill("#any", "python snake")
    page.select_option("#format", "text")
    page.fill("#site", "zoo.test")
    page.click("#advanced-search-button")
    page.wait_for_selector("#results")
    assert page.locator(".result .url").all_inner_texts() == ["http://zoo.test/notes.txt"]

    # a crawled title holding <script> is shown as text and never runs
    page.fill("#q", "alertness")
    page.click("#search-button")
    page.wait_for_selector("#results")
    assert page.locator(".result .title").all_inner_texts() == [XSS_TITLE]
    assert "<img src=x onerror=alert(2)>" in page.inner_text(".result .snippet")
    assert page.evaluate("document.querySelectorAll('main script, main img').length") == 0
    assert page.evaluate("window.__xss === undefined")
    assert dialogs == []
    page.close()


def test_favicon(client) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.mimetype == "image/svg+xml" and icon.data.startswith(b"<svg")
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in client.get(
        "/"
    ).get_data(as_text=True)


def test_snippets_mark_the_words_of_a_phrase(client) -> None:
    # Whoosh's Phrase yields no terms unless asked: quoted queries had nothing marked
    html = client.get("/search?q=%22python+guide%22&n=1").get_data(as_text=True)
    assert (
        "Chapter 23 of the <mark>python</mark> <mark>guide</mark> explains modules and packages."
    ) in html


# --- layout at phone and desktop widths, by element geometry -------------------------------

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def box(page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not displayed"
    return found


def assert_fits(page, *selectors: str) -> None:
    """No horizontal scrolling, and each element wholly inside the viewport's width."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for selector in selectors:
        found = box(page, selector)
        assert found["x"] >= 0 and found["x"] + found["width"] <= width, (selector, found)


@pytest.mark.slow
def test_layout_at_phone_width(browser, ui_url: str) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(ui_url)
    assert_fits(page, "#q", "#search-button", ".brand", ".advanced-link")
    query, button = box(page, "#q"), box(page, "#search-button")
    assert query["width"] >= 200  # the box shrinks to the screen, it does not vanish
    assert abs(query["y"] - button["y"]) < 10  # the button stays beside the box

    page.goto(ui_url + "search?q=python+guide")
    page.wait_for_selector("#results")
    assert_fits(page, "#q", "#search-button", ".brand", ".advanced-link", "#results", "#pagination")
    query, brand = box(page, "#q"), box(page, ".brand")
    assert query["y"] >= brand["y"] + brand["height"]  # the form wraps below the brand
    assert query["width"] >= 250

    page.goto(ui_url + "advanced")
    assert_fits(page, "#all", "#site", "#occur", "#advanced-search-button")
    page.close()


@pytest.mark.slow
def test_layout_at_desktop_width(browser, ui_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(ui_url)
    assert_fits(page, "#q", "#search-button")
    form, heading = box(page, "#search-form"), box(page, ".home h1")
    middle = DESKTOP["width"] / 2
    assert abs(form["x"] + form["width"] / 2 - middle) <= 2, form  # centred
    assert abs(heading["x"] + heading["width"] / 2 - middle) <= 2, heading
    assert box(page, "#q")["width"] >= 400

    page.goto(ui_url + "search?q=python+guide")
    page.wait_for_selector("#results")
    assert_fits(page, "#q", "#search-button", "#results")
    query, brand, link = box(page, "#q"), box(page, ".brand"), box(page, ".advanced-link")
    # one header line: brand, search box, advanced link, left to right
    assert brand["x"] + brand["width"] <= query["x"] < link["x"]
    assert abs((query["y"] + query["height"] / 2) - (brand["y"] + brand["height"] / 2)) < 10
    page.close()


def test_translations_are_grouped_and_accept_language_picks_the_shown_one(
    tmp_path: Path,
) -> None:
    base = "http://httpd.test/manual/"
    ix = open_index(tmp_path / "index")
    IndexWriter(ix).write(
        [
            page_document(
                url=base + "ko/rewrite.html",
                title="mod_rewrite (ko)",
                text="mod_rewrite 규칙 rewrite rewrite rewrite",
                host="httpd.test",
                content_type="text/html",
                fetched_at=NOW,
                lang="ko",
                pagerank=3.0,
            ),
            page_document(
                url=base + "en/rewrite.html",
                title="mod_rewrite",
                text="The rewrite module rewrites URLs.",
                host="httpd.test",
                content_type="text/html",
                fetched_at=NOW,
                lang="en",
            ),
        ]
    )
    app = create_app(Settings(), ix)
    client = app.test_client()
    try:
        english = client.get("/search?q=rewrite").get_data(as_text=True)
        assert english.count('class="result"') == 1
        assert f'href="{base}en/rewrite.html"' in english.split('class="variants"')[0]
        assert f'href="{base}ko/rewrite.html"' in english.split('class="variants"')[1]
        assert 'hreflang="ko">ko</a>' in english
        korean = client.get("/search?q=rewrite", headers={"Accept-Language": "ko-KR,en;q=0.5"})
        page = korean.get_data(as_text=True)
        assert f'href="{base}ko/rewrite.html"' in page.split('class="variants"')[0]
        assert 'hreflang="en">en</a>' in page
    finally:
        app.config["SEARCH_ENGINE"].close()


def test_results_page_says_when_a_crawl_left_pages_unindexed(tmp_path: Path) -> None:
    path = tmp_path / "index"
    ix = open_index(path)
    IndexWriter(ix).write(pages())
    ix.close()
    note_pending(path, "crawl-x", 7, 5)
    app = create_app(Settings(), open_index(path, create=False), index_folder=str(path))
    client = app.test_client()
    try:
        html = client.get("/search?q=python").get_data(as_text=True)
        assert (
            '<p id="pending" class="notice">note: 5 stored pages of crawl crawl-x were not '
            "searchable yet when it closed: `scrapy index` applies them (see `scrapy index "
            "--status`)</p>"
        ) in html
        clear_pending(path)  # the indexer caught up
        assert 'id="pending"' not in client.get("/search?q=python").get_data(as_text=True)
    finally:
        app.config["SEARCH_ENGINE"].close()
