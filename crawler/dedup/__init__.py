"""Content-seen test: winnowing fingerprints and a near-duplicate index (no Scrapy).

``exact_digest`` catches exact duplicates (up to white space, case and punctuation);
``WinnowingFingerprint.minutiae`` plus ``NearDuplicateIndex`` catch near duplicates;
``word_hashes`` plus ``word_alignment`` decide the candidates just below the Jaccard
threshold (second stage); ``ContentSeenTest`` combines them for a crawl
(``crawler.dedup.store`` persists it in PostgreSQL). See docs/dedup.md.
"""

from crawler.dedup.alignment import word_alignment, word_hashes
from crawler.dedup.content_seen import (
    ContentSeenTest,
    Duplicate,
    PageFingerprint,
    StoredFingerprint,
)
from crawler.dedup.near_duplicates import (
    Match,
    NearDuplicateIndex,
    as_minutiae_array,
    best_match,
    jaccard,
)
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
    "ContentSeenTest",
    "Duplicate",
    "Match",
    "NearDuplicateIndex",
    "PageFingerprint",
    "StoredFingerprint",
    "WinnowingFingerprint",
    "as_minutiae_array",
    "best_match",
    "exact_digest",
    "jaccard",
    "kgram_hashes",
    "normalize_text",
    "winnow",
    "word_alignment",
    "word_hashes",
]
