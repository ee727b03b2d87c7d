"""End-to-end: robots.txt with RFC 9309 semantics, checked on the sandbox request log."""

from __future__ import annotations

import gzip
import threading

import pytest

from crawler.sandbox import SandboxWeb, html_page
from tests.politeness.logs import by_host, targets
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def _links(*hrefs: str) -> str:
    return " ".join(f'<a href="{href}">{href}</a>' for href in hrefs)


def robots_web() -> SandboxWeb:
    web = SandboxWeb()
    homes = [
        "http://r503.test/", "http://r404.test/", "http://rules.test/", "http://moved.test/",
        "http://loop.test/", "http://five.test/", "http://big.test/", "http://dead.test/",
        "http://maps.test/",
    ]
    web.add_page("http://portal.test/", html_page("Portal", _links(*homes)))

    # 503: nothing but robots.txt is requested, the host's URLs are robots_disallowed
    web.set_robots("r503.test", "Service unavailable", status=503)
    web.add_page("http://r503.test/", html_page("R503", _links("/a.html")))
    web.add_page("http://r503.test/a.html", html_page("A", ""))

    # 404: everything is allowed
    web.add_page("http://r404.test/", html_page("R404", _links("/a.html", "/b.html")))
    web.add_page("http://r404.test/a.html", html_page("A", _links("/c.html")))
    web.add_page("http://r404.test/b.html", html_page("B", _links("/")))
    web.add_page("http://r404.test/c.html", html_page("C", ""))

    # our product token's group applies, not "*"; Allow beats a shorter Disallow; * and $
    web.set_robots("rules.test", (
        "User-agent: *\nDisallow: /\n\n"
        "User-agent: OtherBot\nUser-agent: crawler\n"
        "Disallow: /private/\nAllow: /private/open.html\n"
        "Disallow: /*.pdf$\nDisallow: /tmp\nCrawl-delay: 0.01\n"
    ))
    web.add_page("http://rules.test/", html_page("Rules", _links(
        "/private/secret.html", "/private/open.html", "/doc.pdf", "/doc.pdf?page=2",
        "/tmp/x.html", "/tmpfile.html", "/public.html",
    )))
    for path in ("/private/secret.html", "/private/open.html", "/tmp/x.html", "/tmpfile.html",
                 "/public.html"):
        web.add_page(f"http://rules.test{path}", html_page(path, ""))
    web.add_page("http://rules.test/doc.pdf", b"%PDF-1.4", content_type="application/pdf",
                 any_query=True)

    # robots.txt redirected to another host: the target's rules apply to moved.test
    web.add_redirect("http://moved.test/robots.txt", "http://cdn.test/moved-robots.txt")
    web.add_page("http://cdn.test/moved-robots.txt", "User-agent: *\nDisallow: /blocked/\n",
                 content_type="text/plain")
    web.add_page("http://moved.test/", html_page("Moved", _links("/blocked/a.html", "/ok.html")))
    web.add_page("http://moved.test/blocked/a.html", html_page("Blocked", ""))
    web.add_page("http://moved.test/ok.html", html_page("OK", ""))

    # 6 redirects: more than 5, robots.txt is "unavailable" and everything allowed
    web.add_redirect("http://loop.test/robots.txt", "/r1")
    for hop in range(1, 6):
        web.add_redirect(f"http://loop.test/r{hop}", f"/r{hop + 1}")
    web.add_page("http://loop.test/r6", "User-agent: *\nDisallow: /\n", content_type="text/plain")
    web.add_page("http://loop.test/", html_page("Loop", _links("/page.html")))
    web.add_page("http://loop.test/page.html", html_page("Page", ""))

    # exactly 5 redirects are followed
    web.add_redirect("http://five.test/robots.txt", "/r1")
    for hop in range(1, 5):
        web.add_redirect(f"http://five.test/r{hop}", f"/r{hop + 1}")
    web.add_page("http://five.test/r5", "User-agent: *\nDisallow: /no/\n",
                 content_type="text/plain")
    web.add_page("http://five.test/", html_page("Five", _links("/no/x.html", "/yes.html")))
    web.add_page("http://five.test/no/x.html", html_page("No", ""))
    web.add_page("http://five.test/yes.html", html_page("Yes", ""))

    # only the first 500 KiB are parsed: the rule after the padding is ignored
    padding = "# " + "x" * 98 + "\n"
    web.set_robots("big.test", "User-agent: *\nDisallow: /early/\n" + padding * 5200
                   + "Disallow: /late/\n")
    web.add_page("http://big.test/", html_page("Big", _links("/early/x.html", "/late/x.html")))
    web.add_page("http://big.test/early/x.html", html_page("Early", ""))
    web.add_page("http://big.test/late/x.html", html_page("Late", ""))
    # dead.test is not served: the connection is dropped

    # sitemaps named in robots.txt (ROBOTS_FOLLOW_SITEMAPS): an index, a plain and a
    # gzipped sitemap; their URLs are scheduled like links, robots.txt still applies
    web.set_robots("maps.test", (
        "User-agent: *\nDisallow: /private/\n"
        "Sitemap: http://maps.test/sitemap_index.xml\n"
    ))
    web.add_page("http://maps.test/sitemap_index.xml", _sitemap("sitemapindex", "sitemap", [
        "http://maps.test/sitemap.xml", "http://maps.test/sitemap2.xml.gz"]),
        content_type="application/xml")
    web.add_page("http://maps.test/sitemap.xml", _sitemap("urlset", "url", [
        "http://maps.test/deep1.html", "http://maps.test/private/x.html"]),
        content_type="application/xml")
    web.add_page("http://maps.test/sitemap2.xml.gz", gzip.compress(_sitemap("urlset", "url", [
        "http://maps.test/deep2.html"])), content_type="application/gzip")
    for path in ("/", "/deep1.html", "/deep2.html", "/private/x.html"):
        web.add_page(f"http://maps.test{path}", html_page(path, ""))
    return web


def _sitemap(root: str, entry: str, urls: list[str]) -> bytes:
    entries = "".join(f"<{entry}><loc>{url}</loc></{entry}>" for url in urls)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</{root}>').encode()


def test_robots_semantics_on_the_request_log(sandbox, run_crawl, db):
    server = sandbox(robots_web())
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://portal.test/"},
        settings={"RETRY_TIMES": 0, "ROBOTS_FOLLOW_SITEMAPS": True},
    ).check()
    hosts = by_host(server)

    # The decision comes first: every host's first request is its robots.txt.
    for host, records in hosts.items():
        if host != "cdn.test":
            assert records[0].path == "/robots.txt", (host, records[0])

    assert targets(server, "r503.test") == ["/robots.txt"]
    assert sorted(targets(server, "r404.test")) == [
        "/", "/a.html", "/b.html", "/c.html", "/robots.txt"]
    assert sorted(targets(server, "rules.test")) == [
        "/", "/doc.pdf?page=2", "/private/open.html", "/public.html", "/robots.txt"]
    assert targets(server, "moved.test") == ["/robots.txt", "/", "/ok.html"]
    assert targets(server, "cdn.test") == ["/moved-robots.txt"]
    assert targets(server, "loop.test")[:6] == ["/robots.txt", "/r1", "/r2", "/r3", "/r4", "/r5"]
    assert sorted(targets(server, "loop.test")[6:]) == ["/", "/page.html"]
    assert targets(server, "five.test")[:5] == ["/robots.txt", "/r1", "/r2", "/r3", "/r4"]
    assert sorted(targets(server, "five.test")[5:]) == ["/", "/r5", "/yes.html"]
    assert sorted(targets(server, "big.test")) == ["/", "/late/x.html", "/robots.txt"]
    assert targets(server, "dead.test") == ["/robots.txt"]
    maps = targets(server, "maps.test")
    assert maps[0] == "/robots.txt"
    assert sorted(maps[1:]) == ["/", "/deep1.html", "/deep2.html", "/sitemap.xml",
                                "/sitemap2.xml.gz", "/sitemap_index.xml"]

    uncrawled = dict(db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s AND category <> "
        "'unsupported_mime'", (result.crawl_id,),
    ).fetchall())
    assert uncrawled == {
        "http://r503.test/": "robots_disallowed",
        "http://rules.test/private/secret.html": "robots_disallowed",
        "http://rules.test/doc.pdf": "robots_disallowed",
        "http://rules.test/tmp/x.html": "robots_disallowed",
        "http://rules.test/tmpfile.html": "robots_disallowed",
        "http://moved.test/blocked/a.html": "robots_disallowed",
        "http://five.test/no/x.html": "robots_disallowed",
        "http://big.test/early/x.html": "robots_disallowed",
        "http://maps.test/private/x.html": "robots_disallowed",
        # a host that cannot be reached at all: its URLs failed to connect
        "http://dead.test/": "connection",
    }
    stats = db.execute(
        "SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)
    ).fetchone()[0]
    assert stats["robotstxt/truncated"] == 1
    assert stats["robotstxt/unreachable"] == 2  # r503.test and dead.test


def refresh_web() -> SandboxWeb:
    web = SandboxWeb()
    web.add_page("http://portal.test/", html_page("Portal", _links(
        "http://flaky.test/", "http://ttl.test/", "http://chain.test/a.html")))
    # two slow pages, then links to hosts whose robots.txt changed in the meantime
    web.add_page("http://chain.test/a.html", html_page("A", _links("/b.html")), delay=1.0)
    web.add_page("http://chain.test/b.html", html_page("B", _links(
        "http://flaky.test/later.html", "http://ttl.test/old/x.html",
        "http://ttl.test/new/x.html")), delay=1.0)
    web.set_robots("flaky.test", "down", status=503)
    for path in ("/", "/later.html"):
        web.add_page(f"http://flaky.test{path}", html_page(path, ""))
    web.set_robots("ttl.test", "User-agent: *\nDisallow: /old/\n")
    for path in ("/", "/old/x.html", "/new/x.html"):
        web.add_page(f"http://ttl.test{path}", html_page(path, ""))
    return web


def test_robots_are_retried_and_refreshed(sandbox, run_crawl, db):
    web = refresh_web()
    server = sandbox(web)

    def change_robots_once_fetched() -> None:
        wait_until(lambda: server.requests_for("flaky.test") and server.requests_for("ttl.test"),
                   timeout=30, interval=0.01, what="both robots.txt files to be fetched")
        web.set_robots("flaky.test", "User-agent: *\nDisallow:\n")
        web.set_robots("ttl.test", "User-agent: *\nDisallow: /new/\n")

    changer = threading.Thread(target=change_robots_once_fetched, daemon=True)
    changer.start()
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://portal.test/"},
        settings={"RETRY_TIMES": 0, "ROBOTSTXT_RETRY_INTERVAL": 1,
                  "ROBOTSTXT_CACHE_TTL": 1},
    ).check()
    changer.join()
    # 503: disallowed until the retry one interval later succeeded
    assert targets(server, "flaky.test") == ["/robots.txt", "/robots.txt", "/later.html"]
    # TTL: the second robots.txt replaced the first one's rules
    assert targets(server, "ttl.test") == ["/robots.txt", "/", "/robots.txt", "/old/x.html"]
    uncrawled = dict(db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s", (result.crawl_id,)))
    assert uncrawled == {"http://flaky.test/": "robots_disallowed",
                         "http://ttl.test/new/x.html": "robots_disallowed"}
