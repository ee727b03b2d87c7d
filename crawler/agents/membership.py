"""An agent's membership of a distributed crawl, its host leases, and the crawl's end.

PostgreSQL is the coordinator (tables of schema migration 7):

- ``agents``: one row per agent; ``lease_until`` (database time) is renewed by every
  heartbeat and is the lease of all the hosts the agent owns (one row per renewal,
  whatever the number of hosts).
- ``host_owners``: which agent owns a host (the authority), with an epoch that grows at
  every hand-over and the host's next allowed fetch time for its next owner.

Safety (one host, one agent at a time): an agent fetches a host only while it owns it
and ``monotonic() < deadline``, with ``deadline`` = the moment its last successful
renewal was *sent* + TTL - margin. The database granted that renewal later, so its
``lease_until`` is later than the deadline. Another agent takes a host only when its
owner's ``lease_until`` has passed, after locking the host rows (``FOR UPDATE``) and
reading the leases in a new statement, so a renewal or claim committed meanwhile is
seen. An agent whose lease expired never renews it: it rejoins and claims afresh.

Politeness per server (``POLITENESS_KEY = "ip"``, ``resolve`` given): hosts are assigned
by the rendezvous hash of their politeness key (the address they resolve to; a host that
does not resolve is its own key), lent and given back by whole server groups, and an
agent claims a host only while no other live agent holds (or is lent) a host of the same
key, checked under an advisory lock of that key; ``host_owners.server`` records the key
each host is held under (migration 25). An owner whose host moved to another address
re-keys it under the same check, or hands it over. So the hosts of one address are
fetched by one agent at a time, and their shared ``next_fetch_at`` carries the server's
delay and back-off over every hand-over. It is written as clock_timestamp() + the wait
measured on the agent's clock just before, not now(): now() is the transaction's start,
which under load came 0.06 s before, and the next agent then fetched that much early.

Faults: an agent whose lease expired is marked dead by whichever agent notices first,
which returns that agent's leased frontier rows (and only those) to the queue, except
rows whose page or failure row was saved (they are done), and also the rows it acked
whose page or failure row never reached the database.

Plain asyncio and psycopg: no Scrapy import.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import psycopg

from crawler import defaults
from crawler.agents.assignment import (
    HostLoad,
    group_hosts,
    need_hosts,
    owner,
    plan_lending,
)
from crawler.frontier import crawl_lock
from crawler.frontier.buffer import DONE, LEASED, QUEUED
from crawler.frontier.crawl_lock import FrontierLocked, one_process_refusal
from crawler.storage import saved_results

logger = logging.getLogger(__name__)

RUNNING, DEAD, STOPPED = "running", "dead", "stopped"


def default_agent_id(job_id: str | None = None) -> str:
    """scrapyd's job id when there is one, else machine-pid-random."""
    if job_id:
        return str(job_id)
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass
class Heartbeat:
    """What one heartbeat changed."""

    rejoined: bool = False  # the lease had expired: every host was lost, leases re-queued
    gained: dict[str, float] = field(default_factory=dict)  # host -> seconds to wait first
    lost: set[str] = field(default_factory=set)  # hosts to stop fetching at once
    releasing: set[str] = field(default_factory=set)  # hosts that now belong to another
    lent: dict[str, str] = field(default_factory=dict)  # hosts being lent: host -> borrower
    returned: set[str] = field(default_factory=set)  # borrowed hosts being given back
    need: int = 0  # hosts with work this agent could still keep busy
    released: set[str] = field(default_factory=set)  # hosts handed back this heartbeat
    dead_agents: list[str] = field(default_factory=list)
    requeued: int = 0  # leased rows of dead agents returned to the queue
    finished: int = 0  # leased rows of dead agents whose result was saved: done
    finish_reason: str | None = None  # the crawl is over (everyone stops)


class AgentMembership:
    """One agent of a crawl. ``heartbeat`` runs every AGENT_HEARTBEAT seconds; between
    heartbeats ``may_fetch`` answers from memory."""

    def __init__(
        self,
        url: str,
        crawl_id: str,
        crawl_key: int,
        agent_id: str,
        *,
        capacity: float = 1.0,
        ttl: float = defaults.AGENT_LEASE_TTL,
        margin: float = defaults.AGENT_LEASE_MARGIN,
        max_pages: int = 0,
        max_seconds: float = 0.0,
        now: Callable[[], float] = time.monotonic,
        resolve: Callable[[list[str]], Awaitable[dict[str, str]]] | None = None,
    ) -> None:
        """``resolve``: with POLITENESS_KEY=ip, the politeness key (address) of each of
        the hosts given, the host itself when it does not resolve; a host left out (its
        look-up not answered in time) is not claimed this time. None: keys are host
        names."""
        if not 0 <= margin < ttl:
            raise ValueError("AGENT_LEASE_MARGIN must be >= 0 and below AGENT_LEASE_TTL")
        self.url = url
        self.crawl_id = crawl_id
        self.key = crawl_key
        self.agent_id = agent_id
        self.capacity = capacity
        self.ttl = ttl
        self.margin = margin
        self.max_pages = max_pages
        self.max_seconds = max_seconds
        self._now = now
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self.owned: set[str] = set()
        # host -> monotonic time before which a host just claimed is not fetched: the
        # wait its last owner left in next_fetch_at (a delay, a 503's pause), set in
        # the same step that adds the host to ``owned``. Applied when the beat returned,
        # it left the rest of the beat (its last statements: 0.06-0.14 s seen under
        # load) for a request to a host still inside its last owner's pause.
        self.not_before: dict[str, float] = {}
        # hosts being handed over (not fetched any more): host -> the agent it is lent
        # to, None when it goes to its rendezvous owner
        self.releasing: dict[str, str | None] = {}
        # held hosts borrowed from another agent (lent_to = this agent)
        self.loans: set[str] = set()
        self.deadline = 0.0  # monotonic time until which owned hosts may be fetched
        self.live: dict[str, float] = {}  # live agents (id -> capacity) at the last beat
        self.joined = False
        self.resolve = resolve
        # held host -> the politeness key it is held under (POLITENESS_KEY=ip: its address)
        self.servers: dict[str, str] = {}

    # --- connection ----------------------------------------------------------------------
    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        conn = self.conn
        if conn is None or conn.closed or conn.broken:
            if conn is not None:
                await conn.close()
            timeout = max(1, int(self.ttl - self.margin) // 2)
            conn = self.conn = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=timeout,
            )
        return conn

    async def disconnect(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            await conn.close()

    # --- local answers -----------------------------------------------------------------
    def lease_valid(self) -> bool:
        return self._now() < self.deadline

    def server(self, host: str) -> str:
        """The politeness key ``host`` is held (or assigned) under: its address with
        POLITENESS_KEY=ip, else the host name."""
        return self.servers.get(host, host)

    def may_fetch(self, host: str, address: str | None = None) -> bool:
        """Whether this agent may send a request to ``host`` now. ``address``: where the
        host resolves now (POLITENESS_KEY=ip); a host that moved to another address than
        the one it is held under waits until a heartbeat re-keys it (or hands it over)."""
        if address is not None and address != self.servers.get(host, address):
            return False
        return host in self.owned and host not in self.releasing and self._now() < self.deadline

    def first_fetch_wait(self, host: str) -> float:
        """Seconds until a host this agent claimed may get its first request (0: now):
        what is left of the wait its last owner recorded."""
        at = self.not_before.get(host)
        if at is None:
            return 0.0
        wait = at - self._now()
        if wait <= 0:
            del self.not_before[host]
            return 0.0
        return wait

    # --- joining -------------------------------------------------------------------------
    async def join(self) -> None:
        """Register (or re-register after a lost lease) as a running agent."""
        conn = await self._connection()
        sent = self._now()
        async with conn.transaction():
            # registered under the crawl lock in shared mode: never while a one-process
            # run holds the crawl, which checks for live agents under the same lock
            # (crawler/frontier/crawl_lock.py)
            row = await (await conn.execute(
                "SELECT pg_try_advisory_xact_lock_shared(%s, hashtext(%s))",
                (crawl_lock.LOCK_CLASS, self.crawl_id),
            )).fetchone()
            if not (row and row[0]):
                raise FrontierLocked(one_process_refusal(self.crawl_id))
            # whatever this id owned or borrowed before is given up: claimed afresh
            await conn.execute(
                "UPDATE host_owners SET agent_id = NULL, lent_to = NULL WHERE crawl = %s"
                " AND (agent_id = %s OR lent_to = %s)",
                (self.key, self.agent_id, self.agent_id),
            )
            await conn.execute(
                """
                INSERT INTO agents (crawl_id, agent_id, machine, pid, capacity, state,
                                    lease_until)
                VALUES (%s, %s, %s, %s, %s, %s, now() + make_interval(secs => %s))
                ON CONFLICT (crawl_id, agent_id) DO UPDATE SET state = excluded.state,
                    machine = excluded.machine, pid = excluded.pid,
                    capacity = excluded.capacity, started_at = now(),
                    heartbeat_at = now(), lease_until = excluded.lease_until,
                    idle = false, finish_reason = NULL
                """,
                (self.crawl_id, self.agent_id, socket.gethostname(), os.getpid(),
                 self.capacity, RUNNING, self.ttl),
            )
            # the first agent of a new run of a crawl that was over starts it again
            await conn.execute(
                "UPDATE frontier_crawls SET finished_reason = NULL WHERE key = %s"
                " AND finished_reason IS NOT NULL AND NOT EXISTS (SELECT 1 FROM agents"
                " WHERE crawl_id = %s AND agent_id <> %s AND state = %s"
                " AND lease_until > now())",
                (self.key, self.crawl_id, self.agent_id, RUNNING),
            )
        self.owned.clear()
        self.releasing.clear()
        self.loans.clear()
        self.servers.clear()
        self.deadline = sent + self.ttl - self.margin
        self.joined = True

    # --- the heartbeat -------------------------------------------------------------------
    async def heartbeat(
        self,
        *,
        pages: int = 0,
        pages_per_second: float = 0.0,
        idle: bool = False,
        busy_hosts: Iterable[str] = (),
        next_fetch: dict[str, float] | None = None,
        load: HostLoad | None = None,
        clock: float | None = None,
        addresses: Mapping[str, str] | None = None,
        in_flight: Callable[[], tuple[Iterable[str], dict[str, float]]] | None = None,
    ) -> Heartbeat:
        """Renew the lease, take over dead agents' work, hand back hosts that belong to
        another agent (those of ``busy_hosts``, with requests in flight, wait), claim
        the hosts that belong here. ``next_fetch``: host -> seconds until it may be
        fetched again (recorded for its next owner). ``load``: what the agent's
        downloader can do with its hosts; with it, hosts are lent to agents that need
        them and borrowed from agents that can spare them (None: no lending).
        ``clock``: the agent's crawl clock, kept in the crawl's row so that an agent
        joining later starts from it (FRONTIER_MAX_WAIT compares the agents' times).
        ``addresses``: held host -> the address it resolves to now (POLITENESS_KEY=ip;
        hosts not resolved lately are left out). ``in_flight``: ``busy_hosts`` and
        ``next_fetch`` as they are at the moment hosts are released, asked for then: the
        beat's statements take time, during which the downloader may start a request to
        a host about to be released, whose wait the values given at the start lack."""
        conn = await self._connection()
        beat = Heartbeat()
        sent = self._now()
        if not self.joined:
            await self.join()
        row = await (await conn.execute(
            """
            UPDATE agents SET heartbeat_at = now(),
                lease_until = now() + make_interval(secs => %s),
                pages = %s, pages_per_second = %s, idle = %s
            WHERE crawl_id = %s AND agent_id = %s AND state = %s AND lease_until > now()
            RETURNING agent_id
            """,
            (self.ttl, pages, pages_per_second, idle, self.crawl_id, self.agent_id, RUNNING),
        )).fetchone()
        if row is None:
            # the lease ran out (cut off, or stalled): someone may own our hosts already
            logger.warning("agent %s: host lease expired; every host is given up and the "
                           "agent joins again", self.agent_id)
            beat.rejoined = True
            beat.lost = set(self.owned)
            await self.join()
            sent = self._now()
        else:
            self.deadline = sent + self.ttl - self.margin
        await self._take_over_dead(conn, beat)
        if clock is not None:
            await conn.execute(
                "UPDATE frontier_crawls SET clock = greatest(clock, %s), updated_at = now()"
                " WHERE key = %s",
                (clock, self.key),
            )
        await self._record_next_fetch(conn, next_fetch or {})
        self.live = {a: c for a, c in await (await conn.execute(
            "SELECT agent_id, capacity FROM agents WHERE crawl_id = %s AND state = %s"
            " AND lease_until > now()",
            (self.crawl_id, RUNNING),
        )).fetchall()}
        self.live.setdefault(self.agent_id, self.capacity)
        if self.resolve is not None and addresses:
            await self._rekey(conn, beat, addresses)
        if load is not None:
            await self._balance(conn, beat, load)
        if in_flight is None:
            busy = set(busy_hosts)
            waits = next_fetch or {}

            def in_flight() -> tuple[Iterable[str], dict[str, float]]:
                return busy, waits

        await self._hand_back(conn, beat, in_flight)
        await self._claim(conn, beat)
        beat.finish_reason = await self._finish_reason(conn, idle)
        return beat

    async def _take_over_dead(self, conn: psycopg.AsyncConnection[Any], beat: Heartbeat) -> None:
        async with conn.transaction():
            dead = [a for (a,) in await (await conn.execute(
                "UPDATE agents SET state = %s, idle = true WHERE crawl_id = %s AND state = %s"
                " AND lease_until <= now() RETURNING agent_id",
                (DEAD, self.crawl_id, RUNNING),
            )).fetchall()]
            if not dead:
                return
            params = {"key": self.key, "dead": dead, "leased": LEASED, "queued": QUEUED,
                      "done": DONE, **saved_results.params(self.crawl_id)}
            # the dead agents' rows are locked first, in fingerprint order, as every
            # agent's frontier write locks its rows (PostgresStore.write): no deadlock
            await conn.execute(
                "SELECT fp FROM frontier WHERE crawl = %(key)s AND agent = ANY(%(dead)s)"
                " AND state IN (%(leased)s, %(done)s) ORDER BY fp FOR UPDATE",
                params,
            )
            # a row whose failure row was saved was fetched: done, not re-fetched. Not so
            # a row whose page was saved: its links reach the frontier with its ack, in
            # the agent's next frontier write, which a leased row has not had (marked
            # done, the page's links were lost: tests/agents/test_agent_faults.py
            # test_kill_9_of_one_agent_loses_nothing); it is fetched again
            finished = await conn.execute(
                f"""
                UPDATE frontier f SET state = %(done)s, agent = NULL
                WHERE f.crawl = %(key)s AND f.state = %(leased)s AND f.agent = ANY(%(dead)s)
                  AND {saved_results.failure_saved("f.url")}
                """,
                params,
            )
            requeued = await conn.execute(
                "UPDATE frontier SET state = %(queued)s, agent = NULL WHERE crawl = %(key)s"
                " AND state = %(leased)s AND agent = ANY(%(dead)s)",
                params,
            )
            # acked, but the page or failure row never reached the database (the item
            # pipeline writes in batches of its own): fetched again
            unsaved = await conn.execute(
                f"""
                UPDATE frontier f SET state = %(queued)s, agent = NULL, done_at = NULL,
                    result_url = NULL
                WHERE f.crawl = %(key)s AND f.state = %(done)s AND f.agent = ANY(%(dead)s)
                  AND {saved_results.unsaved("coalesce(f.result_url, f.url)")}
                """,
                params,
            )
        beat.dead_agents = dead
        beat.finished = finished.rowcount
        beat.requeued = requeued.rowcount + unsaved.rowcount
        logger.warning("agents %s: lease expired, declared dead; %d of their leased URLs "
                       "re-queued, %d already saved", ", ".join(dead), beat.requeued,
                       beat.finished)

    async def _record_next_fetch(
        self, conn: psycopg.AsyncConnection[Any], next_fetch: dict[str, float]
    ) -> None:
        waits = {h: w for h, w in next_fetch.items() if w > 0 and h in self.owned}
        if not waits:
            return
        hosts = sorted(waits)  # (rows locked in host order by every statement)
        await conn.execute(
            "UPDATE host_owners o SET next_fetch_at = clock_timestamp()"
            " + make_interval(secs => d.wait)"
            " FROM unnest(%b::text[], %b::float8[]) AS d(host, wait)"
            " WHERE o.crawl = %s AND o.host = d.host AND o.agent_id = %s",
            (hosts, [waits[h] for h in hosts], self.key, self.agent_id),
        )

    # --- politeness per server (POLITENESS_KEY=ip) ---------------------------------------
    async def _lock_servers(
        self, conn: psycopg.AsyncConnection[Any], servers: list[str]
    ) -> None:
        """Transaction-level advisory locks of the crawl's servers ``servers``, taken in
        sorted order by every agent (before any host row: no deadlock)."""
        await conn.execute(
            "SELECT count(pg_advisory_xact_lock(hashtextextended(%s || '/' || k, 0)))"
            " FROM unnest(%s::text[]) AS k",
            (str(self.key), sorted(servers)),
        )

    async def _servers_taken(
        self, conn: psycopg.AsyncConnection[Any], servers: list[str], valid: set[str]
    ) -> set[str]:
        """Of ``servers``, those another live agent (of ``valid``) holds or is lent a
        host of, and those of this agent's hosts being lent to another (the whole group
        goes): no host of them may be claimed or re-keyed here now."""
        if not servers:
            return set()
        others = sorted(valid - {self.agent_id})
        if not others:
            return set()
        return {k for (k,) in await (await conn.execute(
            "SELECT DISTINCT server FROM host_owners WHERE crawl = %s AND server = ANY(%s)"
            " AND (agent_id = ANY(%s) OR lent_to = ANY(%s))",
            (self.key, servers, others, others),
        )).fetchall()}

    async def _valid_agents(self, conn: psycopg.AsyncConnection[Any]) -> set[str]:
        return {a for (a,) in await (await conn.execute(
            "SELECT agent_id FROM agents WHERE crawl_id = %s AND state = %s"
            " AND lease_until > now()",
            (self.crawl_id, RUNNING),
        )).fetchall()}

    async def _rekey(
        self, conn: psycopg.AsyncConnection[Any], beat: Heartbeat,
        addresses: Mapping[str, str],
    ) -> None:
        """Held hosts that resolve to another address than the one they are held under
        (a TTL ran out and the answer changed, or a host that did not resolve now does):
        held under the new address when no other agent holds a host of it, else handed
        over (not fetched meanwhile: ``may_fetch`` compares the addresses)."""
        changed = {
            h: a for h, a in addresses.items()
            if h in self.owned and h not in self.releasing and a != self.server(h)
        }
        if not changed:
            return
        servers = sorted(set(changed.values()))
        async with conn.transaction():
            await self._lock_servers(conn, servers)
            taken = await self._servers_taken(conn, servers, await self._valid_agents(conn))
            kept = sorted(h for h, a in changed.items() if a not in taken)
            if kept:
                await conn.execute(
                    "UPDATE host_owners o SET server = d.server"
                    " FROM unnest(%b::text[], %b::text[]) AS d(host, server)"
                    " WHERE o.crawl = %s AND o.host = d.host AND o.agent_id = %s",
                    (kept, [changed[h] for h in kept], self.key, self.agent_id),
                )
        for host, address in sorted(changed.items()):
            if host in kept:
                self.servers[host] = address
            else:
                self.releasing[host] = None
                self.loans.discard(host)
                beat.releasing.add(host)
        logger.info("agent %s: %d hosts moved to another address (%s)", self.agent_id,
                    len(changed), ", ".join(
                        f"{h} to {a}{'' if h in kept else ' (held by another agent: handed over)'}"
                        for h, a in sorted(changed.items())[:5]))

    async def _balance(
        self, conn: psycopg.AsyncConnection[Any], beat: Heartbeat, load: HostLoad
    ) -> None:
        """Work-aware lending (crawler/agents/assignment.py): publish how many hosts this
        agent needs; an agent that needs none lends the hosts it cannot serve to the
        agents that need them (_reserve) and gives back the borrowed hosts it can
        spare."""
        held = sorted(h for h in self.owned if h not in self.releasing)
        work = {h: load.pending.get(h, 0) for h in held}
        if held:
            for host, queued in await (await conn.execute(
                "SELECT host, count(*) FROM frontier WHERE crawl = %s AND state = %s"
                " AND shared AND host = ANY(%s) GROUP BY host",
                (self.key, QUEUED, held),
            )).fetchall():
                work[host] += int(queued)
        members: dict[str, list[str]] | None = None
        if self.resolve is not None:
            # the hosts of one server are lent and given back together (a host is claimed
            # only while no other agent holds a host of its server)
            work, load, members = group_hosts(work, load, self.server)
            held = sorted(members)
        need = beat.need = need_hosts(work, load)
        # what it needs, less the hosts already lent to it and not claimed yet
        await conn.execute(
            """
            UPDATE agents SET need = greatest(0, %(need)s - (
                SELECT count(*) FROM host_owners WHERE crawl = %(key)s
                AND lent_to = %(agent)s AND agent_id IS DISTINCT FROM %(agent)s))
            WHERE crawl_id = %(crawl_id)s AND agent_id = %(agent)s
            """,
            {"need": need, "key": self.key, "agent": self.agent_id,
             "crawl_id": self.crawl_id},
        )
        loans = {self.server(h) for h in self.loans} if members else self.loans
        loans = loans.intersection(held)
        needs: dict[str, int] = {}
        if not need and len(self.live) > 1:
            needs = {a: int(n) for a, n in await (await conn.execute(
                "SELECT agent_id, need FROM agents WHERE crawl_id = %s AND state = %s"
                " AND lease_until > now() AND need > 0 AND agent_id <> %s",
                (self.crawl_id, RUNNING, self.agent_id),
            )).fetchall()}
        lent, returned = plan_lending(work, load, needs, loans)
        if lent:
            lent = await self._reserve(conn, lent, members)
        if members is not None:  # server groups -> their hosts
            lent = {h: b for k, b in lent.items() for h in members[k]}
            returned = {h for k in returned for h in members[k]}
        for host, borrower in lent.items():
            self.releasing[host] = borrower
            self.loans.discard(host)
        for host in returned:
            self.releasing[host] = None
            self.loans.discard(host)
        beat.lent, beat.returned = lent, returned
        beat.releasing.update(lent)
        beat.releasing.update(returned)
        if lent:
            logger.info(
                "agent %s: %d hosts lent (%s%s) to agents that need work", self.agent_id,
                len(lent), ", ".join(f"{h} to {b}" for h, b in sorted(lent.items())[:5]),
                ", ..." if len(lent) > 5 else "",
            )
        if returned:
            logger.info("agent %s: %d borrowed hosts given back (%s%s); it needs %d more",
                        self.agent_id, len(returned), ", ".join(sorted(returned)[:5]),
                        ", ..." if len(returned) > 5 else "", need)

    async def _reserve(
        self, conn: psycopg.AsyncConnection[Any], lent: dict[str, str],
        members: Mapping[str, list[str]] | None = None,
    ) -> dict[str, str]:
        """Take the lent hosts off their borrowers' published needs, so that two lenders
        never fill one need twice, and name the borrowers in ``host_owners.lent_to``;
        returns the loans granted (a need another lender filled meanwhile is not filled
        again). Each statement is its own transaction: no agent row stays locked while
        this process does anything else, so a borrower's lease renewal never waits for
        a lender's heartbeat (a descheduled lender holding the rows of every agent that
        needed hosts made all their leases expire at once on a loaded machine)."""
        wanted: dict[str, int] = {}
        for borrower in lent.values():
            wanted[borrower] = wanted.get(borrower, 0) + 1
        borrowers = sorted(wanted)
        granted = {a: int(n) for a, n in await (await conn.execute(
            """
            WITH d AS (SELECT * FROM unnest(%(agents)b::text[], %(counts)b::int[])
                       AS d(agent, n)),
            locked AS (
                SELECT a.agent_id, a.need FROM agents a JOIN d ON a.agent_id = d.agent
                WHERE a.crawl_id = %(crawl_id)s ORDER BY a.agent_id FOR UPDATE OF a)
            UPDATE agents a SET need = greatest(0, l.need - d.n)
            FROM locked l JOIN d ON d.agent = l.agent_id
            WHERE a.crawl_id = %(crawl_id)s AND a.agent_id = l.agent_id AND l.need > 0
            RETURNING a.agent_id, least(l.need, d.n)
            """,
            {"agents": borrowers, "counts": [wanted[b] for b in borrowers],
             "crawl_id": self.crawl_id},
        )).fetchall()}
        kept: dict[str, str] = {}
        for host, borrower in lent.items():  # (largest queues first)
            if granted.get(borrower, 0) > 0:
                granted[borrower] -= 1
                kept[host] = borrower
        if kept:
            # (``members``: the loans are server groups, every host of a group is lent)
            to = {h: b for k, b in kept.items() for h in (members[k] if members else [k])}
            hosts = sorted(to)
            await conn.execute(
                "UPDATE host_owners o SET lent_to = d.borrower"
                " FROM unnest(%b::text[], %b::text[]) AS d(host, borrower)"
                " WHERE o.crawl = %s AND o.host = d.host AND o.agent_id = %s",
                (hosts, [to[h] for h in hosts], self.key, self.agent_id),
            )
        return kept

    async def _hand_back(
        self, conn: psycopg.AsyncConnection[Any], beat: Heartbeat,
        in_flight: Callable[[], tuple[Iterable[str], dict[str, float]]],
    ) -> None:
        """Hosts whose rendezvous owner is now another live agent (unless borrowed),
        and hosts being lent or given back, are released once nothing is in flight for
        them (they are not fetched any more meanwhile)."""
        for host in self.owned:
            if host in self.releasing or host in self.loans:
                continue
            if owner(self.server(host), self.live) != self.agent_id:
                self.releasing[host] = None
                beat.releasing.add(host)
        # now, with no await since the marks above: a request started before them is in
        # flight (the host waits) or has its start in the waits
        in_progress, next_fetch = in_flight()
        busy = set(in_progress)
        ready = sorted(h for h in self.releasing if h not in busy)
        if not ready:
            return
        await conn.execute(
            """
            UPDATE host_owners o SET agent_id = NULL, lent_to = d.borrower,
                next_fetch_at = greatest(coalesce(o.next_fetch_at, clock_timestamp()),
                                         clock_timestamp() + make_interval(secs => d.wait))
            FROM unnest(%b::text[], %b::float8[], %b::text[]) AS d(host, wait, borrower)
            WHERE o.crawl = %s AND o.host = d.host AND o.agent_id = %s
            """,
            (ready, [max(0.0, next_fetch.get(h, 0.0)) for h in ready],
             [self.releasing[h] for h in ready], self.key, self.agent_id),
        )
        for host in ready:
            del self.releasing[host]
            self.owned.discard(host)
            self.loans.discard(host)
            self.servers.pop(host, None)
        beat.released = set(ready)

    async def _unowned_hosts(
        self, conn: psycopg.AsyncConnection[Any]
    ) -> list[tuple[str, str | None]]:
        """Hosts with queued URLs that no live agent owns, with the agent each is lent
        to, if any (one index probe per host; every row of a crawl agents run is
        ``shared``: PostgresStore._mark_shared)."""
        rows = await (await conn.execute(
            """
            WITH RECURSIVE h AS (
                (SELECT host FROM frontier WHERE crawl = %(key)s AND state = %(queued)s
                 AND shared ORDER BY host LIMIT 1)
                UNION ALL
                SELECT (SELECT f.host FROM frontier f WHERE f.crawl = %(key)s
                        AND f.state = %(queued)s AND f.shared AND f.host > h.host
                        ORDER BY f.host LIMIT 1)
                FROM h WHERE h.host IS NOT NULL)
            SELECT h.host, o.lent_to FROM h
            LEFT JOIN host_owners o ON o.crawl = %(key)s AND o.host = h.host
            WHERE h.host IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM agents a
                WHERE a.crawl_id = %(crawl_id)s AND a.agent_id = o.agent_id
                  AND a.state = %(running)s AND a.lease_until > now())
            """,
            {"key": self.key, "queued": QUEUED, "crawl_id": self.crawl_id,
             "running": RUNNING},
        )).fetchall()
        return [(h, lent) for h, lent in rows]

    def _may_claim(self, host: str, lent_to: str | None, key: str | None = None) -> bool:
        """A host lent to this agent, or one whose rendezvous owner it is (by its
        politeness ``key``, the host by default) and that is not lent to another live
        agent."""
        if lent_to == self.agent_id:
            return True
        if lent_to is not None and lent_to in self.live:
            return False
        return owner(key or host, self.live) == self.agent_id

    async def _claim(self, conn: psycopg.AsyncConnection[Any], beat: Heartbeat) -> None:
        candidates = [(h, lent) for h, lent in await self._unowned_hosts(conn)
                      if h not in self.owned]
        keys: dict[str, str] = {}
        if self.resolve is not None and candidates:
            keys = await self.resolve([h for h, _ in candidates])
            candidates = [(h, lent) for h, lent in candidates if h in keys]
        mine = [h for h, lent in candidates if self._may_claim(h, lent, keys.get(h))]
        if not mine:
            return
        mine.sort()  # rows are locked in one order by every agent: no deadlock
        servers = sorted({keys[h] for h in mine}) if keys else []
        async with conn.transaction():
            if servers:  # (server locks first, then host rows: one order for all)
                await self._lock_servers(conn, servers)
            await conn.execute(
                "INSERT INTO host_owners (crawl, host) SELECT %s, h FROM unnest(%b::text[]) h"
                " ORDER BY h ON CONFLICT (crawl, host) DO NOTHING",
                (self.key, mine),
            )
            rows = await (await conn.execute(
                "SELECT host, agent_id, lent_to FROM host_owners WHERE crawl = %s"
                " AND host = ANY(%s) ORDER BY host FOR UPDATE",
                (self.key, mine),
            )).fetchall()
            # a new statement, a new snapshot: sees renewals and claims committed while
            # the rows were being locked
            valid = await self._valid_agents(conn)
            free = [
                h for h, a, lent in rows
                if (a is None or a == self.agent_id or a not in valid)
                and (lent is None or lent == self.agent_id or lent not in valid)
            ]
            if servers:  # a server another agent holds a host of stays with it
                taken = await self._servers_taken(conn, servers, valid)
                free = [h for h in free if keys[h] not in taken]
            if not free:
                return
            got = await (await conn.execute(
                """
                UPDATE host_owners o SET agent_id = %s, epoch = epoch + 1,
                    server = coalesce(d.server, o.server)
                FROM unnest(%b::text[], %b::text[]) AS d(host, server)
                WHERE o.crawl = %s AND o.host = d.host
                RETURNING o.host,
                    greatest(0, extract(epoch FROM greatest(o.next_fetch_at, (
                        -- the server's wait: a host of it released before the last
                        -- answer (a 503's pause) does not carry that answer's wait
                        SELECT max(s.next_fetch_at) FROM host_owners s
                        WHERE s.crawl = o.crawl AND s.server = o.server
                    )) - now()))::float8,
                    o.lent_to
                """,
                (self.agent_id, free, [keys.get(h) for h in free], self.key),
            )).fetchall()
        now = self._now()
        for host, wait, lent in got:
            if wait and wait > 0:
                self.not_before[host] = now + float(wait)
            else:
                self.not_before.pop(host, None)
            self.owned.add(host)
            if host in keys:
                self.servers[host] = keys[host]
            if lent == self.agent_id and owner(self.server(host), self.live) != self.agent_id:
                self.loans.add(host)
            beat.gained[host] = float(wait or 0.0)

    async def _finish_reason(self, conn: psycopg.AsyncConnection[Any], idle: bool) -> str | None:
        """Why the crawl is over (None: it is not): a crawl-wide limit, or no agent has
        queued or leased URLs left and every live agent is idle."""
        row = await (await conn.execute(
            """
            SELECT c.finished_reason,
                   extract(epoch FROM now() - c.seeded_at)::float8,
                   (SELECT coalesce(sum(pages), 0) FROM agents WHERE crawl_id = %(crawl_id)s),
                   EXISTS (SELECT 1 FROM frontier WHERE crawl = %(key)s AND state = %(queued)s),
                   EXISTS (SELECT 1 FROM frontier WHERE crawl = %(key)s AND state = %(leased)s),
                   EXISTS (SELECT 1 FROM agents WHERE crawl_id = %(crawl_id)s
                           AND state = %(running)s AND lease_until > now() AND NOT idle)
            FROM frontier_crawls c WHERE c.key = %(key)s
            """,
            {"key": self.key, "crawl_id": self.crawl_id, "queued": QUEUED,
             "leased": LEASED, "running": RUNNING},
        )).fetchone()
        if row is None:
            return None
        reason, age, pages, queued, leased, busy = row
        if reason is None and age is not None:  # (not before the seeds are loaded)
            if self.max_pages and pages >= self.max_pages:
                reason = "crawl_max_pages"
            elif self.max_seconds and age >= self.max_seconds:
                reason = "crawl_max_seconds"
            elif idle and not queued and not leased and not busy:
                reason = "crawl_finished"
            if reason is not None:
                await conn.execute(
                    "UPDATE frontier_crawls SET finished_reason = %s WHERE key = %s"
                    " AND finished_reason IS NULL",
                    (reason, self.key),
                )
        return reason

    # --- leaving -------------------------------------------------------------------------
    async def leave(self, reason: str, next_fetch: dict[str, float] | None = None) -> None:
        """Hand every host back and record the agent as stopped (a clean exit)."""
        try:
            conn = await self._connection()
            waits = next_fetch or {}
            hosts = sorted(self.owned)
            async with conn.transaction():
                await conn.execute(
                    """
                    UPDATE host_owners o SET agent_id = NULL,
                        next_fetch_at = clock_timestamp() + make_interval(secs => d.wait)
                    FROM unnest(%b::text[], %b::float8[]) AS d(host, wait)
                    WHERE o.crawl = %s AND o.host = d.host AND o.agent_id = %s
                    """,
                    (hosts, [max(0.0, waits.get(h, 0.0)) for h in hosts], self.key,
                     self.agent_id),
                )
                await conn.execute(
                    "UPDATE host_owners SET agent_id = NULL WHERE crawl = %s AND agent_id = %s",
                    (self.key, self.agent_id),
                )
                # hosts lent to it and not claimed yet go to their rendezvous owner
                await conn.execute(
                    "UPDATE host_owners SET lent_to = NULL WHERE crawl = %s AND lent_to = %s",
                    (self.key, self.agent_id),
                )
                await conn.execute(
                    "UPDATE agents SET state = %s, idle = true, finish_reason = %s,"
                    " need = 0,"
                    " heartbeat_at = now(), lease_until = now()"
                    " WHERE crawl_id = %s AND agent_id = %s",
                    (STOPPED, reason, self.crawl_id, self.agent_id),
                )
        finally:
            self.owned.clear()
            self.releasing.clear()
            self.loans.clear()
            self.servers.clear()
            self.deadline = 0.0
            await self.disconnect()


async def claim_seeding(conn: psycopg.AsyncConnection[Any], crawl_key: int) -> bool:
    """Whether this agent loads the crawl's seeds: the first to ask, once per crawl."""
    row = await (await conn.execute(
        "UPDATE frontier_crawls SET seeded_at = now() WHERE key = %s AND seeded_at IS NULL"
        " RETURNING key",
        (crawl_key,),
    )).fetchone()
    return row is not None
