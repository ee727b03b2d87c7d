"""Unit tests of the Scrapy-free robots.txt rules and cache (crawler.politeness.robots)."""

from __future__ import annotations

import pytest

from crawler.politeness.robots import (
    PARSED,
    ROBOTS_PARSE_LIMIT,
    UNAVAILABLE,
    UNREACHABLE,
    RobotsCache,
    capped_delay,
    product_token,
    robots_origin,
    robots_url,
    rules_after_failure,
    rules_from_response,
    truncate_robots,
)

TTL, RETRY = 86400.0, 600.0


def parsed(text: str, now: float = 0.0):
    return rules_from_response("http://a.test:80", 200, text.encode(), now, ttl=TTL,
                               retry_interval=RETRY)


@pytest.mark.parametrize(("agent", "token"), [
    ("crawler/0.1 (+https://example.org/bot)", "crawler"),
    ("My_Bot-2/1.0", "my_bot-"),
    ("Mozilla/5.0 (compatible; Foobot/1.0)", "mozilla"),
    (b"crawler/0.1", "crawler"),
    ("", "*"),
    (None, "*"),
    ("/1.0", "*"),
])
def test_product_token(agent, token):
    assert product_token(agent) == token


def test_origin_is_scheme_host_and_port():
    assert robots_origin("http://A.test/x?y") == "http://a.test:80"
    assert robots_origin("http://a.test:80/") == "http://a.test:80"
    assert robots_origin("https://a.test/") == "https://a.test:443"
    assert robots_origin("http://a.test:8080/") == "http://a.test:8080"
    assert robots_origin("http://[::1]:81/") == "http://[::1]:81"
    assert robots_url("http://A.test:80/x/y?z") == "http://a.test/robots.txt"
    assert robots_url("https://a.test:8443/x") == "https://a.test:8443/robots.txt"


def test_status_semantics():
    ok = rules_from_response("o", 200, b"User-agent: *\nDisallow: /x\n", 10.0, ttl=TTL,
                             retry_interval=RETRY)
    assert (ok.state, ok.expires_at) == (PARSED, 10.0 + TTL)
    assert not ok.allowed("http://a.test/x", "crawler")
    for status in (400, 401, 403, 404, 410, 301):
        rules = rules_from_response("o", status, b"User-agent: *\nDisallow: /\n", 10.0,
                                    ttl=TTL, retry_interval=RETRY)
        assert (rules.state, rules.expires_at) == (UNAVAILABLE, 10.0 + TTL)
        assert rules.allowed("http://a.test/anything", "crawler")
    for status in (500, 503, 429):
        rules = rules_from_response("o", status, b"", 10.0, ttl=TTL, retry_interval=RETRY)
        assert (rules.state, rules.expires_at) == (UNREACHABLE, 10.0 + RETRY)
        assert rules.reason == f"HTTP {status}"
        assert rules.refusal_category == "robots_disallowed"
        assert not rules.allowed("http://a.test/", "crawler")


def test_matching_longest_match_wildcards_and_groups():
    rules = parsed(
        "User-agent: *\nDisallow: /\n\n"
        "User-agent: otherbot\nUser-agent: crawler\n"
        "Disallow: /private/\nAllow: /private/open\n"
        "Disallow: /*.pdf$\nAllow: /same\nDisallow: /same\n"
    )
    allowed = {
        "http://a.test/": True,
        "http://a.test/private/x": False,
        "http://a.test/private/open.html": True,  # the longer Allow wins
        "http://a.test/doc.pdf": False,
        "http://a.test/doc.pdf?x=1": True,  # $ anchors the end
        "http://a.test/same": True,  # equal length: Allow wins
        "http://a.test/robots.txt": True,
    }
    assert {url: rules.allowed(url, "crawler") for url in allowed} == allowed
    # another product token falls back to "*"
    assert not rules.allowed("http://a.test/", "somebot")


def test_requested_delay_and_cap():
    assert parsed("User-agent: *\nCrawl-delay: 2.5\n").requested_delay("crawler") == 2.5
    assert parsed("User-agent: *\nRequest-rate: 1/10s\n").requested_delay("crawler") == 10.0
    assert parsed("User-agent: *\nRequest-rate: 3/1m\n").requested_delay("crawler") == 20.0
    both = parsed("User-agent: *\nCrawl-delay: 4\nRequest-rate: 1/2\n")
    assert both.requested_delay("crawler") == 4.0
    assert both.crawl_delay("crawler/0.1 (+x)") == 4.0
    assert parsed("User-agent: *\nDisallow:\n").requested_delay("crawler") is None
    only_others = parsed("User-agent: slowbot\nCrawl-delay: 9\n")
    assert only_others.requested_delay("crawler") is None
    assert capped_delay(100.0, 30.0) == 30.0
    assert capped_delay(2.0, 30.0) == 2.0
    assert capped_delay(100.0, 0) == 100.0
    assert capped_delay(None, 30.0) is None
    assert capped_delay(0.0, 30.0) is None


def test_only_the_first_500_kib_are_parsed():
    line = b"# " + b"x" * 97 + b"\n"
    head = b"User-agent: *\nDisallow: /early/\n"
    body = head + line * (ROBOTS_PARSE_LIMIT // len(line)) + b"Disallow: /late/\n"
    text, truncated = truncate_robots(body)
    assert truncated and len(text) <= ROBOTS_PARSE_LIMIT and text.endswith(b"\n")
    rules = parsed(body.decode())
    assert rules.truncated
    assert not rules.allowed("http://a.test/early/", "crawler")
    assert rules.allowed("http://a.test/late/", "crawler")
    assert truncate_robots(b"short") == (b"short", False)
    assert truncate_robots(b"no newline at all", 5) == (b"", True)


def test_bom_and_garbage_are_tolerated():
    rules = parsed("\ufeffUser-agent: *\nDisallow: /x\n")
    assert not rules.allowed("http://a.test/x", "crawler")
    raw = rules_from_response("o", 200, b"\xff\xfeUser-agent: *\nDisallow: /y\n", 0, ttl=TTL,
                              retry_interval=RETRY)
    assert not raw.allowed("http://a.test/y", "crawler")


def test_unreachable_keeps_a_stale_parsed_copy():
    old = parsed("User-agent: *\nDisallow: /x\nCrawl-delay: 3\n", now=0.0)
    later = TTL + 5
    failed = rules_after_failure("o", "HTTP 503", later, retry_interval=RETRY, previous=old)
    assert failed.state == PARSED and failed.expires_at == later + RETRY and failed.stale
    assert not old.stale
    assert not failed.allowed("http://a.test/x", "crawler")
    assert failed.allowed("http://a.test/y", "crawler")
    assert failed.requested_delay("crawler") == 3.0
    assert "refresh failed: HTTP 503" in failed.reason
    fresh = rules_after_failure("o", "ConnectError", 7.0, retry_interval=RETRY,
                                category="connection")
    assert (fresh.state, fresh.refusal_category, fresh.expires_at) == (
        UNREACHABLE, "connection", 7.0 + RETRY)
    via_response = rules_from_response("o", 502, b"", later, ttl=TTL, retry_interval=RETRY,
                                       previous=old)
    assert via_response.state == PARSED


def test_cache_ttl_and_bound():
    cache = RobotsCache(max_origins=2)
    a = parsed("User-agent: *\nDisallow:\n", now=0.0)
    cache.put(a)
    assert cache.get("http://a.test:80", TTL - 1) is a
    assert cache.get("http://a.test:80", TTL) is None  # expired ...
    assert cache.previous("http://a.test:80") is a  # ... but kept for a stale copy
    for origin in ("http://b.test:80", "http://c.test:80"):
        cache.put(rules_after_failure(origin, "x", 0.0, retry_interval=RETRY))
    assert len(cache) == 2
    assert cache.previous("http://a.test:80") is None
    assert cache.get("http://b.test:80", RETRY - 1) is not None
    assert cache.get("http://b.test:80", RETRY) is None
