"""Helpers of the benchmarks that need a database of their own and real page texts.

``scratch_database``: a database created on CRAWLER_TEST_DATABASE_URL's server, migrated,
dropped at the end. ``debian_doc_texts``: (url, title, text) of the Debian documentation
pages (Python 3.11, PostgreSQL 15, Django), text from their HTML with w3lib.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from crawler.sandbox.corpora import DEBIAN_DOC_SITES  # noqa: E402
from crawler.storage.database import CrawlDatabase  # noqa: E402


@contextmanager
def empty_database(prefix: str) -> Iterator[str]:
    """The URL of a new, empty database, dropped at the end (exits with an error line
    without a server). Crawls migrate it themselves, each with its own code's schema."""
    server = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not server:
        sys.exit("error: set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield psycopg.conninfo.make_conninfo(server, dbname=name)
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


@contextmanager
def scratch_database(prefix: str) -> Iterator[str]:
    """The URL of a new, migrated database (exits with an error line without a server)."""
    with empty_database(prefix) as url:
        CrawlDatabase(url=url).prepare()
        yield url


def debian_doc_texts(limit: int) -> list[tuple[str, str, str]]:
    """(url, title, text) of up to ``limit`` documentation pages, in a fixed order."""
    from w3lib.html import remove_tags, remove_tags_with_content, replace_entities

    pages = []
    for host, folder in DEBIAN_DOC_SITES.items():
        for path in sorted(Path(folder).rglob("*.html")):
            html = path.read_text(errors="replace")
            title = ""
            if "<title>" in html:
                title = html.split("<title>", 1)[1].split("</title>", 1)[0].strip()
            text = replace_entities(remove_tags(remove_tags_with_content(
                html, ("script", "style", "head"))))
            pages.append((f"http://{host}/{path.relative_to(folder)}", title,
                          " ".join(text.split())))
            if len(pages) >= limit:
                return pages
    return pages
