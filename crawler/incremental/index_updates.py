"""The incremental crawler's one door to the search index.

Changed pages are re-indexed by the ordinary pipeline (a PageItem reaching
SearchIndexPipeline replaces the page's document); what the pipeline cannot do is take
a page out. :func:`remove_from_search_index` does, through the current indexing API (the
Whoosh index in SEARCH_INDEX_DIR). When the indexing outbox lands, re-point this one
function at its delete operation.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from crawler.search.index import open_index


def remove_from_search_index(index_dir: str | Path, urls: Iterable[str],
                             writer_timeout: float = 30.0) -> int:
    """Delete the documents of ``urls`` from the index; returns how many were deleted."""
    urls = list(urls)
    if not urls or not Path(index_dir).exists():
        return 0
    ix = open_index(index_dir, create=False)
    try:
        writer = ix.writer(timeout=writer_timeout, delay=0.05)
        try:
            deleted = sum(writer.delete_by_term("url", url) for url in urls)
        except BaseException:
            writer.cancel()
            raise
        writer.commit()
        return deleted
    finally:
        ix.close()
