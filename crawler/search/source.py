"""Index documents from the pages stored in PostgreSQL (for `scrapy reindex`).

Rows are streamed through a server-side cursor, so a large crawl is never held in
memory. The PageRank of each page comes from the ``pagerank`` table when
`scrapy pagerank` has run for the crawl; the anchor texts of its out-links (for the hub
and anchor-text signals, crawler.search.fields) from the ``links`` table.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg

from crawler import defaults
from crawler.search.schema import page_document

_COLUMNS = """
    p.crawl_id, p.url, p.title, p.text, p.host, p.content_type, p.fetched_at,
    p.last_modified, p.depth, coalesce(r.score, 0),
    ARRAY(SELECT l.anchor_text FROM links l
          WHERE l.crawl_id = p.crawl_id AND l.source_url = p.url AND l.anchor_text <> '')
"""


def iter_page_documents(
    conn: psycopg.Connection,
    crawl_id: str | None,
    *,
    max_body_chars: int = defaults.SEARCH_MAX_BODY_CHARS,
    itersize: int = 500,
) -> Iterator[dict[str, Any]]:
    """Documents of the pages of ``crawl_id``, or of every crawl when None.

    With every crawl, a URL stored by several crawls yields one document, from the crawl
    that fetched it last.
    """
    if crawl_id is not None:
        sql = (
            f"SELECT {_COLUMNS} FROM pages p"
            " LEFT JOIN pagerank r ON r.crawl_id = p.crawl_id AND r.url = p.url"
            " WHERE p.crawl_id = %s ORDER BY p.id"
        )
        params: tuple[Any, ...] = (crawl_id,)
    else:
        sql = (
            f"SELECT DISTINCT ON (p.url) {_COLUMNS} FROM pages p"
            " LEFT JOIN pagerank r ON r.crawl_id = p.crawl_id AND r.url = p.url"
            " ORDER BY p.url, p.fetched_at DESC"
        )
        params = ()
    with conn.transaction(), conn.cursor(name="reindex_pages") as cur:
        cur.itersize = itersize
        cur.execute(sql, params)
        for (crawl, url, title, text, host, ctype, fetched, modified, depth, score,
             anchors) in cur:
            yield page_document(
                url=url,
                title=title,
                text=text,
                host=host,
                content_type=ctype,
                fetched_at=fetched,
                last_modified=modified,
                depth=depth,
                crawl_id=crawl,
                pagerank=float(score),
                max_body_chars=max_body_chars,
                anchors=anchors,
            )
