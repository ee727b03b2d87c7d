"""Politeness per server (issue 30, item 1): the DNS cache with TTLs, POLITENESS_KEY, and
a sandbox whose names resolve through a DNS server of its own (dnslib) inside the
loopback-only network namespace: a.test and b.test on 127.0.0.2, c.test on 127.0.0.3,
fetched directly (no proxy)."""

from __future__ import annotations

import hashlib
import socket
import threading

import pytest

from crawler.politeness.dns import DnsCache, parse_dns_servers, politeness_key_setting
from crawler.sandbox import SandboxServer
from crawler.sandbox.web import Resource, SandboxWeb, html_page


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_dns_cache_keeps_each_address_for_its_ttl_within_bounds() -> None:
    clock = Clock()
    cache = DnsCache(2, min_ttl=60, max_ttl=3600, clock=clock)
    assert cache.put("A.test", "127.0.0.2", 300) == 300
    assert cache.put("b.test", "127.0.0.2", 5) == 60  # raised to DNS_MIN_TTL
    assert cache.get("a.test") == "127.0.0.2" and cache.peek("A.TEST") == "127.0.0.2"
    clock.now += 61
    assert cache.get("b.test") is None and cache.get("a.test") == "127.0.0.2"
    clock.now += 240  # 301 s after a.test was resolved
    assert cache.get("a.test") is None
    assert cache.put("c.test", "127.0.0.3", 10**9) == 3600  # lowered to DNS_MAX_TTL
    assert cache.put("d.test", "127.0.0.4", None) == 60  # system resolver: no TTL known
    cache.put("e.test", "127.0.0.5", 100)  # over the size: the least recently used goes
    assert len(cache) == 2 and cache.peek("c.test") is None
    assert (cache.hits, cache.misses) == (2, 2)
    assert DnsCache(0).put("x.test", "127.0.0.9", 100) == 0.0  # DNSCACHE_ENABLED=False
    assert DnsCache(0).get("x.test") is None


def test_settings_checked() -> None:
    assert parse_dns_servers(["127.0.0.1:5353", "10.0.0.1", "[::1]:53", " "]) == [
        ("127.0.0.1", 5353), ("10.0.0.1", 53), ("::1", 53)]
    for bad in ("dns.example:53", "127.0.0.1:0", "127.0.0.1:x"):
        with pytest.raises(ValueError, match=f"DNS_SERVERS entry '{bad}' is not ADDRESS"):
            parse_dns_servers([bad])
    assert politeness_key_setting({"POLITENESS_KEY": "IP"}) == "ip"
    assert politeness_key_setting({}) == "host"
    with pytest.raises(ValueError, match="POLITENESS_KEY must be host or ip, not 'server'"):
        politeness_key_setting({"POLITENESS_KEY": "server"})


def test_unknown_politeness_key_stops_the_crawl_with_one_line(run_crawl) -> None:
    for settings, error in (
        ({"POLITENESS_KEY": "server"}, "error: POLITENESS_KEY must be host or ip, not 'server'"),
        ({"DNS_SERVERS": "ns.test"},
         "error: DNS_SERVERS entry 'ns.test' is not ADDRESS or ADDRESS:PORT (an IP address, "
         "a port 1-65535)"),
    ):
        result = run_crawl(proxy=None, args={"seed_urls": "http://a.test/"}, settings=settings,
                           timeout=60)
        assert result.returncode == 2
        assert [line for line in result.stderr.splitlines() if "error" in line.lower()] == [
            error]
        assert "Traceback" not in result.stderr


class Zone:
    """A DNS server (dnslib) on 127.0.0.1 answering A questions from ``records``, with
    ``ttl``; every question is logged."""

    def __init__(self, records: dict[str, str], ttl: int = 300) -> None:
        from dnslib.server import DNSLogger, DNSServer

        self.records = records
        self.ttl = ttl
        self.questions: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server = DNSServer(self, port=self.port, address="127.0.0.1",
                                logger=DNSLogger(logf=lambda _line: None))

    def resolve(self, request, handler):  # dnslib's resolver interface
        from dnslib import QTYPE, RCODE, RR, A

        name = str(request.q.qname).rstrip(".").lower()
        with self._lock:
            self.questions.append((name, QTYPE[request.q.qtype]))
        reply = request.reply()
        address = self.records.get(name)
        if address is None:
            reply.header.rcode = RCODE.NXDOMAIN
        elif request.q.qtype == QTYPE.A:
            reply.add_answer(RR(name, QTYPE.A, rdata=A(address), ttl=self.ttl))
        return reply

    def __enter__(self) -> Zone:
        self.server.start_thread()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()


def server_web(port: int, throttled: set[str]) -> SandboxWeb:
    """a.test and b.test: a home page and 6 and 12 pages, every page 0.15 s to answer;
    c.test: 3 pages. Every page has words of its own (the content-seen test would take
    look-alike pages for copies and not follow their links). a.test's /p1 answers 503 +
    Retry-After: 1 the first time (``throttled`` holds it once asked)."""
    web = SandboxWeb()
    # b.test has twice a.test's pages: some of them are still to come when a.test's /p1
    # answers 503, whichever order the frontier takes (with 6 each, b.test's last request
    # came before it once under load, and the back-off could not be measured)
    for host, count in (("a.test", 6), ("b.test", 12), ("c.test", 3)):
        origin = f"http://{host}:{port}"
        links = "".join(f'<a href="/p{i}">p{i}</a> ' for i in range(count))
        web.add_page(f"{origin}/", html_page(host, f"<p>{words(host)} {links}</p>"),
                     delay=0.15)
        for i in range(count):
            if host == "a.test" and i == 1:
                page = html_page(f"{host} {i}", f"<p>{words(f'{host}/{i}')}</p>")

                def once_busy(path: str, query: str, page: bytes = page) -> Resource | None:
                    if path != "/p1":
                        return None
                    if "a.test/p1" not in throttled:
                        throttled.add("a.test/p1")
                        return Resource(html_page("busy", "busy"), 503,
                                        headers={"Retry-After": "1"}, delay=0.15)
                    return Resource(page, delay=0.15)

                web.add_dynamic(f"{host}:{port}", "/p1", once_busy)
                continue
            web.add_page(f"{origin}/p{i}",
                         html_page(f"{host} {i}", f"<p>{words(f'{host}/{i}')}</p>"),
                         delay=0.15)
        web.set_robots(f"{host}:{port}", "User-agent: *\nDisallow: /private\n")
    return web


def words(seed: str, count: int = 40) -> str:
    """``count`` pseudo-words drawn from ``seed``: a text no other page has."""
    digest = hashlib.sha256(seed.encode()).hexdigest() * 3
    return " ".join("w" + digest[i * 4:i * 4 + 4] for i in range(count))


def most_at_once(records) -> int:
    """The largest number of requests being answered at one moment."""
    events = sorted([(r.started, 1) for r in records] + [(r.finished, -1) for r in records],
                    key=lambda e: (e[0], e[1]))
    now = peak = 0
    for _, step in events:
        now += step
        peak = max(peak, now)
    return peak


@pytest.mark.slow
def test_names_on_one_address_share_one_slot_with_politeness_key_ip(run_crawl) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        port = probe.getsockname()[1]
    throttled: set[str] = set()
    web = server_web(port, throttled)
    zone = Zone({"a.test": "127.0.0.2", "b.test": "127.0.0.2", "c.test": "127.0.0.3"})
    servers = [SandboxServer(web, host="127.0.0.2", port=port),
               SandboxServer(web, host="127.0.0.3", port=port)]
    for server in servers:
        server.start()
    shared = {f"a.test:{port}", f"b.test:{port}"}
    peaks = {}
    after_503 = {}
    try:
        with zone:
            for key in ("ip", "host"):
                for server in servers:
                    server.clear_log()
                zone.questions.clear()
                throttled.clear()
                seeds = ",".join(f"http://{h}:{port}/" for h in ("a.test", "b.test", "c.test"))
                result = run_crawl(
                    proxy=None, args={"seed_urls": seeds},
                    settings={"POLITENESS_KEY": key, "DNS_SERVERS": f"127.0.0.1:{zone.port}",
                              "CONCURRENT_REQUESTS_PER_DOMAIN": 1, "DOWNLOAD_DELAY": 0.05,
                              "RETRY_TIMES": 1},
                    timeout=300,
                ).check()
                log = servers[0].log
                fetched = {(r.host, r.path) for r in log}
                for host in ("a.test", "b.test"):  # robots.txt per host, every page
                    assert {(f"{host}:{port}", p) for p in
                            ["/robots.txt", "/"] + [f"/p{i}" for i in range(6)]} <= fetched
                assert {(r.host, r.path) for r in servers[1].log} >= {
                    (f"c.test:{port}", "/robots.txt"), (f"c.test:{port}", "/p2")}
                # each name asked once (its answer kept 300 s), an A question each
                assert sorted(zone.questions) == [
                    ("a.test", "A"), ("b.test", "A"), ("c.test", "A")], key
                peaks[key] = most_at_once([r for r in log if r.host in shared])
                # back-off by server: after a.test's 503, the first request of b.test
                (busy,) = [r for r in log if r.status == 503]
                after_503[key] = min(r.started for r in log if r.host == f"b.test:{port}"
                                     and r.started > busy.started) - busy.finished
                if key == "ip":
                    assert "'politeness/server_slots': 2" in result.stderr
                    assert "'politeness/shared_hosts': 1" in result.stderr
    finally:
        for server in servers:
            server.stop()
    # one slot for the server: never two requests at once on 127.0.0.2; by host name
    # each name has its own slot of 1, and the two overlap
    assert peaks == {"ip": 1, "host": 2}
    # POLITENESS_KEY=ip: a.test's 503 (Retry-After: 1) paused its server, b.test too; by
    # host name b.test went on at once
    assert after_503["ip"] >= 1.0 - 0.01 and after_503["host"] < 1.0, after_503
