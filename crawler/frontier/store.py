"""Where the frontier lives: the small storage interface and an in-memory implementation.

A store keeps one row per URL ever queued in a crawl (the persisted URL-seen set) with
its state (queued, leased, done, evicted), its statistics and score, and the serialised
request. The :class:`~crawler.frontier.frontier.Frontier` talks to it only in batches:
``write`` (everything that changed since the last write, in one transaction), ``claim``
(lease the best queued rows into the ready buffer), and the two evictions.

Leases belong to the process that holds the crawl (a store admits one at a time): when
that process ends, gracefully or not, its leases are over, and ``open`` puts them back in
the queue. In a distributed crawl (crawler/agents) several agents share the rows: leases
carry the agent's id and a dead agent's leases are re-queued by the others.

:class:`MemoryStore` implements the same contract with dicts, for tests of the
algorithms; :class:`~crawler.frontier.postgres_store.PostgresStore` is the real one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from crawler.frontier.buffer import DONE, EVICTED, LEASED, QUEUED, Entry
from crawler.frontier.scores import Strategy, UrlStats


@dataclass(slots=True)
class StoredRow:
    """A queued row claimed from the store."""

    fp: int
    url: str
    host: str
    priority: int
    score: float
    tiebreak: int
    inter: bool
    stats: UrlStats
    queued_at: float
    payload: bytes


@dataclass
class OpenState:
    """What a store knows about a crawl when it is opened."""

    fingerprints: np.ndarray  # every URL ever queued (int64)
    queued_inter: int  # queued rows that came from an inter-domain link
    queued_intra: int
    clock: float  # crawl clock (seconds of crawling) when it was last written
    seq: int  # last insertion sequence number used
    resumed: bool
    requeued_leases: int = 0  # leased (buffered or in flight) when the last run ended
    finished_leases: int = 0  # leased, but their page or failure row was saved: done
    requeued_unsaved: int = 0  # done, but their page never reached the database
    rescored: int = 0  # queued rows re-scored because the strategy changed


@dataclass(slots=True)
class NewRow:
    """A row to insert, as its entry was when the batch was taken (the entry itself may
    change while the batch is being written)."""

    fp: int
    url: str
    host: str
    state: int
    priority: int
    score: float
    tiebreak: int
    inter: bool
    stats: UrlStats
    queued_at: float
    done_at: float | None
    result_url: str | None
    payload: bytes

    @classmethod
    def of(cls, e: Entry) -> NewRow:
        assert e.payload is not None, "entry not serialised"
        return cls(e.fp, e.url, e.host, e.state, e.priority, e.score, e.tiebreak, e.inter,
                   e.stats.copy(), e.queued_at, e.done_at, e.result_url, e.payload)


@dataclass
class WriteBatch:
    """Everything the frontier changed since its last write."""

    new: list[NewRow] = field(default_factory=list)  # rows to insert
    upserts: list[NewRow] = field(default_factory=list)  # re-queued URLs (dont_filter)
    entries: list[Entry] = field(default_factory=list)  # of new and upserts (to retry)
    deltas: dict[int, UrlStats] = field(default_factory=dict)  # link events on stored rows
    done: dict[int, tuple[float, str | None]] = field(default_factory=dict)  # acks
    released: set[int] = field(default_factory=set)  # leased -> queued
    evicted: dict[int, tuple[str, str]] = field(default_factory=dict)  # fp -> (url, detail)
    clock: float = 0.0
    seq: int = 0
    # evict queued rows older than this crawl-clock time (None: no age check)
    expire_before: float | None = None
    expire_detail: str = ""
    expire_limit: int = 10000

    def __bool__(self) -> bool:
        return bool(
            self.new or self.upserts or self.deltas or self.done or self.released
            or self.evicted or self.expire_before is not None
        )

    @property
    def size(self) -> int:
        return (
            len(self.new) + len(self.upserts) + len(self.deltas) + len(self.done)
            + len(self.released) + len(self.evicted)
        )


@dataclass
class WriteResult:
    rescored: int = 0  # queued or leased rows whose statistics were updated by deltas
    expired_inter: int = 0  # queued rows evicted by age
    expired_intra: int = 0
    expired_more: bool = False  # the age eviction hit its limit: more may be waiting


@dataclass
class QueuedKey:
    """Rank of a queued row (for the size cap): lower is evicted first."""

    fp: int
    priority: int
    score: float
    tiebreak: int

    def order(self) -> tuple[int, float, int]:
        return (-self.priority, -self.score, self.tiebreak)


class FrontierStore(Protocol):
    async def open(self, strategy: Strategy) -> OpenState: ...

    async def write(self, batch: WriteBatch) -> WriteResult: ...

    async def claim(
        self, limit: int, per_host: int, exclude_hosts: list[str],
        hosts: list[str] | None = None,
    ) -> list[StoredRow]:
        """Lease up to ``limit`` best queued rows, at most ``per_host`` per host, none of
        ``exclude_hosts`` (and only of ``hosts`` when given); best first."""
        ...

    async def lowest_queued(self, limit: int) -> list[QueuedKey]: ...

    async def evict(self, fps: list[int], detail: str, at: float) -> tuple[int, int]:
        """Evict these queued rows (recorded as ``evicted`` uncrawled URLs); returns the
        numbers of inter and intra rows evicted."""
        ...

    async def close(self, clean: bool, clock: float, seq: int) -> None: ...


@dataclass
class _Row:
    fp: int
    url: str
    host: str
    state: int
    priority: int
    score: float
    tiebreak: int
    inter: bool
    stats: UrlStats
    queued_at: float
    payload: bytes
    done_at: float | None = None
    result_url: str | None = None

    def order(self) -> tuple[int, float, int]:
        return (-self.priority, -self.score, self.tiebreak)


class MemoryStore:
    """The store contract with dicts: for tests; ``pages`` stands for stored results."""

    def __init__(self) -> None:
        self.rows: dict[int, _Row] = {}
        self.uncrawled: dict[str, str] = {}  # url -> detail of evicted URLs
        self.pages: set[str] = set()  # URLs whose result was saved (resume check)
        self.clock = 0.0
        self.seq = 0
        self.clean = True
        self.signature: str | None = None
        self.recheck_window = 600.0
        self.strategy: Strategy | None = None
        self.writes = 0

    async def open(self, strategy: Strategy) -> OpenState:
        self.strategy = strategy
        resumed = self.signature is not None
        state = OpenState(np.empty(0, dtype=np.int64), 0, 0, self.clock, self.seq, resumed)
        if resumed:
            for row in self.rows.values():
                if row.state == LEASED:
                    row.state = QUEUED
                    state.requeued_leases += 1
            if not self.clean:
                done = [r for r in self.rows.values() if r.state == DONE]
                latest = max((r.done_at or 0.0 for r in done), default=0.0)
                for row in done:
                    if (row.done_at or 0.0) >= latest - self.recheck_window and (
                        row.result_url or row.url
                    ) not in self.pages:
                        row.state, row.done_at, row.result_url = QUEUED, None, None
                        state.requeued_unsaved += 1
            if self.signature != strategy.signature:
                for row in self.rows.values():
                    if row.state == QUEUED:
                        row.score = strategy.score(row.stats)
                        row.tiebreak = -abs(row.tiebreak) if strategy.newest_first else abs(
                            row.tiebreak
                        )
                        state.rescored += 1
        self.signature = strategy.signature
        self.clean = False
        state.fingerprints = np.array(sorted(self.rows), dtype=np.int64)
        for row in self.rows.values():
            if row.state == QUEUED:
                if row.inter:
                    state.queued_inter += 1
                else:
                    state.queued_intra += 1
        return state

    async def write(self, batch: WriteBatch) -> WriteResult:
        assert self.strategy is not None
        self.writes += 1
        result = WriteResult()
        for new in [*batch.new, *batch.upserts]:
            self.rows[new.fp] = _Row(
                new.fp, new.url, new.host, new.state, new.priority, new.score, new.tiebreak,
                new.inter, new.stats.copy(), new.queued_at, new.payload, new.done_at,
                new.result_url,
            )
        for fp, delta in batch.deltas.items():
            row = self.rows.get(fp)
            if row is not None and row.state in (QUEUED, LEASED):
                row.stats.absorb(delta)
                row.score = self.strategy.score(row.stats)
                result.rescored += 1
        for fp, (at, result_url) in batch.done.items():
            row = self.rows[fp]
            row.state, row.done_at, row.result_url = DONE, at, result_url
        for fp in batch.released:
            row = self.rows[fp]
            if row.state == LEASED:
                row.state = QUEUED
        for fp, (url, detail) in batch.evicted.items():
            row = self.rows[fp]
            row.state, row.done_at = EVICTED, batch.clock
            self.uncrawled.setdefault(url, detail)
        if batch.expire_before is not None:
            old = [r for r in self.rows.values()
                   if r.state == QUEUED and r.queued_at < batch.expire_before]
            old.sort(key=_Row.order, reverse=True)
            result.expired_more = len(old) > batch.expire_limit
            for row in old[: batch.expire_limit]:
                row.state, row.done_at = EVICTED, batch.clock
                self.uncrawled.setdefault(row.url, batch.expire_detail)
                if row.inter:
                    result.expired_inter += 1
                else:
                    result.expired_intra += 1
        self.clock, self.seq = batch.clock, batch.seq
        return result

    async def claim(
        self, limit: int, per_host: int, exclude_hosts: list[str],
        hosts: list[str] | None = None,
    ) -> list[StoredRow]:
        excluded = set(exclude_hosts)
        only = None if hosts is None else set(hosts)
        queued = sorted(
            (r for r in self.rows.values() if r.state == QUEUED and r.host not in excluded
             and (only is None or r.host in only)),
            key=_Row.order,
        )
        per: dict[str, int] = {}
        picked: list[StoredRow] = []
        for row in queued:
            if len(picked) >= limit:
                break
            if per.get(row.host, 0) >= per_host:
                continue
            per[row.host] = per.get(row.host, 0) + 1
            row.state = LEASED
            picked.append(StoredRow(
                row.fp, row.url, row.host, row.priority, row.score, row.tiebreak, row.inter,
                row.stats.copy(), row.queued_at, row.payload,
            ))
        return picked

    async def lowest_queued(self, limit: int) -> list[QueuedKey]:
        queued = [r for r in self.rows.values() if r.state == QUEUED]
        queued.sort(key=_Row.order, reverse=True)
        return [QueuedKey(r.fp, r.priority, r.score, r.tiebreak) for r in queued[:limit]]

    async def evict(self, fps: list[int], detail: str, at: float) -> tuple[int, int]:
        inter = intra = 0
        for fp in fps:
            row = self.rows.get(fp)
            if row is None or row.state != QUEUED:
                continue
            row.state, row.done_at = EVICTED, at
            self.uncrawled.setdefault(row.url, detail)
            if row.inter:
                inter += 1
            else:
                intra += 1
        return inter, intra

    async def close(self, clean: bool, clock: float, seq: int) -> None:
        self.clean, self.clock, self.seq = clean, clock, seq
