"""Fixtures of the operations tests: crawl rows with known timestamps (report, web UI)."""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta

import pytest

from crawler.storage.database import CrawlDatabase
from tests.search.test_web_ui import browser  # noqa: F401 (headless Chromium, shared)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def make_crawl(db, crawl_id: str, *, finished: bool = True, pages: int = 40,
               scale: float = 1.0) -> None:
    """A crawl of 4 minutes: ``pages`` pages spread over it (sizes 1-4 KB), errors,
    evictions, crawl_stats rows every minute, PageRank for every page."""
    db.execute("INSERT INTO crawls (id, spider, started_at, finished_at, finish_reason) "
               "VALUES (%s, 'general', %s, %s, %s)",
               (crawl_id, T0, T0 + timedelta(minutes=4) if finished else None,
                "finished" if finished else None))
    for i in range(pages):
        at = T0 + timedelta(seconds=i * 240 / pages)
        host = ("a.test", "b.example.ca", "c.example.ca")[i % 3]
        url = f"http://{host}/p{i}"
        db.execute(
            "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
            "content_md5, size) VALUES (%s, %s, %s, %s, 200, %s, 0, '', %s)",
            (crawl_id, url, url, host, at, 1024 * (1 + i % 4)),
        )
        db.execute("INSERT INTO pagerank (crawl_id, url, score) VALUES (%s, %s, %s)",
                   (crawl_id, url, scale * (2.0 if at < T0 + timedelta(minutes=2) else 0.5)))
    rows = [("http://a.test/gone", "http_404", 30), ("http://a.test/x", "timeout", 90),
            ("http://a.test/e1", "evicted", 150), ("http://a.test/e2", "evicted", 170),
            ("http://a.test/copy", "duplicate_content", 200)]
    for url, category, second in rows:
        db.execute("INSERT INTO uncrawled (crawl_id, url, category, at) VALUES (%s, %s, %s, %s)",
                   (crawl_id, url, category, T0 + timedelta(seconds=second)))
    for minute in range(1, 5):
        db.execute(
            "INSERT INTO crawl_stats (crawl_id, at, interval_seconds, pages, queue_size, "
            "queue_inter, queue_intra, wait_min, wait_avg, wait_max, evicted, duplicates) "
            "VALUES (%s, %s, 60, 10, %s, %s, %s, 0.5, 2.0, %s, 0, %s)",
            (crawl_id, T0 + timedelta(minutes=minute), 100 * minute, 40 * minute,
             60 * minute, 5.0 * minute, 3 * minute),
        )


@pytest.fixture
def crawls(database_url, db):
    CrawlDatabase(url=database_url).prepare()
    ids = ["html-a", "html-b", "html-running", "html-empty"]
    db.execute("DELETE FROM crawls WHERE id = ANY(%s)", (ids,))
    make_crawl(db, "html-a")
    make_crawl(db, "html-b", pages=20, scale=0.5)
    make_crawl(db, "html-running", finished=False)
    db.execute("INSERT INTO crawls (id, spider, started_at, finished_at) "
               "VALUES ('html-empty', 'general', %s, %s)", (T0, T0))
    yield db
    db.execute("DELETE FROM crawls WHERE id = ANY(%s)", (ids,))
