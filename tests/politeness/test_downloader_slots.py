"""DownloaderSlots (crawler/downloader/slots.py) against Scrapy's real downloader and engine:
what it reports must be what the downloader does."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request, signals
from scrapy.utils.test import get_crawler

from crawler import settings as project_settings
from crawler.downloader.slots import DownloaderSlots
from crawler.sandbox import SandboxWeb, html_page
from crawler.spiders.general import GeneralSpider


def _crawler(settings: dict[str, Any]) -> Any:
    crawler = get_crawler(GeneralSpider, settings)
    crawler.spider = crawler._create_spider(seed_urls="http://a.test/", crawl_id="slots")
    crawler.engine = crawler._create_engine()
    return crawler


def _in_loop(check: Any) -> None:
    """Run ``check`` on a running asyncio loop: the downloader's slot GC and download
    handlers need one."""

    async def run() -> None:
        check()

    asyncio.run(run())


URLS = [
    "http://a.test/x",
    "http://A.Test:8080/path?q=1",
    "https://user:secret@b.test/",
    "http://[::1]:8000/",
    "https://c.test",
    "ftp://d.test/file",
    "file:///etc/hosts",
]


@pytest.mark.parametrize("per_ip", [0, 2])
def test_slot_keys_are_the_downloaders(per_ip):
    crawler = _crawler({"CONCURRENT_REQUESTS_PER_IP": per_ip})
    slots = DownloaderSlots.from_crawler(crawler)
    downloader = crawler.engine.downloader
    for url in URLS:
        request = Request(url)
        assert slots.slot_key(request) == downloader.get_slot_key(request), url
    assigned = Request("http://a.test/", meta={"download_slot": "shared"})
    assert slots.slot_key(assigned) == downloader.get_slot_key(assigned) == "shared"


def test_new_slot_limits_and_live_slots_are_the_downloaders():
    crawler = _crawler(
        {
            "DOWNLOAD_SLOTS": {"slow.test": {"concurrency": 1, "delay": 2.5}},
            "CONCURRENT_REQUESTS_PER_DOMAIN": 3,
            "DOWNLOAD_DELAY": 0.25,
            "DOWNLOAD_DELAY_JITTER": 0.2,
        }
    )
    slots = DownloaderSlots.from_crawler(crawler)
    downloader = crawler.engine.downloader

    def check() -> None:
        try:
            for host, expected in (("slow.test", (1, 2.5)), ("fast.test", (3, 0.25))):
                assert slots.slot(host) is None
                assert slots.new_slot_limits(host) == expected
                key, created = downloader._get_slot(Request(f"http://{host}/"))
                assert key == host and slots.slot(host) is created
                assert (created.concurrency, created.delay) == expected
            # a slot configured later is created with that configuration
            slots.configure("late.test", {"delay": 4.0, "jitter": 0.0})
            assert slots.configured("late.test") == {"delay": 4.0, "jitter": 0.0}
            assert slots.new_slot_limits("late.test") == (3, 4.0)
            _, late = downloader._get_slot(Request("http://late.test/"))
            assert (late.delay, late.jitter) == (4.0, 0.0)
            slots.configure("late.test", None)
            assert slots.configured("late.test") is None
            assert slots.new_slot_limits("late.test") == (3, 0.25)
            assert slots.default_jitter == 0.2
        finally:
            downloader.close()

    _in_loop(check)


def test_before_the_engine_runs_nothing_is_in_progress_and_waking_is_harmless():
    crawler = _crawler({})
    slots = DownloaderSlots.from_crawler(crawler)
    assert list(slots.in_progress()) == []
    assert list(slots.downloading) == []
    slots.wake_engine()  # no engine slot yet: nothing to wake


@pytest.mark.parametrize("limit", [16, 0])
def test_a_response_waiting_for_a_worker_holds_no_place_and_is_not_downloading(limit):
    crawler = _crawler({"CONCURRENT_REQUESTS": limit})
    slots = DownloaderSlots.from_crawler(crawler)
    other = DownloaderSlots.from_crawler(crawler)  # (the scheduler's own adapter)
    downloader = crawler.engine.downloader
    waiting, downloading = Request("http://a.test/big"), Request("http://a.test/next")
    downloader.active.update({waiting, downloading})
    assert set(other.downloading) == {waiting, downloading}
    with slots.response_waiting(waiting):
        assert downloader.total_concurrency == (limit + 1 if limit else 0)
        assert set(other.downloading) == {downloading}
        assert waiting in downloader.active  # Scrapy removes it after its middlewares
    assert downloader.total_concurrency == limit
    assert set(other.downloading) == {waiting, downloading}
    try:
        with slots.response_waiting(waiting):
            raise RuntimeError("the worker died")
    except RuntimeError:
        pass
    assert downloader.total_concurrency == limit
    assert set(other.downloading) == {waiting, downloading}


class SlotProbe:
    """An extension for a real crawl: at each downloaded response, compares what
    DownloaderSlots reports with the downloader's and the engine's own state, and writes
    the tallies to SLOT_PROBE_FILE when the spider closes."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.slots = DownloaderSlots.from_crawler(crawler)
        self.path = Path(crawler.settings.get("SLOT_PROBE_FILE"))
        self.tally: Counter[str] = Counter()
        crawler.signals.connect(self.downloaded, signal=signals.response_downloaded)
        crawler.signals.connect(self.closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> SlotProbe:
        return cls(crawler)

    def downloaded(self, response: Any, request: Request) -> None:
        engine = self.crawler.engine
        downloader = engine.downloader
        key = request.meta["download_slot"]
        tally = self.tally
        tally["responses"] += 1
        tally["same key"] += self.slots.slot_key(request) == key
        tally["same slot"] += self.slots.slot(key) is downloader.slots[key]
        tally["in its slot"] += request in self.slots.slot(key).active
        tally["downloading"] += request in self.slots.downloading
        tally["in progress"] += request in self.slots.in_progress()
        nextcall = engine._slot.nextcall
        if nextcall._call is None:
            self.slots.wake_engine()
            tally["woken"] += nextcall._call is not None
            tally["asleep"] += 1

    def closed(self, spider: Any) -> None:
        self.path.write_text(json.dumps(self.tally))


def test_what_the_adapter_reports_during_a_real_crawl(sandbox, run_crawl, tmp_path):
    web = SandboxWeb()
    hosts = [f"s{i}.test" for i in range(4)]
    web.add_page(
        "http://hub.test/",
        html_page("Hub", " ".join(f'<a href="http://{host}/">{host}</a>' for host in hosts)),
    )
    for host in hosts:
        web.add_page(
            f"http://{host}/",
            html_page(host, " ".join(f'<a href="/p{i}.html">p{i}</a>' for i in range(5))),
        )
        for i in range(5):
            web.add_page(f"http://{host}/p{i}.html", html_page(f"{host} {i}", ""))
    server = sandbox(web)
    probe = tmp_path / "probe.json"
    run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://hub.test/"},
        settings={
            "EXTENSIONS": json.dumps({**project_settings.EXTENSIONS, f"{__name__}.SlotProbe": 0}),
            "SLOT_PROBE_FILE": str(probe),
            "ROBOTSTXT_OBEY": False,
        },
    ).check()
    tally = json.loads(probe.read_text())
    responses = sum(len(server.requests_for(host)) for host in ["hub.test", *hosts])
    assert responses >= 1 + len(hosts)  # the hub and the sites' home pages at least
    assert tally["responses"] == responses
    for name in ("same key", "same slot", "in its slot", "downloading", "in progress"):
        assert tally[name] == responses, name
    assert tally.get("woken", 0) == tally.get("asleep", 0)
