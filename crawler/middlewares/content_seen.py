"""The content-seen test as a spider middleware: duplicates are not stored, their links
not followed (docs/dedup.md).

Scrapy schedules the requests a callback yields while its items are still in the item
pipelines, so the test cannot be a pipeline: it sits next to the spider
(SPIDER_MIDDLEWARES order 950, before the depth and trap middlewares) and sees each
callback's output in order -- the PageItem, then the page's link requests.  Requests
that come before the page's PageItem are held until it has been judged.

A page whose text is an exact duplicate (same MD5 of the normalised text) or a near
duplicate (Jaccard of winnowing minutiae >= DEDUP_THRESHOLD, verified; or, from
DEDUP_CANDIDATE_THRESHOLD, word alignment >= DEDUP_ALIGNMENT_THRESHOLD) of a page
admitted earlier in the crawl is replaced by
``UncrawledItem(url, "duplicate_content", "<exact|near> duplicate of <URL> (similarity
<J>)")`` and its link requests are dropped, unless DEDUP_FOLLOW_LINKS.  The fingerprint
is the page's title and text (as the spider extracted them).

Admitted pages' fingerprints are written in batches to ``page_fingerprints`` (on the
asyncio loop, through an async connection pool); when the spider opens, the test of the
crawl id is rebuilt from that table, so a resumed crawl still rejects copies of pages
admitted before the restart.

Several agents of one crawl (DEDUP_SHARED, docs/dedup.md): the test is kept in
PostgreSQL instead (crawler/dedup/shared.py), each page checked and admitted in one
transaction under advisory locks on its digest and LSH band keys, so a page and its copy
fetched by two agents give one page and one ``duplicate_content`` row. ``auto`` (the
default) shares the test in a distributed crawl (AGENTS_ENABLED, docs/distributed.md)
or when the spider asks for it (``spider.dedup_shared``); every agent of a crawl must
decide the same way.

Stats: ``dedup/shared`` (1 when shared), ``dedup/shared_seconds`` (its transactions),
``dedup/pages_checked``, ``dedup/exact``, ``dedup/near`` (of which
``dedup/near_aligned`` by the second stage),
``dedup/fingerprint_seconds`` (fingerprint + index work),
``dedup/worker_fingerprints`` (fingerprints a page-analysis worker made), ``dedup/links_dropped``,
``dedup/loaded`` (fingerprints loaded at start), ``dedup/stored``.

Once a page is judged, ``response.meta[LINKS_FOLLOWED_META]`` says whether its links are
followed: the spider's known-link shortcut (crawler/middlewares/known_links.py) reads it
before it builds the page's link requests.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from psycopg_pool import AsyncConnectionPool
from scrapy import Request, signals
from scrapy.exceptions import CloseSpider, NotConfigured, UsageError

from crawler import defaults
from crawler.dedup.authority import LinkEvidence
from crawler.dedup.content_seen import (
    CONTENT_CHOICES,
    ContentSeenTest,
    Duplicate,
    FingerprintConfig,
    PageFingerprint,
    fingerprint_text,
)
from crawler.dedup.shared import SharedContentSeen
from crawler.dedup.store import FingerprintStore
from crawler.dedup.winnowing import WinnowingFingerprint
from crawler.items import PageItem, UncrawledItem
from crawler.page_analysis import PAGE_ANALYSIS_META, MetaPageAnalysis
from crawler.storage.database import CrawlDatabase, crawl_database

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

# response.meta key: True / False once the page's PageItem was judged (its links followed
# or dropped); absent before, and on a response this middleware never judged
LINKS_FOLLOWED_META = "links_followed"


def page_text(item: PageItem, content: str = defaults.DEDUP_CONTENT) -> str:
    """What the content-seen test fingerprints: the title and the main content of a
    page, or its whole text (``content``, DEDUP_CONTENT)."""
    return fingerprint_text(item.title, item.text, item.main_text, content)


def fingerprint_config(settings: Any) -> FingerprintConfig | None:
    """The content-seen test's fingerprint settings; None when the test is off."""
    if not settings.getbool("DEDUP_ENABLED", defaults.DEDUP_ENABLED):
        return None
    content = str(settings.get("DEDUP_CONTENT", defaults.DEDUP_CONTENT)).lower()
    if content not in CONTENT_CHOICES:
        raise UsageError(
            f"DEDUP_CONTENT must be {' or '.join(CONTENT_CHOICES)}, not {content!r}",
            print_help=False,
        )
    return FingerprintConfig(
        settings.getint("DEDUP_K", defaults.DEDUP_K),
        settings.getint("DEDUP_W", defaults.DEDUP_W),
        str(settings.get("DEDUP_HASH", defaults.DEDUP_HASH)),
        settings.getint("DEDUP_NUM_PERM", defaults.DEDUP_NUM_PERM),
        settings.getfloat("DEDUP_THRESHOLD", defaults.DEDUP_THRESHOLD),
        settings.getfloat("DEDUP_CANDIDATE_THRESHOLD", defaults.DEDUP_CANDIDATE_THRESHOLD),
        content,
    )


def _worker_fingerprint(
    test: ContentSeenTest, response: Response | None, item: PageItem
) -> PageFingerprint | None | bool:
    """The page's fingerprint made by a page-analysis worker, if one was made with the
    test's configuration for this response's text (False: none)."""
    if response is None:
        return False
    attached = response.meta.pop(PAGE_ANALYSIS_META, None)
    if not isinstance(attached, MetaPageAnalysis) or not attached.matches(
        response.url, response.body
    ):
        return False
    made = attached.analysis.fingerprint
    if made is None or made[0] != test.fingerprint_config:
        return False
    analysis = attached.analysis
    if (analysis.title, analysis.text, analysis.main_text) != (
        item.title,
        item.text,
        item.main_text or "",
    ):
        return False  # the spider changed the text
    return made[1]


class ContentSeenMiddleware:
    def __init__(
        self,
        crawler: Crawler,
        database: CrawlDatabase,
        winnowing: WinnowingFingerprint,
        *,
        threshold: float,
        candidate_threshold: float,
        alignment_threshold: float,
        num_perm: int,
        follow_links: bool,
        in_memory: bool,
        batch_size: int,
        flush_interval: float,
        attempts: int,
        shared_setting: str,
        agents_enabled: bool,
        keep_authoritative: bool,
        content: str = defaults.DEDUP_CONTENT,
        short_page_words: int = defaults.DEDUP_SHORT_PAGE_WORDS,
        same_host_titles_differ: bool = defaults.DEDUP_SAME_HOST_TITLES_DIFFER,
    ) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.winnowing = winnowing
        self.threshold = threshold
        self.candidate_threshold = min(threshold, candidate_threshold)
        self.alignment_threshold = alignment_threshold
        self.num_perm = num_perm
        self.content = content
        self.short_page_words = short_page_words
        self.same_host_titles_differ = same_host_titles_differ
        self.follow_links = follow_links
        self.in_memory = in_memory
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.attempts = attempts
        self.shared_setting = shared_setting.lower()
        self.agents_enabled = agents_enabled
        if self.shared_setting not in ("auto", "true", "false", "1", "0"):
            raise UsageError(
                f"DEDUP_SHARED must be auto, true or false, not {self.shared_setting!r}",
                print_help=False,
            )
        self.database = database
        self.shared: dict[str, SharedContentSeen] = {}
        # keep the more important copy of a content (crawler/dedup/authority.py)
        self.authority: dict[str, LinkEvidence] | None = {} if keep_authoritative else None
        self.demoted: list[UncrawledItem] = []  # admitted copies replaced by a better one
        # one test per crawl id (a process runs one crawl, but state is keyed all the same)
        self.tests: dict[str, ContentSeenTest] = {}
        self.stores: dict[str, FingerprintStore] = {}
        self.pool: AsyncConnectionPool | None = None
        self._ready = asyncio.Event()
        self._stopping = asyncio.Event()
        self._batch_full = asyncio.Event()  # a fingerprint batch waits for its write
        self._batch_started: float | None = None  # monotonic time of its first row
        self._flusher: asyncio.Task[None] | None = None
        self._idle_flush: asyncio.Task[None] | None = None
        self._lookup_lock = asyncio.Lock()
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentSeenMiddleware:
        settings = crawler.settings
        config = fingerprint_config(settings)
        if config is None:
            raise NotConfigured("DEDUP_ENABLED is off")
        return cls(
            crawler,
            crawl_database(crawler),
            WinnowingFingerprint(config.k, config.w, config.hash_name),
            threshold=config.threshold,
            candidate_threshold=config.candidate_threshold,
            alignment_threshold=settings.getfloat(
                "DEDUP_ALIGNMENT_THRESHOLD", defaults.DEDUP_ALIGNMENT_THRESHOLD
            ),
            num_perm=config.num_perm,
            follow_links=settings.getbool("DEDUP_FOLLOW_LINKS", defaults.DEDUP_FOLLOW_LINKS),
            in_memory=settings.getbool(
                "DEDUP_MINUTIAE_IN_MEMORY", defaults.DEDUP_MINUTIAE_IN_MEMORY
            ),
            batch_size=settings.getint("STORE_BATCH_SIZE", defaults.STORE_BATCH_SIZE),
            flush_interval=settings.getfloat("STORE_FLUSH_INTERVAL", defaults.STORE_FLUSH_INTERVAL),
            attempts=settings.getint("STORE_WRITE_ATTEMPTS", defaults.STORE_WRITE_ATTEMPTS),
            shared_setting=str(settings.get("DEDUP_SHARED", defaults.DEDUP_SHARED)),
            agents_enabled=settings.getbool("AGENTS_ENABLED", defaults.AGENTS_ENABLED),
            keep_authoritative=settings.getbool(
                "DEDUP_KEEP_AUTHORITATIVE", defaults.DEDUP_KEEP_AUTHORITATIVE
            ),
            content=config.content,
            short_page_words=settings.getint(
                "DEDUP_SHORT_PAGE_WORDS", defaults.DEDUP_SHORT_PAGE_WORDS
            ),
            same_host_titles_differ=settings.getbool(
                "DEDUP_SAME_HOST_TITLES_DIFFER", defaults.DEDUP_SAME_HOST_TITLES_DIFFER
            ),
        )

    def _shared_wanted(self, spider: Any) -> bool:
        if self.shared_setting in ("true", "1"):
            return True
        if self.shared_setting in ("false", "0"):
            return False
        # auto: every agent of a distributed crawl (AGENTS_ENABLED, docs/distributed.md)
        # shares the test; a spider may also ask for it
        return self.agents_enabled or bool(getattr(spider, "dedup_shared", False))

    def _crawl_id(self) -> str:
        spider = self.crawler.spider
        return str(getattr(spider, "crawl_id", "") or getattr(spider, "name", ""))

    # ------------------------------------------------------------------ life cycle

    async def spider_opened(self, spider: Any) -> None:
        crawl_id = self._crawl_id()
        test = ContentSeenTest(
            self.winnowing,
            self.threshold,
            self.num_perm,
            keep_minutiae=self.in_memory,
            candidate_threshold=self.candidate_threshold,
            alignment_threshold=self.alignment_threshold,
            content=self.content,
            short_page_words=self.short_page_words,
            same_host_titles_differ=self.same_host_titles_differ,
        )
        try:
            self.database.prepare()
            shared = self._shared_wanted(spider)
            self.pool = AsyncConnectionPool(
                self.database.url, min_size=1, max_size=4 if shared else 2, open=False
            )
            await self.pool.open(wait=True)
            if shared:  # the test lives in PostgreSQL: nothing to load
                self.shared[crawl_id] = SharedContentSeen(self.pool, crawl_id, test)
                self.stats.set_value("dedup/shared", 1)
                logger.info("content-seen test of crawl %s shared in PostgreSQL", crawl_id)
                self._ready.set()
                return
            store = FingerprintStore(
                self.pool,
                crawl_id,
                test.scheme,
                content=test.content,
                batch_size=self.batch_size,
                attempts=self.attempts,
            )
            started = time.perf_counter()
            indexed, exact_only = await store.load(test)
        except Exception as exc:
            self._ready.set()
            logger.exception("cannot load the page fingerprints of crawl %s", crawl_id)
            raise CloseSpider("dedup_unavailable") from exc
        self.tests[crawl_id], self.stores[crawl_id] = test, store
        self.stats.set_value("dedup/loaded", indexed + exact_only)
        if indexed or exact_only:
            logger.info(
                "content-seen test of crawl %s: %d page fingerprints loaded in %.1f s%s",
                crawl_id,
                indexed + exact_only,
                time.perf_counter() - started,
                f" ({exact_only} of another scheme: exact test only)" if exact_only else "",
            )
        self._flusher = asyncio.get_running_loop().create_task(self._flush_periodically())
        self._ready.set()

    def spider_idle(self, spider: Any) -> None:
        # The crawl may be about to close: write the last rows now, so that they (and
        # dedup/stored) are in the database before the crawl's final stats are saved
        # (spider_closed handlers of extensions run before this middleware's).
        if self._idle_flush is None or self._idle_flush.done():
            self._idle_flush = asyncio.get_running_loop().create_task(self._flush_all())

    async def _flush_all(self) -> None:
        for store in list(self.stores.values()):
            try:
                await store.flush()
            except Exception:  # keep going; FingerprintStore logs its errors
                logger.exception("flush of page fingerprints failed")
            self.stats.set_value("dedup/stored", store.written)

    async def spider_closed(self, spider: Any, reason: str) -> None:
        if self._idle_flush is not None:
            await self._idle_flush
            self._idle_flush = None
        if self._flusher is not None:
            self._stopping.set()
            await self._flusher  # never cancelled: it may hold a batch being written
            self._flusher = None
        await self._flush_all()
        if self.pool is not None:
            await self.pool.close()
            self.pool = None
        seconds = self.stats.get_value("dedup/fingerprint_seconds")
        if seconds is not None:
            self.stats.set_value("dedup/fingerprint_seconds", round(seconds, 6))

    async def _flush_periodically(self) -> None:
        # A batch is written STORE_FLUSH_INTERVAL after its first row, or as soon as it
        # is full: the page that fills it never waits for the write.
        while not self._stopping.is_set():
            started = self._batch_started
            timeout = self.flush_interval
            if started is not None:
                timeout = max(0.0, started + self.flush_interval - time.monotonic())
            if not self._batch_full.is_set():
                try:
                    await asyncio.wait_for(self._wait_for_work(), timeout=timeout)
                except TimeoutError:
                    pass
            if self._stopping.is_set():
                return  # spider_closed writes the rest
            if self._batch_full.is_set() or (
                self._batch_started is not None
                and time.monotonic() - self._batch_started >= self.flush_interval
            ):
                self._batch_full.clear()
                self._batch_started = None
                await self._flush_all()

    async def _wait_for_work(self) -> None:
        stopping = asyncio.ensure_future(self._stopping.wait())
        full = asyncio.ensure_future(self._batch_full.wait())
        try:
            await asyncio.wait((stopping, full), return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            full.cancel()

    # ------------------------------------------------------------------ the gate

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        follow: bool | None = None  # None until the page's PageItem has been judged
        held: list[Request] = []
        async for output in result:
            if isinstance(output, PageItem):
                output, follow = await self.judge(output, response)
                response.meta[LINKS_FOLLOWED_META] = follow
                yield output
                while self.demoted:
                    yield self.demoted.pop(0)
                for request in held if follow else ():
                    yield request
                if held and not follow:
                    self.stats.inc_value("dedup/links_dropped", len(held))
                held = []
            elif isinstance(output, Request) and follow is not True:
                if follow is None:
                    held.append(output)
                else:
                    self.stats.inc_value("dedup/links_dropped")
            else:
                yield output
        for request in held:  # no PageItem in this output: nothing to judge
            yield request

    async def judge(
        self, item: PageItem, response: Response | None = None
    ) -> tuple[PageItem | UncrawledItem, bool]:
        """The item to pass on (the page, or its duplicate_content record) and whether
        the page's links are followed. A duplicate more important than the admitted copy
        replaces it (``self.demoted`` then holds the admitted copy's record)."""
        await self._ready.wait()
        crawl_id = self._crawl_id()
        shared = self.shared.get(crawl_id)
        if shared is not None:
            return await self._judge_shared(shared, item, response)
        test, store = self.tests.get(crawl_id), self.stores.get(crawl_id)
        if test is None or store is None:  # the fingerprints could not be loaded
            return item, True
        started = time.perf_counter()
        fingerprint = _worker_fingerprint(test, response, item)
        if fingerprint is False:
            fingerprint = test.fingerprint(page_text(item, test.content))
        else:
            self.stats.inc_value("dedup/worker_fingerprints")
        if fingerprint is None:  # nothing left after normalising: no evidence
            self._add_seconds(started)
            return item, True
        self.stats.inc_value("dedup/pages_checked")
        # One page at a time across awaits (database lookups), so that a page is
        # admitted before the next one is compared; without awaits the lock is free.
        async with self._lookup_lock:
            duplicate = test.find_exact(item.url, fingerprint)
            if duplicate is None:
                stored = None
                if not test.keep_minutiae:  # the candidates' minutiae come from PostgreSQL
                    keys = test.candidates(item.url, fingerprint)
                    if keys:  # other documents of the page's host are never compared
                        others = test.other_documents(item.url, item.title, keys)
                        keys = [key for key in keys if key not in others]
                    self._add_seconds(started)
                    stored = await store.fetch_minutiae(keys) if keys else {}
                    started = time.perf_counter()
                # second stage: words of candidates not in memory come from `pages`
                similarities = test.similarities(
                    item.url, fingerprint, stored, title=item.title
                )
                missing = test.words_needed(similarities, fingerprint)
                words = None
                if missing:
                    self._add_seconds(started)
                    words = await store.fetch_words(missing)
                    started = time.perf_counter()
                duplicate = test.decide(fingerprint, similarities, words)
            demoted = None
            if duplicate is None:
                test.add(item.url, fingerprint, item.title)
            elif self.authority is not None:
                demoted = self._keep_authoritative(item, response, duplicate, fingerprint, test)
            self._add_seconds(started)
        if demoted is not None:
            await store.remove(demoted.url)
            self.demoted.append(demoted)
            duplicate = None
        if duplicate is None:
            if self.authority is not None:
                self._admitted(item, response)
            if self._batch_started is None:
                self._batch_started = time.monotonic()
            if store.add(item.url, fingerprint):
                self._batch_full.set()  # the flusher writes it; this page goes on
            return item, True
        return self._record(item, duplicate), self.follow_links

    async def _judge_shared(
        self, shared: SharedContentSeen, item: PageItem, response: Response | None
    ) -> tuple[PageItem | UncrawledItem, bool]:
        started = time.perf_counter()
        fingerprint = _worker_fingerprint(shared.test, response, item)
        if fingerprint is False:
            fingerprint = shared.test.fingerprint(page_text(item, shared.test.content))
        else:
            self.stats.inc_value("dedup/worker_fingerprints")
        self._add_seconds(started)
        if fingerprint is None:
            return item, True
        self.stats.inc_value("dedup/pages_checked")
        started = time.perf_counter()
        # no process-wide lock: PostgreSQL's locks on the page's keys serialise the
        # pages that could match, in this process and in the other agents
        duplicate = await shared.check(item.url, fingerprint, item.title)
        self.stats.inc_value("dedup/shared_seconds", time.perf_counter() - started)
        if duplicate is None:
            self.stats.inc_value("dedup/stored")
            return item, True
        return self._record(item, duplicate), self.follow_links

    def _evidence(self) -> LinkEvidence:
        assert self.authority is not None
        return self.authority.setdefault(self._crawl_id(), LinkEvidence())

    def _admitted(self, item: PageItem, response: Response | None) -> None:
        evidence = self._evidence()
        for link in item.links:
            evidence.link(item.url, link.target_url)
        evidence.admitted(item.url, _cash(response), _declared_canonical(item))

    def _keep_authoritative(
        self,
        item: PageItem,
        response: Response | None,
        duplicate: Duplicate,
        fingerprint: Any,
        test: ContentSeenTest,
    ) -> UncrawledItem | None:
        """If ``item`` is more important than the copy admitted before, admit it in its
        place and return the admitted copy's duplicate record."""
        evidence = self._evidence()
        if item.final_url != item.url:  # a redirect links its source to its target
            evidence.link(item.url, item.final_url)
        keep_new, why = evidence.choose(
            item.url, _cash(response), _declared_canonical(item), duplicate.original
        )
        if not keep_new:
            return None
        test.replace_original(duplicate.original, item.url, fingerprint, item.title)
        evidence.demoted(duplicate.original)
        self.stats.inc_value("dedup/authority_replaced")
        logger.info("%s replaces %s as the admitted copy: %s", item.url, duplicate.original, why)
        swapped = Duplicate(item.url, duplicate.similarity, duplicate.exact, duplicate.alignment)
        return UncrawledItem(duplicate.original, "duplicate_content", f"{swapped.detail}; {why}")

    def _record(self, item: PageItem, duplicate: Duplicate) -> UncrawledItem:
        self.stats.inc_value(f"dedup/{duplicate.kind}")
        if duplicate.alignment is not None:
            self.stats.inc_value("dedup/near_aligned")
        logger.debug("duplicate content: %s is a %s", item.url, duplicate.detail)
        return UncrawledItem(item.url, "duplicate_content", duplicate.detail)

    def _add_seconds(self, started: float) -> None:
        self.stats.inc_value("dedup/fingerprint_seconds", time.perf_counter() - started)


def _cash(response: Response | None) -> float:
    frontier = response.meta.get("frontier") if response is not None else None
    return float((frontier or {}).get("cash", 0.0))


def _declared_canonical(item: PageItem) -> str | None:
    """The page's own claim to where it belongs: ``<link rel="canonical">``, else the
    target of the redirect that delivered it."""
    if item.canonical:
        return item.canonical
    return item.final_url if item.final_url != item.url else None
