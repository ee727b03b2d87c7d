"""The frontier on PostgreSQL: SQL scores, evictions in `uncrawled`, resume, the crawl lock."""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from crawler.frontier import postgres_store
from crawler.frontier.buffer import Entry
from crawler.frontier.postgres_store import FrontierLocked, PostgresStore
from crawler.frontier.scores import STRATEGIES, UrlStats, make_strategy
from crawler.frontier.seen import url_fingerprint
from crawler.frontier.store import NewRow, WriteBatch
from tests.frontier.graphs import always_ready, drain, host, make_frontier
from tests.frontier.test_frontier import FakeClock, add


def rows(db_url: str, crawl_id: str) -> dict[str, tuple]:
    with psycopg.connect(db_url) as conn:
        return {r[0]: r[1:] for r in conn.execute(
            "SELECT f.url, f.state, f.score, f.backlinks FROM frontier f"
            " JOIN frontier_crawls k ON k.key = f.crawl WHERE k.crawl_id = %s", (crawl_id,),
        )}


def uncrawled(db_url: str, crawl_id: str) -> dict[str, tuple[str, str]]:
    with psycopg.connect(db_url) as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute(
            "SELECT url, category, detail FROM uncrawled WHERE crawl_id = %s", (crawl_id,)
        )}


def random_stats(rng: random.Random) -> UrlStats:
    return UrlStats(rng.randint(0, 9), rng.randint(0, 50), rng.random() * 2, rng.random() * 20,
                    rng.random(), rng.random() * 3)


@pytest.mark.parametrize("name", STRATEGIES)
def test_sql_scores_equal_python_scores_after_link_events(name, migrated, crawl_row):
    strategy = make_strategy(name, {"opic": 0.7, "interintra": 0.4})
    rng = random.Random(name)
    entries = [
        Entry(i + 1, f"http://h.test/{i}", "h.test", 0, i, False, random_stats(rng), 0.0)
        for i in range(50)
    ]
    deltas = {e.fp: random_stats(rng) for e in entries[::2]}
    crawl_id = crawl_row()

    async def run():
        store = PostgresStore(migrated, crawl_id)
        await store.open(strategy)
        for e in entries:
            e.score, e.payload = strategy.score(e.stats), b"x"
        await store.write(WriteBatch(new=[NewRow.of(e) for e in entries]))
        result = await store.write(WriteBatch(deltas=deltas))
        await store.close(True, 0.0, 50)
        return result

    assert asyncio.run(run()).rescored == 25
    stored = rows(migrated, crawl_id)
    for e in entries:
        expected = e.stats.copy()
        if e.fp in deltas:
            expected.absorb(deltas[e.fp])
        assert stored[e.url][1] == pytest.approx(strategy.score(expected), rel=1e-9, abs=1e-12)


def test_evictions_are_recorded_in_uncrawled(migrated, crawl_row):
    clock = FakeClock()
    crawl_id = crawl_row()

    async def run():
        frontier = make_frontier("backlink", PostgresStore(migrated, crawl_id), max_wait=60,
                                 max_size=4, buffer_size=2, buffer_per_host=2, now=clock)
        await frontier.open()
        for i, backlinks in enumerate((5, 1, 4, 2, 3, 6)):
            add(frontier, f"http://h.test/{i}", backlinks)
        await frontier.flush()  # 6 queued > 4: the two lowest (1 and 2 backlinks) go
        size_evicted = uncrawled(migrated, crawl_id)
        clock.t += 61
        add(frontier, "http://h.test/late")
        await frontier.flush()  # the 4 left have waited 61 s
        await frontier.close()
        return size_evicted, frontier

    size_evicted, frontier = asyncio.run(run())
    assert {u: c for u, (c, _) in size_evicted.items()} == {
        "http://h.test/1": "evicted", "http://h.test/3": "evicted"}
    assert all("FRONTIER_MAX_SIZE (4)" in d for _, d in size_evicted.values())
    evicted = uncrawled(migrated, crawl_id)
    assert set(evicted) == {f"http://h.test/{i}" for i in range(6)}
    assert {d for _, d in evicted.values()} == {
        "frontier over FRONTIER_MAX_SIZE (4)", "waited longer than FRONTIER_MAX_WAIT (60 s)"}
    states = rows(migrated, crawl_id)
    assert {u: s[0] for u, s in states.items()} == {
        **{f"http://h.test/{i}": 3 for i in range(6)}, "http://h.test/late": 0}
    assert (frontier.counters.evicted_size, frontier.counters.evicted_age) == (2, 4)


def test_resume_after_an_unclean_stop(migrated, crawl_row):
    crawl_id = crawl_row()
    urls = [f"http://h.test/{i}" for i in range(8)]

    async def first_run():
        frontier = make_frontier("bfs", PostgresStore(migrated, crawl_id), buffer_size=3)
        await frontier.open()
        for url in urls:
            add(frontier, url)
        popped = [frontier.pop(always_ready) for _ in range(3)]
        for entry in popped[:2]:
            frontier.done(entry)
        await frontier.flush()
        # killed here: the connection goes away without close(), the lock with it
        await frontier.store.conn.close()
        return [e.url for e in popped]

    popped = asyncio.run(first_run())
    with psycopg.connect(migrated, autocommit=True) as conn:  # only popped[0] was saved
        conn.execute(
            "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth,"
            " content_md5, size) VALUES (%s, %s, %s, 'h.test', 200, now(), 0, '', 0)",
            (crawl_id, popped[0], popped[0]),
        )

    async def second_run():
        frontier = make_frontier("bfs", PostgresStore(migrated, crawl_id), buffer_size=3)
        state = await frontier.open()
        order = await drain(frontier)
        await frontier.close()
        return state, order

    state, order = asyncio.run(second_run())
    # leased: popped[2] (in flight); unsaved: popped[1]
    assert (state.requeued_leases, state.requeued_unsaved) == (1, 1)
    assert len(state.fingerprints) == 8
    assert order == urls[1:]  # FIFO order kept: nothing lost, popped[0] not fetched again


def test_an_unclean_resume_refetches_saved_pages_but_not_saved_failures(
    migrated, crawl_row
):
    # The item pipeline and the frontier write separately: a kill can save a page while
    # the frontier's lease, its ack or even its row is lost. The page's links are written
    # with its ack, so a saved page whose ack was lost is fetched again; a saved failure
    # (no links) is done.
    crawl_id = crawl_row()
    urls = [f"http://h.test/{i}" for i in range(8)]
    unwritten = "http://h.test/unwritten"

    async def first_run():
        frontier = make_frontier("bfs", PostgresStore(migrated, crawl_id), buffer_size=3)
        await frontier.open()
        for url in urls:
            add(frontier, url)
        popped = [frontier.pop(always_ready) for _ in range(3)]
        frontier.done(popped[0])
        await frontier.flush()
        add(frontier, unwritten)  # killed before this row is written
        await frontier.store.conn.close()
        return [e.url for e in popped]

    popped = asyncio.run(first_run())
    assert popped == urls[:3]
    with psycopg.connect(migrated, autocommit=True) as conn:
        # saved: the acked one, one still leased, one queued (lease lost), the unwritten
        # one; urls[6] only has a weak refusal, which is not a fetch
        for url in (urls[0], urls[2], urls[5], unwritten):
            conn.execute(
                "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at,"
                " depth, content_md5, size) VALUES (%s, %s, %s, 'h.test', 200, now(), 0,"
                " '', 0)",
                (crawl_id, url, url),
            )
        conn.execute("INSERT INTO uncrawled (crawl_id, url, category) VALUES"
                     " (%s, %s, 'depth_exceeded'), (%s, %s, 'http_404')",
                     (crawl_id, urls[6], crawl_id, urls[7]))

    async def second_run():
        frontier = make_frontier("bfs", PostgresStore(migrated, crawl_id), buffer_size=3)
        state = await frontier.open()
        again = add(frontier, unwritten)
        order = await drain(frontier)
        await frontier.close()
        return state, order, again

    state, order, again = asyncio.run(second_run())
    assert state.finished_leases == 1  # urls[7]: queued, its failure saved
    assert state.requeued_leases == 2  # urls[1] (nothing saved), urls[2] (page saved)
    assert len(state.fingerprints) == 8  # not the unwritten URL's
    assert again is True  # the unwritten URL, found again, is queued again
    assert order == [urls[1], urls[2], urls[3], urls[4], urls[5], urls[6], unwritten]
    assert rows(migrated, crawl_id)[urls[7]][0] == postgres_store.DONE


def test_one_process_at_a_time_per_crawl(migrated, crawl_row):
    crawl_id = crawl_row()

    async def run():
        first = make_frontier("bfs", PostgresStore(migrated, crawl_id))
        await first.open()
        with pytest.raises(FrontierLocked):
            await make_frontier("bfs", PostgresStore(migrated, crawl_id)).open()
        await first.close()
        again = make_frontier("bfs", PostgresStore(migrated, crawl_id))
        await again.open()
        await again.close()

    asyncio.run(run())


def test_a_new_strategy_rescores_the_queue_and_seen_urls_reload(
    migrated, crawl_row, monkeypatch
):
    monkeypatch.setattr(postgres_store._FingerprintReader, "chunk", 140)  # many chunks
    crawl_id = crawl_row()
    urls = [f"http://h{i % 7}.test/{i}" for i in range(400)]

    async def run():
        frontier = make_frontier("backlink", PostgresStore(migrated, crawl_id), buffer_size=10)
        await frontier.open()
        for i, url in enumerate(urls):
            add(frontier, url, backlinks=i % 13)
        await frontier.close()
        again = make_frontier("bfs", PostgresStore(migrated, crawl_id), buffer_size=10)
        state = await again.open()
        seen = all(url_fingerprint(u) in again.seen for u in urls)
        await again.close()
        return state, seen

    state, seen = asyncio.run(run())
    assert state.rescored == 400 and seen and len(state.fingerprints) == 400
    assert {s[1] for s in rows(migrated, crawl_id).values()} == {-0.0}  # bfs: -depth
    assert host(urls[0]) == "h0.test"


def test_deleting_a_crawl_deletes_its_frontier(migrated, crawl_row):
    crawl_id = crawl_row()

    async def run():
        frontier = make_frontier("bfs", PostgresStore(migrated, crawl_id))
        await frontier.open()
        add(frontier, "http://h.test/")
        await frontier.close()

    asyncio.run(run())
    assert len(rows(migrated, crawl_id)) == 1
    with psycopg.connect(migrated, autocommit=True) as conn:
        conn.execute("DELETE FROM crawls WHERE id = %s", (crawl_id,))
        left = conn.execute(
            "SELECT count(*) FROM frontier_crawls WHERE crawl_id = %s", (crawl_id,)
        ).fetchone()
    assert left == (0,) and rows(migrated, crawl_id) == {}


def test_only_the_rows_of_a_crawl_agents_share_are_marked_shared(migrated, crawl_row):
    """frontier_queued_host covers shared rows only: a one-process run writes unmarked rows
    (no index cost), the first agent to open the crawl marks them all, agents write marked
    rows, and a one-process resume makes the next agent mark its rows again."""
    crawl_id = crawl_row()
    strategy = make_strategy("backlink")

    def entry(i: int) -> NewRow:
        e = Entry(url_fingerprint(f"http://h{i}.test/"), f"http://h{i}.test/", f"h{i}.test", 0,
                  i, False, UrlStats(1, 1, 0.0, 0.0, 0.0, 0.0), 0.0)
        e.score, e.payload = strategy.score(e.stats), b"x"
        return NewRow.of(e)

    def marks() -> tuple[dict[str, bool], bool]:
        with psycopg.connect(migrated) as conn:
            shared = dict(conn.execute(
                "SELECT f.url, f.shared FROM frontier f JOIN frontier_crawls k"
                " ON k.key = f.crawl WHERE k.crawl_id = %s", (crawl_id,)).fetchall())
            crawl = conn.execute("SELECT shared FROM frontier_crawls WHERE crawl_id = %s",
                                 (crawl_id,)).fetchone()
        return shared, crawl[0]

    async def write(agent_id: str | None, i: int, clean: bool = True) -> None:
        store = PostgresStore(migrated, crawl_id, agent_id=agent_id)
        await store.open(strategy)
        await store.write(WriteBatch(new=[entry(i)], clock=float(i), seq=i))
        await store.close(clean, float(i), i)

    asyncio.run(write(None, 0))
    assert marks() == ({"http://h0.test/": False}, False)
    asyncio.run(write("agent-a", 1))
    assert marks() == ({"http://h0.test/": True, "http://h1.test/": True}, True)
    asyncio.run(write(None, 2))
    assert marks() == (
        {"http://h0.test/": True, "http://h1.test/": True, "http://h2.test/": False}, False
    )
    asyncio.run(write("agent-b", 3))
    assert marks() == ({f"http://h{i}.test/": True for i in range(4)}, True)


def test_planner_statistics_are_refreshed_from_the_first_thousand_rows(migrated, crawl_row):
    # with the statistics of an empty table, PostgreSQL planned the link-event UPDATE and
    # the age eviction as nested loops over every queued row: seconds per flush
    crawl_id = crawl_row()

    def analyze_count() -> int:
        with psycopg.connect(migrated) as conn:
            row = conn.execute(
                "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'frontier'"
            ).fetchone()
            return int(row[0]) if row else 0

    async def run(before: int) -> int:
        frontier = make_frontier("backlink", PostgresStore(migrated, crawl_id), max_wait=0)
        await frontier.open()
        for i in range(1_200):
            add(frontier, f"http://stats.test/{i}")
        await frontier.flush()
        deadline = asyncio.get_running_loop().time() + 10
        count = analyze_count()
        while count == before and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.2)  # the server publishes its counters within a second
            count = analyze_count()
        await frontier.close()
        return count

    before = analyze_count()
    assert asyncio.run(run(before)) == before + 1
