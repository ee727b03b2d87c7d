"""Politeness per server: the DNS cache with TTLs and the politeness key (docs/politeness.md,
"Politeness per server").

Each host name is resolved once and its address kept for the TTL its DNS answer gave,
bounded by ``DNS_MIN_TTL`` and ``DNS_MAX_TTL`` (IRLbot's DNS cache; Heritrix keeps an
address for the record's TTL too). ``POLITENESS_KEY = "ip"`` makes that address the
politeness slot of every host that resolves to it. Plain Python, no Scrapy import; the
resolver that fills the cache is crawler/downloader/resolver.py.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Callable, Iterable
from time import monotonic
from typing import Any

from crawler import defaults

POLITENESS_KEYS = ("host", "ip")


def politeness_key_setting(settings: Any) -> str:
    """``POLITENESS_KEY`` checked: ``host`` or ``ip`` (ValueError naming the value)."""
    value = str(settings.get("POLITENESS_KEY", defaults.POLITENESS_KEY) or "").strip().lower()
    if value not in POLITENESS_KEYS:
        raise ValueError(
            f"POLITENESS_KEY must be {' or '.join(POLITENESS_KEYS)}, not "
            f"{settings.get('POLITENESS_KEY')!r}"
        )
    return value


def parse_dns_servers(values: Iterable[str]) -> list[tuple[str, int]]:
    """``DNS_SERVERS`` entries (``ADDRESS`` or ``ADDRESS:PORT``, an IPv6 address in
    brackets) as (address, port) pairs; ValueError naming a bad entry."""
    servers = []
    for raw in values:
        entry = str(raw).strip()
        if not entry:
            continue
        host, port = entry, "53"
        if entry.startswith("["):
            host, _, rest = entry[1:].partition("]")
            port = rest.removeprefix(":") or "53"
        elif entry.count(":") == 1:
            host, port = entry.split(":")
        try:
            ipaddress.ip_address(host)
            number = int(port)
            if not 0 < number < 65536:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"DNS_SERVERS entry {entry!r} is not ADDRESS or ADDRESS:PORT "
                "(an IP address, a port 1-65535)"
            ) from None
        servers.append((host, number))
    return servers


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class DnsCache:
    """Host name -> address, each kept for its TTL (clamped to ``min_ttl``..``max_ttl``),
    at most ``size`` names (Scrapy's DNSCACHE_SIZE; the least recently used goes first;
    0: nothing kept)."""

    def __init__(
        self,
        size: int,
        min_ttl: float = defaults.DNS_MIN_TTL,
        max_ttl: float = defaults.DNS_MAX_TTL,
        clock: Callable[[], float] = monotonic,
    ) -> None:
        self.size = size
        self.min_ttl = min_ttl
        self.max_ttl = max(max_ttl, min_ttl)
        self.clock = clock
        self._entries: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, name: str) -> str | None:
        """The address of ``name`` while its TTL lasts, else None (a miss)."""
        key = name.lower()
        entry = self._entries.get(key)
        if entry is not None:
            address, expires = entry
            if expires > self.clock():
                self._entries.move_to_end(key)
                self.hits += 1
                return address
            del self._entries[key]
        self.misses += 1
        return None

    def peek(self, name: str) -> str | None:
        """As :meth:`get`, without counting or refreshing: the politeness key's look-up."""
        entry = self._entries.get(name.lower())
        if entry is None or entry[1] <= self.clock():
            return None
        return entry[0]

    def put(self, name: str, address: str, ttl: float | None) -> float:
        """Keep ``address`` for ``name``; returns the seconds it is kept (``ttl`` clamped;
        None: ``min_ttl``)."""
        kept = self.min_ttl if ttl is None else min(max(float(ttl), self.min_ttl), self.max_ttl)
        if self.size <= 0:
            return 0.0
        key = name.lower()
        self._entries[key] = (address, self.clock() + kept)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return kept
