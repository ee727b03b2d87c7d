"""The revisit schedule in the real PostgreSQL: claims by several agents never overlap."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import psycopg

from crawler.incremental.estimators import RateGrid
from crawler.incremental.store import RevisitStore
from crawler.storage.schema import migrate


def _crawl_with_schedule(database_url: str, due: int, later: int) -> str:
    crawl = f"store-{uuid.uuid4().hex[:8]}"
    now = datetime.now(UTC)
    with psycopg.connect(database_url, autocommit=True) as conn:
        migrate(conn)
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl,))
        for i in range(due + later):
            conn.execute(
                "INSERT INTO revisit_schedule (crawl_id, url, host, next_due, last_fetched_at)"
                " VALUES (%s, %s, 'a.test', %s, %s)",
                (
                    crawl,
                    f"http://a.test/{i:02d}",
                    now - timedelta(seconds=60 - i) if i < due else now + timedelta(hours=1),
                    now - timedelta(minutes=5),
                ),
            )
    return crawl


def test_claims_of_two_agents_are_disjoint_and_only_due(database_url: str) -> None:
    crawl = _crawl_with_schedule(database_url, due=10, later=5)
    store = RevisitStore(crawl, RateGrid())

    async def run() -> tuple[list[str], list[str], list[str]]:
        a = await psycopg.AsyncConnection.connect(database_url)
        b = await psycopg.AsyncConnection.connect(database_url, autocommit=True)
        now = datetime.now(UTC)
        # agent A holds its claim's rows locked (transaction open) while B claims
        first = sorted(c.url for c in await store.claim_due(a, now, 4, 300))
        second = sorted(c.url for c in await store.claim_due(b, now, 100, 300))
        await a.commit()
        third = [c.url for c in await store.claim_due(b, now, 100, 300)]
        await a.close()
        await b.close()
        return first, second, third

    first, second, third = asyncio.run(run())
    assert first == [f"http://a.test/{i:02d}" for i in range(4)]  # earliest due first
    assert second == [f"http://a.test/{i:02d}" for i in range(4, 10)]
    assert third == []  # leased by A and B; the later pages are not due


def test_early_claim_takes_the_pages_due_soonest(database_url: str) -> None:
    """When nothing is due, the budget is not left idle: an early claim takes the pages
    due soonest (issue 26), still never a leased one."""
    crawl = _crawl_with_schedule(database_url, due=2, later=3)
    store = RevisitStore(crawl, RateGrid())

    async def run() -> tuple[list[str], list[str], list[str]]:
        conn = await psycopg.AsyncConnection.connect(database_url, autocommit=True)
        now = datetime.now(UTC)
        due = [c.url for c in await store.claim_due(conn, now, 10, 300)]
        none_due = [c.url for c in await store.claim_due(conn, now, 10, 300)]
        early = [c.url for c in await store.claim_due(conn, now, 2, 300, early=True)]
        await conn.close()
        return due, none_due, early

    due, none_due, early = asyncio.run(run())
    assert due == ["http://a.test/00", "http://a.test/01"]
    assert none_due == []
    assert sorted(early) == ["http://a.test/02", "http://a.test/03"]


def test_signalled_changes_go_first_slowest_first(database_url: str) -> None:
    """A sitemap says pages changed: those changed after the crawler's copy become due
    before any blind revisit, the slowest-changing first; the others are untouched."""
    crawl = _crawl_with_schedule(database_url, due=3, later=3)
    now = datetime.now(UTC)
    with psycopg.connect(database_url, autocommit=True) as conn:
        for i, rate in ((3, 1e-3), (4, 1e-1), (0, 1e-3)):  # 03 changes slowly, 04 fast
            conn.execute(
                "UPDATE revisit_schedule SET rate = %s, interval_seconds = 600"
                " WHERE crawl_id = %s AND url = %s",
                (rate, crawl, f"http://a.test/{i:02d}"),
            )
    store = RevisitStore(crawl, RateGrid())
    signals = [
        (f"http://a.test/{i:02d}", now - timedelta(minutes=m))
        for i, m in ((3, 1), (4, 1), (5, 10), (0, 10))  # 05, 00 changed before the fetch
    ]

    async def run() -> tuple[int, list[str]]:
        conn = await psycopg.AsyncConnection.connect(database_url, autocommit=True)
        marked = await store.mark_changed(conn, signals, now)
        # again, from a sitemap found reliable: 00 counts as checked now, waits 600 s
        again = await store.mark_changed(conn, signals, now, confirmed_at=now)
        claimed = [c.url for c in await store.claim_due(conn, now, 3, 300)]
        await conn.close()
        return marked + 10 * again, claimed

    marked, claimed = asyncio.run(run())
    assert marked == 2
    assert claimed == ["http://a.test/03", "http://a.test/04", "http://a.test/01"]
