"""`scrapy crawl focused -a query=java`: a crawl that spends its budget on one topic.

Every fetched page is judged (crawler.focus: the design-and-implementation paper's page
weight against FOCUS_THRESHOLD, or a topic classifier trained with ``-a examples=FILE``)
and stored with its weight and relevant flag; the spider's output items (``-o``) are the
relevant pages only (crawler.pipelines.relevant_output). Links are scored from the
parent's weight, their anchor text and their URL, and carried to the frontier as the
``relevance`` score term (with Scrapy's own scheduler: as the request priority); links found on
irrelevant pages are followed through at most FOCUS_TUNNEL_DEPTH consecutive irrelevant
pages. See docs/focused.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import scrapy
from scrapy.core.scheduler import Scheduler
from scrapy.http import Response, TextResponse
from scrapy.utils.misc import load_object
from twisted.python.failure import Failure

from crawler import defaults
from crawler.content import content_mime
from crawler.focus import (
    ExamplesError,
    Judgement,
    LinkScoreParams,
    QueryError,
    RelevanceModel,
    TopicClassifier,
    TunnelPolicy,
    WeightParams,
    document_text,
    parse_query,
    priority_bucket,
    read_examples,
    read_local_example,
)
from crawler.items import LinkRecord, PageItem
from crawler.spiders.base import CrawlerSpider

#: request.meta key: consecutive irrelevant pages on the path that found the link.
TUNNEL_META = "focus_tunnel"
#: request.meta key of the frontier's score terms (name -> value; FRONTIER_WEIGHTS).
SCORE_TERMS_META = "score_terms"
#: the focused crawl's score term.
RELEVANCE_TERM = "relevance"
#: response.meta key where a judged page keeps its verdict for its link requests.
_PAGE_META = "focus_page"
_EXAMPLE_META = "focus_example"


@dataclass
class _JudgedPage:
    judgement: Judgement
    run: int  # consecutive irrelevant pages up to and including this one
    follows: bool  # links followed (run within the tunnel depth)
    link_scores: dict[str, float] = field(default_factory=dict)


class FocusedSpider(CrawlerSpider):
    """Focused crawl. Arguments (besides the base spider's ``seeds``, ``seed_urls``,
    ``crawl_id``, ``allowed_domains``): ``query`` (words and "quoted phrases"),
    ``match`` (``all`` or ``any``; default FOCUS_MATCH), ``examples`` (a file of example
    pages training a topic classifier). ``query`` or ``examples`` is required.
    """

    name = "focused"
    default_seeds = "seeds/seeds.txt"
    #: read by crawler.pipelines.relevant_output.RelevantOutputPipeline
    relevant_output_only = True
    #: read by crawler.extensions.harvest_rate.HarvestRate
    judges_relevance = True
    # With Scrapy's own scheduler (-s SCHEDULER=scrapy.core.scheduler.Scheduler) the link
    # relevance is the request priority: order by it across hosts (the default
    # DownloaderAwarePriorityQueue honours it only within a host), first in first out
    # among equal priorities. The project's frontier scheduler ignores these.
    # With the project's frontier: a free download slot is not given to a URL more than
    # 2 score units (0.2 of link relevance at its default weight 10) below the best URL
    # waiting for a busy or delayed host, so the crawl does not wander while the topic's
    # host is at its politeness limit (docs/focused.md has the harvest rates measured with
    # and without it). Scrapy's scheduler ignores it; -s overrides it.
    custom_settings = {
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "FRONTIER_HOLD_FOR_BETTER": 2.0,
    }

    def __init__(
        self,
        query: str | None = None,
        match: str | None = None,
        examples: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.check_arguments(query, match, examples)
        self.query_text = query or ""
        self.match_arg = match
        self.examples_path = examples
        self.arguments.update(
            {k: v for k, v in {"query": query, "match": match, "examples": examples}.items() if v}
        )
        self.model: RelevanceModel | None = None
        self._example_texts: dict[bool, list[str]] = {True: [], False: []}
        self._examples_left = 0
        self._examples_done = asyncio.Event()
        self.tunnel = TunnelPolicy(defaults.FOCUS_TUNNEL_DEPTH)
        self.priority_scale = defaults.FOCUS_PRIORITY_SCALE
        self.relevance_as_priority = True

    @staticmethod
    def check_arguments(query: str | None, match: str | None, examples: str | None) -> None:
        """Raise ValueError (QueryError, ExamplesError) for unusable arguments."""
        if not (query or "").strip() and not examples:
            raise QueryError(
                "the focused spider needs -a query=WORDS (or -a examples=FILE)"
            )
        if (query or "").strip():
            parse_query(query or "", match or "all")
        elif match:
            parse_query("x", match)  # validates the match mode
        if examples:
            read_examples(examples)

    @classmethod
    def check_spider_arguments(cls, spider_args: dict[str, Any]) -> None:
        cls.check_arguments(
            spider_args.get("query"), spider_args.get("match"), spider_args.get("examples")
        )

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> FocusedSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.configure(crawler.settings)
        return spider  # type: ignore[return-value]

    # --- configuration ---------------------------------------------------------------
    def configure(self, settings: Any) -> None:
        """Read the FOCUS_* settings; the model is built now (keyword) or after the
        examples are fetched (classifier)."""

        def number(name: str) -> float:
            return settings.getfloat(name, getattr(defaults, name))

        def integer(name: str) -> int:
            return settings.getint(name, getattr(defaults, name))

        self.weight_params = WeightParams(
            url=number("FOCUS_WEIGHT_URL"),
            title=number("FOCUS_WEIGHT_TITLE"),
            body=number("FOCUS_WEIGHT_BODY"),
            outlinks=number("FOCUS_WEIGHT_OUTLINKS"),
            body_words=integer("FOCUS_BODY_WORDS"),
            outlinks_cap=integer("FOCUS_OUTLINKS_CAP"),
            threshold=number("FOCUS_THRESHOLD"),
            max_text_chars=integer("FOCUS_MAX_TEXT_CHARS"),
        )
        self.link_params = LinkScoreParams(
            parent=number("FOCUS_LINK_WEIGHT_PARENT"),
            anchor=number("FOCUS_LINK_WEIGHT_ANCHOR"),
            url=number("FOCUS_LINK_WEIGHT_URL"),
        )
        self.classifier_threshold = number("FOCUS_CLASSIFIER_THRESHOLD")
        self.similarity_threshold = number("FOCUS_SIMILARITY_THRESHOLD")
        self.tunnel = TunnelPolicy(integer("FOCUS_TUNNEL_DEPTH"))
        self.priority_scale = max(1, integer("FOCUS_PRIORITY_SCALE"))
        # Scrapy's own scheduler orders by request priority only; the project's frontier
        # scheduler adds the `relevance` score term to its own score (FRONTIER_WEIGHTS).
        scheduler = load_object(settings.get("SCHEDULER") or "scrapy.core.scheduler.Scheduler")
        self.relevance_as_priority = isinstance(scheduler, type) and issubclass(
            scheduler, Scheduler
        )
        match = self.match_arg or settings.get("FOCUS_MATCH", defaults.FOCUS_MATCH)
        self.query = parse_query(self.query_text, match) if self.query_text.strip() else None
        if self.examples_path is None:
            self.model = self._model(None)

    def _model(self, classifier: TopicClassifier | None) -> RelevanceModel:
        return RelevanceModel(
            self.query,
            weights=self.weight_params,
            links=self.link_params,
            classifier=classifier,
            classifier_threshold=self.classifier_threshold,
            similarity_threshold=self.similarity_threshold,
        )

    # --- topic by example ------------------------------------------------------------
    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.model is None:
            async for request in self._train_from_examples():
                yield request
        if self.query is not None:
            self.logger.info(
                "focused crawl: query %r (match=%s: %s), threshold %s, tunnel depth %d",
                self.query.text, self.query.match,
                " + ".join(" ".join(c.stems) for c in self.query.clauses),
                self.model.threshold if self.model else "?", self.tunnel.max_depth,
            )
        if self.model is None:
            return  # no classifier: nothing can be judged, the crawl ends here
        async for request in super().start():
            yield request

    async def _train_from_examples(self) -> AsyncIterator[scrapy.Request]:
        assert self.examples_path is not None
        examples = read_examples(self.examples_path)
        for example in examples:
            if not example.is_url:
                self._example_texts[example.on_topic].append(read_local_example(example.source))
        remote = [example for example in examples if example.is_url]
        self._examples_left = len(remote)
        for example in remote:
            yield scrapy.Request(
                example.source,
                callback=self.parse_example,
                errback=self.example_failed,
                dont_filter=True,  # an example may also be crawled later
                priority=self.priority_scale + 1,
                meta={_EXAMPLE_META: example.on_topic},
            )
        if remote:
            await self._examples_done.wait()
        on_topic, off_topic = self._example_texts[True], self._example_texts[False]
        try:
            classifier = TopicClassifier(
                on_topic, off_topic, max_text_chars=self.weight_params.max_text_chars
            )
        except ExamplesError as exc:
            self.logger.error("cannot train the topic classifier, no page is crawled: %s", exc)
            self.crawler.stats.set_value("focus/classifier", "untrained")
            return
        self.model = self._model(classifier)
        self.crawler.stats.set_value("focus/classifier", classifier.model)
        self.logger.info(
            "topic classifier (%s) trained on %d on-topic and %d off-topic examples; "
            "threshold %s, tunnel depth %d",
            classifier.model, len(on_topic), len(off_topic), self.model.threshold,
            self.tunnel.max_depth,
        )

    def parse_example(self, response: Response) -> None:
        mime = content_mime(response.headers.get(b"Content-Type"))
        is_html = mime in ("text/html", "application/xhtml+xml")
        if is_html or isinstance(response, TextResponse):
            text = document_text(
                response.body, html=is_html, url=response.url,
                encoding=getattr(response, "encoding", None),
            )
            self._example_texts[bool(response.meta[_EXAMPLE_META])].append(text)
            self.crawler.stats.inc_value("focus/examples_fetched")
        else:
            self.logger.warning("example %s is not HTML or text (%s)", response.url, mime)
        self._example_finished()

    def example_failed(self, failure: Failure) -> None:
        request = failure.request  # type: ignore[attr-defined]
        self.logger.warning("example %s not fetched: %s", request.url, failure.value)
        self.crawler.stats.inc_value("focus/examples_failed")
        self._example_finished()

    def _example_finished(self) -> None:
        self._examples_left -= 1
        if self._examples_left <= 0:
            self._examples_done.set()

    # --- requests --------------------------------------------------------------------
    def seed_request(self, url: str) -> scrapy.Request:
        request = super().seed_request(url)
        if self.relevance_as_priority:
            request.priority = self.priority_scale
        return request

    def link_request(self, link: LinkRecord, response: Response) -> scrapy.Request:
        request = super().link_request(link, response)
        page: _JudgedPage | None = response.meta.get(_PAGE_META)
        if page is None:
            raise RuntimeError("link_request() called before the page was judged")
        relevance = page.link_scores.get(link.target_url, 0.0)
        request.meta[TUNNEL_META] = page.run
        request.meta.setdefault(SCORE_TERMS_META, {})[RELEVANCE_TERM] = relevance
        if self.relevance_as_priority:
            request.priority = priority_bucket(relevance, self.priority_scale)
        return request

    # --- responses -------------------------------------------------------------------
    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        """The base spider's parse, with each page judged before its links are built;
        link requests of a page beyond the tunnel depth are dropped."""
        page: _JudgedPage | None = None
        for output in super().parse(response, **kwargs):
            if isinstance(output, PageItem):
                page = self.judge(output, response)
            elif isinstance(output, scrapy.Request) and page is not None and not page.follows:
                self.crawler.stats.inc_value("focus/tunnel_links_dropped")
                continue
            yield output

    def judge(self, item: PageItem, response: Response) -> _JudgedPage:
        """Judge a page, keep the verdict on the item and on the response (for its links)."""
        assert self.model is not None, "the relevance model is not ready"
        judgement = self.model.judge(
            url=item.final_url, title=item.title, text=item.text, outlinks=len(item.links)
        )
        item.weight = round(judgement.weight, 6)
        item.relevant = judgement.relevant
        run = self.tunnel.run_of(int(response.meta.get(TUNNEL_META, 0)), judgement.relevant)
        page = _JudgedPage(judgement, run, self.tunnel.follows(run))
        if page.follows and item.links:
            targets = [(ln.anchor_text, ln.target_url) for ln in item.links]
            scores = self.model.link_scores(judgement, targets)
            page.link_scores = {url: s for (_, url), s in zip(targets, scores, strict=True)}
        response.meta[_PAGE_META] = page
        stats = self.crawler.stats
        stats.inc_value("focus/pages")
        if judgement.relevant:
            stats.inc_value("focus/relevant")
        stats.set_value(
            "focus/harvest_rate",
            round(stats.get_value("focus/relevant", 0) / stats.get_value("focus/pages"), 6),
        )
        return page
