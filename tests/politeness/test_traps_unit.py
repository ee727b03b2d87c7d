"""Unit tests of the trap checks, the record-once filter, session-id stripping and the
User-Agent contact."""

from __future__ import annotations

import pytest

from crawler.middlewares.useragent import crawler_user_agent, with_contact
from crawler.politeness.once import RecentKeys
from crawler.politeness.traps import (
    HOST_BUDGET,
    PATH_REPETITION,
    QUERY_VARIANTS,
    URL_LENGTH,
    HostRequestBudget,
    TrapGuard,
    repeated_segments,
)
from crawler.urls import canonical_url, strip_session_ids


@pytest.mark.parametrize(("path", "limit", "found"), [
    ("/a/b/a/b/a/b", 2, ("a/b", 3)),
    ("/a/b/a/b", 2, None),
    ("/x/a/b/a/b/a/b/c", 2, ("a/b", 3)),
    ("/a/a/a/a/a", 2, ("a", 5)),
    ("/news/news/", 2, None),
    ("/cal/2001/01/01", 2, None),
    ("/a/b/c/a/b/c/a/b/c/a/b/c/z", 2, ("a/b/c", 4)),
    ("/a/b/a/b", 1, ("a/b", 2)),
    ("/a/b/a/b/a/b", 0, None),
    ("/", 2, None),
    ("", 2, None),
])
def test_repeated_segments(path, limit, found):
    assert repeated_segments(path, limit) == found


def test_url_length_and_path_repetition():
    guard = TrapGuard(max_url_length=40)
    long_url = "http://a.test/" + "x" * 30
    refusal = guard.check(long_url)
    assert refusal is not None and refusal.kind == URL_LENGTH
    assert str(refusal) == "url_length: URL of 44 characters (limit 40)"
    assert guard.check("http://a.test/" + "x" * 26) is None
    refusal = TrapGuard().check("http://a.test/a/b/a/b/a/b/index.html")
    assert refusal is not None and refusal.kind == PATH_REPETITION
    assert refusal.detail == "path segments 'a/b' repeated 3 times in a row (limit 2)"
    assert TrapGuard(max_url_length=0, max_path_repetitions=0).check(
        "http://a.test/a/a/a/a/" + "y" * 5000) is None


def test_query_variants_per_host_and_path():
    guard = TrapGuard(max_query_variants=3)
    urls = [f"http://a.test/list?page={i}" for i in range(5)]
    results = [guard.check(url) for url in urls]
    assert results[:3] == [None, None, None]
    assert all(r is not None and r.kind == QUERY_VARIANTS for r in results[3:])
    assert results[3].detail == "more than 3 query-string variants of http://a.test/list"
    # an admitted variant stays admitted; the path without query is always fine
    assert guard.check(urls[1]) is None
    assert guard.check("http://a.test/list") is None
    # other paths, hosts and schemes count separately
    assert guard.check("http://a.test/other?page=9") is None
    assert guard.check("http://b.test/list?page=9") is None
    assert guard.check("https://a.test/list?page=9") is None


def test_query_variant_memory_is_bounded():
    guard = TrapGuard(max_query_variants=1, max_tracked_paths=2)
    assert guard.check("http://a.test/1?x") is None
    assert guard.check("http://a.test/2?x") is None
    assert guard.check("http://a.test/1?y") is not None  # /1 is now most recent
    assert guard.check("http://a.test/3?x") is None  # evicts /2, the least recent
    assert guard.check("http://a.test/2?y") is None  # forgotten: counts again
    assert guard.check("http://a.test/1?z") is None  # /1 was evicted by /2


def test_host_budget():
    budget = HostRequestBudget(2)
    assert [budget.admit("a.test") for _ in range(2)] == [None, None]
    refusal = budget.admit("a.test")
    assert refusal is not None and refusal.kind == HOST_BUDGET
    assert refusal.detail == "host a.test used its budget of 2 pages"
    assert budget.admit("b.test") is None
    unlimited = HostRequestBudget(0)
    assert all(unlimited.admit("a.test") is None for _ in range(1000))


def test_recent_keys_are_bounded():
    recent = RecentKeys(capacity=3)
    assert [recent.add(k) for k in "abca"] == [True, True, True, False]
    assert recent.add("d")  # full: a, b, c become the previous generation
    assert recent.generations == 2 and len(recent) == 4
    assert "a" in recent and not recent.add("a")  # still remembered
    assert [recent.add(k) for k in "ef"] == [True, True]  # d, a, e full: next generation
    assert recent.generations == 3
    assert "b" not in recent and recent.add("b")  # forgotten with the oldest generation
    assert "d" in recent and "x" not in recent


@pytest.mark.parametrize(("url", "canonical"), [
    ("http://a.test/login?sid=abc", "http://a.test/login"),
    ("http://a.test/login;jsessionid=0A1B2C", "http://a.test/login"),
    ("http://a.test/login;JSESSIONID=0A1B2C?next=%2Fx", "http://a.test/login?next=%2Fx"),
    ("http://a.test/p?PHPSESSID=x&b=2&a=1", "http://a.test/p?a=1&b=2"),
    ("http://a.test/p?ASPSESSIONIDQATSTBDA=x&q=1", "http://a.test/p?q=1"),
    ("http://a.test/p?SessionId=1&sessid=2&session_id=3&cfid=4&cftoken=5", "http://a.test/p"),
    ("http://a.test/p?ssid=1&side=2&sidebar=3", "http://a.test/p?side=2&sidebar=3&ssid=1"),
    ("http://a.test/p?a=1&a=2&sid=3", "http://a.test/p?a=1&a=2"),
    ("http://a.test/p;v=1?x=1", "http://a.test/p;v=1?x=1"),
])
def test_canonical_url_strips_session_ids(url, canonical):
    assert canonical_url(url) == canonical


def test_strip_session_ids_keeps_everything_else():
    assert strip_session_ids("http://a/p?b=2&sid=1&a=1#f") == "http://a/p?b=2&a=1#f"
    assert strip_session_ids("http://a/p") == "http://a/p"
    assert strip_session_ids("http://a/p?sid=1") == "http://a/p"


def test_user_agent_contact():
    ua = "crawler/0.1 (+https://example.invalid/crawler-contact)"
    assert with_contact(ua, "https://example.org/bot") == "crawler/0.1 (+https://example.org/bot)"
    assert with_contact("crawler/0.1", "https://example.org/bot") == (
        "crawler/0.1 (+https://example.org/bot)")
    assert with_contact(ua, None) == ua
    settings = {"USER_AGENT": ua, "CRAWLER_CONTACT_URL": "mailto:ops@example.org"}
    assert crawler_user_agent(settings) == "crawler/0.1 (+mailto:ops@example.org)"
