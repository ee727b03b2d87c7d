"""The frontier store in the crawl's PostgreSQL database (tables of schema migration 2).

``frontier_crawls`` has one row per crawl (its compact integer key, crawl clock,
sequence number, scoring formula and whether the last run stopped cleanly); ``frontier``
has one row per URL ever queued in the crawl, keyed by ``(crawl, fp)``: fp is the 64-bit
fingerprint of the canonical URL. Two partial indexes serve the queue: the best queued
rows first (refill) and the oldest (max-wait eviction).

All writes of a flush go in one transaction on one connection: new rows by binary COPY,
then link-event updates (score recomputed in SQL), acks, releases, evictions, and the
crawl clock. The session holds an advisory lock on the crawl for its whole life, so one
process at a time runs a crawl id, and the leases of a process that is gone (clean stop,
crash, kill -9) are handed back to the queue when the crawl is opened again.
"""

from __future__ import annotations

import logging
import struct
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
import psycopg
from psycopg import sql

from crawler import defaults
from crawler.frontier import crawl_lock
from crawler.frontier.buffer import DONE, EVICTED, LEASED, QUEUED
from crawler.frontier.crawl_lock import FrontierLocked, one_process_refusal
from crawler.frontier.scores import Strategy, UrlStats
from crawler.frontier.seen import url_fingerprint
from crawler.frontier.store import (
    CLAIM_SCAN,
    NewRow,
    OpenState,
    QueuedKey,
    StoredRow,
    WriteBatch,
    WriteResult,
)
from crawler.storage import saved_results

logger = logging.getLogger(__name__)

_LOCK_CLASS = crawl_lock.LOCK_CLASS
# an agent's write transaction chosen as a deadlock victim is run again this many times
_DEADLOCK_RETRIES = 3

_COPY_COLUMNS = (
    "crawl, fp, url, host, state, priority, score, tiebreak, inter, depth, backlinks, cash,"
    " link_score, attributes, extra, queued_at, done_at, result_url, request"
)
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = b"\xff\xff"
# A row is six pieces: field count, crawl, fp and the url's length; the url; the host's
# length; the host; every field from state to the request's length; the request.
_ROW_START = struct.Struct(">hiiiqi")
_ROW_MIDDLE = ">ihiiidiqi?iiiiididididid"  # state .. queued_at
_ROW_REST_NEW = struct.Struct(_ROW_MIDDLE + "iii")  # done_at, result_url NULL; request length
_ROW_REST = struct.Struct(_ROW_MIDDLE)
_LEN = struct.Struct(">i").pack
_NULL = _LEN(-1)
_F8 = struct.Struct(">id").pack
_I32_MIN, _I32_MAX = -(2**31), 2**31 - 1

# a new row merged into one another agent wrote first (as a link event: see _delta_sql)
_MERGE_COLUMNS = {
    "depth": "least(frontier.depth, excluded.depth)",
    "backlinks": "frontier.backlinks + excluded.backlinks",
    "cash": "frontier.cash + excluded.cash",
    "link_score": "greatest(frontier.link_score, excluded.link_score)",
    "attributes": "greatest(frontier.attributes, excluded.attributes)",
    "extra": "greatest(frontier.extra, excluded.extra)",
}

# The queued rows of a ``victims (fp)`` CTE become evicted, each recorded once in
# ``uncrawled``; counts evicted (inter, intra). Parameters: key, queued, evicted, now,
# crawl_id, detail.
# ANALYZE the frontier after this many changed rows (or a quarter of the rows analyzed
# so far, when more), at most every 5 s while it is small and every 60 s past
# _ANALYZE_LARGE_ROWS rows: ANALYZE samples a fixed number of rows, so it stays cheap
_ANALYZE_MIN_CHANGES = 1_000
_ANALYZE_LARGE_ROWS = 100_000

_EVICT_VICTIMS = """
    ev AS (
        UPDATE frontier f SET state = %(evicted)s, done_at = %(now)s
        FROM victims v WHERE f.crawl = %(key)s AND f.fp = v.fp AND f.state = %(queued)s
        RETURNING f.url, f.inter),
    rec AS (
        INSERT INTO uncrawled (crawl_id, url, category, detail, at)
        SELECT %(crawl_id)s, url, 'evicted', %(detail)s, now() FROM ev
        ON CONFLICT (crawl_id, url) DO NOTHING)
    SELECT count(*) FILTER (WHERE inter), count(*) FILTER (WHERE NOT inter) FROM ev
"""

_RETURNING = (
    "f.fp, f.url, f.host, f.priority, f.score, f.tiebreak, f.inter, f.depth, f.backlinks,"
    " f.cash, f.link_score, f.attributes, f.extra, f.queued_at, f.request"
)


def _text(value: str) -> bytes:
    # PostgreSQL text cannot hold NUL characters
    data = value.encode("utf-8", "surrogatepass")
    return data.replace(b"\x00", b"") if b"\x00" in data else data


def copy_chunks(key: int, rows: list[NewRow], size: int = 1000) -> Iterator[bytes]:
    """Binary COPY data of frontier rows, ``size`` rows at a time (header first, trailer
    last): PostgreSQL inserts one chunk while the next is encoded."""
    if not rows:
        yield encode_copy_rows(key, rows)
    for start in range(0, len(rows), size):
        end = start + size
        yield encode_copy_rows(key, rows[start:end], header=start == 0, trailer=end >= len(rows))


def encode_copy_rows(
    key: int, rows: list[NewRow], *, header: bool = True, trailer: bool = True
) -> bytes:
    """Binary COPY data of frontier rows (with the format's header and trailer)."""
    out = [_COPY_HEADER] if header else []
    extend = out.extend
    start, rest_new = _ROW_START.pack, _ROW_REST_NEW.pack
    for e in rows:
        s = e.stats
        url, host, payload = _text(e.url), _text(e.host), e.payload
        priority = e.priority
        if not _I32_MIN <= priority <= _I32_MAX:
            priority = _I32_MIN if priority < 0 else _I32_MAX
        backlinks = s.backlinks if s.backlinks <= _I32_MAX else _I32_MAX
        if e.done_at is None and e.result_url is None:  # a new row: the common case
            rest = rest_new(
                2, e.state, 4, priority, 8, e.score, 8, e.tiebreak, 1, e.inter, 4, s.depth,
                4, backlinks, 8, s.cash, 8, s.link_score, 8, s.attributes, 8, s.extra,
                8, e.queued_at, -1, -1, len(payload),
            )
        else:
            rest = _rest_done(e, priority, backlinks)
        extend((start(19, 4, key, 8, e.fp, len(url)), url, _LEN(len(host)), host, rest,
                payload))
    if trailer:
        out.append(_COPY_TRAILER)
    return b"".join(out)


def _rest_done(e: NewRow, priority: int, backlinks: int) -> bytes:
    """The fields from state to the request's length of a row with done_at or
    result_url (a URL fetched before its row was written)."""
    s = e.stats
    pieces = [_ROW_REST.pack(
        2, e.state, 4, priority, 8, e.score, 8, e.tiebreak, 1, e.inter, 4, s.depth,
        4, backlinks, 8, s.cash, 8, s.link_score, 8, s.attributes, 8, s.extra,
        8, e.queued_at,
    )]
    pieces.append(_NULL if e.done_at is None else _F8(8, e.done_at))
    if e.result_url is None:
        pieces.append(_NULL)
    else:
        result = _text(e.result_url)
        pieces += (_LEN(len(result)), result)
    pieces.append(_LEN(len(e.payload)))
    return b"".join(pieces)


class _FingerprintReader:
    """Parses a binary COPY of one bigint column as it arrives, 14 bytes per row."""

    _ROW = np.dtype([("n", ">i2"), ("len", ">i4"), ("fp", ">i8")])
    chunk = 1 << 20  # bytes parsed at a time

    def __init__(self) -> None:
        self._pending = bytearray()
        self._header = True
        self._parts: list[np.ndarray] = []

    def feed(self, data: bytes) -> None:
        self._pending += data
        if self._header:
            if len(self._pending) < 19:
                return
            ext = struct.unpack(">i", self._pending[15:19])[0]
            if len(self._pending) < 19 + ext:
                return
            del self._pending[: 19 + ext]
            self._header = False
        whole = len(self._pending) // 14 * 14
        if whole >= self.chunk:
            self._take(whole)

    def _take(self, size: int) -> None:
        rows = np.frombuffer(bytes(self._pending[:size]), dtype=self._ROW)
        self._parts.append(rows["fp"].astype(np.int64))
        del self._pending[:size]

    def result(self) -> np.ndarray:
        # what is left: whole rows, then the 2-byte trailer
        self._take(len(self._pending) // 14 * 14)
        if not self._parts:
            return np.empty(0, dtype=np.int64)
        return np.concatenate(self._parts)


class PostgresStore:
    """:class:`~crawler.frontier.store.FrontierStore` on PostgreSQL (psycopg, asyncio)."""

    def __init__(
        self,
        url: str,
        crawl_id: str,
        *,
        recheck_window: float = defaults.FRONTIER_RESUME_RECHECK,
        synchronous_commit: bool = False,
        agent_id: str | None = None,
        lock_wait: float = defaults.FRONTIER_LOCK_WAIT,
    ) -> None:
        self.url = url
        self.lock_wait = lock_wait
        # agent_id: one agent of a distributed crawl (crawler/agents): several processes
        # share the crawl's rows; leases carry the agent's id and only its own are
        # released; new rows merge into rows other agents wrote (ON CONFLICT).
        self.agent_id = agent_id
        self.crawl_id = crawl_id
        self.recheck_window = recheck_window
        self.synchronous_commit = synchronous_commit
        self.key = 0
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self.strategy: Strategy | None = None
        self._delta_sql = ""
        # rows changed since the table's statistics were last refreshed, and when
        self._changed = 0
        self._analyzed_rows = 0
        self._analyzed_at = 0.0
        self.deadlocks = 0  # agents' write transactions retried after a deadlock

    # --- opening -----------------------------------------------------------------------
    async def open(self, strategy: Strategy) -> OpenState:
        self.strategy = strategy
        self._delta_sql = self._make_delta_sql(strategy)
        await self._connect()
        if self.agent_id is not None:
            return await self._open_shared(strategy)
        await self._lock_crawl()
        crawl = await self._read_crawl()
        if crawl is None:
            return await self._create_crawl(strategy)
        self.key = crawl.key
        state = OpenState(
            np.empty(0, dtype=np.int64), 0, 0, crawl.clock, crawl.seq, resumed=True
        )
        await self._recover(state, crawl, strategy)
        state.fingerprints = await self._known_fingerprints(unclean=not crawl.clean)
        await self._count_queued(state)
        return state

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        # the session names its process: a later run can tell a dead holder of the crawl
        # lock from a live one (crawl_lock)
        conn = self.conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, application_name=crawl_lock.application_name(),
        )
        if not self.synchronous_commit:
            # a PostgreSQL crash may lose the last few hundred ms of frontier writes,
            # which is what a crawler crash loses anyway; commits stop waiting for fsync
            await conn.execute("SET synchronous_commit = off")
        return conn

    async def _lock_crawl(self) -> None:
        """One process at a time per crawl: the session's advisory lock (released when the
        session ends, however it ends), and no live agent sharing the crawl."""
        conn = self.conn
        assert conn is not None

        async def attempt() -> bool:
            row = await (await conn.execute(
                "SELECT pg_try_advisory_lock(%s, hashtext(%s))", (_LOCK_CLASS, self.crawl_id)
            )).fetchone()
            return bool(row and row[0])

        try:
            await crawl_lock.acquire(
                conn, self.crawl_id, attempt, wait=self.lock_wait,
                refusal=f"crawl {self.crawl_id!r} is being run by another process (its "
                "frontier is locked); stop it first or choose another crawl_id",
            )
            agents = [a for (a,) in await (await conn.execute(
                "SELECT agent_id FROM agents WHERE crawl_id = %s AND state = 'running'"
                " AND lease_until > now() ORDER BY agent_id",
                (self.crawl_id,),
            )).fetchall()]
            if agents:
                raise FrontierLocked(
                    f"crawl {self.crawl_id!r} is shared by {len(agents)} running agent(s) "
                    f"({', '.join(agents[:3])}{', ...' if len(agents) > 3 else ''}); run "
                    "this process as one of them with -s AGENTS_ENABLED=1, or stop them first"
                )
        except BaseException:
            await conn.close()
            self.conn = None
            raise

    async def _read_crawl(self) -> _CrawlRow | None:
        assert self.conn is not None
        row = await (await self.conn.execute(
            "SELECT key, scoring, clock, seq, clean FROM frontier_crawls WHERE crawl_id = %s",
            (self.crawl_id,),
        )).fetchone()
        if row is None:
            return None
        return _CrawlRow(int(row[0]), row[1], float(row[2]), int(row[3]), row[4])

    async def _create_crawl(self, strategy: Strategy) -> OpenState:
        assert self.conn is not None
        created = await (await self.conn.execute(
            "INSERT INTO frontier_crawls (crawl_id, scoring, clean) VALUES (%s, %s, false)"
            " RETURNING key",
            (self.crawl_id, strategy.signature),
        )).fetchone()
        assert created is not None
        self.key = int(created[0])
        return OpenState(np.empty(0, dtype=np.int64), 0, 0, 0.0, 0, resumed=False)

    async def _recover(self, state: OpenState, crawl: _CrawlRow, strategy: Strategy) -> None:
        """In one transaction: the last run's leases go back to the queue (after an unclean
        stop, those whose failure row was saved are done, and acked URLs whose result was
        not saved are queued again); a changed strategy re-scores the queue."""
        assert self.conn is not None
        async with self.conn.transaction():
            if not crawl.clean:
                state.finished_leases = await self._finish_failed_rows(crawl.clock)
            state.requeued_leases = await self._requeue_leases()
            if not crawl.clean:
                state.requeued_unsaved = await self._requeue_unsaved()
            if crawl.scoring != strategy.signature:
                state.rescored = await self._rescore(strategy)
            # this process writes unmarked rows: agents joining later mark them (_mark_shared)
            await self.conn.execute(
                "UPDATE frontier_crawls SET clean = false, scoring = %s, shared = false,"
                " updated_at = now() WHERE key = %s",
                (strategy.signature, self.key),
            )

    async def _requeue_leases(self) -> int:
        assert self.conn is not None
        cur = await self.conn.execute(
            "UPDATE frontier SET state = %s WHERE crawl = %s AND state = %s",
            (QUEUED, self.key, LEASED),
        )
        return cur.rowcount

    async def _open_shared(self, strategy: Strategy) -> OpenState:
        """Open the crawl as one of its agents: no lock, nothing re-queued (the leases of
        dead agents are re-queued by the agents' heartbeat, crawler/agents)."""
        conn = self.conn
        assert conn is not None
        await conn.execute(
            "INSERT INTO frontier_crawls (crawl_id, scoring, clean) VALUES (%s, %s, false)"
            " ON CONFLICT (crawl_id) DO NOTHING",
            (self.crawl_id, strategy.signature),
        )
        # the crawl clock goes on while agents run (their heartbeats record it): an
        # agent joining a running crawl starts from the clock of the others, so that
        # their queue times compare (FRONTIER_MAX_WAIT)
        row = await (await conn.execute(
            """
            SELECT c.key, c.scoring, c.clock + CASE WHEN EXISTS (
                    SELECT 1 FROM agents a WHERE a.crawl_id = c.crawl_id
                    AND a.state = 'running' AND a.lease_until > now())
                THEN greatest(0, extract(epoch FROM now() - c.updated_at))::float8
                ELSE 0 END,
                c.seq
            FROM frontier_crawls c WHERE c.crawl_id = %s
            """,
            (self.crawl_id,),
        )).fetchone()
        assert row is not None
        self.key = int(row[0])
        state = OpenState(np.empty(0, dtype=np.int64), 0, 0, float(row[2]), int(row[3]),
                          resumed=True)
        if row[1] != strategy.signature:
            raise ValueError(
                f"crawl {self.crawl_id!r} is scored with {row[1]!r}; every agent must use "
                f"the same strategy (this one: {strategy.signature!r})"
            )
        await self._mark_shared_unlocked()
        await conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS frontier_in (LIKE frontier INCLUDING DEFAULTS)"
            " ON COMMIT DELETE ROWS"
        )
        state.fingerprints = await self._read_fingerprints()
        await self._count_queued(state)
        return state

    async def _known_fingerprints(self, unclean: bool) -> np.ndarray:
        """The seen set: every URL ever queued, and after an unclean stop also the URLs
        whose result was saved while their frontier row was not."""
        fingerprints = await self._read_fingerprints()
        if unclean:
            extra = await self._saved_without_row()
            if extra:
                fingerprints = np.concatenate([fingerprints, np.asarray(extra, dtype=np.int64)])
        return fingerprints

    async def _read_fingerprints(self) -> np.ndarray:
        conn = self.conn
        assert conn is not None
        reader = _FingerprintReader()
        async with conn.cursor() as cur, cur.copy(
            sql.SQL("COPY (SELECT fp FROM frontier WHERE crawl = {}) TO STDOUT (FORMAT BINARY)")
            .format(sql.Literal(self.key))
        ) as copy:
            async for data in copy:
                reader.feed(data)
        return reader.result()

    async def _count_queued(self, state: OpenState) -> None:
        conn = self.conn
        assert conn is not None
        for inter, count in await (await conn.execute(
            "SELECT inter, count(*) FROM frontier WHERE crawl = %s AND state = %s GROUP BY inter",
            (self.key, QUEUED),
        )).fetchall():
            if inter:
                state.queued_inter = int(count)
            else:
                state.queued_intra = int(count)

    async def _finish_failed_rows(self, clock: float) -> int:
        """After an unclean stop: a queued or leased URL whose failure row of a fetch (not
        a depth or trap refusal, nor an eviction) reached the database was fetched (the
        item pipeline and the frontier write separately, so the frontier's lease or ack
        may be what was lost); it is done, not fetched again. A failure has no links. A
        saved *page* of such a row is fetched again (pages are upserted): its links reach
        the frontier with the row's ack, in the same or a later frontier write than the
        one the kill lost, so they may never have been written."""
        assert self.conn is not None
        cur = await self.conn.execute(
            f"""
            UPDATE frontier f SET state = %(done)s, done_at = %(clock)s
            WHERE f.crawl = %(key)s AND f.state IN (%(queued)s, %(leased)s)
              AND {saved_results.failure_saved("f.url")}
            """,
            {"key": self.key, "done": DONE, "queued": QUEUED, "leased": LEASED,
             "clock": clock, **saved_results.params(self.crawl_id)},
        )
        return cur.rowcount

    async def _saved_without_row(self) -> list[int]:
        """After an unclean stop: fingerprints of URLs whose failure row was saved while
        their frontier row was still unwritten, and of pages saved as the target of an
        acked redirect, so that finding them again does not re-fetch. A page saved with
        no frontier row at all is left out: its links were written after its row, so
        they were lost with it, and the page is fetched again when found again (its
        parent's ack was lost too, so the parent is fetched again and finds it)."""
        assert self.conn is not None
        rows = await (await self.conn.execute(
            f"""
            SELECT s.url FROM (
                {saved_results.failed_urls()}
                UNION
                SELECT p.url FROM ({saved_results.page_urls()}) p
                WHERE EXISTS (SELECT 1 FROM frontier r WHERE r.crawl = %(key)s
                              AND r.state = %(done)s AND r.result_url = p.url)
            ) s
            WHERE NOT EXISTS (SELECT 1 FROM frontier f WHERE f.crawl = %(key)s
                              AND f.url = s.url)
            """,
            {"key": self.key, "done": DONE, **saved_results.params(self.crawl_id)},
        )).fetchall()
        return [url_fingerprint(url) for (url,) in rows]

    async def _requeue_unsaved(self) -> int:
        """After an unclean stop: acked URLs whose page or failure row never reached the
        database (the item pipeline writes in batches too) are queued again."""
        assert self.conn is not None
        cur = await self.conn.execute(
            f"""
            WITH latest AS (SELECT max(done_at) AS at FROM frontier
                            WHERE crawl = %(key)s AND state = %(done)s)
            UPDATE frontier f SET state = %(queued)s, done_at = NULL, result_url = NULL
            WHERE f.crawl = %(key)s AND f.state = %(done)s
              AND f.done_at >= (SELECT at FROM latest) - %(window)s
              AND {saved_results.unsaved("coalesce(f.result_url, f.url)")}
            """,
            {"key": self.key, "done": DONE, "queued": QUEUED, "window": self.recheck_window,
             **saved_results.params(self.crawl_id)},
        )
        return cur.rowcount

    async def _rescore(self, strategy: Strategy) -> int:
        assert self.conn is not None
        expr = strategy.score_sql("depth", "backlinks", "cash", "link_score", "attributes",
                                  "extra")
        sign = "-" if strategy.newest_first else ""
        cur = await self.conn.execute(
            f"UPDATE frontier SET score = {expr}, tiebreak = {sign}abs(tiebreak)"
            " WHERE crawl = %s AND state = %s",
            (self.key, QUEUED),
        )
        return cur.rowcount

    @staticmethod
    def _make_delta_sql(strategy: Strategy) -> str:
        cols = {
            "depth": "least(f.depth, d.depth)",
            "backlinks": "f.backlinks + d.backlinks",
            "cash": "f.cash + d.cash",
            "link_score": "greatest(f.link_score, d.link_score)",
            "attributes": "greatest(f.attributes, d.attributes)",
            "extra": "greatest(f.extra, d.extra)",
        }
        score = strategy.score_sql(*cols.values())
        sets = ", ".join(f"{name} = {expr}" for name, expr in cols.items())
        return (
            f"UPDATE frontier f SET {sets}, score = {score} "
            "FROM unnest(%b::bigint[], %b::int[], %b::int[], %b::float8[], %b::float8[],"
            " %b::float8[], %b::float8[]) AS d(fp, depth, backlinks, cash, link_score,"
            " attributes, extra) "
            f"WHERE f.crawl = %s AND f.fp = d.fp AND f.state IN ({QUEUED}, {LEASED})"
        )

    # --- writing -----------------------------------------------------------------------
    async def write(self, batch: WriteBatch) -> WriteResult:
        assert self.conn is not None, "store not opened"
        if self.agent_id is None:
            return await self._write(batch)
        # Agents write rows other agents write too (merges, link events, claims): each
        # write transaction locks the rows it touches first, in fingerprint order, and
        # every other agent statement on frontier rows either does the same or skips
        # locked rows, so two agents never wait for each other in a cycle. What is left
        # (a merge meeting another agent's uncommitted insert of a row that appeared
        # after the pre-lock) is retried at once: the transaction was rolled back whole.
        for attempt in range(_DEADLOCK_RETRIES):
            try:
                return await self._write(batch)
            except psycopg.errors.DeadlockDetected:
                if attempt == _DEADLOCK_RETRIES - 1:
                    raise
                self.deadlocks += 1
                logger.info("frontier: write of agent %s chosen as a deadlock victim; "
                            "retrying it", self.agent_id)
        raise AssertionError("unreachable")

    async def _write(self, batch: WriteBatch) -> WriteResult:
        assert self.conn is not None, "store not opened"
        result = WriteResult()
        async with self.conn.transaction():
            if self.agent_id is not None:
                # the new rows reach the temporary table first: a COPY waits for its
                # client's data, and an agent cut off in the middle of it must not hold
                # frontier rows (the server does not end an active COPY at
                # idle_in_transaction_session_timeout, and the others' take-over of its
                # leases would wait for those rows)
                if batch.new:
                    await self._copy_in(batch.new)
                await self._lock_rows(batch)
            if batch.new:
                await self._insert_new(batch.new)
            if batch.upserts:
                await self._upsert(batch.upserts)
            if batch.deltas:
                result.rescored = await self._apply_link_events(batch.deltas)
            if batch.done:
                await self._mark_done(batch.done)
            if batch.released:
                await self._release(batch.released)
            if batch.evicted:
                await self._evict_rows(batch.evicted, batch.clock)
            if batch.expire_before is not None:
                await self._expire(batch, result)
            if self.agent_id is None:
                # (agents skip it: one row every agent would update at every flush)
                await self.conn.execute(
                    "UPDATE frontier_crawls SET clock = %s, seq = %s, updated_at = now()"
                    " WHERE key = %s",
                    (batch.clock, batch.seq, self.key),
                )
        self._changed += batch.size
        await self._maybe_analyze()
        return result

    async def _lock_rows(self, batch: WriteBatch) -> None:
        """Lock every existing row the batch touches, in fingerprint order (agents)."""
        assert self.conn is not None
        fps = {r.fp for r in batch.new}
        fps.update(r.fp for r in batch.upserts)
        fps.update(batch.deltas, batch.done, batch.released, batch.evicted)
        if not fps:
            return
        await self.conn.execute(
            "SELECT fp FROM frontier WHERE crawl = %s AND fp = ANY(%b::bigint[])"
            " ORDER BY fp FOR UPDATE",
            (self.key, sorted(fps)),
        )

    async def _insert_new(self, rows: list[NewRow]) -> None:
        conn = self.conn
        assert conn is not None
        if self.agent_id is not None:
            await self._merge_new(rows)
            return
        try:
            async with conn.transaction(), conn.cursor() as cur, cur.copy(
                f"COPY frontier ({_COPY_COLUMNS}) FROM STDIN (FORMAT BINARY)"
            ) as copy:
                for chunk in copy_chunks(self.key, rows):
                    await copy.write(chunk)
        except psycopg.errors.UniqueViolation:
            # a row is already there (should not happen: the seen set is exact)
            logger.warning("frontier: fingerprint collision in a batch; upserting")
            await self._upsert(rows)

    async def _apply_link_events(self, deltas: dict[int, UrlStats]) -> int:
        """New links to stored rows: statistics merged and score recomputed in SQL;
        returns how many rows changed."""
        assert self.conn is not None
        fps = list(deltas)
        ds = [deltas[fp] for fp in fps]
        cur = await self.conn.execute(self._delta_sql, (
            fps, [d.depth for d in ds], [d.backlinks for d in ds], [d.cash for d in ds],
            [d.link_score for d in ds], [d.attributes for d in ds], [d.extra for d in ds],
            self.key,
        ))
        return cur.rowcount

    async def _mark_done(self, done: dict[int, tuple[float, str | None]]) -> None:
        assert self.conn is not None
        fps = list(done)
        await self.conn.execute(
            "UPDATE frontier f SET state = %s, done_at = d.at, result_url = d.result"
            " FROM unnest(%b::bigint[], %b::float8[], %b::text[]) AS d(fp, at, result)"
            " WHERE f.crawl = %s AND f.fp = d.fp",
            (DONE, fps, [done[fp][0] for fp in fps], [done[fp][1] for fp in fps], self.key),
        )

    async def _release(self, released: set[int]) -> None:
        assert self.conn is not None
        # an agent releases its own leases only (a dead agent's rows may have been
        # re-queued and leased by another meanwhile)
        await self.conn.execute(
            "UPDATE frontier SET state = %s, agent = NULL WHERE crawl = %s"
            " AND fp = ANY(%b::bigint[]) AND state = %s AND agent IS NOT DISTINCT FROM %s",
            (QUEUED, self.key, list(released), LEASED, self.agent_id),
        )

    async def _evict_rows(self, evicted: dict[int, tuple[str, str]], at: float) -> None:
        """Rows evicted from memory (buffered or unwritten when they were evicted)."""
        assert self.conn is not None
        fps = list(evicted)
        await self.conn.execute(
            "UPDATE frontier SET state = %s, done_at = %s"
            " WHERE crawl = %s AND fp = ANY(%b::bigint[])",
            (EVICTED, at, self.key, fps),
        )
        await self._record_evicted([evicted[fp][0] for fp in fps], [evicted[fp][1] for fp in fps])

    async def _expire(self, batch: WriteBatch, result: WriteResult) -> None:
        """The max-wait rule on stored rows: the lowest-ranked queued rows older than
        ``batch.expire_before`` are evicted, at most ``batch.expire_limit`` of them."""
        assert self.conn is not None
        # an agent skips rows another agent holds (a merge, a claim): it never waits
        # for them after its own rows are locked (see write)
        skip = " FOR UPDATE SKIP LOCKED" if self.agent_id is not None else ""
        row = await (await self.conn.execute(
            """
            WITH victims AS (
                SELECT fp FROM frontier
                WHERE crawl = %(key)s AND state = %(queued)s AND queued_at < %(cutoff)s
                ORDER BY priority, score, tiebreak DESC LIMIT %(limit)s""" + skip + """),
            """ + _EVICT_VICTIMS,
            {"key": self.key, "queued": QUEUED, "cutoff": batch.expire_before,
             "limit": batch.expire_limit, "evicted": EVICTED, "now": batch.clock,
             "crawl_id": self.crawl_id, "detail": batch.expire_detail},
        )).fetchone()
        assert row is not None
        result.expired_inter, result.expired_intra = int(row[0]), int(row[1])
        result.expired_more = row[0] + row[1] >= batch.expire_limit

    async def _maybe_analyze(self) -> None:
        """Refresh the planner's statistics when the frontier has changed a lot: a table
        that grows between autovacuum runs otherwise gets plans made for an empty table.
        From the first thousand rows on, not only at scale: with statistics of an empty
        table, the link-event UPDATE and the age eviction's CTE were planned as nested
        loops over every queued row of the crawl (seconds per flush at a few thousand
        queued URLs, tens of seconds at close; docs/performance.md)."""
        if self._changed < max(_ANALYZE_MIN_CHANGES, self._analyzed_rows // 4):
            return
        pause = 60.0 if self._analyzed_rows >= _ANALYZE_LARGE_ROWS else 5.0
        if time.monotonic() - self._analyzed_at < pause:
            return
        assert self.conn is not None
        await self.conn.execute("ANALYZE frontier")
        self._analyzed_rows += self._changed
        self._changed = 0
        self._analyzed_at = time.monotonic()

    async def _mark_shared_unlocked(self) -> None:
        """_mark_shared under the crawl lock in shared mode: refused (FrontierLocked)
        while a one-process run holds the crawl (crawl_lock)."""
        conn = self.conn
        assert conn is not None

        async def attempt() -> bool:
            try:
                async with conn.transaction():
                    row = await (await conn.execute(
                        "SELECT pg_try_advisory_xact_lock_shared(%s, hashtext(%s))",
                        (_LOCK_CLASS, self.crawl_id),
                    )).fetchone()
                    if not (row and row[0]):
                        raise _NotLocked
                    await self._mark_shared()
            except _NotLocked:
                return False
            return True

        await crawl_lock.acquire(conn, self.crawl_id, attempt, wait=self.lock_wait,
                                 refusal=one_process_refusal(self.crawl_id))

    async def _mark_shared(self) -> None:
        """Mark the crawl's rows as shared (in frontier_queued_host, which agents need)
        unless they all are: rows written by a one-process run of the crawl are not."""
        conn = self.conn
        assert conn is not None
        async with conn.transaction():
            flipped = await conn.execute(
                "UPDATE frontier_crawls SET shared = true WHERE key = %s AND NOT shared",
                (self.key,),
            )
            if flipped.rowcount:  # the first agent; the others wait on the row's lock
                marked = await conn.execute(
                    "UPDATE frontier SET shared = true WHERE crawl = %s AND NOT shared",
                    (self.key,),
                )
                if marked.rowcount:
                    logger.info("frontier: %d rows written by a one-process run of crawl %r"
                                " marked as shared", marked.rowcount, self.crawl_id)

    async def _merge_new(self, rows: list[NewRow]) -> None:
        """Insert new rows; a row another agent wrote first absorbs the new one's link
        event (counts add up, the best offer wins: the same result in any order)."""
        conn = self.conn
        assert conn is not None and self.strategy is not None
        # (the rows are in frontier_in already: _copy_in, called by _write)
        score = self.strategy.score_sql(*_MERGE_COLUMNS.values())
        sets = ", ".join(f"{name} = {expr}" for name, expr in _MERGE_COLUMNS.items())
        await conn.execute(
            f"INSERT INTO frontier ({_COPY_COLUMNS}, shared) SELECT {_COPY_COLUMNS}, true"
            " FROM frontier_in"
            f" ORDER BY fp ON CONFLICT (crawl, fp) DO UPDATE SET {sets}, score = {score},"
            " priority = greatest(frontier.priority, excluded.priority)"
            f" WHERE frontier.state IN ({QUEUED}, {LEASED})"
        )  # frontier_in empties itself at commit

    async def _copy_in(self, rows: list[NewRow]) -> None:
        """New rows of an agent into its session's temporary table (merged by
        _merge_new)."""
        conn = self.conn
        assert conn is not None
        async with conn.cursor() as cur, cur.copy(
            f"COPY frontier_in ({_COPY_COLUMNS}) FROM STDIN (FORMAT BINARY)"
        ) as copy:
            await copy.write(encode_copy_rows(self.key, rows))

    async def _upsert(self, entries: list[NewRow]) -> None:
        assert self.conn is not None
        rows = [
            (self.key, e.fp, e.url, e.host, e.state, e.priority, e.score, e.tiebreak, e.inter,
             e.stats.depth, e.stats.backlinks, e.stats.cash, e.stats.link_score,
             e.stats.attributes, e.stats.extra, e.queued_at, e.done_at, e.result_url,
             e.payload, self.agent_id is not None)
            for e in entries
        ]
        async with self.conn.cursor() as cur:
            await cur.executemany(
                f"INSERT INTO frontier ({_COPY_COLUMNS}, shared) VALUES (%s, %s, %s, %s, %s,"
                " %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (crawl, fp) DO UPDATE SET state = EXCLUDED.state,"
                " priority = EXCLUDED.priority, score = EXCLUDED.score,"
                " tiebreak = EXCLUDED.tiebreak, depth = EXCLUDED.depth,"
                " backlinks = EXCLUDED.backlinks, cash = EXCLUDED.cash,"
                " link_score = EXCLUDED.link_score, attributes = EXCLUDED.attributes,"
                " extra = EXCLUDED.extra, queued_at = EXCLUDED.queued_at,"
                " done_at = EXCLUDED.done_at, result_url = EXCLUDED.result_url,"
                " request = EXCLUDED.request",
                rows,
            )

    async def _record_evicted(self, urls: list[str], details: list[str]) -> None:
        assert self.conn is not None
        await self.conn.execute(
            "INSERT INTO uncrawled (crawl_id, url, category, detail, at)"
            " SELECT %s, u, 'evicted', d, now() FROM unnest(%b::text[], %b::text[]) AS x(u, d)"
            " ON CONFLICT (crawl_id, url) DO NOTHING",
            (self.crawl_id, urls, details),
        )

    # --- reading -----------------------------------------------------------------------
    async def claim(
        self, limit: int, per_host: int, exclude_hosts: list[str],
        hosts: list[str] | None = None,
    ) -> list[StoredRow]:
        assert self.conn is not None
        only = "" if hosts is None else "AND host = ANY(%(hosts)s)"
        if hosts is not None and self.agent_id is not None:
            # every row of an agents' crawl is shared (_mark_shared): the predicate of
            # frontier_queued_host, so that the index serves the lookup
            only += " AND shared"
        lock = ""
        if self.agent_id is not None:
            # rows another agent is writing (a merge, a link event) are left for the next
            # claim: the claim never waits, so it is in no deadlock (see write)
            lock = """,
            locked AS (
                SELECT f.fp FROM frontier f JOIN pick ON f.fp = pick.fp
                WHERE f.crawl = %(key)s AND f.state = %(queued)s
                ORDER BY f.fp FOR UPDATE OF f SKIP LOCKED)"""
        rows = await (await self.conn.execute(
            f"""
            WITH cand AS (
                SELECT fp, host, priority, score, tiebreak FROM frontier
                WHERE crawl = %(key)s AND state = %(queued)s AND host <> ALL(%(exclude)s)
                  {only}
                ORDER BY priority DESC, score DESC, tiebreak LIMIT %(scan)s),
            ranked AS (
                SELECT fp, priority, score, tiebreak, row_number() OVER (
                    PARTITION BY host ORDER BY priority DESC, score DESC, tiebreak) AS rn
                FROM cand),
            pick AS (
                SELECT fp FROM ranked WHERE rn <= %(per_host)s
                ORDER BY priority DESC, score DESC, tiebreak LIMIT %(limit)s){lock}
            UPDATE frontier f SET state = %(leased)s, agent = %(agent)s
            FROM {"locked" if lock else "pick"} pick
            WHERE f.crawl = %(key)s AND f.fp = pick.fp AND f.state = %(queued)s
            RETURNING {_RETURNING}
            """,
            {"key": self.key, "queued": QUEUED, "leased": LEASED, "exclude": exclude_hosts,
             "scan": CLAIM_SCAN * limit, "per_host": per_host, "limit": limit, "hosts": hosts,
             "agent": self.agent_id},
        )).fetchall()
        claimed = [
            StoredRow(
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], UrlStats(r[7], r[8], r[9], r[10], r[11],
                                                                    r[12]),
                r[13], bytes(r[14]),
            )
            for r in rows
        ]
        claimed.sort(key=lambda r: (-r.priority, -r.score, r.tiebreak))
        return claimed

    async def lowest_queued(self, limit: int) -> list[QueuedKey]:
        assert self.conn is not None
        rows = await (await self.conn.execute(
            "SELECT fp, priority, score, tiebreak FROM frontier WHERE crawl = %s AND state = %s"
            " ORDER BY priority, score, tiebreak DESC LIMIT %s",
            (self.key, QUEUED, limit),
        )).fetchall()
        return [QueuedKey(*r) for r in rows]

    async def queued_hosts(self, limit: int) -> list[tuple[str, int]]:
        assert self.conn is not None
        rows = await (await self.conn.execute(
            "SELECT host, count(*) FROM frontier WHERE crawl = %s AND state = %s"
            " GROUP BY host ORDER BY count(*) DESC, host LIMIT %s",
            (self.key, QUEUED, limit),
        )).fetchall()
        return [(host, int(n)) for host, n in rows]

    async def evict(self, fps: list[int], detail: str, at: float) -> tuple[int, int]:
        assert self.conn is not None
        row = await (await self.conn.execute(
            """
            WITH victims AS (SELECT unnest(%(fps)b::bigint[]) AS fp),
            """ + _EVICT_VICTIMS,
            {"evicted": EVICTED, "now": at, "key": self.key, "fps": fps, "queued": QUEUED,
             "crawl_id": self.crawl_id, "detail": detail},
        )).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    async def close(self, clean: bool, clock: float, seq: int) -> None:
        conn, self.conn = self.conn, None
        if conn is None:
            return
        try:
            if not conn.closed and self.agent_id is not None:
                await conn.execute(
                    "UPDATE frontier_crawls SET clock = greatest(clock, %s),"
                    " seq = greatest(seq, %s), updated_at = now() WHERE key = %s",
                    (clock, seq, self.key),
                )
            elif not conn.closed:
                await conn.execute(
                    "UPDATE frontier_crawls SET clean = %s, clock = %s, seq = %s,"
                    " updated_at = now() WHERE key = %s",
                    (clean, clock, seq, self.key),
                )
        finally:
            await conn.close()  # ends the session: the crawl lock is released


class _CrawlRow(NamedTuple):
    """A crawl's ``frontier_crawls`` row."""

    key: int
    scoring: str
    clock: float
    seq: int
    clean: bool


class _NotLocked(Exception):
    """The crawl lock was not available (rolls the attempt's transaction back)."""

