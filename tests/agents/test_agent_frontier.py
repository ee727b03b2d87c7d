"""The frontier's agent paths on the real database: concurrent writers never deadlock,
FRONTIER_MAX_WAIT across agents, and what agents refuse (FRONTIER_MAX_SIZE, the smart
and incremental spiders)."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
import pytest

from crawler.agents.membership import AgentMembership
from crawler.frontier.buffer import EVICTED, QUEUED
from crawler.frontier.frontier import Frontier
from crawler.frontier.postgres_store import PostgresStore
from crawler.frontier.scores import UrlStats, make_strategy
from crawler.frontier.store import NewRow, WriteBatch

STRATEGY = make_strategy("bestfirst", {})


def _row(fp: int, host: str, queued_at: float = 0.0) -> NewRow:
    return NewRow(fp, f"http://{host}/{fp}", host, QUEUED, 0, 0.0, fp, True,
                  UrlStats(1, 1, 0.5, 0.1, 0, 0), queued_at, None, None, b"x")


def test_two_agents_writing_the_same_rows_in_opposite_orders_do_not_deadlock(migrated):
    """Agent a merges links into rows 1-60 and sends link events for rows 61-120; agent b
    the other way round, at the same time (asyncio interleaves their statements). Locked
    statement by statement, a's merge and b's merge each held half the rows and waited
    for the other half: PostgreSQL's "deadlock detected". Each write now locks its rows
    first, in fingerprint order."""
    crawl_id = f"dl-{uuid.uuid4().hex[:8]}"
    low, high = list(range(1, 61)), list(range(61, 121))

    async def run() -> tuple[int, list[tuple[int, int]]]:
        a = PostgresStore(migrated, crawl_id, agent_id="a")
        b = PostgresStore(migrated, crawl_id, agent_id="b")
        await a.open(STRATEGY)
        await b.open(STRATEGY)
        await a.write(WriteBatch(new=[_row(fp, f"h{fp % 7}.test") for fp in low + high]))
        for _ in range(10):
            batch_a = WriteBatch(new=[_row(fp, f"h{fp % 7}.test") for fp in low],
                                 deltas={fp: UrlStats(1, 1, 0.5, 0.1, 0, 0) for fp in high})
            batch_b = WriteBatch(new=[_row(fp, f"h{fp % 7}.test") for fp in reversed(high)],
                                 deltas={fp: UrlStats(1, 1, 0.5, 0.1, 0, 0)
                                         for fp in reversed(low)})
            await asyncio.gather(a.write(batch_a), b.write(batch_b))
        deadlocks = a.deadlocks + b.deadlocks
        await a.close(True, 0.0, 0)
        await b.close(True, 0.0, 0)
        with psycopg.connect(migrated) as conn:
            rows = conn.execute(
                "SELECT f.fp, f.backlinks FROM frontier f JOIN frontier_crawls c"
                " ON c.key = f.crawl WHERE c.crawl_id = %s ORDER BY f.fp", (crawl_id,)
            ).fetchall()
        return deadlocks, rows

    deadlocks, rows = asyncio.run(run())
    assert deadlocks == 0
    # every row: 1 backlink when written, then 10 merges and 10 link events of 1 each
    assert rows == [(fp, 21) for fp in range(1, 121)]


def test_max_wait_compares_the_times_of_agents_that_joined_at_different_times(migrated):
    """An agent joining a running crawl starts from the crawl clock the others record at
    their heartbeats: rows the first agent queued are as old for it as for their writer."""
    crawl_id = f"wait-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(migrated, autocommit=True) as conn:  # (uncrawled refers to it)
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))

    async def run() -> tuple[float, dict[int, int], list[str]]:
        a = PostgresStore(migrated, crawl_id, agent_id="a")
        await a.open(STRATEGY)
        # a has crawled for 100 s: rows queued at 10 s and at 90 s of its clock
        await a.write(WriteBatch(new=[_row(1, "old.test", 10.0), _row(2, "new.test", 90.0)]))
        member = AgentMembership(migrated, crawl_id, a.key, "a", ttl=30.0, margin=1.0)
        await member.join()
        await member.heartbeat(clock=100.0)
        b = PostgresStore(migrated, crawl_id, agent_id="b")
        frontier = Frontier(b, STRATEGY, serialize=lambda r, u: b"x", max_wait=50.0,
                            shared=True)
        state = await frontier.open()
        await frontier.flush()  # b's max-wait rule: queued before 100 - 50 s: evicted
        await frontier.close()
        await member.leave("finished")
        await a.close(True, 0.0, 0)
        with psycopg.connect(migrated) as conn:
            states = dict(conn.execute(
                "SELECT f.fp, f.state FROM frontier f JOIN frontier_crawls c"
                " ON c.key = f.crawl WHERE c.crawl_id = %s", (crawl_id,)).fetchall())
            evicted = [u for (u,) in conn.execute(
                "SELECT url FROM uncrawled WHERE crawl_id = %s AND category = 'evicted'",
                (crawl_id,))]
        return state.clock, states, evicted

    clock, states, evicted = asyncio.run(run())
    assert 100.0 <= clock < 130.0
    assert states == {1: EVICTED, 2: QUEUED}
    assert evicted == ["http://old.test/1"]


# --- refusals, as real `scrapy crawl` processes ---------------------------------------------


def assert_refused(result, says: str) -> None:
    """Exit status 2, one ``error:`` line saying ``says``, no traceback."""
    assert result.returncode == 2, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and says in errors[0], errors
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("spider", "args", "settings", "says"),
    [
        ("general", {"seed_urls": "http://a.test/"}, {"FRONTIER_MAX_SIZE": 100},
         "FRONTIER_MAX_SIZE cannot be used with AGENTS_ENABLED"),
        ("smart", {"topic": "python", "seed_urls": "http://a.test/"}, {},
         "spider 'smart' cannot run with AGENTS_ENABLED"),
        ("incremental", {}, {}, "spider 'incremental' cannot run with AGENTS_ENABLED"),
    ],
)
def test_what_agents_cannot_run_is_refused_with_one_error_line(
    migrated, run_crawl, spider, args, settings, says
):
    crawl_id = f"refuse-{uuid.uuid4().hex[:8]}"
    result = run_crawl(spider=spider, proxy=None, args={"crawl_id": crawl_id, **args},
                       settings={"AGENTS_ENABLED": True, **settings}, timeout=120)
    assert_refused(result, says)
    with psycopg.connect(migrated) as conn:
        assert conn.execute("SELECT count(*) FROM agents WHERE crawl_id = %s",
                            (crawl_id,)).fetchone() == (0,)
