"""The refinement decision of the survey's Ranking Module: which page a collection of
fixed capacity keeps.

While the collection has room, every new page enters. When it is full, a new page
enters only if it is more important than the least important collected page, which it
replaces (that page is discarded: the caller records its removal).
"""

from __future__ import annotations

from dataclasses import dataclass

from crawler import defaults


@dataclass(frozen=True)
class Refinement:
    admit: bool
    evict: str | None = None  # URL of the collected page the new one replaces


def refinement_decision(
    size: int,
    capacity: int | None,
    importance: float,
    least: tuple[str, float] | None,
) -> Refinement:
    """Decide for a new page of ``importance``; ``least`` is the (URL, importance) of the
    least important collected page; ``capacity`` None or <= 0 means unbounded."""
    if not capacity or capacity <= 0 or size < capacity:
        return Refinement(True)
    if least is not None and importance > least[1]:
        return Refinement(True, least[0])
    return Refinement(False)


def one_step_pagerank(
    source_importance: float,
    source_links: int,
    pages: int,
    damping: float = defaults.PAGERANK_DAMPING,
) -> float:
    """Importance of a newly found page on the PageRank scale, before the next
    `scrapy pagerank`: the share one linking page passes on,
    ``(1 - d) / N + d * PR(source) / outlinks(source)``."""
    return (1 - damping) / max(pages, 1) + damping * source_importance / max(source_links, 1)
