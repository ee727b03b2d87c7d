"""Frontier behaviour at algorithm level (in-memory store, fake clock): re-prioritisation,
max-wait and size eviction, re-queued requests, per-host readiness, resume."""

from __future__ import annotations

import asyncio

import pytest

from crawler.frontier.buffer import DONE, LEASED, QUEUED
from crawler.frontier.scores import link_event, seed_stats
from crawler.frontier.seen import url_fingerprint
from tests.frontier.graphs import add_links, always_ready, drain, host, make_frontier
from tests.frontier.memory_store import MemoryStore


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def add(frontier, url: str, backlinks: int = 1, priority: int = 0, force: bool = False) -> bool:
    stats = seed_stats(cash=1.0)
    stats.backlinks = backlinks
    return frontier.add(url_fingerprint(url), url, host(url), priority, stats, False, url,
                        force=force)


def pop_all(frontier, readiness=always_ready) -> list[str]:
    out = []
    while (entry := frontier.pop(readiness)) is not None:
        out.append(entry.url)
        frontier.done(entry)
    return out


def test_a_new_link_raises_a_queued_url_in_place_without_queueing_it_twice():
    async def run():
        frontier = make_frontier("backlink")
        await frontier.open()
        page = "http://h.test/"
        add(frontier, page, priority=1)
        source = frontier.pop(always_ready)
        add_links(frontier, source, ["http://h.test/a", "http://h.test/b", "http://h.test/c"])
        frontier.done(source)
        # another page links to c (and a new d): c's backlinks go from 1 to 2
        other = frontier.pop(always_ready)  # a, the oldest of the three
        assert other.url == "http://h.test/a"
        added = add_links(frontier, other, ["http://h.test/c", "http://h.test/d"])
        frontier.done(other)
        assert added == [False, True]
        assert frontier.counters.duplicates == 1 and frontier.counters.reprioritised == 1
        rest = pop_all(frontier)
        assert rest == ["http://h.test/c", "http://h.test/b", "http://h.test/d"]
        await frontier.flush()
        return frontier

    frontier = asyncio.run(run())
    rows = frontier.store.rows
    assert len(rows) == 5 and {r.state for r in rows.values()} == {DONE}
    c = rows[url_fingerprint("http://h.test/c")]
    assert c.stats.backlinks == 2 and c.score == 2.0


def test_score_updates_reach_urls_waiting_in_the_store():
    async def run():
        store = MemoryStore()
        frontier = make_frontier("backlink", store, buffer_size=1, buffer_per_host=1)
        await frontier.open()
        for path in ("x", "y"):
            add(frontier, f"http://h.test/{path}")
        await frontier.flush()
        y = store.rows[url_fingerprint("http://h.test/y")]
        assert y.state == QUEUED  # x holds the buffer's only place
        source = frontier.pop(always_ready)
        add_links(frontier, source, ["http://h.test/y"])
        await frontier.flush()
        assert y.stats.backlinks == 2 and y.score == 2.0
        assert frontier.counters.rescored_stored == 1

    asyncio.run(run())


def test_urls_waiting_longer_than_max_wait_are_evicted_lowest_score_first():
    clock = FakeClock()

    async def run():
        store = MemoryStore()
        # a one-URL buffer: the others wait in the store, where evictions go in batches
        frontier = make_frontier("backlink", store, max_wait=60.0, buffer_size=1,
                                 buffer_per_host=1, evict_limit=2, now=clock)
        await frontier.open()
        for path, backlinks in (("a", 5), ("b", 1), ("c", 3), ("d", 2)):
            add(frontier, f"http://h.test/{path}", backlinks)
        await frontier.flush()
        clock.t += 30
        add(frontier, "http://h.test/young")
        await frontier.flush()
        assert store.uncrawled == {}
        clock.t += 31  # a..d have waited 61 s, "young" 31 s
        add(frontier, "http://h.test/new")  # new URLs entering trigger the check
        await frontier.flush()
        first = dict(store.uncrawled)
        await frontier.flush()  # the limit was hit: the check goes on
        return frontier, store, first

    frontier, store, first = asyncio.run(run())
    # a (buffered) is evicted at once; in the store the 2 lowest first (b: 1, d: 2), then c
    assert set(first) == {"http://h.test/a", "http://h.test/b", "http://h.test/d"}
    assert set(store.uncrawled) == {f"http://h.test/{p}" for p in "abcd"}
    assert all("FRONTIER_MAX_WAIT" in detail for _, detail in store.uncrawled.values())
    assert frontier.counters.evicted_age == 4
    assert frontier.queued == 2
    assert asyncio.run(drain(frontier)) == ["http://h.test/young", "http://h.test/new"]


def test_the_size_cap_evicts_the_lowest_ranked_urls():
    async def run():
        store = MemoryStore()
        frontier = make_frontier("backlink", store, max_size=3, buffer_size=2,
                                 buffer_per_host=2)
        await frontier.open()
        for path, backlinks in (("a", 4), ("b", 1), ("c", 5), ("d", 2), ("e", 3)):
            add(frontier, f"http://h.test/{path}", backlinks)
        await frontier.flush()
        return frontier, store

    frontier, store = asyncio.run(run())
    assert set(store.uncrawled) == {"http://h.test/b", "http://h.test/d"}
    assert all("FRONTIER_MAX_SIZE" in d for _, d in store.uncrawled.values())
    assert frontier.queued == 3 and frontier.counters.evicted_size == 2
    assert pop_all(frontier) == ["http://h.test/c", "http://h.test/a"]  # e is in the store


def test_dont_filter_queues_a_seen_url_again_but_never_twice():
    async def run():
        frontier = make_frontier("bfs")
        await frontier.open()
        url = "http://h.test/"
        assert add(frontier, url)
        assert not add(frontier, url)
        assert add(frontier, url, force=True)  # still queued: served once
        assert frontier.queued == 1
        entry = frontier.pop(always_ready)
        assert add(frontier, url, force=True)  # in flight: queued again (a retry)
        frontier.done(entry)  # the first attempt's ack must not mark the retry done
        assert frontier.queued == 1
        again = frontier.pop(always_ready)
        assert again is not entry and again.url == url
        frontier.done(again)
        await frontier.flush()
        return frontier

    frontier = asyncio.run(run())
    rows = frontier.store.rows
    assert len(rows) == 1 and next(iter(rows.values())).state == DONE


def test_a_delayed_or_busy_host_never_holds_back_the_others():
    clock = FakeClock()
    ready_at = {"slow.test": clock.t + 5.0}
    busy = {"busy.test"}

    def readiness(name: str) -> float | None:
        if name in busy:
            return None
        return max(0.0, ready_at.get(name, 0.0) - clock.t)

    async def run():
        frontier = make_frontier("backlink", now=clock)
        await frontier.open()
        add(frontier, "http://slow.test/1", backlinks=9)
        add(frontier, "http://busy.test/1", backlinks=8)
        add(frontier, "http://fast.test/1", backlinks=1)
        add(frontier, "http://fast.test/2", backlinks=1)
        first = [e.url for e in iter(lambda: frontier.pop(readiness), None)]
        assert frontier.next_ready_at() == clock.t + 5.0
        busy.clear()  # its request finished
        second = frontier.pop(readiness).url
        assert frontier.pop(readiness) is None
        clock.t += 5.0
        third = frontier.pop(readiness).url
        return first, second, third

    first, second, third = asyncio.run(run())
    assert first == ["http://fast.test/1", "http://fast.test/2"]
    assert (second, third) == ("http://busy.test/1", "http://slow.test/1")


def test_resume_requeues_leases_and_unsaved_results_after_an_unclean_stop():
    clock = FakeClock()
    urls = [f"http://h.test/{i}" for i in range(6)]

    async def first_run(store):
        frontier = make_frontier("bfs", store, now=clock)
        await frontier.open()
        for url in urls:
            add(frontier, url)
        popped = [frontier.pop(always_ready) for _ in range(4)]
        for entry in popped[:3]:
            frontier.done(entry)
            clock.t += 1
        await frontier.flush()  # then the process dies: no close()
        return [e.url for e in popped]

    async def second_run(store):
        frontier = make_frontier("bfs", store, now=clock)
        state = await frontier.open()
        return frontier, state

    store = MemoryStore()
    popped = asyncio.run(first_run(store))
    store.pages = {popped[0], popped[2]}  # popped[1]'s page never reached the database
    frontier, state = asyncio.run(second_run(store))
    # leased: the one in flight and the two buffered; unsaved: popped[1]
    assert (state.requeued_leases, state.requeued_unsaved) == (3, 1)
    assert len(frontier.seen) == 6 and frontier.queued == 4
    assert frontier.clock() >= 1003.0 - 1000.0  # the crawl clock goes on
    assert asyncio.run(drain(frontier)) == [popped[1], popped[3], *urls[4:]]
    assert store.rows[url_fingerprint(popped[0])].state == DONE


def test_a_graceful_close_puts_the_buffer_back_and_keeps_seen_and_scores():
    async def run():
        store = MemoryStore()
        frontier = make_frontier("backlink", store)
        await frontier.open()
        for path, backlinks in (("a", 1), ("b", 3), ("c", 2)):
            add(frontier, f"http://h.test/{path}", backlinks)
        entry = frontier.pop(always_ready)
        frontier.done(entry)
        await frontier.close()
        assert {r.state for r in store.rows.values()} == {QUEUED, DONE}
        again = make_frontier("backlink", store)
        state = await again.open()
        assert (state.requeued_leases, state.requeued_unsaved) == (0, 0)
        assert not add(again, "http://h.test/b")  # seen
        return entry.url, await drain(again)

    first, rest = asyncio.run(run())
    assert first == "http://h.test/b" and rest == ["http://h.test/c", "http://h.test/a"]


def test_link_event_statistics_follow_the_papers():
    event = link_event(depth=2, n_inter=5, n_intra=2, inter=True, visibility=3, position=3,
                       distance=5, source_cash=0.7)
    assert event.backlinks == 1 and event.cash == pytest.approx(0.1)
    assert round(event.link_score, 3) == 2.31 and event.attributes == 1.0
    assert LEASED == 1


def test_a_batch_is_a_snapshot_entries_may_change_while_it_is_written():
    class SlowStore(MemoryStore):
        """Its write waits, once the batch is taken, until the crawl has gone on."""

        def __init__(self):
            super().__init__()
            self.writing = asyncio.Event()
            self.crawl_went_on = asyncio.Event()

        async def write(self, batch):
            self.writing.set()
            await self.crawl_went_on.wait()
            return await super().write(batch)

    async def run():
        store = SlowStore()
        frontier = make_frontier("bfs", store)
        await frontier.open()
        add(frontier, "http://h.test/")
        writing = asyncio.ensure_future(frontier.flush())
        await store.writing.wait()
        entry = frontier.pop(always_ready)  # what the scheduler does with a popped entry
        entry.payload = None
        frontier.done(entry)
        store.crawl_went_on.set()
        await writing
        await frontier.flush()
        return store

    row = next(iter(asyncio.run(run()).rows.values()))
    assert row.payload == b"http://h.test/" and row.state == DONE


def test_no_age_eviction_is_asked_of_the_store_before_a_url_can_have_waited_that_long():
    # the store's eviction query reads the queue's oldest rows: pointless while the crawl's
    # clock is below FRONTIER_MAX_WAIT (every close of a short crawl used to run it)
    clock = FakeClock()
    batches = []

    class RecordingStore(MemoryStore):
        async def write(self, batch):
            batches.append(batch.expire_before)
            return await super().write(batch)

    async def run():
        frontier = make_frontier("backlink", RecordingStore(), max_wait=60, now=clock)
        await frontier.open()
        add(frontier, "http://h.test/a")
        clock.t += 59
        await frontier.flush()
        add(frontier, "http://h.test/b")
        clock.t += 2  # 61 s of crawl clock: /a may have waited too long
        await frontier.flush()
        return frontier

    frontier = asyncio.run(run())
    assert batches == [None, 1.0]
    assert frontier.counters.evicted_age == 1


def test_absorbing_a_link_to_a_seen_url_is_what_adding_it_does():
    # the KnownLinksMiddleware's shortcut (absorb_seen) against the scheduler's path (add)
    def event(source, url):
        return link_event(
            depth=source.stats.depth + 1, n_inter=0, n_intra=3, inter=False, visibility=1,
            position=3, distance=1, source_cash=source.stats.cash,
        )

    async def run(shortcut: bool):
        frontier = make_frontier("backlink")
        await frontier.open()
        add(frontier, "http://h.test/", priority=1)
        source = frontier.pop(always_ready)
        add_links(frontier, source, ["http://h.test/a", "http://h.test/b", "http://h.test/c"])
        frontier.done(source)
        other = frontier.pop(always_ready)  # a
        for url in ["http://h.test/c", "http://h.test/a", "http://h.test/"]:
            fp = url_fingerprint(url)
            if shortcut:
                assert frontier.absorb_seen(fp, event(other, url))
            else:
                assert not frontier.add(fp, url, host(url), 0, event(other, url), False, url,
                                        link=True)
        assert not frontier.absorb_seen(url_fingerprint("http://h.test/new"), event(other, ""))
        frontier.done(other)
        order = pop_all(frontier)
        await frontier.flush()
        counters = (frontier.counters.duplicates, frontier.counters.reprioritised)
        scores = {r.url: (r.stats.backlinks, r.score) for r in frontier.store.rows.values()}
        return order, counters, scores

    by_add = asyncio.run(run(False))
    by_absorb = asyncio.run(run(True))
    assert by_absorb == by_add
    order, counters, scores = by_absorb
    assert order == ["http://h.test/c", "http://h.test/b"]  # c has two in-links now
    assert counters == (3, 1) and scores["http://h.test/c"] == (2, 2.0)
    assert "http://h.test/new" not in scores
