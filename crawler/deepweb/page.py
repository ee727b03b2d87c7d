"""What the smart crawler reads from a page besides its forms: each link with its anchor
text and the text around it (the paper's A and T link features), and whether the link is
part of the page's navigation (a menu: what the site itself calls its sections, whatever
its URLs say)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from scrapy.utils.sitemap import Sitemap

from crawler.focus.query import terms
from crawler.urls import canonical_url

#: words of the text around a link kept on each side
AROUND_WORDS = 12
#: elements that hold a page's navigation
NAVIGATION_TAGS = frozenset({"nav", "menu", "header"})
#: words of an ancestor's id or class that say it is a menu
NAVIGATION_WORDS = frozenset(
    {
        "nav",
        "navbar",
        "navigation",
        "menu",
        "menubar",
        "mainmenu",
        "topbar",
        "sidebar",
        "sitenav",
    }
)
_CLASS_WORD = re.compile(r"[a-z]+")
_PATH_SPLIT = re.compile(r"[^A-Za-z0-9]+")
#: elements whose ``src`` document is shown inside the page
_FRAME_TAGS = ("frame", "iframe")
#: a page linking to at least this many other sites lists sites (a directory's category,
#: a blogroll, a partners page): its URL path and title describe the sites it lists
LIST_PAGE_MIN_SITES = 3


@dataclass(frozen=True)
class LinkContext:
    url: str  # canonical
    anchor: str
    around: str  # words of the enclosing block, anchor excluded
    navigation: bool = False  # inside a menu (nav, header, role=navigation, class "menu")
    # a frame's or iframe's document: part of the page that shows it, not a link a user
    # chooses (a site's search widget is often an iframe of its home page)
    embedded: bool = False


def is_navigation(element: Any) -> bool:
    """A ``nav``/``menu``/``header`` element, ``role="navigation"``, or an id or class
    that says menu/nav."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in NAVIGATION_TAGS or (element.get("role") or "").lower() == "navigation":
        return True
    names = f"{element.get('id') or ''} {element.get('class') or ''}".lower()
    return bool(NAVIGATION_WORDS.intersection(_CLASS_WORD.findall(names)))


def in_navigation(element: Any) -> bool:
    """Whether an element sits in a page's navigation (:func:`is_navigation` of one of
    its ancestors)."""
    return any(is_navigation(ancestor) for ancestor in element.iterancestors())


def _words(text: str | None) -> list[str]:
    return (text or "").split()


def anchor_text(element: Any) -> str:
    """A link's words: its text, else the alt text of its images (a menu of image
    buttons), else its title attribute; an ``area``'s alt text."""
    if element.tag in _FRAME_TAGS:
        return " ".join(_words(element.get("title") or element.get("name")))
    if element.tag != "a":
        return " ".join(_words(element.get("alt")))
    text = " ".join(_words(element.text_content()))
    if text:
        return text
    alts = [" ".join(_words(img.get("alt"))) for img in element.iter("img")]
    return " ".join(a for a in alts if a) or " ".join(_words(element.get("title")))


def link_contexts(doc: Any, around_words: int = AROUND_WORDS) -> list[LinkContext]:
    """The http(s) links of a parsed page (crawler.deepweb.forms.parse_html, links made
    absolute), first occurrence of each URL with words (:func:`anchor_text`), with
    anchor and surrounding text."""
    if doc is None:
        return []
    found: dict[str, LinkContext] = {}
    for element in doc.iter("a", "area", *_FRAME_TAGS):
        embedded = element.tag in _FRAME_TAGS
        href = element.get("src" if embedded else "href")
        url = canonical_url(href.strip()) if href else None
        if url is None:
            continue
        if url in found and (found[url].anchor or embedded):
            if embedded and not found[url].embedded:
                found[url] = replace(found[url], embedded=True)
            continue
        anchor = anchor_text(element)
        if url in found and not anchor:
            continue  # an image link without alt text, then again without words
        parent = element.getparent()
        before: list[str] = []
        after: list[str] = []
        if parent is not None:
            before = _words(parent.text)
            seen = False
            for child in parent:
                if child is element:
                    seen = True
                    after += _words(child.tail)
                    continue
                words = _words(child.text_content()) + _words(child.tail)
                (after if seen else before).extend(words)
        around = before[-around_words:] + after[:around_words]
        navigation = in_navigation(element) or (url in found and found[url].navigation)
        embedded = embedded or (url in found and found[url].embedded)
        found[url] = LinkContext(url, anchor, " ".join(around), navigation, embedded)
    return list(found.values())


def list_page_words(url: str, title: str, links: list[LinkContext]) -> set[str]:
    """The stemmed words of a page's URL path and title when the page lists sites (links
    to :data:`LIST_PAGE_MIN_SITES` hosts other than its own or more), else none: the
    category of a directory (``/dir/arts-movies-video-stores/``) names what the sites it
    lists are about."""
    own = urlsplit(url).netloc.lower()
    hosts = {urlsplit(link.url).netloc.lower() for link in links} - {own, ""}
    if len(hosts) < LIST_PAGE_MIN_SITES:
        return set()
    return set(terms(f"{title} {_PATH_SPLIT.sub(' ', urlsplit(url).path)}"))


#: what a site calls the page listing its pages, letters only ("Site map", "/site-map",
#: "sitemap.html", "Site index")
SITE_MAP_NAMES = frozenset({"sitemap", "siteindex"})
_LETTERS = re.compile(r"[^a-z]+")
#: a URL path that is one language's part of a site: ``/en/``, ``/de/``, ``/en-gb/``
_LANGUAGE_PATH = re.compile(r"^/([a-z]{2})(?:[-_][a-z]{2})?/(?:index\.html?)?$")
#: a home page linking to this many language parts or more is a language chooser
LANGUAGE_CHOOSER_MIN = 2


def names_site_map(url: str, anchor: str) -> bool:
    """A link to the site's own index of its pages: its anchor or its URL's last path
    segment (extension left out) says "site map" or "site index". An XML sitemap is
    not a page a user follows; robots.txt names it (not read here)."""
    segments = [s for s in urlsplit(url).path.lower().split("/") if s]
    last = segments[-1].rsplit(".", 1) if segments else [""]
    if len(last) == 2 and last[1] not in ("html", "htm", "php", "asp", "aspx"):
        return False
    return (
        _LETTERS.sub("", last[0]) in SITE_MAP_NAMES
        or _LETTERS.sub("", anchor.lower()) in SITE_MAP_NAMES
    )


def language_entry(home: str, links: list[LinkContext], language: str = "en") -> str | None:
    """The way into a site whose home page is a language chooser: its link to the part
    of the site in ``language`` (``/en/``), else to the first language linked. A home
    page is a chooser when it links to :data:`LANGUAGE_CHOOSER_MIN` language parts of
    its own host or more (``/en/``, ``/de/``) and has no menu of its own besides them (a
    site in one language with a language switch in its header has one). None when it
    is not one."""
    host = urlsplit(home).netloc.lower()
    parts: dict[str, str] = {}  # language -> first URL of it
    for link in links:
        url = urlsplit(link.url)
        match = _LANGUAGE_PATH.match(url.path.lower())
        if url.netloc.lower() != host:
            continue
        if match and not url.query:
            parts.setdefault(match.group(1), link.url)
        elif link.navigation:
            return None
    if len(parts) < LANGUAGE_CHOOSER_MIN:
        return None
    return parts.get(language) or next(iter(parts.values()))


#: <loc> entries of a site's XML sitemap read as its links at most
SITEMAP_MAX_LINKS = 500


def sitemap_locations(body: bytes, limit: int = SITEMAP_MAX_LINKS) -> list[str]:
    """The page URLs (``<loc>``, canonical) of an XML sitemap (a ``urlset``; an index of
    sitemaps names no page: none), at most ``limit``; none when the body is no sitemap."""
    try:
        sitemap = Sitemap(body)
    except Exception:  # lxml gives up on some garbage
        return []
    if sitemap.type != "urlset":
        return []
    found: dict[str, None] = {}  # (ordered, and a set)
    for entry in sitemap:
        url = canonical_url(entry.get("loc") or "")
        if url and url not in found:
            found[url] = None
            if len(found) >= limit:
                break
    return list(found)
