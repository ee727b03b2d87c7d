"""Keeps a focused crawl's output items (``-o``, feed exports) to the relevant pages.

Placed after storage and indexing (ITEM_PIPELINES order 1000): every page is still
stored in PostgreSQL with its weight and relevant flag, then irrelevant PageItems and
UncrawledItems are dropped here, so feed exports, which only see items that pass every
pipeline, get the relevant pages alone. Active only for spiders whose class sets
``relevant_output_only = True`` (the ``focused`` spider).
"""

from __future__ import annotations

from typing import Any

from scrapy.exceptions import DropItem, NotConfigured

from crawler.items import PageItem, UncrawledItem


class RelevantOutputPipeline:
    def __init__(self, crawler: Any) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> RelevantOutputPipeline:
        if not getattr(crawler.spidercls, "relevant_output_only", False):
            raise NotConfigured  # no message: Scrapy then says nothing (not a focused spider)
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem) and not item.relevant:
            self.stats.inc_value("focus/output_dropped/irrelevant")
            raise DropItem("irrelevant page (stored, not output)", log_level="DEBUG")
        if isinstance(item, UncrawledItem):
            self.stats.inc_value("focus/output_dropped/uncrawled")
            raise DropItem("uncrawled URL (stored, not output)", log_level="DEBUG")
        return item
