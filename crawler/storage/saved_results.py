"""Was a URL's result saved? The frontier's questions to the item pipeline's tables.

The item pipeline (crawler/pipelines/postgres.py) saves a fetched page as a ``pages`` row
and a URL it gave up on as an ``uncrawled`` row, in batches of its own; the frontier
writes its rows separately. After a crash (or an agent's death) the frontier asks these
tables what became of the URLs it had leased or acked: this module is the one place that
reads them for it.

Each question is an SQL condition over a URL expression; the query passes the parameters
``%(crawl_id)s`` and ``%(not_fetched)s`` (:func:`params`).
"""

from __future__ import annotations

from crawler.items import NOT_FETCHED_CATEGORIES


def params(crawl_id: str) -> dict[str, object]:
    """The parameters the conditions below use."""
    return {"crawl_id": crawl_id, "not_fetched": sorted(NOT_FETCHED_CATEGORIES)}


def failure_saved(url: str) -> str:
    """The URL's fetch failed and its failure row was saved: an ``uncrawled`` row of a
    fetch (not a depth or trap refusal, recorded without fetching, nor an eviction). A
    failure has no links, so nothing of it is missing once that row is saved;
    a saved page says nothing of its links, which the frontier writes separately."""
    return f"""EXISTS (SELECT 1 FROM uncrawled u WHERE u.crawl_id = %(crawl_id)s
                       AND u.url = {url} AND u.category <> ALL(%(not_fetched)s))"""


def unsaved(url: str) -> str:
    """Nothing about the URL's fetch reached the database: no page and no ``uncrawled``
    row but refusals and evictions (which :func:`failure_saved` does not count either).
    An acked URL whose result is unsaved is fetched again."""
    # two NOT EXISTS (not NOT (a OR b)): PostgreSQL plans each as an anti-join
    return f"""(NOT EXISTS (SELECT 1 FROM pages p WHERE p.crawl_id = %(crawl_id)s
                            AND p.url = {url})
                AND NOT {failure_saved(url)})"""


def failed_urls() -> str:
    """A query of every URL of the crawl whose fetch failed and was saved (as
    :func:`failure_saved`)."""
    return """SELECT url FROM uncrawled WHERE crawl_id = %(crawl_id)s
              AND category <> ALL(%(not_fetched)s)"""


def page_urls() -> str:
    """A query of every URL of the crawl with a saved page."""
    return "SELECT url FROM pages WHERE crawl_id = %(crawl_id)s"
