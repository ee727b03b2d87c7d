"""The best-first frontier: URL-seen test, scored ready buffer, batched durable store.

``add`` and ``pop`` are synchronous and never wait for the store: new URLs, score
updates, acks and evictions are collected in memory and written by ``flush`` (one
transaction); the buffer is topped up from the store by ``refill``. Whoever drives the
frontier (the Scrapy scheduler, a benchmark) calls ``flush``/``refill`` from a
background task every fraction of a second.

Where a URL is:

- *buffered*: in the in-memory :class:`ReadyBuffer` (row state ``leased``);
- *queued*: only in the store (state ``queued``), until a refill leases it;
- *in flight*: handed out by ``pop``, until ``done`` acks it (state ``done``);
- *evicted*: dropped by the max-wait rule or the size cap (state ``evicted``, and an
  ``evicted`` row in ``uncrawled``).

A new URL goes to the buffer if it has room (``buffer_size`` in all, ``buffer_per_host``
per host) or if it ranks above the buffer's lowest entry (which then goes back to the
store); otherwise it is queued in the store. The buffer is refilled with the best queued
rows when it falls below half. While the whole frontier fits in the buffer the order is
exactly best-first; beyond that, the buffer holds the best URLs known when it was
filled, and a queued URL whose score rises waits for the next refill.

Plain Python and asyncio: no Scrapy import.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crawler import defaults
from crawler.frontier.buffer import DONE, EVICTED, LEASED, QUEUED, Entry, Readiness, ReadyBuffer
from crawler.frontier.scores import Strategy, UrlStats
from crawler.frontier.seen import FingerprintSet
from crawler.frontier.store import (
    FrontierStore,
    NewRow,
    OpenState,
    QueuedKey,
    WriteBatch,
    WriteResult,
)

logger = logging.getLogger(__name__)


@dataclass
class IntervalStats:
    """What happened since the last ``take_interval`` (one row of ``crawl_stats``)."""

    enqueued: int = 0
    duplicates: int = 0
    dequeued: int = 0
    wait_sum: float = 0.0
    wait_min: float | None = None
    wait_max: float | None = None
    evicted: int = 0

    @property
    def wait_avg(self) -> float | None:
        return self.wait_sum / self.dequeued if self.dequeued else None


@dataclass
class FrontierCounters:
    """Totals since the frontier was opened (mirrored into Scrapy stats)."""

    enqueued: int = 0
    duplicates: int = 0
    dequeued: int = 0
    acked: int = 0
    evicted_age: int = 0
    evicted_size: int = 0
    reprioritised: int = 0  # buffered or unwritten URLs whose score changed
    rescored_stored: int = 0  # stored rows whose statistics were updated by new links
    released: int = 0
    refills: int = 0
    refilled: int = 0
    flushes: int = 0
    written: int = 0


class Frontier:
    def __init__(
        self,
        store: FrontierStore,
        strategy: Strategy,
        *,
        serialize: Callable[[Any, str], bytes],
        buffer_size: int = defaults.FRONTIER_BUFFER_SIZE,
        buffer_per_host: int = defaults.FRONTIER_BUFFER_PER_HOST,
        max_wait: float = defaults.FRONTIER_MAX_WAIT,
        max_size: int = 0,
        batch_size: int = defaults.FRONTIER_BATCH_SIZE,
        evict_limit: int = 10000,
        hold_margin: float | None = None,
        shared: bool = False,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.strategy = strategy
        self.serialize = serialize
        self.buffer_size = max(1, buffer_size)
        self.per_host = max(1, buffer_per_host)
        self.max_wait = max_wait
        self.max_size = max_size
        self.batch_size = batch_size
        self.evict_limit = evict_limit
        # shared: one agent of a distributed crawl. New URLs go to the store first (another
        # agent may own their host, or have queued or fetched them already) and the buffer
        # is filled only by claims of the hosts this agent owns (``refill(hosts)``).
        self.shared = shared
        self._now = now
        self.seen = FingerprintSet()
        self.buffer = ReadyBuffer(hold_margin)  # hold_margin: see ReadyBuffer
        self.inflight: dict[int, Entry] = {}
        self.seq = 0
        self._clock_offset = 0.0
        self._clock_start = now()
        # not written yet
        self._new: dict[int, Entry] = {}
        self._deltas: dict[int, UrlStats] = {}
        self._done: dict[int, tuple[float, str | None]] = {}
        # buffered rows put back in the queue, not written yet: fp -> inter
        self._released: dict[int, bool] = {}
        self._evicted: dict[int, tuple[str, str]] = {}
        # queued rows in the store (as written: what a claim can see) / queued entries
        # and released rows waiting to be written, [intra, inter]
        self._stored_queued = [0, 0]
        self._pending_queued = [0, 0]
        self._age_check_due = False
        # the last refill found nothing for the hosts with room: wait for a change, i.e.
        # new queued rows or room again on one of the hosts whose share was full
        # (``_full_hosts``, checked as a level, not an edge: see ``needs_refill``)
        self._refill_blocked = False
        self._full_hosts: list[str] = []
        self.counters = FrontierCounters()
        self.interval = IntervalStats()

    # --- lifecycle -------------------------------------------------------------------
    async def open(self) -> OpenState:
        state = await self.store.open(self.strategy)
        self.seen = FingerprintSet(state.fingerprints)
        self._clock_offset = state.clock
        self._clock_start = self._now()
        self.seq = state.seq
        self._stored_queued = [state.queued_intra, state.queued_inter]
        self._age_check_due = True
        return state

    async def close(self, clean: bool = True) -> None:
        """Put buffered URLs back in the queue, write everything, close the store."""
        for entry in list(self.buffer.entries.values()):
            self.buffer.remove(entry.fp)
            self._release(entry)
        self.max_size = 0  # no eviction round trips while closing
        await self.flush()
        await self.store.close(clean, self.clock(), self.seq)

    def clock(self) -> float:
        """Crawl clock: seconds of crawling, carried over from earlier runs of the crawl."""
        return self._clock_offset + (self._now() - self._clock_start)

    # --- sizes -----------------------------------------------------------------------
    @property
    def queued(self) -> int:
        """URLs waiting to be fetched: buffered, queued in the store, not yet written."""
        return len(self.buffer) + sum(self._stored_queued) + sum(self._pending_queued)

    @property
    def queued_inter(self) -> int:
        return self.buffer.inter + self._stored_queued[1] + self._pending_queued[1]

    @property
    def queued_intra(self) -> int:
        return self.queued - self.queued_inter

    def has_pending(self) -> bool:
        return self.queued > 0

    @property
    def unwritten(self) -> int:
        return len(self._new) + len(self._deltas) + len(self._done) + len(self._released) + len(
            self._evicted
        )

    def wants_flush(self) -> bool:
        return self.unwritten >= self.batch_size

    def needs_refill(self) -> bool:
        if self._refill_blocked and self._full_hosts:
            # a host excluded from the last claim because its share of the buffer was
            # full has room again, however its entries left (popped, evicted, released)
            count, cap = self.buffer.host_count, self.per_host
            if any(count(h) < cap for h in self._full_hosts):
                self.unblock_refill()
        return (
            not self._refill_blocked
            and (self.shared or sum(self._stored_queued) > 0)
            and len(self.buffer) < self.buffer_size // 2 + 1
        )

    def unblock_refill(self) -> None:
        """Something changed that a refill may find (a host gained, rows written)."""
        self._refill_blocked = False
        self._full_hosts = []

    @property
    def refill_blocked(self) -> bool:
        """Whether refills wait for a change (for the stall check and its report)."""
        return self._refill_blocked

    def release_hosts(self, hosts: set[str]) -> int:
        """Put the buffered URLs of ``hosts`` back in the queue (a shared frontier's
        agent lost or hands back those hosts); returns how many."""
        if not hosts:
            return 0
        entries = [e for e in self.buffer.entries.values() if e.host in hosts]
        for entry in entries:
            self.buffer.remove(entry.fp)
            self._release(entry)
        return len(entries)

    def next_ready_at(self) -> float | None:
        """``now()`` time at which the earliest waiting host becomes ready."""
        return self.buffer.next_ready_at()

    # --- adding ------------------------------------------------------------------------
    def add(
        self,
        fp: int,
        url: str,
        host: str,
        priority: int,
        stats: UrlStats,
        inter: bool,
        request: Any,
        *,
        link: bool = False,
        force: bool = False,
    ) -> bool:
        """Queue a URL; False if it was seen before (its score then absorbs ``stats``
        when ``link`` is true). ``force`` (dont_filter) queues a seen URL again, once."""
        if force and fp in self.inflight:
            # a retry (or redirect) of a URL handed out here. An agent's seen set may not
            # know it (another agent queued it): it is still a re-queue, superseding the
            # lease in flight, never a new link merged into that lease (issue 31)
            self.seen.add(fp)
            return self._requeue(fp, url, host, priority, stats, inter, request)
        if not self.seen.add(fp):
            if force:
                return self._requeue(fp, url, host, priority, stats, inter, request)
            self.counters.duplicates += 1
            self.interval.duplicates += 1
            if link:
                self._absorb(fp, stats)
            return False
        entry = self._entry(fp, url, host, priority, stats, inter, request)
        self._new[fp] = entry
        self._place(entry)
        return True

    def absorb_seen(self, fp: int, stats: UrlStats) -> bool:
        """What add(..., link=True) does with a link to a URL seen before, for a caller
        that has no request for it; False (nothing done) if the URL was not seen."""
        if fp not in self.seen:
            return False
        self.counters.duplicates += 1
        self.interval.duplicates += 1
        self._absorb(fp, stats)
        return True

    def _entry(
        self, fp: int, url: str, host: str, priority: int, stats: UrlStats, inter: bool,
        request: Any,
    ) -> Entry:
        self.seq += 1
        self.counters.enqueued += 1
        self.interval.enqueued += 1
        self._age_check_due = True
        entry = Entry(
            fp, url, host, priority, -self.seq if self.strategy.newest_first else self.seq,
            inter, stats, self.clock(), request=request,
        )
        entry.score = self.strategy.score(stats)
        return entry

    def _place(self, entry: Entry) -> None:
        if not self.shared and self._admit(entry):
            entry.state = LEASED
            self.buffer.add(entry)
        else:
            entry.state = QUEUED
            self._pending_queued[entry.inter] += 1
            self._refill_blocked = False  # a refill may find it

    def _admit(self, entry: Entry) -> bool:
        """Whether ``entry`` gets a place in the buffer (possibly taking the lowest's)."""
        buffer = self.buffer
        on_host = buffer.host_count(entry.host)
        if on_host < self.per_host and len(buffer) < self.buffer_size:
            return True
        victim = buffer.worst_of_host(entry.host) if on_host >= self.per_host else buffer.worst()
        if victim is None:
            return False
        # entry.order() < victim.order(), field by field: no tuples on this hot path
        if entry.priority != victim.priority:
            if entry.priority < victim.priority:
                return False
        elif entry.score != victim.score:
            if not entry.score > victim.score:
                return False
        elif not entry.tiebreak < victim.tiebreak:
            return False
        buffer.remove(victim.fp)
        self._release(victim)
        return True

    def _release(self, entry: Entry) -> None:
        """A buffered entry goes back to the queue in the store."""
        self.counters.released += 1
        # counted as pending until written: the row is still leased in the store, and a
        # claim (or the counters' correction after an empty claim) must not count it yet
        self._pending_queued[entry.inter] += 1
        if entry.in_db:
            self._released[entry.fp] = entry.inter
        else:
            entry.state = QUEUED

    def _requeue(
        self, fp: int, url: str, host: str, priority: int, stats: UrlStats, inter: bool,
        request: Any,
    ) -> bool:
        queued = self.buffer.get(fp) or self._new.get(fp)
        if queued is not None and queued.state in (QUEUED, LEASED) and fp not in self.inflight:
            queued.request = request  # still waiting: serve the new request in its place
            return True
        previous = self.inflight.get(fp)
        if previous is not None:
            previous.superseded = True
        # an ack not written yet is older than this re-queue: the row must end queued
        self._done.pop(fp, None)
        entry = self._entry(fp, url, host, priority, stats, inter, request)
        entry.upsert = True
        self._new[fp] = entry
        self._place(entry)
        return True

    def _absorb(self, fp: int, event: UrlStats) -> None:
        """A new link to a known URL: raise its score in place."""
        entry = self.buffer.get(fp)
        buffered = entry is not None
        if entry is None:
            entry = self._new.get(fp)
            if entry is not None and entry.state != QUEUED:
                return
        if entry is None:
            if fp not in self.inflight:
                delta = self._deltas.get(fp)
                if delta is None:
                    self._deltas[fp] = event.copy()
                else:
                    delta.absorb(event)
            return
        entry.stats.absorb(event)
        score = self.strategy.score(entry.stats)
        if score != entry.score:
            entry.score = score
            self.counters.reprioritised += 1
            if buffered:
                self.buffer.update(entry)
            elif not self.shared and self._admit(entry):  # a queued, unwritten entry
                # may now earn a place
                self._pending_queued[entry.inter] -= 1
                entry.state = LEASED
                self.buffer.add(entry)
        if entry.in_db:
            delta = self._deltas.get(fp)
            if delta is None:
                self._deltas[fp] = event.copy()
            else:
                delta.absorb(event)

    # --- serving -----------------------------------------------------------------------
    def pop(self, readiness: Readiness) -> Entry | None:
        """The best buffered URL whose host is ready (None: none is, for now)."""
        entry = self.buffer.pop(readiness, self._now())
        if entry is None:
            return None
        if entry.payload is None and not entry.in_db:
            # serialised now, before the crawl adds things to the request it hands out
            entry.payload = self.serialize(entry.request, entry.url)
        self.inflight[entry.fp] = entry
        wait = self.clock() - entry.queued_at
        self.counters.dequeued += 1
        iv = self.interval
        iv.dequeued += 1
        iv.wait_sum += wait
        iv.wait_min = wait if iv.wait_min is None else min(iv.wait_min, wait)
        iv.wait_max = wait if iv.wait_max is None else max(iv.wait_max, wait)
        return entry

    def done(self, entry: Entry, result_url: str | None = None) -> None:
        """Ack a popped entry: its response or failure has been fully processed."""
        if self.inflight.get(entry.fp) is entry:
            del self.inflight[entry.fp]
        if entry.superseded:
            return
        self.counters.acked += 1
        at = self.clock()
        if result_url == entry.url:
            result_url = None
        if entry.in_db:
            self._done[entry.fp] = (at, result_url)
            entry.request = None
        else:
            entry.state, entry.done_at, entry.result_url = DONE, at, result_url

    async def queued_hosts(self, limit: int = 5) -> list[tuple[str, int]]:
        """The hosts with the most URLs queued in the store (for a stall's report)."""
        return await self.store.queued_hosts(limit)

    def take_interval(self) -> IntervalStats:
        interval, self.interval = self.interval, IntervalStats()
        return interval

    # --- writing -----------------------------------------------------------------------
    def _take_batch(self) -> WriteBatch:
        batch = WriteBatch(clock=self.clock(), seq=self.seq)
        for entry in self._new.values():
            if entry.payload is None:
                entry.payload = self.serialize(entry.request, entry.url)
            entry.in_db = True
            (batch.upserts if entry.upsert else batch.new).append(NewRow.of(entry))
            batch.entries.append(entry)
            if entry.state == QUEUED:
                entry.request = None
        for i in (0, 1):
            self._stored_queued[i] += self._pending_queued[i]
        self._pending_queued = [0, 0]
        self._new = {}
        batch.deltas, self._deltas = self._deltas, {}
        batch.done, self._done = self._done, {}
        batch.released, self._released = set(self._released), {}
        batch.evicted, self._evicted = self._evicted, {}
        return batch

    def _restore(self, batch: WriteBatch, released: dict[int, bool]) -> None:
        """Put a batch that could not be written back in front of the newer changes
        (``released``: its released rows, fp -> inter)."""
        for inter in released.values():
            self._stored_queued[inter] -= 1
            self._pending_queued[inter] += 1
        for entry in batch.entries:
            entry.in_db = False
            self._new.setdefault(entry.fp, entry)
            if entry.state == QUEUED:
                self._stored_queued[entry.inter] -= 1
                self._pending_queued[entry.inter] += 1
        for fp, delta in self._deltas.items():
            older = batch.deltas.get(fp)
            if older is None:
                batch.deltas[fp] = delta
            else:
                older.absorb(delta)
        self._deltas = batch.deltas
        self._done = {**batch.done, **self._done}
        self._released = {**released, **self._released}
        self._evicted = {**batch.evicted, **self._evicted}

    async def flush(self) -> WriteResult | None:
        """Write everything collected since the last flush (one transaction), then
        apply the max-wait and size rules."""
        expire_before = None
        if self.max_wait > 0 and self._age_check_due and self.clock() <= self.max_wait:
            # no URL can have waited longer than the crawl's clock: nothing to look for
            self._age_check_due = False
        elif self.max_wait > 0 and self._age_check_due:
            expire_before = self.clock() - self.max_wait
            self._evict_from_memory(
                self.buffer.older_than(expire_before)
                + sorted(
                    (e for e in self._new.values()
                     if e.state == QUEUED and e.queued_at < expire_before),
                    key=Entry.order, reverse=True,
                ),
                self._age_detail(),
                age=True,
            )
        released = self._released
        batch = self._take_batch()
        if expire_before is not None:
            batch.expire_before = expire_before
            batch.expire_detail = self._age_detail()
            batch.expire_limit = self.evict_limit
            self._age_check_due = False
        if not batch:
            return None
        try:
            result = await self.store.write(batch)
        except BaseException:
            self._restore(batch, released)
            if expire_before is not None:
                self._age_check_due = True
            raise
        self.counters.flushes += 1
        self.counters.written += batch.size
        self.counters.rescored_stored += result.rescored
        expired = result.expired_inter + result.expired_intra
        if expired:
            self._stored_queued[1] = max(0, self._stored_queued[1] - result.expired_inter)
            self._stored_queued[0] = max(0, self._stored_queued[0] - result.expired_intra)
            self.counters.evicted_age += expired
            self.interval.evicted += expired
            logger.info("frontier: %d URLs waited longer than %.0f s: evicted", expired,
                        self.max_wait)
        if result.expired_more:
            self._age_check_due = True
        if self.max_size > 0 and self.queued > self.max_size:
            await self._evict_over_size()
        return result

    def _age_detail(self) -> str:
        return f"waited longer than FRONTIER_MAX_WAIT ({self.max_wait:g} s)"

    def _evict_from_memory(self, entries: list[Entry], detail: str, *, age: bool) -> None:
        for entry in entries:
            if entry.fp in self.buffer:
                self.buffer.remove(entry.fp)
            elif entry.state == QUEUED and self._new.get(entry.fp) is entry:
                self._pending_queued[entry.inter] -= 1
            else:
                continue
            entry.state = EVICTED
            entry.done_at = self.clock()
            self._evicted[entry.fp] = (entry.url, detail)
            if age:
                self.counters.evicted_age += 1
            else:
                self.counters.evicted_size += 1
            self.interval.evicted += 1

    async def _evict_over_size(self) -> None:
        excess = self.queued - self.max_size
        stored = await self.store.lowest_queued(excess)
        candidates: list[Entry | QueuedKey] = [*self.buffer.lowest(excess), *stored]
        candidates.sort(key=lambda c: c.order(), reverse=True)
        chosen = candidates[:excess]
        detail = f"frontier over FRONTIER_MAX_SIZE ({self.max_size})"
        self._evict_from_memory([c for c in chosen if isinstance(c, Entry)], detail, age=False)
        fps = [c.fp for c in chosen if isinstance(c, QueuedKey)]
        if fps:
            inter, intra = await self.store.evict(fps, detail, self.clock())
            self._stored_queued[1] = max(0, self._stored_queued[1] - inter)
            self._stored_queued[0] = max(0, self._stored_queued[0] - intra)
            self.counters.evicted_size += inter + intra
            self.interval.evicted += inter + intra
        logger.info("frontier over FRONTIER_MAX_SIZE (%d): %d lowest-ranked URLs evicted",
                    self.max_size, len(chosen))

    async def refill(self, hosts: list[str] | None = None) -> int:
        """Lease the best queued rows of the store into the buffer (of ``hosts`` only,
        when given); returns how many."""
        want = self.buffer_size - len(self.buffer)
        if want <= 0 or not (self.shared or sum(self._stored_queued)):
            return 0
        exclude = self.buffer.full_hosts(self.per_host)
        if hosts is not None:
            excluded = set(exclude)
            hosts = [h for h in hosts if h not in excluded]
            if not hosts:
                self._refill_blocked = True
                return 0
        rows = await self.store.claim(want, self.per_host, exclude, hosts)
        self.counters.refills += 1
        self.counters.refilled += len(rows)
        for row in rows:
            entry = Entry(
                row.fp, row.url, row.host, row.priority, row.tiebreak, row.inter, row.stats,
                row.queued_at, score=row.score, payload=row.payload, state=LEASED, in_db=True,
            )
            delta = self._deltas.get(row.fp)
            if delta is not None:  # links found while the claim was on its way
                entry.stats.absorb(delta)
                entry.score = self.strategy.score(entry.stats)
            self.buffer.add(entry)
            i = int(row.inter)
            self._stored_queued[i] = max(0, self._stored_queued[i] - 1)
        if self.shared:
            # other agents' rows are not counted here; nothing left for our hosts until
            # something changes (rows written, hosts gained)
            self._refill_blocked = len(rows) < want
        elif not rows and not exclude:
            # the store has no queued row left: correct any drift of the counters
            self._stored_queued = [0, 0]
        elif len(rows) < want and exclude:
            # what is left belongs to hosts whose share of the buffer is full: wait until
            # one of them has room again. Checked now, after the claim's round trip, as
            # entries were popped meanwhile: a host whose share emptied while the claim
            # was on its way would otherwise wait for ever (issue 31).
            self._full_hosts = exclude
            self._refill_blocked = True
        return len(rows)
