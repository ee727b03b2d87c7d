"""Winnowing fingerprints for the content-seen test (paper section 5.2).

The pipeline, as in the paper and in Schleimer, Wilkerson and Aiken (SIGMOD 2003), one
module per step: ``crawler.dedup.normalize`` (1), ``crawler.dedup.karp_rabin`` (2), this
module (3, and ``WinnowingFingerprint``, which runs them all); ``crawler.dedup.words``
hashes the words for the second stage. Their public names are importable from here too.

1. ``normalize_text``: NFKC, case folding, and removal of everything that is not a
   letter, digit or combining mark of any script (white space, punctuation, symbols).
2. Every K-length substring of the normalised text (``m - K + 1`` of them) is hashed
   to 64 bits.
3. ``winnow``: a window of W consecutive hashes slides over the hash list; each window
   selects its minimum, the rightmost one on ties, and a selected (position, hash) is
   recorded only once, not again for the following windows while it stays their
   minimum.  The recorded hashes are the minutiae (the fingerprint).

Guarantees: any common substring of at least ``W + K - 1`` normalised characters yields a
shared minutia, and about ``2 / (W + 1)`` of the hashes are selected on random text.

Edge cases (our definitions, the paper is silent):

* empty normalised text: no minutiae;
* normalised text shorter than K: one hash, of the whole normalised text;
* fewer than W hashes: the single window is all of them (one minutia, the rightmost
  minimum).

K-gram hash functions (``hash_name``):

* ``"karp_rabin"`` (default): a polynomial (Karp-Rabin) hash of the K-gram's code points
  modulo 2**64, finished by the MurmurHash3 64-bit finaliser, computed for all K-grams
  at once with numpy prefix sums.  Rolling hashes are what Schleimer et al. use.
* ``"md5"``: the paper's choice, MD5 of the UTF-8 K-gram, first 8 digest bytes
  (big-endian).  One hashlib call per character position.
* ``"xxh64"``: xxHash64 of the UTF-8 K-gram, one call per character position.

The three give different minutiae: never mix fingerprints made with different
``(k, w, hash_name)`` in one index.

Speed: MD5 (and even xxHash, with one Python-level call per K-gram) cannot meet the 2 ms
per page budget for fingerprint + query, so the vectorised Karp-Rabin hash is the
default; MD5 stays selectable. ``bench/dedup_eval.py`` section 3 prints the current
costs; docs/dedup.md records them.

Choice of K=8 and W=30 (``bench/dedup_eval.py`` section 1; the figures are in
docs/dedup.md, "The winnowing fingerprint"):

* K sets the edit tolerance: a changed word breaks every K-gram overlapping it, so a
  larger K lowers the Jaccard of edited and reordered pages (K=12 and K=16 lose
  reordered pages at 0.8; K=8 loses none).
* Small K makes distinct pages look alike (common short strings plus the site
  template): K=8 is the smallest K that flags no distinct page at 0.8.
* W: about 2/(W+1) of the K-grams are kept and any common run of W+K-1 = 37 characters
  (~6 words) shares a minutia.  W=15 doubles fingerprint size and cost, and its less
  noisy Jaccard lets distinct pages pass 0.8; W=50 and W=100 lose reordered pages
  because boundary effects weigh more with fewer minutiae.
* Limit: replacing one word in 20 at random breaks so many K-grams that the median
  Jaccard falls below that of distinct pages sharing most of their text, so no (K, W,
  threshold) finds them without flagging distinct pages.  The content-seen test
  therefore adds a second stage for candidates just below the threshold: an alignment
  of the pages' word sequences (:func:`word_hashes`, ``crawler.dedup.alignment``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# The jobs before winnowing live in their own modules; their public names stay
# importable from here.
from crawler import defaults
from crawler.dedup.karp_rabin import (
    HASH_NAMES,
    _karp_rabin_hashes,
    _karp_rabin_prefix,
    _kgram_hashes,
    kgram_hashes,
)
from crawler.dedup.normalize import (
    _code_points_to_text,
    _normalized_code_points,
    exact_digest,
    folded_code_points,
    normalize_text,
)
from crawler.dedup.words import WORD_HASH_DTYPE, _word_hashes, _word_spans, word_hashes

__all__ = [
    "DEFAULT_K",
    "DEFAULT_W",
    "HASH_NAMES",
    "WORD_HASH_DTYPE",
    "WinnowingFingerprint",
    "exact_digest",
    "folded_code_points",
    "kgram_hashes",
    "normalize_text",
    "winnow",
    "word_hashes",
]

DEFAULT_K = defaults.DEDUP_K
DEFAULT_W = defaults.DEDUP_W


# ----------------------------------------------------------------------------- winnowing


def _sliding_min(values: np.ndarray, width: int) -> np.ndarray:
    """Minimum of every run of ``width`` consecutive values (len - width + 1 of them)."""
    span = 1
    result = values
    while 2 * span <= width:
        result = np.minimum(result[:-span], result[span:])
        span *= 2
    if span < width:
        result = np.minimum(result[: result.size - (width - span)], result[width - span :])
    return result


def _sliding_max(values: np.ndarray, width: int) -> np.ndarray:
    span = 1
    result = values
    while 2 * span <= width:
        result = np.maximum(result[:-span], result[span:])
        span *= 2
    if span < width:
        result = np.maximum(result[: result.size - (width - span)], result[width - span :])
    return result


def _winnow_positions(hashes: np.ndarray, w: int) -> np.ndarray:
    """Positions selected by winnowing, in increasing order.

    The selected positions never decrease from one window to the next, so "record
    once" means every selected position appears once.  A position is a candidate if it
    holds the minimum of some window containing it (sliding minimum m of the windows,
    then sliding maximum of m over the windows containing each position).  A candidate
    is selected unless every window where it is the minimum also holds a later copy of
    its value (rightmost wins ties); only candidates with a copy of their value less
    than W positions later need that check.
    """
    n = hashes.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if n <= w:
        return np.array([n - 1 - int(np.argmin(hashes[::-1]))], dtype=np.int64)
    window_min = _sliding_min(hashes, w)
    padded = np.zeros(window_min.size + 2 * (w - 1), dtype=np.uint64)
    padded[w - 1 : w - 1 + window_min.size] = window_min
    # Largest window minimum over the windows containing each position; padding
    # zeros never exceed a real window minimum.
    best_window_min = _sliding_max(padded, w)
    candidates = np.flatnonzero(hashes == best_window_min)
    values = hashes[candidates]
    order = np.argsort(values, kind="stable")  # equal values stay in position order
    earlier, later = order[:-1], order[1:]
    tied = (values[later] == values[earlier]) & (candidates[later] - candidates[earlier] < w)
    if not tied.any():
        return candidates
    tied_candidates = earlier[tied]
    positions = candidates[tied_candidates]
    next_copies = candidates[later[tied]]
    # First window containing each tied position whose minimum is the position's value:
    # windows lo..hi contain the position; it is the minimum of at least one of them.
    lo = np.maximum(positions - (w - 1), 0)
    hi = np.minimum(positions, n - w)
    windows = np.minimum(lo[:, None] + np.arange(w), hi[:, None])
    first_window = lo + np.argmax(window_min[windows] == hashes[positions][:, None], axis=1)
    keep = np.ones(candidates.size, dtype=bool)
    # Rightmost wins: dropped if every such window also holds the next copy.
    keep[tied_candidates[first_window + (w - 1) >= next_copies]] = False
    return candidates[keep]


def winnow(hashes: Sequence[int] | np.ndarray, w: int) -> list[tuple[int, int]]:
    """Winnowing selection over a hash list: ``[(position, hash), ...]`` by position.

    Each window of ``w`` consecutive hashes selects its minimum, the rightmost one on
    ties; a selection is recorded once, not again while it stays the minimum of the
    following windows.  Fewer than ``w`` hashes form a single window.  Hashes must be
    integers in [0, 2**64).
    """
    if w < 1:
        raise ValueError("w must be >= 1")
    array = np.asarray(hashes, dtype=np.uint64)
    positions = _winnow_positions(array, w)
    return list(zip(positions.tolist(), array[positions].tolist(), strict=True))


def _sorted_distinct(values: np.ndarray) -> np.ndarray:
    """np.unique without its overhead (several times faster on small arrays)."""
    values = np.sort(values)
    if values.size < 2:
        return values
    first = np.ones(values.size, dtype=bool)
    first[1:] = values[1:] != values[:-1]
    return values[first]


# ----------------------------------------------------------------------------- fingerprint


@dataclass(frozen=True)
class WinnowingFingerprint:
    """Winnowing configuration: K-gram length ``k``, window ``w``, K-gram hash.

    ``hash_name`` is one of ``HASH_NAMES``; see the module docstring for speed.
    """

    k: int = DEFAULT_K
    w: int = DEFAULT_W
    hash_name: str = defaults.DEDUP_HASH

    def __post_init__(self) -> None:
        if self.k < 1 or self.w < 1:
            raise ValueError("k and w must be >= 1")
        if self.hash_name not in HASH_NAMES:
            raise ValueError(f"hash_name must be one of {HASH_NAMES}, got {self.hash_name!r}")

    def hashes(self, text: str) -> np.ndarray:
        """All K-gram hashes of the normalised text (uint64 array, one per position)."""
        return _kgram_hashes(_normalized_code_points(text), self.k, self.hash_name)

    def select(self, text: str) -> list[tuple[int, int]]:
        """Selected ``(position, hash)`` pairs; positions index the normalised text."""
        return winnow(self.hashes(text), self.w)

    def minutiae_array(self, text: str) -> np.ndarray:
        """Minutiae as a sorted array of distinct uint64 (the fast form for indexing)."""
        hashes = self.hashes(text)
        return _sorted_distinct(hashes[_winnow_positions(hashes, self.w)])

    def analyse(self, text: str) -> tuple[str, np.ndarray, np.ndarray]:
        """(``normalize_text(text)``, :meth:`minutiae_array`, :func:`word_hashes`) of a
        text, normalising it once and, with the Karp-Rabin hash, sharing the prefix sums
        of the K-gram hashes with the word hashes."""
        folded = folded_code_points(text)
        code_points = folded[folded != 0]
        prefix = _karp_rabin_prefix(code_points)
        if code_points.size == 0:
            hashes = np.zeros(0, dtype=np.uint64)
        elif self.hash_name == "karp_rabin":
            hashes = _karp_rabin_hashes(code_points, self.k, prefix)
        else:
            hashes = _kgram_hashes(code_points, self.k, self.hash_name)
        minutiae = _sorted_distinct(hashes[_winnow_positions(hashes, self.w)])
        starts, ends = _word_spans(folded)
        words = _word_hashes(prefix, starts, ends)
        return _code_points_to_text(code_points), minutiae, words

    def normalized_minutiae_array(self, normalized: str) -> np.ndarray:
        """:meth:`minutiae_array` of a text already normalised by :func:`normalize_text`
        (saves normalising twice when the exact digest is computed too)."""
        hashes = kgram_hashes(normalized, self.k, self.hash_name)
        return _sorted_distinct(hashes[_winnow_positions(hashes, self.w)])

    def minutiae(self, text: str) -> frozenset[int]:
        """The fingerprint: the set of selected 64-bit hashes."""
        return frozenset(self.minutiae_array(text).tolist())

    def fingerprint(self, text: str) -> frozenset[int]:
        """Alias of :meth:`minutiae`."""
        return self.minutiae(text)
