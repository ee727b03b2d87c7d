"""The content-seen test of a crawl shared by its agents, in PostgreSQL (no Scrapy).

With several agents (processes, machines) a page fetched by agent A and its copy fetched
by agent B must give one stored page and one ``duplicate_content`` row, so the test
cannot live in one process's memory. Here each page is checked and, if new, admitted in
one transaction:

1. transaction-level advisory locks on the page's exact digest and on each of its LSH
   band keys (64-bit hashes of (crawl, key), taken in ascending order: no deadlock);
   two agents racing on the same or similar content share at least one key, so the
   second waits for the first to commit and then sees its rows;
2. exact test: the earliest ``page_fingerprints`` row of the crawl with the same digest;
3. near test: the pages sharing a band key (``dedup_bands``) are the candidates; their
   minutiae (``page_fingerprints``) are verified exactly as in memory (Jaccard of the
   minutiae, then the second stage's word alignment, with word hashes re-derived from
   the candidates' ``pages`` rows: a candidate whose page row is not stored yet is not
   aligned); a candidate of the page's host whose ``pages`` row has another title is
   another document (DEDUP_SAME_HOST_TITLES_DIFFER; no row yet: no title);
4. a new page gets its ``page_fingerprints`` row and its band rows; commit (the locks go).

The decisions are :class:`~crawler.dedup.content_seen.ContentSeenTest`'s own (its
thresholds, banding and scheme); only the storage differs. Band keys fold the band
number in: ``blake2b(band number, band's MinHash values)``, 8 bytes, signed.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from psycopg_pool import AsyncConnectionPool

from crawler.dedup.alignment import word_hashes
from crawler.dedup.content_seen import (
    ContentSeenTest,
    Duplicate,
    PageFingerprint,
    title_key,
    url_host,
)
from crawler.dedup.near_duplicates import sorted_jaccard

__all__ = ["SharedContentSeen", "band_keys"]

_LOCK_SQL = "SELECT pg_advisory_xact_lock(k) FROM unnest(%b::bigint[]) AS k"

_EXACT_SQL = """
SELECT url FROM page_fingerprints
WHERE crawl_id = %s AND exact_digest = %s AND url <> %s
ORDER BY seq LIMIT 1
"""

# Two queries rather than a join: the band keys first (index dedup_bands_key), then the
# candidates' minutiae by primary key; each plan stays an index lookup whatever the
# statistics of the young tables say.
_CANDIDATE_URLS_SQL = """
SELECT DISTINCT url FROM dedup_bands
WHERE crawl_id = %s AND key = ANY(%b::bigint[]) AND url <> %s
"""

_MINUTIAE_SQL = """
SELECT url, minutiae FROM page_fingerprints
WHERE crawl_id = %s AND url = ANY(%b::text[]) AND scheme = %s
"""

_PAGE_TEXT_SQL = """
SELECT url, title, text, main_text FROM pages WHERE crawl_id = %s AND url = ANY(%b::text[])
"""

_TITLES_SQL = """
SELECT url, title FROM pages WHERE crawl_id = %s AND url = ANY(%b::text[])
"""

_ADMIT_SQL = """
INSERT INTO page_fingerprints (crawl_id, scheme, url, exact_digest, minutiae, signature)
VALUES (%s, %s, %s, %s, %s, %s)
ON CONFLICT (crawl_id, url) DO UPDATE SET
    scheme = EXCLUDED.scheme, exact_digest = EXCLUDED.exact_digest,
    minutiae = EXCLUDED.minutiae, signature = EXCLUDED.signature, fingerprinted_at = now()
"""

_FORGET_BANDS_SQL = "DELETE FROM dedup_bands WHERE crawl_id = %s AND url = %s"

_BANDS_SQL = """
INSERT INTO dedup_bands (crawl_id, key, url) SELECT %s, k, %s FROM unnest(%b::bigint[]) AS k
"""


def _int64(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little", signed=True)


def band_keys(signature: np.ndarray, bands: int, rows: int) -> list[int]:
    """One signed 64-bit key per LSH band of a MinHash signature (band number folded in):
    two pages share a key exactly when they share that band's values."""
    values = np.ascontiguousarray(signature, dtype="<u4")
    return [
        _int64(band.to_bytes(2, "little") + values[band * rows:(band + 1) * rows].tobytes())
        for band in range(bands)
    ]


class SharedContentSeen:
    """Checks and admits pages of one crawl in PostgreSQL (module docstring).

    ``test`` supplies the fingerprints, banding and decisions; nothing is admitted into
    its memory.
    """

    def __init__(self, pool: AsyncConnectionPool, crawl_id: str, test: ContentSeenTest):
        self.pool = pool
        self.crawl_id = crawl_id
        self.test = test
        self.bands, self.rows = test.index.bands
        self._crawl_salt = _int64(b"crawl:" + crawl_id.encode("utf-8"))

    def lock_keys(self, fingerprint: PageFingerprint, keys: list[int]) -> list[int]:
        """The advisory locks of a page: its digest and its band keys, for this crawl,
        in ascending order."""
        digest = _int64(b"digest:" + bytes.fromhex(fingerprint.digest))
        return sorted({k ^ self._crawl_salt for k in (digest, *keys)})

    async def check(
        self, url: str, fingerprint: PageFingerprint, title: str | None = None
    ) -> Duplicate | None:
        """The page ``url`` (titled ``title``: the same-host rule) duplicates among the
        crawl's admitted pages (any agent's), or None after admitting it, in one
        transaction."""
        keys = band_keys(fingerprint.signature, self.bands, self.rows)
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(_LOCK_SQL, (self.lock_keys(fingerprint, keys),))
            duplicate = await self._find(conn, url, fingerprint, keys, title)
            if duplicate is None:
                await self._admit(conn, url, fingerprint, keys)
        return duplicate

    async def _find(
        self,
        conn: Any,
        url: str,
        fingerprint: PageFingerprint,
        keys: list[int],
        title: str | None = None,
    ) -> Duplicate | None:
        row = await (await conn.execute(
            _EXACT_SQL, (self.crawl_id, fingerprint.digest, url))).fetchone()
        if row is not None:
            return Duplicate(row[0], 1.0, exact=True)
        if fingerprint.minutiae.size == 0:
            return None
        cursor = await conn.execute(_CANDIDATE_URLS_SQL, (self.crawl_id, keys, url))
        candidates = [row[0] for row in await cursor.fetchall()]
        if candidates and self.test.same_host_titles_differ and title_key(title) is not None:
            # the same-host rule: candidates of the page's host that are other documents
            # (their titles from their `pages` rows; a row not stored yet: no title)
            host = url_host(url)
            same_host = [key for key in candidates if url_host(key) == host]
            if same_host:
                cursor = await conn.execute(_TITLES_SQL, (self.crawl_id, same_host))
                titles = dict(await cursor.fetchall())
                others = self.test.other_documents(url, title, same_host, titles)
                candidates = [key for key in candidates if key not in others]
        if not candidates:
            return None
        cursor = await conn.execute(_MINUTIAE_SQL, (self.crawl_id, candidates, self.test.scheme))
        similarities = {}
        for key, minutiae in await cursor.fetchall():
            array = np.frombuffer(minutiae, dtype="<u8").astype(np.uint64)
            similarity = sorted_jaccard(fingerprint.minutiae, array)
            if similarity >= self.test.candidate_threshold:
                similarities[key] = similarity
        words = None
        missing = self.test.words_needed(similarities, fingerprint)
        if missing:
            cursor = await conn.execute(_PAGE_TEXT_SQL, (self.crawl_id, missing))
            words = {
                key: word_hashes(self.test.page_text(title, text, main_text))
                for key, title, text, main_text in await cursor.fetchall()
            }
        return self.test.decide(fingerprint, similarities, words)

    async def _admit(
        self, conn: Any, url: str, fingerprint: PageFingerprint, keys: list[int]
    ) -> None:
        await conn.execute(_ADMIT_SQL, (
            self.crawl_id, self.test.scheme, url, fingerprint.digest,
            fingerprint.minutiae.astype("<u8", copy=False).tobytes(),
            fingerprint.signature.astype("<u4", copy=False).tobytes(),
        ))
        await conn.execute(_FORGET_BANDS_SQL, (self.crawl_id, url))  # a re-fetched page
        await conn.execute(_BANDS_SQL, (self.crawl_id, url, keys))
