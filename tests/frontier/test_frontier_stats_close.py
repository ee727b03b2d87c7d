"""The crawl_stats row being written when the spider closes is not lost: the close waits
for it (a cancelled insert lost its interval's pages, which the next row no longer
counts; seen as 43 of 44 responses in `test_politeness_stats` under load)."""

from __future__ import annotations

import asyncio
import uuid
from types import SimpleNamespace

import psycopg
from scrapy.utils.test import get_crawler

from crawler.extensions.frontier_stats import FrontierStats


def test_the_row_being_written_at_the_close_is_kept(migrated: str) -> None:
    crawler = get_crawler(settings_dict={"CRAWLER_DATABASE_URL": migrated})
    crawler.engine = SimpleNamespace(scheduler=None)  # the frontier columns stay NULL
    spider = SimpleNamespace(crawl_id=f"stats-close-{uuid.uuid4().hex[:8]}", name="general")
    crawler.spider = spider
    stats = FrontierStats(crawler, interval=0.05)
    crawler.stats.set_value("response_received_count", 5)
    with psycopg.connect(migrated, autocommit=True) as conn:
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (spider.crawl_id,))

    def waiting_inserts() -> int:
        with psycopg.connect(migrated, autocommit=True) as conn:
            return conn.execute(
                "SELECT count(*) FROM pg_locks WHERE relation = 'crawl_stats'::regclass"
                " AND NOT granted"
            ).fetchone()[0]

    with psycopg.connect(migrated) as locker:
        # the periodic insert blocks until the close has begun
        locker.execute("LOCK TABLE crawl_stats IN ACCESS EXCLUSIVE MODE")

        async def crawl() -> None:
            stats.spider_opened(spider)
            await asyncio.sleep(0.3)  # the first periodic row is waiting for the lock
            assert waiting_inserts() == 1
            crawler.stats.set_value("response_received_count", 8)
            closing = asyncio.get_running_loop().create_task(
                stats.spider_closed(spider, "finished")
            )
            await asyncio.sleep(0.2)
            locker.rollback()  # the insert goes on
            await closing

        asyncio.run(crawl())

    with psycopg.connect(migrated) as conn:
        pages = [
            p
            for (p,) in conn.execute(
                "SELECT pages FROM crawl_stats WHERE crawl_id = %s ORDER BY at, pages DESC",
                (spider.crawl_id,),
            )
        ]
    assert pages == [5, 3]
    assert crawler.stats.get_value("frontier_stats/rows") == 2
