"""``LinkEvent``: how a link was found, as the spider tells the frontier.

``CrawlerSpider.link_request`` puts one in ``request.meta["link"]``; the scheduler takes
it out when it queues the request and turns it into the link's statistics
(:meth:`LinkEvent.stats`). Typed fields instead of a dict: the spider builds the
values with the right types once, and the scheduler reads them without casting.

Plain Python (no Scrapy import). A slotted dataclass pickles, so a request carrying one
survives Scrapy's own disk queues (JOBDIR with Scrapy's scheduler).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from crawler.frontier.scores import UrlStats, link_event


@dataclass(slots=True)
class LinkEvent:
    """One link found on a fetched page (docs/frontier.md, "What the spider passes")."""

    url: str  # canonical target URL (not canonicalised again)
    source: str  # canonical URL of the page the link is on
    source_depth: int
    source_cash: float  # OPIC cash of the source page
    n_inter: int  # the source page's links to other registered domains
    n_intra: int  # and to its own
    inter: bool  # this link's kind
    visibility: int
    position: int
    distance: int
    anchor: str

    def stats(self, depth: int | None, extra: float) -> UrlStats:
        """The statistics this link contributes to its target. ``depth``: the request's
        ``meta["depth"]`` (DepthMiddleware), else one below the source page."""
        return link_event(
            depth=self.source_depth + 1 if depth is None else depth,
            n_inter=self.n_inter,
            n_intra=self.n_intra,
            inter=self.inter,
            visibility=self.visibility,
            position=self.position,
            distance=self.distance,
            source_cash=self.source_cash,
            extra=extra,
        )

    def to(self, url: str) -> LinkEvent:
        """The same link event for a rewritten target URL (already canonical)."""
        return replace(self, url=url)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], seed_cash: float) -> LinkEvent:
        """A link event from the dict spiders put in ``meta["link"]`` before this class
        existed (missing keys take the values the scheduler used to assume)."""
        return cls(
            url=str(data.get("url", "")),
            source=str(data.get("source", "")),
            source_depth=int(data.get("source_depth", 0)),
            source_cash=float(data.get("source_cash", seed_cash)),
            n_inter=int(data.get("n_inter", 0)),
            n_intra=int(data.get("n_intra", 0)),
            inter=bool(data.get("inter", False)),
            visibility=int(data.get("visibility", 1)),
            position=int(data.get("position", 1)),
            distance=int(data.get("distance", 1)),
            anchor=str(data.get("anchor", "")),
        )
