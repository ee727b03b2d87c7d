"""Fingerprints of a crawl's pages in PostgreSQL (table ``page_fingerprints``).

The paper keeps the fingerprint set "in a separate table": one row per admitted page,
keyed by (crawl id, URL), with the MD5 of the normalised text, the winnowing minutiae
and their MinHash signature.  Rows are buffered and written in batches (one statement
per batch, array parameters), never one round trip per page; at the start of a crawl
:meth:`FingerprintStore.load` rebuilds a :class:`ContentSeenTest` from them, so a
resumed crawl still recognises the pages it admitted before.  The second stage's word
hashes are not stored here: :meth:`FingerprintStore.fetch_words` re-derives them from
the candidates' ``pages`` rows when they are not in memory.

Column formats: ``minutiae`` is the sorted distinct uint64 minutiae, little-endian,
8 bytes each; ``signature`` the MinHash values (``num_perm`` uint32, little-endian);
``scheme`` the winnowing configuration (``winnow:k=8:w=30:karp_rabin``): rows of
another scheme are only used for the exact test (their minutiae are not comparable).

asyncio only (psycopg's async pool), no Scrapy.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import numpy as np
import psycopg
from psycopg_pool import AsyncConnectionPool

from crawler import defaults
from crawler.dedup.alignment import word_hashes
from crawler.dedup.content_seen import (
    ContentSeenTest,
    PageFingerprint,
    StoredFingerprint,
    fingerprint_text,
)

__all__ = ["FingerprintRow", "FingerprintStore"]

logger = logging.getLogger(__name__)

_INSERT_SQL = """
INSERT INTO page_fingerprints (crawl_id, scheme, url, exact_digest, minutiae, signature)
SELECT %s, %s, u.* FROM unnest(%b::text[], %b::text[], %b::bytea[], %b::bytea[]) AS u
ON CONFLICT (crawl_id, url) DO UPDATE SET
    scheme = EXCLUDED.scheme, exact_digest = EXCLUDED.exact_digest,
    minutiae = EXCLUDED.minutiae, signature = EXCLUDED.signature,
    fingerprinted_at = now()
"""

# In the order they were first written: the first page with a digest is its original.
_LOAD_SQL = """
SELECT url, exact_digest,
       CASE WHEN %(with_minutiae)s AND scheme = %(scheme)s THEN minutiae END,
       CASE WHEN scheme = %(scheme)s THEN signature END
FROM page_fingerprints WHERE crawl_id = %(crawl_id)s
ORDER BY seq
"""

# The titles of the admitted pages (the same-host rule, DEDUP_SAME_HOST_TITLES_DIFFER):
# the stored pages' own, read once at a restart.
_TITLES_LOAD_SQL = """
SELECT url, title FROM pages WHERE crawl_id = %s AND title <> ''
"""

# The minutiae a lookup needs (lookup mode: when they are not kept in memory).
_MINUTIAE_SQL = """
SELECT url, minutiae FROM page_fingerprints
WHERE crawl_id = %s AND url = ANY(%b::text[]) AND scheme = %s
"""


# The texts the second stage aligns, when their word hashes are not in memory (pages
# loaded at a restart, or lookup mode): the stored page itself, as the spider extracted
# it (title, text and main content: fingerprint_text picks what the test fingerprints;
# the words, whatever separates them, are the fingerprinted ones).
_PAGE_TEXT_SQL = """
SELECT url, title, text, main_text FROM pages WHERE crawl_id = %s AND url = ANY(%b::text[])
"""


@dataclass(frozen=True)
class FingerprintRow:
    url: str
    fingerprint: PageFingerprint


class FingerprintStore:
    """Batched writer and loader of one crawl's ``page_fingerprints`` rows.

    ``add`` buffers a row; ``flush`` writes the buffer in one statement (retried up to
    ``attempts`` times on connection errors, then dropped with an error in the log: the
    fingerprints only make the duplicate test stronger after a restart).  Rows stay
    readable through :meth:`fetch_minutiae` while they wait.
    """

    def __init__(
        self,
        pool: AsyncConnectionPool,
        crawl_id: str,
        scheme: str,
        *,
        content: str = defaults.DEDUP_CONTENT,
        batch_size: int = defaults.STORE_BATCH_SIZE,
        attempts: int = defaults.STORE_WRITE_ATTEMPTS,
    ) -> None:
        self.pool = pool
        self.crawl_id = crawl_id
        self.scheme = scheme
        self.content = content
        self.batch_size = max(1, batch_size)
        self.attempts = max(1, attempts)
        self.pending: dict[str, PageFingerprint] = {}
        self._writing: dict[str, PageFingerprint] = {}
        self._lock = asyncio.Lock()
        self.written = 0
        self.lost = 0

    # ------------------------------------------------------------------ loading

    async def load(self, test: ContentSeenTest, chunk_rows: int = 5000) -> tuple[int, int]:
        """Admit every stored fingerprint of the crawl into ``test`` (minutiae fetched
        only if ``test`` keeps them in memory).  Returns ``test.load``'s counts."""
        indexed = exact_only = 0
        batch: list[StoredFingerprint] = []
        async for row in self._stored_rows(test.keep_minutiae, chunk_rows):
            batch.append(row)
            if len(batch) >= chunk_rows:
                counts = test.load(batch)
                indexed, exact_only = indexed + counts[0], exact_only + counts[1]
                batch = []
                await asyncio.sleep(0)  # let the loop breathe between chunks
        counts = test.load(batch)
        if test.same_host_titles_differ:
            await self._load_titles(test, chunk_rows)
        return indexed + counts[0], exact_only + counts[1]

    async def _load_titles(self, test: ContentSeenTest, chunk_rows: int) -> int:
        """Titles of the loaded pages, from their ``pages`` rows (a page whose row was
        never stored has no title: the same-host rule does not apply to it)."""
        taken = 0
        async with self.pool.connection() as conn, conn.transaction():
            async with conn.cursor(name="page_titles_load") as cursor:
                cursor.itersize = chunk_rows
                await cursor.execute(_TITLES_LOAD_SQL, (self.crawl_id,))
                batch: list[tuple[str, str]] = []
                async for url, title in cursor:
                    batch.append((url, title))
                    if len(batch) >= chunk_rows:
                        taken += test.load_titles(batch)
                        batch = []
                        await asyncio.sleep(0)
                taken += test.load_titles(batch)
        return taken

    async def _stored_rows(
        self, with_minutiae: bool, chunk_rows: int
    ) -> AsyncIterator[StoredFingerprint]:
        params = {"with_minutiae": with_minutiae, "scheme": self.scheme, "crawl_id": self.crawl_id}
        async with self.pool.connection() as conn, conn.transaction():
            # a server-side cursor: the table of a big crawl never sits in memory at once
            async with conn.cursor(name="page_fingerprints_load") as cursor:
                cursor.itersize = chunk_rows
                await cursor.execute(_LOAD_SQL, params)
                async for url, digest, minutiae, signature in cursor:
                    yield StoredFingerprint(url, digest, minutiae, signature)

    async def fetch_minutiae(self, urls: list[str]) -> dict[str, np.ndarray]:
        """Minutiae of these URLs: waiting rows first, the rest in one query."""
        found: dict[str, np.ndarray] = {}
        missing = []
        for url in urls:
            waiting = self.pending.get(url) or self._writing.get(url)
            if waiting is not None:
                found[url] = waiting.minutiae
            else:
                missing.append(url)
        if missing:
            async with self.pool.connection() as conn:
                cursor = await conn.execute(_MINUTIAE_SQL, (self.crawl_id, missing, self.scheme))
                for url, minutiae in await cursor.fetchall():
                    found[url] = np.frombuffer(minutiae, dtype="<u8").astype(np.uint64)
        return found

    async def fetch_words(self, urls: list[str]) -> dict[str, np.ndarray]:
        """Word hashes of these admitted pages: from waiting rows, else re-derived from
        their ``pages`` row (one query).  A page whose row is not (yet) in ``pages`` is
        missing from the result: the second stage then skips it."""
        found: dict[str, np.ndarray] = {}
        missing = []
        for url in urls:
            waiting = self.pending.get(url) or self._writing.get(url)
            if waiting is not None and waiting.words.size:
                found[url] = waiting.words
            else:
                missing.append(url)
        if missing:
            async with self.pool.connection() as conn:
                cursor = await conn.execute(_PAGE_TEXT_SQL, (self.crawl_id, missing))
                for url, title, text, main_text in await cursor.fetchall():
                    found[url] = word_hashes(
                        fingerprint_text(title, text, main_text, self.content)
                    )
        return found

    # ------------------------------------------------------------------ writing

    def add(self, url: str, fingerprint: PageFingerprint) -> bool:
        """Buffer a row; True when the buffer holds a batch (time to :meth:`flush`)."""
        self.pending[url] = fingerprint
        return len(self.pending) >= self.batch_size

    async def remove(self, url: str) -> None:
        """Forget an admitted page's row (it became a duplicate of a more important copy,
        crawler/dedup/authority.py): buffered rows are written first, so none comes back."""
        self.pending.pop(url, None)
        await self.flush()
        async with self.pool.connection() as conn:
            await conn.execute(
                "DELETE FROM page_fingerprints WHERE crawl_id = %s AND url = %s",
                (self.crawl_id, url),
            )

    async def flush(self) -> None:
        async with self._lock:
            if not self.pending:
                return
            self._writing, self.pending = self.pending, {}
            try:
                await self._write_with_retries(self._writing)
            finally:
                self._writing = {}

    async def _write_with_retries(self, rows: dict[str, PageFingerprint]) -> None:
        for attempt in range(1, self.attempts + 1):
            try:
                await self._write(rows)
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                logger.warning(
                    "writing %d page fingerprints failed (attempt %d/%d): %s",
                    len(rows),
                    attempt,
                    self.attempts,
                    exc,
                )
                if attempt < self.attempts:
                    await asyncio.sleep(min(2.0**attempt, 10.0))
                continue
            except Exception:
                logger.exception("cannot write %d page fingerprints", len(rows))
                break
            self.written += len(rows)
            return
        self.lost += len(rows)
        logger.error(
            "%d page fingerprints of crawl %s were not stored: a resumed crawl will not "
            "recognise copies of these pages",
            len(rows),
            self.crawl_id,
        )

    async def _write(self, rows: dict[str, PageFingerprint]) -> None:
        urls = list(rows)
        values = [rows[url] for url in urls]
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(
                _INSERT_SQL,
                (
                    self.crawl_id,
                    self.scheme,
                    urls,
                    [v.digest for v in values],
                    [v.minutiae.astype("<u8", copy=False).tobytes() for v in values],
                    [v.signature.astype("<u4", copy=False).tobytes() for v in values],
                ),
            )
