"""Sitemaps, feeds and their reliability (crawler/incremental/signals.py), directly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from crawler.incremental.signals import (
    FEED,
    SITEMAP,
    Signal,
    SignalSources,
    feed_links,
    parse_date,
    parse_signals,
    robots_sitemaps,
)

T = datetime(2026, 11, 26, 6, 30, 0, tzinfo=UTC)

SITEMAP_XML = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://n.test/</loc><lastmod>2026-11-26T06:30:00+00:00</lastmod></url>
  <url><loc>/world/a-1.html</loc><lastmod>2026-11-26T06:29:50Z</lastmod></url>
  <url><loc>http://n.test/about</loc></url>
</urlset>"""

INDEX_XML = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>http://n.test/sitemap-1.xml</loc></sitemap></sitemapindex>"""

RSS = b"""<rss version="2.0"><channel><title>N</title>
  <item><title>A</title><link>http://n.test/world/a-1.html</link>
        <pubDate>Thu, 26 Nov 2026 06:29:50 GMT</pubDate></item>
  <item><title>B</title><link>http://n.test/b.html</link></item>
</channel></rss>"""

ATOM = b"""<feed xmlns="http://www.w3.org/2005/Atom"><title>N</title>
  <entry><link href="http://n.test/c.html"/><updated>2026-11-26T06:00:00Z</updated></entry>
</feed>"""


def test_sitemap_index_rss_atom() -> None:
    kind, signals, children = parse_signals(SITEMAP_XML, "http://n.test/sitemap.xml")
    assert kind == SITEMAP and children == []
    assert signals == [
        Signal("http://n.test/", T),
        Signal("http://n.test/world/a-1.html", T - timedelta(seconds=10)),
    ]  # a page without <lastmod> says nothing
    assert parse_signals(INDEX_XML, "http://n.test/sitemap.xml") == (
        SITEMAP,
        [],
        ["http://n.test/sitemap-1.xml"],
    )
    assert parse_signals(RSS, "http://n.test/feed.xml") == (
        FEED,
        [Signal("http://n.test/world/a-1.html", T - timedelta(seconds=10))],
        [],
    )
    assert parse_signals(ATOM, "http://n.test/atom.xml")[1] == [
        Signal("http://n.test/c.html", T - timedelta(minutes=30))
    ]
    assert parse_signals(b"<not xml", "http://n.test/x") == (FEED, [], [])


def test_dates_robots_and_feed_links() -> None:
    assert parse_date("2026-11-26") == datetime(2026, 11, 26, tzinfo=UTC)
    assert parse_date("Thu, 26 Nov 2026 07:30:00 +0100") == T
    assert parse_date("yesterday") is None
    robots = "User-agent: *\nDisallow:\nSitemap: /sitemap.xml\nsitemap: http://m.test/s.xml\n"
    assert robots_sitemaps(robots, "http://n.test/robots.txt") == [
        "http://n.test/sitemap.xml",
        "http://m.test/s.xml",
    ]
    html = (
        b'<html><head><link rel="stylesheet" href="/s.css">'
        b"<link rel='alternate' type='application/rss+xml' title='N' href='/feed.xml'>"
        b'<LINK REL="alternate" TYPE="application/atom+xml" HREF="http://n.test/atom">'
        b"</head></html>"
    )
    assert feed_links(html, "http://n.test/world/") == [
        "http://n.test/feed.xml",
        "http://n.test/atom",
    ]


def test_sitemap_reliability_is_checked() -> None:
    sources = SignalSources(interval=10, min_checks=3)
    assert sources.add("http://n.test/sitemap.xml", "n.test", SITEMAP)
    assert not sources.add("http://n.test/sitemap.xml", "n.test", SITEMAP)
    assert sources.add("http://n.test/feed.xml", "n.test", FEED)
    source, feed = sources.due(0.0)
    sources.polled(source, 0.0, T)
    sources.polled(feed, 0.0, T)
    assert sources.due(5.0) == [] and sources.due(10.0) == [source, feed]
    sources.record(source, SITEMAP, [Signal("http://n.test/a", T - timedelta(minutes=5))])
    assert sources.due(10.0) == [source]  # the sitemap lists dated pages: no feed polls
    assert sources.covers("http://n.test/a") and not sources.covers("http://n.test/b")
    # revisits that find what the sitemap said, or a change after its last poll
    for page_modified in (T - timedelta(minutes=5), T + timedelta(seconds=30), None):
        sources.check("http://n.test/a", page_modified, T + timedelta(minutes=1))
    assert not sources.reliable("n.test")  # None is not a check: 2 of 3
    sources.check("http://n.test/a", T - timedelta(minutes=5), T + timedelta(minutes=1))
    assert sources.reliable("n.test")
    # a change well before the poll that the sitemap did not report: a miss
    sources.check("http://n.test/a", T - timedelta(minutes=1), T + timedelta(minutes=1))
    assert source.misses == 1 and not sources.reliable("n.test")
