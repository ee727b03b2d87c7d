"""The one indexer of an index folder: applies the search outbox to Whoosh (no Scrapy).

Whoosh has one writer per index, and a crawl may have several agents, so pages are not
indexed by whoever stores them: the storage transaction appends an outbox operation
(``crawler.search.outbox``) and one indexer per index folder applies them in id order.

* **One indexer per index folder**: the indexer holds a PostgreSQL session advisory lock
  keyed by the folder's absolute path while it writes. The lock dies with the indexer's
  connection, so a crashed (even ``kill -9``) indexer frees it at once. An indexer that
  finds the lock taken waits on standby and takes over when it frees.
* **Which crawls**: the crawls registered with the index folder (table
  ``search_index_positions``, one row per folder and crawl, holding the last outbox id
  applied to that folder). A crawl's pipeline and ``scrapy index --crawl-id`` register
  their crawl; ``scrapy reindex`` registers the crawls it indexed.
* **Nothing indexed twice or skipped after a crash**: a batch of operations (at most
  ``batch_size``) is applied in one Whoosh commit, and the crawl's position is saved only
  after that commit. A crash before the save re-applies the batch on restart; that is
  safe because Whoosh's ``update_document`` replaces the document of a unique ``url``
  and a delete of a missing document does nothing, so the index ends the same.
  Outbox ids commit in id order (crawler/search/outbox.py), so a single position per
  crawl never skips a row whose transaction was still running.
* Rows applied by every folder registered for a crawl are deleted (the outbox stays
  small); a folder that joins a crawl later starts with ``scrapy reindex``.

The loop (:func:`run_indexer`) runs in ``scrapy index``, or, during a crawl, in a process
started by the crawl's search pipeline (:class:`IndexerHandle`, ``spawn``: nothing of the
crawl is inherited; the process lowers its priority by ``nice`` and, with ``idle``, runs
under Linux's SCHED_IDLE policy: it gets a CPU only when the crawl leaves one idle) or in
one of its threads.

**A stop with a deadline** (the crawl's close): the indexer applies what is left when all
of it fits before the deadline at the rate of its earlier batches (:func:`close_fits`),
each batch sized to fit the time left, and exits; when it does not fit, it exits at once
(part of a backlog applied at the close is work the next indexer would do anyway, and the
crawl's exit waited for it). What is left stays in ``search_outbox`` for the next indexer
of the folder (``scrapy index``, the next crawl into it). A batch still running
past the deadline plus :data:`STOP_GRACE` is cut short (the process is terminated): its
position was not saved, so it is applied again later, and Whoosh's last commit stays
intact (a commit's table of contents is written last, atomically). A batch the indexer
expects to end after that, or that leaves more in the outbox (a full batch), or whose rate
is not timed yet, is cut short at once: waiting for it only delayed the crawl's exit.
"""

from __future__ import annotations

import functools
import logging
import math
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from crawler import defaults
from crawler.search.outbox import DELETE, OutboxOperation, last_operations
from crawler.search.pending import clear_pending

logger = logging.getLogger(__name__)

# Advisory lock class of index folders ("sidx"); the second key is hashtext(folder path).
INDEXER_LOCK_CLASS = 0x73696478

_TRY_LOCK_SQL = "SELECT pg_try_advisory_lock(%s, hashtext(%s))"

_REGISTER_SQL = """
INSERT INTO search_index_positions (index_key, crawl_id)
SELECT %s, id FROM crawls WHERE id = ANY(%b::text[])
ON CONFLICT (index_key, crawl_id) DO NOTHING
"""

_POSITIONS_SQL = """
SELECT crawl_id, position FROM search_index_positions WHERE index_key = %s ORDER BY crawl_id
"""

_READ_SQL = """
SELECT id, url, op FROM search_outbox WHERE crawl_id = %s AND id > %s ORDER BY id LIMIT %s
"""

# GREATEST: positions only move forward, whichever indexer saves last.
_SAVE_SQL = """
UPDATE search_index_positions SET position = GREATEST(position, %s), updated_at = now()
WHERE index_key = %s AND crawl_id = %s
"""

# Rows every folder registered for the crawl has applied.
_PRUNE_SQL = """
DELETE FROM search_outbox
WHERE crawl_id = %(crawl)s AND id <= (
    SELECT min(position) FROM search_index_positions WHERE crawl_id = %(crawl)s)
"""

# What the folder has not applied yet of a crawl: operations and distinct URLs.
_BACKLOG_SQL = """
SELECT count(*), count(DISTINCT url) FROM search_outbox
WHERE crawl_id = %(crawl)s AND id > coalesce((
    SELECT position FROM search_index_positions
    WHERE index_key = %(key)s AND crawl_id = %(crawl)s), 0)
"""

# Seconds past a stop's deadline after which a batch still running is cut short.
STOP_GRACE = 0.5
# Operations of the first batch at a stop with a deadline when no batch was timed yet.
FIRST_CLOSE_BATCH = 20
# Share of the time left a batch at a stop with a deadline is sized to take.
CLOSE_BATCH_SHARE = 0.7
# Operations of the first batch cut to SEARCH_BATCH_SECONDS (no batch timed yet), and
# the fewest of any such batch (each commit has a cost of its own).
FIRST_TIMED_BATCH = 50
MIN_TIMED_BATCH = 10

_MAX_IDS_SQL = """
SELECT crawl_id, max(id) FROM search_outbox WHERE crawl_id = ANY(%b::text[]) GROUP BY crawl_id
"""


# Per crawl registered with a folder: its position, the operations after it (pages stored
# or removed, not yet searchable) and the age of the oldest of them.
_LAG_SQL = """
SELECT p.crawl_id, p.position, count(o.id), min(o.at), max(p.updated_at)
FROM search_index_positions p
LEFT JOIN search_outbox o ON o.crawl_id = p.crawl_id AND o.id > p.position
WHERE p.index_key = %s
GROUP BY p.crawl_id, p.position
ORDER BY p.crawl_id
"""

# The session holding a folder's indexer lock (pg_locks keeps the 2-key form's second key
# as an unsigned oid).
_HOLDER_SQL = """
SELECT a.pid, a.application_name, a.client_addr::text
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
  AND l.classid::bigint = %s AND l.objid::bigint = (hashtext(%s)::bigint & 4294967295)
"""


@dataclass(frozen=True)
class CrawlLag:
    """How far one folder's index is behind one crawl's stored pages."""

    crawl_id: str
    position: int  # last outbox id applied
    pending: int  # operations stored and not yet applied (pages not searchable yet)
    oldest: Any  # time the oldest pending operation was stored (None: none pending)
    applied_at: Any  # when the position last moved


def outbox_lag(conn: psycopg.Connection, key: str) -> list[CrawlLag]:
    """The outbox lag of each crawl registered with the folder ``key``."""
    return [CrawlLag(*row) for row in conn.execute(_LAG_SQL, (key,)).fetchall()]


def lock_holder(conn: psycopg.Connection, key: str) -> int | None:
    """The PostgreSQL backend pid of the session running the folder's indexer, if any."""
    row = conn.execute(_HOLDER_SQL, (INDEXER_LOCK_CLASS, key)).fetchone()
    return None if row is None else int(row[0])


def index_key(path: str | Path) -> str:
    """The identity of an index folder in the lock and the positions: its absolute path."""
    return str(Path(path).resolve())


@dataclass
class IndexerReport:
    """What the indexer did since the last report."""

    pages: int = 0  # documents written (indexed or replaced)
    deleted: int = 0  # documents removed
    commits: int = 0
    failed: int = 0  # operations of batches that could not be applied (retried)
    errors: list[str] = field(default_factory=list)

    def add(self, other: IndexerReport) -> None:
        self.pages += other.pages
        self.deleted += other.deleted
        self.commits += other.commits
        self.failed += other.failed
        self.errors += other.errors


@dataclass(frozen=True)
class IndexerConfig:
    """Everything the indexer loop needs (picklable: it crosses into a spawned process)."""

    database_url: str
    index_path: str
    batch_size: int = defaults.SEARCH_BATCH_SIZE
    poll_interval: float = defaults.SEARCH_COMMIT_INTERVAL
    batch_seconds: float = defaults.SEARCH_BATCH_SECONDS
    writer_timeout: float = defaults.SEARCH_WRITER_TIMEOUT
    max_body_chars: int = defaults.SEARCH_MAX_BODY_CHARS
    max_names: int = defaults.SEARCH_NAMES_PER_PAGE
    limitmb: int = defaults.SEARCH_WRITER_LIMITMB
    merge_every: int = defaults.SEARCH_MERGE_EVERY
    nice: int = defaults.SEARCH_INDEXER_NICE
    idle: bool = defaults.SEARCH_INDEXER_IDLE
    backend: str = defaults.SEARCH_BACKEND


def try_lock_index(conn: psycopg.Connection, key: str) -> bool:
    """Take the index folder's indexer lock for this session, if free."""
    return bool(conn.execute(_TRY_LOCK_SQL, (INDEXER_LOCK_CLASS, key)).fetchone()[0])


def register_crawls(conn: psycopg.Connection, key: str, crawl_ids: Iterable[str]) -> None:
    """Register crawls with the index folder (existing crawls only; idempotent)."""
    conn.execute(_REGISTER_SQL, (key, list(crawl_ids)))


def positions(conn: psycopg.Connection, key: str) -> dict[str, int]:
    """The last outbox id applied to the folder, per registered crawl."""
    return dict(conn.execute(_POSITIONS_SQL, (key,)).fetchall())


def outbox_backlog(conn: psycopg.Connection, key: str, crawl_id: str) -> tuple[int, int]:
    """(operations, distinct URLs) of the crawl's outbox the folder ``key`` has not
    applied yet (all of them when the crawl is not registered with the folder)."""
    ops, urls = conn.execute(_BACKLOG_SQL, {"crawl": crawl_id, "key": key}).fetchone()
    return int(ops), int(urls)


def close_fits(backlog: int, remaining: float, seconds_per_op: float | None) -> bool:
    """Whether a stop with ``remaining`` seconds to its deadline should apply the
    ``backlog`` left at all: only when all of it fits in CLOSE_BATCH_SHARE of them at the
    rate timed so far (FIRST_CLOSE_BATCH operations when nothing was timed yet). Part of
    a backlog applied at the close is work the next indexer would do anyway: it only
    delays the crawl's exit, and the index is no more complete for it."""
    if backlog <= 0:
        return True
    if remaining <= 0:
        return False
    if seconds_per_op is None or seconds_per_op <= 0:
        return backlog <= FIRST_CLOSE_BATCH
    return backlog * seconds_per_op <= remaining * CLOSE_BATCH_SHARE


def close_batch_size(remaining: float, seconds_per_op: float | None, batch_size: int) -> int:
    """Operations of the next batch at a stop with ``remaining`` seconds to its deadline:
    what fits in CLOSE_BATCH_SHARE of them at the rate timed so far (0: stop now)."""
    if remaining <= 0:
        return 0
    if seconds_per_op is None or seconds_per_op <= 0:
        return min(batch_size, FIRST_CLOSE_BATCH)
    return min(batch_size, int(remaining * CLOSE_BATCH_SHARE / seconds_per_op))


def timed_batch_size(batch_seconds: float, seconds_per_op: float | None, batch_size: int) -> int:
    """Operations of the next batch while running: what takes about ``batch_seconds``
    at the rate timed so far (FIRST_TIMED_BATCH before any batch was timed), at least
    MIN_TIMED_BATCH, at most ``batch_size``; ``batch_seconds`` <= 0: ``batch_size``."""
    if batch_seconds <= 0:
        return batch_size
    if seconds_per_op is None or seconds_per_op <= 0:
        return min(batch_size, FIRST_TIMED_BATCH)
    return min(batch_size, max(MIN_TIMED_BATCH, int(batch_seconds / seconds_per_op)))


def outbox_heads(conn: psycopg.Connection, crawl_id: str | None) -> dict[str, int]:
    """The last outbox id of the crawl (None: of every crawl), 0 for crawls without
    rows: what a rebuild from the pages read afterwards has applied."""
    if crawl_id is None:
        crawls = [row[0] for row in conn.execute("SELECT id FROM crawls")]
    else:
        crawls = [crawl_id]
    heads = dict.fromkeys(crawls, 0)
    heads.update(conn.execute(_MAX_IDS_SQL, (crawls,)).fetchall())
    return heads


def set_positions(conn: psycopg.Connection, key: str, heads: dict[str, int]) -> None:
    """The folder now holds exactly these crawls, applied up to these outbox ids."""
    with conn.transaction():
        conn.execute(
            "DELETE FROM search_index_positions WHERE index_key = %s"
            " AND NOT crawl_id = ANY(%b::text[])",
            (key, list(heads)),
        )
        register_crawls(conn, key, heads)
        for crawl_id, position in heads.items():
            conn.execute(
                "UPDATE search_index_positions SET position = %s, updated_at = now()"
                " WHERE index_key = %s AND crawl_id = %s",
                (position, key, crawl_id),
            )


class OutboxIndexer:
    """Applies the outbox of the crawls registered with one index folder, batch by batch.

    The caller holds the folder's lock (:func:`try_lock_index`) on ``conn`` (autocommit).
    """

    def __init__(
        self, conn: psycopg.Connection, config: IndexerConfig, crawl_ids: Iterable[str] = ()
    ) -> None:
        from crawler.search.index import IndexWriter, open_index

        self.conn = conn
        self.crawl_ids = list(crawl_ids)
        self.registered = False
        self.config = config
        self.key = index_key(config.index_path)
        self.ix = open_index(config.index_path, backend=config.backend)
        self.writer = IndexWriter(
            self.ix, writer_timeout=config.writer_timeout, limitmb=config.limitmb
        )
        self.unmerged = 0  # commits since the last merging commit

    def close(self) -> None:
        self.ix.close()

    def drain_once(
        self, limit: int | None = None, on_read: Callable[[int], None] | None = None
    ) -> tuple[int, IndexerReport]:
        """Apply at most ``batch_size`` operations (and at most ``limit``) in one commit,
        then save positions. Returns (operations read, report). ``on_read`` is called
        with the number of operations read, before they are applied (when there are)."""
        from crawler.search.source import latest_page_documents

        if not self.registered:  # a crawl's row may appear after its indexer started
            register_crawls(self.conn, self.key, self.crawl_ids)
            self.registered = set(positions(self.conn, self.key)) >= set(self.crawl_ids)
        budget = self.config.batch_size if limit is None else min(limit, self.config.batch_size)
        budget = max(1, budget)
        batches: dict[str, list[OutboxOperation]] = {}
        registered = positions(self.conn, self.key)
        for crawl_id, position in registered.items():
            if budget <= 0:
                break
            rows = self.conn.execute(_READ_SQL, (crawl_id, position, budget)).fetchall()
            if rows:
                batches[crawl_id] = rows
                budget -= len(rows)
        read = sum(len(rows) for rows in batches.values())
        report = IndexerReport()
        if not read:
            return 0, report
        if on_read is not None:
            on_read(read)
        removed: set[str] = set()
        upserted: set[str] = set()
        for rows in batches.values():
            for url, op in last_operations(rows).items():
                (removed if op == DELETE else upserted).add(url)
        upserts = sorted(upserted - removed)
        # The index is keyed by URL across the folder's crawls: a URL's document is its
        # page in the crawl that fetched it last, as `scrapy reindex` builds it. An
        # upsert whose page row is gone (a duplicate demoted by a better copy) leaves
        # another crawl's page in its place, or removes it: never revive a page.
        found = latest_page_documents(
            self.conn,
            list(registered),
            upserts,
            max_body_chars=self.config.max_body_chars,
            max_names=self.config.max_names,
        )
        documents = list(found.values())
        deleted = sorted(removed) + [url for url in upserts if url not in found]
        merge = self.unmerged + 1 >= max(1, self.config.merge_every)
        try:
            self.writer.apply(documents, deleted, merge=merge)
        except Exception as exc:  # noqa: BLE001 - reported; the batch is retried later
            report.failed = read
            report.errors.append(f"{type(exc).__name__}: {exc}")
            return read, report
        self.unmerged = 0 if merge else self.unmerged + 1
        # only now: a crash before this line re-applies the batch (idempotent)
        with self.conn.transaction():
            for crawl_id, rows in batches.items():
                self.conn.execute(_SAVE_SQL, (rows[-1][0], self.key, crawl_id))
        for crawl_id in batches:
            self.conn.execute(_PRUNE_SQL, {"crawl": crawl_id})
        report.pages, report.deleted, report.commits = len(documents), len(deleted), 1
        return read, report

    def finish(self) -> None:
        """Merge the segments left by non-merging commits (one merging commit)."""
        if self.unmerged:
            self.writer.apply((), (), merge=True)
            self.unmerged = 0


class _Stop:
    """What stops the loop: an Event-like ``stop``, with an optional deadline (``deadline``:
    a ``multiprocessing.Value`` or any object with a float ``value``, ``time.time()`` of
    the deadline, 0: none), and, for a child process, the death of its parent."""

    def __init__(
        self,
        event: Any,
        parent_pid: int | None,
        deadline: Any = None,
        on_stop: Callable[[], None] | None = None,
        batch_end: Any = None,
    ) -> None:
        self.event = event
        self.parent_pid = parent_pid
        self.deadline = deadline
        self.on_stop = on_stop  # called once, when the stop is first seen
        # (same kind as ``deadline``) time.time() the running batch is expected to end
        # at, inf when not known yet, 0 when none runs: read by IndexerHandle.stop
        self.batch_end = batch_end

    def batch_started(self, operations: int, rate: float | None, limit: int) -> None:
        """A batch of ``operations`` (of at most ``limit``) is being applied; ``rate``:
        seconds per operation timed so far (None: not timed yet). A full batch leaves
        more in the outbox: its end is published as inf (never worth a close's wait,
        see :func:`close_fits`), as is a batch of an untimed rate."""
        if self.batch_end is not None:
            self.batch_end.value = (
                time.time() + operations * rate if rate and operations < limit else math.inf
            )

    def batch_ended(self) -> None:
        if self.batch_end is not None:
            self.batch_end.value = 0.0

    def remaining(self) -> float:
        """Seconds left to the stop's deadline (inf: none, apply everything)."""
        at = self.deadline.value if self.deadline is not None else 0.0
        return at - time.time() if at else math.inf

    def orphaned(self) -> bool:
        return self.parent_pid is not None and os.getppid() != self.parent_pid

    def requested(self) -> bool:
        if self.event.is_set() or self.orphaned():
            if self.on_stop is not None:
                on_stop, self.on_stop = self.on_stop, None
                on_stop()
            return True
        return False

    def wait(self, seconds: float) -> None:
        self.event.wait(seconds)


def run_indexer(
    config: IndexerConfig,
    crawl_ids: Iterable[str],
    *,
    follow: bool,
    stop: Any,
    report: Callable[[IndexerReport], None],
    parent_pid: int | None = None,
    standby: bool = True,
    deadline: Any = None,
    on_stop: Callable[[], None] | None = None,
    batch_end: Any = None,
) -> bool:
    """Register ``crawl_ids`` with the folder and apply the outbox.

    Without ``follow``: until the outbox is empty. With ``follow``: until ``stop`` (an
    Event) is set, then until empty. When another indexer holds the folder's lock:
    with ``standby``, wait; when asked to stop while waiting, return once the holder has
    applied every operation of ``crawl_ids`` written so far (or take over if it quits).
    Without ``standby``: return False at once. Returns True when this process held the
    lock. A lost database connection is reported and the loop reconnects. ``deadline``
    (see :class:`_Stop`), once ``stop`` is set: apply only what fits before it, leave
    the rest in the outbox. ``on_stop`` is called once when the stop is first seen.
    ``batch_end`` (same kind as ``deadline``) is kept at the time the running batch is
    expected to end (see :class:`_Stop`).
    """
    crawl_ids = list(crawl_ids)
    key = index_key(config.index_path)
    stopper = _Stop(stop, parent_pid, deadline, on_stop, batch_end)
    held_once = False
    while not stopper.orphaned():
        try:
            with psycopg.connect(config.database_url, autocommit=True) as conn:
                waiting_for = None
                while not try_lock_index(conn, key):
                    if not standby:
                        return False
                    # registered here too: the holder applies what it knows of
                    register_crawls(conn, key, crawl_ids)
                    if stopper.orphaned():
                        return held_once
                    if stopper.requested():
                        if stopper.remaining() <= 0:
                            return held_once  # the rest stays in the outbox
                        # leave the rest to the holder, once it is past our rows
                        if waiting_for is None:
                            waiting_for = dict(conn.execute(_MAX_IDS_SQL, (crawl_ids,)).fetchall())
                        if _applied(conn, key, waiting_for):
                            return held_once
                    stopper.wait(config.poll_interval)
                held_once = True
                _apply_while_holding(conn, config, crawl_ids, follow, stopper, report)
                return True
        except psycopg.OperationalError as exc:
            report(IndexerReport(errors=[f"database: {exc}".strip()]))
            stopper.wait(min(5.0, max(0.5, config.poll_interval)))
    return held_once


def _applied(conn: psycopg.Connection, key: str, upto: dict[str, int]) -> bool:
    """Whether the folder's positions reached ``upto`` (crawl id -> outbox id)."""
    done = positions(conn, key)
    return all(done.get(crawl_id, 0) >= last for crawl_id, last in upto.items())


def _apply_while_holding(
    conn: psycopg.Connection,
    config: IndexerConfig,
    crawl_ids: list[str],
    follow: bool,
    stopper: _Stop,
    report: Callable[[IndexerReport], None],
) -> None:
    # registered first: a stop before the first batch leaves them to the next indexer
    key = index_key(config.index_path)
    register_crawls(conn, key, crawl_ids)
    indexer = OutboxIndexer(conn, config, crawl_ids)
    seconds_per_op: float | None = None  # wall time per operation of the batches so far
    fit_checked = False  # whether a stop's deadline was weighed against the backlog
    try:
        while not stopper.orphaned():
            stopping = not follow or stopper.requested()
            # while following a crawl, batches of a few seconds (searchable sooner, little
            # work lost at its end); catching up with no deadline, the largest
            limit = config.batch_size
            if not stopping:
                limit = timed_batch_size(config.batch_seconds, seconds_per_op, limit)
            if stopping and (remaining := stopper.remaining()) < math.inf:
                if not fit_checked:
                    fit_checked = True
                    backlog = sum(outbox_backlog(conn, key, c)[0] for c in crawl_ids)
                    if not close_fits(backlog, remaining, seconds_per_op):
                        return  # all of it stays in the outbox, for the next indexer
                limit = close_batch_size(remaining, seconds_per_op, config.batch_size)
                if limit <= 0:
                    return  # past the deadline: the rest stays in the outbox
            started = time.monotonic()
            try:
                read, done = indexer.drain_once(
                    limit,
                    on_read=functools.partial(
                        stopper.batch_started, rate=seconds_per_op, limit=limit
                    ),
                )
            finally:
                stopper.batch_ended()
            if done.commits and read:
                took = (time.monotonic() - started) / read
                seconds_per_op = took if seconds_per_op is None else 0.5 * (seconds_per_op + took)
            if done.commits or done.errors:
                report(done)
            if done.errors:
                if stopping and stopper.remaining() < math.inf:
                    return  # no retry at a deadline: the batch stays in the outbox
                stopper.wait(config.poll_interval)
                continue
            if read >= limit:
                continue  # a backlog: next batch at once
            clear_pending(config.index_path)  # caught up: every registered crawl applied
            if stopping and read == 0:
                break
            if not stopping:
                stopper.wait(config.poll_interval)
        if not stopper.orphaned():
            indexer.finish()
    finally:
        indexer.close()


# --------------------------------------------------------------------- in the background


def lower_priority(nice: int, idle: bool) -> None:
    """Lower this process's CPU priority: ``nice`` added to its niceness, and with
    ``idle`` Linux's SCHED_IDLE policy (a CPU only when nothing else wants it), so that
    an indexer takes only the CPU a crawl leaves (docs/performance.md)."""
    if nice:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - not allowed here: index at normal priority
            pass
    if idle and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # pragma: no cover - not allowed here: niceness only
            pass


def leave_idle_priority(pid: int = 0) -> None:
    """Process ``pid`` (0: this one) back from SCHED_IDLE to the normal policy, keeping
    its niceness: the crawl has stopped, the indexer's last batches (and its exit) should
    not wait for an idle CPU, which a loaded machine never has. Linux allows it with
    CAP_SYS_NICE or an RLIMIT_NICE that covers the niceness; otherwise the indexer stays
    idle-scheduled."""
    if not hasattr(os, "SCHED_IDLE"):
        return
    try:
        if os.sched_getscheduler(pid) == os.SCHED_IDLE:
            os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))
    except OSError:  # not allowed, or the process is gone
        pass


def _indexer_process_main(
    config: IndexerConfig,
    crawl_ids: list[str],
    stop: Any,
    results: Any,
    parent_pid: int,
    deadline: Any,
    batch_end: Any = None,
) -> None:
    # Ctrl-C reaches the whole process group: the crawl stops this indexer itself (its
    # close budget), a KeyboardInterrupt here would only cut a batch short
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(config.nice, config.idle)
    run_indexer(
        config,
        crawl_ids,
        follow=True,
        stop=stop,
        report=results.put,
        parent_pid=parent_pid,
        deadline=deadline,
        on_stop=leave_idle_priority if config.idle else None,
        batch_end=batch_end,
    )


class _Deadline:
    """A stop's deadline shared with an indexer thread (a process gets a
    ``multiprocessing.Value``)."""

    value = 0.0


class IndexerHandle:
    """The indexer of a crawl in a process of its own (``in_process=False``: a thread).

    ``start`` it when the crawl opens; ``stop`` when the pages are stored: it applies
    what is left (or what fits in ``stop``'s budget; or leaves it to the indexer that
    holds the folder) and exits. ``reports`` collects what it did so far; ``restart``
    replaces a dead indexer.
    """

    def __init__(
        self, config: IndexerConfig, crawl_ids: list[str], *, in_process: bool = True
    ) -> None:
        self.config = config
        self.crawl_ids = list(crawl_ids)
        self.in_process = in_process
        self._worker: Any = None
        self._make()

    def _make(self) -> None:
        if self.in_process:
            context = multiprocessing.get_context("spawn")
            self._stop: Any = context.Event()
            self._results: Any = context.Queue()
            self._deadline: Any = context.Value("d", 0.0, lock=False)
            self._batch_end: Any = context.Value("d", 0.0, lock=False)
            self._worker = context.Process(
                target=_indexer_process_main,
                args=(
                    self.config,
                    self.crawl_ids,
                    self._stop,
                    self._results,
                    os.getpid(),
                    self._deadline,
                    self._batch_end,
                ),
                name="search-indexer",
                daemon=True,
            )
        else:
            self._stop = threading.Event()
            self._results = queue.Queue()
            self._deadline = _Deadline()
            self._batch_end = _Deadline()
            self._worker = threading.Thread(
                target=run_indexer,
                args=(self.config, self.crawl_ids),
                kwargs={
                    "follow": True,
                    "stop": self._stop,
                    "report": self._results.put,
                    "deadline": self._deadline,
                    "batch_end": self._batch_end,
                },
                name="search-indexer",
                daemon=True,
            )

    def start(self) -> None:
        """Start the indexer. From the main thread, a process is started with SIGINT
        ignored, which the new interpreter keeps: Ctrl-C reaches the whole process group,
        and the crawl stops its indexer itself (a KeyboardInterrupt would cut a batch
        short, or the indexer's start-up, with a traceback)."""
        if self.in_process and threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                self._worker.start()
            finally:
                signal.signal(signal.SIGINT, previous)
        else:
            self._worker.start()

    @property
    def alive(self) -> bool:
        return self._worker.is_alive()

    @property
    def batch_end(self) -> float:
        """time.time() the running batch is expected to end at (inf: a full batch, or
        one of a rate not timed yet; 0: none runs)."""
        return float(self._batch_end.value)

    def restart(self) -> None:
        """Start a new indexer in place of one that died (its lock died with it)."""
        self._make()
        self.start()

    def reports(self) -> IndexerReport:
        """Everything reported since the last call (never blocks)."""
        total = IndexerReport()
        while True:
            try:
                total.add(self._results.get_nowait())
            except queue.Empty:
                return total
            except (EOFError, OSError, ValueError):  # a pipe cut by a terminated child
                return total

    def stop(self, budget: float | None = None) -> tuple[IndexerReport, bool]:
        """Ask the indexer to finish and wait for it; returns the last reports and
        whether it finished within its time.

        ``budget`` None: it applies everything left, however long that takes. Else it
        applies what is left if all of it fits in ``budget`` seconds, else nothing (the
        rest stays in the outbox: see :func:`close_fits`); a
        batch still running ``STOP_GRACE`` seconds after that is cut short (a process
        is terminated; a thread, which cannot be, is left to die with the process), and
        so is, at once, a batch expected to end after that, or that leaves more in the
        outbox (a full batch), or whose rate is not timed yet: waiting for it would only
        delay the exit, since a batch cut short is applied again later anyway and the
        index would not be complete for it.
        """
        cut_after = math.inf
        if budget is not None:
            self._deadline.value = time.time() + max(0.0, budget)
            cut_after = self._deadline.value + STOP_GRACE
        if self.in_process and self.config.idle and self._worker.pid is not None:
            leave_idle_priority(self._worker.pid)  # from here, since it may get no CPU
        self._stop.set()
        report = IndexerReport()
        until = None if budget is None else time.monotonic() + max(0.0, budget) + STOP_GRACE
        finished = True
        # drain while waiting: a child blocked on a full result pipe would never exit
        while self._worker.is_alive():
            try:
                report.add(self._results.get(timeout=0.05))
            except queue.Empty:
                pass
            if until is not None and (
                time.monotonic() > until or self._batch_end.value > cut_after
            ):
                finished = False
                if self.in_process:
                    self._worker.terminate()
                break
        self._worker.join(timeout=5 if finished or self.in_process else 0)
        report.add(self.reports())
        return report, finished
