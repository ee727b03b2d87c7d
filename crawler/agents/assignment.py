"""Which agent owns a host: weighted rendezvous (highest random weight) hashing.

UbiCrawler assigns hosts to agents by consistent hashing weighted by capacity, so that
a change of membership moves only the hosts of the agent that came or went. Weighted
rendezvous hashing gives the same property with no ring to maintain: each agent scores
``-capacity / ln(u)`` with ``u`` a uniform hash of (host, agent) in (0, 1); the highest
score wins. An agent's expected share is its capacity over the total capacity.

Plain functions, no Scrapy or database import.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field


def _uniform(host: str, agent: str) -> float:
    """A uniform number in (0, 1) from (host, agent), the same on every machine."""
    digest = hashlib.blake2b(f"{host}\x00{agent}".encode(), digest_size=8).digest()
    return (int.from_bytes(digest, "big") + 0.5) / 2.0**64


def score(host: str, agent: str, capacity: float) -> float:
    """The agent's rendezvous score for the host (higher wins)."""
    return -capacity / math.log(_uniform(host, agent))


def owner(host: str, agents: Mapping[str, float]) -> str | None:
    """The agent (id -> capacity) that owns ``host``; None without agents. Ties (which
    need equal 64-bit hashes) go to the smaller id, so every agent agrees."""
    best: str | None = None
    best_score = -1.0
    for agent in sorted(agents):
        capacity = agents[agent]
        if capacity <= 0:
            continue
        s = score(host, agent, capacity)
        if s > best_score:
            best, best_score = agent, s
    return best


def assign(hosts: Iterable[str], agents: Mapping[str, float]) -> dict[str, str]:
    """Owner of each host (hosts without a possible owner are left out)."""
    result = {}
    for host in hosts:
        agent = owner(host, agents)
        if agent is not None:
            result[host] = agent
    return result


# --- work-aware lending ----------------------------------------------------------------
#
# Rendezvous hashing balances hosts, not work: on a web where a few hosts hold most of
# the pages, one agent's hosts run dry while another has more hosts ready than its
# downloader can serve (issue 32). So an agent measures how many requests its hosts with
# work can keep in flight (each host: its downloader slot's concurrency, or with a delay
# the share of the delay a response takes, ``latency / delay``); below its own
# concurrency it *needs* hosts, above it it can *lend* the hosts it does not need, its
# largest queues first. A lent host goes through the same hand-over as any other (the
# lender stops, waits for its requests in flight, releases it with its next allowed
# fetch time; the borrower claims it with a new epoch), and a borrowed host goes home
# once its borrower can spare it or it has no work left.


@dataclass(frozen=True)
class HostLoad:
    """What an agent's downloader can do with its hosts, for lending decisions."""

    concurrency: int  # requests the agent keeps in flight at most (CONCURRENT_REQUESTS)
    # host -> requests in flight it sustains while it has work
    slots: Mapping[str, float] = field(default_factory=dict)
    # host -> URLs the agent holds: buffered, or in flight (a host whose last URLs are
    # being fetched still has work: their links are likely to be of the same host)
    pending: Mapping[str, int] = field(default_factory=dict)
    new_host_slots: float = 1.0  # what a host not fetched yet would sustain


def host_slots(concurrency: int, delay: float, latency: float | None) -> float:
    """Requests a host with work keeps in flight: its slot's concurrency, or with a
    delay between requests the share of the delay a response takes (one request per
    delay), at most the concurrency. Latency unknown: one."""
    if concurrency <= 0:
        concurrency = 1
    if delay <= 0:
        return float(concurrency)
    if latency is None:
        return 1.0
    return max(0.01, min(float(concurrency), latency / delay))


def filled(work: Mapping[str, int], slots: Mapping[str, float]) -> float:
    """Requests in flight the hosts with work (queued > 0) can sustain together."""
    return sum(slots.get(h, 1.0) for h, queued in work.items() if queued > 0)


def need_hosts(work: Mapping[str, int], load: HostLoad) -> int:
    """How many more hosts with work the agent could keep busy (0: enough)."""
    gap = load.concurrency - filled(work, load.slots)
    if gap <= 1e-9:
        return 0
    return math.ceil(gap / max(load.new_host_slots, 0.05) - 1e-9)


def plan_lending(
    work: Mapping[str, int],
    load: HostLoad,
    needs: Mapping[str, int],
    loans: Iterable[str],
) -> tuple[dict[str, str], set[str]]:
    """Which hosts to lend (host -> borrower) and which borrowed hosts to give back.

    ``work``: host -> URLs queued (buffered or in the store) of the hosts the agent
    holds and may fetch; ``needs``: other agents -> hosts they need; ``loans``: held
    hosts borrowed from another agent. Hosts are lent, largest queue first, while
    what is left still fills the agent's concurrency, each to the agent that needs the
    most (ties: the smaller id). A loan goes back when it has no work left, or when the
    agent would still fill its concurrency with one host to spare without it.
    """
    total = filled(work, load.slots)
    remaining = {a: n for a, n in needs.items() if n > 0}
    lent: dict[str, str] = {}
    for host, queued in sorted(work.items(), key=lambda hq: (-hq[1], hq[0])):
        if not remaining:
            break
        slots = load.slots.get(host, 1.0)
        if queued <= 0 or total - slots < load.concurrency:
            continue
        borrower = min(remaining, key=lambda a: (-remaining[a], a))
        lent[host] = borrower
        total -= slots
        remaining[borrower] -= 1
        if not remaining[borrower]:
            del remaining[borrower]
    returned: set[str] = set()
    for host in sorted(loans, key=lambda h: (work.get(h, 0), h)):
        if host in lent:
            continue
        queued = work.get(host, 0)
        slots = load.slots.get(host, 1.0)
        if queued <= 0:
            returned.add(host)
        elif total - slots >= load.concurrency + slots:
            returned.add(host)
            total -= slots
    return lent, returned


def group_hosts(
    work: Mapping[str, int], load: HostLoad, key: Callable[[str], str]
) -> tuple[dict[str, int], HostLoad, dict[str, list[str]]]:
    """``work`` and ``load`` by politeness key (POLITENESS_KEY=ip: the hosts of one
    address share one downloader slot, so they are lent and given back together): the
    URLs waiting per key, what each key's slot sustains (its hosts report the same
    server slot: the largest), and the hosts of each key."""
    members: dict[str, list[str]] = {}
    grouped: dict[str, int] = {}
    slots: dict[str, float] = {}
    pending: dict[str, int] = {}
    for host, queued in work.items():
        k = key(host)
        members.setdefault(k, []).append(host)
        grouped[k] = grouped.get(k, 0) + queued
        if host in load.slots:
            slots[k] = max(slots.get(k, 0.0), load.slots[host])
        if host in load.pending:
            pending[k] = pending.get(k, 0) + load.pending[host]
    return grouped, HostLoad(load.concurrency, slots, pending, load.new_host_slots), members
