"""Stage 1 of the smart crawler: the site frontier and the site ranker.

The frontier holds sites (hosts), not URLs, in two queues. Out-of-site links of a site
where searchable forms were found go to the high-priority queue, those of other sites to
the low-priority queue; when the high queue is empty the low queue is moved into it
(the paper's incremental site prioritizing). Within the high queue the best-ranked site
is taken first:

    Rank(s) = alpha * ST(s) + (1 - alpha) * log(1 + SF(s))

ST(s) = Sim(U, U_s) + Sim(A, A_s) + Sim(T, T_s) against the known deep-web sites of the
topic (crawler.deepweb.similarity), SF(s) = the number of known deep-web sites with a
link to s. Ranks are computed when a site is taken, so what was learned since it was
queued counts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from crawler import defaults
from crawler.deepweb.similarity import Features, url_vector
from crawler.urls import registered_domain


def site_of(url: str) -> str:
    """The site of a URL: its host (lower case, port kept)."""
    return urlsplit(url).netloc.lower()


def same_site(host: str, site: str) -> bool:
    """Whether a host (``site_of``) is part of a site explored: the site's own host, or
    another host name of the same registered domain on the same port
    (``lookup.kelby.test`` linked from ``www.kelby.test``: a site's search often runs on
    a host of its own). IP addresses are their own site (registered_domain keeps them
    whole)."""
    if host == site:
        return True
    a, b = urlsplit(f"//{host}"), urlsplit(f"//{site}")
    if not a.hostname or not b.hostname or a.port != b.port:
        return False
    return registered_domain(a.hostname) == registered_domain(b.hostname)


def home_of(url: str) -> str:
    """The home page URL of a URL's site."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.lower()}/"


@dataclass
class SiteCandidate:
    """A site waiting in the frontier: what the links to it said about it."""

    site: str
    home: str
    order: int
    features: Features = field(default_factory=Features)
    linked_from: set[str] = field(default_factory=set)  # sites with a link to it
    entries: dict[str, tuple[str, str]] = field(default_factory=dict)  # url -> anchor, around
    high: bool = False  # in the high-priority queue
    offered_high: bool = False  # put there by a form site's link (not by promotion)

    def __post_init__(self) -> None:
        if not self.features.url:
            self.features.url.update(url_vector(self.home))


class SiteRanker:
    """Rank(s) against the known deep-web sites (their summed features, their hosts)."""

    def __init__(self, alpha: float = defaults.SMART_ALPHA, prior: Features | None = None) -> None:
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"alpha must be within 0..1, not {alpha}")
        self.alpha = alpha
        self.known = Features()
        if prior is not None:
            self.known.add(prior)
        self.known_sites: set[str] = set()

    def add_known(self, site: str, features: Features) -> bool:
        """A deep-web site of the topic was found: its features join the known set.
        Returns whether it was new."""
        if site in self.known_sites:
            return False
        self.known_sites.add(site)
        self.known.add(features)
        return True

    def similarity(self, candidate: SiteCandidate) -> float:
        """ST(s)."""
        return self.known.similarity(candidate.features)

    def frequency(self, candidate: SiteCandidate) -> int:
        """SF(s)."""
        return len(candidate.linked_from & self.known_sites)

    def rank(self, candidate: SiteCandidate) -> float:
        return self.alpha * self.similarity(candidate) + (1.0 - self.alpha) * math.log(
            1.0 + self.frequency(candidate)
        )


class SiteFrontier:
    """Sites to explore, in a high- and a low-priority queue (see the module docstring).

    A site is offered once per link to it; a site taken (or marked visited) is never
    queued again.
    """

    def __init__(self, ranker: SiteRanker) -> None:
        self.ranker = ranker
        self.candidates: dict[str, SiteCandidate] = {}
        self.visited: set[str] = set()
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self.candidates)

    @property
    def high(self) -> list[str]:
        return [s for s, c in self.candidates.items() if c.high]

    @property
    def low(self) -> list[str]:
        return [s for s, c in self.candidates.items() if not c.high]

    def offer(
        self,
        url: str,
        *,
        anchor: str = "",
        around: str = "",
        source_site: str = "",
        high: bool = False,
    ) -> bool:
        """A link to ``url`` from ``source_site``; returns whether its site is queued."""
        site = site_of(url)
        if not site or site in self.visited or site == source_site:
            return False
        candidate = self.candidates.get(site)
        if candidate is None:
            candidate = SiteCandidate(site, home_of(url), next(self._order))
            self.candidates[site] = candidate
        if source_site:
            candidate.linked_from.add(source_site)
        if anchor or around:
            candidate.features.add_link(anchor, around)
        if url != candidate.home:
            candidate.entries.setdefault(url, (anchor, around))
        candidate.high = candidate.high or high
        candidate.offered_high = candidate.offered_high or high
        return True

    def offer_links(
        self, links: Iterable[tuple[str, str, str]], *, source_site: str, high: bool
    ) -> int:
        """Out-of-site links (url, anchor, around) of an explored site; returns how many
        were queued."""
        return sum(
            self.offer(url, anchor=anchor, around=around, source_site=source_site, high=high)
            for url, anchor, around in links
        )

    def mark_visited(self, site: str) -> None:
        self.visited.add(site)
        self.candidates.pop(site, None)

    def pop(self) -> SiteCandidate | None:
        """The best-ranked site of the high queue (the low queue moved up when the high
        one is empty); None when both are empty. Ties: first queued first."""
        if not self.candidates:
            return None
        high = [c for c in self.candidates.values() if c.high]
        if not high:
            for candidate in self.candidates.values():
                candidate.high = True
            high = list(self.candidates.values())
        best = max(high, key=lambda c: (self.ranker.rank(c), -c.order))
        self.mark_visited(best.site)
        return best
