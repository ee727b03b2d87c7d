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
    (
        8,
        "search outbox and index positions (docs/search.md); LSH band keys of the shared "
        "content-seen test (docs/dedup.md)",
        # search_outbox: one row per index operation ('upsert': index the URL's current
        # pages row, 'delete': remove its document), written by the storage pipeline in
        # the transaction that stores the page; ids commit in id order per crawl (an
        # advisory transaction lock, crawler/search/outbox.py), so a reader never sees
        # id n+1 before id n. search_index_positions: the last outbox id applied to one
        # Whoosh index folder, committed after the Whoosh commit. dedup_bands: the LSH
        # band keys (band number folded in) of the pages admitted by the shared
        # content-seen test of a crawl with several agents (crawler/dedup/shared.py).
        """
        CREATE TABLE search_outbox (
            id bigserial PRIMARY KEY,
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            op text NOT NULL CHECK (op IN ('upsert', 'delete')),
            at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX search_outbox_crawl_id ON search_outbox (crawl_id, id);
        CREATE TABLE dedup_bands (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            key bigint NOT NULL,
            url text NOT NULL
        );
        CREATE INDEX dedup_bands_key ON dedup_bands (crawl_id, key);
        CREATE INDEX dedup_bands_url ON dedup_bands (crawl_id, url);
        CREATE TABLE search_index_positions (
            index_key text NOT NULL,
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            position bigint NOT NULL DEFAULT 0,
            updated_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (index_key, crawl_id)
        );
        """,
    ),
    (
        9,
        "forms seen by the smart (deep-web) crawler",
        # One row per form of a page (crawler.pipelines.forms, docs/deepweb.md).
        """
        CREATE TABLE forms (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            site text NOT NULL,
            page_url text NOT NULL,
            form_index integer NOT NULL,
            action_url text NOT NULL,
            method text NOT NULL,
            fields jsonb NOT NULL DEFAULT '[]',
            searchable boolean NOT NULL,
            searchable_score double precision NOT NULL,
            relevant boolean NOT NULL,
            relevance_score double precision NOT NULL,
            found_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (crawl_id, page_url, form_index)
        );
        CREATE INDEX forms_relevant ON forms (crawl_id, site) WHERE relevant;
        """,
    ),
    (
        11,
        "incremental crawler: revisit schedule, change history, collection removals",
        # docs/incremental.md. revisit_schedule is the survey's CollUrls: one row per
        # collected page with its validators (ETag, Last-Modified), text digests, rate
        # estimate (loglik: float64 log-likelihood over the estimator's rate grid) and next
        # due time; claimed_until leases a row to one agent (claims use SKIP LOCKED).
        """
        ALTER TABLE pages ADD COLUMN IF NOT EXISTS etag text,
            ADD COLUMN IF NOT EXISTS removed_at timestamptz;
        CREATE TABLE revisit_schedule (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            host text NOT NULL,
            state text NOT NULL DEFAULT 'active',
            importance double precision NOT NULL DEFAULT 0,
            rate double precision,
            rate_low double precision,
            rate_high double precision,
            interval_seconds double precision,
            next_due timestamptz NOT NULL,
            claimed_until timestamptz,
            etag text,
            last_modified timestamptz,
            digest text,
            core_digest text,
            size integer,
            last_fetched_at timestamptz NOT NULL,
            last_changed_at timestamptz,
            visits integer NOT NULL DEFAULT 0,
            changes integer NOT NULL DEFAULT 0,
            not_modified integer NOT NULL DEFAULT 0,
            loglik bytea,
            PRIMARY KEY (crawl_id, url)
        );
        CREATE INDEX revisit_schedule_due ON revisit_schedule (crawl_id, next_due)
            WHERE state = 'active';
        CREATE INDEX revisit_schedule_importance ON revisit_schedule (crawl_id, importance)
            WHERE state = 'active';
        CREATE TABLE page_changes (
            id bigserial PRIMARY KEY,
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            fetched_at timestamptz NOT NULL,
            status integer NOT NULL,
            outcome text NOT NULL,
            changed boolean NOT NULL,
            digest text,
            interval_seconds double precision,
            last_modified timestamptz,
            bytes integer NOT NULL DEFAULT 0
        );
        CREATE INDEX page_changes_url ON page_changes (crawl_id, url, fetched_at);
        CREATE INDEX page_changes_at ON page_changes (crawl_id, fetched_at);
        CREATE TABLE collection_removals (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            url text NOT NULL,
            removed_at timestamptz NOT NULL DEFAULT now(),
            reason text NOT NULL,
            importance double precision,
            replaced_by text
        );
        CREATE INDEX collection_removals_crawl ON collection_removals (crawl_id, removed_at);
        """,
    ),
    (
        12,
        "crawl hygiene: robots verdicts and URL-parameter rules per crawl (docs/politeness.md)",
        # robots_verdicts: the last robots.txt verdict per origin (scheme://host:port) of a
        # crawl, so that a resumed crawl or another agent does not ask again before
        # expires_at; body is the parsed part of a 2xx file; dead_scope 'host' makes every
        # origin of the host name dead. url_parameter_rules: query parameters learned to be
        # irrelevant (path '' = every path of the host), with why and when; undone rules
        # stay, with undone_at and why.
        """
        CREATE TABLE IF NOT EXISTS robots_verdicts (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            origin text NOT NULL,
            host text NOT NULL,
            state text NOT NULL,
            status integer,
            reason text NOT NULL DEFAULT '',
            refusal_category text NOT NULL,
            dead_scope text NOT NULL DEFAULT '',
            stale boolean NOT NULL DEFAULT false,
            body bytea NOT NULL DEFAULT '',
            fetched_at timestamptz NOT NULL,
            expires_at timestamptz NOT NULL,
            PRIMARY KEY (crawl_id, origin)
        );
        CREATE INDEX IF NOT EXISTS robots_verdicts_dead_hosts
            ON robots_verdicts (crawl_id, host) WHERE dead_scope = 'host';
        CREATE TABLE IF NOT EXISTS url_parameter_rules (
            crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
            host text NOT NULL,
            path text NOT NULL,
            parameter text NOT NULL,
            active boolean NOT NULL,
            evidence text NOT NULL,
            learned_at timestamptz NOT NULL DEFAULT now(),
            undone_at timestamptz,
            undone_because text,
            PRIMARY KEY (crawl_id, host, path, parameter)
        );
        """,
    ),
    (
        13,
        "frontier_queued_host covers only the rows of crawls shared by agents (docs/frontier.md)",
        # Only agents look queued rows up by host (claims of owned hosts, the unowned-host
        # scan). For a one-process crawl the index was pure write cost: one more insert
        # per queued row, one page per host kept hot, and on a frontier larger than
        # shared buffers many page reads (docs/performance.md). frontier.shared marks the
        # rows of a crawl agents have joined; frontier_crawls.shared says every row of
        # that crawl is marked (the first agent to open the crawl marks the rest,
        # crawler/frontier/postgres_store.py).
        """
        ALTER TABLE frontier ADD COLUMN shared boolean NOT NULL DEFAULT false;
        ALTER TABLE frontier_crawls ADD COLUMN shared boolean NOT NULL DEFAULT false;
        DROP INDEX frontier_queued_host;
        CREATE INDEX frontier_queued_host ON frontier (crawl, host)
            WHERE state = 0 AND shared;
        """,
    ),
    (
        14,
        "page content model: main content, headings, language (docs/search.md)",
        # Written by the storage pipeline with the page (crawler/content.py), so that
        # `scrapy reindex` builds the index's body, snippets and headings without a
        # refetch. main_text NULL: a page stored before this migration (the index then
        # uses its whole visible text); headings: one per line; lang '': unknown.
        """
        ALTER TABLE pages ADD COLUMN main_text text,
            ADD COLUMN headings text NOT NULL DEFAULT '',
            ADD COLUMN lang text NOT NULL DEFAULT '';
        """,
    ),
    (
        16,
        "forms: the evidence of a form's relevance and its probe's outcome (docs/deepweb.md)",
        # relevance_score is now the weighted evidence of crawler/deepweb/relevance.py;
        # site_score and form_score are two of its parts. probe: '' not probed, 'pending'
        # while a probe is out, else its outcome; confirmed: the result page listed
        # records (NULL: not probed or no answer).
        """
        ALTER TABLE forms ADD COLUMN IF NOT EXISTS site_score double precision NOT NULL
                DEFAULT 0,
            ADD COLUMN IF NOT EXISTS form_score double precision NOT NULL DEFAULT 0,
            ADD COLUMN IF NOT EXISTS probe text NOT NULL DEFAULT '',
            ADD COLUMN IF NOT EXISTS confirmed boolean,
            ADD COLUMN IF NOT EXISTS probe_url text NOT NULL DEFAULT '',
            ADD COLUMN IF NOT EXISTS result_records integer NOT NULL DEFAULT 0;
        CREATE INDEX IF NOT EXISTS forms_confirmed ON forms (crawl_id, site) WHERE confirmed;
        """,
    ),
    (
        20,
        "crawl control: the actions of a crawl's history; out_of_scope is a weak category",
        # One row per action given to a crawl (scrapy control, the crawl's page of scrapy
        # serve), with its time and source: the crawl's history, written and read by
        # crawler/control/store.py only. Running processes poll it by id; add-seeds is
        # applied once (applied_at/applied_by, claimed by the first process to see it).
        # out_of_scope (crawler/scope) joins the weak categories of migration 5.
        """
        CREATE TABLE crawl_control (
            id bigserial PRIMARY KEY,
            crawl_id text NOT NULL,
            action text NOT NULL,
            argument jsonb,
            source text NOT NULL DEFAULT '',
            at timestamptz NOT NULL DEFAULT now(),
            applied_at timestamptz,
            applied_by text
        );
        CREATE INDEX crawl_control_crawl ON crawl_control (crawl_id, id);
        DROP TRIGGER uncrawled_weak_categories ON uncrawled;
        CREATE TRIGGER uncrawled_weak_categories BEFORE INSERT ON uncrawled
            FOR EACH ROW WHEN (NEW.category IN ('depth_exceeded', 'trap', 'out_of_scope'))
            EXECUTE FUNCTION uncrawled_skip_weak_rows();
        """,
    ),
    (
        24,
        "work-aware host lending between agents (docs/distributed.md)",
        # agents.need: hosts with work an agent could still keep busy (it borrows them
        # from agents with more than they can serve); host_owners.lent_to: the agent a
        # host is lent to (only it may claim the host while it is live, and it keeps it
        # against the rendezvous assignment until it gives it back).
        """
        ALTER TABLE agents ADD COLUMN IF NOT EXISTS need integer NOT NULL DEFAULT 0;
        ALTER TABLE host_owners ADD COLUMN IF NOT EXISTS lent_to text;
        """,
    ),
    (
        25,
        "politeness per server across agents: the politeness key a host is held under",
        # host_owners.server: the politeness key the host's owner holds it under (its
        # address with POLITENESS_KEY=ip, else the host name). An agent claims a host only
        # while no other live agent holds (or is lent) a host of the same server, under an
        # advisory lock of that server (crawler/agents/membership.py); so the hosts of one
        # address are fetched by one agent at a time.
        """
        ALTER TABLE host_owners ADD COLUMN IF NOT EXISTS server text;
        CREATE INDEX IF NOT EXISTS host_owners_server ON host_owners (crawl, server)
            WHERE server IS NOT NULL;
        """,
    ),
    (
        26,
        "pages.names: the names a page defines (docs/search.md, tenth round)",
        # Its definition-list terms and anchors without a link (crawler.extract.
        # defined_names), one per line, at most extract.MAX_NAMES: indexed with the
        # headings (the heading bonus), kept apart from them so that `scrapy reindex`
        # can bound them (SEARCH_NAMES_PER_PAGE) without a refetch. '': none, or a page
        # stored before this migration.
        """
        ALTER TABLE pages ADD COLUMN IF NOT EXISTS names text NOT NULL DEFAULT '';
        """,
    ),
    (
        27,
        "links.context: the words around a link on its page (docs/search.md, seventeenth round)",
        # crawler.extract.link_context: the text of the link's list item, definition,
        # table row or paragraph around it, without its anchor text, at most
        # CONTEXT_WORDS_BEFORE + CONTEXT_WORDS_AFTER words; indexed as the target's
        # in-link context (crawler.search.fields.inlink_context_text). '': none, or a link
        # stored before this migration (a recrawl fills it).
        """
        ALTER TABLE links ADD COLUMN IF NOT EXISTS context text NOT NULL DEFAULT '';
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
            # one INFO line for all of them comes from the caller (CrawlDatabase.prepare)
            logger.debug("applying schema migration %d: %s", number, description)
            conn.execute(sql)
            conn.execute(
                "INSERT INTO schema_version (version, description) VALUES (%s, %s)",
                (number, description),
            )
            applied += 1
    return applied
