"""Full-text search over crawled pages: Whoosh index, query language, ranking (no Scrapy)."""

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
