"""Analyses HTML responses in worker processes before the spider sees them.

A downloader middleware next to the engine (after redirects, retries and decompression):
once the crawl has received PAGE_ANALYSIS_START_AFTER HTML pages, or its scheduler holds
PAGE_ANALYSIS_START_QUEUE requests (the workers start then), for a 2xx HTML response it
awaits :class:`~crawler.page_analysis.PageAnalysisPool`'s analysis and attaches it to
``meta[PAGE_ANALYSIS_META]``; the spider's parse() uses it instead of parsing the page on
the crawl's thread. When the workers are busy or still starting, the response passes on
unanalysed and the spider analyses it itself, as it does with PAGE_ANALYSIS_PROCESSES = 0.

Stats: ``page_analysis/workers`` (pages analysed by a worker), ``page_analysis/in_process``
(HTML responses passed on to be analysed in the crawl's process), split into
``page_analysis/in_process/workers_starting`` and ``.../workers_busy`` (every worker's
queue full), ``page_analysis/ready_seconds`` (from the pool's start to its first worker's
readiness), ``page_analysis/worker_died``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.http import Response, TextResponse

from crawler import defaults
from crawler.content import content_mime
from crawler.downloader.slots import DownloaderSlots
from crawler.middlewares.content_seen import fingerprint_config
from crawler.page_analysis import (
    PAGE_ANALYSIS_META,
    MetaPageAnalysis,
    PageAnalysisPool,
    default_processes,
    result,
)

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


def _scheduled_requests(crawler: Crawler) -> int:
    engine = getattr(crawler, "engine", None)
    scheduler = getattr(engine, "scheduler", None) if engine is not None else None
    try:
        return len(scheduler) if scheduler is not None else 0
    except TypeError:  # a scheduler without a length
        return 0


class PageAnalysisMiddleware:
    def __init__(
        self,
        pool: PageAnalysisPool,
        stats: StatsCollector,
        *,
        html_content_types: frozenset[str],
        anchor_max_chars: int,
        main_content_max_bytes: int = defaults.PAGE_MAIN_CONTENT_MAX_BYTES,
        start_after: int = defaults.PAGE_ANALYSIS_START_AFTER,
        start_queue: int = defaults.PAGE_ANALYSIS_START_QUEUE,
        queued: Callable[[], int] | None = None,
        in_process_max_bytes: int = defaults.PAGE_ANALYSIS_IN_PROCESS_MAX_BYTES,
        wait_max_bytes: int = defaults.PAGE_ANALYSIS_WAIT_MAX_BYTES,
        slots: DownloaderSlots | None = None,
    ) -> None:
        self.pool = pool
        # (None: a middleware without a crawl's downloader, in unit tests)
        self.slots = slots
        self.stats = stats
        self.html_content_types = html_content_types
        self.anchor_max_chars = anchor_max_chars
        self.main_content_max_bytes = main_content_max_bytes
        self.start_after = start_after
        self.start_queue = start_queue
        self.queued = queued  # requests the scheduler holds
        self.in_process_max_bytes = in_process_max_bytes
        self.wait_max_bytes = wait_max_bytes * max(1, pool.processes)
        self.html_pages = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageAnalysisMiddleware:
        settings = crawler.settings
        processes = settings.get("PAGE_ANALYSIS_PROCESSES", defaults.PAGE_ANALYSIS_PROCESSES)
        processes = default_processes() if processes in (None, "") else int(processes)
        pool = PageAnalysisPool(
            processes,
            settings.getint("PAGE_ANALYSIS_MAX_PENDING", defaults.PAGE_ANALYSIS_MAX_PENDING),
            # the content-seen test's fingerprint is made in the worker too
            fingerprint_config(settings),
        )
        middleware = cls(
            pool,
            crawler.stats,
            html_content_types=frozenset(
                settings.getlist("PAGE_HTML_CONTENT_TYPES", defaults.PAGE_HTML_CONTENT_TYPES)
            ),
            anchor_max_chars=settings.getint(
                "LINK_ANCHOR_MAX_CHARS", defaults.LINK_ANCHOR_MAX_CHARS
            ),
            main_content_max_bytes=settings.getint(
                "PAGE_MAIN_CONTENT_MAX_BYTES", defaults.PAGE_MAIN_CONTENT_MAX_BYTES
            ),
            start_after=settings.getint(
                "PAGE_ANALYSIS_START_AFTER", defaults.PAGE_ANALYSIS_START_AFTER
            ),
            start_queue=settings.getint(
                "PAGE_ANALYSIS_START_QUEUE", defaults.PAGE_ANALYSIS_START_QUEUE
            ),
            queued=lambda: _scheduled_requests(crawler),
            in_process_max_bytes=settings.getint(
                "PAGE_ANALYSIS_IN_PROCESS_MAX_BYTES", defaults.PAGE_ANALYSIS_IN_PROCESS_MAX_BYTES
            ),
            wait_max_bytes=settings.getint(
                "PAGE_ANALYSIS_WAIT_MAX_BYTES", defaults.PAGE_ANALYSIS_WAIT_MAX_BYTES
            ),
            slots=DownloaderSlots.from_crawler(crawler),
        )
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def _work_ahead(self) -> bool:
        return bool(self.start_queue and self.queued and self.queued() >= self.start_queue)

    def spider_closed(self, spider: Spider) -> None:
        if self.pool.ready_after is not None:
            self.stats.set_value("page_analysis/ready_seconds", round(self.pool.ready_after, 3))
        self.pool.close()

    def _waits_for_a_worker(self, response: Response) -> bool:
        # too large for the crawl's process, and the workers' backlog is short enough
        return (
            0 < self.in_process_max_bytes < len(response.body)
            and self.pool.pending_bytes < self.wait_max_bytes
        )

    def _is_html(self, response: Response) -> bool:
        if not isinstance(response, TextResponse) or not 200 <= response.status < 300:
            return False
        return content_mime(response.headers.get(b"Content-Type")) in self.html_content_types

    async def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        if not self.pool.processes or not response.body or not self._is_html(response):
            return response
        self.html_pages += 1
        if self.html_pages >= self.start_after or self._work_ahead():
            # (a no-op once open) pages arriving before the workers are ready are
            # analysed in the crawl's process
            self.pool.open()
        if self.pool.saturated:
            if not self._waits_for_a_worker(response):
                self.stats.inc_value("page_analysis/in_process")
                self.stats.inc_value(
                    "page_analysis/in_process/"
                    + ("workers_busy" if self.pool.ready else "workers_starting")
                )
                return response
            # the event loop would stop for the whole analysis: wait for a worker
            self.stats.inc_value("page_analysis/waited_for_worker")
        content_language = (response.headers.get(b"Content-Language") or b"").decode("latin-1")
        try:
            future = self.pool.submit(
                response.body,
                response.url,
                encoding=response.encoding,
                content_language=content_language,
                anchor_max_chars=self.anchor_max_chars,
                main_content_max_bytes=self.main_content_max_bytes,
            )
            if self.slots is None:
                values: Any = await asyncio.wrap_future(future)
            else:
                # the download is over: its place goes to the next request meanwhile
                with self.slots.response_waiting(request):
                    values = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # a worker died (this page or another one it held): the spider analyses this
            # page in the crawl's process, new workers take the next ones
            self.pool.broken()
            self.stats.inc_value("page_analysis/worker_died")
            self.stats.inc_value("page_analysis/in_process")
            return response
        request.meta[PAGE_ANALYSIS_META] = MetaPageAnalysis(
            response.url, len(response.body), result(values)
        )
        self.stats.inc_value("page_analysis/workers")
        return response
