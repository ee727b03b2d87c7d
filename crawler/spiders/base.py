"""What every spider of the project shares: seeds, crawl id, page and error handling."""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import scrapy
from scrapy.exceptions import UsageError
from scrapy.http import Response, TextResponse
from twisted.python.failure import Failure

from crawler import defaults
from crawler.content import content_mime, detect_language, language_tag, load_language_model
from crawler.dedup.near_duplicates import warm_up as near_duplicates_warm_up
from crawler.dedup.normalize import warm_up as normalize_warm_up
from crawler.distutils_shim import settle_distutils_shim
from crawler.failures import categorize_failure
from crawler.frontier.links import LinkEvent
from crawler.frontier.scores import page_link_kinds
from crawler.items import RECEIVED_AT_META, LinkRecord, PageItem, UncrawledItem
from crawler.middlewares.known_links import KnownLinkShortcut
from crawler.page_analysis import (
    PAGE_ANALYSIS_META,
    MetaPageAnalysis,
    PageAnalysis,
    analyse_html,
)
from crawler.seeds import load_seeds
from crawler.storage.database import crawl_database
from crawler.urls import registered_domain, scheduled_url, url_host


def make_crawl_id(spider_name: str, settings: Any, kwargs: dict[str, Any]) -> str:
    """The crawl id: `-a crawl_id=`, else scrapyd's job id, else JOBDIR's name, else new."""
    if kwargs.get("crawl_id"):
        return str(kwargs["crawl_id"])
    if kwargs.get("_job"):
        return str(kwargs["_job"])
    jobdir = settings.get("JOBDIR") if settings is not None else None
    if jobdir:
        return Path(jobdir).resolve().name
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return f"{spider_name}-{stamp}-{secrets.token_hex(3)}"


def _last_modified(response: Response) -> datetime | None:
    value = response.headers.get(b"Last-Modified")
    if not value:
        return None
    try:
        return parsedate_to_datetime(value.decode("latin-1"))
    except (TypeError, ValueError):
        return None


logger = logging.getLogger(__name__)

_CRAWL_RECORD = "crawler.extensions.crawl_record.CrawlRecord"


def _warm_up() -> None:
    try:
        # datasketch first: the first page's near-duplicate test needs it, and importing
        # holds the GIL, which the language model's decompression mostly releases
        near_duplicates_warm_up()
        load_language_model()
        # what the first pages would build on the crawl's thread: the content-seen test's
        # character tables, and the public suffix list's trie of the link scores' domains
        normalize_warm_up()
        registered_domain("www.example.com")
    except Exception as exc:
        # nothing is lost: what failed loads on first use, on the crawl's thread. (Python
        # 3.11 can raise its import deadlock error in one of two threads importing the
        # same packages in opposite orders, python/cpython#83065)
        logger.warning("warm-up on a thread failed (%s: %s); loading on first use instead",
                       type(exc).__name__, exc)


class CrawlerSpider(scrapy.Spider):
    """Base of the project's spiders.

    Arguments: ``seeds`` (file, or ``package:NAME`` for a file shipped in crawler/data),
    ``seed_urls`` (comma-separated), ``crawl_id`` (resume or name a crawl),
    ``allowed_domains`` (comma-separated: links to other domains are not followed).
    """

    default_seeds: str | None = None
    # the page settings, read once in from_crawler (these defaults: a spider built without
    # a crawler)
    html_content_types: frozenset[str] = frozenset(defaults.PAGE_HTML_CONTENT_TYPES)
    text_content_types: frozenset[str] = frozenset(defaults.PAGE_TEXT_CONTENT_TYPES)
    anchor_max_chars: int = defaults.LINK_ANCHOR_MAX_CHARS
    main_content_max_bytes: int = defaults.PAGE_MAIN_CONTENT_MAX_BYTES
    # Why the spider cannot run as an agent of a shared crawl (AGENTS_ENABLED), if it
    # cannot: the scheduler then refuses it with one error line (docs/distributed.md)
    agents_unsupported: str | None = None
    # Whether links to URLs the frontier has seen may skip their requests
    # (KnownLinkShortcut): only for a spider whose link requests are link_request()'s,
    # scored by their LinkEvent alone
    absorbs_known_links: bool = False
    known_links: KnownLinkShortcut | None = None

    def __init__(
        self,
        seeds: str | None = None,
        seed_urls: str | None = None,
        crawl_id: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.arguments = {
            k: v for k, v in {"seeds": seeds, "seed_urls": seed_urls, **kwargs}.items() if v
        }
        self.seed_list = self._seeds(seeds, seed_urls, crawl_id)
        self._crawl_id_arg = crawl_id
        self.crawl_id = ""
        if isinstance(getattr(self, "allowed_domains", None), str):
            self.allowed_domains = [
                d.strip().lower().lstrip(".") for d in self.allowed_domains.split(",") if d.strip()
            ]

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> CrawlerSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.crawl_id = make_crawl_id(
            spider.name, settings, {"crawl_id": spider._crawl_id_arg, **kwargs}
        )
        spider.html_content_types = frozenset(
            settings.getlist("PAGE_HTML_CONTENT_TYPES", defaults.PAGE_HTML_CONTENT_TYPES)
        )
        spider.text_content_types = frozenset(
            settings.getlist("PAGE_TEXT_CONTENT_TYPES", defaults.PAGE_TEXT_CONTENT_TYPES)
        )
        spider.anchor_max_chars = settings.getint(
            "LINK_ANCHOR_MAX_CHARS", defaults.LINK_ANCHOR_MAX_CHARS
        )
        spider.main_content_max_bytes = settings.getint(
            "PAGE_MAIN_CONTENT_MAX_BYTES", defaults.PAGE_MAIN_CONTENT_MAX_BYTES
        )
        if spider.absorbs_known_links:
            spider.known_links = KnownLinkShortcut.from_crawler(crawler)
        # before the first thread that imports: otherwise an import of distutils on one
        # of them can deadlock the crawl's start (crawler/distutils_shim.py)
        settle_distutils_shim()
        # the language model and datasketch, loaded while the crawl opens: otherwise the
        # first page holds the crawl's loop while they load (docs/performance.md)
        threading.Thread(target=_warm_up, name="load-language-model", daemon=True).start()
        # the crawl record extension, built after the spider, gets the database ready and
        # waits for it: begun here, the server's work on a new database's schema overlaps
        # with Scrapy building the other components (docs/performance.md)
        if crawler.settings.getwithbase("EXTENSIONS").get(_CRAWL_RECORD) is not None:
            crawl_database(crawler).start_preparing()
        return spider

    @classmethod
    def _seeds(
        cls, seeds: str | None, seed_urls: str | None, crawl_id: str | None, *, warn: bool = True
    ) -> list[str]:
        """The seed URLs; none with an explicit crawl id and no seeds: the process joins
        (or resumes) that crawl, whose queue is in the database (docs/distributed.md)."""
        if crawl_id and not seeds and not seed_urls and not cls.default_seeds:
            return []
        return load_seeds(seeds or (None if seed_urls else cls.default_seeds), seed_urls, warn=warn)

    @classmethod
    def preflight(cls, spider_args: dict[str, Any]) -> None:
        """Validate arguments before a crawl starts; raise SeedError with one clear line.
        Invalid seed lines are warned about once, by the spider itself."""
        cls._seeds(
            spider_args.get("seeds"),
            spider_args.get("seed_urls"),
            spider_args.get("crawl_id"),
            warn=False,
        )
        try:
            cls.check_spider_arguments(spider_args)
        except ValueError as exc:
            raise UsageError(str(exc), print_help=False) from exc

    @classmethod
    def check_spider_arguments(cls, spider_args: dict[str, Any]) -> None:
        """Validate a spider's own -a arguments; raise ValueError with one clear line
        (the pre-flight check turns it into an ``error:`` line and exit status 2)."""

    # --- requests --------------------------------------------------------------------
    def seed_request(self, url: str) -> scrapy.Request:
        return scrapy.Request(url, callback=self.parse, errback=self.on_error)

    def link_request(self, link: LinkRecord, response: Response) -> scrapy.Request:
        """The request for a link of a fetched page; ``meta["link"]`` (a LinkEvent)
        tells the frontier how it was found (docs/frontier.md)."""
        request = scrapy.Request(link.target_url, callback=self.parse, errback=self.on_error)
        request.meta["link"] = self.link_event(link, response)
        return request

    def link_event(self, link: LinkRecord, response: Response) -> LinkEvent:
        """What the frontier scores a link by: its source page's link counts (inter- and
        intra-domain), OPIC cash and depth, and the link's attributes."""
        kinds = getattr(self, "_page_link_kinds", {}).get(id(response))
        if kinds is None:  # called outside parse(): count this link alone
            kinds = page_link_kinds(response.url, [link.target_url])
        n_inter, n_intra, inter = kinds
        meta = response.meta
        frontier = meta.get("frontier") or {}
        return LinkEvent(
            url=link.target_url,
            source=self.page_url(response),
            source_depth=int(meta.get("depth", 0)),
            source_cash=float(frontier.get("cash", 1.0)),
            n_inter=n_inter,
            n_intra=n_intra,
            inter=inter.get(link.target_url, False),
            visibility=link.visibility,
            position=link.position,
            distance=link.distance,
            anchor=link.anchor_text,
        )

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in self.seed_list:
            yield self.seed_request(url)

    def in_scope(self, url: str) -> bool:
        """Whether a link is followed: its host is in ``allowed_domains`` (when set)."""
        domains = getattr(self, "allowed_domains", None)
        if not domains:
            return True
        host = url_host(url)
        return any(host == d or host.endswith("." + d) for d in domains)

    # --- responses -------------------------------------------------------------------
    def page_url(self, response: Response) -> str:
        """Canonical URL that was scheduled: the first of a redirect chain."""
        return scheduled_url(response)

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        mime = content_mime(response.headers.get(b"Content-Type"))
        html_types, text_types = self.html_content_types, self.text_content_types
        url = self.page_url(response)
        if mime not in html_types and mime not in text_types:
            yield UncrawledItem(url=url, category="unsupported_mime", detail=mime or "no type")
            return
        item = PageItem(
            url=url,
            final_url=response.url,
            host=url_host(response.url),
            status=response.status,
            content_type=mime,
            fetched_at=datetime.now(UTC),
            depth=int(response.meta.get("depth", 0)),
            size=len(response.body),
            content_md5=hashlib.md5(response.body).hexdigest(),
            last_modified=_last_modified(response),
            etag=(response.headers.get(b"ETag") or b"").decode("latin-1") or None,
            received_at=response.meta.get(RECEIVED_AT_META),
        )
        if mime in html_types:
            analysis = self._page_analysis(response)
            if self.main_content_max_bytes and len(response.body) > self.main_content_max_bytes:
                # (crawler.content.whole_page_content: its whole text as main content)
                self.crawler.stats.inc_value("page_analysis/whole_text_pages")
            item.title, item.text, item.canonical = (
                analysis.title, analysis.text, analysis.canonical
            )
            item.main_text, item.headings, item.lang = (
                analysis.main_text, analysis.headings, analysis.lang
            )
            item.names = analysis.names
            item.links = [
                LinkRecord(
                    ln.url, ln.anchor_text, ln.visibility, ln.position, ln.distance, ln.context
                )
                for ln in analysis.links
            ]
        elif isinstance(response, TextResponse):
            item.text = response.text
        else:
            item.text = response.body.decode("utf-8", "replace")
        if mime not in html_types:
            item.lang = language_tag(
                (response.headers.get(b"Content-Language") or b"").decode("latin-1")
            ) or detect_language(item.text)
        yield item
        # link counts of the whole page, for link_event() (inter/intra link score, OPIC)
        pages = self.__dict__.setdefault("_page_link_kinds", {})
        pages[id(response)] = page_link_kinds(response.url, [ln.target_url for ln in item.links])
        # (resumed after the content-seen middleware judged the item: its verdict is known)
        shortcut = self.known_links
        depth = shortcut.page_depth(response) if shortcut is not None else None
        absorbed = 0
        try:
            for link in item.links:
                if not self.in_scope(link.target_url):
                    continue
                if depth is not None and shortcut.absorb(self.link_event(link, response), depth):
                    absorbed += 1
                    continue
                yield self.link_request(link, response)
        finally:
            pages.pop(id(response), None)
            if absorbed:
                shortcut.page_done(absorbed, depth)

    def _page_analysis(self, response: Response) -> PageAnalysis:
        """The page's analysis made by a worker process (PageAnalysisMiddleware), else
        made here."""
        # left in meta: the content-seen middleware takes the fingerprint from it
        attached = response.meta.get(PAGE_ANALYSIS_META)
        if isinstance(attached, MetaPageAnalysis) and attached.matches(
            response.url, response.body
        ):
            return attached.analysis
        return analyse_html(
            response.body,
            response.url,
            encoding=getattr(response, "encoding", None),
            content_language=(response.headers.get(b"Content-Language") or b"").decode(
                "latin-1"
            ),
            anchor_max_chars=self.anchor_max_chars,
            main_content_max_bytes=self.main_content_max_bytes,
        )

    def on_error(self, failure: Failure) -> Iterator[UncrawledItem]:
        request = failure.request  # type: ignore[attr-defined]
        url = scheduled_url(request)
        category, detail = categorize_failure(failure.value)
        self.logger.debug("not crawled (%s): %s %s", category, url, detail)
        yield UncrawledItem(url=url, category=category, detail=detail)
