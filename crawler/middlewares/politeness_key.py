"""``POLITENESS_KEY = "ip"``: every request is downloaded in the slot of the address its
host resolves to, so host names on one server share its concurrency and delay
(docs/politeness.md, "Politeness per server").

Scrapy picks a request's downloader slot after the downloader middlewares
(``Downloader._enqueue_request``), from ``request.meta["download_slot"]`` when set. This
middleware resolves the host through the installed resolver (crawler/downloader/resolver.py:
once per host and TTL, whatever the number of requests) and sets that key. A host that
does not resolve keeps its own slot: its request then fails to connect and is recorded as
``connection``. robots.txt stays per host (it is asked per origin as always); its
Crawl-delay becomes the server slot's, the largest of its hosts'.

Stats: ``politeness/server_slots`` (distinct addresses), ``politeness/shared_hosts``
(hosts whose address another host had already).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.error import DNSLookupError

from crawler.politeness.dns import is_ip_address, politeness_key_setting

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler


class ServerSlotMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats
        self._servers: dict[str, set[str]] = {}  # address -> hosts seen on it

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ServerSlotMiddleware:
        if politeness_key_setting(crawler.settings) != "ip":
            raise NotConfigured  # no message: host is the default
        return cls(crawler)

    async def process_request(self, request: Request) -> None:
        host = (urlparse_cached(request).hostname or "").lower()
        if not host or is_ip_address(host):
            return
        from twisted.internet import reactor

        try:
            address = await maybe_deferred_to_future(reactor.resolver.getHostByName(host))
        except DNSLookupError:
            return  # its own slot; connecting fails the same way
        request.meta["download_slot"] = address
        logger.debug("slot %s for %s", address, request.url)
        hosts = self._servers.get(address)
        if hosts is None:
            self._servers[address] = {host}
            self.stats.set_value("politeness/server_slots", len(self._servers))
        elif host not in hosts:
            hosts.add(host)
            self.stats.inc_value("politeness/shared_hosts")
