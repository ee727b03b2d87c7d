"""Stage 2 of the smart crawler: in-site link ranking and the link tree.

Link rank ``LT(l) = Sim(P, P_l) + Sim(A, A_l) + Sim(T, T_l)``: the similarity of a link's
URL path, anchor text and text around it to those of the in-site links that led to
searchable forms. The known set starts from prior words (SMART_LINK_PRIOR_WORDS, e.g.
"search advanced find") and learns online: every link that led to a page with a new
searchable form joins it (the paper's adaptive learning), so later links are ranked by
what worked.

The link tree groups a site's links by directory (the first path segment) so that one
large directory does not take all of a site's page budget: the next link is the one
with the highest ``max(LT(l), LT_prior(l)) + nav_bonus * navigation(l) - penalty *
taken(directory)``: ``LT_prior`` the rank against the prior words alone (learning does
not dilute a link named like a search), ``taken`` the links already taken from its
directory, ``navigation`` whether the link is one of the site's menu links (what the
site itself calls its sections, whatever the words: a "Shelves" entry may be the
catalogue).

A link is **likely** to lead to a form when its rank reaches ``likely_rank`` (it names a
search, or looks like links that led to forms) or when it is a menu link of a page at
most ``nav_depth`` links from home. The stop rule "pages without a form" does not end a
site while likely links wait (crawler.deepweb.exploration).

A link marked **topical** (the spider marks those of a seed, a directory or portal, whose
URL path or anchor names the topic: ``/dir/society-genealogy-records-online/``) gets
``topic_bonus`` on top and is likely: a directory is read for its links to the topic's
sites, and its category of the topic lists them (on a held-out web the genealogy
category of one directory was its 11th category read, of the other never, and the
genealogy sites it lists were judged on their home pages alone, off topic).

A link named like a page that lists other sites (``sites``: SMART_LINK_SITES_WORDS,
"Partners", "Links", "Blogroll") ranks by that name too and is likely: the topic's
sites link to each other from such pages, and a site two hops from the seeds is reached
only through them (on a held-out web two of five pet shelters were linked only from
the other shelters' "Partners" pages, which 20-30 pages of each shelter never reached).

A link to the site's **site map** (its own index of its pages, "Site map" in the
footer) ranks like a search link (``site_map_rank``) and is likely while the site's
search is not found (``index_wanted``): a search linked from no menu is listed there.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from crawler import defaults
from crawler.deepweb.similarity import Features, text_vector, url_vector

#: a link named like a page listing sites ranks by that name times this: a "Partners"
#: link (0.82 against the default words) comes after a "Search" link (0.60 against the
#: default prior words) and before the links of a page's text (0), and is likely (0.41)
SITES_WEIGHT = 0.5
#: a link to the site's own index of its pages ("Site map", usually in the footer) ranks
#: like a link named like a search that is no menu link: one page lists every page of
#: the site, its search among them when no menu links to it (heldout34-36: a search
#: linked from the site map alone was never fetched on any of the three webs)
SITE_MAP_RANK = 0.6


def link_features(url: str, anchor: str, around: str) -> Features:
    return Features(url_vector(url, path_only=True), text_vector(anchor), text_vector(around))


def directory_of(url: str) -> str:
    """The link tree's branch of a URL: its first path segment ("" for the root's files)."""
    path = urlsplit(url).path
    segments = [s for s in path.split("/") if s]
    if len(segments) <= 1 and not path.endswith("/"):
        return ""
    return segments[0] if segments else ""


class LinkRanker:
    """LT(l) against the links that led to searchable forms (learned online)."""

    def __init__(self, prior_words: Iterable[str] = ()) -> None:
        self.known = Features.of_terms(prior_words)
        self.learned = 0

    def rank(self, features: Features) -> float:
        return self.known.similarity(features)

    def learn(self, features: Features) -> None:
        """A link that led to a searchable form."""
        self.known.add(features)
        self.learned += 1


@dataclass
class _Link:
    url: str
    depth: int  # links from the site's home page
    features: Features
    order: int
    navigation: bool = False
    prior: float = 0.0  # LT(l) against the prior words alone
    topical: bool = False  # names the topic (marked for a seed's links)
    lists_sites: float = 0.0  # LT(l) against the words of pages listing other sites
    embedded: bool = False  # a frame of a fetched page: read as part of it, first
    site_map: bool = False  # the site's own index of its pages ("Site map")


@dataclass
class LinkTree:
    """A site's links waiting to be fetched, taken best first with directory balance."""

    ranker: LinkRanker
    penalty: float = defaults.SMART_LINK_TREE_PENALTY
    nav_bonus: float = defaults.SMART_LINK_NAV_BONUS
    likely_rank: float = defaults.SMART_LINK_LIKELY_RANK
    nav_depth: int = defaults.SMART_LINK_NAV_DEPTH
    prior: LinkRanker | None = None  # the prior words alone: what "likely" is judged by
    topic_bonus: float = defaults.SMART_LINK_TOPIC_BONUS
    sites: LinkRanker | None = None  # the words of pages that list other sites
    # a site map's rank: with the menu's bonus, after a menu link named like a search
    # and before the other menu links
    site_map_rank: float = SITE_MAP_RANK
    # the site's search not found yet (its exploration says): a site map is worth
    # reading early only then
    index_wanted: bool = True
    links: dict[str, _Link] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)  # directory -> links taken
    seen: set[str] = field(default_factory=set)
    _order: itertools.count = field(default_factory=itertools.count)

    def __len__(self) -> int:
        return len(self.links)

    def add(
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
        """Queue an in-site link once; returns whether it was new. A link seen again from
        a menu becomes a menu link (found first in the text, later in a menu), one seen
        again with an anchor that names the topic becomes topical, one seen again as a
        page's frame becomes embedded."""
        if url in self.seen:
            link = self.links.get(url)
            if link is not None and site_map:
                link.site_map = True
            if link is not None and topical:
                link.topical = True
            if link is not None and embedded:
                link.embedded = True
            if (
                link is not None
                and navigation
                and not link.navigation
                and (depth <= self.nav_depth + 1)
            ):
                link.navigation = True
            return False
        self.seen.add(url)
        features = link_features(url, anchor, around)
        prior = self.prior.rank(features) if self.prior is not None else 0.0
        lists_sites = SITES_WEIGHT * self.sites.rank(features) if self.sites is not None else 0.0
        self.links[url] = _Link(
            url,
            depth,
            features,
            next(self._order),
            navigation and depth <= self.nav_depth + 1,
            prior,
            topical,
            lists_sites,
            embedded,
            site_map,
        )
        return True

    def priority(self, link: _Link) -> float:
        """max(LT(l), LT against the prior words, against the words of pages listing
        sites) + menu bonus + topic bonus - directory penalty: the prior keeps a link
        named like a search high when learning dilutes its words. A page's frame comes
        before every other link: a user sees it as part of the page that holds it (a
        search widget in an iframe of the home page has no anchor words to rank)."""
        if link.embedded:
            return math.inf
        return (
            max(
                self.ranker.rank(link.features),
                link.prior,
                link.lists_sites,
                self.site_map_rank if link.site_map and self.index_wanted else 0.0,
            )
            + (self.nav_bonus if link.navigation else 0.0)
            + (self.topic_bonus if link.topical else 0.0)
            - self.penalty * self.taken.get(directory_of(link.url), 0)
        )

    def likely(self, link: _Link) -> bool:
        """Named like a search (prior words) or like a page listing sites, ranked like
        links that led to forms, a menu link near home, or a topical link."""
        return (
            link.embedded
            or (link.site_map and self.index_wanted)
            or link.navigation
            or link.topical
            or link.lists_sites >= self.likely_rank
            or link.prior >= self.likely_rank
            or self.ranker.rank(link.features) >= self.likely_rank
        )

    def likely_waiting(self) -> int:
        """Links waiting that are likely to lead to a form."""
        return sum(1 for link in self.links.values() if self.likely(link))

    def pop(self) -> tuple[str, int, Features, float] | None:
        """(url, depth, features, LT) of the next link, or None when empty."""
        if not self.links:
            return None
        best = max(self.links.values(), key=lambda ln: (self.priority(ln), -ln.order))
        del self.links[best.url]
        branch = directory_of(best.url)
        self.taken[branch] = self.taken.get(branch, 0) + 1
        return best.url, best.depth, best.features, self.ranker.rank(best.features)

    def best_rank(self) -> float:
        """The priority of the best waiting link (-inf when none): resumed sites are
        ordered by it."""
        return max((self.priority(link) for link in self.links.values()), default=float("-inf"))
