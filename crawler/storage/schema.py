"""The versioned database schema, created and migrated by the project itself.

Each migration is applied once, in order, in its own transaction, under an advisory
lock so that several crawler processes starting together do not race.
"""

from __future__ import annotations

import logging

import psycopg

logger = logging.getLogger(__name__)

# Arbitrary constant identifying this project's migration lock.
_MIGRATION_LOCK = 0x63726177  # "craw"

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "crawls, pages, links, uncrawled",
        """
        CREATE TABLE crawls (
            id text PRIMARY KEY,
            spider text NOT NULL,
            arguments jsonb NOT NULL DEFAULT '{}',
            started_at timestamptz NOT NULL DEFAULT now(),
            finished_at timestamptz,
            finish_reason text,
            stats jsonb
        );
        CREATE TABLE pages (
            id bigserial PRIMARY KEY,
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            final_url text NOT NULL,
            host text NOT NULL,
            status integer NOT NULL,
            content_type text NOT NULL DEFAULT '',
            fetched_at timestamptz NOT NULL,
            last_modified timestamptz,
            depth integer NOT NULL,
            title text NOT NULL DEFAULT '',
            text text NOT NULL DEFAULT '',
            content_md5 text NOT NULL,
            size integer NOT NULL,
            UNIQUE (crawl_id, url)
        );
        CREATE INDEX pages_host ON pages (crawl_id, host);
        CREATE TABLE links (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            source_url text NOT NULL,
            target_url text NOT NULL,
            anchor_text text NOT NULL DEFAULT '',
            visibility smallint NOT NULL DEFAULT 1,
            position smallint NOT NULL DEFAULT 1,
            distance smallint NOT NULL DEFAULT 1,
            PRIMARY KEY (crawl_id, source_url, target_url)
        );
        CREATE INDEX links_target ON links (crawl_id, target_url);
        CREATE TABLE uncrawled (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            category text NOT NULL,
            detail text NOT NULL DEFAULT '',
            at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (crawl_id, url)
        );
        CREATE INDEX uncrawled_category ON uncrawled (crawl_id, category);
        """,
    ),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]


def current_version(conn: psycopg.Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version integer PRIMARY KEY, description text NOT NULL,"
        " applied_at timestamptz NOT NULL DEFAULT now())"
    )
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: psycopg.Connection) -> int:
    """Bring the schema to SCHEMA_VERSION; return the number of migrations applied."""
    applied = 0
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"database schema version {version} is newer than this crawler's "
                f"({SCHEMA_VERSION}); upgrade the crawler"
            )
        for number, description, sql in MIGRATIONS:
            if number <= version:
                continue
            logger.info("applying schema migration %d: %s", number, description)
            conn.execute(sql)
            conn.execute(
                "INSERT INTO schema_version (version, description) VALUES (%s, %s)",
                (number, description),
            )
            applied += 1
    return applied
