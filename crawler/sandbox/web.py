"""The sandbox web model: fake hosts, their resources, robots.txt and the ground-truth link graph.

A :class:`SandboxWeb` is a plain in-memory description of a small web. The
:class:`~crawler.sandbox.server.SandboxServer` serves it over HTTP, and tests use the
ground-truth helpers (:meth:`SandboxWeb.outlinks`, :meth:`SandboxWeb.reachable`,
:meth:`SandboxWeb.link_graph`) to assert exactly what a crawl should have fetched.

Every URL is normalised with w3lib's ``canonicalize_url`` (fragment removed, query
arguments sorted, default port dropped), so ``?b=2&a=1`` and ``?a=1&b=2`` name the same
resource, both when serving and in the ground truth.
"""

from __future__ import annotations

import gzip
import mimetypes
import posixpath
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import lxml.html
from lxml.etree import ParserError
from protego import Protego
from w3lib.encoding import html_to_unicode
from w3lib.url import canonicalize_url

HTML_TYPES = ("text/html", "application/xhtml+xml")
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 10
#: Without an explicit ``max_pages``, ground-truth walks stop with an error past this size
#: (the synthetic calendar trap is infinite).
SAFETY_LIMIT = 20_000

_HTML5_WHITESPACE = " \t\n\r\f"
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


@dataclass
class Resource:
    """One HTTP response the sandbox can serve.

    ``content_type=None`` sends no Content-Type header at all. ``headers`` are extra
    response headers (``Location`` for redirects). ``delay`` is the number of seconds the
    server waits before answering.
    """

    body: bytes = b""
    status: int = 200
    content_type: str | None = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    @property
    def is_html(self) -> bool:
        """Whether the Content-Type is an HTML type."""
        ctype = (self.content_type or "").split(";", 1)[0].strip().lower()
        return ctype in HTML_TYPES

    @property
    def location(self) -> str | None:
        """The Location header of a redirect, or None."""
        if self.status not in REDIRECT_STATUSES:
            return None
        for name, value in self.headers.items():
            if name.lower() == "location":
                return value
        return None


#: ``handler(path, query) -> Resource | None`` for :meth:`SandboxWeb.add_dynamic`.
DynamicHandler = Callable[[str, str], "Resource | None"]


@lru_cache(maxsize=200_000)
def canonical(url: str) -> str:
    """Canonical form of an absolute URL: w3lib canonicalisation, no fragment, no :80/:443."""
    url = canonicalize_url(url.strip(_HTML5_WHITESPACE), keep_fragments=False)
    parts = urlsplit(url)
    netloc = parts.netloc
    if (parts.scheme == "http" and netloc.endswith(":80")) or (
        parts.scheme == "https" and netloc.endswith(":443")
    ):
        netloc = netloc.rsplit(":", 1)[0]
        url = parts._replace(netloc=netloc).geturl()
    return url


def split_url(url: str) -> tuple[str, str, str]:
    """``(host, path, query)`` of a canonical URL; path keeps any ``;params``."""
    parts = urlsplit(url)
    return parts.netloc, parts.path or "/", parts.query


def normalize_host(host: str) -> str:
    """Lower-case host name without the default HTTP port."""
    host = host.strip().lower()
    if host.endswith(":80"):
        host = host[:-3]
    return host


def html_page(title: str, body_html: str) -> bytes:
    """A minimal UTF-8 HTML document (handy for hand-built test webs)."""
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{title}</title></head>\n<body>{body_html}</body></html>\n"
    ).encode()


def extract_links(body: bytes, content_type: str | None, page_url: str) -> list[str]:
    """Canonical http(s) URLs of the ``<a href>``/``<area href>`` links of an HTML body.

    Links are resolved against the first ``<base href>`` (itself resolved against the
    page URL) and returned unique, in document order. Other schemes (javascript:,
    mailto:, tel:, data:...) are skipped.
    """
    _, text = html_to_unicode(content_type, body)
    text = _XML_DECLARATION.sub("", text, count=1)
    if not text.strip():
        return []
    try:
        doc = lxml.html.document_fromstring(text)
    except (ParserError, ValueError):
        return []
    base = page_url
    for href in doc.xpath("//base/@href"):
        base = urljoin(page_url, str(href).strip(_HTML5_WHITESPACE))
        break
    links: dict[str, None] = {}
    for element in doc.iter("a", "area"):
        href = element.get("href")
        if href is None:
            continue
        try:
            absolute = urljoin(base, href.strip(_HTML5_WHITESPACE))
            if urlsplit(absolute).scheme not in ("http", "https"):
                continue
            links.setdefault(canonical(absolute), None)
        except ValueError:
            continue
    return list(links)


_NOT_FOUND = Resource(html_page("Not Found", "<h1>404 Not Found</h1>"), status=404)


class SandboxWeb:
    """An in-memory web: hosts, resources, robots.txt and ground truth.

    Lookup order for a URL: static pages (``add_page``/``add_redirect``/``set_robots``),
    ``any_query`` pages, dynamic handlers (longest prefix first), directory sites.
    A known host answers 404 for anything else; an unknown host is a connection failure.

    Attributes filled by the synthetic generator (empty for hand-built webs):
    ``seeds`` (seed URLs), ``topics`` (canonical URL -> topic), ``host_topics``
    (host -> topic for pages not in ``topics``), ``faults`` (kind -> URL), ``traps``
    (kind -> entry URL of an infinite trap), ``portal`` (a page linking every site's
    home page), ``duplicate_of`` / ``near_duplicate_of`` (mirror URL -> original URL).
    """

    def __init__(self) -> None:
        self._pages: dict[str, Resource] = {}
        self._any_query: dict[tuple[str, str], Resource] = {}
        self._dynamic: dict[str, list[tuple[str, DynamicHandler]]] = {}
        self._directories: dict[str, Path] = {}
        self._hosts: set[str] = set()
        self._outlinks_cache: dict[str, list[str]] = {}
        self._robots_cache: dict[str, Protego | bool] = {}
        self.seeds: list[str] = []
        self.topics: dict[str, str] = {}
        self.host_topics: dict[str, str] = {}
        self.faults: dict[str, str] = {}
        self.traps: dict[str, str] = {}
        self.portal: str | None = None
        self.duplicate_of: dict[str, str] = {}
        self.near_duplicate_of: dict[str, str] = {}

    # -- building -----------------------------------------------------------------

    def add_page(
        self,
        url: str,
        body: str | bytes = b"",
        *,
        status: int = 200,
        content_type: str | None = "text/html; charset=utf-8",
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
        any_query: bool = False,
    ) -> Resource:
        """Serve ``body`` at the absolute ``url`` (str bodies are UTF-8 encoded).

        With ``any_query=True`` the same resource also answers the URL's path with any
        query string. Returns the stored :class:`Resource`.
        """
        if isinstance(body, str):
            body = body.encode("utf-8")
        resource = Resource(body, status, content_type, dict(headers or {}), delay)
        key = canonical(url)
        host, path, _ = split_url(key)
        self._pages[key] = resource
        if any_query:
            self._any_query[(host, path)] = resource
        self._add_host(host)
        return resource

    def add_redirect(self, url: str, target: str, status: int = 301) -> Resource:
        """Answer ``url`` with a redirect (``status``) to ``target`` (absolute or relative)."""
        body = html_page("Moved", f'<p>Moved to <a href="{target}">{target}</a>.</p>')
        return self.add_page(url, body, status=status, headers={"Location": target})

    def add_dynamic(self, host: str, path_prefix: str, handler: DynamicHandler) -> None:
        """Answer paths of ``host`` starting with ``path_prefix`` by calling ``handler``.

        ``handler(path, query)`` gets the canonical path and query string and returns a
        :class:`Resource`, or None for a 404. It must be deterministic and thread-safe.
        """
        host = normalize_host(host)
        handlers = self._dynamic.setdefault(host, [])
        handlers.append((path_prefix, handler))
        handlers.sort(key=lambda item: len(item[0]), reverse=True)
        self._add_host(host)

    def set_robots(
        self, host: str, text: str | None = None, *, status: int = 200, delay: float = 0.0
    ) -> None:
        """Serve ``text`` as ``http://host/robots.txt`` with ``status``.

        Hosts without robots answer 404 (everything allowed). For the ground truth a
        4xx robots.txt allows everything and a 5xx one disallows everything.
        """
        host = normalize_host(host)
        self.add_page(
            f"http://{host}/robots.txt",
            text or "",
            status=status,
            content_type="text/plain; charset=utf-8",
            delay=delay,
        )

    def add_directory_site(self, host: str, root_dir: str | Path) -> None:
        """Serve the static files under ``root_dir`` as ``http://host/...``.

        ``/`` and ``dir/`` map to ``index.html``; a directory without a trailing slash
        redirects (301) to it; if ``x`` is missing but ``x.gz`` exists, ``x`` is served
        decompressed. Content types are guessed with :mod:`mimetypes` (no charset).
        """
        host = normalize_host(host)
        self._directories[host] = Path(root_dir)
        self._add_host(host)

    def _add_host(self, host: str) -> None:
        self._hosts.add(host)
        self._outlinks_cache.clear()
        self._robots_cache.clear()

    # -- lookup -------------------------------------------------------------------

    @property
    def hosts(self) -> list[str]:
        """Sorted list of the known host names."""
        return sorted(self._hosts)

    def urls(self) -> list[str]:
        """Canonical URLs of every static resource (pages, redirects, robots.txt)."""
        return list(self._pages)

    def resource(self, url: str) -> Resource | None:
        """The resource served at ``url``, or None (404 or unknown host). No redirects."""
        key = canonical(url)
        found = self._pages.get(key)
        if found is not None:
            return found
        host, path, query = split_url(key)
        found = self._any_query.get((host, path))
        if found is not None:
            return found
        for prefix, handler in self._dynamic.get(host, ()):
            if path.startswith(prefix):
                found = handler(path, query)
                if found is not None:
                    return found
        root = self._directories.get(host)
        if root is not None:
            return _directory_resource(root, path, query)
        return None

    def fetch(self, url: str) -> Resource | None:
        """What the server answers for ``url``: None for an unknown host, else the
        resource or a 404 page. Redirects are not followed."""
        key = canonical(url)
        host = split_url(key)[0]
        if host not in self._hosts:
            return None
        found = self.resource(key)
        return _NOT_FOUND if found is None else found

    def redirect_target(self, url: str) -> str | None:
        """Canonical absolute target if ``url`` answers with a redirect, else None."""
        found = self.fetch(url)
        if found is None or found.location is None:
            return None
        return canonical(urljoin(canonical(url), found.location))

    def final_url(self, url: str) -> str:
        """Canonical URL reached from ``url`` after following redirects."""
        current = canonical(url)
        for _ in range(MAX_REDIRECTS):
            target = self.redirect_target(current)
            if target is None:
                break
            current = target
        return current

    def is_html_ok(self, url: str) -> bool:
        """Whether fetching ``url`` yields a 200 HTML page (after redirects)."""
        found = self.fetch(self.final_url(url))
        return found is not None and found.status == 200 and found.is_html

    def topic_of(self, url: str) -> str | None:
        """Topic of the page at ``url`` (from ``topics``, else its host's), or None."""
        key = canonical(url)
        topic = self.topics.get(key)
        if topic is None:
            topic = self.host_topics.get(split_url(key)[0])
        return topic

    # -- ground truth -------------------------------------------------------------

    def outlinks(self, url: str) -> list[str]:
        """Canonical http(s) links of the 200 HTML page at ``url`` ([] for anything else).

        Computed by parsing the served HTML with lxml, see :func:`extract_links`.
        """
        key = canonical(url)
        return list(self._outlinks(key, None))

    def _outlinks(self, key: str, found: Resource | None) -> list[str]:
        """Cached outlinks of canonical ``key``; ``found`` saves a lookup if known."""
        cached = self._outlinks_cache.get(key)
        if cached is None:
            if found is None:
                found = self.fetch(key)
            if found is None or found.status != 200 or not found.is_html:
                cached = []
            else:
                cached = extract_links(found.body, found.content_type, key)
            self._outlinks_cache[key] = cached
        return cached

    def robots_allows(self, url: str, user_agent: str = "crawler") -> bool:
        """Whether the sandbox's own robots.txt lets ``user_agent`` fetch ``url``."""
        key = canonical(url)
        host = split_url(key)[0]
        rules = self._robots_cache.get(host)
        if rules is None:
            robots = self.fetch(f"{urlsplit(key).scheme}://{host}/robots.txt")
            if robots is None or robots.status != 200:
                rules = robots is None or robots.status < 500
            else:
                rules = Protego.parse(robots.body.decode("utf-8", "replace"))
            self._robots_cache[host] = rules
        if isinstance(rules, bool):
            return rules
        return rules.can_fetch(key, user_agent)

    def reachable(
        self,
        seeds: Iterable[str],
        *,
        obey_robots: bool = True,
        user_agent: str = "crawler",
        max_depth: int | None = None,
        max_pages: int | None = None,
        deny_extensions: Iterable[str] = (),
        known_hosts_only: bool = False,
    ) -> dict[str, int]:
        """Breadth-first ground truth: ``{canonical_url: depth}`` of every URL a crawler
        following all links from ``seeds`` would request.

        Includes URLs ending as errors, non-HTML or redirects; only 200 HTML pages have
        their links followed. Redirect targets are requested too, at the depth of the
        redirecting URL. With ``obey_robots`` robots-disallowed URLs are left out.
        ``max_depth`` drops links deeper than it; ``max_pages`` caps the result size
        (needed with the infinite calendar trap: without it a walk growing past
        :data:`SAFETY_LIMIT` URLs raises ``RuntimeError``). ``deny_extensions`` (e.g.
        ``["png"]``) drops discovered links whose path ends with those extensions, and
        ``known_hosts_only`` drops links to hosts this web does not serve (the doc corpora
        link to many real sites, which the server answers as connection failures).
        """
        denied = tuple("." + ext.lower().lstrip(".") for ext in deny_extensions)
        depths: dict[str, int] = {}
        queue: deque[str] = deque()

        def admit(url: str, depth: int) -> bool:
            if url in depths:
                return False
            if max_pages is not None and len(depths) >= max_pages:
                return False
            if max_pages is None and len(depths) >= SAFETY_LIMIT:
                raise RuntimeError(
                    f"more than {SAFETY_LIMIT} reachable URLs (a spider trap?): pass max_pages"
                )
            if obey_robots and not self.robots_allows(url, user_agent):
                return False
            depths[url] = depth
            return True

        for seed in seeds:
            seed = canonical(seed)
            if admit(seed, 0):
                queue.append(seed)
        while queue:
            url = queue.popleft()
            depth = depths[url]
            found = self.fetch(url)
            if found is not None and found.location is not None:
                target = canonical(urljoin(url, found.location))
                # Processed next so the queue stays ordered by depth.
                if admit(target, depth):
                    queue.appendleft(target)
                continue
            if found is None or (max_depth is not None and depth >= max_depth):
                continue
            for link in self._outlinks(url, found):
                if denied and urlsplit(link).path.lower().endswith(denied):
                    continue
                if known_hosts_only and split_url(link)[0] not in self._hosts:
                    continue
                if admit(link, depth + 1):
                    queue.append(link)
        return depths

    def link_graph(
        self,
        seeds: Iterable[str] | None = None,
        *,
        obey_robots: bool = True,
        max_pages: int | None = None,
    ) -> dict[str, list[str]]:
        """``{page: outlinks}`` for 200 HTML pages, for PageRank ground truth.

        Without seeds: every static page (``add_page``) that is a 200 HTML page; directory
        and dynamic sites are only covered when seeds are given. With seeds: the 200 HTML
        pages of :meth:`reachable` (pass ``max_pages`` if a trap is reachable). Outlinks
        are returned as :meth:`outlinks` gives them (they may point to non-HTML, missing
        or disallowed URLs, or to the page itself).
        """
        if seeds is None:
            candidates: Iterable[str] = self._pages
        else:
            candidates = self.reachable(seeds, obey_robots=obey_robots, max_pages=max_pages)
        graph: dict[str, list[str]] = {}
        for url in candidates:
            found = self.fetch(url)
            if found is not None and found.status == 200 and found.is_html:
                graph[url] = self.outlinks(url)
        return graph


def _directory_resource(root: Path, path: str, query: str) -> Resource | None:
    """Static file lookup for :meth:`SandboxWeb.add_directory_site`."""
    relative = unquote(path.split(";", 1)[0])
    if relative.endswith("/"):
        relative += "index.html"
    relative = posixpath.normpath(relative).lstrip("/")
    if relative.startswith("..") or "\x00" in relative:
        return None
    file_path = root / relative
    if file_path.is_dir():
        target = path + "/" + ("?" + query if query else "")
        return Resource(
            html_page("Moved", "<p>Moved.</p>"), status=301, headers={"Location": target}
        )
    try:
        if file_path.is_file():
            body = file_path.read_bytes()
        else:
            gz_path = file_path.with_name(file_path.name + ".gz")
            if not gz_path.is_file():
                return None
            body = gzip.decompress(gz_path.read_bytes())
    except (OSError, EOFError):
        return None
    content_type = mimetypes.guess_type(file_path.name)[0] or "application/octet-stream"
    return Resource(body, 200, content_type)
