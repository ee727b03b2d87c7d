"""Full-text search over crawled pages: Whoosh index, query language, ranking (no Scrapy).

The names below are loaded on first use: a crawl imports only the modules its pipelines
need (the outbox, the indexer's handle), not the search engine, its ranking and query
compiler, which cost a crawl's start about 0.1-0.2 s of CPU (docs/performance.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crawler.search.engine import SearchEngine, SearchHit, SearchResults
    from crawler.search.index import (
        IndexWriter,
        SearchIndexError,
        index_path,
        open_index,
        rebuild_index,
        update_pagerank,
    )
    from crawler.search.query import QueryCompiler, QuerySyntaxError, advanced_query
    from crawler.search.schema import build_schema, page_document

_HOMES = {
    "SearchEngine": "crawler.search.engine",
    "SearchHit": "crawler.search.engine",
    "SearchResults": "crawler.search.engine",
    "IndexWriter": "crawler.search.index",
    "SearchIndexError": "crawler.search.index",
    "index_path": "crawler.search.index",
    "open_index": "crawler.search.index",
    "rebuild_index": "crawler.search.index",
    "update_pagerank": "crawler.search.index",
    "QueryCompiler": "crawler.search.query",
    "QuerySyntaxError": "crawler.search.query",
    "advanced_query": "crawler.search.query",
    "build_schema": "crawler.search.schema",
    "page_document": "crawler.search.schema",
}

__all__ = [
    "IndexWriter",
    "QueryCompiler",
    "QuerySyntaxError",
    "SearchEngine",
    "SearchHit",
    "SearchIndexError",
    "SearchResults",
    "advanced_query",
    "build_schema",
    "index_path",
    "open_index",
    "page_document",
    "rebuild_index",
    "update_pagerank",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
