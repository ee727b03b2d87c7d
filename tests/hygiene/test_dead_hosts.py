"""End-to-end: one request per dead host, verdicts kept per crawl in PostgreSQL.

Exact counts from the sandbox request log, with Scrapy's default retry (RETRY_TIMES=1):
a dead host's robots.txt is not retried, its queued and future URLs are refused without a
request, and a resumed crawl asks the robots_verdicts table, not the hosts.
"""

from __future__ import annotations

from collections import Counter

import pytest

from crawler.sandbox.hygiene import (
    BAD_GATEWAY_HOST,
    DROPPED_HOST,
    TUNNEL_HOST,
    dead_hosts_web,
)
from tests.politeness.logs import target

pytestmark = pytest.mark.slow


def _requests(server) -> Counter:
    return Counter((r.method, r.host, target(r)) for r in server.requests_for())


def test_one_request_per_dead_host_and_verdicts_survive_resume(sandbox, run_crawl, db):
    server = sandbox(dead_hosts_web())
    result = run_crawl(
        proxy=server.proxy_url, args={"seed_urls": "http://portal.test/"},
        settings={"RETRY_TIMES": 1},
    ).check()
    assert _requests(server) == {
        ("GET", "portal.test", "/robots.txt"): 1,
        ("GET", "portal.test", "/"): 1,
        ("GET", "portal.test", "/more.html"): 1,
        ("GET", DROPPED_HOST, "/robots.txt"): 1,  # dropped connection: not retried
        ("GET", BAD_GATEWAY_HOST, "/robots.txt"): 1,  # 502: not retried
        ("CONNECT", f"{TUNNEL_HOST}:443", ""): 1,  # tunnel refused: not retried
        # https://dead.test/ costs nothing: the host name is dead
    }
    # one log line per dead origin, saying why it is dead
    for origin in (f"http://{DROPPED_HOST}:80", f"http://{BAD_GATEWAY_HOST}:80",
                   f"https://{TUNNEL_HOST}:443"):  # fmt: skip
        lines = [ln for ln in result.stderr.splitlines() if f"robots.txt of {origin} " in ln]
        assert len(lines) == 1 and "dead host" in lines[0], lines
    crawl_id = result.crawl_id
    rows = dict(db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s", (crawl_id,)).fetchall())
    expected = {}
    for n in range(4):
        expected[f"http://{DROPPED_HOST}/{n}.html"] = "connection"
        expected[f"http://{BAD_GATEWAY_HOST}/{n}.html"] = "robots_disallowed"
        expected[f"https://{TUNNEL_HOST}/{n}.html"] = "robots_disallowed"
    for n in range(3):
        expected[f"http://{DROPPED_HOST}/more{n}.html"] = "connection"
        expected[f"http://{BAD_GATEWAY_HOST}/more{n}.html"] = "robots_disallowed"
        expected[f"https://{TUNNEL_HOST}/more{n}.html"] = "robots_disallowed"
    expected[f"https://{DROPPED_HOST}/secure.html"] = "connection"
    assert rows == expected
    details = dict(db.execute(
        "SELECT url, detail FROM uncrawled WHERE crawl_id = %s", (crawl_id,)).fetchall())
    assert details[f"http://{BAD_GATEWAY_HOST}/0.html"].startswith(
        f"robots.txt of http://{BAD_GATEWAY_HOST}:80 unreachable (HTTP 502): dead host "
        "(robots.txt fetch at ")
    assert details[f"https://{DROPPED_HOST}/secure.html"].startswith(
        f"robots.txt of https://{DROPPED_HOST}:443 unreachable (host dead since "
        f"http://{DROPPED_HOST}:80: ")
    assert "no request until 20" in details[f"https://{TUNNEL_HOST}/0.html"]
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (crawl_id,)).fetchone()[0]
    assert stats["dead_host"] == 3
    assert stats["dead_host/refused"] == len(expected)
    # a new crawl, crawled by one process: the verdict table is not asked (issue 29)
    assert stats.get("robotstxt/verdict_lookups", 0) == 0
    verdicts = dict(db.execute(
        "SELECT origin, state || '/' || dead_scope FROM robots_verdicts WHERE crawl_id = %s",
        (crawl_id,)).fetchall())
    assert verdicts == {
        "http://portal.test:80": "unavailable/",
        f"http://{DROPPED_HOST}:80": "unreachable/host",
        f"http://{BAD_GATEWAY_HOST}:80": "unreachable/host",
        f"https://{TUNNEL_HOST}:443": "unreachable/origin",
    }

    # Resumed (same crawl id, a new seed linking new URLs of the dead hosts): the verdicts come
    # from the database, no host is asked again, not even portal.test's robots.txt.
    server.clear_log()
    again = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://portal.test/again.html", "crawl_id": crawl_id},
        settings={"RETRY_TIMES": 1},
    ).check()
    assert _requests(server) == {("GET", "portal.test", "/again.html"): 1}
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (again.crawl_id,)).fetchone()[0]
    assert stats.get("dead_host", 0) == 0
    assert stats["dead_host/from_database"] == 3
    assert stats["robotstxt/verdicts_reused"] == 4
    assert stats["robotstxt/verdict_lookups"] == 4
    assert stats["dead_host/refused"] == 3
    rows = dict(db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s AND url LIKE '%%again%%'",
        (crawl_id,)).fetchall())
    assert rows == {f"http://{DROPPED_HOST}/again.html": "connection",
                    f"http://{BAD_GATEWAY_HOST}/again.html": "robots_disallowed",
                    f"https://{TUNNEL_HOST}/again.html": "robots_disallowed"}
