"""Unit tests of dead-host verdicts in the Scrapy-free robots rules and cache."""

from __future__ import annotations

from crawler.politeness.robots import (
    DEAD_HOST,
    DEAD_ORIGIN,
    PARSED,
    UNREACHABLE,
    RobotsCache,
    dead_scope_of_failure,
    restore_rules,
    rules_after_failure,
    rules_from_response,
)


def test_which_failures_make_a_host_dead():
    assert dead_scope_of_failure("connection", tunnel_refused=False) == DEAD_HOST
    assert dead_scope_of_failure("robots_disallowed", tunnel_refused=True) == DEAD_ORIGIN
    assert dead_scope_of_failure("timeout", tunnel_refused=False) == ""
    for status, scope in ((502, DEAD_HOST), (503, DEAD_HOST), (504, DEAD_HOST),
                          (500, ""), (429, ""), (404, ""), (200, "")):
        rules = rules_from_response("http://a.test:80", status, b"", 0.0, ttl=10,
                                    retry_interval=5)
        assert rules.dead_scope == scope, status


def test_a_parsed_copy_outlives_a_dead_answer():
    parsed = rules_from_response("http://a.test:80", 200, b"User-agent: *\nDisallow: /x\n",
                                 0.0, ttl=10, retry_interval=5)
    refreshed = rules_from_response("http://a.test:80", 502, b"", 20.0, ttl=10,
                                    retry_interval=5, previous=parsed)
    assert (refreshed.state, refreshed.stale, refreshed.dead) == (PARSED, True, False)
    assert refreshed.body == parsed.body == b"User-agent: *\nDisallow: /x\n"


def test_a_dead_host_answers_for_every_origin_of_its_name_until_it_expires():
    cache = RobotsCache()
    dead = rules_after_failure("http://d.test:80", "ConnectionLost", 0.0, retry_interval=5,
                               category="connection", dead_scope=DEAD_HOST)
    cache.put(dead)
    other = cache.get("https://d.test:443", 1.0)
    assert other is not None and other.origin == "https://d.test:443"
    assert (other.state, other.dead, other.refusal_category) == (UNREACHABLE, True, "connection")
    assert other.expires_at == 5.0
    assert other.reason.startswith("host dead since http://d.test:80: ")
    assert cache.get("http://e.test:80", 1.0) is None
    assert cache.get("http://d.test:8080", 5.0) is None  # expired: asked again


def test_a_refused_tunnel_kills_only_its_origin():
    cache = RobotsCache()
    cache.put(rules_after_failure("https://t.test:443", "TunnelError", 0.0, retry_interval=5,
                                  dead_scope=DEAD_ORIGIN))
    assert cache.get("https://t.test:443", 1.0).dead
    assert cache.get("http://t.test:80", 1.0) is None


def test_restored_rules_parse_the_stored_body_again():
    rules = restore_rules(
        "http://a.test:80", PARSED, 1.0, 9.0, status=200, reason="",
        refusal_category="robots_disallowed", dead_scope="",
        body=b"User-agent: *\nDisallow: /x\nSitemap: http://a.test/s.xml\n",
    )
    assert not rules.allowed("http://a.test/x", "crawler")
    assert rules.allowed("http://a.test/y", "crawler")
    assert rules.sitemaps == ["http://a.test/s.xml"]
