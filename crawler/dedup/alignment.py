"""Second stage of the near-duplicate decision: word-sequence alignment (no Scrapy).

Why a second stage: the winnowing Jaccard (first stage) is a *set* measure of K-grams.
One word in twenty replaced at random breaks about 30 % of the K-grams (each changed word
breaks the K-grams overlapping it), while distinct pages that share long passages --
Django security release notes of two branches -- keep a higher Jaccard, their changes
clustered in a few places.  No threshold on the Jaccard separates the two (docs/dedup.md
has the evaluation's figures).  An alignment of the two pages' word sequences does: a
5 % scattered edit keeps 95 % of the words in order, above the closest distinct pages
that are not duplicates in the source.

So the first stage stays the decision for Jaccard >= ``DEDUP_THRESHOLD``; LSH candidates
whose verified Jaccard is in ``[DEDUP_CANDIDATE_THRESHOLD, DEDUP_THRESHOLD)`` are near
duplicates if their word alignment is >= ``DEDUP_ALIGNMENT_THRESHOLD``.

* :func:`word_hashes`: the page's normalised words (maximal runs of the characters
  :func:`~crawler.dedup.winnowing.normalize_text` keeps, after NFKC and case folding),
  each hashed to 16 bits (vectorised Karp-Rabin, as the K-gram hashes).  16 bits: 2
  bytes per word kept in memory; two different words collide with probability 1/65,536,
  which adds a spurious aligned word only where the two texts differ anyway (about
  ``d**2 / 65,536`` for ``d`` differing words: < 0.2 word for d = 100).
* :func:`word_alignment`: the normalised Indel similarity ``2 * LCS / (n + m)`` of two
  word-hash sequences (longest common subsequence; the ``difflib`` ratio without its
  heuristics), computed by rapidfuzz's bit-parallel LCS in C, far cheaper than
  ``difflib`` (docs/dedup.md, "The second stage").
"""

from __future__ import annotations

import numpy as np
from rapidfuzz.distance import Indel

from crawler.dedup.winnowing import WORD_HASH_DTYPE, word_hashes

__all__ = ["WORD_HASH_DTYPE", "length_bound", "word_alignment", "word_hashes"]


def length_bound(a_words: int, b_words: int) -> float:
    """Upper bound of :func:`word_alignment` from the lengths alone (2 min / sum)."""
    if a_words + b_words == 0:
        return 1.0
    return 2 * min(a_words, b_words) / (a_words + b_words)


def word_alignment(a: np.ndarray, b: np.ndarray, score_cutoff: float = 0.0) -> float:
    """Normalised Indel similarity ``2 * LCS(a, b) / (len(a) + len(b))`` of two word-hash
    sequences: 1.0 for equal sequences (two empty ones included), 0.95 when 5 % of the
    words of a page are replaced.  Below ``score_cutoff`` the result is 0.0 (and the
    computation may stop early)."""
    if a.size + b.size == 0:
        return 1.0
    if length_bound(a.size, b.size) < score_cutoff:
        return 0.0
    return Indel.normalized_similarity(_as_str(a), _as_str(b), score_cutoff=score_cutoff)


def _as_str(words: np.ndarray) -> str:
    """The hashes as the code points of a str: rapidfuzz reads a str's buffer directly,
    where a list costs a conversion per element (docs/dedup.md, "The second stage")."""
    return words.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
