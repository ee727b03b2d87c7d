"""Stage 2: the exploration of one site and its stop rules.

A site's exploration starts at its home page and ends when one of the stop rules holds
(all settings, docs/deepweb.md) or when its links run out:

- ``max_pages``: pages fetched from the site;
- ``max_pages_without_form``: pages fetched in a row without a new searchable form;
- ``max_forms``: distinct searchable forms found (0: no limit);
- ``max_depth``: links followed from the home page (deeper links are not queued).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crawler import defaults
from crawler.deepweb.forms import Form
from crawler.deepweb.link_tree import LinkRanker, LinkTree
from crawler.deepweb.similarity import Features
from crawler.deepweb.site_frontier import SiteFrontier


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
    pages: int = 0
    pages_without_form: int = 0
    in_flight: int = 0
    form_signatures: set[tuple[str, str, tuple[str, ...]]] = field(default_factory=set)
    searchable_forms: int = 0
    out_links: dict[str, tuple[str, str]] = field(default_factory=dict)  # url -> anchor, around
    fetching: dict[str, Features] = field(default_factory=dict)  # url -> its link's features
    stopped: str = ""  # the stop rule that ended the site, "" while it runs

    @classmethod
    def start(
        cls,
        site: str,
        home: str,
        rules: StopRules,
        ranker: LinkRanker,
        penalty: float = defaults.SMART_LINK_TREE_PENALTY,
        seed: bool = False,
    ) -> SiteExploration:
        return cls(site, home, rules, LinkTree(ranker, penalty), seed=seed)

    def add_link(self, url: str, depth: int, anchor: str = "", around: str = "") -> bool:
        """Queue an in-site link found at ``depth`` (links from home); beyond max_depth
        it is not queued."""
        if depth > self.rules.max_depth or self.stopped:
            return False
        return self.tree.add(url, depth, anchor, around)

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
        self.pages += 1
        self.pages_without_form = 0 if found_new_searchable else self.pages_without_form + 1
        self.check_stop()

    def check_stop(self) -> str:
        rules = self.rules
        if self.stopped:
            return self.stopped
        if self.relevant is False:
            self.stopped = "off_topic"
        elif self.pages >= rules.max_pages:
            self.stopped = "max_pages"
        elif rules.max_forms and self.searchable_forms >= rules.max_forms:
            self.stopped = "max_forms"
        elif self.pages_without_form >= rules.max_pages_without_form:
            self.stopped = "pages_without_form"
        return self.stopped

    @property
    def done(self) -> bool:
        """Stopped, or nothing queued and nothing in flight."""
        return bool(self.stopped) or (not self.tree and self.in_flight <= 0)

    def next_links(self, limit: int) -> list[tuple[str, int, float]]:
        """Up to ``limit`` links to fetch now, counted in flight (url, depth, LT); none
        once the site has stopped or the pages budget is taken by pages in flight."""
        out: list[tuple[str, int, float]] = []
        while (
            not self.stopped
            and len(out) < limit
            and self.tree
            and self.pages + self.in_flight < self.rules.max_pages
        ):
            popped = self.tree.pop()
            assert popped is not None
            url, depth, features, rank = popped
            self.fetching[url] = features
            out.append((url, depth, rank))
            self.in_flight += 1
        return out


def release_out_links(exploration: SiteExploration, frontier: SiteFrontier) -> int:
    """A site is done: its out-of-site links go to the frontier's high-priority queue if
    searchable forms were found on it, else to the low-priority queue. Returns how many
    sites were queued."""
    return frontier.offer_links(
        ((url, anchor, around) for url, (anchor, around) in exploration.out_links.items()),
        source_site=exploration.site,
        high=exploration.searchable_forms > 0,
    )
