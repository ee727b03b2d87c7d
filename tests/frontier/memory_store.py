"""The frontier store contract with dicts, for tests of the frontier's algorithms.

It mirrors :class:`~crawler.frontier.postgres_store.PostgresStore` (the truth), down to
the item pipeline's tables that a resume reads: ``pages`` (URLs stored as pages) and
``uncrawled`` (URL -> (category, detail)). tests/frontier/test_store_contract.py runs the
same tests against both. Test code only: production always uses PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crawler.frontier.buffer import DONE, EVICTED, LEASED, QUEUED
from crawler.frontier.scores import Strategy, UrlStats
from crawler.frontier.seen import url_fingerprint
from crawler.frontier.store import (
    CLAIM_SCAN,
    OpenState,
    QueuedKey,
    StoredRow,
    WriteBatch,
    WriteResult,
)
from crawler.items import NOT_FETCHED_CATEGORIES


@dataclass
class MemoryRow:
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
    """The store contract with dicts; ``pages`` and ``uncrawled`` stand for the item
    pipeline's tables (what crawler/storage/saved_results.py reads)."""

    def __init__(self, recheck_window: float = 600.0) -> None:
        self.rows: dict[int, MemoryRow] = {}
        self.pages: set[str] = set()  # URLs whose page was saved
        self.uncrawled: dict[str, tuple[str, str]] = {}  # url -> (category, detail)
        self.clock = 0.0
        self.seq = 0
        self.clean = True
        self.signature: str | None = None
        self.recheck_window = recheck_window
        self.strategy: Strategy | None = None
        self.writes = 0

    # --- the item pipeline's tables (saved_results.py) ---------------------------------
    def fetched(self, url: str) -> bool:
        """A page, or a failure row of a fetch (not a refusal nor an eviction)."""
        if url in self.pages:
            return True
        row = self.uncrawled.get(url)
        return row is not None and row[0] not in NOT_FETCHED_CATEGORIES

    def failure_saved(self, url: str) -> bool:
        """A failure row of a fetch (not a refusal nor an eviction)."""
        row = self.uncrawled.get(url)
        return row is not None and row[0] not in NOT_FETCHED_CATEGORIES

    def unsaved(self, url: str) -> bool:
        """No page and no uncrawled row but refusals and evictions."""
        return not self.fetched(url)

    def _record_evicted(self, url: str, detail: str) -> None:
        # ON CONFLICT DO NOTHING: a failure (or an earlier eviction) already recorded stays
        self.uncrawled.setdefault(url, ("evicted", detail))

    # --- the store ---------------------------------------------------------------------
    async def open(self, strategy: Strategy) -> OpenState:
        self.strategy = strategy
        resumed = self.signature is not None
        state = OpenState(np.empty(0, dtype=np.int64), 0, 0, self.clock, self.seq, resumed)
        extra: list[int] = []
        if resumed:
            unclean = not self.clean
            if unclean:
                state.finished_leases = self._finish_failed_rows()
            for row in self.rows.values():
                if row.state == LEASED:
                    row.state = QUEUED
                    state.requeued_leases += 1
            if unclean:
                state.requeued_unsaved = self._requeue_unsaved()
            if self.signature != strategy.signature:
                for row in self.rows.values():
                    if row.state == QUEUED:
                        row.score = strategy.score(row.stats)
                        row.tiebreak = (
                            -abs(row.tiebreak) if strategy.newest_first else abs(row.tiebreak)
                        )
                        state.rescored += 1
            if unclean:
                extra = self._saved_without_row()
        self.signature = strategy.signature
        self.clean = False
        state.fingerprints = np.array([*self.rows, *extra], dtype=np.int64)
        for row in self.rows.values():
            if row.state == QUEUED:
                if row.inter:
                    state.queued_inter += 1
                else:
                    state.queued_intra += 1
        return state

    def _finish_failed_rows(self) -> int:
        finished = 0
        for row in self.rows.values():
            if row.state in (QUEUED, LEASED) and self.failure_saved(row.url):
                row.state, row.done_at = DONE, self.clock
                finished += 1
        return finished

    def _requeue_unsaved(self) -> int:
        done = [r for r in self.rows.values() if r.state == DONE and r.done_at is not None]
        if not done:
            return 0
        since = max(r.done_at for r in done if r.done_at is not None) - self.recheck_window
        requeued = 0
        for row in done:
            assert row.done_at is not None
            if row.done_at >= since and self.unsaved(row.result_url or row.url):
                row.state, row.done_at, row.result_url = QUEUED, None, None
                requeued += 1
        return requeued

    def _saved_without_row(self) -> list[int]:
        known = {row.url for row in self.rows.values()}
        redirected = {row.result_url for row in self.rows.values() if row.state == DONE}
        saved = (self.pages & redirected) | {u for u in self.uncrawled if self.failure_saved(u)}
        return [url_fingerprint(url) for url in saved - known]

    async def write(self, batch: WriteBatch) -> WriteResult:
        assert self.strategy is not None
        self.writes += 1
        result = WriteResult()
        for new in [*batch.new, *batch.upserts]:
            self.rows[new.fp] = MemoryRow(
                new.fp,
                new.url,
                new.host,
                new.state,
                new.priority,
                new.score,
                new.tiebreak,
                new.inter,
                new.stats.copy(),
                new.queued_at,
                new.payload,
                new.done_at,
                new.result_url,
            )
        for fp, delta in batch.deltas.items():
            row = self.rows.get(fp)
            if row is not None and row.state in (QUEUED, LEASED):
                row.stats.absorb(delta)
                row.score = self.strategy.score(row.stats)
                result.rescored += 1
        for fp, (at, result_url) in batch.done.items():
            row = self.rows.get(fp)
            if row is not None:
                row.state, row.done_at, row.result_url = DONE, at, result_url
        for fp in batch.released:
            row = self.rows.get(fp)
            if row is not None and row.state == LEASED:
                row.state = QUEUED
        for fp, (url, detail) in batch.evicted.items():
            row = self.rows.get(fp)
            if row is not None:
                row.state, row.done_at = EVICTED, batch.clock
            self._record_evicted(url, detail)
        if batch.expire_before is not None:
            old = [
                r
                for r in self.rows.values()
                if r.state == QUEUED and r.queued_at < batch.expire_before
            ]
            old.sort(key=MemoryRow.order, reverse=True)
            victims = old[: batch.expire_limit]
            for row in victims:
                row.state, row.done_at = EVICTED, batch.clock
                self._record_evicted(row.url, batch.expire_detail)
                if row.inter:
                    result.expired_inter += 1
                else:
                    result.expired_intra += 1
            result.expired_more = len(victims) >= batch.expire_limit
        self.clock, self.seq = batch.clock, batch.seq
        return result

    async def claim(
        self, limit: int, per_host: int, exclude_hosts: list[str], hosts: list[str] | None = None
    ) -> list[StoredRow]:
        excluded = set(exclude_hosts)
        only = None if hosts is None else set(hosts)
        queued = sorted(
            (
                r
                for r in self.rows.values()
                if r.state == QUEUED and r.host not in excluded and (only is None or r.host in only)
            ),
            key=MemoryRow.order,
        )
        per: dict[str, int] = {}
        picked: list[StoredRow] = []
        for row in queued[: CLAIM_SCAN * limit]:
            if len(picked) >= limit:
                break
            if per.get(row.host, 0) >= per_host:
                continue
            per[row.host] = per.get(row.host, 0) + 1
            row.state = LEASED
            picked.append(
                StoredRow(
                    row.fp,
                    row.url,
                    row.host,
                    row.priority,
                    row.score,
                    row.tiebreak,
                    row.inter,
                    row.stats.copy(),
                    row.queued_at,
                    row.payload,
                )
            )
        return picked

    async def lowest_queued(self, limit: int) -> list[QueuedKey]:
        queued = [r for r in self.rows.values() if r.state == QUEUED]
        queued.sort(key=MemoryRow.order, reverse=True)
        return [QueuedKey(r.fp, r.priority, r.score, r.tiebreak) for r in queued[:limit]]

    async def queued_hosts(self, limit: int) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        for r in self.rows.values():
            if r.state == QUEUED:
                counts[r.host] = counts.get(r.host, 0) + 1
        return sorted(counts.items(), key=lambda hn: (-hn[1], hn[0]))[:limit]

    async def evict(self, fps: list[int], detail: str, at: float) -> tuple[int, int]:
        inter = intra = 0
        for fp in fps:
            row = self.rows.get(fp)
            if row is None or row.state != QUEUED:
                continue
            row.state, row.done_at = EVICTED, at
            self._record_evicted(row.url, detail)
            if row.inter:
                inter += 1
            else:
                intra += 1
        return inter, intra

    async def close(self, clean: bool, clock: float, seq: int) -> None:
        self.clean, self.clock, self.seq = clean, clock, seq
