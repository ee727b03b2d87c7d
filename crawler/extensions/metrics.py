"""Prometheus metrics of a running crawl, opt-in with METRICS_PORT (docs/operations.md).

prometheus-client serves ``/metrics`` on METRICS_ADDRESS:METRICS_PORT from its own
thread. Each crawler gets its own CollectorRegistry (no module-level state), read at
scrape time from Scrapy's stats, so nothing is counted twice:

* ``crawler_pages_total``: pages stored (PageItems), ``crawler_requests_total``,
  ``crawler_responses_total``, ``crawler_uncrawled_total{category}``: uncrawled URLs by
  category (errors and refusals), ``crawler_duplicate_urls_total``;
* ``crawler_frontier_size``: URLs queued now.

Every series carries the labels ``crawl_id`` and ``spider``.
"""

from __future__ import annotations

import logging
import os
import socket
from collections import Counter
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.items import PageItem, UncrawledItem

logger = logging.getLogger(__name__)


class MetricsPortError(OSError):
    """METRICS_PORT is out of range or cannot be listened on."""


def check_metrics_port(address: str, port: int) -> None:
    """MetricsPortError unless ``address:port`` can be listened on now (the crawl's
    pre-flight check; the port is released again at once)."""
    if not 0 < port < 65536:
        raise MetricsPortError(f"METRICS_PORT must be in 1-65535, not {port}")
    try:
        with socket.create_server((address, port)):
            pass
    except OSError as exc:
        raise MetricsPortError(
            f"METRICS_PORT {port} on {address} cannot be used: "
            f"{os.strerror(exc.errno) if exc.errno else exc}"
        ) from None


class CrawlCollector(Collector):
    """Turns a crawl's counters into metric families when Prometheus scrapes."""

    def __init__(self, metrics: CrawlMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Any]:
        m = self.metrics
        labels = ["crawl_id", "spider"]
        values = [m.crawl_id, m.spider]
        get = m.stats.get_value

        def counter(name: str, doc: str, value: float) -> CounterMetricFamily:
            family = CounterMetricFamily(name, doc, labels=labels)
            family.add_metric(values, value)
            return family

        yield counter("crawler_pages", "Pages stored", m.pages)
        yield counter("crawler_requests", "Requests sent by the downloader",
                      int(get("downloader/request_count", 0)))
        yield counter("crawler_responses", "Responses received",
                      int(get("response_received_count", 0)))
        yield counter("crawler_duplicate_urls", "Links to URLs already seen",
                      int(get("frontier/duplicates", 0) or get("dupefilter/filtered", 0)))
        uncrawled = CounterMetricFamily(
            "crawler_uncrawled", "URLs not stored, by category", labels=[*labels, "category"]
        )
        for category, n in sorted(m.uncrawled.items()):
            uncrawled.add_metric([*values, category], n)
        yield uncrawled
        frontier = GaugeMetricFamily("crawler_frontier_size", "URLs queued", labels=labels)
        scheduler = getattr(m.crawler.engine, "scheduler", None)  # served once open
        try:
            frontier.add_metric(values, len(scheduler))  # type: ignore[arg-type]
        except TypeError:
            pass
        yield frontier


class CrawlMetrics:
    def __init__(self, crawler: Any, address: str, port: int) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.address = address
        self.port = port
        self.crawl_id = ""
        self.spider = ""
        self.pages = 0
        self.uncrawled: Counter[str] = Counter()
        self.registry = CollectorRegistry()
        self.registry.register(CrawlCollector(self))  # collected at scrape time only
        self._server: Any = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlMetrics:
        settings = crawler.settings
        port = settings.getint("METRICS_PORT", defaults.METRICS_PORT)
        if port == 0:
            raise NotConfigured  # no message: off by default
        if not 0 < port < 65536:  # `scrapy crawl` checks it first (pre-flight)
            raise MetricsPortError(f"METRICS_PORT must be in 1-65535, not {port}")
        return cls(crawler, str(settings.get("METRICS_ADDRESS", defaults.METRICS_ADDRESS)),
                   port)

    def spider_opened(self, spider: Any) -> None:
        self.crawl_id = str(getattr(spider, "crawl_id", "") or spider.name)
        self.spider = spider.name
        self._server, _thread = start_http_server(self.port, self.address, self.registry)
        logger.info("metrics on http://%s:%d/metrics", self.address, self.port)

    def item_scraped(self, item: Any, response: Any, spider: Any) -> None:
        if isinstance(item, PageItem):
            self.pages += 1
        elif isinstance(item, UncrawledItem):
            self.uncrawled[item.category] += 1

    def spider_closed(self, spider: Any, reason: str) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
