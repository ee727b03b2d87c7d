"""The smart spider's forms: stored in the `forms` table, and its output items.

FormStorePipeline (after page storage) writes every FormItem in batches (STORE_BATCH_SIZE
forms, or the forms waiting when one arrives STORE_FLUSH_INTERVAL after the last write,
and the rest when the spider closes), idempotently (upsert on crawl id, page URL, form
index). FormOutputPipeline (last) drops every item of
a spider whose class sets ``forms_output_only = True`` except the relevant searchable
forms, so ``-o forms.jsonl`` gets those alone (pages and uncrawled URLs are still stored);
a form whose probe is out (``probe == "pending"``) is output with its probe's outcome,
when the final item for it comes (the row is updated in place).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool
from scrapy.exceptions import DropItem, NotConfigured

from crawler import defaults
from crawler.items import FormItem
from crawler.storage.database import crawl_database

logger = logging.getLogger(__name__)

_FORMS_SQL = """
INSERT INTO forms (crawl_id, site, page_url, form_index, action_url, method, fields,
                   searchable, searchable_score, relevant, relevance_score, site_score,
                   form_score, probe, confirmed, probe_url, result_records)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (crawl_id, page_url, form_index) DO UPDATE SET
    site = EXCLUDED.site, action_url = EXCLUDED.action_url, method = EXCLUDED.method,
    fields = EXCLUDED.fields, searchable = EXCLUDED.searchable,
    searchable_score = EXCLUDED.searchable_score, relevant = EXCLUDED.relevant,
    relevance_score = EXCLUDED.relevance_score, site_score = EXCLUDED.site_score,
    form_score = EXCLUDED.form_score, probe = EXCLUDED.probe,
    confirmed = EXCLUDED.confirmed, probe_url = EXCLUDED.probe_url,
    result_records = EXCLUDED.result_records
"""


class FormStorePipeline:
    def __init__(self, crawler: Any, batch_size: int, flush_interval: float) -> None:
        self.crawler = crawler
        self.flush_interval = flush_interval
        self._last_flush = time.monotonic()
        self.stats = crawler.stats
        self.database = crawl_database(crawler)
        self.batch_size = max(1, batch_size)
        self.forms: list[FormItem] = []
        self.pool: AsyncConnectionPool | None = None
        self._lock = asyncio.Lock()

    @classmethod
    def from_crawler(cls, crawler: Any) -> FormStorePipeline:
        if not getattr(crawler.spidercls, "forms_output_only", False):
            raise NotConfigured
        settings = crawler.settings
        return cls(
            crawler,
            settings.getint("STORE_BATCH_SIZE", defaults.STORE_BATCH_SIZE),
            settings.getfloat("STORE_FLUSH_INTERVAL", defaults.STORE_FLUSH_INTERVAL),
        )

    async def open_spider(self) -> None:
        self.database.prepare()
        self.pool = AsyncConnectionPool(self.database.url, min_size=1, max_size=1, open=False)
        await self.pool.open(wait=True)

    async def close_spider(self) -> None:
        await self.flush()
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    async def process_item(self, item: Any) -> Any:
        if isinstance(item, FormItem):
            self.forms.append(item)
            if (
                len(self.forms) >= self.batch_size
                or time.monotonic() - self._last_flush >= self.flush_interval
            ):
                await self.flush()
        return item

    async def flush(self) -> None:
        async with self._lock:
            self._last_flush = time.monotonic()
            forms, self.forms = self.forms, []
            if not forms or self.pool is None:
                return
            crawl_id = self.crawler.spider.crawl_id
            async with self.pool.connection() as conn, conn.cursor() as cursor:
                await cursor.executemany(
                    _FORMS_SQL,
                    [
                        (
                            crawl_id,
                            f.site,
                            f.page_url,
                            f.form_index,
                            f.action_url,
                            f.method,
                            Jsonb(f.fields),
                            f.searchable,
                            f.searchable_score,
                            f.relevant,
                            f.relevance_score,
                            f.site_score,
                            f.form_score,
                            f.probe,
                            f.confirmed,
                            f.probe_url,
                            f.result_records,
                        )
                        for f in forms
                    ],
                )
            self.stats.inc_value("store/forms", len(forms))


class FormOutputPipeline:
    def __init__(self, crawler: Any) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> FormOutputPipeline:
        if not getattr(crawler.spidercls, "forms_output_only", False):
            raise NotConfigured
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        if (
            isinstance(item, FormItem)
            and item.searchable
            and item.relevant
            and item.probe != "pending"
        ):
            return item
        self.stats.inc_value("smart/output_dropped")
        raise DropItem("not a relevant searchable form (stored, not output)", log_level="DEBUG")
