"""Which of two copies of a content is kept: the more important one (no Scrapy).

The content-seen test admits the first copy of a content it sees. When a mirror is
reached before its original, that keeps the mirror and (because a duplicate's links are
not followed) never crawls the original site. So when a duplicate arrives, the two
copies are compared (:func:`more_important`) on evidence the crawl has gathered
(:class:`LinkEvidence`), and the new copy replaces the admitted one when it is more
important:

==========================  ======  ==================================================
evidence                    weight  source
==========================  ======  ==================================================
``rel=canonical`` votes     10      a copy's ``<link rel="canonical">`` naming a copy
                                    (its own URL or the other's)
other hosts linking to the  2 each  links followed in this crawl (capped at 64 hosts)
copy's host
other hosts linking to the  2 each  same; a redirect counts as a link from its source
copy's URL
backlinks of the URL        0.25    every followed link to it, at most 20 counted
OPIC cash                   1       the frontier's cash of the page when fetched
host's pages stored         0.25 x  pages admitted on the copy's host, log2(1 + n)
==========================  ======  ==================================================

The new copy must beat the admitted one by INCUMBENT_MARGIN (one more host linking to
it): replacing a copy costs the crawl of the new copy's links, and a marginal difference
(a mirror linked once from its original, say) is no evidence.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field

from crawler.urls import url_host

CANONICAL_WEIGHT = 10.0
HOST_INLINK_WEIGHT = 2.0
PAGE_INLINK_WEIGHT = 2.0
BACKLINK_WEIGHT = 0.25
BACKLINKS_COUNTED = 20
CASH_WEIGHT = 1.0
HOST_PAGES_WEIGHT = 0.25
INCUMBENT_MARGIN = 2.0
_MAX_SOURCE_HOSTS = 64


@dataclass
class _UrlEvidence:
    backlinks: int = 0
    source_hosts: set[str] = field(default_factory=set)
    cash: float = 0.0
    canonical: str | None = None  # what the page declared, when it was admitted


@dataclass(frozen=True)
class CopyImportance:
    """The evidence for one copy and its score."""

    url: str
    canonical_votes: int
    host_inlink_hosts: int
    page_inlink_hosts: int
    backlinks: int
    cash: float
    host_pages: int

    @property
    def score(self) -> float:
        return (
            CANONICAL_WEIGHT * self.canonical_votes
            + HOST_INLINK_WEIGHT * self.host_inlink_hosts
            + PAGE_INLINK_WEIGHT * self.page_inlink_hosts
            + BACKLINK_WEIGHT * min(self.backlinks, BACKLINKS_COUNTED)
            + CASH_WEIGHT * self.cash
            + HOST_PAGES_WEIGHT * math.log2(1 + self.host_pages)
        )

    def describe(self) -> str:
        return (
            f"{self.url} score {self.score:.2f} (canonical votes {self.canonical_votes}, "
            f"hosts linking to its host {self.host_inlink_hosts}, to it "
            f"{self.page_inlink_hosts}, backlinks {self.backlinks}, cash {self.cash:.3f}, "
            f"host pages {self.host_pages})"
        )


def more_important(new: CopyImportance, admitted: CopyImportance) -> bool:
    """Whether ``new`` should replace the ``admitted`` copy: it scores at least
    INCUMBENT_MARGIN more."""
    return new.score >= admitted.score + INCUMBENT_MARGIN


class LinkEvidence:
    """What one crawl has seen of the link graph, for :func:`more_important`: per URL
    (at most ``max_urls``, least recently touched forgotten first) its backlinks, the
    other hosts linking to it, its OPIC cash and declared canonical; per host the other
    hosts linking to it and its admitted pages."""

    def __init__(self, max_urls: int = 1_000_000) -> None:
        self.max_urls = max(1, max_urls)
        self._urls: OrderedDict[str, _UrlEvidence] = OrderedDict()
        self._host_sources: dict[str, set[str]] = {}
        self._host_pages: dict[str, int] = {}

    def _url(self, url: str) -> _UrlEvidence:
        evidence = self._urls.get(url)
        if evidence is None:
            evidence = self._urls[url] = _UrlEvidence()
            if len(self._urls) > self.max_urls:
                self._urls.popitem(last=False)
        else:
            self._urls.move_to_end(url)
        return evidence

    def link(self, source: str, target: str) -> None:
        """A followed link (or a redirect) from ``source`` to ``target``."""
        evidence = self._url(target)
        evidence.backlinks += 1
        source_host, target_host = url_host(source), url_host(target)
        if source_host and source_host != target_host:
            if len(evidence.source_hosts) < _MAX_SOURCE_HOSTS:
                evidence.source_hosts.add(source_host)
            sources = self._host_sources.setdefault(target_host, set())
            if len(sources) < _MAX_SOURCE_HOSTS:
                sources.add(source_host)

    def admitted(self, url: str, cash: float, canonical: str | None) -> None:
        """A page was admitted (stored) with its OPIC cash and declared canonical."""
        evidence = self._url(url)
        evidence.cash, evidence.canonical = cash, canonical
        host = url_host(url)
        self._host_pages[host] = self._host_pages.get(host, 0) + 1

    def demoted(self, url: str) -> None:
        """An admitted page became a duplicate."""
        host = url_host(url)
        self._host_pages[host] = max(0, self._host_pages.get(host, 0) - 1)

    def importance(self, url: str, cash: float, votes: int) -> CopyImportance:
        evidence = self._urls.get(url) or _UrlEvidence()
        host = url_host(url)
        return CopyImportance(
            url,
            votes,
            len(self._host_sources.get(host, ())),
            len(evidence.source_hosts),
            evidence.backlinks,
            cash,
            self._host_pages.get(host, 0),
        )

    def choose(
        self, new: str, new_cash: float, new_canonical: str | None, admitted: str
    ) -> tuple[bool, str]:
        """Whether the ``new`` copy replaces the ``admitted`` one, and why."""
        old = self._urls.get(admitted) or _UrlEvidence()
        declared = [c for c in (new_canonical, old.canonical) if c]
        new_votes = sum(1 for c in declared if c == new)
        old_votes = sum(1 for c in declared if c == admitted)
        mine = self.importance(new, new_cash, new_votes)
        theirs = self.importance(admitted, old.cash, old_votes)
        keep_new = more_important(mine, theirs)
        kept, other = (mine, theirs) if keep_new else (theirs, mine)
        return keep_new, f"kept {kept.describe()} over {other.describe()}"
