"""Reverse searching: pages that link to known deep-web sites lead to more of them.

The paper asks a search engine for pages linking to a known deep-web site ("center
pages") and takes the other sites those pages link to. Here the project's own ``links``
table, of this crawl and earlier ones, is the search engine: the pages with a link into a
known deep-web site, and their links to other sites, with anchor texts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from crawler import defaults

# Pages linking into one of the known sites (any crawl), then every link of those pages.
_SQL = """
WITH centers AS (
    SELECT DISTINCT source_url FROM links
    WHERE substring(target_url from '^[a-z]+://([^/?#]*)') = ANY(%(sites)s)
    LIMIT %(pages)s
)
SELECT l.source_url, l.target_url, min(l.anchor_text)
FROM links l JOIN centers c ON l.source_url = c.source_url
WHERE substring(l.target_url from '^[a-z]+://([^/?#]*)') <> ALL(%(sites)s)
GROUP BY l.source_url, l.target_url
ORDER BY l.source_url, l.target_url
LIMIT %(links)s
"""


@dataclass(frozen=True)
class ReverseLink:
    center: str  # the page that links to a known deep-web site
    url: str  # another link of that page
    anchor: str


def reverse_search(
    conn: Any,
    sites: Iterable[str],
    *,
    max_pages: int = defaults.SMART_REVERSE_MAX_PAGES,
    max_links: int = defaults.SMART_REVERSE_MAX_LINKS,
) -> list[ReverseLink]:
    """Links of the pages (at most ``max_pages``) that link to one of ``sites`` (hosts),
    other than those into ``sites`` themselves; a psycopg connection."""
    sites = sorted({s.lower() for s in sites})
    if not sites:
        return []
    rows = conn.execute(_SQL, {"sites": sites, "pages": max_pages, "links": max_links})
    return [ReverseLink(center, url, anchor or "") for center, url, anchor in rows]
