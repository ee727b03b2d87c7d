"""WARC/1.1 archive of a crawl: every fetch written as it happens (docs/operations.md).

On by setting WARC_DIR. Each response Scrapy receives (robots.txt files included) is
written by crawler.warc.RotatingWarcWriter as a response (or revisit) record and its
request record; files rotate at WARC_MAX_SIZE and are renamed from ``.open`` when closed,
also when the spider closes. The body archived is the one Scrapy hands to the spider
(de-chunked and decompressed), with Content-Length set to its length. Each file closed
gets its CDXJ index (crawler/warc/index.py) beside it, written in a thread of its own
(WARC_INDEX); the spider closes once the last one is written.

Stats: ``warc/responses``, ``warc/revisits``, ``warc/files``, ``warc/bytes``,
``warc/errors``, ``warc/indexes``, ``warc/index_errors``.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.settings import SETTINGS_PRIORITIES

from crawler import defaults
from crawler.warc import Exchange, RotatingWarcWriter, check_warc_dir
from crawler.warc.index import WarcIndexError, write_index
from crawler.warc.writer import flat_headers

logger = logging.getLogger(__name__)

# Settings named in every warcinfo record, besides those set on the command line or by
# the spider.
_INFO_SETTINGS = (
    "BOT_NAME", "USER_AGENT", "ROBOTSTXT_OBEY", "DOWNLOAD_DELAY", "CONCURRENT_REQUESTS",
    "CONCURRENT_REQUESTS_PER_DOMAIN", "DEPTH_LIMIT", "FRONTIER_STRATEGY",
)


def warcinfo_fields(settings: Any, spider: Any) -> dict[str, str]:
    """What a warcinfo record says about the crawl: spider, arguments, settings."""
    chosen = {
        name: settings[name] for name in settings
        if settings.getpriority(name) >= SETTINGS_PRIORITIES["spider"]
    }
    for name in _INFO_SETTINGS:
        if settings.get(name) is not None:
            chosen.setdefault(name, settings[name])
    return {
        "spider": spider.name,
        "arguments": json.dumps(getattr(spider, "arguments", {}), sort_keys=True, default=str),
        "settings": json.dumps(dict(sorted(chosen.items())), default=str),
        "robots": "obey" if settings.getbool("ROBOTSTXT_OBEY") else "ignore",
    }


class WarcArchive:
    def __init__(self, crawler: Any, directory: str, max_size: int, revisits: bool,
                 index: bool = defaults.WARC_INDEX) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.directory = check_warc_dir(directory)
        self.max_size = max_size
        self.revisits = revisits
        self.index = index
        self.writer: RotatingWarcWriter | None = None
        # one thread indexes the closed files in turn: reading a closed file back (up to
        # WARC_MAX_SIZE bytes) must not hold the reactor, nor the threads of its DNS pool
        self._indexer: ThreadPoolExecutor | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.response_received, signal=signals.response_received)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> WarcArchive:
        settings = crawler.settings
        directory = settings.get("WARC_DIR", defaults.WARC_DIR)
        if not directory:
            raise NotConfigured  # no message: off by default
        max_size = settings.getint("WARC_MAX_SIZE", defaults.WARC_MAX_SIZE)
        if max_size <= 0:
            raise ValueError(f"WARC_MAX_SIZE must be > 0, not {max_size}")
        return cls(crawler, str(directory), max_size,
                   settings.getbool("WARC_REVISITS", defaults.WARC_REVISITS),
                   settings.getbool("WARC_INDEX", defaults.WARC_INDEX))

    def spider_opened(self, spider: Any) -> None:
        crawl_id = str(getattr(spider, "crawl_id", "") or spider.name)
        self.writer = RotatingWarcWriter(
            self.directory, crawl_id, max_size=self.max_size,
            info=warcinfo_fields(self.crawler.settings, spider), revisits=self.revisits,
            on_close=self._index_later if self.index else None,
        )
        logger.info("writing WARC files to %s", self.directory)

    def response_received(self, response: Any, request: Any, spider: Any) -> None:
        if self.writer is None or not response.url.startswith(("http://", "https://")):
            return
        exchange = Exchange(
            url=response.url,
            method=request.method,
            request_headers=flat_headers(request.headers.items()),
            request_body=request.body,
            status=response.status,
            response_headers=flat_headers(response.headers.items()),
            body=response.body,
            protocol=response.protocol or "HTTP/1.1",
            ip_address=str(response.ip_address) if response.ip_address else None,
        )
        try:
            kind = self.writer.write(exchange)
        except OSError as exc:  # disk full, directory removed: stop archiving, say so
            logger.error("WARC writing stopped: %s", exc)
            self.stats.inc_value("warc/errors")
            self.writer = None
            return
        self.stats.inc_value("warc/revisits" if kind == "revisit" else "warc/responses")
        self.stats.set_value("warc/files", self.writer.stats.files)
        self.stats.set_value("warc/bytes", self.writer.stats.bytes)

    def _index_later(self, path: Path) -> None:
        if self._indexer is None:
            self._indexer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warc-index")
        self._indexer.submit(self._index, path)

    def _index(self, path: Path) -> None:
        """In the indexing thread: one closed file's index; stats counted on the reactor."""
        from twisted.internet import reactor

        try:
            # the writer closed the file whole: no need to read its framing first
            write_index(path, check_framing=False)
        except Exception as exc:  # any error: in a thread it would vanish unlogged
            reason = exc if isinstance(exc, WarcIndexError) else f"{path}: {exc!r}"
            logger.error("WARC index not written: %s (`scrapy warc index` rebuilds it)",
                         reason)
            reactor.callFromThread(self.stats.inc_value, "warc/index_errors")
        else:
            reactor.callFromThread(self.stats.inc_value, "warc/indexes")

    def spider_closed(self, spider: Any, reason: str) -> Any:
        if self.writer is None and self._indexer is None:
            return None
        if self.writer is not None:
            self.writer.close()
            logger.info(
                "WARC: %d files in %s, %d responses, %d revisits",
                self.writer.stats.files, self.directory, self.writer.stats.responses,
                self.writer.stats.revisits,
            )
        if self._indexer is None:
            return None
        from twisted.internet import threads

        # spider_closed handlers may return a Deferred: the crawl ends once every index
        # of a closed file is written
        return threads.deferToThread(self._indexer.shutdown, wait=True)
