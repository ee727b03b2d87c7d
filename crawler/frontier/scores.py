"""How the frontier scores a URL: the link rules, the statistics they need, the strategies.

Every URL in the frontier carries a few statistics gathered from the links found to it
so far (:class:`UrlStats`). Each link found on a fetched page is one *link event*: it
adds one backlink and a share of the source page's OPIC cash, and offers its depth,
inter/intra link score, link-attribute score and spider score terms (the best offer
wins). A strategy turns the statistics into one float; the frontier serves the highest
``(priority, score)`` first, ties in insertion order (newest first for ``dfs``).

The same formula is also written as SQL (each strategy class holds both) so that the
database can re-score a queued URL when new links to it are found without loading it.

Plain Python: no Scrapy import, tested directly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from crawler import defaults
from crawler.urls import registered_domain, url_host

# Weight of a link to another registered domain / to the same one (priority-queue paper).
THETA_INTER = 0.66
THETA_INTRA = 0.33

# Weights of the bestfirst combination (FRONTIER_WEIGHTS overrides them one by one).
# The same mapping weights the spider's own score terms (request.meta["score_terms"]);
# a term without a weight counts with weight 1.
DEFAULT_WEIGHTS: dict[str, float] = dict(defaults.FRONTIER_WEIGHTS)

# Floor for the logarithm of OPIC cash (cash is positive; this only guards against 0).
_MIN_CASH = 1e-300


def link_score(n_inter: int, n_intra: int, inter: bool) -> float:
    """The inter/intra-domain link score LS = alpha / beta * theta of one link.

    ``n_inter`` / ``n_intra`` count the links of the source page to other registered
    domains / to its own; alpha = n_inter + n_intra, beta = min(n_inter, n_intra) and
    theta = 0.66 for an inter-domain link, 0.33 for an intra-domain one.

    beta = 0 (the page links only to other domains, or only to its own) is read as
    beta = 1: the value the formula takes when the missing kind has a single link. So
    one link more or less never changes LS by more than the formula does elsewhere,
    whereas "theta alone" would rank the links of a page with 50 internal links a
    hundred times below those of the same page with one external link added.
    """
    alpha = n_inter + n_intra
    beta = max(min(n_inter, n_intra), 1)
    return alpha / beta * (THETA_INTER if inter else THETA_INTRA)


def attribute_score(visibility: int, position: int, distance: int) -> float:
    """Link attributes (effective-crawler paper, 5.3) as one number in (0, 1].

    visibility (1..3) + position (1..3) + distance (1 or 5), divided by their maximum 11.
    """
    return (visibility + position + distance) / 11.0


def page_link_kinds(page_url: str, targets: Iterable[str]) -> tuple[int, int, dict[str, bool]]:
    """``(n_inter, n_intra, {target: is inter-domain})`` of a page's out-links.

    A link is inter-domain when its registered domain (public-suffix aware) differs from
    the page's.
    """
    own = registered_domain(url_host(page_url))
    kinds = {url: registered_domain(url_host(url)) != own for url in targets}
    n_inter = sum(kinds.values())
    return n_inter, len(kinds) - n_inter, kinds


def weighted_terms(terms: Mapping[str, float] | None, weights: Mapping[str, float]) -> float:
    """Sum of a spider's score terms, each times its weight (1 when not given)."""
    if not terms:
        return 0.0
    return float(sum(weights.get(name, 1.0) * float(value) for name, value in terms.items()))


@dataclass(slots=True)
class UrlStats:
    """What the frontier knows about a URL, gathered from the link events so far.

    Merging two of them (:meth:`absorb`) is associative and commutative, so link events
    can be batched and applied in any order, in memory or in SQL.
    """

    depth: int = 0
    backlinks: int = 0
    cash: float = 0.0
    link_score: float = 0.0
    attributes: float = 0.0
    extra: float = 0.0

    def absorb(self, event: UrlStats) -> None:
        """Add a link event (or a batch of them): counts add up, the best offers win."""
        self.depth = min(self.depth, event.depth)
        self.backlinks += event.backlinks
        self.cash += event.cash
        self.link_score = max(self.link_score, event.link_score)
        self.attributes = max(self.attributes, event.attributes)
        self.extra = max(self.extra, event.extra)

    def copy(self) -> UrlStats:
        return UrlStats(
            self.depth, self.backlinks, self.cash, self.link_score, self.attributes, self.extra
        )

    def as_dict(self) -> dict[str, float]:
        return {
            "depth": self.depth,
            "backlinks": self.backlinks,
            "cash": self.cash,
            "link_score": self.link_score,
            "attributes": self.attributes,
            "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, float]) -> UrlStats:
        return cls(
            int(data.get("depth", 0)),
            int(data.get("backlinks", 0)),
            float(data.get("cash", 0.0)),
            float(data.get("link_score", 0.0)),
            float(data.get("attributes", 0.0)),
            float(data.get("extra", 0.0)),
        )


def link_event(
    *,
    depth: int,
    n_inter: int,
    n_intra: int,
    inter: bool,
    visibility: int,
    position: int,
    distance: int,
    source_cash: float,
    extra: float = 0.0,
) -> UrlStats:
    """The statistics one link found on a fetched page contributes to its target.

    OPIC (Abiteboul et al. 2003): a fetched page hands its cash out in equal shares to
    its out-links, so the target gets ``source_cash / (n_inter + n_intra)``.
    """
    n_out = max(n_inter + n_intra, 1)
    return UrlStats(
        depth=depth,
        backlinks=1,
        cash=source_cash / n_out,
        link_score=link_score(n_inter, n_intra, inter),
        attributes=attribute_score(visibility, position, distance),
        extra=extra,
    )


def seed_stats(depth: int = 0, cash: float = 1.0, extra: float = 0.0) -> UrlStats:
    """Statistics of a URL that did not come from a link (a seed, a spider's own request)."""
    return UrlStats(depth=depth, backlinks=0, cash=cash, extra=extra)


class Strategy:
    """A crawl order: ``score(stats)`` (higher first) and the tie-break direction.

    One subclass per strategy (as Frontera's strategy classes): each holds its formula
    twice, side by side, as Python (:meth:`base`) and as SQL (:meth:`base_sql`); the
    spider's score terms (``extra``) are added to both by :meth:`score` / :meth:`score_sql`.
    """

    __slots__ = ("weights",)

    name: ClassVar[str]
    # equal scores are served newest first (LIFO) when true, oldest first otherwise
    newest_first: ClassVar[bool] = False

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights: Mapping[str, float] = dict(DEFAULT_WEIGHTS) if weights is None else weights

    def _weight(self, name: str) -> float:
        return float(self.weights.get(name, DEFAULT_WEIGHTS.get(name, 0.0)))

    def base(self, s: UrlStats) -> float:
        """The strategy's own score of a URL with these statistics."""
        raise NotImplementedError

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        """:meth:`base` as an SQL expression over the given column expressions."""
        raise NotImplementedError

    def score(self, s: UrlStats) -> float:
        """The score of a URL with these statistics (spider score terms included)."""
        return self.base(s) + s.extra

    def score_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str, extra: str
    ) -> str:
        """The same formula as an SQL expression over the given column expressions."""
        return f"({self.base_sql(depth, backlinks, cash, link_score, attributes)} + ({extra}))"

    @property
    def signature(self) -> str:
        """Identifies the formula: stored with the crawl, a change re-scores the queue."""
        return self.name


class BreadthFirst(Strategy):
    """Shallowest first: exactly FIFO."""

    __slots__ = ()
    name = "bfs"

    def base(self, s: UrlStats) -> float:
        return -float(s.depth)

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        return f"(-({depth}))::float8"


class DepthFirst(Strategy):
    """Deepest first, newest first among equals: exactly LIFO."""

    __slots__ = ()
    name = "dfs"
    newest_first = True

    def base(self, s: UrlStats) -> float:
        return float(s.depth)

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        return f"({depth})::float8"


class Backlink(Strategy):
    """Most links found to the URL first (Cho et al.)."""

    __slots__ = ()
    name = "backlink"

    def base(self, s: UrlStats) -> float:
        return float(s.backlinks)

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        return f"({backlinks})::float8"


class Opic(Strategy):
    """Most OPIC cash first (Abiteboul et al.)."""

    __slots__ = ()
    name = "opic"

    def base(self, s: UrlStats) -> float:
        return s.cash

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        return f"({cash})"


class InterIntra(Strategy):
    """Best inter/intra-domain link score first (priority-queue paper)."""

    __slots__ = ()
    name = "interintra"

    def base(self, s: UrlStats) -> float:
        return s.link_score

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        return f"({link_score})"


class BestFirst(Strategy):
    """The weighted combination of every statistic (weights: ``FRONTIER_WEIGHTS``)."""

    __slots__ = ("_w_opic", "_w_backlinks", "_w_interintra", "_w_attributes", "_w_depth")
    name = "bestfirst"

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        super().__init__(weights)
        # the weights as plain attributes: score() runs for every link found
        self._w_opic = self._weight("opic")
        self._w_backlinks = self._weight("backlinks")
        self._w_interintra = self._weight("interintra")
        self._w_attributes = self._weight("attributes")
        self._w_depth = self._weight("depth")

    def base(self, s: UrlStats) -> float:
        return (
            self._w_opic * math.log(max(s.cash, _MIN_CASH))
            + self._w_backlinks * math.log1p(s.backlinks)
            + self._w_interintra * math.log1p(s.link_score)
            + self._w_attributes * s.attributes
            - self._w_depth * s.depth
        )

    def base_sql(
        self, depth: str, backlinks: str, cash: str, link_score: str, attributes: str
    ) -> str:
        w = {k: repr(self._weight(k)) for k in DEFAULT_WEIGHTS}
        return (
            f"({w['opic']} * ln(greatest({cash}, {_MIN_CASH!r}))"
            f" + {w['backlinks']} * ln(1 + ({backlinks}))"
            f" + {w['interintra']} * ln(1 + ({link_score}))"
            f" + {w['attributes']} * ({attributes})"
            f" - {w['depth']} * ({depth}))"
        )

    @property
    def signature(self) -> str:
        return "bestfirst:" + ",".join(f"{k}={self._weight(k)!r}" for k in sorted(DEFAULT_WEIGHTS))


# The strategies by name (FRONTIER_STRATEGY, -a strategy=).
STRATEGY_CLASSES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (BestFirst, BreadthFirst, DepthFirst, Backlink, Opic, InterIntra)
}
STRATEGIES = tuple(STRATEGY_CLASSES)


def make_strategy(name: str, weights: Mapping[str, float] | None = None) -> Strategy:
    """The strategy called ``name``, with ``weights`` over the default weights."""
    key = name.strip().lower()
    cls = STRATEGY_CLASSES.get(key)
    if cls is None:
        raise ValueError(
            f"unknown frontier strategy {key!r}; choose one of {', '.join(STRATEGIES)}"
        )
    merged = dict(DEFAULT_WEIGHTS)
    merged.update({k: float(v) for k, v in (weights or {}).items()})
    return cls(merged)
