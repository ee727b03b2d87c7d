"""Links to URLs the frontier has seen stop here (spider middleware), or before the spider
builds their requests (the spider's known-link shortcut).

Documentation pages repeat their navigation: on a web of such sites most link requests a
page yields are to URLs seen before. Each went on through the referer middleware and the
engine to the scheduler, whose only work was to raise the URL's score, and came back as a
``request_dropped`` signal; that was about a sixth of the crawl thread's time
(docs/performance.md). Placed after the depth, URL-rule and trap middlewares (which keep
their say over every link), this middleware hands such a link to the scheduler's
``absorb_known_link`` (the same score update) and yields nothing for it. With another
scheduler (a spider's own SCHEDULER), or a request that is not a plain link, nothing
changes.

:class:`KnownLinkShortcut` goes one step further for the general spider: the request of
a link to a seen URL, its trip through the content-seen, URL-rule, depth and trap
middlewares and this one were still most of the crawl thread's work per page (a
documentation page links to 90 seen URLs on average). Where the verdicts of those
middlewares are known without a request, the spider hands the link to the scheduler's
``absorb_known_url`` itself and builds no request: the page's links are followed (the
content-seen verdict, ``LINKS_FOLLOWED_META``), the URL has no query (URL-parameter rules
and query-variant traps only judge queries), its depth is within DEPTH_LIMIT, and the trap
guard's URL checks (length, repeated path segments: functions of the URL alone) pass. Any
other link takes the middlewares' way. The shortcut is off (None) when a spider middleware
it does not know sits between the spider and this one, when this middleware is off, and
with KNOWN_LINKS_SHORTCUT = False.

Stats: ``frontier/known_links`` (link requests that stopped here, and links the shortcut
absorbed), of which ``frontier/known_links/shortcut`` (the shortcut's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from crawler import defaults
from crawler.middlewares.content_seen import LINKS_FOLLOWED_META
from crawler.middlewares.traps import trap_guard_settings
from crawler.politeness.once import RecentKeys
from crawler.politeness.traps import TrapGuard

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector

    from crawler.frontier.links import LinkEvent

KNOWN_LINKS_MIDDLEWARE = "crawler.middlewares.known_links.KnownLinksMiddleware"
# the spider middlewares whose verdicts on a link the shortcut knows without a request
_CONTENT_SEEN = "crawler.middlewares.content_seen.ContentSeenMiddleware"
_URL_RULES = "crawler.middlewares.url_rules.UrlParameterRulesMiddleware"
_TRAPS = "crawler.middlewares.traps.TrapDefenceMiddleware"
_DEPTH = {
    "crawler.middlewares.depth.DepthLimitMiddleware",
    "scrapy.spidermiddlewares.depth.DepthMiddleware",
}
# Scrapy's: warns about a request carrying meta copied from its response, refuses nothing
_DIAGNOSTIC = {"scrapy.spidermiddlewares.metacopy.MetaCopyDetectionMiddleware"}


class KnownLinksMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.stats = crawler.stats

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None:  # start requests (seeds)
            return request
        engine = self.crawler.engine
        scheduler = engine.scheduler if engine is not None else None
        absorb = getattr(scheduler, "absorb_known_link", None)
        if absorb is None or not absorb(request):
            return request
        self.stats.inc_value("frontier/known_links")
        return None


def _path(component: Any) -> str:
    return component if isinstance(component, str) else (
        f"{component.__module__}.{component.__qualname__}"
    )


class KnownLinkShortcut:
    """Absorbs a page's links to seen URLs before the spider builds their requests.

    ``scheduler`` and ``stats``: return the crawl's scheduler (the engine's, once open)
    and its stats collector (both built after the spider); the shortcut works with a
    scheduler that has ``absorb_known_url``. ``max_depth``: DEPTH_LIMIT (0: none;
    None: no depth middleware); ``depth_stats_verbose``: DEPTH_STATS_VERBOSE; ``guard``:
    the trap guard's URL checks (None: no trap middleware); ``passed_capacity``: URLs
    remembered as having passed them.
    """

    def __init__(
        self,
        scheduler: Callable[[], Any],
        stats: Callable[[], StatsCollector],
        *,
        max_depth: int | None,
        depth_stats_verbose: bool = False,
        guard: TrapGuard | None = None,
        passed_capacity: int = defaults.UNCRAWLED_RECORD_ONCE_MAX,
    ) -> None:
        self._scheduler = scheduler
        self._stats = stats
        self.max_depth = max_depth
        self.depth_stats_verbose = depth_stats_verbose
        self.guard = guard
        self.passed = RecentKeys(passed_capacity)
        self._absorb_url: Callable[[str, Any], bool] | None = None
        self._depth_max = 0  # the largest depth given to the request_depth_max stat

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> KnownLinkShortcut | None:
        settings = crawler.settings
        if not settings.getbool("KNOWN_LINKS_SHORTCUT", defaults.KNOWN_LINKS_SHORTCUT):
            return None
        enabled = {
            _path(component): order
            for component, order in settings.getwithbase("SPIDER_MIDDLEWARES").items()
            if order is not None
        }
        own = enabled.get(KNOWN_LINKS_MIDDLEWARE)
        if own is None:
            return None
        between = {path for path, order in enabled.items() if order > own}
        # the content-seen middleware gives the verdict the shortcut waits for
        known = {_CONTENT_SEEN, _URL_RULES, _TRAPS, *_DEPTH, *_DIAGNOSTIC}
        if _CONTENT_SEEN not in between or between - known:
            return None
        return cls(
            lambda: getattr(crawler.engine, "scheduler", None),
            lambda: crawler.stats,
            max_depth=settings.getint("DEPTH_LIMIT") if between & _DEPTH else None,
            depth_stats_verbose=settings.getbool("DEPTH_STATS_VERBOSE"),
            guard=TrapGuard(**trap_guard_settings(settings)) if _TRAPS in between else None,
            passed_capacity=settings.getint(
                "UNCRAWLED_RECORD_ONCE_MAX", defaults.UNCRAWLED_RECORD_ONCE_MAX
            ),
        )

    def page_depth(self, response: Response) -> int | None:
        """The depth of the links of ``response`` if they may take the shortcut, else None:
        the page was judged and its links are followed, and that depth is allowed."""
        meta = response.meta
        if meta.get(LINKS_FOLLOWED_META) is not True:
            return None
        if self._absorb_url is None:
            self._absorb_url = getattr(self._scheduler(), "absorb_known_url", None)
            if self._absorb_url is None:
                return None
        depth = int(meta.get("depth", 0)) + 1
        if self.max_depth and depth > self.max_depth:
            return None
        return depth

    def absorb(self, link: LinkEvent, depth: int) -> bool:
        """Whether the link (of a page ``page_depth`` allowed, at that depth) was absorbed:
        False means its request must be built and go the middlewares' way."""
        url = link.url
        if "?" in url or not url.isascii():
            return False
        if self.guard is not None and url not in self.passed:
            if self.guard.check(url) is not None:
                return False
            self.passed.add(url)
        assert self._absorb_url is not None
        return self._absorb_url(url, link.stats(depth, 0.0))

    def page_done(self, absorbed: int, depth: int) -> None:
        """The stats of a page's absorbed links, as their requests would have counted."""
        if not absorbed:
            return
        stats = self._stats()
        stats.inc_value("frontier/known_links", absorbed)
        stats.inc_value("frontier/known_links/shortcut", absorbed)
        if self.max_depth is not None:
            if self.depth_stats_verbose:
                stats.inc_value(f"request_depth_count/{depth}", absorbed)
            if depth > self._depth_max:
                self._depth_max = depth
                stats.max_value("request_depth_max", depth)
