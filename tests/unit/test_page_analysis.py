"""Page analysis in worker processes (crawler/page_analysis.py): real worker processes."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.dedup.content_seen import ContentSeenTest, FingerprintConfig, fingerprint_text
from crawler.dedup.winnowing import WinnowingFingerprint
from crawler.middlewares.page_analysis import PAGE_ANALYSIS_META, PageAnalysisMiddleware
from crawler.page_analysis import PageAnalysisPool, analyse_html, result
from crawler.sandbox.web import html_page

PAGES = [
    (
        "http://docs.example.test/guide/install.html",
        html_page(
            "Installing the tool",
            '<nav><a href="/">Home</a> <a href="/guide/">Guide</a></nav>'
            '<main><h1>Installing</h1><p>' + "Download the archive and unpack it. " * 30
            + '</p><h2>From source</h2><p>See <a href="build.html#src">building</a> and '
            '<a href="http://other.example.test/x?b=2&a=1">elsewhere</a>.</p></main>',
        ),
    ),
    (
        "http://shop.example.test/",
        b"<html lang='de'><head><title>Laden</title><base href='/katalog/'></head><body>"
        b"<a href='a.html'>A</a><a href='b.html'>B</a><p>Willkommen in unserem Laden, hier "
        b"finden Sie B\xc3\xbccher und Noten.</p></body></html>",
    ),
    # names the page defines cross the process boundary too
    (
        "http://lib.example.test/list.html",
        b"<html><body><dl><dt>str.join(iterable)</dt><dd>Join the strings.</dd></dl>"
        b"<p><a id='v:foldl'>foldl</a> :: (b -> a -> b)</p></body></html>",
    ),
    ("http://empty.example.test/", b""),
]


def wait_ready(pool: PageAnalysisPool, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not pool.ready:
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.05)


def test_a_worker_returns_what_the_crawl_process_computes():
    pool = PageAnalysisPool(1)
    assert pool.saturated  # no worker yet: the caller analyses
    pool.open()
    try:
        wait_ready(pool)
        assert not pool.saturated
        for url, body in PAGES:
            future = pool.submit(
                body, url, encoding="utf-8", content_language="en", anchor_max_chars=500
            )
            expected = analyse_html(
                body, url, encoding="utf-8", content_language="en", anchor_max_chars=500
            )
            assert result(future.result(timeout=60)) == expected
            if url == "http://lib.example.test/list.html":
                assert expected.names == ["str.join(iterable)", "foldl"]
        assert expected.links == []  # the empty page
        first = result(
            pool.submit(
                PAGES[0][1], PAGES[0][0], encoding="utf-8", content_language="",
                anchor_max_chars=500,
            ).result(timeout=60)
        )
        assert [link.url for link in first.links] == [
            "http://docs.example.test/",
            "http://docs.example.test/guide/",
            "http://docs.example.test/guide/build.html",
            "http://other.example.test/x?a=1&b=2",
        ]
        assert first.title == "Installing the tool" and first.lang == "en"
        assert "Download the archive" in first.main_text and "Home" not in first.main_text
        assert pool.pending == 0
    finally:
        pool.close()


def test_pages_queue_up_to_the_limit_then_the_caller_analyses():
    pool = PageAnalysisPool(1, max_pending=2)
    pool.open()
    try:
        wait_ready(pool)
        big = PAGES[0][1] * 200  # a page that keeps the worker busy for a while
        futures = [
            pool.submit(big, PAGES[0][0], encoding="utf-8", content_language="",
                        anchor_max_chars=500)
            for _ in range(2)
        ]
        assert pool.pending == 2 and pool.saturated
        for future in futures:
            future.result(timeout=120)
        deadline = time.monotonic() + 10
        while pool.pending and time.monotonic() < deadline:  # done callbacks run later
            time.sleep(0.01)
        assert pool.pending == 0 and not pool.saturated
    finally:
        pool.close()


def one_ready_worker(pool: PageAnalysisPool) -> tuple[Any, int]:
    """The executor of a one-worker pool, once ready, and its worker's pid."""
    wait_ready(pool)
    executor = pool._executor
    assert executor is not None
    (pid,) = list(executor._processes)
    return executor, pid


def test_a_ctrl_c_does_not_interrupt_a_worker():
    # Ctrl-C reaches the crawl's whole process group. A worker interrupted mid-page sent
    # a KeyboardInterrupt back through the page's future, which escaped the crawl's event
    # loop and left the crawl hung with its pages unsaved (found on the blind speed web).
    pool = PageAnalysisPool(1)
    pool.open()
    try:
        executor, pid = one_ready_worker(pool)
        big = PAGES[0][1] * 300  # busy for a while: the signal comes mid-page
        future = pool.submit(big, PAGES[0][0], encoding="utf-8", content_language="",
                             anchor_max_chars=500)
        time.sleep(0.05)
        os.kill(pid, signal.SIGINT)
        page = result(future.result(timeout=120))
        assert page.title == "Installing the tool" and len(page.links) == 4
        after = result(
            pool.submit(PAGES[1][1], PAGES[1][0], encoding="utf-8", content_language="",
                        anchor_max_chars=500).result(timeout=60)
        )
        assert after.title == "Laden" and list(executor._processes) == [pid]
        assert pool.restarts == 0
    finally:
        pool.close()


def test_a_dead_worker_is_replaced():
    pool = PageAnalysisPool(1)
    pool.open()
    try:
        executor, pid = one_ready_worker(pool)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            for _ in range(50):  # the pool learns of the death shortly after
                pool.submit(
                    PAGES[1][1], PAGES[1][0], encoding="utf-8", content_language="",
                    anchor_max_chars=500,
                ).result(timeout=60)
                time.sleep(0.1)
        pool.broken()
        pool.broken()  # every page the dead worker held reports it: one restart
        assert pool.restarts == 1 and pool._executor is not executor
        wait_ready(pool)
        page = result(
            pool.submit(
                PAGES[1][1], PAGES[1][0], encoding="utf-8", content_language="",
                anchor_max_chars=500,
            ).result(timeout=60)
        )
        assert page.title == "Laden" and page.lang == "de"
        assert [link.url for link in page.links] == [
            "http://shop.example.test/katalog/a.html",
            "http://shop.example.test/katalog/b.html",
        ]
    finally:
        pool.close()


def test_no_workers_means_the_caller_analyses_every_page():
    pool = PageAnalysisPool(0)
    pool.open()
    assert pool.saturated and pool._executor is None
    with pytest.raises(ValueError):
        PageAnalysisPool(-1)


def test_a_worker_makes_the_content_seen_fingerprint_of_the_crawl():
    config = FingerprintConfig(candidate_threshold=0.5)  # the second stage: word hashes too
    test = ContentSeenTest(
        WinnowingFingerprint(config.k, config.w, config.hash_name), config.threshold,
        config.num_perm, candidate_threshold=0.5,
    )
    assert test.fingerprint_config == config
    pool = PageAnalysisPool(1, fingerprint_config=config)
    pool.open()
    try:
        wait_ready(pool)
        url, body = PAGES[0]
        page = result(
            pool.submit(body, url, encoding="utf-8", content_language="",
                        anchor_max_chars=500).result(timeout=60)
        )
        made_with, made = page.fingerprint
        expected = test.fingerprint(
            fingerprint_text(page.title, page.text, page.main_text, config.content)
        )
        assert page.main_text and config.content == "main"
        assert made_with == config and made.digest == expected.digest
        assert made.minutiae.tolist() == expected.minutiae.tolist() and made.minutiae.size
        assert made.signature.tolist() == expected.signature.tolist()
        assert made.words.tolist() == expected.words.tolist() and made.words.size
        empty = result(
            pool.submit(PAGES[-1][1], PAGES[-1][0], encoding="utf-8", content_language="",
                        anchor_max_chars=500).result(timeout=60)
        )
        assert empty.fingerprint == (config, None)  # nothing to fingerprint
    finally:
        pool.close()


def analysis_middleware(pool: PageAnalysisPool, **options: Any) -> PageAnalysisMiddleware:
    """The page-analysis downloader middleware over ``pool``, workers started late."""
    options = {"start_after": 1000, **options}
    return PageAnalysisMiddleware(
        pool, get_crawler().stats, html_content_types=frozenset({"text/html"}),
        anchor_max_chars=500, **options,
    )  # fmt: skip


def receive(middleware: PageAnalysisMiddleware, url: str, body: bytes) -> Request:
    """Pass one HTML response through the middleware; its request (and meta)."""
    request = Request(url)
    response = HtmlResponse(url, body=body, headers={"Content-Type": "text/html"})
    assert asyncio.run(middleware.process_response(request, response)) is response
    return request


def test_the_workers_start_when_the_scheduler_holds_enough_work():
    queued = [0]
    middleware = analysis_middleware(
        PageAnalysisPool(1), start_queue=5, queued=lambda: queued[0]
    )
    url, body = PAGES[0]
    try:
        receive(middleware, url, body)
        queued[0] = 4
        receive(middleware, url, body)
        assert middleware.pool._executor is None  # few pages, little work ahead: no worker
        queued[0] = 5
        receive(middleware, url, body)  # analysed in process: the worker is still starting
        assert middleware.pool._executor is not None
        wait_ready(middleware.pool)
        assert middleware.stats.get_value("page_analysis/in_process") == 3
    finally:
        middleware.pool.close()


def test_a_large_page_waits_for_a_worker_instead_of_stopping_the_crawl_process():
    middleware = analysis_middleware(
        PageAnalysisPool(1), start_queue=0, in_process_max_bytes=1000
    )
    small_url, small = PAGES[1]
    large_url, large = PAGES[0]
    assert len(small) < 1000 < len(large)
    try:
        # no worker yet, few pages: the small page is analysed in the crawl's process
        assert PAGE_ANALYSIS_META not in receive(middleware, small_url, small).meta
        assert middleware.pool._executor is None
        # the large one starts a worker and waits for it
        analysed = receive(middleware, large_url, large).meta[PAGE_ANALYSIS_META].analysis
        assert analysed == analyse_html(large, large_url)
        stats = middleware.stats
        assert stats.get_value("page_analysis/in_process") == 1
        assert stats.get_value("page_analysis/waited_for_worker") == 1
        assert stats.get_value("page_analysis/workers") == 1
    finally:
        middleware.pool.close()


def test_the_main_content_limit_reaches_the_workers():
    url, body = PAGES[0]
    whole = analyse_html(body, url, main_content_max_bytes=len(body) - 1)
    extracted = analyse_html(body, url, main_content_max_bytes=0)
    assert "Home Guide" in whole.main_text and "Home" not in extracted.main_text
    middleware = analysis_middleware(
        PageAnalysisPool(1), start_after=0, main_content_max_bytes=len(body) - 1
    )
    try:
        middleware.pool.open()
        wait_ready(middleware.pool)
        analysed = receive(middleware, url, body).meta[PAGE_ANALYSIS_META].analysis
        assert middleware.stats.get_value("page_analysis/in_process") is None
        assert analysed.main_text == whole.main_text
        assert analysed.headings == whole.headings
    finally:
        middleware.pool.close()


def test_a_large_page_is_analysed_in_process_when_the_workers_backlog_is_long():
    pool = PageAnalysisPool(1, max_pending=1)  # one queued page fills it
    middleware = analysis_middleware(
        pool, start_queue=0, in_process_max_bytes=1000, wait_max_bytes=1000
    )
    url, body = PAGES[0]
    try:
        pool.open()
        wait_ready(pool)
        assert len(body) >= 1000  # one queued page is backlog enough
        # a backlog of one large page, held behind a task that keeps the worker busy
        assert pool._executor is not None
        busy = pool._executor.submit(time.sleep, 3)
        held = pool.submit(body, url, encoding=None, content_language="", anchor_max_chars=500)
        assert pool.pending_bytes == len(body)
        request = receive(middleware, url, body * 2)
        assert not held.done()
        assert PAGE_ANALYSIS_META not in request.meta
        assert middleware.stats.get_value("page_analysis/in_process") == 1
        busy.result(timeout=60)
        held.result(timeout=60)
        assert pool.pending_bytes == 0
    finally:
        pool.close()


def test_the_workers_of_a_killed_crawl_exit():
    import subprocess
    import sys

    # a crawl's process holding a pool with a ready worker, killed with SIGKILL
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import time\n"
         "from crawler.page_analysis import PageAnalysisPool\n"
         "if __name__ == '__main__':\n"
         "    pool = PageAnalysisPool(1)\n"
         "    pool.open()\n"
         "    while not pool.ready:\n"
         "        time.sleep(0.05)\n"
         "    print(*[p.pid for p in pool._executor._processes.values()], flush=True)\n"
         "    time.sleep(600)\n"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        workers = [int(pid) for pid in holder.stdout.readline().split()]
        assert len(workers) == 1
        holder.kill()
        holder.wait()
        deadline = time.monotonic() + 30
        while any(_runs(pid) for pid in workers):
            assert time.monotonic() < deadline, "the worker outlived its crawl"
            time.sleep(0.1)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def _runs(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False
