"""Spider-trap defence on the requests a spider emits (spider middleware).

Each link request is checked by a :class:`~crawler.politeness.traps.TrapGuard`: URL
length (TRAP_MAX_URL_LENGTH), repeated path segments (TRAP_MAX_PATH_REPETITIONS) and
query-string variants per scheme+host+path (TRAP_MAX_QUERY_VARIANTS). A refused URL is
emitted once as ``UncrawledItem(url, "trap", detail=reason)`` instead of its request.
Session ids are already gone: canonical_url strips them. Start requests (seeds) are not
checked. The counters live in memory per crawl id: a resumed crawl starts them afresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from crawler import defaults
from crawler.items import UncrawledItem
from crawler.politeness.once import RecentKeys
from crawler.politeness.traps import TrapGuard
from crawler.urls import canonical_url

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings


def trap_guard_settings(settings: BaseSettings) -> dict[str, int]:
    """The TrapGuard arguments of a crawl's settings."""
    return {
        "max_url_length": settings.getint("TRAP_MAX_URL_LENGTH", defaults.TRAP_MAX_URL_LENGTH),
        "max_path_repetitions": settings.getint(
            "TRAP_MAX_PATH_REPETITIONS", defaults.TRAP_MAX_PATH_REPETITIONS
        ),
        "max_query_variants": settings.getint(
            "TRAP_MAX_QUERY_VARIANTS", defaults.TRAP_MAX_QUERY_VARIANTS
        ),
        "max_tracked_paths": settings.getint("TRAP_TRACKED_PATHS", defaults.TRAP_TRACKED_PATHS),
    }


class TrapDefenceMiddleware(BaseSpiderMiddleware):
    """``guard_settings``: the keyword arguments of each crawl's :class:`TrapGuard`;
    ``once_capacity``: refused URLs remembered per crawl (recorded once)."""

    def __init__(
        self, crawler: Crawler, guard_settings: dict[str, int], once_capacity: int
    ) -> None:
        super().__init__(crawler)
        self.stats = crawler.stats
        self._guard_settings = guard_settings
        self._once_capacity = once_capacity
        self._guards: dict[str, TrapGuard] = {}
        self._recorded: dict[str, RecentKeys] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrapDefenceMiddleware:
        settings = crawler.settings
        guard_settings = trap_guard_settings(settings)
        once_capacity = settings.getint(
            "UNCRAWLED_RECORD_ONCE_MAX", defaults.UNCRAWLED_RECORD_ONCE_MAX
        )
        return cls(crawler, guard_settings, once_capacity)

    def _crawl_id(self) -> str:
        spider = self.crawler.spider
        return str(getattr(spider, "crawl_id", "") or getattr(spider, "name", ""))

    def guard(self) -> TrapGuard:
        """The trap counters of the running crawl."""
        crawl_id = self._crawl_id()
        guard = self._guards.get(crawl_id)
        if guard is None:
            guard = self._guards[crawl_id] = TrapGuard(**self._guard_settings)
            self._recorded[crawl_id] = RecentKeys(self._once_capacity)
        return guard

    def get_processed_request(  # type: ignore[override]
        self, request: Request, response: Response | None
    ) -> Request | UncrawledItem | None:
        if response is None or request.meta.get("dont_check_traps"):
            return request
        refusal = self.guard().check(request.url)
        if refusal is None:
            return request
        self.stats.inc_value("trap/refused")
        self.stats.inc_value(f"trap/refused/{refusal.kind}")
        url = canonical_url(request.url) or request.url
        if not self._recorded[self._crawl_id()].add(url):
            return None
        return UncrawledItem(url, "trap", str(refusal))
