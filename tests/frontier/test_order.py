"""Exact dequeue order of each strategy on a hand-built graph (algorithm level).

The graph (tests/frontier/graphs.py), seed S = a.test/:

    S -> p, q, B        p -> r, s, t, B      q -> C      B -> u, r      C -> v

Worked by hand (seq = insertion order, ties: oldest first, newest first for dfs):

- bfs (-depth): S | p q B (depth 1) | r s t C u (depth 2, in insertion order) | v.
- dfs (depth, newest first, i.e. LIFO): S B, B's newest child r, then u, q, C, v, p, t, s.
- backlink: after S all have 1; p (oldest) adds r s t and gives B 2 -> B; B gives r 2 -> r;
  then the 1s oldest first: q (adds C), s, t, u, C (adds v), v.
- opic (cash): S gives 1/3 each; p (oldest) gives 1/12 to r s t B (B 5/12) -> B gives 5/24
  to u and r (r 7/24); q (1/3) > r -> q gives 1/3 to C -> C -> v (1/3) -> r, u, s, t.
- interintra (LS = alpha/beta*theta): S's links p, q 0.99, B 1.98 -> B: r 1.32 (inter),
  u 0.66 -> r; p 0.99 (oldest) -> s, t 1.32 -> s, t, q -> C 0.66; u 0.66 (older), C, v.
- bestfirst (ln cash + ln(1+backlinks) + 0.25 ln(1+LS) + 0.5 attributes): after S,
  B 0.19 > p = q -0.10 -> B; p (older) -> r: cash 1/4, 2 backlinks: 0.24 -> r; q -> C
  0.04 -> C -> v -0.20; u -0.84; s = t -1.45.
"""

from __future__ import annotations

import asyncio

import pytest

from crawler.frontier.postgres_store import PostgresStore
from tests.frontier.graphs import EXPECTED_ORDER, GRAPH, S, crawl, make_frontier, names
from tests.frontier.memory_store import MemoryStore


@pytest.mark.parametrize("strategy", sorted(EXPECTED_ORDER))
def test_dequeue_order_per_strategy(strategy):
    async def run():
        frontier = make_frontier(strategy)
        await frontier.open()
        return await crawl(frontier, GRAPH, [S])

    assert names(asyncio.run(run())) == EXPECTED_ORDER[strategy]


@pytest.mark.parametrize("strategy", sorted(EXPECTED_ORDER))
def test_dequeue_order_with_the_postgres_store(strategy, migrated, crawl_row):
    async def run():
        frontier = make_frontier(strategy, PostgresStore(migrated, crawl_row()))
        await frontier.open()
        order = await crawl(frontier, GRAPH, [S])
        await frontier.close()
        return order

    assert names(asyncio.run(run())) == EXPECTED_ORDER[strategy]


@pytest.mark.parametrize("strategy", ["bestfirst", "bfs"])
def test_a_tiny_buffer_still_crawls_everything_once(strategy, migrated, crawl_row):
    # 2 URLs in memory, 1 per host: most of the frontier waits in PostgreSQL
    frontier = make_frontier(
        strategy, PostgresStore(migrated, crawl_row()), buffer_size=2, buffer_per_host=1
    )

    async def run():
        await frontier.open()
        order = await crawl(frontier, GRAPH, [S])
        await frontier.close()
        return order

    order = asyncio.run(run())
    assert sorted(order) == sorted(GRAPH)
    assert frontier.counters.refills > 0  # came back from the database


def test_memory_store_has_one_row_per_url():
    store = MemoryStore()
    frontier = make_frontier("bestfirst", store)

    async def run():
        await frontier.open()
        await crawl(frontier, GRAPH, [S])
        await frontier.close()

    asyncio.run(run())
    assert {row.url for row in store.rows.values()} == set(GRAPH)
    assert {row.state for row in store.rows.values()} == {2}
