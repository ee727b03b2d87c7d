"""robots.txt rules with RFC 9309 semantics, and their per-origin cache.

Outcome of fetching ``{origin}/robots.txt`` (redirects already followed):

========================  =============================  ==============================
outcome                   rules                          kept for
========================  =============================  ==============================
2xx                       parsed (first 500 KiB only)    ``ttl`` (24 h)
4xx except 429            "unavailable": allow all       ``ttl``
3xx left (> 5 redirects)  "unavailable": allow all       ``ttl``
5xx, 429                  "unreachable": disallow all    ``retry_interval``
timeout, network error    "unreachable": disallow all    ``retry_interval``
========================  =============================  ==============================

A **dead host** is one whose robots.txt fetch failed with a connection error (DNS,
refused, dropped), a refused proxy tunnel or HTTP 502/503/504: its "unreachable" rules
carry ``dead=True`` and a ``dead_scope``: ``"host"`` (every origin of the host name is
refused without a request until the retry) or ``"origin"`` (a refused CONNECT: only the
https origin; the host may still answer plain http).

When a later fetch fails (5xx, 429 or network error) while an expired parsed copy
exists, that copy stays in force until the next retry (RFC 9309 section 2.4: a cached
copy may be used beyond 24 hours when the file is unreachable).

Matching uses Protego (longest match, ``Allow`` wins ties, ``*`` and ``$``) with the
crawler's product token, the leading ``[A-Za-z_-]+`` run of its User-Agent.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from protego import Protego

#: RFC 9309 section 2.5: crawlers must parse at least the first 500 kibibytes.
ROBOTS_PARSE_LIMIT = 500 * 1024

PARSED = "parsed"
UNAVAILABLE = "unavailable"  # allow everything
UNREACHABLE = "unreachable"  # disallow everything

#: robots.txt answers that make a host dead (no retry inside the retry interval).
DEAD_STATUSES = frozenset({502, 503, 504})
DEAD_HOST = "host"  # every origin of the host name
DEAD_ORIGIN = "origin"  # this scheme+host+port only (a refused https tunnel)

_PRODUCT_TOKEN = re.compile(r"\s*([A-Za-z_-]+)")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def product_token(user_agent: str | bytes | None) -> str:
    """The robots.txt product token of a User-Agent: ``crawler/0.1 (+url)`` -> ``crawler``.

    RFC 9309 section 2.2.1: letters, ``_`` and ``-`` only, matched case-insensitively.
    An agent that does not start with such a token matches only ``User-agent: *`` groups.
    """
    if isinstance(user_agent, bytes):
        user_agent = user_agent.decode("latin-1")
    match = _PRODUCT_TOKEN.match(user_agent or "")
    return match.group(1).lower() if match else "*"


def robots_origin(url: str) -> str:
    """``scheme://host:port`` of a URL, the key robots rules apply to (RFC 9309 2.3)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None:
        port = _DEFAULT_PORTS.get(scheme, 0)
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def robots_url(url: str) -> str:
    """The robots.txt URL for the origin of ``url`` (default ports left out)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    netloc = (parts.hostname or "").lower()
    if ":" in netloc:
        netloc = f"[{netloc}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    return f"{scheme}://{netloc}/robots.txt"


def truncate_robots(body: bytes, limit: int = ROBOTS_PARSE_LIMIT) -> tuple[bytes, bool]:
    """The part of ``body`` that is parsed: its first ``limit`` bytes, cut back to the
    last complete line. Returns ``(text, truncated)``."""
    if limit <= 0 or len(body) <= limit:
        return body, False
    head = body[:limit]
    newline = max(head.rfind(b"\n"), head.rfind(b"\r"))
    return (head[: newline + 1] if newline >= 0 else b""), True


def parse_robots(body: bytes, limit: int = ROBOTS_PARSE_LIMIT) -> tuple[Protego, bool]:
    """Parse a robots.txt body (UTF-8, BOM and undecodable bytes ignored) with Protego."""
    text, truncated = truncate_robots(body, limit)
    return Protego.parse(text.decode("utf-8-sig", errors="ignore")), truncated


def dead_scope_of_failure(category: str, tunnel_refused: bool) -> str:
    """Whether a robots.txt fetch that failed without a response makes its host dead:
    a connection failure (DNS, refused, dropped) kills the host name, a refused proxy
    tunnel only its https origin; anything else (a timeout) does not ("")."""
    if tunnel_refused:
        return DEAD_ORIGIN
    return DEAD_HOST if category == "connection" else ""


@dataclass
class RobotsRules:
    """What one origin's robots.txt says, and until when that answer is trusted."""

    origin: str
    state: str  # PARSED, UNAVAILABLE or UNREACHABLE
    fetched_at: float
    expires_at: float
    parser: Protego | None = None
    status: int | None = None  # HTTP status of the robots.txt response; None: no response
    reason: str = ""  # why the file is unavailable or unreachable
    truncated: bool = False
    # Category under which URLs refused because of these rules are recorded.
    refusal_category: str = "robots_disallowed"
    sitemaps: list[str] = field(default_factory=list)
    stale: bool = False  # an expired parsed copy kept because the refresh failed
    dead_scope: str = ""  # DEAD_HOST or DEAD_ORIGIN for a dead host, else ""
    body: bytes = b""  # the parsed part of the file (PARSED only), kept to persist it

    @property
    def dead(self) -> bool:
        return bool(self.dead_scope)

    @property
    def host(self) -> str:
        """The host name of the origin (``[::1]`` kept in brackets)."""
        return self.origin.split("://", 1)[1].rsplit(":", 1)[0]

    def allowed(self, url: str, token: str) -> bool:
        if self.state == UNAVAILABLE:
            return True
        if self.state == UNREACHABLE:
            return urlsplit(url).path == "/robots.txt"
        assert self.parser is not None
        return self.parser.can_fetch(url, token)

    def expired(self, now: float) -> bool:
        return now >= self.expires_at

    def requested_delay(self, token: str) -> float | None:
        """Seconds between request starts asked for by ``Crawl-delay`` or ``Request-rate``
        (the larger of the two), or None. ``Request-rate: n/s`` asks for ``s / n``; its
        optional time-of-day window is ignored (the rate applies all day)."""
        if self.parser is None:
            return None
        delays = []
        crawl_delay = self.parser.crawl_delay(token)
        if crawl_delay is not None:
            delays.append(float(crawl_delay))
        rate = self.parser.request_rate(token)
        if rate is not None and rate.requests > 0:
            delays.append(rate.seconds / rate.requests)
        return max(delays) if delays else None

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        """Scrapy's ``RobotParser.crawl_delay`` for ``robots_parsed`` listeners."""
        return self.requested_delay(product_token(user_agent))

    def describe(self) -> str:
        if self.state == PARSED:
            return f"robots.txt of {self.origin}"
        return f"robots.txt of {self.origin} {self.state} ({self.reason})"


def capped_delay(requested: float | None, cap: float) -> float | None:
    """``requested`` limited to ``cap`` seconds (``cap <= 0``: no limit); None stays None."""
    if requested is None or requested <= 0:
        return None
    return min(requested, cap) if cap > 0 else requested


def rules_from_response(
    origin: str,
    status: int,
    body: bytes,
    now: float,
    *,
    ttl: float,
    retry_interval: float,
    parse_limit: int = ROBOTS_PARSE_LIMIT,
    previous: RobotsRules | None = None,
) -> RobotsRules:
    """Rules for a robots.txt answer with HTTP ``status`` (after redirects)."""
    if 200 <= status < 300:
        parser, truncated = parse_robots(body, parse_limit)
        return RobotsRules(
            origin, PARSED, now, now + ttl, parser=parser, status=status,
            truncated=truncated, sitemaps=list(parser.sitemaps),
            body=truncate_robots(body, parse_limit)[0],
        )
    if status >= 500 or status == 429:
        return rules_after_failure(
            origin, f"HTTP {status}", now, retry_interval=retry_interval,
            status=status, previous=previous,
            dead_scope=DEAD_HOST if status in DEAD_STATUSES else "",
        )
    # 4xx ("unavailable"), or a redirect left over after too many hops.
    return RobotsRules(origin, UNAVAILABLE, now, now + ttl, status=status, reason=f"HTTP {status}")


def rules_after_failure(
    origin: str,
    reason: str,
    now: float,
    *,
    retry_interval: float,
    category: str = "robots_disallowed",
    status: int | None = None,
    previous: RobotsRules | None = None,
    dead_scope: str = "",
) -> RobotsRules:
    """Rules when robots.txt is unreachable (5xx, 429, timeout, network error).

    Everything is disallowed until ``now + retry_interval``, unless an earlier parsed
    copy exists: it stays in force until then. ``category`` is what refused URLs are
    recorded as (a dead host's URLs are ``connection`` failures, not robots refusals).
    ``dead_scope``: the failure makes the host dead (DEAD_HOST or DEAD_ORIGIN).
    """
    if previous is not None and previous.state == PARSED:
        return RobotsRules(
            origin, PARSED, previous.fetched_at, now + retry_interval, parser=previous.parser,
            status=previous.status, reason=f"stale copy kept, refresh failed: {reason}",
            truncated=previous.truncated, sitemaps=previous.sitemaps, stale=True,
            body=previous.body,
        )
    return RobotsRules(
        origin, UNREACHABLE, now, now + retry_interval, status=status, reason=reason,
        refusal_category=category, dead_scope=dead_scope,
    )


def rules_for_origin(rules: RobotsRules, origin: str) -> RobotsRules:
    """A host-wide dead verdict applied to another origin of the same host name."""
    return replace(rules, origin=origin, reason=f"host dead since {rules.origin}: {rules.reason}")


def restore_rules(
    origin: str,
    state: str,
    fetched_at: float,
    expires_at: float,
    *,
    status: int | None,
    reason: str,
    refusal_category: str,
    dead_scope: str,
    body: bytes,
    stale: bool = False,
) -> RobotsRules:
    """Rules as persisted (``crawler.politeness.verdict_store``), times already on the
    caller's clock; a parsed file is parsed again from its stored body."""
    parser = sitemaps = None
    if state == PARSED:
        parser = Protego.parse(body.decode("utf-8-sig", errors="ignore"))
        sitemaps = list(parser.sitemaps)
    return RobotsRules(
        origin, state, fetched_at, expires_at, parser=parser, status=status, reason=reason,
        refusal_category=refusal_category, sitemaps=sitemaps or [], stale=stale,
        dead_scope=dead_scope, body=body,
    )


class RobotsCache:
    """Rules per origin (scheme+host+port), each valid until its ``expires_at``, and the
    host names found dead (a host-wide dead verdict answers for every origin of its host).

    Bounded: beyond ``max_origins`` entries the least recently stored one is dropped.
    """

    def __init__(self, max_origins: int = 100_000) -> None:
        self.max_origins = max(1, max_origins)
        self._rules: OrderedDict[str, RobotsRules] = OrderedDict()
        self._dead_hosts: OrderedDict[str, RobotsRules] = OrderedDict()

    def get(self, origin: str, now: float) -> RobotsRules | None:
        """Fresh rules for ``origin``, or None when missing or expired."""
        rules = self._rules.get(origin)
        if rules is not None and not rules.expired(now):
            return rules
        dead = self.dead_host(origin, now)
        if dead is not None:
            if dead.origin != origin:
                dead = rules_for_origin(dead, origin)
                self._store(dead)
            return dead
        return None

    def dead_host(self, origin: str, now: float) -> RobotsRules | None:
        """The unexpired host-wide dead verdict of ``origin``'s host name, if any."""
        host = origin.split("://", 1)[-1].rsplit(":", 1)[0]
        dead = self._dead_hosts.get(host)
        if dead is None or dead.expired(now):
            return None
        return dead

    def previous(self, origin: str) -> RobotsRules | None:
        """The stored rules for ``origin`` even if expired (to keep a stale copy)."""
        return self._rules.get(origin)

    def put(self, rules: RobotsRules) -> None:
        self._store(rules)
        if rules.dead_scope == DEAD_HOST:
            self._dead_hosts.pop(rules.host, None)
            self._dead_hosts[rules.host] = rules
            while len(self._dead_hosts) > self.max_origins:
                self._dead_hosts.popitem(last=False)

    def _store(self, rules: RobotsRules) -> None:
        self._rules.pop(rules.origin, None)
        self._rules[rules.origin] = rules
        while len(self._rules) > self.max_origins:
            self._rules.popitem(last=False)
            self.dropped = True

    #: whether an entry was ever dropped to keep within ``max_origins``
    dropped = False

    def __len__(self) -> int:
        return len(self._rules)
