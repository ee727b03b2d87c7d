"""Change signals a site gives away: sitemaps with ``<lastmod>`` and RSS/Atom feeds.

One request to a sitemap or a feed tells when many pages last changed; polled (as a
conditional GET, so an unchanged one costs a 304), it names the pages that changed since
the crawler's copy, which are then revisited first, and with a reliable sitemap blind
revisits can be few (issue 26). A sitemap lists every page it covers; a feed only the
latest entries, so a page missing from a feed says nothing.

Plain functions and a small class; the spider polls and the store applies the result.
Reliability is checked, never assumed: every revisit of a page a sitemap covers compares
the page's own Last-Modified with what the sitemap said at its last poll.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin

SITEMAP = "sitemap"
FEED = "feed"

_FEED_LINK = re.compile(rb"<link\b[^>]*>", re.IGNORECASE)
_ATTR = re.compile(rb"""([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_FEED_TYPES = {b"application/rss+xml", b"application/atom+xml"}


@dataclass(frozen=True)
class Signal:
    """A page a sitemap or a feed lists, and when it last changed by that source."""

    url: str
    modified: datetime


def parse_date(text: str | None) -> datetime | None:
    """A W3C datetime (sitemaps, Atom) or an RFC 822 date (RSS), as an aware UTC datetime;
    None when absent or unreadable. A date without a time is midnight UTC."""
    if not text:
        return None
    text = text.strip()
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            value = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


def _child_text(element: ET.Element, *names: str) -> str | None:
    for child in element:
        if _local(child.tag) in names and child.text:
            return child.text.strip()
    return None


def parse_signals(body: bytes, base_url: str) -> tuple[str, list[Signal], list[str]]:
    """What a sitemap or feed document says: its kind (``sitemap`` or ``feed``), the
    pages with a change date, and (a sitemap index) the sitemaps it points to.
    Unreadable XML: no signals."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        return FEED, [], []
    kind = _local(root.tag)
    signals: list[Signal] = []
    children: list[str] = []
    if kind in ("urlset", "sitemapindex"):
        for entry in root:
            loc = _child_text(entry, "loc")
            if not loc:
                continue
            if kind == "sitemapindex":
                children.append(urljoin(base_url, loc))
                continue
            modified = parse_date(_child_text(entry, "lastmod"))
            if modified is not None:
                signals.append(Signal(urljoin(base_url, loc), modified))
        return SITEMAP, signals, children
    # RSS 2.0 (<rss><channel><item>), RSS 1.0 (<rdf:RDF><item>) or Atom (<feed><entry>)
    for entry in root.iter():
        name = _local(entry.tag)
        if name == "item":
            link = _child_text(entry, "link")
            date = _child_text(entry, "pubdate", "date", "updated", "modified")
        elif name == "entry":
            link = next(
                (
                    child.get("href")
                    for child in entry
                    if _local(child.tag) == "link" and child.get("rel", "alternate") == "alternate"
                ),
                None,
            )
            date = _child_text(entry, "updated", "published")
        else:
            continue
        modified = parse_date(date)
        if link and modified is not None:
            signals.append(Signal(urljoin(base_url, link.strip()), modified))
    return FEED, signals, children


def robots_sitemaps(text: str, base_url: str) -> list[str]:
    """The ``Sitemap:`` lines of a robots.txt."""
    found = []
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "sitemap" and value.strip():
            found.append(urljoin(base_url, value.strip()))
    return found


def feed_links(html: bytes, base_url: str) -> list[str]:
    """Feeds a page announces: ``<link rel="alternate" type="application/rss+xml"
    href=...>`` (or atom+xml)."""
    found = []
    for tag in _FEED_LINK.findall(html[:200_000]):
        attrs = {
            m.group(1).lower(): (m.group(2) or m.group(3) or m.group(4) or b"")
            for m in _ATTR.finditer(tag)
        }
        rel = attrs.get(b"rel", b"").lower().split()
        if b"alternate" in rel and attrs.get(b"type", b"").lower() in _FEED_TYPES:
            href = attrs.get(b"href", b"").decode("utf-8", "replace").strip()
            if href:
                found.append(urljoin(base_url, href))
    return found


@dataclass
class Source:
    """One sitemap or feed being polled."""

    url: str
    host: str
    kind: str = FEED
    next_poll: float = 0.0
    etag: str | None = None
    last_poll: datetime | None = None
    # what a sitemap said at its last poll, for the reliability check
    modified: dict[str, datetime] = field(default_factory=dict)
    checks: int = 0
    misses: int = 0


class SignalSources:
    """The sitemaps and feeds of a crawl's hosts: when each is due for a poll, what they
    last said, and whether a host's sitemap can be trusted to name its changes.

    A sitemap is reliable after ``min_checks`` revisits of pages it covers of which at
    most ``max_miss_share`` found a change it had not reported though its last poll came
    after the change (``slack`` seconds of tolerance for its own refresh)."""

    def __init__(
        self,
        interval: float,
        min_checks: int = 5,
        max_miss_share: float = 0.1,
        slack: float = 5.0,
    ) -> None:
        self.interval = interval
        self.min_checks = min_checks
        self.max_miss_share = max_miss_share
        self.slack = timedelta(seconds=slack)
        self.sources: dict[str, Source] = {}

    def add(self, url: str, host: str, kind: str = FEED) -> bool:
        """Start polling a source (now); False if it is known already."""
        if url in self.sources:
            return False
        self.sources[url] = Source(url, host, kind)
        return True

    def due(self, now: float) -> list[Source]:
        """Sources to poll now; a host's feeds not while one of its sitemaps lists dated
        pages (a feed's latest entries are among them)."""
        mapped = {s.host for s in self.sources.values() if s.kind == SITEMAP and s.modified}
        return [
            s
            for s in self.sources.values()
            if s.next_poll <= now and not (s.kind == FEED and s.host in mapped)
        ]

    def polled(self, source: Source, now: float, at: datetime) -> None:
        source.next_poll = now + self.interval
        source.last_poll = at

    def record(self, source: Source, kind: str, signals: list[Signal]) -> None:
        source.kind = kind
        if kind == SITEMAP:
            for signal in signals:
                source.modified[signal.url] = signal.modified

    def sitemap_of(self, url: str) -> Source | None:
        for source in self.sources.values():
            if source.kind == SITEMAP and url in source.modified:
                return source
        return None

    def check(self, url: str, page_modified: datetime | None, fetched: datetime) -> None:
        """A revisit's verdict on the sitemap that covers the page: a change (the page's
        Last-Modified) older than the sitemap's last poll but newer than what the sitemap
        said is a miss."""
        source = self.sitemap_of(url)
        if source is None or source.last_poll is None or page_modified is None:
            return
        source.checks += 1
        said = source.modified[url]
        if said + self.slack < page_modified <= source.last_poll - self.slack:
            source.misses += 1

    def reliable(self, host: str) -> bool:
        """A sitemap of the host covers its pages and has been checked right."""
        return any(
            s.host == host
            and s.kind == SITEMAP
            and s.checks >= self.min_checks
            and s.misses <= self.max_miss_share * s.checks
            for s in self.sources.values()
        )

    def covers(self, url: str) -> bool:
        return self.sitemap_of(url) is not None
