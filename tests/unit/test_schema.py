import uuid

import psycopg
import pytest
from psycopg import sql

from crawler.storage.database import CrawlDatabase, DatabaseUnavailable, mask_password
from crawler.storage.schema import MIGRATIONS, SCHEMA_VERSION, migrate


@pytest.fixture
def fresh_url(server_url):
    name = f"crawler_schema_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield psycopg.conninfo.make_conninfo(server_url, dbname=name)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def test_migrations_apply_once_and_fill_gaps(fresh_url):
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        assert migrate(conn) == len(MIGRATIONS)
        assert migrate(conn) == 0
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert versions == sorted(n for n, _, _ in MIGRATIONS)
        assert versions[-1] == SCHEMA_VERSION
        tables = {r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert {"crawls", "pages", "links", "uncrawled", "schema_version"} <= tables


def test_newer_schema_is_refused(fresh_url):
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        migrate(conn)
        conn.execute("INSERT INTO schema_version VALUES (%s, 'future')", (SCHEMA_VERSION + 1,))
        with pytest.raises(RuntimeError, match="newer than this crawler"):
            migrate(conn)


def test_unreachable_database_message_masks_password():
    url = "postgresql://bob:s3cret@127.0.0.1:1/nowhere"
    db = CrawlDatabase.from_settings({"CRAWLER_DATABASE_URL": url})
    with pytest.raises(DatabaseUnavailable) as info:
        db.prepare(timeout=2)
    message = str(info.value)
    assert message.startswith("cannot connect to PostgreSQL at postgresql://bob:***@127.0.0.1:1/")
    assert "s3cret" not in message
    assert mask_password("postgresql://u@h/db") == "postgresql://u@h/db"


def test_preparing_on_a_thread_migrates_before_prepare_returns(fresh_url):
    db = CrawlDatabase(url=fresh_url)
    db.start_preparing()
    db.start_preparing()  # a second call while it runs changes nothing
    db.prepare()
    assert db.prepared
    with psycopg.connect(fresh_url) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (
            SCHEMA_VERSION,
        )
    db.start_preparing()  # once prepared: nothing to do
    db.prepare()


def test_a_failure_on_the_preparing_thread_is_raised_by_prepare():
    db = CrawlDatabase(url="postgresql://bob:s3cret@127.0.0.1:1/nowhere")
    db.start_preparing(timeout=2)
    with pytest.raises(DatabaseUnavailable, match=r"^cannot connect to PostgreSQL at "):
        db.prepare(timeout=2)
    assert not db.prepared
    with pytest.raises(DatabaseUnavailable):  # and again on the next call, in this thread
        db.prepare(timeout=2)


def test_migration_27_gives_the_links_of_an_old_database_an_empty_context(fresh_url):
    """A database of schema 26 (links without context) keeps its links, each with ''
    (docs/search.md, seventeenth round: a recrawl fills them)."""
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        migrate(conn)
        conn.execute("ALTER TABLE links DROP COLUMN context")
        conn.execute("DELETE FROM schema_version WHERE version = 27")
        conn.execute("INSERT INTO crawls (id, spider) VALUES ('old', 'general')")
        conn.execute(
            "INSERT INTO links (crawl_id, source_url, target_url, anchor_text) "
            "VALUES ('old', 'http://h.test/a', 'http://h.test/b', 'b')"
        )
        assert migrate(conn) == 1
        assert conn.execute("SELECT anchor_text, context FROM links").fetchall() == [("b", "")]
