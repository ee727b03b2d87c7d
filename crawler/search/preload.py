"""A description's bonuses preloaded into an array, reading posting blocks whole.

Whoosh's ``PreloadedOr`` (``ArrayUnionMatcher``) adds each posting's score into an
array through the matcher interface: ``is_active()``, ``id()`` twice, ``score()`` (the
scorer asking the matcher for its weight and its page's length), ``next()``, each a
Python call or several. On cmake's reference (2,400 pages; a description's lead-field
terms alone are on 1,500-2,000 of them) that was 6.8 of a description's 24.6 ms of CPU
(docs/search.md, *Sixteenth round*). ``BlockPreloadedOr`` reads a term's postings a
block at a time (the block's page numbers and weights as Whoosh decoded them) and
computes the same BM25F score with the same operations in the same order, so every sum
is the same float; a sub-matcher of any other kind (a phrase, another scorer) goes the
generic way.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from typing import Any

from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.matching import ArrayUnionMatcher, CombinationMatcher, WrappingMatcher
from whoosh.query.compound import AndMaybe, Or, PreloadedOr
from whoosh.scoring import BM25FScorer

#: Pages per part of the arrays (Whoosh's ArrayUnionMatcher's default).
PART_SIZE = 2048


def _fast_leaf(matcher: Any) -> tuple[W3LeafMatcher, float | None, BM25FScorer] | None:
    """(leaf, its term's boost or None, its BM25F scorer) when ``matcher`` is a term's
    on-disk postings scored by plain BM25F (``WeightLengthScorer.score``), else None."""
    boost = None
    if type(matcher) is WrappingMatcher:
        boost = matcher.boost
        matcher = matcher.child
    if type(matcher) is not W3LeafMatcher:
        return None
    scorer = matcher.scorer
    # the exact class: a subclass may score otherwise
    if type(scorer) is not BM25FScorer:
        return None
    return matcher, boost, scorer


def _add_scores(m: Any, a: Any, offset: int, limit: int, boost: float, scored: bool) -> None:
    """Add the scores (times ``boost``) of ``m``'s postings below ``limit`` into ``a``
    (indexed from ``offset``), as ``ArrayUnionMatcher._read_part`` does for one matcher."""
    fast = _fast_leaf(m) if scored else None
    if fast is None:
        # Whoosh's own loop
        while m.is_active() and m.id() < limit:
            i = m.id() - offset
            if scored:
                a[i] += m.score() * boost
            else:
                a[i] = 1
            m.next()
        return
    leaf, term_boost, scorer = fast
    idf, avgfl, b, k1, dfl = scorer.idf, scorer.avgfl, scorer.B, scorer.K1, scorer.dfl
    while leaf.is_active():
        if leaf._ids is None:
            leaf._read_ids()
        if leaf._weights is None:
            leaf._read_weights()
        ids, weights, start = leaf._ids, leaf._weights, leaf._i
        count = leaf._blocklength
        end = bisect_left(ids, limit, start, count)
        for j in range(start, end):
            docnum = ids[j]
            tf = weights[j]
            # whoosh.scoring.bm25, then WrappingMatcher's boost, then the Or's
            score = idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * dfl(docnum) / avgfl)))
            if term_boost is not None:
                score = score * term_boost
            a[docnum - offset] += score * boost
        if end < count:
            leaf._i = end
            return
        # past the block's last posting: the next block (or the end)
        leaf._i = count - 1
        leaf.next()


class BlockArrayUnionMatcher(ArrayUnionMatcher):
    """``ArrayUnionMatcher`` whose BM25F term postings are read block by block, its
    array cleared at once (Whoosh sets its 2,048 values one by one for every part)."""

    def __init__(
        self,
        submatchers: list[Any],
        doccount: int,
        boost: float = 1.0,
        scored: bool = True,
        partsize: int = PART_SIZE,
    ) -> None:
        # ArrayUnionMatcher.__init__, the array made zero at once
        CombinationMatcher.__init__(self, submatchers, boost=boost)
        self._scored = scored
        self._doccount = doccount
        self._partsize = partsize = partsize or doccount
        self._zeros = array("d", bytes(8 * partsize))
        self._a = array("d", self._zeros)
        self._docnum = self._min_id()
        self._read_part()

    def _read_part(self) -> None:
        scored = self._scored
        boost = self._boost
        limit = min(self._docnum + self._partsize, self._doccount)
        offset = self._docnum
        a = self._a
        a[:] = self._zeros
        for m in self._submatchers:
            _add_scores(m, a, offset, limit, boost, scored)
        self._offset = offset
        self._limit = limit


class BlockPreloadedOr(PreloadedOr):
    """``PreloadedOr`` matching with ``BlockArrayUnionMatcher`` (the same scores)."""

    def _matcher(self, subs: list[Any], searcher: Any, context: Any) -> Any:
        scored = context.weighting is not None if context else True
        ms = [sub.matcher(searcher, context) for sub in subs]
        return BlockArrayUnionMatcher(ms, searcher.doc_count_all(), boost=self.boost, scored=scored)


class BlockOr(Or):
    """Whoosh's ``Or``, which preloads its matches into an array where it would (an
    index of up to 5,000 pages, no parent asking for the current match) with
    ``BlockPreloadedOr``: a description's any-word tier (the same scores)."""

    def _matcher(self, subs: list[Any], searcher: Any, context: Any) -> Any:
        if self.preloads(searcher, context):
            return BlockPreloadedOr(
                subs, boost=self.boost, minmatch=self.minmatch, scale=self.scale
            ).matcher(searcher, context)
        return super()._matcher(subs, searcher, context)

    def preloads(self, searcher: Any, context: Any) -> bool:
        """Whether this Or matches through an array (Whoosh's choice, above)."""
        needs_current = context.needs_current if context else True
        return (
            self.matcher_type == self.AUTO_MATCHER
            and len(self.subqueries) > 1
            and not (
                len(self.subqueries) < self.TOO_MANY_CLAUSES
                and (
                    needs_current
                    or self.scale
                    or len(self.subqueries) == 2
                    or searcher.doc_count_all() > 5000
                )
            )
        )


class BonusArrayUnionMatcher(BlockArrayUnionMatcher):
    """A preloaded Or with its preloaded bonus (``AndMaybe(Or, PreloadedOr)``) in one
    matcher: the bonus's scores go into a second array over the same pages, so a page's
    score is one addition, where Whoosh's ``AndMaybeMatcher`` moved the bonus's array
    matcher to every matching page (``skip_to``, ``id``, ``score``). The same sums: the
    Or's, plus the bonus's where it has one (``+ 0.0`` elsewhere)."""

    def __init__(
        self,
        submatchers: list[Any],
        bonus: list[Any],
        bonus_boost: float,
        doccount: int,
        boost: float = 1.0,
        partsize: int = PART_SIZE,
    ) -> None:
        self._bonus = bonus
        self._bonus_boost = bonus_boost
        self._b = array("d", bytes(8 * (partsize or doccount)))
        super().__init__(submatchers, doccount, boost=boost, scored=True, partsize=partsize)

    def _read_part(self) -> None:
        super()._read_part()
        b, offset, limit = self._b, self._offset, self._limit
        b[:] = self._zeros
        for m in self._bonus:
            # the bonus's pages before this part hold none of the Or's words
            if m.is_active() and m.id() < offset:
                m.skip_to(offset)
            _add_scores(m, b, offset, limit, self._bonus_boost, True)

    def score(self) -> float:
        i = self._docnum - self._offset
        return self._a[i] + self._b[i]

    def supports_block_quality(self) -> bool:
        # the quality bounds of the Or's array leave the bonus out: never prune on them
        # (the engine's searches do not; a caller asking would lose pages)
        return False


class PreloadedAndMaybe(AndMaybe):
    """``AndMaybe(BlockOr, BlockPreloadedOr)`` (a description's tier and its bonuses)
    matched by one ``BonusArrayUnionMatcher`` where the Or would preload; Whoosh's
    ``AndMaybeMatcher`` otherwise. The same pages and scores either way."""

    def matcher(self, searcher: Any, context: Any = None) -> Any:
        a, b = self.a, self.b
        if (
            isinstance(a, BlockOr)
            and type(b) is BlockPreloadedOr
            and context is not None
            and context.weighting is not None
            and a.preloads(searcher, context)
        ):
            return BonusArrayUnionMatcher(
                [q.matcher(searcher, context) for q in a.subqueries],
                [q.matcher(searcher, context) for q in b.subqueries],
                b.boost,
                searcher.doc_count_all(),
                boost=a.boost,
            )
        return super().matcher(searcher, context)
