"""Weighted PageRank: the formula, dangling pages, links outside the graph, loading from
PostgreSQL (binary COPY) and storing the scores."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import numpy as np
import psycopg
import pytest

from crawler.ranking import link_weight, pagerank_of_graph, weighted_pagerank
from crawler.ranking.store import (
    latest_crawl_id,
    load_link_graph,
    resolve_crawl_id,
    store_scores,
    top_pages,
)
from crawler.storage.database import CrawlDatabase


def dense_pagerank(n: int, edges: list[tuple[int, int, float]], d: float) -> np.ndarray:
    """Reference: the PageRank linear system solved exactly with a dense matrix."""
    out = np.zeros(n)
    for s, t, w in edges:
        if s != t:
            out[s] += w
    m = np.zeros((n, n))  # m[v, u] = P(u -> v)
    for s, t, w in edges:
        if s != t:
            m[t, s] += w / out[s]
    for u in range(n):
        if out[u] == 0:
            m[:, u] = 1.0 / n  # a dangling page links to every page
    # r = (1 - d)/n + d M r  ->  (I - d M) r = (1 - d)/n
    return np.linalg.solve(np.eye(n) - d * m, np.full(n, (1 - d) / n))


def test_link_weight_is_the_product_of_the_attributes() -> None:
    assert link_weight(1, 1, 1) == 1
    assert link_weight(3, 3, 5) == 45
    assert link_weight(2, 3, 1) == 6
    assert link_weight(np.array([1, 2]), np.array([3, 1]), np.array([5, 5])).tolist() == [15, 10]
    assert link_weight(0, 9, 7) == 15  # out-of-range values are clipped


def test_two_page_cycle_is_uniform() -> None:
    result = weighted_pagerank(2, np.array([0, 1]), np.array([1, 0]))
    assert result.converged
    assert result.scores.tolist() == pytest.approx([0.5, 0.5])
    assert result.relative.tolist() == pytest.approx([1.0, 1.0])


def test_dangling_page_spreads_its_rank_evenly() -> None:
    # A -> B, B has no out-link: rA = 0.15/2 + 0.85 rB/2, rB = 0.15/2 + 0.85 (rA + rB/2)
    result = weighted_pagerank(2, np.array([0]), np.array([1]), tolerance=1e-12)
    a = (0.15 / 2 + 0.85 * 0.5 * (0.15 / 2) / (1 - 0.85 / 2)) / (
        1 - 0.85 * 0.85 / (2 * (1 - 0.85 / 2))
    )
    b = 1 - a
    assert result.scores.tolist() == pytest.approx([a, b], abs=1e-9)
    assert result.dangling == 1 and result.links == 1


def test_weights_split_the_rank_in_proportion() -> None:
    edges = [(0, 1, 45.0), (0, 2, 1.0), (1, 0, 1.0), (2, 0, 1.0), (3, 3, 9.0)]
    src, dst, w = (np.array(col) for col in zip(*edges, strict=True))
    result = weighted_pagerank(4, src, dst, w, tolerance=1e-12)
    assert result.scores.tolist() == pytest.approx(
        dense_pagerank(4, edges, 0.85).tolist(), abs=1e-9
    )
    assert result.scores[1] > 5 * result.scores[2]
    assert result.dangling == 1  # page 3 only links to itself
    assert result.scores.sum() == pytest.approx(1.0)


def test_random_graph_matches_the_dense_solution() -> None:
    rng = np.random.default_rng(5)
    n = 60
    src = rng.integers(0, n, 400)
    dst = rng.integers(0, n, 400)
    w = link_weight(rng.integers(1, 4, 400), rng.integers(1, 4, 400), rng.choice([1, 5], 400))
    for damping in (0.5, 0.85, 0.95):
        result = weighted_pagerank(n, src, dst, w, damping=damping, tolerance=1e-13,
                                   max_iterations=2000)
        expected = dense_pagerank(n, list(zip(src, dst, w, strict=True)), damping)
        assert result.converged
        assert np.abs(result.scores - expected).max() < 1e-10


def test_tolerance_and_iteration_cap() -> None:
    rng = np.random.default_rng(1)
    src, dst = rng.integers(0, 50, 300), rng.integers(0, 50, 300)
    loose = weighted_pagerank(50, src, dst, tolerance=1e-2)
    tight = weighted_pagerank(50, src, dst, tolerance=1e-10)
    assert loose.converged and tight.converged and loose.iterations < tight.iterations
    capped = weighted_pagerank(50, src, dst, tolerance=1e-15, max_iterations=3)
    assert not capped.converged and capped.iterations == 3


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="damping"):
        weighted_pagerank(2, np.array([0]), np.array([1]), damping=1.0)
    with pytest.raises(ValueError, match="out of range"):
        weighted_pagerank(2, np.array([0]), np.array([2]))
    assert weighted_pagerank(0, np.array([]), np.array([])).scores.size == 0


def test_links_to_unknown_urls_and_self_links_are_left_out() -> None:
    graph = {
        "a": ["b", "a", "http://unfetched/"],
        "b": ["a"],
        "c": ["http://unfetched/"],  # dangling: its only link leaves the graph
    }
    scores = pagerank_of_graph(graph, tolerance=1e-12)
    expected = dense_pagerank(3, [(0, 1, 1), (1, 0, 1)], 0.85) * 3
    assert [scores[k] for k in "abc"] == pytest.approx(expected.tolist(), abs=1e-9)


# --- PostgreSQL ---------------------------------------------------------------------------


def _add_crawl(db: psycopg.Connection, pages: dict[str, str], links: list[tuple]) -> str:
    """A crawl with pages {url: final_url} and links (source, target, vis, pos, dist)."""
    crawl_id = f"pr-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl_id,))
    now = datetime.now(UTC)
    for url, final in pages.items():
        db.execute(
            "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth,"
            " title, content_md5, size) VALUES (%s, %s, %s, 'h.test', 200, %s, 0, %s, 'x', 1)",
            (crawl_id, url, final, now, f"title of {url}"),
        )
    for source, target, vis, pos, dist in links:
        db.execute(
            "INSERT INTO links (crawl_id, source_url, target_url, visibility, position,"
            " distance) VALUES (%s, %s, %s, %s, %s, %s)",
            (crawl_id, source, target, vis, pos, dist),
        )
    return crawl_id


@pytest.fixture
def prepared_db(database_url: str, db: psycopg.Connection) -> psycopg.Connection:
    CrawlDatabase(url=database_url).prepare()
    return db


def test_load_link_graph_numbers_pages_and_weights_links(prepared_db: psycopg.Connection) -> None:
    pages = {
        "http://h.test/a": "http://h.test/a",
        "http://h.test/b": "http://h.test/b2",  # redirected: b2 is an alias of b
        "http://h.test/c": "http://h.test/c",
    }
    links = [
        ("http://h.test/a", "http://h.test/b", 2, 3, 1),
        ("http://h.test/a", "http://h.test/c", 3, 3, 5),
        ("http://h.test/a", "http://h.test/missing", 1, 1, 1),  # never fetched
        ("http://h.test/c", "http://h.test/b2", 1, 2, 1),  # to the redirect target
        ("http://h.test/c", "http://h.test/c", 1, 1, 1),  # self-link
    ]
    crawl_id = _add_crawl(prepared_db, pages, links)
    _add_crawl(prepared_db, pages, links[:1])  # another crawl: not mixed in
    with psycopg.connect(prepared_db.info.dsn, autocommit=True) as conn:
        graph = load_link_graph(conn, crawl_id, block_bytes=40)  # tiny blocks: many feeds
    assert graph.urls == list(pages)
    edges = sorted(
        zip(graph.sources.tolist(), graph.targets.tolist(), graph.weights.tolist(), strict=True)
    )
    assert edges == [(0, 1, 6.0), (0, 2, 45.0), (2, 1, 2.0), (2, 2, 1.0)]
    assert graph.total_links == 5 and graph.links_outside == 1


def test_store_and_read_scores(prepared_db: psycopg.Connection) -> None:
    pages = {f"http://h.test/{i}": f"http://h.test/{i}" for i in range(3)}
    crawl_id = _add_crawl(prepared_db, pages, [])
    with psycopg.connect(prepared_db.info.dsn, autocommit=True) as conn:
        assert store_scores(conn, crawl_id, list(pages), [0.5, 2.0, 0.5]) == 3
        assert store_scores(conn, crawl_id, list(pages), [1.5, 1.0, 0.5]) == 3  # replaces
        assert top_pages(conn, crawl_id, 2) == [
            ("http://h.test/0", "title of http://h.test/0", 1.5),
            ("http://h.test/1", "title of http://h.test/1", 1.0),
        ]
        assert resolve_crawl_id(conn, crawl_id) == crawl_id
        assert latest_crawl_id(conn) is not None
        with pytest.raises(LookupError, match="no crawl"):
            resolve_crawl_id(conn, "no-such-crawl")
