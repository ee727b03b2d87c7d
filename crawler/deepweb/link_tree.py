"""Stage 2 of the smart crawler: in-site link ranking and the link tree.

Link rank ``LT(l) = Sim(P, P_l) + Sim(A, A_l) + Sim(T, T_l)``: the similarity of a link's
URL path, anchor text and text around it to those of the in-site links that led to
searchable forms. The known set starts from prior words (SMART_LINK_PRIOR_WORDS, e.g.
"search advanced find") and learns online: every link that led to a page with a new
searchable form joins it (the paper's adaptive learning), so later links are ranked by
what worked.

The link tree groups a site's links by directory (the first path segment) so that one
large directory does not take all of a site's page budget: the next link is the one
with the highest ``LT(l) - penalty * taken(directory)``, ``taken`` counting the links
already taken from its directory.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from crawler import defaults
from crawler.deepweb.similarity import Features, text_vector, url_vector


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


@dataclass
class LinkTree:
    """A site's links waiting to be fetched, taken best first with directory balance."""

    ranker: LinkRanker
    penalty: float = defaults.SMART_LINK_TREE_PENALTY
    links: dict[str, _Link] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)  # directory -> links taken
    seen: set[str] = field(default_factory=set)
    _order: itertools.count = field(default_factory=itertools.count)

    def __len__(self) -> int:
        return len(self.links)

    def add(self, url: str, depth: int, anchor: str = "", around: str = "") -> bool:
        """Queue an in-site link once; returns whether it was new."""
        if url in self.seen:
            return False
        self.seen.add(url)
        self.links[url] = _Link(url, depth, link_features(url, anchor, around), next(self._order))
        return True

    def priority(self, link: _Link) -> float:
        return self.ranker.rank(link.features) - self.penalty * self.taken.get(
            directory_of(link.url), 0
        )

    def pop(self) -> tuple[str, int, Features, float] | None:
        """(url, depth, features, LT) of the next link, or None when empty."""
        if not self.links:
            return None
        best = max(self.links.values(), key=lambda ln: (self.priority(ln), -ln.order))
        del self.links[best.url]
        branch = directory_of(best.url)
        self.taken[branch] = self.taken.get(branch, 0) + 1
        return best.url, best.depth, best.features, self.ranker.rank(best.features)
