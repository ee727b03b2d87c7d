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
from crawler.search.fields import inlink_anchor_text, inlink_context_text
from crawler.search.schema import page_document

_COLUMNS = """
    p.crawl_id, p.url, p.title, p.text, p.host, p.content_type, p.fetched_at,
    p.last_modified, p.depth, coalesce(r.score, 0),
    ARRAY(SELECT l.anchor_text FROM links l
          WHERE l.crawl_id = p.crawl_id AND l.source_url = p.url AND l.anchor_text <> ''),
    p.main_text, p.headings, p.lang, p.names,
    ARRAY(SELECT ARRAY[l.source_url, l.anchor_text] FROM links l
          WHERE l.crawl_id = p.crawl_id AND l.target_url = p.url AND l.anchor_text <> ''
            AND l.source_url <> p.url
          LIMIT %s),
    ARRAY(SELECT ARRAY[l.source_url, l.context] FROM links l
          WHERE l.crawl_id = p.crawl_id AND l.target_url = p.url AND l.context <> ''
            AND l.source_url <> p.url
          ORDER BY l.source_url LIMIT %s)
"""
#: In-links read per page for its anchor text (a site's home page has one from every
#: page; the anchor text is capped per source host anyway).
MAX_INLINKS = 2000


def iter_page_documents(
    conn: psycopg.Connection,
    crawl_id: str | None,
    *,
    max_body_chars: int = defaults.SEARCH_MAX_BODY_CHARS,
    max_names: int = defaults.SEARCH_NAMES_PER_PAGE,
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
            " WHERE p.crawl_id = %s AND p.removed_at IS NULL ORDER BY p.id"
        )
        params: tuple[Any, ...] = (MAX_INLINKS, MAX_INLINKS, crawl_id)
    else:
        sql = (
            f"SELECT DISTINCT ON (p.url) {_COLUMNS} FROM pages p"
            " LEFT JOIN pagerank r ON r.crawl_id = p.crawl_id AND r.url = p.url"
            " WHERE p.removed_at IS NULL ORDER BY p.url, p.fetched_at DESC"
        )
        params = (MAX_INLINKS, MAX_INLINKS)
    with conn.transaction(), conn.cursor(name="reindex_pages") as cur:
        cur.itersize = itersize
        cur.execute(sql, params)
        for row in cur:
            yield _document(row, max_body_chars, max_names)


def latest_page_documents(
    conn: psycopg.Connection,
    crawl_ids: list[str],
    urls: list[str],
    *,
    max_body_chars: int = defaults.SEARCH_MAX_BODY_CHARS,
    max_names: int = defaults.SEARCH_NAMES_PER_PAGE,
) -> dict[str, dict[str, Any]]:
    """Documents of these URLs from the current ``pages`` rows of any of ``crawl_ids``,
    each from the crawl that fetched it last (as `scrapy reindex` of every crawl does);
    URLs that none of them stores are missing from the result."""
    if not urls or not crawl_ids:
        return {}
    rows = conn.execute(
        f"SELECT DISTINCT ON (p.url) {_COLUMNS} FROM pages p"
        " LEFT JOIN pagerank r ON r.crawl_id = p.crawl_id AND r.url = p.url"
        " WHERE p.crawl_id = ANY(%b::text[]) AND p.url = ANY(%b::text[])"
        " AND p.removed_at IS NULL ORDER BY p.url, p.fetched_at DESC",
        (MAX_INLINKS, MAX_INLINKS, crawl_ids, urls),
    ).fetchall()
    return {row[1]: _document(row, max_body_chars, max_names) for row in rows}


def _document(row: tuple[Any, ...], max_body_chars: int, max_names: int) -> dict[str, Any]:
    (
        crawl,
        url,
        title,
        text,
        host,
        ctype,
        fetched,
        modified,
        depth,
        score,
        anchors,
        main_text,
        headings,
        lang,
        names,
        inlinks,
        contexts,
    ) = row
    return page_document(
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
        main_text=main_text,
        headings=headings,
        names=names,
        max_names=max_names,
        lang=lang,
        inlinks=inlink_anchor_text(((s, a) for s, a in inlinks), host),
        context=inlink_context_text(((s, c) for s, c in contexts), host),
    )
