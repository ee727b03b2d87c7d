"""Pseudo-relevance feedback: words of the first hits of a description query added to it,
for queries that describe a page in other words than its own (issue 25).

A plain function over term counts, without the backend: the engine gives the analysed
opening words of the best ``docs`` hits; each word (not in the query) scores the sum
over those pages of its share of the page's words times its IDF in the index (a
simplified relevance model, RM1 with uniform document weights), and the best ``terms``
are returned with weights scaled to 1 for the best.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence


def feedback_terms(
    pages: Sequence[Iterable[str]],
    doc_frequency: Callable[[str], int],
    doc_count: int,
    exclude: set[str],
    terms: int,
    min_pages: int = 2,
) -> list[tuple[str, float]]:
    """The ``terms`` best expansion terms of ``pages`` (analysed words of each feedback
    page) with weights in (0, 1]; a term must occur in at least ``min_pages`` of them."""
    scores: Counter[str] = Counter()
    seen_in: Counter[str] = Counter()
    for words in pages:
        counts = Counter(w for w in words if w not in exclude and not w.isdigit())
        total = sum(counts.values())
        if not total:
            continue
        for term, count in counts.items():
            scores[term] += count / total
            seen_in[term] += 1
    weighted = []
    for term, score in scores.items():
        if seen_in[term] < min(min_pages, len(pages)):
            continue
        df = doc_frequency(term)
        if df <= 0:
            continue
        weighted.append((term, score * math.log(1 + doc_count / df)))
    weighted.sort(key=lambda pair: (-pair[1], pair[0]))
    best = weighted[:terms]
    if not best:
        return []
    top = best[0][1]
    return [(term, weight / top) for term, weight in best]
