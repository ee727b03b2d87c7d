"""Where the frontier lives: the small storage interface every store implements.

A store keeps one row per URL ever queued in a crawl (the persisted URL-seen set) with
its state (queued, leased, done, evicted), its statistics and score, and the serialised
request. The :class:`~crawler.frontier.frontier.Frontier` talks to it only in batches:
``write`` (everything that changed since the last write, in one transaction), ``claim``
(lease the best queued rows into the ready buffer), and the two evictions.

Leases belong to the process that holds the crawl (a store admits one at a time): when
that process ends, gracefully or not, its leases are over, and ``open`` puts them back in
the queue. In a distributed crawl (crawler/agents) several agents share the rows: leases
carry the agent's id and a dead agent's leases are re-queued by the others.

:class:`~crawler.frontier.postgres_store.PostgresStore` is the one implementation;
tests/frontier/memory_store.py implements the same contract with dicts for tests of the
algorithms, and tests/frontier/test_store_contract.py runs one suite against both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from crawler.frontier.buffer import Entry
from crawler.frontier.scores import Strategy, UrlStats

# A claim ranks only the best CLAIM_SCAN * limit queued rows by host (to apply the per-host
# cap): a bounded scan of the queue's index, whatever its size. So a claim may return fewer
# than ``limit`` rows when the best rows crowd on a few hosts.
CLAIM_SCAN = 4


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
    finished_leases: int = 0  # leased or queued, but their failure row was saved: done
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

    async def queued_hosts(self, limit: int) -> list[tuple[str, int]]:
        """The hosts with the most queued rows, with their counts (a stall's report)."""
        ...

    async def evict(self, fps: list[int], detail: str, at: float) -> tuple[int, int]:
        """Evict these queued rows (recorded as ``evicted`` uncrawled URLs); returns the
        numbers of inter and intra rows evicted."""
        ...

    async def close(self, clean: bool, clock: float, seq: int) -> None: ...
