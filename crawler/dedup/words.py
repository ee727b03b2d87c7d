"""16-bit hashes of a text's normalised words, in order: what the second stage of the
content-seen test aligns (``crawler.dedup.alignment``; no Scrapy).

A word is a maximal run of the characters ``normalize_text`` keeps; its hash is the low
16 bits of its Karp-Rabin hash, computed from the same prefix sums as the K-gram hashes.
"""

from __future__ import annotations

import numpy as np

from crawler.dedup.karp_rabin import _fmix64_in_place, _karp_rabin_prefix
from crawler.dedup.normalize import folded_code_points

__all__ = ["WORD_HASH_DTYPE", "word_hashes"]

WORD_HASH_DTYPE = np.uint16


def _word_spans(folded: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the words -- maximal runs of non-zero code points of a
    :func:`folded_code_points` array -- as positions in the normalised text."""
    kept = folded != 0
    edges = np.flatnonzero(np.diff(kept.view(np.int8), prepend=0, append=0))
    lengths = edges[1::2] - edges[0::2]
    ends = np.cumsum(lengths)
    return ends - lengths, ends


def _word_hashes(
    prefix: tuple[np.ndarray, np.ndarray], starts: np.ndarray, ends: np.ndarray
) -> np.ndarray:
    """Low 16 bits of the Karp-Rabin hash of each word span (equal words, equal hashes:
    the hash of a span does not depend on where it is)."""
    if starts.size == 0:
        return np.zeros(0, dtype=WORD_HASH_DTYPE)
    sums, powers = prefix
    word_sums = np.subtract(sums[ends], sums[starts])
    np.multiply(word_sums, powers[ends - 1], out=word_sums)
    return _fmix64_in_place(word_sums).astype(WORD_HASH_DTYPE)


def word_hashes(text: str) -> np.ndarray:
    """16-bit hashes of the normalised words of ``text``, in order (uint16 array).

    A word is a maximal run of the characters :func:`normalize_text` keeps (after NFKC
    and case folding): ``"Don't  STOP!"`` has the words ``don``, ``t``, ``stop``; their
    concatenation is ``normalize_text(text)``.  A word's hash is the low 16 bits of its
    Karp-Rabin hash (the K-gram hash with K = its length).
    """
    folded = folded_code_points(text)
    code_points = folded[folded != 0]
    starts, ends = _word_spans(folded)
    return _word_hashes(_karp_rabin_prefix(code_points), starts, ends)
