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
from collections.abc import Iterable, Mapping


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
