"""URL-parameter rules in the crawl (crawler/urlrules): learned from the content-seen
test's verdicts, applied before scheduling and again before download.

* :class:`UrlParameterRulesMiddleware` (spider middleware, order 920: after the
  content-seen test at 950, before the depth and trap checks) learns from the items the
  content-seen test lets through (a ``PageItem`` is a new content; a
  ``duplicate_content`` record names its original) and rewrites every link request
  without its irrelevant parameters, so the scheduler's URL-seen test sees one URL per
  page. The link it replaced is recorded once as ``trap`` (``url_parameters: ...``).
* :class:`UrlParameterRulesDownloaderMiddleware` (downloader middleware, order 95:
  before robots.txt) refuses a request that was queued before its rule was learned when
  a URL of the same path that is the same page under the rules was already requested
  (``IgnoreRequest`` tagged ``trap``).

Rules live per crawl id in ``url_parameter_rules`` (survive a resume, shared by agents:
reloaded every URLRULES_REFRESH_INTERVAL). Listed by ``scrapy urlrules``. Stats:
``urlrules/learned``, ``urlrules/undone``, ``urlrules/rewritten``, ``urlrules/refused``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from psycopg_pool import AsyncConnectionPool
from scrapy import Request, signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http.request import NO_CALLBACK

from crawler import defaults
from crawler.dedup.content_seen import Duplicate
from crawler.frontier.links import LinkEvent
from crawler.items import PageItem, UncrawledItem
from crawler.politeness.once import RecentKeys
from crawler.storage.database import crawl_database
from crawler.urlrules.learner import ParameterRule, ParameterRules, RuleChange
from crawler.urlrules.store import UrlRuleStore
from crawler.urls import canonical_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


def _when(rule: ParameterRule) -> str:
    return datetime.fromtimestamp(rule.learned_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def rules_detail(same_as: str, rules: list[ParameterRule]) -> str:
    """The ``uncrawled.detail`` of a URL not fetched because of parameter rules."""
    why = "; ".join(f"{rule.describe()} (learned {_when(rule)})" for rule in rules)
    return f"url_parameters: same page as {same_as}: {why} (scrapy urlrules)"


class UrlParametersRefused(IgnoreRequest):
    """A URL queued before its parameter rule was learned: the same page under the rules
    was already requested."""

    uncrawled_category = "trap"


class UrlParameterRulesMiddleware:
    def __init__(
        self,
        crawler: Crawler,
        *,
        min_pairs: int,
        host_min_paths: int,
        tracked_paths: int,
        refresh_interval: float,
        once_capacity: int,
        max_pending: int,
        wait_timeout: float,
    ) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self._learner_settings = {
            "min_pairs": min_pairs, "host_min_paths": host_min_paths,
            "max_tracked_paths": tracked_paths, "max_pending": max_pending,
        }
        self.wait_timeout = wait_timeout
        # set (and replaced) whenever an outcome is judged: wakes held variants
        self._progress = asyncio.Event()
        self.refresh_interval = refresh_interval
        self.once_capacity = once_capacity
        self.rules: dict[str, ParameterRules] = {}  # per crawl id
        self.stores: dict[str, UrlRuleStore] = {}
        self._recorded: dict[str, RecentKeys] = {}
        self.pool: AsyncConnectionPool | None = None
        self._writes: set[asyncio.Task[None]] = set()
        self._refresher: asyncio.Task[None] | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> UrlParameterRulesMiddleware:
        settings = crawler.settings
        if not settings.getbool("URLRULES_ENABLED", defaults.URLRULES_ENABLED):
            raise NotConfigured("URLRULES_ENABLED is off")
        return cls(
            crawler,
            min_pairs=settings.getint("URLRULES_MIN_PAIRS", defaults.URLRULES_MIN_PAIRS),
            host_min_paths=settings.getint(
                "URLRULES_HOST_MIN_PATHS", defaults.URLRULES_HOST_MIN_PATHS),
            tracked_paths=settings.getint(
                "URLRULES_TRACKED_PATHS", defaults.URLRULES_TRACKED_PATHS),
            refresh_interval=settings.getfloat(
                "URLRULES_REFRESH_INTERVAL", defaults.URLRULES_REFRESH_INTERVAL),
            once_capacity=settings.getint(
                "UNCRAWLED_RECORD_ONCE_MAX", defaults.UNCRAWLED_RECORD_ONCE_MAX),
            max_pending=settings.getint(
                "URLRULES_MAX_PENDING_VARIANTS", defaults.URLRULES_MAX_PENDING_VARIANTS),
            wait_timeout=settings.getfloat(
                "URLRULES_WAIT_TIMEOUT", defaults.URLRULES_WAIT_TIMEOUT),
        )

    def _crawl_id(self) -> str:
        spider = self.crawler.spider
        return str(getattr(spider, "crawl_id", "") or getattr(spider, "name", ""))

    def crawl_rules(self) -> ParameterRules:
        """The rules of the running crawl."""
        crawl_id = self._crawl_id()
        rules = self.rules.get(crawl_id)
        if rules is None:
            rules = self.rules[crawl_id] = ParameterRules(**self._learner_settings)
            self._recorded[crawl_id] = RecentKeys(self.once_capacity)
        return rules

    # ------------------------------------------------------------------ life cycle

    async def spider_opened(self, spider: Any) -> None:
        crawl_id = self._crawl_id()
        rules = self.crawl_rules()
        try:
            database = crawl_database(self.crawler)
            database.prepare()
            self.pool = AsyncConnectionPool(database.url, min_size=1, max_size=2, open=False)
            await self.pool.open(wait=True)
            store = UrlRuleStore(self.pool, crawl_id)
            active, undone = await store.load()
        except Exception:
            logger.exception("URL-parameter rules: database unavailable, kept in memory only")
            self.pool = None
            return
        self.stores[crawl_id] = store
        rules.load(active, undone)
        self.stats.set_value("urlrules/loaded", len(rules.active()))
        if self.refresh_interval > 0:
            self._refresher = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        """Pick up the rules other agents of the crawl learned or undid."""
        while True:
            await asyncio.sleep(self.refresh_interval)
            for crawl_id, store in list(self.stores.items()):
                try:
                    active, undone = await store.load()
                except Exception:
                    logger.exception("URL-parameter rules: reload failed")
                    continue
                self.rules[crawl_id].load(active, undone)

    async def spider_closed(self, spider: Any, reason: str) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            self._refresher = None
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    # ------------------------------------------------------------------ the crawl

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        rules = self.crawl_rules()
        async for output in result:
            if isinstance(output, (PageItem, UncrawledItem)) and rules.judged(output.url):
                self.judged()
            if isinstance(output, PageItem):
                self._changed(rules.admitted(output.url))
            elif isinstance(output, UncrawledItem) and output.category == "duplicate_content":
                try:
                    original = Duplicate.parse_detail(output.detail).original
                except ValueError:
                    original = None
                if original:
                    self._changed(rules.duplicate(output.url, original))
            elif isinstance(output, Request):
                for rewritten in self._rewrite(rules, output):
                    yield rewritten
                continue
            yield output

    def judged(self) -> None:
        """Wake the variants held back until earlier ones were judged."""
        self._progress.set()
        self._progress = asyncio.Event()

    async def wait_for_judgement(self) -> None:
        await asyncio.wait_for(self._progress.wait(), timeout=self.wait_timeout)

    def _rewrite(self, rules: ParameterRules, request: Request) -> list[Any]:
        url, applied = rules.without_irrelevant(request.url)
        if not applied:
            return [request]
        url = canonical_url(url) or url
        self.stats.inc_value("urlrules/rewritten")
        meta = dict(request.meta)
        link = meta.get("link")
        if isinstance(link, LinkEvent):
            meta["link"] = link.to(url)
        meta["url_parameters_of"] = request.url
        out: list[Any] = [request.replace(url=url, meta=meta)]
        if self._recorded[self._crawl_id()].add(request.url):
            out.append(UncrawledItem(request.url, "trap", rules_detail(url, applied)))
        return out

    def _changed(self, changes: list[RuleChange]) -> None:
        if not changes:
            return
        for change in changes:
            if change.learned:
                self.stats.inc_value("urlrules/learned")
                logger.info("URL rule learned: %s: %s", change.rule.describe(),
                            change.rule.evidence)
            else:
                self.stats.inc_value("urlrules/undone")
                logger.info("URL rule undone: %s: %s", change.rule.describe(),
                            change.undone_because)
        store = self.stores.get(self._crawl_id())
        if store is None:
            return

        async def write() -> None:
            try:
                await store.save(changes)
            except Exception:
                logger.exception("URL-parameter rules not stored")

        task = asyncio.get_running_loop().create_task(write())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)


class UrlParameterRulesDownloaderMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self._learning: UrlParameterRulesMiddleware | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> UrlParameterRulesDownloaderMiddleware:
        if not crawler.settings.getbool("URLRULES_ENABLED", defaults.URLRULES_ENABLED):
            raise NotConfigured("URLRULES_ENABLED is off")
        return cls(crawler)

    async def process_request(self, request: Request) -> None:
        if request.meta.get("dont_obey_robotstxt") or request.callback is NO_CALLBACK:
            return  # robots.txt and sitemaps
        if self._learning is None:
            self._learning = self.crawler.get_spider_middleware(UrlParameterRulesMiddleware)
            if self._learning is None:
                return
        learning = self._learning
        rules = learning.crawl_rules()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + learning.wait_timeout
        while rules.must_wait(request.url) and loop.time() < deadline:
            # earlier variants of the path are in flight: their verdicts may make this
            # one the same page as a URL already requested
            self.stats.inc_value("urlrules/held")
            try:
                await learning.wait_for_judgement()
            except TimeoutError:
                break
        earlier = rules.requested(request.url)
        if earlier is None:
            return
        _, applied = rules.without_irrelevant(request.url)
        self.stats.inc_value("urlrules/refused")
        raise UrlParametersRefused(rules_detail(earlier, applied))

    def process_response(self, request: Request, response: Response) -> Response:
        if response.status != 200 and self._learning is not None:
            # no page will be judged for it (an error, a redirect: its target is judged)
            if self._learning.crawl_rules().judged(request.url):
                self._learning.judged()
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        if self._learning is not None and self._learning.crawl_rules().judged(request.url):
            self._learning.judged()
