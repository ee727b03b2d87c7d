"""robots.txt verdicts of a crawl in PostgreSQL (table ``robots_verdicts``).

One row per origin: the last verdict (parsed, unavailable, unreachable, dead) with its
wall-clock lifetime. A crawler process asks the table before it fetches an origin's
robots.txt, so a resumed crawl or another agent of the same crawl does not ask a host
again while a verdict lives; a host-wide dead verdict answers for every origin of its
host name. asyncio only (psycopg's async pool), no Scrapy. Times are passed in as
``time.time()`` values; converting them to and from the caller's monotonic clock is the
caller's business.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from psycopg_pool import AsyncConnectionPool

from crawler.politeness.robots import DEAD_HOST, RobotsRules

logger = logging.getLogger(__name__)

_UPSERT_SQL = """
INSERT INTO robots_verdicts (crawl_id, origin, host, state, status, reason,
    refusal_category, dead_scope, stale, body, fetched_at, expires_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (crawl_id, origin) DO UPDATE SET
    host = EXCLUDED.host, state = EXCLUDED.state, status = EXCLUDED.status,
    reason = EXCLUDED.reason, refusal_category = EXCLUDED.refusal_category,
    dead_scope = EXCLUDED.dead_scope, stale = EXCLUDED.stale, body = EXCLUDED.body,
    fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at
"""

# The origin's own verdict first, then a host-wide dead verdict of its host name.
_LOOKUP_SQL = """
SELECT origin, state, status, reason, refusal_category, dead_scope, stale, body,
       fetched_at, expires_at
FROM robots_verdicts
WHERE crawl_id = %(crawl_id)s AND expires_at > now()
  AND (origin = %(origin)s OR (host = %(host)s AND dead_scope = %(dead_host)s))
ORDER BY origin = %(origin)s DESC, expires_at DESC
LIMIT 1
"""


@dataclass(frozen=True)
class StoredVerdict:
    """A verdict row: the rules' fields with wall-clock times."""

    origin: str
    state: str
    status: int | None
    reason: str
    refusal_category: str
    dead_scope: str
    stale: bool
    body: bytes
    fetched_at: float  # time.time()
    expires_at: float


class RobotsVerdictStore:
    """Reads and writes one crawl's ``robots_verdicts`` rows through an async pool."""

    def __init__(self, pool: AsyncConnectionPool, crawl_id: str) -> None:
        self.pool = pool
        self.crawl_id = crawl_id

    async def lookup(self, origin: str, host: str) -> StoredVerdict | None:
        """The live verdict for ``origin`` (or a host-wide dead verdict of ``host``)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(_LOOKUP_SQL, {
                "crawl_id": self.crawl_id, "origin": origin, "host": host,
                "dead_host": DEAD_HOST,
            })
            row = await cursor.fetchone()
        if row is None:
            return None
        return StoredVerdict(
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], bytes(row[7]),
            row[8].timestamp(), row[9].timestamp(),
        )

    async def has_rows(self) -> bool:
        """Whether the crawl has any verdict row (live or not)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT EXISTS (SELECT 1 FROM robots_verdicts WHERE crawl_id = %s)",
                (self.crawl_id,),
            )
            row = await cursor.fetchone()
        return bool(row and row[0])

    async def save(self, rules: RobotsRules, fetched_at: float, expires_at: float) -> None:
        """Store ``rules`` with wall-clock ``fetched_at``/``expires_at``."""
        async with self.pool.connection() as conn:
            await conn.execute(_UPSERT_SQL, (
                self.crawl_id, rules.origin, rules.host, rules.state, rules.status,
                rules.reason, rules.refusal_category, rules.dead_scope, rules.stale,
                rules.body, _timestamp(fetched_at), _timestamp(expires_at),
            ))


def _timestamp(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)
