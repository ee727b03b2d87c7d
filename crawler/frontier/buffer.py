"""The in-memory ready buffer: the best part of the frontier, one priority queue per host.

``pop(readiness)`` returns the best entry whose host may be fetched now. Hosts are kept
in three places, as Heritrix and Nutch do: *active* hosts in a heap ordered by their best
entry, *waiting* hosts (politeness delay not over) in a heap ordered by the time they
become ready, and *blocked* hosts (as many requests in flight as their concurrency
allows), checked again on every pop. A slow or delayed host therefore only ever costs one
heap operation per pop; it never holds back the others, unless ``hold_margin`` is set
(opt-in): then a ready host's entry is not served while a busy or delayed host's best
entry outranks it by more than that margin, so a free slot stays idle rather than go
to a much worse URL (a focused crawl whose topic lives on one host).

Entries whose score changes are re-pushed (``update``); stale heap items are skipped
lazily. Plain Python, no Scrapy import.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crawler.frontier.scores import UrlStats

# Row states, in memory and in the database.
QUEUED, LEASED, DONE, EVICTED = 0, 1, 2, 3

# Where a host of the buffer is.
_NOWHERE, _ACTIVE, _WAITING, _BLOCKED = 0, 1, 2, 3

# readiness(host) -> 0 ready now, > 0 seconds until ready, None: blocked (concurrency).
Readiness = Callable[[str], "float | None"]


@dataclass(slots=True, eq=False)
class Entry:
    """One URL of the frontier, held in memory (buffered, in flight or not yet written)."""

    fp: int
    url: str
    host: str
    priority: int
    tiebreak: int
    inter: bool
    stats: UrlStats
    queued_at: float
    score: float = 0.0
    request: Any = None  # the live request object, when it was created in this process
    payload: bytes | None = None  # the serialised request, when loaded from the store
    state: int = QUEUED
    in_db: bool = False  # a row exists (or is being written) in the store
    version: int = 0
    superseded: bool = False  # re-queued (dont_filter) while in flight: ignore its ack
    upsert: bool = False  # written as insert-or-replace (a re-queued URL) rather than insert
    done_at: float | None = None
    result_url: str | None = None

    def order(self) -> tuple[int, float, int]:
        """Sort key, smaller is served first: priority, then score, then tie-break."""
        return (-self.priority, -self.score, self.tiebreak)


class _Host:
    __slots__ = ("name", "heap", "worst", "fps", "where", "ready_at")

    def __init__(self, name: str) -> None:
        self.name = name
        self.heap: list[tuple[int, float, int, int, int]] = []
        # min-heap on the reverse order: the host's lowest-ranked entry first (for
        # ReadyBuffer.worst_of_host; stale items are skipped lazily, as in ``heap``)
        self.worst: list[tuple[int, float, int, int, int]] = []
        self.fps: set[int] = set()
        self.where = _NOWHERE
        self.ready_at = 0.0


class ReadyBuffer:
    """Entries by host, each host a max-heap on (priority, score), hosts by readiness."""

    def __init__(self, hold_margin: float | None = None) -> None:
        # None: a ready host's best entry is always served. A number: it is held back
        # while a busy or delayed host's best entry outranks it by more than this score
        # margin (or by priority), so a free slot does not go to a much worse URL.
        self.hold_margin = hold_margin
        self.held = 0  # pops that returned None because of hold_margin
        self.entries: dict[int, Entry] = {}
        self.hosts: dict[str, _Host] = {}
        self._active: list[tuple[int, float, int, str]] = []
        self._waiting: list[tuple[float, str]] = []
        self._blocked: set[str] = set()
        self._worst: list[tuple[int, float, int, int, int]] = []
        self.inter = 0  # entries that came from an inter-domain link

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, fp: int) -> bool:
        return fp in self.entries

    def get(self, fp: int) -> Entry | None:
        return self.entries.get(fp)

    def host_count(self, host: str) -> int:
        h = self.hosts.get(host)
        return len(h.fps) if h is not None else 0

    # --- adding, updating, removing ------------------------------------------------
    def add(self, entry: Entry) -> None:
        host = self.hosts.get(entry.host)
        if host is None:
            host = self.hosts[entry.host] = _Host(entry.host)
        self.entries[entry.fp] = entry
        host.fps.add(entry.fp)
        self.inter += entry.inter
        self._push(host, entry)

    def update(self, entry: Entry) -> None:
        """Re-prioritise a buffered entry after its score changed."""
        host = self.hosts[entry.host]
        entry.version += 1
        self._push(host, entry)
        if len(host.heap) > 4 * len(host.fps) + 16:
            host.heap = [self._item(self.entries[fp]) for fp in host.fps]
            heapq.heapify(host.heap)
        if len(host.worst) > 4 * len(host.fps) + 16:
            host.worst = [self._worst_item(self.entries[fp]) for fp in host.fps]
            heapq.heapify(host.worst)

    def _item(self, entry: Entry) -> tuple[int, float, int, int, int]:
        return (-entry.priority, -entry.score, entry.tiebreak, entry.version, entry.fp)

    @staticmethod
    def _worst_item(entry: Entry) -> tuple[int, float, int, int, int]:
        return (entry.priority, entry.score, -entry.tiebreak, entry.version, entry.fp)

    def _push(self, host: _Host, entry: Entry) -> None:
        item = self._item(entry)
        heapq.heappush(host.heap, item)
        worst_item = self._worst_item(entry)
        heapq.heappush(host.worst, worst_item)
        heapq.heappush(self._worst, worst_item)
        if len(self._worst) > 4 * len(self.entries) + 1024:
            self._worst = [self._worst_item(e) for e in self.entries.values()]
            heapq.heapify(self._worst)
        if host.where == _NOWHERE:
            self._activate(host)
        elif host.where == _ACTIVE and host.heap[0] is item:
            heapq.heappush(self._active, (item[0], item[1], item[2], host.name))

    def remove(self, fp: int) -> Entry:
        entry = self.entries.pop(fp)
        self.inter -= entry.inter
        host = self.hosts[entry.host]
        host.fps.discard(fp)
        if not host.fps:
            self._drop(host)
        return entry

    def _drop(self, host: _Host) -> None:
        del self.hosts[host.name]
        self._blocked.discard(host.name)
        host.where = _NOWHERE

    def _stale(self, item: tuple[int, float, int, int, int]) -> bool:
        entry = self.entries.get(item[4])
        return entry is None or entry.version != item[3]

    def _head(self, host: _Host) -> tuple[int, float, int, int, int] | None:
        heap = host.heap
        while heap and self._stale(heap[0]):
            heapq.heappop(heap)
        return heap[0] if heap else None

    def _activate(self, host: _Host) -> None:
        head = self._head(host)
        if head is None:
            return
        host.where = _ACTIVE
        heapq.heappush(self._active, (head[0], head[1], head[2], host.name))

    def _wait(self, host: _Host, ready_at: float) -> None:
        host.where = _WAITING
        host.ready_at = ready_at
        heapq.heappush(self._waiting, (ready_at, host.name))

    # --- serving -------------------------------------------------------------------
    def pop(self, readiness: Readiness, now: float) -> Entry | None:
        """The best entry among the hosts that are ready now (None if none is)."""
        waiting = self._waiting
        while waiting and waiting[0][0] <= now:
            ready_at, name = heapq.heappop(waiting)
            host = self.hosts.get(name)
            if host is not None and host.where == _WAITING and host.ready_at == ready_at:
                self._activate(host)
        if self._blocked:
            for name in list(self._blocked):
                wait = readiness(name)
                if wait is None:
                    continue
                self._blocked.discard(name)
                host = self.hosts[name]
                if wait > 0:
                    self._wait(host, now + wait)
                else:
                    self._activate(host)
        active = self._active
        while active:
            top = active[0]
            name = top[3]
            host = self.hosts.get(name)
            if host is None or host.where != _ACTIVE:
                heapq.heappop(active)
                continue
            head = self._head(host)
            if head is None:
                heapq.heappop(active)
                continue
            if head[0] != top[0] or head[1] != top[1] or head[2] != top[2]:
                heapq.heapreplace(active, (head[0], head[1], head[2], name))
                continue
            wait = readiness(name)
            if wait is None:
                heapq.heappop(active)
                host.where = _BLOCKED
                self._blocked.add(name)
                continue
            if wait > 0:
                heapq.heappop(active)
                self._wait(host, now + wait)
                continue
            if self.hold_margin is not None and self._outranked(head):
                self.held += 1
                return None
            heapq.heappop(host.heap)
            entry = self.entries.pop(head[4])
            self.inter -= entry.inter
            host.fps.discard(entry.fp)
            if not host.fps:
                heapq.heappop(active)
                self._drop(host)
            else:
                nxt = self._head(host)
                assert nxt is not None
                heapq.heapreplace(active, (nxt[0], nxt[1], nxt[2], name))
            return entry
        return None

    def _outranked(self, head: tuple[int, float, int, int, int]) -> bool:
        """Whether a busy (blocked) or delayed (waiting) host's best entry outranks
        ``head`` by priority, or by more than ``hold_margin`` in score at equal priority."""
        assert self.hold_margin is not None
        best: tuple[int, float, int, int, int] | None = None
        for name in self._blocked:
            other = self._head(self.hosts[name])
            if other is not None and (best is None or other < best):
                best = other
        for ready_at, name in self._waiting:
            host = self.hosts.get(name)
            if host is None or host.where != _WAITING or host.ready_at != ready_at:
                continue
            other = self._head(host)
            if other is not None and (best is None or other < best):
                best = other
        if best is None:
            return False
        # items hold (-priority, -score, ...)
        if best[0] != head[0]:
            return best[0] < head[0]
        return head[1] - best[1] > self.hold_margin

    def next_ready_at(self) -> float | None:
        """When the earliest waiting host becomes ready (None if no host waits)."""
        waiting = self._waiting
        while waiting:
            ready_at, name = waiting[0]
            host = self.hosts.get(name)
            if host is not None and host.where == _WAITING and host.ready_at == ready_at:
                return ready_at
            heapq.heappop(waiting)
        return None

    @property
    def blocked(self) -> int:
        return len(self._blocked)

    # --- choosing victims ----------------------------------------------------------
    def worst(self) -> Entry | None:
        """The lowest-ranked buffered entry."""
        return self._worst_live(self._worst)

    def worst_of_host(self, host: str) -> Entry | None:
        """The lowest-ranked buffered entry of ``host``."""
        h = self.hosts.get(host)
        return None if h is None else self._worst_live(h.worst)

    def _worst_live(self, heap: list[tuple[int, float, int, int, int]]) -> Entry | None:
        """The entry of the first live item of a worst-first heap, popping stale ones.

        An item is live when its entry is buffered with the same version and key: a URL
        removed and added again starts at version 0, so the version alone does not tell
        its old items from the new one."""
        entries = self.entries
        while heap:
            item = heap[0]
            entry = entries.get(item[4])
            if (
                entry is not None
                and entry.version == item[3]
                and entry.priority == item[0]
                and entry.score == item[1]
                and entry.tiebreak == -item[2]
            ):
                return entry
            heapq.heappop(heap)
        return None

    def lowest(self, n: int) -> list[Entry]:
        """The ``n`` lowest-ranked entries, lowest first."""
        return heapq.nlargest(n, self.entries.values(), key=Entry.order)

    def older_than(self, cutoff: float) -> list[Entry]:
        """Entries queued before ``cutoff``, lowest-ranked first."""
        old = [e for e in self.entries.values() if e.queued_at < cutoff]
        old.sort(key=Entry.order, reverse=True)
        return old

    def full_hosts(self, cap: int) -> list[str]:
        return [name for name, h in self.hosts.items() if len(h.fps) >= cap]
