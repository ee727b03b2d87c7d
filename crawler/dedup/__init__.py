"""Content-seen test: winnowing fingerprints and a near-duplicate index (no Scrapy).

``exact_digest`` catches exact duplicates (up to white space, case and punctuation);
``WinnowingFingerprint.minutiae`` plus ``NearDuplicateIndex`` catch near duplicates.
"""

from crawler.dedup.near_duplicates import Match, NearDuplicateIndex, as_minutiae_array, jaccard
from crawler.dedup.winnowing import (
    DEFAULT_K,
    DEFAULT_W,
    HASH_NAMES,
    WinnowingFingerprint,
    exact_digest,
    kgram_hashes,
    normalize_text,
    winnow,
)

__all__ = [
    "DEFAULT_K",
    "DEFAULT_W",
    "HASH_NAMES",
    "Match",
    "NearDuplicateIndex",
    "WinnowingFingerprint",
    "as_minutiae_array",
    "exact_digest",
    "jaccard",
    "kgram_hashes",
    "normalize_text",
    "winnow",
]
