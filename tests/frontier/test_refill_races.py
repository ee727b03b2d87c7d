"""Issue 31: the frontier's book-keeping while a store round trip is on its way.

The scheduler pops and enqueues on the crawl's loop while a refill's claim or a flush's
write runs on the store's thread. Two interleavings left URLs in the store that the
frontier never served again: a refill that excluded a full host, while that host's
share of the buffer emptied during the claim (the refill stayed blocked for ever: the
crawl idled with hundreds of URLs queued), and a row put back in the queue while a write
was on its way, wiped from the counters by the next empty claim (the crawl finished
with retried URLs queued). And two ways a re-queued request (a retry, dont_filter) lost
its row: an ack of its first copy, taken but not written, marked the re-queued row done;
an agent whose seen set did not know the URL (another agent queued it) merged the retry
into its own lease as a new link, and the ack then marked it done. Each test plays one
interleaving exactly (a store whose claim or write waits on an event), against the
in-memory store and PostgreSQL on its thread where a single process is concerned, and
asserts every URL is served.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from crawler.frontier.frontier import Frontier
from crawler.frontier.store import FrontierStore
from crawler.frontier.threaded_store import ThreadedStore
from tests.frontier.graphs import always_ready, make_frontier
from tests.frontier.memory_store import MemoryStore
from tests.frontier.test_frontier import add


class GatedStore:
    """A store whose next claim or write waits until the test opens its gate (the
    round trip on its way), everything else passed through."""

    def __init__(self, store: FrontierStore) -> None:
        self.store = store
        self.claim_gate: asyncio.Event | None = None
        self.write_gate: asyncio.Event | None = None
        self.waiting = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def claim(self, *args: Any, **kwargs: Any) -> Any:
        gate, self.claim_gate = self.claim_gate, None
        if gate is not None:
            self.waiting.set()
            await gate.wait()
        return await self.store.claim(*args, **kwargs)

    async def write(self, batch: Any) -> Any:
        gate, self.write_gate = self.write_gate, None
        if gate is not None:
            self.waiting.set()
            await gate.wait()
        return await self.store.write(batch)


@pytest.fixture(params=["memory", "threaded"])
def new_store(request):
    """A fresh store: in memory, or PostgreSQL on its own thread (as the scheduler)."""
    if request.param == "memory":
        return MemoryStore
    crawl_id = request.getfixturevalue("crawl_row")()
    url = request.getfixturevalue("migrated")

    def make() -> FrontierStore:
        from crawler.frontier.postgres_store import PostgresStore

        return ThreadedStore(PostgresStore(url, crawl_id))

    return make


async def serve_all(frontier: Frontier, limit: int = 100) -> list[str]:
    """What the scheduler does: pop and ack while anything is pending, flushing and
    refilling between pops; stops when a round serves nothing (a stall)."""
    served = []
    for _ in range(limit):
        if not frontier.has_pending():
            break
        await frontier.flush()
        if frontier.needs_refill():
            await frontier.refill()
        entry = frontier.pop(always_ready)
        if entry is None:
            break
        served.append(entry.url)
        frontier.done(entry)
    return served


URLS = [f"http://h.test/p{i}" for i in range(10)]
OTHER = "http://g.test/"


def test_a_host_whose_share_empties_during_a_claim_is_refilled(new_store):
    async def run():
        gated = GatedStore(new_store())
        frontier = make_frontier("bfs", gated, buffer_size=8, buffer_per_host=3)
        await frontier.open()
        for url in URLS:
            add(frontier, url)  # 3 buffered, 7 waiting to be written
        await frontier.flush()
        # the host's share is full: the claim excludes it; while the claim is on its
        # way, two of its three buffered URLs are served
        gated.claim_gate = gate = asyncio.Event()
        refill = asyncio.ensure_future(frontier.refill())
        await gated.waiting.wait()
        served = []
        for _ in range(2):
            entry = frontier.pop(always_ready)
            served.append(entry.url)
            frontier.done(entry)
        gate.set()
        assert await refill == 0
        served += await serve_all(frontier)
        await frontier.close()
        return served, frontier.queued

    served, queued = asyncio.run(run())
    assert sorted(served) == sorted(URLS)
    assert queued == 0


def test_a_url_put_back_while_a_write_is_on_its_way_is_served(new_store):
    async def run():
        gated = GatedStore(new_store())
        frontier = make_frontier("backlink", gated, buffer_size=8, buffer_per_host=2)
        await frontier.open()
        add(frontier, URLS[0], backlinks=5)
        add(frontier, URLS[1], backlinks=1)
        await frontier.flush()  # both buffered and written (leased rows)
        # a flush is on its way when a better URL takes p1's place in the host's
        # share (p1's row goes back to the queue, written by the next flush) and p0 is
        # served: the host has room, the next claim excludes nothing and finds nothing
        gated.write_gate = gate = asyncio.Event()
        add(frontier, OTHER, backlinks=2)  # something for this flush to write
        flush = asyncio.ensure_future(frontier.flush())
        await gated.waiting.wait()
        add(frontier, URLS[2], backlinks=9)  # p1 (the worst) goes back to the queue
        first = frontier.pop(always_ready)
        frontier.done(first)
        gate.set()
        await flush
        await frontier.refill()
        served = [first.url, *await serve_all(frontier)]
        await frontier.close()
        return served, frontier.queued

    served, queued = asyncio.run(run())
    assert sorted(served) == sorted([*URLS[:3], OTHER])
    assert queued == 0


def test_a_retry_after_its_ack_was_taken_but_not_written_is_served(new_store):
    # a request re-queued (dont_filter) once its first copy was acked, before the ack
    # was written: the store must end with the row queued, not done
    async def run():
        frontier = make_frontier("bfs", new_store(), buffer_size=8, buffer_per_host=1)
        await frontier.open()
        for url in URLS[:4]:
            add(frontier, url)  # p0 buffered, p1 p2 p3 queued
        await frontier.flush()
        first = frontier.pop(always_ready)
        frontier.done(first)  # acked, not written yet
        await frontier.refill()  # p1 takes the host's share of the buffer
        add(frontier, first.url, force=True)  # queued again, in the store
        served = [first.url, *await serve_all(frontier)]
        await frontier.close()
        return served

    served = asyncio.run(run())
    assert sorted(served) == sorted([URLS[0], *URLS[:4]])


def test_an_agents_retry_of_a_url_another_agent_queued_is_served():
    # agent b found the URL, agent a leased and fetched it and got a 503: a's seen set
    # does not know the URL, the retry must still supersede a's lease
    async def run():
        store = MemoryStore()
        a = make_frontier("bfs", store, shared=True)
        b = make_frontier("bfs", store, shared=True)
        await a.open()
        await b.open()
        add(b, URLS[0])
        await b.flush()
        await a.refill(["h.test"])
        first = a.pop(always_ready)
        assert first.url == URLS[0]
        add(a, URLS[0], force=True)  # RetryMiddleware's copy (dont_filter)
        a.done(first)  # the first copy leaves the engine after its retry is queued
        await a.flush()
        await a.refill(["h.test"])
        again = a.pop(always_ready)
        return again.url if again is not None else None

    assert asyncio.run(run()) == URLS[0]
