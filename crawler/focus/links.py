"""Relevance of a link for the frontier: parent weight, anchor text, URL.

``relevance = (W_PARENT x parent + W_ANCHOR x anchor + W_URL x url) / (W_PARENT +
W_ANCHOR + W_URL)``, each part in 0..1, so the relevance is in 0..1:

- parent: the weight of the page the link was found on, as ``w / (w + threshold)``
  (0 for a weight of 0, 0.5 at the threshold, towards 1 above it): a link on a
  relevant page is likely to lead to another one (the survey's "relevant pages often
  contain relevant links");
- anchor: the share of the query's clauses found in the anchor text (stemmed terms);
- url: the share of the query's clauses found in the link's URL (as for the page's URL).

The best-first frontier gets the relevance as the ``relevance`` score term; until it
exists, Scrapy's own priority queue orders by :func:`priority_bucket`.
"""

from __future__ import annotations

from dataclasses import dataclass

from crawler import defaults


@dataclass(frozen=True)
class LinkScoreParams:
    parent: float = defaults.FOCUS_LINK_WEIGHT_PARENT
    anchor: float = defaults.FOCUS_LINK_WEIGHT_ANCHOR
    url: float = defaults.FOCUS_LINK_WEIGHT_URL

    def __post_init__(self) -> None:
        if min(self.parent, self.anchor, self.url) < 0 or self.parent + self.anchor + self.url <= 0:
            raise ValueError("link score weights must be >= 0 and not all 0")


def parent_share(weight: float, threshold: float) -> float:
    """A parent page's weight mapped to 0..1: ``w / (w + threshold)``."""
    weight = max(weight, 0.0)
    if threshold <= 0:
        return 1.0 if weight > threshold else 0.0
    return weight / (weight + threshold)


def link_relevance(
    *,
    parent: float,
    anchor: float,
    url: float,
    params: LinkScoreParams | None = None,
) -> float:
    """Weighted mean of the three parts (each 0..1, see the module docstring)."""
    p = params or LinkScoreParams()
    total = p.parent + p.anchor + p.url
    return (p.parent * parent + p.anchor * anchor + p.url * url) / total


def priority_bucket(relevance: float, scale: int) -> int:
    """Scrapy's integer request priority for a relevance in 0..1 (``scale + 1`` buckets)."""
    return round(min(max(relevance, 0.0), 1.0) * scale)
