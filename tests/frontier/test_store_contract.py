"""One contract, two stores: every test runs against the PostgreSQL store (the truth),
the same on its own thread (crawler/frontier/threaded_store.py, as the scheduler runs it)
and the in-memory one the algorithm tests use (tests/frontier/memory_store.py), so they
cannot drift apart: claims, link events, acks, evictions, and the resume cases (clean,
unclean after a crash with leased rows, results saved while the frontier's writes were
lost)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from crawler.frontier.buffer import DONE, EVICTED, LEASED, QUEUED
from crawler.frontier.postgres_store import PostgresStore
from crawler.frontier.scores import Strategy, UrlStats, make_strategy
from crawler.frontier.seen import url_fingerprint
from crawler.frontier.store import CLAIM_SCAN, FrontierStore, NewRow, WriteBatch
from crawler.frontier.threaded_store import ThreadedStore
from tests.frontier.memory_store import MemoryStore


class MemoryCrawl:
    """A crawl in the memory store: the store object is also its database."""

    def __init__(self) -> None:
        self.store = MemoryStore()

    def new_store(self, recheck_window: float = 600.0) -> FrontierStore:
        self.store.recheck_window = recheck_window
        return self.store

    async def kill(self, store: Any) -> None:
        """The process dies: nothing more is written, close() is never called."""

    def save_page(self, url: str) -> None:
        self.store.pages.add(url)

    def save_failure(self, url: str, category: str, detail: str = "") -> None:
        self.store.uncrawled[url] = (category, detail)

    def states(self) -> dict[str, int]:
        return {row.url: row.state for row in self.store.rows.values()}

    def uncrawled(self) -> dict[str, tuple[str, str]]:
        return dict(self.store.uncrawled)


class PostgresCrawl:
    """A crawl in the PostgreSQL store; the item pipeline's rows are written as SQL."""

    def __init__(self, database_url: str, crawl_id: str) -> None:
        self.url, self.crawl_id = database_url, crawl_id

    def new_store(self, recheck_window: float = 600.0) -> FrontierStore:
        return PostgresStore(self.url, self.crawl_id, recheck_window=recheck_window)

    async def kill(self, store: Any) -> None:
        backend = store.conn.info.backend_pid
        await store.conn.close()  # the session ends without close(): the lock with it
        self.wait_session_gone(backend)

    def wait_session_gone(self, backend: int) -> None:
        """The server ends a session a moment after its client closed it; a process that
        dies is gone by the time another one starts, but this test's next store is in the
        same (live) process, whose lock the crawl lock would rightly refuse to wait for."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            for _ in range(400):
                if not conn.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = %s", (backend,)
                ).fetchall():
                    return
                time.sleep(0.025)
        raise AssertionError(f"backend {backend} still there 10 s after its client closed")

    def _execute(self, query: str, params: tuple) -> list[tuple]:
        with psycopg.connect(self.url, autocommit=True) as conn:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else []

    def save_page(self, url: str) -> None:
        self._execute(
            "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth,"
            " content_md5, size) VALUES (%s, %s, %s, 'h.test', 200, now(), 0, '', 0)",
            (self.crawl_id, url, url),
        )

    def save_failure(self, url: str, category: str, detail: str = "") -> None:
        self._execute(  # as the storage pipeline writes it: the newest outcome wins
            "INSERT INTO uncrawled (crawl_id, url, category, detail) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (crawl_id, url) DO UPDATE SET category = EXCLUDED.category,"
            " detail = EXCLUDED.detail",
            (self.crawl_id, url, category, detail),
        )

    def states(self) -> dict[str, int]:
        return dict(
            self._execute(
                "SELECT f.url, f.state FROM frontier f JOIN frontier_crawls k ON k.key = f.crawl"
                " WHERE k.crawl_id = %s",
                (self.crawl_id,),
            )
        )

    def uncrawled(self) -> dict[str, tuple[str, str]]:
        rows = self._execute(
            "SELECT url, category, detail FROM uncrawled WHERE crawl_id = %s", (self.crawl_id,)
        )
        return {url: (category, detail or "") for url, category, detail in rows}


class ThreadedPostgresCrawl(PostgresCrawl):
    """The PostgreSQL store on its own thread, as the scheduler runs it."""

    def new_store(self, recheck_window: float = 600.0) -> FrontierStore:
        return ThreadedStore(super().new_store(recheck_window))

    async def kill(self, store: Any) -> None:
        backend = store.store.conn.info.backend_pid
        await store.run(store.store.conn.close())
        store._thread.stop()  # the process is gone, its threads with it
        self.wait_session_gone(backend)


Crawl = MemoryCrawl | PostgresCrawl


@pytest.fixture(params=["memory", "postgres", "threaded"])
def crawl(request) -> Crawl:
    if request.param == "memory":
        return MemoryCrawl()
    crawl_row = request.getfixturevalue("crawl_row")
    kind = PostgresCrawl if request.param == "postgres" else ThreadedPostgresCrawl
    return kind(request.getfixturevalue("migrated"), crawl_row())


def url(path: str, host: str = "h.test") -> str:
    return f"http://{host}/{path}"


def row(
    strategy: Strategy,
    address: str,
    backlinks: int,
    *,
    seq: int = 0,
    state: int = QUEUED,
    inter: bool = False,
    queued_at: float = 0.0,
    done_at: float | None = None,
    priority: int = 0,
) -> NewRow:
    """A row as the frontier writes it (scored by the strategy)."""
    stats = UrlStats(backlinks=backlinks, cash=1.0)
    host = address.split("/")[2]
    return NewRow(
        url_fingerprint(address),
        address,
        host,
        state,
        priority,
        strategy.score(stats),
        seq,
        inter,
        stats,
        queued_at,
        done_at,
        None,
        address.encode(),
    )


def run(coro_fn: Callable[[], Any]) -> Any:
    return asyncio.run(coro_fn())


BACKLINK = make_strategy("backlink")


def test_a_new_crawl_opens_empty_and_a_claim_serves_the_best_first_per_host(crawl):
    rows = [row(BACKLINK, url(f"a{i}", "a.test"), 10 + i, seq=i) for i in range(5)]
    rows += [row(BACKLINK, url(f"b{i}", "b.test"), 20 + i, seq=5 + i, inter=True) for i in range(3)]
    rows.append(row(BACKLINK, url("c0", "c.test"), 30, seq=9, priority=1))

    async def go():
        store = crawl.new_store()
        state = await store.open(BACKLINK)
        assert not state.resumed and len(state.fingerprints) == 0
        assert (state.queued_inter, state.queued_intra) == (0, 0)
        await store.write(WriteBatch(new=rows, clock=1.0, seq=9))
        first = await store.claim(4, 2, exclude_hosts=["c.test"])
        only_a = await store.claim(10, 1, exclude_hosts=[], hosts=["a.test"])
        lowest = await store.lowest_queued(2)
        await store.close(True, 1.0, 9)
        return first, only_a, lowest

    first, only_a, lowest = run(go)
    assert [r.url for r in first] == [
        url("b2", "b.test"),
        url("b1", "b.test"),
        url("a4", "a.test"),
        url("a3", "a.test"),
    ]
    assert first[0].stats.backlinks == 22 and first[0].inter and first[0].payload
    assert [r.url for r in only_a] == [url("a2", "a.test")]
    assert [(k.fp, k.score) for k in lowest] == [
        (url_fingerprint(url("a0", "a.test")), 10.0),
        (url_fingerprint(url("a1", "a.test")), 11.0),
    ]
    states = crawl.states()
    assert [states[url(f"a{i}", "a.test")] for i in range(5)] == [QUEUED] * 2 + [LEASED] * 3
    assert states[url("c0", "c.test")] == QUEUED


def test_a_claim_ranks_only_a_window_of_the_best_queued_rows(crawl):
    # the CLAIM_SCAN * limit best rows are all on one host: one row (per_host) is claimed,
    # although the next host's row is queued
    limit = 2
    crowded = [
        row(BACKLINK, url(f"a{i}", "a.test"), 100 - i, seq=i) for i in range(CLAIM_SCAN * limit)
    ]
    other = row(BACKLINK, url("b", "b.test"), 1, seq=99)

    async def go():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=[*crowded, other]))
        claimed = await store.claim(limit, 1, exclude_hosts=[])
        again = await store.claim(limit, 1, exclude_hosts=["a.test"])
        await store.close(True, 0.0, 0)
        return claimed, again

    claimed, again = run(go)
    assert [r.url for r in claimed] == [url("a0", "a.test")]
    assert [r.url for r in again] == [url("b", "b.test")]


def test_link_events_rescore_queued_and_leased_rows_only(crawl):
    queued, leased, done = (row(BACKLINK, url(p), 5 - i, seq=i) for i, p in enumerate("qld"))

    async def go():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=[queued, leased, done]))
        await store.claim(2, 2, exclude_hosts=[])  # q and l leased
        await store.write(WriteBatch(done={queued.fp: (1.0, None)}, released={leased.fp}))
        await store.claim(1, 1, exclude_hosts=[])  # l leased again
        event = UrlStats(depth=3, backlinks=1, cash=0.5, link_score=2.0)
        result = await store.write(
            WriteBatch(deltas={fp: event for fp in (queued.fp, leased.fp, done.fp, 12345)})
        )
        released = await store.write(WriteBatch(released={leased.fp}))
        claimed = await store.claim(5, 5, exclude_hosts=[])
        await store.close(True, 2.0, 3)
        return result, released, claimed

    result, released, claimed = run(go)
    assert result.rescored == 2  # l (leased) and d (queued); q is done, 12345 unknown
    assert released.rescored == 0
    assert [(r.url, r.score, r.stats.backlinks, r.stats.cash) for r in claimed] == [
        (url("l"), 5.0, 5, 1.5),
        (url("d"), 4.0, 4, 1.5),
    ]
    assert crawl.states()[url("q")] == DONE


def test_acks_releases_and_evictions_of_unknown_fingerprints_change_nothing(crawl):
    known = row(BACKLINK, url("known"), 1)

    async def go():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=[known]))
        await store.write(
            WriteBatch(
                done={111: (1.0, None)},
                released={222},
                evicted={333: (url("gone"), "FRONTIER_MAX_SIZE")},
                clock=1.0,
            )
        )
        assert await store.evict([444], "FRONTIER_MAX_SIZE", 1.0) == (0, 0)
        await store.close(True, 1.0, 0)

    run(go)
    assert crawl.states() == {url("known"): QUEUED}
    # the frontier's eviction of a URL is recorded, with or without its row
    assert crawl.uncrawled() == {url("gone"): ("evicted", "FRONTIER_MAX_SIZE")}


def test_age_eviction_takes_rows_queued_strictly_before_the_cutoff_lowest_first(crawl):
    rows = [
        row(BACKLINK, url(f"r{i}"), backlinks, seq=i, queued_at=at, inter=i == 1)
        for i, (backlinks, at) in enumerate(((3, 10.0), (1, 10.0), (2, 19.0), (0, 20.0), (5, 30.0)))
    ]

    async def go():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=rows))
        first = await store.write(
            WriteBatch(
                expire_before=20.0, expire_detail="FRONTIER_MAX_WAIT", expire_limit=2, clock=50.0
            )
        )
        states = crawl.states()
        second = await store.write(
            WriteBatch(
                expire_before=20.0, expire_detail="FRONTIER_MAX_WAIT", expire_limit=1, clock=51.0
            )
        )
        third = await store.write(
            WriteBatch(
                expire_before=20.0, expire_detail="FRONTIER_MAX_WAIT", expire_limit=5, clock=52.0
            )
        )
        await store.close(True, 52.0, 5)
        return first, states, second, third

    first, states, second, third = run(go)
    # r1 (1 backlink) and r2 (2) go first; r3 was queued at the cutoff itself: it stays
    assert (first.expired_inter, first.expired_intra, first.expired_more) == (1, 1, True)
    assert [states[url(f"r{i}")] for i in range(5)] == [QUEUED, EVICTED, EVICTED, QUEUED, QUEUED]
    # the limit reached exactly counts as "more may be waiting"
    assert (second.expired_inter, second.expired_intra, second.expired_more) == (0, 1, True)
    assert (third.expired_inter, third.expired_intra, third.expired_more) == (0, 0, False)
    assert crawl.uncrawled() == {url(f"r{i}"): ("evicted", "FRONTIER_MAX_WAIT") for i in range(3)}


def test_an_eviction_keeps_a_failure_already_recorded(crawl):
    failed, waited, capped = (
        row(BACKLINK, url(p), i, seq=i, queued_at=1.0)
        for i, p in enumerate(("failed", "waited", "capped"))
    )
    leased = row(BACKLINK, url("leased"), 9, seq=9, queued_at=1.0)

    async def go():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=[failed, waited, capped, leased]))
        assert [r.url for r in await store.claim(1, 1, exclude_hosts=[])] == [url("leased")]
        crawl.save_failure(url("failed"), "http_404", "404 Not Found")
        crawl.save_failure(url("capped"), "timeout", "")
        size = await store.evict([failed.fp, leased.fp], "FRONTIER_MAX_SIZE", 5.0)
        aged = await store.write(
            WriteBatch(expire_before=2.0, expire_detail="FRONTIER_MAX_WAIT", clock=6.0)
        )
        await store.write(WriteBatch(evicted={leased.fp: (url("leased"), "shed")}, clock=7.0))
        await store.close(True, 7.0, 9)
        return size, aged

    size, aged = run(go)
    assert size == (0, 1)  # the leased row is not evicted by the size cap
    assert (aged.expired_inter, aged.expired_intra) == (0, 2)
    assert set(crawl.states().values()) == {EVICTED}
    assert crawl.uncrawled() == {
        url("failed"): ("http_404", "404 Not Found"),
        url("capped"): ("timeout", ""),
        url("waited"): ("evicted", "FRONTIER_MAX_WAIT"),
        url("leased"): ("evicted", "shed"),
    }


def test_a_clean_resume_requeues_the_leases_and_checks_no_saved_result(crawl):
    rows = [row(BACKLINK, url(f"r{i}"), 10 - i, seq=i, inter=i % 2 == 0) for i in range(6)]

    async def first():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=rows, clock=3.0, seq=6))
        await store.claim(3, 3, exclude_hosts=[])  # r0..r2
        await store.write(WriteBatch(done={rows[0].fp: (3.0, None)}, clock=4.0, seq=6))
        await store.close(True, 4.5, 7)

    async def second():
        store = crawl.new_store()
        state = await store.open(BACKLINK)
        claimed = await store.claim(10, 10, exclude_hosts=[])
        await store.close(True, 5.0, 7)
        return state, claimed

    run(first)
    state, claimed = run(second)
    # r0's page was never saved: after a clean stop that is not checked
    assert state.resumed and (state.clock, state.seq) == (4.5, 7)
    assert (state.requeued_leases, state.finished_leases, state.requeued_unsaved) == (2, 0, 0)
    assert state.rescored == 0
    assert (state.queued_inter, state.queued_intra) == (2, 3)
    assert sorted(state.fingerprints.tolist()) == sorted(r.fp for r in rows)
    assert [r.url for r in claimed] == [url(f"r{i}") for i in range(1, 6)]


def test_an_unclean_resume_uses_the_saved_results(crawl):
    """Killed with leased rows, acks whose results were or were not saved, and results
    saved for URLs whose frontier row was never written."""
    names = (
        "acked",
        "acked_unsaved",
        "acked_long_ago",
        "acked_redirect",
        "leased_saved",
        "leased_failed",
        "leased",
        "queued_saved",
        "queued_refused",
        "queued",
    )
    rows = {name: row(BACKLINK, url(name), 20 - i, seq=i) for i, name in enumerate(names)}

    async def first():
        store = crawl.new_store(recheck_window=100.0)
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=list(rows.values()), clock=1.0, seq=10))
        claimed = await store.claim(7, 7, exclude_hosts=[])
        assert [r.url for r in claimed] == [url(name) for name in names[:7]]
        await store.write(
            WriteBatch(
                done={
                    rows["acked_long_ago"].fp: (10.0, None),
                    rows["acked"].fp: (200.0, None),
                    rows["acked_unsaved"].fp: (250.0, None),
                    rows["acked_redirect"].fp: (260.0, url("elsewhere")),
                },
                clock=300.0,
                seq=10,
            )
        )
        await crawl.kill(store)

    run(first)
    crawl.save_page(url("acked"))
    crawl.save_page(url("elsewhere"))  # the redirect's target was stored
    crawl.save_page(url("leased_saved"))
    crawl.save_failure(url("leased_failed"), "http_404")
    crawl.save_page(url("queued_saved"))
    crawl.save_failure(url("queued_refused"), "depth_exceeded")  # weak: not a fetch
    crawl.save_page(url("never_written"))
    crawl.save_failure(url("failed_unwritten"), "timeout")
    crawl.save_failure(url("refused_unwritten"), "trap")

    async def second():
        store = crawl.new_store(recheck_window=100.0)
        state = await store.open(BACKLINK)
        claimed = await store.claim(20, 20, exclude_hosts=[])
        await store.close(True, 301.0, 11)
        return state, claimed

    state, claimed = run(second)
    assert state.resumed and (state.clock, state.seq) == (300.0, 10)
    assert state.finished_leases == 1  # leased_failed: a failure has no links
    # leased, leased_saved: a saved page's links reach the frontier with its row's ack,
    # which the kill may have lost, so the page is fetched again
    assert state.requeued_leases == 2
    # acked_unsaved only: acked_long_ago is older than the recheck window
    assert state.requeued_unsaved == 1
    assert (state.queued_inter, state.queued_intra) == (0, 6)
    # saved without a frontier row: a failure and the redirect's target (not the weak
    # refusal, and not a page: its links were lost with its row, it is fetched again
    # when found again)
    saved_unwritten = {
        url_fingerprint(url("failed_unwritten")),
        url_fingerprint(url("elsewhere")),
    }
    assert sorted(state.fingerprints.tolist()) == sorted(
        {r.fp for r in rows.values()} | saved_unwritten
    )
    assert [r.url for r in claimed] == [
        url(n) for n in ("acked_unsaved", "leased_saved", "leased", "queued_saved",
                         "queued_refused", "queued")
    ]
    states = crawl.states()
    for name in ("acked", "acked_long_ago", "acked_redirect", "leased_failed"):
        assert states[url(name)] == DONE, name


def test_a_resume_with_another_strategy_rescores_the_queue(crawl):
    bfs, dfs = make_strategy("bfs"), make_strategy("dfs")
    rows = []
    for i in range(4):
        stats = UrlStats(depth=i, cash=1.0)
        rows.append(
            NewRow(
                url_fingerprint(url(f"d{i}")),
                url(f"d{i}"),
                "h.test",
                QUEUED,
                0,
                bfs.score(stats),
                i + 1,
                False,
                stats,
                0.0,
                None,
                None,
                b"x",
            )
        )

    async def first():
        store = crawl.new_store()
        await store.open(bfs)
        await store.write(WriteBatch(new=rows, seq=4))
        await store.claim(1, 1, exclude_hosts=[])  # d0 in flight
        await crawl.kill(store)

    async def second():
        store = crawl.new_store()
        state = await store.open(dfs)
        claimed = await store.claim(10, 10, exclude_hosts=[])
        await store.close(True, 0.0, 4)
        return state, claimed

    run(first)
    state, claimed = run(second)
    assert (state.requeued_leases, state.rescored) == (1, 4)
    assert [(r.url, r.score, r.tiebreak) for r in claimed] == [
        (url(f"d{i}"), float(i), -(i + 1)) for i in (3, 2, 1, 0)
    ]


def test_an_upsert_queues_a_done_url_again(crawl):
    done = row(BACKLINK, url("again"), 1, state=DONE, done_at=1.0)

    async def go():
        store = crawl.new_store()
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=[done], clock=1.0))
        again = row(BACKLINK, url("again"), 7, seq=1)
        await store.write(WriteBatch(upserts=[again], clock=2.0, seq=1))
        claimed = await store.claim(1, 1, exclude_hosts=[])
        await store.close(True, 2.0, 1)
        return claimed

    claimed = run(go)
    assert [(r.url, r.score, r.tiebreak) for r in claimed] == [(url("again"), 7.0, 1)]


def test_an_evicted_url_queued_again_is_not_done_on_an_unclean_resume(crawl):
    """An eviction's `uncrawled` row does not pass for the result of a later fetch: a URL
    evicted, queued again (dont_filter) and leased or acked without a saved result is
    queued again on an unclean resume."""
    names = ("leased", "acked", "acked_failed")
    first_rows = {n: row(BACKLINK, url(n), 10 - i, seq=i, queued_at=1.0)
                  for i, n in enumerate(names)}

    async def first():
        store = crawl.new_store(recheck_window=100.0)
        await store.open(BACKLINK)
        await store.write(WriteBatch(new=list(first_rows.values()), clock=1.0, seq=3))
        await store.write(WriteBatch(expire_before=2.0, expire_detail="FRONTIER_MAX_WAIT",
                                     clock=50.0, seq=3))
        again = [row(BACKLINK, url(n), 10 - i, seq=3 + i, queued_at=60.0)
                 for i, n in enumerate(names)]
        await store.write(WriteBatch(upserts=again, clock=60.0, seq=6))
        claimed = await store.claim(3, 3, exclude_hosts=[])
        assert [r.url for r in claimed] == [url(n) for n in names]
        await store.write(WriteBatch(done={first_rows["acked"].fp: (70.0, None),
                                           first_rows["acked_failed"].fp: (71.0, None)},
                                     clock=80.0, seq=6))
        await crawl.kill(store)

    run(first)
    assert crawl.uncrawled() == {url(n): ("evicted", "FRONTIER_MAX_WAIT") for n in names}
    crawl.save_failure(url("acked_failed"), "http_404")  # its fetch's result, saved

    async def second():
        store = crawl.new_store(recheck_window=100.0)
        state = await store.open(BACKLINK)
        claimed = await store.claim(10, 10, exclude_hosts=[])
        await store.close(True, 81.0, 6)
        return state, claimed

    state, claimed = run(second)
    assert (state.finished_leases, state.requeued_leases, state.requeued_unsaved) == (0, 1, 1)
    assert [r.url for r in claimed] == [url("leased"), url("acked")]
    assert crawl.states()[url("acked_failed")] == DONE
