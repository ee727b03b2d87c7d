"""The revisit schedule (the survey's CollUrls), change history and removals in PostgreSQL.

Tables of migration 11 (crawler/storage/schema.py): ``revisit_schedule`` (one row per
collected page), ``page_changes`` (one row per visit), ``collection_removals``.
Several agents share a crawl: a due row is claimed with ``FOR UPDATE SKIP LOCKED`` and
leased (``claimed_until``), so no two agents revisit the same page at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urljoin

import numpy as np
import psycopg

from crawler.incremental.change import TextDigests, text_digests
from crawler.incremental.estimators import RateGrid
from crawler.incremental.policy import HostPlan, PlannedPage, RevisitPlanner
from crawler.search.outbox import DELETE, enqueue_index_operations


def pack(loglik: np.ndarray) -> bytes:
    return np.asarray(loglik, dtype="<f8").tobytes()


def unpack(data: bytes | None, grid: RateGrid) -> np.ndarray:
    if not data:
        return grid.empty()
    value = np.frombuffer(data, dtype="<f8").copy()
    return value if value.size == grid.size else grid.empty()


@dataclass
class Claimed:
    """A due page leased to this agent, with what its revisit needs."""

    url: str
    host: str
    importance: float
    etag: str | None
    last_modified: datetime | None
    digests: TextDigests
    last_fetched_at: datetime
    loglik: bytes | None
    size: int | None
    visits: int = 0

    @property
    def observations(self) -> int:
        """Times the page was seen before this revisit (its first fetch counts one)."""
        return self.visits + 1


# A Last-Modified value shared by this many pages of a host is its creation or
# deployment stamp, not a change (changes rarely hit several pages at the same second):
# RateGrid.first_fetch(created=True).
CREATION_STAMP_PAGES = 3

IMPORTANCE_SQL = {
    # PageRank after `scrapy pagerank`
    "pagerank": "SELECT url, score FROM pagerank WHERE crawl_id = %s",
    # OPIC cash of the crawl's frontier rows
    "opic": """SELECT f.url, f.cash FROM frontier f JOIN frontier_crawls c ON c.key = f.crawl
               WHERE c.crawl_id = %s""",
}

_CLAIM_SQL = """
WITH due AS MATERIALIZED (
    SELECT url FROM revisit_schedule
    WHERE crawl_id = %(crawl)s AND state = 'active' AND next_due <= %(due_by)s
      AND (claimed_until IS NULL OR claimed_until < %(now)s)
    ORDER BY next_due LIMIT %(limit)s FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE revisit_schedule s SET claimed_until = %(until)s
    FROM due WHERE s.crawl_id = %(crawl)s AND s.url = due.url
    RETURNING s.url, s.host, s.importance, s.etag, s.last_modified, s.digest, s.core_digest,
              s.last_fetched_at, s.loglik, s.size, s.visits, s.next_due
)
SELECT url, host, importance, etag, last_modified, digest, core_digest, last_fetched_at,
       loglik, size, visits FROM claimed ORDER BY next_due, url
"""

_INSERT_CHANGE_SQL = """
INSERT INTO page_changes (crawl_id, url, fetched_at, status, outcome, changed, digest,
                          interval_seconds, last_modified, bytes)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
"""


class RevisitStore:
    """Reads and writes one crawl's schedule through a psycopg AsyncConnection."""

    def __init__(self, crawl_id: str, grid: RateGrid) -> None:
        self.crawl_id = crawl_id
        self.grid = grid

    async def importance_source(self, conn: psycopg.AsyncConnection) -> str:
        """``pagerank`` when `scrapy pagerank` ran for the crawl, else ``opic`` when its
        frontier holds cash, else ``depth`` (1 / (1 + depth))."""
        for source, sql in IMPORTANCE_SQL.items():
            cur = await conn.execute(f"SELECT EXISTS ({sql})", (self.crawl_id,))
            if (await cur.fetchone())[0]:
                return source
        return "depth"

    async def bootstrap(self, conn: psycopg.AsyncConnection, source: str, batch: int = 2000) -> int:
        """Put the crawl's stored pages not yet scheduled into the schedule (due at
        once); their Last-Modified age is the first evidence of their rate. Read and
        written in batches (server-side cursor). Returns how many were added."""
        importance = {
            "pagerank": "(SELECT score FROM pagerank r WHERE r.crawl_id = p.crawl_id"
            " AND r.url = p.url)",
            "opic": "(SELECT f.cash FROM frontier f JOIN frontier_crawls c ON c.key = f.crawl"
            " WHERE c.crawl_id = p.crawl_id AND f.url = p.url LIMIT 1)",
        }.get(source, "1.0 / (1 + p.depth)")
        # Last-Modified values many pages of a host share: its creation stamp, not changes
        cur = await conn.execute(
            """SELECT host, last_modified FROM pages
               WHERE crawl_id = %s AND status = 200 AND last_modified IS NOT NULL
               GROUP BY host, last_modified HAVING count(*) >= %s""",
            (self.crawl_id, CREATION_STAMP_PAGES),
        )
        stamps = {(host, modified) for host, modified in await cur.fetchall()}
        added = 0
        async with conn.transaction(), conn.cursor(name="revisit_bootstrap") as rows:
            await rows.execute(
                f"""SELECT p.url, p.host, p.fetched_at, p.last_modified, p.etag, p.title,
                           p.text, p.size, coalesce({importance}, 0)
                    FROM pages p LEFT JOIN revisit_schedule s
                      ON s.crawl_id = p.crawl_id AND s.url = p.url
                    WHERE p.crawl_id = %s AND p.status = 200 AND p.removed_at IS NULL
                      AND s.url IS NULL""",
                (self.crawl_id,),
            )
            while chunk := await rows.fetchmany(batch):
                values = []
                for url, host, fetched, modified, etag, title, text, size, weight in chunk:
                    loglik = self.grid.first_fetch(
                        None if modified is None else (fetched - modified).total_seconds(),
                        created=(host, modified) in stamps,
                    )
                    digests = text_digests(title, text)
                    values.append(
                        (
                            self.crawl_id,
                            url,
                            host,
                            float(weight),
                            fetched,
                            etag,
                            modified,
                            digests.digest,
                            digests.core_digest,
                            size,
                            fetched,
                            pack(loglik),
                        )
                    )
                async with conn.cursor() as cur:
                    await cur.executemany(
                        """INSERT INTO revisit_schedule (crawl_id, url, host, importance,
                               next_due, etag, last_modified, digest, core_digest, size,
                               last_fetched_at, loglik)
                           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                           ON CONFLICT (crawl_id, url) DO NOTHING""",
                        values,
                    )
                added += len(values)
        return added

    async def host_roots(self, conn: psycopg.AsyncConnection) -> list[str]:
        """``scheme://host/`` of every host with active pages."""
        cur = await conn.execute(
            """SELECT DISTINCT ON (host) url FROM revisit_schedule
               WHERE crawl_id = %s AND state = 'active' ORDER BY host, url""",
            (self.crawl_id,),
        )
        return [urljoin(row[0], "/") for row in await cur.fetchall()]

    async def plan(
        self,
        conn: psycopg.AsyncConnection,
        planner: RevisitPlanner,
        budget: float,
    ) -> dict[str, HostPlan]:
        """Re-plan every active page, host by host; returns the hosts' plans."""
        cur = await conn.execute(
            """SELECT url, host, importance, loglik, last_fetched_at, visits
               FROM revisit_schedule
               WHERE crawl_id = %s AND state = 'active' ORDER BY host, url""",
            (self.crawl_id,),
        )
        by_host: dict[str, list[tuple[Any, ...]]] = {}
        for row in await cur.fetchall():
            by_host.setdefault(row[1], []).append(row)
        plans: dict[str, HostPlan] = {}
        updates = []
        for host, rows in by_host.items():
            logliks = [unpack(r[3], self.grid) for r in rows]
            planned, plans[host] = planner.plan(
                logliks,
                [r[2] for r in rows],
                budget,
                observations=[r[5] + 1 for r in rows],
                urls=[r[0] for r in rows],
            )
            for row, page in zip(rows, planned, strict=True):
                updates.append(self._plan_values(row[0], row[4], page))
        async with conn.cursor() as cur:
            await cur.executemany(
                """UPDATE revisit_schedule SET rate = %s, rate_low = %s, rate_high = %s,
                       interval_seconds = %s,
                       -- a page a sitemap or feed said changed keeps its turn (mark_changed)
                       next_due = CASE WHEN next_due < now() - interval '300 days'
                                       THEN next_due ELSE %s END
                   WHERE crawl_id = %s AND url = %s""",
                [(*u[1:], self.crawl_id, u[0]) for u in updates],
            )
        return plans

    @staticmethod
    def _plan_values(url: str, fetched: datetime, page: PlannedPage) -> tuple[Any, ...]:
        return (
            url,
            page.rate.rate,
            page.rate.low,
            page.rate.high,
            page.interval,
            fetched + timedelta(seconds=page.interval),
        )

    async def claim_due(
        self,
        conn: psycopg.AsyncConnection,
        now: datetime,
        limit: int,
        lease: float,
        early: bool = False,
    ) -> list[Claimed]:
        """Claim up to ``limit`` due pages, most overdue first; ``early``: the pages due
        soonest even if not due yet (the budget would otherwise stay idle)."""
        cur = await conn.execute(
            _CLAIM_SQL,
            {
                "crawl": self.crawl_id,
                "now": now,
                "until": now + timedelta(seconds=lease),
                "limit": limit,
                "due_by": now + timedelta(days=36500) if early else now,
            },
        )
        return [
            Claimed(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                TextDigests(r[5] or "", r[6] or ""),
                r[7],
                r[8],
                r[9],
                r[10],
            )
            for r in await cur.fetchall()
        ]

    async def mark_changed(
        self,
        conn: psycopg.AsyncConnection,
        signals: list[tuple[str, datetime]],
        now: datetime,
        oldest_first: bool = False,
        confirmed_at: datetime | None = None,
    ) -> int:
        """Pages a sitemap or feed says changed after the crawler's copy (its
        Last-Modified, or its fetch time without one) become due before every blind
        revisit (a year overdue): for freshness the slowest-changing first (a refreshed
        slow page stays fresh longest), for age (``oldest_first``) the longest stale
        first. A claimed page is left alone. Returns how many were marked.

        ``confirmed_at`` (a reliable sitemap, as of that time): a page it lists as not
        changed since the crawler's copy counts as checked then, as a 304 would, and its
        blind revisit waits its planned interval from then."""
        if not signals:
            return 0
        values = {
            "crawl": self.crawl_id,
            "now": now,
            "urls": [u for u, _ in signals],
            "modified": [m for _, m in signals],
            "confirmed": confirmed_at,
        }
        if confirmed_at is not None:
            await conn.execute(
                """UPDATE revisit_schedule s
                   SET next_due = greatest(s.next_due, %(confirmed)s
                                           + s.interval_seconds * interval '1 second')
                   FROM (SELECT unnest(%(urls)s::text[]) AS url,
                                unnest(%(modified)s::timestamptz[]) AS modified) v
                   WHERE s.crawl_id = %(crawl)s AND s.url = v.url AND s.state = 'active'
                     AND v.modified <= coalesce(s.last_modified, s.last_fetched_at)
                     AND s.interval_seconds IS NOT NULL
                     AND (s.claimed_until IS NULL OR s.claimed_until < %(now)s)
                     AND s.next_due > %(now)s - interval '300 days'""",
                values,
            )
        order = (
            "v.modified"
            if oldest_first
            else "%(now)s - least(1 / greatest(coalesce(s.rate, 0), 1e-6), 86400)"
            " * interval '1 second'"
        )
        cur = await conn.execute(
            f"""UPDATE revisit_schedule s
                SET next_due = {order} - interval '365 days'
                FROM (SELECT unnest(%(urls)s::text[]) AS url,
                             unnest(%(modified)s::timestamptz[]) AS modified) v
                WHERE s.crawl_id = %(crawl)s AND s.url = v.url AND s.state = 'active'
                  AND v.modified > coalesce(s.last_modified, s.last_fetched_at)
                  AND v.modified > s.last_fetched_at - interval '1 second'
                  AND (s.claimed_until IS NULL OR s.claimed_until < %(now)s)
                  AND s.next_due > %(now)s - interval '300 days'""",
            values,
        )
        return cur.rowcount

    async def next_due(self, conn: psycopg.AsyncConnection) -> datetime | None:
        cur = await conn.execute(
            """SELECT min(greatest(next_due, coalesce(claimed_until, next_due)))
               FROM revisit_schedule WHERE crawl_id = %s AND state = 'active'""",
            (self.crawl_id,),
        )
        return (await cur.fetchone())[0]

    async def record_visit(
        self,
        conn: psycopg.AsyncConnection,
        claimed: Claimed,
        *,
        fetched_at: datetime,
        status: int,
        outcome: str,
        changed: bool,
        loglik: np.ndarray,
        page: PlannedPage,
        digests: TextDigests | None = None,
        etag: str | None = None,
        last_modified: datetime | None = None,
        size: int | None = None,
        body_bytes: int = 0,
    ) -> None:
        """Write a visit's outcome: the schedule row (estimate, next due, validators) and
        its change-history row, in one transaction."""
        interval = (fetched_at - claimed.last_fetched_at).total_seconds()
        digests = digests or claimed.digests
        async with conn.transaction():
            await conn.execute(
                """UPDATE revisit_schedule SET
                       rate = %s, rate_low = %s, rate_high = %s, interval_seconds = %s,
                       next_due = %s, claimed_until = NULL, loglik = %s,
                       etag = coalesce(%s, etag), last_modified = coalesce(%s, last_modified),
                       digest = %s, core_digest = %s, size = coalesce(%s, size),
                       last_fetched_at = %s, visits = visits + 1,
                       changes = changes + %s::int, not_modified = not_modified + %s::int,
                       last_changed_at = CASE WHEN %s THEN %s ELSE last_changed_at END
                   WHERE crawl_id = %s AND url = %s""",
                (
                    page.rate.rate,
                    page.rate.low,
                    page.rate.high,
                    page.interval,
                    fetched_at + timedelta(seconds=page.interval),
                    pack(loglik),
                    etag,
                    last_modified,
                    digests.digest,
                    digests.core_digest,
                    size,
                    fetched_at,
                    changed,
                    outcome == "not_modified",
                    changed,
                    fetched_at,
                    self.crawl_id,
                    claimed.url,
                ),
            )
            await conn.execute(
                _INSERT_CHANGE_SQL,
                (
                    self.crawl_id,
                    claimed.url,
                    fetched_at,
                    status,
                    outcome,
                    changed,
                    digests.digest,
                    interval,
                    last_modified,
                    body_bytes,
                ),
            )

    async def record_failure(
        self,
        conn: psycopg.AsyncConnection,
        claimed: Claimed,
        fetched_at: datetime,
        status: int,
        retry_in: float,
    ) -> None:
        """A revisit that failed (timeout, 5xx, ...): history row, due again later."""
        async with conn.transaction():
            await conn.execute(
                """UPDATE revisit_schedule SET claimed_until = NULL, next_due = %s
                   WHERE crawl_id = %s AND url = %s""",
                (fetched_at + timedelta(seconds=retry_in), self.crawl_id, claimed.url),
            )
            await conn.execute(
                _INSERT_CHANGE_SQL,
                (
                    self.crawl_id,
                    claimed.url,
                    fetched_at,
                    status,
                    "error",
                    False,
                    claimed.digests.digest,
                    None,
                    None,
                    0,
                ),
            )

    async def remove(
        self,
        conn: psycopg.AsyncConnection,
        url: str,
        *,
        reason: str,
        at: datetime,
        status: int | None = None,
        replaced_by: str | None = None,
    ) -> None:
        """Take a page out of the collection: ``removed`` (404/410 on revisit) or
        ``evicted`` (refinement); its page row is marked, its near-duplicate
        fingerprint dropped, its search document deleted (through the search outbox), the
        removal recorded."""
        state = "evicted" if reason == "refinement" else "removed"
        async with conn.transaction():
            cur = await conn.execute(
                """UPDATE revisit_schedule SET state = %s, claimed_until = NULL
                   WHERE crawl_id = %s AND url = %s RETURNING importance""",
                (state, self.crawl_id, url),
            )
            row = await cur.fetchone()
            await conn.execute(
                "UPDATE pages SET removed_at = %s WHERE crawl_id = %s AND url = %s",
                (at, self.crawl_id, url),
            )
            await conn.execute(
                "DELETE FROM page_fingerprints WHERE crawl_id = %s AND url = %s",
                (self.crawl_id, url),
            )
            await conn.execute(
                """INSERT INTO collection_removals (crawl_id, url, removed_at, reason,
                       importance, replaced_by) VALUES (%s, %s, %s, %s, %s, %s)""",
                (self.crawl_id, url, at, reason, row[0] if row else None, replaced_by),
            )
            if status is not None:
                await conn.execute(
                    _INSERT_CHANGE_SQL,
                    (self.crawl_id, url, at, status, "removed", True, None, None, None, 0),
                )
            # the search indexer takes its document out (last: it locks the outbox)
            await enqueue_index_operations(conn, self.crawl_id, [url], DELETE)

    async def collection(
        self, conn: psycopg.AsyncConnection
    ) -> tuple[int, tuple[str, float] | None]:
        """(number of active pages, the least important one) of the collection."""
        cur = await conn.execute(
            """SELECT count(*) FROM revisit_schedule
               WHERE crawl_id = %s AND state = 'active'""",
            (self.crawl_id,),
        )
        size = (await cur.fetchone())[0]
        cur = await conn.execute(
            """SELECT url, importance FROM revisit_schedule
               WHERE crawl_id = %s AND state = 'active'
               ORDER BY importance, url LIMIT 1""",
            (self.crawl_id,),
        )
        least = await cur.fetchone()
        return int(size), (least[0], float(least[1])) if least else None

    async def max_importance(self, conn: psycopg.AsyncConnection) -> float:
        cur = await conn.execute(
            """SELECT coalesce(max(importance), 0) FROM revisit_schedule
               WHERE crawl_id = %s AND state = 'active'""",
            (self.crawl_id,),
        )
        return float((await cur.fetchone())[0])

    async def importance_of(self, conn: psycopg.AsyncConnection, url: str) -> float | None:
        cur = await conn.execute(
            "SELECT importance FROM revisit_schedule WHERE crawl_id = %s AND url = %s",
            (self.crawl_id, url),
        )
        row = await cur.fetchone()
        return float(row[0]) if row else None

    async def admit(
        self,
        conn: psycopg.AsyncConnection,
        *,
        url: str,
        host: str,
        importance: float,
        fetched_at: datetime,
        etag: str | None,
        last_modified: datetime | None,
        digests: TextDigests,
        size: int,
        page: PlannedPage,
        loglik: np.ndarray,
    ) -> None:
        """A newly found page enters the collection (or a removed one comes back)."""
        async with conn.transaction():
            await conn.execute(
                """INSERT INTO revisit_schedule (crawl_id, url, host, importance, rate,
                       rate_low, rate_high, interval_seconds, next_due, etag, last_modified,
                       digest, core_digest, size, last_fetched_at, loglik)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                   ON CONFLICT (crawl_id, url) DO UPDATE SET state = 'active',
                       importance = EXCLUDED.importance, next_due = EXCLUDED.next_due,
                       etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified,
                       digest = EXCLUDED.digest, core_digest = EXCLUDED.core_digest,
                       last_fetched_at = EXCLUDED.last_fetched_at""",
                (
                    self.crawl_id,
                    url,
                    host,
                    importance,
                    page.rate.rate,
                    page.rate.low,
                    page.rate.high,
                    page.interval,
                    fetched_at + timedelta(seconds=page.interval),
                    etag,
                    last_modified,
                    digests.digest,
                    digests.core_digest,
                    size,
                    fetched_at,
                    pack(loglik),
                ),
            )
            await conn.execute(
                _INSERT_CHANGE_SQL,
                (
                    self.crawl_id,
                    url,
                    fetched_at,
                    200,
                    "new",
                    False,
                    digests.digest,
                    None,
                    last_modified,
                    size,
                ),
            )
