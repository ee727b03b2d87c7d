"""``TtlCachingResolver``: Scrapy's DNS resolver (``TWISTED_DNS_RESOLVER``) with a cache
that keeps each address for its DNS TTL (docs/politeness.md, "Politeness per server").

Scrapy's own ``CachingThreadedResolver`` asks the system (getaddrinfo in a thread) and
keeps every answer until the process ends, up to ``DNSCACHE_SIZE`` names, with no TTL.
This one keeps the same interface (``IResolverSimple``, IPv4, ``DNS_TIMEOUT``) and:

* with ``DNS_SERVERS`` set, asks those servers itself (twisted.names, after /etc/hosts)
  and keeps each address for the TTL of its answer, bounded by DNS_MIN_TTL..DNS_MAX_TTL;
* without, asks the system as Scrapy does and keeps the address DNS_MIN_TTL seconds (the
  system resolver does not tell the TTL);
* resolves a name once however many requests ask for it at the same time.

The politeness key (``POLITENESS_KEY = "ip"``) reads the same cache through
:func:`cached_address` (crawler/downloader/slots.py).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.base import ThreadedResolver
from twisted.internet.error import DNSLookupError
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

from crawler import defaults
from crawler.politeness.dns import DnsCache, is_ip_address, parse_dns_servers

if TYPE_CHECKING:
    from collections.abc import Sequence

    from twisted.internet.defer import Deferred

logger = logging.getLogger(__name__)

_MAX_CNAMES = 8


@implementer(IResolverSimple)
class TtlCachingResolver:
    def __init__(
        self,
        reactor: Any,
        cache: DnsCache,
        servers: list[tuple[str, int]],
        timeout: float,
    ) -> None:
        self.reactor = reactor
        self.cache = cache
        self.servers = servers
        self.timeout = timeout
        self.lookups = 0  # questions asked (a server or the system), not cache hits
        self._pending: dict[str, list[Deferred[str]]] = {}
        if servers:
            from twisted.names import client, hosts, resolve

            self._names: Any = resolve.ResolverChain(
                [hosts.Resolver(), client.Resolver(servers=servers, reactor=reactor)]
            )
        else:
            self._names = None
            self._system = ThreadedResolver(reactor)

    @classmethod
    def from_crawler(cls, crawler: Any, reactor: Any) -> TtlCachingResolver:
        # built by the CrawlerProcess (only its settings are there), before any crawler
        settings = crawler.settings
        size = settings.getint("DNSCACHE_SIZE") if settings.getbool("DNSCACHE_ENABLED") else 0
        cache = DnsCache(
            size,
            min_ttl=settings.getfloat("DNS_MIN_TTL", defaults.DNS_MIN_TTL),
            max_ttl=settings.getfloat("DNS_MAX_TTL", defaults.DNS_MAX_TTL),
        )
        servers = parse_dns_servers(settings.getlist("DNS_SERVERS", defaults.DNS_SERVERS))
        return cls(reactor, cache, servers, settings.getfloat("DNS_TIMEOUT"))

    def install_on_reactor(self) -> None:
        self.reactor.installResolver(self)

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:  # noqa: N802
        if is_ip_address(name):
            return defer.succeed(name)
        address = self.cache.get(name)
        if address is not None:
            return defer.succeed(address)
        key = name.lower()
        waiting: Deferred[str] = defer.Deferred()
        if key in self._pending:  # already being resolved: one question per name
            self._pending[key].append(waiting)
            return waiting
        self._pending[key] = [waiting]
        self.lookups += 1
        if self._names is not None:
            lookup = self._lookup(name, _MAX_CNAMES)
        else:
            lookup = self._system.getHostByName(name, (self.timeout,))  # type: ignore[arg-type]
            lookup.addCallback(lambda address: (address, None))
        lookup.addCallbacks(self._resolved, self._failed, callbackArgs=(key,),
                            errbackArgs=(key, name))
        return waiting

    def _lookup(self, name: str, cnames_left: int) -> Deferred[tuple[str, float]]:
        """(address, TTL) from the DNS servers: the first A record of the answer, its TTL
        the smallest of the chain (a CNAME's included)."""
        from twisted.names import dns

        def answered(result: Any) -> Any:
            answers = result[0]
            ttls = [record.ttl for record in answers]
            for record in answers:
                if record.type == dns.A:
                    return record.payload.dottedQuad(), min(ttls)
            for record in answers:
                if record.type == dns.CNAME and cnames_left > 0:
                    target = record.payload.name.name.decode("ascii", "replace")
                    chained = self._lookup(target, cnames_left - 1)
                    return chained.addCallback(
                        lambda found: (found[0], min(found[1], *ttls)))
            raise DNSLookupError(f"no address for {name}")

        return self._names.lookupAddress(name, timeout=(self.timeout,)).addCallback(answered)

    def _resolved(self, found: tuple[str, float | None], key: str) -> None:
        address, ttl = found
        kept = self.cache.put(key, address, ttl)
        logger.debug("resolved %s to %s (TTL %s, kept %.0f s)", key, address, ttl, kept)
        for waiting in self._pending.pop(key, []):
            waiting.callback(address)

    def _failed(self, failure: Any, key: str, name: str) -> None:
        # not cached (as Scrapy's): the next request of the host asks again
        error = failure.value
        if not isinstance(error, DNSLookupError):
            error = DNSLookupError(f"{name}: {type(error).__name__}: {error}")
        for waiting in self._pending.pop(key, []):
            waiting.errback(error)


def cached_address(host: str) -> str | None:
    """The address the installed resolver has for ``host`` now (without asking), or None:
    this resolver's cache, or Scrapy's ``dnscache`` under Scrapy's own resolvers."""
    from twisted.internet import reactor

    resolver = getattr(reactor, "resolver", None)
    cache = getattr(resolver, "cache", None)
    if isinstance(cache, DnsCache):
        return cache.peek(host)
    from scrapy.resolver import dnscache

    found = dnscache.get(host)
    return found if isinstance(found, str) else None
