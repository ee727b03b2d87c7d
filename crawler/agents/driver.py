"""Runs an agent's heartbeat next to its frontier (the scheduler's side of crawler/agents).

The :class:`AgentDriver` owns the :class:`~crawler.agents.membership.AgentMembership` and
a background asyncio task that beats every AGENT_HEARTBEAT seconds (sooner when the
agent runs out of work), applies what a beat changed to the frontier (hosts gained: a
refill; hosts lost or handed back: their buffered URLs go back to the queue), and tells
its owner when the crawl is over. ``gate`` is what the scheduler asks before handing a
request out: None while the host is not this agent's (or the lease is not valid by the
local deadline), else the seconds still to wait after a hand-over.

No Scrapy import: the scheduler passes callables for what it knows (busy hosts, hosts'
remaining politeness delay, idleness, page count, how to stop).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from crawler import defaults
from crawler.agents.assignment import HostLoad
from crawler.agents.membership import AgentMembership, Heartbeat
from crawler.frontier.crawl_lock import FrontierLocked
from crawler.frontier.frontier import Frontier

logger = logging.getLogger(__name__)


class AgentDriver:
    def __init__(
        self,
        membership: AgentMembership,
        frontier: Frontier,
        *,
        interval: float,
        database_timeout: float = defaults.AGENT_DATABASE_TIMEOUT,
        busy_hosts: Callable[[], set[str]],
        next_fetch: Callable[[], dict[str, float]],
        is_idle: Callable[[], bool],
        on_gained: Callable[[], None],
        on_finish: Callable[[str], None],
        host_load: Callable[[], HostLoad] | None = None,
        addresses: Callable[[], dict[str, str]] | None = None,
        stats: Any = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.membership = membership
        self.frontier = frontier
        self.interval = interval
        self.database_timeout = database_timeout
        self._busy_hosts = busy_hosts
        self._next_fetch = next_fetch
        self._is_idle = is_idle
        self._on_gained = on_gained
        self._on_finish = on_finish
        self._host_load = host_load
        self._addresses = addresses  # POLITENESS_KEY=ip: held host -> its address now
        self.stats = stats
        self._now = now
        self.need = 0  # hosts this agent could still keep busy, at the last beat
        self.finish_reason: str | None = None
        self._task: asyncio.Future[None] | None = None
        self._wake = asyncio.Event()
        self._stopping = False
        self._last_beat = 0.0
        self._last_pages = 0
        self._failures = 0
        self._last_success = now()
        #: why the agent gave up (an ``error:`` line for the user), None while it runs
        self.error: str | None = None

    # --- what the scheduler asks -----------------------------------------------------
    def gate(self, host: str, address: str | None = None) -> float | None:
        """None: do not fetch ``host`` now; else seconds to wait first (0: go).
        ``address``: where the host resolves now (POLITENESS_KEY=ip); a host that moved
        from the address it is held under waits for the next beat, which is made soon."""
        if not self.membership.may_fetch(host, address):
            if address is not None and address != self.membership.servers.get(host, address):
                self.wake()
            return None
        return self.membership.first_fetch_wait(host)

    def fetchable_hosts(self) -> list[str]:
        m = self.membership
        if not m.lease_valid():
            return []
        return [h for h in m.owned if h not in m.releasing]

    def wake(self) -> None:
        """Beat soon (the agent ran out of work, or became idle)."""
        self._wake.set()

    # --- the loop ------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.ensure_future(self._loop())

    async def stop(self, reason: str) -> None:
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        try:
            await asyncio.wait_for(
                self.membership.leave(reason, self._next_fetch()),
                timeout=self.membership.ttl,
            )
        except Exception as exc:
            logger.warning("agent %s: could not record its exit (%s); its hosts pass to the "
                           "others when its lease expires", self.membership.agent_id, exc)

    async def _loop(self) -> None:
        while not self._stopping:
            try:
                await self.beat()
                self._failures = 0
                self._last_success = self._now()
            except FrontierLocked as exc:  # rejoining a crawl a one-process run now holds
                self._give_up("frontier_locked", str(exc))
                return
            except Exception as exc:
                self._failures += 1
                self._inc("agents/heartbeat_errors")
                logger.warning("agent %s: heartbeat failed (%s); %s", self.membership.agent_id,
                               exc or type(exc).__name__,
                               "still within the lease" if self.membership.lease_valid()
                               else "not fetching until the database answers again")
                with contextlib.suppress(Exception):
                    await self.membership.disconnect()
                silent = self._now() - self._last_success
                if silent >= self.database_timeout:
                    self._give_up("database_unreachable", (
                        f"agent {self.membership.agent_id}: no answer from the database for "
                        f"{silent:.0f} s (AGENT_DATABASE_TIMEOUT); it stopped fetching when "
                        "its lease ran out and exits (its hosts passed to the other agents)"
                    ))
                    return
            if self.finish_reason is not None:
                return
            # after a failure retry sooner, so a short outage does not cost the lease;
            # hosts waiting to be handed over, or an agent that needs hosts, beat sooner
            # too: a hand-over takes a beat of each side
            wait = self.interval
            if self._failures or self.membership.releasing:
                wait = min(1.0, self.interval)
            elif self.need:
                wait = min(2.0, self.interval)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            self._wake.clear()
            # at most one beat a second when woken early
            gap = self._now() - self._last_beat
            if gap < 1.0 and not self._stopping:
                await asyncio.sleep(1.0 - gap)

    async def beat(self) -> Heartbeat:
        m = self.membership
        now = self._now()
        pages = self.frontier.counters.acked
        elapsed = now - self._last_beat if self._last_beat else 0.0
        rate = (pages - self._last_pages) / elapsed if elapsed > 0 else 0.0
        # the whole beat must end before the lease could: a hung connection fails it
        beat = await asyncio.wait_for(
            m.heartbeat(pages=pages, pages_per_second=rate, idle=self._is_idle(),
                        busy_hosts=self._busy_hosts(), next_fetch=self._next_fetch(),
                        load=self._host_load() if self._host_load is not None else None,
                        clock=self.frontier.clock(),
                        addresses=self._addresses() if self._addresses is not None else None,
                        in_flight=lambda: (self._busy_hosts(), self._next_fetch())),
            timeout=max(1.0, m.ttl - m.margin),
        )
        self._last_beat, self._last_pages = now, pages
        self._apply(beat)
        return beat

    def _apply(self, beat: Heartbeat) -> None:
        frontier = self.frontier
        self.need = beat.need
        gone = beat.lost | beat.releasing | beat.released
        if beat.rejoined:
            gone |= {e.host for e in frontier.buffer.entries.values()}
        released = frontier.release_hosts(gone)
        frontier.unblock_refill()
        if beat.gained or beat.requeued:
            self._on_gained()
        if beat.gained or gone or beat.dead_agents:
            logger.info(
                "agent %s: %d hosts owned (+%d, -%d handed back, -%d lost), %d live agents%s",
                self.membership.agent_id, len(self.membership.owned), len(beat.gained),
                len(beat.released), len(beat.lost), len(self.membership.live),
                f"; {released} buffered URLs returned to the queue" if released else "",
            )
        if self.stats is not None:
            self.stats.set_value("agents/hosts_owned", len(self.membership.owned))
            self.stats.set_value("agents/live", len(self.membership.live))
            self._inc("agents/hosts_gained", len(beat.gained))
            self._inc("agents/hosts_released", len(beat.released))
            self._inc("agents/hosts_lost", len(beat.lost))
            self._inc("agents/dead_requeued", beat.requeued)
            self._inc("agents/hosts_lent", len(beat.lent))
            self._inc("agents/hosts_given_back", len(beat.returned))
            self._inc("agents/hosts_borrowed",
                      sum(1 for h in beat.gained if h in self.membership.loans))
            self.stats.set_value("agents/need", beat.need)
        if beat.finish_reason is not None and self.finish_reason is None:
            self.finish_reason = beat.finish_reason
            logger.info("agent %s: crawl %s is over (%s)", self.membership.agent_id,
                        self.membership.crawl_id, beat.finish_reason)
            self._on_finish(beat.finish_reason)

    def _give_up(self, reason: str, message: str) -> None:
        logger.error("%s", message)
        self.error = message
        self.finish_reason = reason
        self._on_finish(reason)

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None and count:
            self.stats.inc_value(key, count)
