"""Every strategy's Python score and its SQL twin agree, computed by the real PostgreSQL
on the link statistics of a crawl (the frontier scores in Python, the store re-scores in
SQL: a drift would reorder the queue after every flush)."""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from crawler.frontier.scores import (
    STRATEGIES,
    STRATEGY_CLASSES,
    Strategy,
    UrlStats,
    make_strategy,
    weighted_terms,
)
from tests.frontier.graphs import crawl, make_frontier

WEIGHTS = ({}, {"opic": 0.7, "interintra": 0.4, "depth": 0.25, "attributes": 0.0})


def random_web(seed: int = 11, pages: int = 400) -> tuple[dict[str, list[str]], list[str]]:
    """A web of sites in a few registered domains (subdomains share one), every page with
    a different number of links to its own site and to others."""
    rng = random.Random(seed)
    sites = [f"http://{sub}.{dom}.test" for dom in ("a", "b", "c", "d") for sub in ("www", "x")]
    urls = [f"{rng.choice(sites)}/p{i}" for i in range(pages)]
    graph = {url: rng.sample(urls, rng.randint(0, 25)) for url in urls}
    return graph, urls[:3]


def link_stats() -> list[UrlStats]:
    """The statistics of the URLs of a crawl stopped half-way: fetched and still queued
    URLs, gathered from real link events (some with a spider's score terms), and a few
    extremes (no cash, many backlinks, negative terms)."""
    graph, seeds = random_web()

    async def run() -> list[UrlStats]:
        frontier = make_frontier("bfs")
        await frontier.open()
        await crawl(frontier, graph, seeds, flush_every=5, limit=150)
        await frontier.flush()
        return [row.stats.copy() for row in frontier.store.rows.values()]

    stats = asyncio.run(run())
    rng = random.Random(5)
    for s in stats[::7]:
        s.extra = weighted_terms(
            {"relevance": rng.random(), "other": -rng.random()}, {"relevance": 4.0}
        )
    stats += [
        UrlStats(cash=0.0),
        UrlStats(depth=40, backlinks=10**6, cash=1e-300),
        UrlStats(extra=-3.5),
    ]
    assert len(stats) >= 300
    return stats


def sql_scores(conn: psycopg.Connection, strategy: Strategy, stats: list[UrlStats]) -> list:
    expr = strategy.score_sql(
        "s.depth", "s.backlinks", "s.cash", "s.link_score", "s.attributes", "s.extra"
    )
    return [
        score
        for (score,) in conn.execute(
            f"SELECT {expr} FROM unnest(%s::int[], %s::int[], %s::float8[], %s::float8[],"
            " %s::float8[], %s::float8[]) WITH ORDINALITY"
            " AS s(depth, backlinks, cash, link_score, attributes, extra, i) ORDER BY s.i",
            (
                [s.depth for s in stats],
                [s.backlinks for s in stats],
                [s.cash for s in stats],
                [s.link_score for s in stats],
                [s.attributes for s in stats],
                [s.extra for s in stats],
            ),
        )
    ]


@pytest.fixture(scope="module")
def stats() -> list[UrlStats]:
    return link_stats()


@pytest.mark.parametrize("weights", WEIGHTS, ids=("default", "custom"))
@pytest.mark.parametrize("name", STRATEGIES)
def test_python_and_sql_scores_agree_on_real_link_stats(name, weights, stats, database_url):
    strategy = make_strategy(name, weights)
    with psycopg.connect(database_url) as conn:
        in_sql = sql_scores(conn, strategy, stats)
    in_python = [strategy.score(s) for s in stats]
    assert len(set(in_python)) > 10  # the sample tells the URLs apart
    for s, python, sql in zip(stats, in_python, in_sql, strict=True):
        assert sql == pytest.approx(python, rel=1e-12, abs=1e-12), (name, s)


def test_the_registry_names_one_class_per_strategy():
    assert set(STRATEGIES) == {"bestfirst", "bfs", "dfs", "backlink", "opic", "interintra"}
    for name, cls in STRATEGY_CLASSES.items():
        strategy = make_strategy(f" {name.upper()} ")
        assert type(strategy) is cls and strategy.name == name
        assert strategy.newest_first == (name == "dfs")
    assert make_strategy("bestfirst", {"opic": 2}).signature != make_strategy("bestfirst").signature
