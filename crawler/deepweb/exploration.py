"""Stage 2: the exploration of one site and its stop rules.

A site's exploration starts at its home page and ends when one of the stop rules holds
(all settings, docs/deepweb.md) or when its links run out:

- ``off_topic``: the site classifier judged the home page off topic (a site near the
  topic after its inner pages are weighed: crawler.deepweb.near_topic);
- ``max_pages``: pages fetched from the site (its page budget);
- ``pages_without_form``: ``max_pages_without_form`` pages fetched in a row without a new
  searchable form, **and no likely link waits** (a link named like a search, ranked like
  the links that led to forms, or a menu link near home: crawler.deepweb.link_tree): a
  site is not given up before its likely paths are tried;
- ``max_forms``: distinct searchable forms found (0: no limit);
- ``max_depth``: links followed from the home page (deeper links are not queued).

A site stopped with links left waiting can be **resumed** when the site frontier is
empty and the crawl's budget is not spent: it gets another page budget
(:meth:`SiteExploration.resume`); a site whose links ran out ends as ``exhausted``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from crawler import defaults
from crawler.deepweb.forms import Form, FormVerdict
from crawler.deepweb.link_tree import LinkRanker, LinkTree
from crawler.deepweb.near_topic import InnerPages
from crawler.deepweb.similarity import Features
from crawler.deepweb.site_frontier import SiteFrontier

#: states of a site's in-site evidence (SiteExploration.trial)
TRIAL_RUNNING = "running"
TRIAL_KEPT = "kept"
TRIAL_GIVEN_UP = "given_up"


@dataclass(frozen=True)
class StopRules:
    max_depth: int = defaults.SMART_SITE_MAX_DEPTH
    max_pages: int = defaults.SMART_SITE_MAX_PAGES
    max_pages_without_form: int = defaults.SMART_SITE_MAX_PAGES_WITHOUT_FORM
    max_forms: int = defaults.SMART_SITE_MAX_FORMS


@dataclass
class SiteExploration:
    site: str
    home: str
    rules: StopRules
    tree: LinkTree
    seed: bool = False  # a seed's site is explored whatever the site classifier says
    relevant: bool | None = None  # the site classifier's verdict on the home page
    relevance: float = 0.0
    words: Counter[str] = field(default_factory=Counter)  # terms of its pages (on topic)
    pages: int = 0
    pages_without_form: int = 0
    in_flight: int = 0
    form_signatures: set[tuple[str, str, tuple[str, ...]]] = field(default_factory=set)
    searchable_forms: int = 0
    # searchable forms that may be relevant (judged relevant, or probed): a site-wide
    # "Search this site" box is searchable, and it is not the site's search of records
    topic_forms: int = 0
    out_links: dict[str, tuple[str, str]] = field(default_factory=dict)  # url -> anchor, around
    fetching: dict[str, Features] = field(default_factory=dict)  # url -> its link's features
    released_links: set[str] = field(default_factory=set)  # out links offered already
    stopped: str = ""  # the stop rule that ended the site, "" while it runs
    budget: int = 0  # pages the site may fetch (max_pages, more after each resume)
    rounds: int = 1  # 1 + times resumed
    home_words: Counter[str] = field(default_factory=Counter)  # its home page's terms
    rejudged: bool = False  # judged off topic on its home page, on topic later
    # a probe of one of its forms with words that mark the topic listed records: its
    # database answers the topic (site evidence in full)
    answers_topic: bool = False
    # searchable forms seen while the site was judged off topic (form, verdict, the
    # record groups of its page): judged again if the site is
    held_forms: list[tuple[Form, FormVerdict, dict[str, int]]] = field(default_factory=list)
    # in-site evidence of a site near the topic judged off topic on its home page
    # (crawler.deepweb.near_topic): "" (none), TRIAL_RUNNING, TRIAL_KEPT, TRIAL_GIVEN_UP
    trial: str = ""
    # the off_topic stop holds once this many pages were fetched (1: after the home
    # page; more while the inner pages of a site near the topic are weighed)
    off_topic_after: int = 1
    inner: InnerPages = field(default_factory=InnerPages)  # what its inner pages said
    why_stopped: str = ""  # the evidence of the stop (logged): why off topic
    # its probes' answers (not confirmed) while its trial ran: judged again if it is kept
    trial_answers: list[Any] = field(default_factory=list)
    # its home page was a language chooser: the page of the crawl's language is read as
    # its home page instead (once)
    chooser: str = ""
    # the XML sitemaps its robots.txt names, queued as its links: their <loc>s are
    # links of the site when fetched
    sitemaps: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.budget = self.budget or self.rules.max_pages

    @classmethod
    def start(
        cls,
        site: str,
        home: str,
        rules: StopRules,
        ranker: LinkRanker,
        penalty: float = defaults.SMART_LINK_TREE_PENALTY,
        seed: bool = False,
        *,
        prior: LinkRanker | None = None,
        nav_bonus: float = defaults.SMART_LINK_NAV_BONUS,
        likely_rank: float = defaults.SMART_LINK_LIKELY_RANK,
        nav_depth: int = defaults.SMART_LINK_NAV_DEPTH,
        topic_bonus: float = defaults.SMART_LINK_TOPIC_BONUS,
        sites: LinkRanker | None = None,
    ) -> SiteExploration:
        tree = LinkTree(
            ranker, penalty, nav_bonus, likely_rank, nav_depth, prior, topic_bonus, sites
        )
        return cls(site, home, rules, tree, seed=seed)

    def add_link(
        self,
        url: str,
        depth: int,
        anchor: str = "",
        around: str = "",
        navigation: bool = False,
        topical: bool = False,
        embedded: bool = False,
        site_map: bool = False,
    ) -> bool:
        """Queue an in-site link found at ``depth`` (links from home); beyond max_depth
        it is not queued. Links are kept after a stop (a resumed site follows them)."""
        if depth > self.rules.max_depth:
            return False
        return self.tree.add(url, depth, anchor, around, navigation, topical, embedded, site_map)

    def new_forms(self, forms: list[Form], searchable: list[bool]) -> list[Form]:
        """The forms of a page not seen on this site before (by action, method, fields)."""
        fresh = []
        for form, is_searchable in zip(forms, searchable, strict=True):
            signature = form.signature()
            if signature in self.form_signatures:
                continue
            self.form_signatures.add(signature)
            fresh.append(form)
            if is_searchable:
                self.searchable_forms += 1
        return fresh

    def page_done(self, found_new_searchable: bool) -> None:
        """Count a fetched page against the stop rules."""
        self.tree.index_wanted = self.topic_forms == 0
        self.pages += 1
        self.pages_without_form = 0 if found_new_searchable else self.pages_without_form + 1
        self.check_stop()

    def check_stop(self) -> str:
        rules = self.rules
        if self.stopped:
            return self.stopped
        if self.relevant is False and self.rounds == 1 and self.pages >= self.off_topic_after:
            self.stopped = "off_topic"
        elif self.pages >= self.budget:
            self.stopped = "max_pages"
        elif rules.max_forms and self.searchable_forms >= rules.max_forms:
            self.stopped = "max_forms"
        elif (
            self.pages_without_form >= rules.max_pages_without_form
            and not self.tree.likely_waiting()
        ):
            self.stopped = "pages_without_form"
        return self.stopped

    def start_trial(self, pages: int) -> None:
        """A site near the topic judged off topic: up to ``pages`` more pages (its inner
        pages) are fetched before the off_topic stop holds; a site stopped off topic
        already may then be resumed for them, in its first round."""
        self.trial = TRIAL_RUNNING
        self.off_topic_after = max(self.pages, 1) + pages

    def add_page_terms(self, page_terms: Iterable[str]) -> None:
        """The terms of one more page of the site (its forms' site evidence is their
        topic share; kept for a site judged off topic too, which may be judged again)."""
        self.words.update(page_terms)

    @property
    def resumable(self) -> bool:
        """Stopped by a rule other than its forms, with links left."""
        return self.stopped in ("max_pages", "pages_without_form", "off_topic") and bool(self.tree)

    def resumable_in(self, mode: str) -> bool:
        """Resumable under SMART_RESUME_SITES ``mode`` (all, topic, none)."""
        if not self.resumable or mode == "none":
            return False
        return mode == "all" or bool(self.relevant)

    def resume_order(self) -> tuple[int, float, float]:
        """Sort key of stopped sites when one is resumed (smallest first): sites of the
        topic, then seeds (a directory), then off-topic ones; within each the site
        classifier's score, then the best waiting link."""
        tier = 0 if self.relevant else (1 if self.relevant is None else 2)
        return tier, -self.relevance, -self.tree.best_rank()

    def resume(self) -> None:
        """Another round: another page budget, the count of pages without a form reset.
        A site stopped after its home page as off topic and judged on topic since starts
        its exploration: that is its first round, not its second (on heldout8 a genealogy
        site judged on topic again got one round of 7 pages and was not resumed again,
        ``max_rounds``, with its form 2 links below home unread)."""
        if not (self.stopped == "off_topic" and (self.relevant or self.trial == TRIAL_RUNNING)):
            self.rounds += 1
        self.stopped = ""
        self.pages_without_form = 0
        self.budget = self.pages + self.in_flight + self.rules.max_pages

    @property
    def done(self) -> bool:
        """Stopped, or nothing queued and nothing in flight."""
        return bool(self.stopped) or (not self.tree and self.in_flight <= 0)

    def next_links(self, limit: int) -> list[tuple[str, int, float]]:
        """Up to ``limit`` links to fetch now, counted in flight (url, depth, LT); none
        once the site has stopped or the pages budget is taken by pages in flight."""
        out: list[tuple[str, int, float]] = []
        self.tree.index_wanted = self.topic_forms == 0  # its site map read early, or not
        while (
            not self.stopped
            and len(out) < limit
            and self.tree
            and self.pages + self.in_flight < self.budget
        ):
            popped = self.tree.pop()
            assert popped is not None
            url, depth, features, rank = popped
            self.fetching[url] = features
            out.append((url, depth, rank))
            self.in_flight += 1
        return out


@dataclass
class ResumePolicy:
    """Which stopped site may be resumed when no site waits in the frontier, decided on
    evidence (SMART_RESUME_SITES, SMART_SITE_MAX_ROUNDS, SMART_DISCOVERY_MAX_PAGES):

    - a site of the topic, when no searchable form that may be relevant was found on it
      yet (a site-wide "Search this site" box does not count), or likely links still
      wait (its form may be one more page away);
    - a seed or off-topic site, for its pages' links to sites not seen yet (discovery),
      while discovery pays: fewer than ``discovery_pages`` pages of resumed non-topic
      sites were fetched since the last new site was queued;
    - never beyond ``max_rounds`` rounds of a site, never against ``mode``.

    :meth:`refusal` says why nothing more is resumed (the crawl's stop reason)."""

    mode: str = defaults.SMART_RESUME_SITES
    max_rounds: int = defaults.SMART_SITE_MAX_ROUNDS
    discovery_pages: int = defaults.SMART_DISCOVERY_MAX_PAGES
    idle_pages: int = 0  # discovery pages since the last new site was queued

    def allows(self, site: SiteExploration) -> bool:
        return not self.why_not(site)

    def why_not(self, site: SiteExploration) -> str:
        """Why a stopped site is not resumed ("" when it may be): ``not_resumable`` (no
        link left, or ended by a final rule: its forms, discovery), ``mode``
        (SMART_RESUME_SITES), ``max_rounds``, ``form_found`` (a topic site with a form
        that may be relevant found and no likely link waiting), ``discovery_unproductive`` (a
        non-topic site while discovery does not pay)."""
        if not site.resumable:
            return "not_resumable"
        if not site.resumable_in(self.mode):
            return "mode"
        if site.rounds >= self.max_rounds:
            return "max_rounds"
        if site.relevant:
            if site.topic_forms == 0 or site.tree.likely_waiting() > 0:
                return ""
            return "form_found"
        return "" if self.idle_pages < self.discovery_pages else "discovery_unproductive"

    def not_resumed(self, waiting: Iterable[SiteExploration]) -> Counter[str]:
        """Stopped sites left when the crawl ends, counted by :meth:`why_not` (topic
        sites apart: ``topic:<reason>``), for the crawl's last log line."""
        return Counter(
            f"{'topic:' if s.relevant else ''}{self.why_not(s) or 'allowed'}" for s in waiting
        )

    def page_fetched(self, site: SiteExploration) -> None:
        """A page of a site: counted when it is a discovery page (a resumed non-topic
        site's)."""
        if site.rounds > 1 and not site.relevant:
            self.idle_pages += 1

    def stops(self, site: SiteExploration) -> bool:
        """A resumed non-topic site running while discovery has stopped paying: it ends
        (``discovery_unproductive``)."""
        stop = (
            site.rounds > 1
            and not site.relevant
            and not site.stopped
            and (self.idle_pages >= self.discovery_pages)
        )
        if stop:
            site.stopped = "discovery_unproductive"
        return stop

    def sites_queued(self, count: int) -> None:
        if count > 0:
            self.idle_pages = 0

    def refusal(self, waiting: list[SiteExploration]) -> str:
        """Why none of the stopped sites ``waiting`` is resumed."""
        if not waiting:
            return "no_site_left"
        if (
            any(
                s.resumable_in(self.mode) and s.rounds < self.max_rounds and not s.relevant
                for s in waiting
            )
            and self.idle_pages >= self.discovery_pages
        ):
            return "discovery_unproductive"
        return "no_site_worth_resuming"


def release_out_links(exploration: SiteExploration, frontier: SiteFrontier) -> int:
    """A site is done: its out-of-site links go to the frontier's high-priority queue if
    searchable forms were found on it, else to the low-priority queue. Returns how many
    sites were queued."""
    fresh = {
        u: link for u, link in exploration.out_links.items() if u not in exploration.released_links
    }
    exploration.released_links.update(fresh)
    queued = frontier.offer_links(
        ((url, anchor, around) for url, (anchor, around) in fresh.items()),
        source_site=exploration.site,
        high=exploration.searchable_forms > 0,
    )
    exploration.out_links.clear()  # offered once; a resumed site offers only new ones
    return queued
