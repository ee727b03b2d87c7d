"""The proximity bonus: query words close together in a page (Solr's pf2 and pf).

Computed for a few pages only (the best hits of a search, see SearchEngine's rescore
window) from the positions in the postings: each consecutive pair of the query's words
within ``slop`` words of each other in any order, and all of them in the query's order
with at most ``slop`` words between neighbours. Each satisfied pair adds the BM25F of its
two words, the whole sequence the BM25F of all of them, times ``boost``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from whoosh import query as wq


@dataclass(frozen=True)
class Proximity:
    fieldname: str
    terms: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]  # consecutive pairs scored alone
    whole: bool  # also all the terms in order
    slop: int
    boost: float


def near(first: Sequence[int], second: Sequence[int], slop: int) -> bool:
    """Whether a position of ``first`` and one of ``second`` (sorted) are at most
    ``slop`` apart, in either order."""
    for position in first:
        i = bisect_left(second, position - slop)
        if i < len(second) and second[i] <= position + slop:
            return True
    return False


def in_order(positions: Sequence[Sequence[int]], slop: int) -> bool:
    """Whether the terms occur in this order, each at most ``slop`` positions after the
    one before."""
    reachable = set(positions[0])
    for following in positions[1:]:
        reachable = {
            p
            for p in following
            if any(0 < p - r <= slop for r in range(p - slop, p) if r in reachable)
        }
        if not reachable:
            return False
    return True


def proximity_scores(searcher: Any, docnums: Iterable[int], prox: Proximity) -> dict[int, float]:
    """Raw proximity bonus (before the PageRank blend) of each of ``docnums``."""
    context = searcher.context(weighting=searcher.weighting)
    matchers = {
        term: wq.Term(prox.fieldname, term).matcher(searcher, context) for term in set(prox.terms)
    }
    scores: dict[int, float] = {}
    for docnum in sorted(docnums):
        positions: dict[str, list[int]] = {}
        term_scores: dict[str, float] = {}
        present = []
        for term, matcher in matchers.items():
            if matcher.is_active() and matcher.id() < docnum:
                matcher.skip_to(docnum)
            if matcher.is_active() and matcher.id() == docnum:
                present.append((term, matcher))
        if not prox.pairs and len(present) < len(matchers):
            # only the whole sequence scores (a description) and a word of it is missing:
            # no bonus, and its positions (most of this function's CPU) need no reading
            continue
        for term, matcher in present:
            positions[term] = sorted(matcher.value_as("positions"))
            term_scores[term] = matcher.score()
        raw = 0.0
        for first, second in prox.pairs:
            if (
                first in positions
                and second in positions
                and near(positions[first], positions[second], prox.slop)
            ):
                raw += term_scores[first] + term_scores[second]
        if (
            prox.whole
            and all(term in positions for term in prox.terms)
            and in_order([positions[term] for term in prox.terms], prox.slop)
        ):
            raw += sum(term_scores[term] for term in prox.terms)
        if raw:
            scores[docnum] = prox.boost * raw
    return scores
