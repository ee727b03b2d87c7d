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
    (
        2,
        "best-first frontier and crawl statistics (docs/frontier.md)",
        # frontier rows use a compact integer crawl key and no foreign key (a check per
        # row would cost a quarter of the insert rate); deleting a crawl still cascades
        # through frontier_crawls to its rows (triggers below). crawl_stats rows are
        # written by several extensions (frontier stats here, harvest rate: migration 6),
        # each filling its own columns, hence no NOT NULL on them.
        """
        CREATE TABLE frontier_crawls (
            crawl_id text PRIMARY KEY,
            key serial UNIQUE,
            scoring text NOT NULL,
            clock double precision NOT NULL DEFAULT 0,
            seq bigint NOT NULL DEFAULT 0,
            clean boolean NOT NULL DEFAULT false,
            updated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE frontier (
            crawl integer NOT NULL,
            fp bigint NOT NULL,
            url text NOT NULL,
            host text NOT NULL,
            state smallint NOT NULL,
            priority integer NOT NULL,
            score double precision NOT NULL,
            tiebreak bigint NOT NULL,
            inter boolean NOT NULL,
            depth integer NOT NULL,
            backlinks integer NOT NULL,
            cash double precision NOT NULL,
            link_score double precision NOT NULL,
            attributes double precision NOT NULL,
            extra double precision NOT NULL,
            queued_at double precision NOT NULL,
            done_at double precision,
            result_url text,
            request bytea NOT NULL,
            PRIMARY KEY (crawl, fp)
        );
        CREATE INDEX frontier_next ON frontier (crawl, priority DESC, score DESC, tiebreak)
            WHERE state = 0;
        CREATE INDEX frontier_age ON frontier (crawl, queued_at) WHERE state = 0;
        CREATE FUNCTION frontier_crawl_deleted() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM frontier WHERE crawl = OLD.key;
            RETURN OLD;
        END
        $$;
        CREATE TRIGGER frontier_crawl_deleted AFTER DELETE ON frontier_crawls
            FOR EACH ROW EXECUTE FUNCTION frontier_crawl_deleted();
        CREATE FUNCTION frontier_crawls_of_deleted_crawl() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM frontier_crawls WHERE crawl_id = OLD.id;
            RETURN OLD;
        END
        $$;
        CREATE TRIGGER frontier_crawls_of_deleted_crawl AFTER DELETE ON crawls
            FOR EACH ROW EXECUTE FUNCTION frontier_crawls_of_deleted_crawl();
        CREATE TABLE crawl_stats (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            at timestamptz NOT NULL DEFAULT now(),
            interval_seconds double precision,
            pages integer,
            pages_per_minute double precision,
            queue_size bigint,
            queue_inter bigint,
            queue_intra bigint,
            enqueued integer,
            dequeued integer,
            wait_min double precision,
            wait_avg double precision,
            wait_max double precision,
            evicted integer,
            duplicates integer
        );
        CREATE INDEX crawl_stats_crawl_at ON crawl_stats (crawl_id, at);
        """,
    ),
    (
        3,
        "content-seen test: page fingerprints (docs/dedup.md)",
        # One row per page admitted by the content-seen test (duplicates get none): MD5 of
        # the normalised text, winnowing minutiae (sorted uint64, little-endian bytes) and
        # their MinHash signature (uint32, little-endian). seq keeps the order of
        # admission: the first page with a content is its original. IF NOT EXISTS: a
        # database already past version 3 when this migration appeared can apply it late.
        """
        CREATE TABLE IF NOT EXISTS page_fingerprints (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            seq bigint GENERATED BY DEFAULT AS IDENTITY,
            scheme text NOT NULL,
            exact_digest text NOT NULL,
            minutiae bytea NOT NULL,
            signature bytea NOT NULL,
            fingerprinted_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (crawl_id, url)
        );
        CREATE INDEX IF NOT EXISTS page_fingerprints_digest
            ON page_fingerprints (crawl_id, exact_digest);
        CREATE INDEX IF NOT EXISTS page_fingerprints_seq ON page_fingerprints (crawl_id, seq);
        """,
    ),
    (
        4,
        "pagerank scores (scrapy pagerank)",
        """
        CREATE TABLE pagerank (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            score double precision NOT NULL,
            computed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (crawl_id, url)
        );
        CREATE INDEX pagerank_score ON pagerank (crawl_id, score DESC);
        """,
    ),
    (
        5,
        "weak uncrawled categories (depth_exceeded, trap)",
        # A URL refused by the depth threshold or a trap defence is recorded only if
        # nothing else is known about it: a row for a URL already stored as a page, or
        # already in `uncrawled` (a real failure, or an earlier refusal), is skipped.
        # Any later row (page or failure) still replaces it. See docs/politeness.md.
        """
        CREATE FUNCTION uncrawled_skip_weak_rows() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM pages WHERE crawl_id = NEW.crawl_id AND url = NEW.url)
               OR EXISTS (SELECT 1 FROM uncrawled
                          WHERE crawl_id = NEW.crawl_id AND url = NEW.url) THEN
                RETURN NULL;
            END IF;
            RETURN NEW;
        END
        $$;
        CREATE TRIGGER uncrawled_weak_categories BEFORE INSERT ON uncrawled
            FOR EACH ROW WHEN (NEW.category IN ('depth_exceeded', 'trap'))
            EXECUTE FUNCTION uncrawled_skip_weak_rows();
        """,
    ),
    (
        6,
        "focused crawl: page weight and relevant flag, harvest rate in crawl_stats",
        # weight/relevant are NULL for pages of unfocused crawls. The harvest rate gets its
        # own crawl_stats rows (harvest_* columns; the frontier's rows leave them NULL).
        # See docs/focused.md.
        """
        ALTER TABLE pages ADD COLUMN weight double precision, ADD COLUMN relevant boolean;
        CREATE INDEX pages_relevant ON pages (crawl_id) WHERE relevant;
        ALTER TABLE crawl_stats
            ADD COLUMN harvest_pages bigint,
            ADD COLUMN harvest_relevant bigint,
            ADD COLUMN harvest_rate double precision,
            ADD COLUMN harvest_interval_pages bigint,
            ADD COLUMN harvest_interval_relevant bigint,
            ADD COLUMN harvest_interval_rate double precision,
            ADD COLUMN harvest_interval_seconds double precision;
        """,
    ),
    (
        7,
        "agents of a distributed crawl and their host leases (docs/distributed.md)",
        # agents: one row per crawler process that joined a crawl; its lease_until (database
        # time, renewed by the heartbeat) is the lease of every host it owns, so a renewal
        # is one row whatever the number of hosts. host_owners: the authority on which
        # agent owns a host; next_fetch_at carries the host's politeness delay over a
        # hand-over.
        # frontier.agent: who leased a row, so only a dead agent's leases are re-queued.
        """
        CREATE TABLE agents (
            crawl_id text NOT NULL,
            agent_id text NOT NULL,
            machine text NOT NULL,
            pid integer NOT NULL,
            capacity double precision NOT NULL DEFAULT 1,
            state text NOT NULL DEFAULT 'running',
            started_at timestamptz NOT NULL DEFAULT now(),
            heartbeat_at timestamptz NOT NULL DEFAULT now(),
            lease_until timestamptz NOT NULL DEFAULT now(),
            pages bigint NOT NULL DEFAULT 0,
            pages_per_second double precision NOT NULL DEFAULT 0,
            idle boolean NOT NULL DEFAULT false,
            finish_reason text,
            PRIMARY KEY (crawl_id, agent_id)
        );
        CREATE TABLE host_owners (
            crawl integer NOT NULL,
            host text NOT NULL,
            agent_id text,
            epoch bigint NOT NULL DEFAULT 1,
            next_fetch_at timestamptz,
            PRIMARY KEY (crawl, host)
        );
        CREATE INDEX host_owners_agent ON host_owners (crawl, agent_id);
        ALTER TABLE frontier ADD COLUMN agent text;
        CREATE INDEX frontier_leased ON frontier (crawl, agent) WHERE state = 1;
        CREATE INDEX frontier_queued_host ON frontier (crawl, host) WHERE state = 0;
        ALTER TABLE frontier_crawls ADD COLUMN seeded_at timestamptz;
        ALTER TABLE frontier_crawls ADD COLUMN finished_reason text;
        """,
    ),
]

SCHEMA_VERSION = max(number for number, _, _ in MIGRATIONS)


def applied_versions(conn: psycopg.Connection) -> set[int]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version integer PRIMARY KEY, description text NOT NULL,"
        " applied_at timestamptz NOT NULL DEFAULT now())"
    )
    return {row[0] for row in conn.execute("SELECT version FROM schema_version")}


def migrate(conn: psycopg.Connection) -> int:
    """Apply every migration not applied yet, in order; return how many were applied.

    Missing versions are applied even below the highest applied one, so a database
    migrated by a branch that lacked a migration still gets it.
    """
    applied = 0
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        done = applied_versions(conn)
        if done and max(done) > SCHEMA_VERSION:
            raise RuntimeError(
                f"database schema version {max(done)} is newer than this crawler's "
                f"({SCHEMA_VERSION}); upgrade the crawler"
            )
        for number, description, sql in sorted(MIGRATIONS):
            if number in done:
                continue
            logger.info("applying schema migration %d: %s", number, description)
            conn.execute(sql)
            conn.execute(
                "INSERT INTO schema_version (version, description) VALUES (%s, %s)",
                (number, description),
            )
            applied += 1
    return applied
